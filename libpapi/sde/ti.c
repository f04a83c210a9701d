/* ti.c: libsde's tool interface (sde_ti.h): what libpapi's sde component calls to name, read, reset and write the registered events. */
#include <stdlib.h>
#include <string.h>

#include "sde/sde_int.h"

int sde_ti_read_counter(uint32_t id, long long int *value)
{
	if (!value)
		return SDE_EINVAL;
	sde_lock();
	struct sde_ev *e = sde_by_id(id);
	int r = e ? sde_read(e, value) : SDE_EINVAL;
	sde_unlock();
	return r;
}

int sde_ti_write_counter(uint32_t id, long long value)
{
	sde_lock();
	struct sde_ev *e = sde_by_id(id);
	int r = SDE_EINVAL;
	if (e && (e->mode & PAPI_SDE_RW) && (e->kind == SK_VAR || e->kind == SK_CREATED)) {
		double d;
		memcpy(&d, &value, sizeof d);
		if (e->kind == SK_CREATED)
			__atomic_store_n(&e->created, value, __ATOMIC_RELAXED);
		else if (e->type == PAPI_SDE_long_long)
			memcpy(e->u.var, &value, sizeof value);
		else if (e->type == PAPI_SDE_int) {
			int i = (int)value;
			memcpy(e->u.var, &i, sizeof i);
		} else if (e->type == PAPI_SDE_double)
			memcpy(e->u.var, &d, sizeof d);
		else {
			float f = (float)d;
			memcpy(e->u.var, &f, sizeof f);
		}
		e->base = 0;	/* reads as written, and counts on from there */
		r = SDE_OK;
	}
	sde_unlock();
	return r;
}

int sde_ti_reset_counter(uint32_t id)
{
	sde_lock();
	struct sde_ev *e = sde_by_id(id);
	if (e)
		sde_reset(e);
	sde_unlock();
	return e ? SDE_OK : SDE_EINVAL;
}

int sde_ti_name_to_code(const char *event_name, uint32_t *id)
{
	if (!event_name || !id)
		return SDE_EINVAL;
	const char *sep = strstr(event_name, "::");
	/* LIBRARY::EVENT, both parts there */
	if (!sep || sep == event_name || !sep[2])
		return SDE_ENOEVNT;
	sde_lock();
	int r = SDE_OK;
	struct sde_ev *e = sde_find(event_name);
	if (!e) {
		/* A tool may name an event before its library registers it: it
		 * reads -1 until then (PAPI 7.0). */
		size_t n = (size_t)(sep - event_name);
		char *lname = strndup(event_name, n);
		struct sde_lib *lib = lname ? sde_lib_get(lname) : NULL;
		free(lname);
		r = SDE_ENOMEM;
		if (lib)
			e = sde_get(lib, sep + 2, &r);
	}
	if (e)
		*id = e->id;
	sde_unlock();
	return e ? SDE_OK : r;
}

int sde_ti_is_simple_counter(uint32_t id)
{
	sde_lock();
	struct sde_ev *e = sde_by_id(id);
	int r = e && e->kind == SK_VAR;
	sde_unlock();
	return r;
}

int sde_ti_is_counter_set_to_overflow(uint32_t id)
{
	sde_lock();
	struct sde_ev *e = sde_by_id(id);
	int r = e && e->overflow && e->kind != SK_CREATED;
	sde_unlock();
	return r;
}

int sde_ti_set_counter_overflow(uint32_t id, int threshold)
{
	sde_lock();
	struct sde_ev *e = sde_by_id(id);
	int r = SDE_EINVAL;
	if (!e || ((e->kind == SK_RECORDER || e->kind == SK_REC_AUX || e->kind == SK_CSET) && threshold > 0))
		goto out;
	__atomic_store_n(&e->overflow, threshold > 0, __ATOMIC_RELAXED);
	/* created counters report each increment; a name not registered yet
	 * starts the timer when it is registered (sde_registered) */
	r = e->kind == SK_CREATED || e->kind == SK_NONE ? SDE_OK : 0xFF;
out:
	sde_unlock();
	return r;
}

char *sde_ti_get_event_name(int id)
{
	sde_lock();
	struct sde_ev *e = id >= 0 ? sde_by_id((uint32_t)id) : NULL;
	char *n = e ? e->name : NULL;
	sde_unlock();
	return n;
}

char *sde_ti_get_event_description(int id)
{
	sde_lock();
	struct sde_ev *e = id >= 0 ? sde_by_id((uint32_t)id) : NULL;
	char *d = e ? (e->desc ? e->desc : e->name) : NULL;
	sde_unlock();
	return d;
}

int sde_ti_is_registered(uint32_t id)
{
	sde_lock();
	struct sde_ev *e = sde_by_id(id);
	int r = e && e->kind != SK_NONE;
	sde_unlock();
	return r;
}

int sde_ti_get_num_reg_events(void)
{
	sde_lock();
	int n = (int)sde_count();
	sde_unlock();
	return n;
}

int sde_ti_shutdown(void)
{
	return SDE_OK;
}

/* counters.c: the calls a library makes: papi_sde_init, counters by address, by callback and created, groups, descriptions, unregistering. */
#include <stdlib.h>
#include <string.h>

#include "sde/sde_int.h"

/* PAPI_VERBOSE prints SDE_ERROR's messages, PAPI_DEBUG=SUBSTRATE (or ALL)
 * SDEDBG's, as PAPI 7.0's libsde. */
static void read_env(void)
{
	_sde_be_verbose = getenv("PAPI_VERBOSE") != NULL;
	const char *d = getenv("PAPI_DEBUG");
	_sde_debug = d && (strstr(d, "SUBSTRATE") || strstr(d, "ALL"));
}

papi_handle_t papi_sde_init(const char *name_of_library)
{
	read_env();
	if (!name_of_library || !*name_of_library || strstr(name_of_library, "::")) {
		SDE_ERROR("papi_sde_init(): the library name %s%s%s is %s", name_of_library ? "'" : "",
			  name_of_library ? name_of_library : "(null)", name_of_library ? "'" : "",
			  name_of_library && *name_of_library ? "not one word of PAPI's event names (it contains '::')"
							      : "empty");
		return NULL;
	}
	sde_lock();
	struct sde_lib *l = sde_lib_get(name_of_library);
	sde_unlock();
	if (!l)
		SDE_ERROR("papi_sde_init(): out of memory registering '%s'", name_of_library);
	SDEDBG("papi_sde_init(): library '%s' is registered\n", name_of_library);
	return l;
}

/* The library of handle h with the lock taken (unlocked when not one). A NULL
 * handle (from a papi_sde_init that failed) makes each call do nothing. */
static int begin(papi_handle_t h, const char *call, struct sde_lib **lib)
{
	sde_lock();
	*lib = sde_lib_of(h);
	if (*lib)
		return SDE_OK;
	sde_unlock();
	SDE_ERROR("%s(): the handle is not one papi_sde_init returned", call);
	return SDE_EINVAL;
}

int papi_sde_shutdown(papi_handle_t handle)
{
	struct sde_lib *lib;
	if (!handle)
		return SDE_OK;
	int r = begin(handle, "papi_sde_shutdown", &lib);
	if (r != SDE_OK)
		return r;
	for (uint32_t i = 0; i < sde_count(); i++) {
		struct sde_ev *e = sde_by_id(i);
		if (e->lib == lib && e->kind != SK_NONE)
			sde_clear(e);
	}
	sde_unlock();
	return SDE_OK;
}

static int valid_mode(int mode)
{
	return (mode & ~(PAPI_SDE_RW | PAPI_SDE_INSTANT)) == 0;
}

/* Register event_name as a counter of kind SK_VAR or SK_CB (lock taken here). */
static int reg(papi_handle_t h, const char *call, const char *event_name, int mode, int type,
	       void *var, papi_sde_fptr_t fn, void *param)
{
	struct sde_lib *lib;
	if (!h)
		return SDE_OK;
	if (!valid_mode(mode) || type < PAPI_SDE_long_long || type > PAPI_SDE_float || (!var && !fn)) {
		SDE_ERROR("%s(): %s", call, !valid_mode(mode) ? "unknown counter mode" :
			  (!var && !fn) ? "no counter (NULL)" : "unknown counter type");
		return SDE_EINVAL;
	}
	int r = begin(h, call, &lib);
	if (r != SDE_OK)
		return r;
	struct sde_ev *e = sde_get(lib, event_name, &r);
	if (!e)
		goto out;
	if (e->kind != SK_NONE) {
		/* registered again: PAPI 7.0 keeps the first registration */
		r = e->kind == SK_VAR || e->kind == SK_CB ? SDE_OK : SDE_EINVAL;
		if (r != SDE_OK)
			SDE_ERROR("%s(): '%s' is already registered as another kind of event", call, e->name);
		goto out;
	}
	e->mode = mode;
	e->type = type;
	e->base = 0;
	if (var)
		e->u.var = var;
	else {
		e->u.cb.fn = fn;
		e->u.cb.param = param;
	}
	__atomic_store_n(&e->kind, var ? SK_VAR : SK_CB, __ATOMIC_RELEASE);
	sde_registered(e);
	r = SDE_OK;
out:
	sde_unlock();
	return r;
}

int papi_sde_register_counter(papi_handle_t handle, const char *event_name, int cntr_mode, int cntr_type,
			      void *counter)
{
	return reg(handle, "papi_sde_register_counter", event_name, cntr_mode, cntr_type, counter, NULL, NULL);
}

int papi_sde_register_counter_cb(papi_handle_t handle, const char *event_name, int cntr_mode, int cntr_type,
				 papi_sde_fptr_t callback, void *param)
{
	return reg(handle, "papi_sde_register_counter_cb", event_name, cntr_mode, cntr_type, NULL,
		   callback, param);
}

/* The registered event event_name of lib, or NULL (lock held). */
static struct sde_ev *registered(struct sde_lib *lib, const char *event_name)
{
	struct sde_ev *e = sde_lookup(lib, event_name);
	return e && e->kind != SK_NONE ? e : NULL;
}

int papi_sde_unregister_counter(void *handle, const char *event_name)
{
	struct sde_lib *lib;
	if (!handle)
		return SDE_OK;
	int r = begin(handle, "papi_sde_unregister_counter", &lib);
	if (r != SDE_OK)
		return r;
	struct sde_ev *e = registered(lib, event_name);
	if (!e) {
		SDE_ERROR("papi_sde_unregister_counter(): '%s' is not registered by library '%s'",
			  event_name ? event_name : "(null)", lib->name);
		sde_unlock();
		return SDE_EINVAL;
	}
	if (e->kind == SK_RECORDER)	/* and its :CNT ... :MAX */
		for (uint32_t i = 0; i < sde_count(); i++) {
			struct sde_ev *a = sde_by_id(i);
			if (a->kind == SK_REC_AUX && a->u.aux.rec_ev == e)
				sde_clear(a);
		}
	sde_clear(e);
	sde_unlock();
	return SDE_OK;
}

int papi_sde_describe_counter(papi_handle_t handle, const char *event_name, const char *event_description)
{
	struct sde_lib *lib;
	if (!handle)
		return SDE_OK;
	int r = begin(handle, "papi_sde_describe_counter", &lib);
	if (r != SDE_OK)
		return r;
	struct sde_ev *e = registered(lib, event_name);
	char *d = event_description ? strdup(event_description) : NULL;
	if (!e || !d) {
		r = e && event_description ? SDE_ENOMEM : SDE_EINVAL;
		SDE_ERROR("papi_sde_describe_counter(): %s", !e ? "no such counter" : "no description");
		free(d);
	} else {
		free(e->desc);
		e->desc = d;
	}
	sde_unlock();
	return r;
}

/* Of a floating-point type (a group: of floating-point members). */
static int fp_class(const struct sde_ev *e)
{
	if (e->kind == SK_GROUP)
		return e->u.group.fp;
	return e->type == PAPI_SDE_double || e->type == PAPI_SDE_float;
}

/* Is group g in group e, at any depth? (depth bounds a corrupt chain) */
static int contains(const struct sde_ev *e, const struct sde_ev *g, int depth)
{
	if (e == g)
		return 1;
	if (e->kind != SK_GROUP || depth > 64)
		return 0;
	for (const struct sde_member *m = e->u.group.members; m; m = m->next)
		if (contains(m->ev, g, depth + 1))
			return 1;
	return 0;
}

int papi_sde_add_counter_to_group(papi_handle_t handle, const char *event_name, const char *group_name,
				  uint32_t group_flags)
{
	struct sde_lib *lib;
	if (!handle)
		return SDE_OK;
	if (group_flags != PAPI_SDE_SUM && group_flags != PAPI_SDE_MAX && group_flags != PAPI_SDE_MIN) {
		SDE_ERROR("papi_sde_add_counter_to_group(): unknown group flags %u", group_flags);
		return SDE_EINVAL;
	}
	int r = begin(handle, "papi_sde_add_counter_to_group", &lib);
	if (r != SDE_OK)
		return r;
	const char *why = NULL;
	struct sde_ev *e = registered(lib, event_name), *g = NULL;
	struct sde_member *m = NULL, **tail;
	r = SDE_EINVAL;
	if (!e || e->kind == SK_RECORDER || e->kind == SK_REC_AUX || e->kind == SK_CSET) {
		why = !e ? "no such counter" : "a recorder or counting set cannot be in a group";
		goto out;
	}
	g = sde_get(lib, group_name, &r);
	if (!g) {
		why = r == SDE_ENOMEM ? "out of memory" : "no group name";
		goto out;
	}
	r = SDE_EINVAL;
	if (g->kind != SK_NONE && g->kind != SK_GROUP)
		why = "the group's name is another kind of event";
	else if (g->kind == SK_GROUP && g->u.group.flags != group_flags)
		why = "the group was made with other flags";
	else if (g->kind == SK_GROUP && g->u.group.members && g->u.group.fp != fp_class(e))
		why = "integer and floating-point counters cannot be in one group";
	else if (contains(e, g, 0))
		why = "a group cannot be in itself";
	if (why)
		goto out;
	for (tail = g->kind == SK_GROUP ? &g->u.group.members : &m; *tail; tail = &(*tail)->next)
		if ((*tail)->ev == e) {
			r = SDE_OK;	/* already a member */
			goto out;
		}
	if (!(*tail = calloc(1, sizeof **tail))) {
		r = SDE_ENOMEM;
		why = "out of memory";
		goto out;
	}
	(*tail)->ev = e;
	if (g->kind == SK_NONE) {
		g->u.group.members = m;
		g->u.group.flags = group_flags;
		g->u.group.fp = fp_class(e);
		g->type = g->u.group.fp ? PAPI_SDE_double : PAPI_SDE_long_long;
		g->mode = PAPI_SDE_RO | PAPI_SDE_DELTA;
		__atomic_store_n(&g->kind, SK_GROUP, __ATOMIC_RELEASE);
	} else if (!g->u.group.members) {
		g->u.group.fp = fp_class(e);
	}
	r = SDE_OK;
out:
	if (why)
		SDE_ERROR("papi_sde_add_counter_to_group(): '%s' to '%s': %s", event_name ? event_name : "(null)",
			  group_name ? group_name : "(null)", why);
	sde_unlock();
	return r;
}

int papi_sde_create_counter(papi_handle_t handle, const char *event_name, int cntr_mode, void **cntr_handle)
{
	struct sde_lib *lib;
	if (!handle)
		return SDE_OK;
	if (!valid_mode(cntr_mode)) {
		SDE_ERROR("papi_sde_create_counter(): unknown counter mode");
		return SDE_EINVAL;
	}
	int r = begin(handle, "papi_sde_create_counter", &lib);
	if (r != SDE_OK)
		return r;
	struct sde_ev *e = sde_get(lib, event_name, &r);
	if (e && e->kind == SK_NONE) {
		e->mode = cntr_mode;
		e->type = PAPI_SDE_long_long;
		e->base = 0;
		__atomic_store_n(&e->created, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&e->kind, SK_CREATED, __ATOMIC_RELEASE);
	} else if (e && e->kind != SK_CREATED) {
		SDE_ERROR("papi_sde_create_counter(): '%s' is already registered as another kind of event", e->name);
		e = NULL;
		r = SDE_EINVAL;
	}
	if (e) {
		r = SDE_OK;
		if (cntr_handle)
			*cntr_handle = e;
	}
	sde_unlock();
	return r;
}

int papi_sde_inc_counter(void *cntr_handle, long long int increment)
{
	if (!cntr_handle)
		return SDE_OK;
	struct sde_ev *e = sde_ev_of(cntr_handle, SK_CREATED);
	if (!e) {
		SDE_ERROR("papi_sde_inc_counter(): not the handle of a created counter");
		return SDE_EINVAL;
	}
	long long v = (long long)__atomic_add_fetch((unsigned long long *)&e->created,
						    (unsigned long long)increment, __ATOMIC_RELAXED);
	if (__atomic_load_n(&e->overflow, __ATOMIC_RELAXED))
		sde_overflow_check(e, v);
	return SDE_OK;
}

int papi_sde_reset_counter(void *cntr_handle)
{
	if (!cntr_handle)
		return SDE_OK;
	struct sde_ev *e = sde_ev_of(cntr_handle, SK_CREATED);
	if (!e) {
		SDE_ERROR("papi_sde_reset_counter(): not the handle of a created counter");
		return SDE_EINVAL;
	}
	__atomic_store_n(&e->created, 0, __ATOMIC_RELAXED);
	return SDE_OK;
}

void *papi_sde_get_counter_handle(papi_handle_t handle, const char *event_name)
{
	struct sde_lib *lib;
	if (!handle || begin(handle, "papi_sde_get_counter_handle", &lib) != SDE_OK)
		return NULL;
	struct sde_ev *e = registered(lib, event_name);
	sde_unlock();
	return e;
}

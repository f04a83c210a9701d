/* sde.c: the sde component: the software-defined events that libraries of this process register through libsde, read through libsde's tool interface (sde/sde_ti.h) as sde:::LIBRARY::COUNTER. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "4-components/components.h"
#include "sde/sde_ti.h"

/* libpapi does not link libsde: a program that links both (libsde.a, or
 * libsde.so loaded with the program) resolves these weak references; a
 * libsde loaded later (dlopen with RTLD_GLOBAL) is found by dlsym. Until
 * then the component has no events. */
#pragma weak sde_ti_read_counter
#pragma weak sde_ti_write_counter
#pragma weak sde_ti_reset_counter
#pragma weak sde_ti_get_event_name
#pragma weak sde_ti_get_event_description
#pragma weak sde_ti_get_num_reg_events
#pragma weak sde_ti_is_registered
#pragma weak sde_ti_shutdown
#pragma weak sde_ti_set_counter_overflow
#pragma weak sde_ti_is_counter_set_to_overflow

struct ti {
	int (*read)(uint32_t id, long long *value);
	int (*write)(uint32_t id, long long value);
	int (*reset)(uint32_t id);
	char *(*name)(int id);
	char *(*desc)(int id);
	int (*num)(void);
	int (*is_registered)(uint32_t id);	/* NULL in PAPI 7.0's libsde: all are */
	int (*shutdown)(void);
	int (*set_overflow)(uint32_t id, int threshold);	/* NULL: no overflow */
	int (*overflow_polled)(uint32_t id);
};

static pthread_mutex_t ti_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ti ti;
static int ti_found;	/* written under ti_lock, read with acquire */

static void *ti_sym(void *weak, const char *name)
{
	return weak ? weak : dlsym(RTLD_DEFAULT, name);
}

/* libsde's tool interface, or NULL while no libsde is in the process. */
static const struct ti *ti_get(void)
{
	if (__atomic_load_n(&ti_found, __ATOMIC_ACQUIRE))
		return &ti;
	/* Without libsde (the usual case) one lookup says so, not ten. */
	int (*num)(void) = (int (*)(void))ti_sym((void *)sde_ti_get_num_reg_events,
						 "sde_ti_get_num_reg_events");
	if (!num)
		return NULL;
	pthread_mutex_lock(&ti_lock);
	if (!ti_found) {
		struct ti t = {
			.read = (int (*)(uint32_t, long long *))ti_sym((void *)sde_ti_read_counter,
								      "sde_ti_read_counter"),
			.write = (int (*)(uint32_t, long long))ti_sym((void *)sde_ti_write_counter,
								     "sde_ti_write_counter"),
			.reset = (int (*)(uint32_t))ti_sym((void *)sde_ti_reset_counter, "sde_ti_reset_counter"),
			.name = (char *(*)(int))ti_sym((void *)sde_ti_get_event_name, "sde_ti_get_event_name"),
			.desc = (char *(*)(int))ti_sym((void *)sde_ti_get_event_description,
						       "sde_ti_get_event_description"),
			.num = num,
			.is_registered = (int (*)(uint32_t))ti_sym((void *)sde_ti_is_registered,
								  "sde_ti_is_registered"),
			.shutdown = (int (*)(void))ti_sym((void *)sde_ti_shutdown, "sde_ti_shutdown"),
			.set_overflow = (int (*)(uint32_t, int))ti_sym((void *)sde_ti_set_counter_overflow,
								      "sde_ti_set_counter_overflow"),
			.overflow_polled = (int (*)(uint32_t))ti_sym((void *)sde_ti_is_counter_set_to_overflow,
								    "sde_ti_is_counter_set_to_overflow"),
		};
		if (t.read && t.write && t.reset && t.name && t.desc && t.num) {
			ti = t;
			__atomic_store_n(&ti_found, 1, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&ti_lock);
	return ti_found ? &ti : NULL;
}

static int sde_init(char *why, size_t len)
{
	(void)why, (void)len;
	return PAPI_OK;	/* active without libsde: a library may load it later */
}

static void sde_shutdown(void)
{
	const struct ti *t = ti_get();
	if (t && t->shutdown)
		t->shutdown();
}

static int sde_nevents(void)
{
	const struct ti *t = ti_get();
	int n = t ? t->num() : 0;
	return n > 0 ? n : 0;
}

/* The names and descriptions are libsde's, which may change them (a library
 * describes a counter again): copied per thread, valid until the next call
 * of sde_event in this thread. */
static __thread char name_buf[PAPI_HUGE_STR_LEN], desc_buf[PAPI_HUGE_STR_LEN];

/* Event ev is libsde's id ev: PAPI_ENOEVNT when out of range or when no
 * library registers it now (a name unregistered since). */
static int sde_event(int ev, struct cmp_event *out)
{
	const struct ti *t = ti_get();
	if (!t || ev < 0 || ev >= sde_nevents() || (t->is_registered && !t->is_registered((uint32_t)ev)))
		return PAPI_ENOEVNT;
	const char *n = t->name(ev), *d = t->desc(ev);
	if (!n)
		return PAPI_ENOEVNT;
	snprintf(name_buf, sizeof name_buf, "%s", n);
	snprintf(desc_buf, sizeof desc_buf, "%s", d ? d : n);
	*out = (struct cmp_event){ name_buf, desc_buf, "", 0 };
	return PAPI_OK;
}

/* The event called name ("LIBRARY::COUNTER"), saying why when none is. */
static int sde_lookup(const char *name, int *ev)
{
	const struct ti *t = ti_get();
	if (!t) {
		papi_set_reason("sde:::%.200s: no library in this process registers software-defined "
				"events (libsde is not loaded): they are read only inside the program "
				"whose libraries register them, with PAPI calls or the region API "
				"(PAPI_EVENTS=sde:::...); a tool that runs the program as another "
				"process, as papi stat does, cannot read them", name);
		return PAPI_ENOEVNT;
	}
	int n = sde_nevents();
	for (int i = 0; i < n; i++) {
		struct cmp_event e;
		if (sde_event(i, &e) == PAPI_OK && strcmp(e.name, name) == 0) {
			*ev = i;
			return PAPI_OK;
		}
	}
	if (!strstr(name, "::"))
		papi_set_reason("sde:::%.200s: a software-defined event is named "
				"sde:::LIBRARY::COUNTER", name);
	else
		papi_set_reason("sde:::%.200s: no library in this process has registered it (it has "
				"%d software-defined events: papi_native_avail or PAPI_enum_cmp_event "
				"in the program lists them)", name, n);
	return PAPI_ENOEVNT;
}

/* ---- counting: each event is libsde's counter; start and reset start the
 * counters over in libsde (as PAPI 7.0: two EventSets of one counter share
 * it), a read asks libsde for the values. */
struct sde_priv {
	long long *stopped;	/* per event: the stop's values */
	int cap;
};

static int sde_update(struct cmp_set *s)
{
	struct sde_priv *p = s->priv;
	if (!p && !(p = s->priv = calloc(1, sizeof *p)))
		return PAPI_ENOMEM;
	if (s->n > p->cap) {
		long long *v = realloc(p->stopped, (size_t)s->n * sizeof *v);
		if (!v)
			return PAPI_ENOMEM;
		p->stopped = v;
		p->cap = s->n;
	}
	if (p->cap)
		memset(p->stopped, 0, (size_t)p->cap * sizeof *p->stopped);
	return PAPI_OK;
}

/* libsde's interface, which a set's events need (the reason set when gone). */
static const struct ti *set_ti(void)
{
	const struct ti *t = ti_get();
	if (!t)
		papi_set_reason("sde: libsde is not in this process");
	return t;
}

static int sde_reset_all(struct cmp_set *s)
{
	const struct ti *t = set_ti();
	if (!t)
		return PAPI_ECMP;
	for (int i = 0; i < s->n; i++)
		if (t->reset((uint32_t)s->ev[i]) != 0) {
			papi_set_reason("sde: libsde does not know event %d", s->ev[i]);
			return PAPI_ECMP;
		}
	return PAPI_OK;
}

static int sde_read_all(struct cmp_set *s, long long *v)
{
	const struct ti *t = set_ti();
	if (!t)
		return PAPI_ECMP;
	for (int i = 0; i < s->n; i++)
		if (t->read((uint32_t)s->ev[i], &v[i]) != 0) {
			papi_set_reason("sde: libsde does not know event %d", s->ev[i]);
			return PAPI_ECMP;
		}
	return PAPI_OK;
}

static int sde_start(struct cmp_set *s)
{
	return sde_reset_all(s);
}

static int sde_read(struct cmp_set *s, long long *v)
{
	struct sde_priv *p = s->priv;
	if (!s->running) {
		memcpy(v, p->stopped, (size_t)s->n * sizeof *v);
		return PAPI_OK;
	}
	return sde_read_all(s, v);
}

static int sde_stop(struct cmp_set *s, long long *v)
{
	struct sde_priv *p = s->priv;
	int r = sde_read_all(s, p->stopped);
	if (r == PAPI_OK && v)
		memcpy(v, p->stopped, (size_t)s->n * sizeof *v);
	return r;
}

static int sde_reset(struct cmp_set *s)
{
	struct sde_priv *p = s->priv;
	if (s->running)
		return sde_reset_all(s);
	memset(p->stopped, 0, (size_t)p->cap * sizeof *p->stopped);
	return PAPI_OK;
}

/* Only counters a library registered read-write (PAPI_SDE_RW) take a value. */
static int sde_write(struct cmp_set *s, const long long *v)
{
	struct sde_priv *p = s->priv;
	const struct ti *t = set_ti();
	if (!t)
		return PAPI_ECMP;
	if (!s->running) {
		memcpy(p->stopped, v, (size_t)s->n * sizeof *v);
		return PAPI_OK;
	}
	for (int i = 0; i < s->n; i++)
		if (t->write((uint32_t)s->ev[i], v[i]) != 0) {
			char *n = t->name(s->ev[i]);
			papi_set_reason("sde:::%.200s: not a counter its library registered read-write "
					"(PAPI_SDE_RW)", n ? n : "?");
			return PAPI_ENOSUPP;
		}
	return PAPI_OK;
}

static void sde_release(struct cmp_set *s)
{
	struct sde_priv *p = s->priv;
	if (p)
		free(p->stopped);
	free(p);
	s->priv = NULL;
}

/* ---- overflow, as PAPI 7.0: libsde reports each change of a counter it
 * creates (papi_sde_inc_counter calls papi_sde_check_overflow_status); the
 * others (registered by address or callback, groups) the core polls. A
 * recorder or counting set does not overflow. */
static int sde_overflow(struct cmp_set *s, int i, int threshold)
{
	const struct ti *t = set_ti();
	if (!t)
		return PAPI_ECMP;
	if (!t->set_overflow) {
		papi_set_reason("sde: this libsde cannot overflow (no sde_ti_set_counter_overflow)");
		return PAPI_ECMP;
	}
	int r = t->set_overflow((uint32_t)s->ev[i], threshold);
	if (r < 0) {
		char *n = t->name(s->ev[i]);
		papi_set_reason("sde:::%.200s: a recorder or counting set does not overflow",
				n ? n : "?");
		return PAPI_EINVAL;
	}
	return r > 0 ? CMP_OVF_POLL : CMP_OVF_PUSH;
}

static int sde_overflow_polled(struct cmp_set *s, int i)
{
	const struct ti *t = ti_get();
	return t && t->overflow_polled && t->overflow_polled((uint32_t)s->ev[i]) > 0;
}

PAPI_FIRST_DATA cmp_ovf_push_fn cmp_ovf_push;
PAPI_FIRST_DATA cmp_ovf_poll_fn cmp_ovf_poll;

/* The two calls by which libsde (PAPI 7.0's or ours) reaches into libpapi,
 * exported under PAPI 7.0's names and signatures. papi_sde_check_overflow_status:
 * created counter id now reads latest (its value since it was created), on
 * the thread that changed it; papi_sde_set_timer_for_overflow: a name set to
 * overflow before a library registered it is now registered, so the running
 * sets of this thread must poll it. Neither does anything before
 * PAPI_library_init or while no set overflows on them. */
__attribute__((visibility("default"))) void papi_sde_check_overflow_status(uint32_t id, long long latest);
__attribute__((visibility("default"))) int papi_sde_set_timer_for_overflow(void);

void papi_sde_check_overflow_status(uint32_t id, long long latest)
{
	cmp_ovf_push_fn fn = __atomic_load_n(&cmp_ovf_push, __ATOMIC_ACQUIRE);
	if (fn && id <= INT32_MAX)
		fn(&cmp_sde, (int)id, latest);
}

int papi_sde_set_timer_for_overflow(void)
{
	cmp_ovf_poll_fn fn = __atomic_load_n(&cmp_ovf_poll, __ATOMIC_ACQUIRE);
	if (fn)
		fn(&cmp_sde);
	return PAPI_OK;
}

const struct component cmp_sde = {
	.name = "sde",
	.short_name = "sde",
	.description = "Software-defined events: counters that the program's libraries register "
		       "through libsde (sde_lib.h)",
	.granularity = PAPI_GRN_PROC,
	.init = sde_init,
	.shutdown = sde_shutdown,
	.nevents = sde_nevents,
	.event = sde_event,
	.lookup = sde_lookup,
	.update = sde_update,
	.start = sde_start,
	.stop = sde_stop,
	.read = sde_read,
	.reset = sde_reset,
	.write = sde_write,
	.release = sde_release,
	.overflow = sde_overflow,
	.overflow_polled = sde_overflow_polled,
};

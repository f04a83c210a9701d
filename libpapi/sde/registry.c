/* registry.c: libsde's registry: libraries, their events by id and by name, counters and groups, and the values a tool reads. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sde/sde_int.h"

int _sde_be_verbose;
int _sde_debug;

/* One lock for the registry. Recursive: a counter's callback runs under it
 * and may itself call libsde. */
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct sde_lib *libs;
static struct sde_ev **by_id;		/* every event ever named, by id */
static uint32_t nev, cap;
static struct sde_ev **htab;		/* by name, chained; nbucket a power of two */
static uint32_t nbucket;

void sde_lock(void)
{
	pthread_mutex_lock(&lock);
}

void sde_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

struct sde_ev *sde_find(const char *full)
{
	if (!nbucket)
		return NULL;
	for (struct sde_ev *e = htab[hash(full) & (nbucket - 1)]; e; e = e->hnext)
		if (strcmp(e->name, full) == 0)
			return e;
	return NULL;
}

/* Keep the chains short: twice the buckets before there are more events
 * than buckets (the events there are move; the next one is not in yet). */
static int grow_hash(void)
{
	if (nev + 1 <= nbucket)
		return SDE_OK;
	uint32_t nb = nbucket ? 2 * nbucket : 64;
	struct sde_ev **t = calloc(nb, sizeof *t);
	if (!t)
		return SDE_ENOMEM;
	for (uint32_t i = 0; i < nev; i++) {
		struct sde_ev *e = by_id[i];
		uint32_t b = hash(e->name) & (nb - 1);
		e->hnext = t[b];
		t[b] = e;
	}
	free(htab);
	htab = t;
	nbucket = nb;
	return SDE_OK;
}

struct sde_lib *sde_lib_of(papi_handle_t h)
{
	for (struct sde_lib *l = libs; l; l = l->next)
		if (l == h)
			return l;
	return NULL;
}

struct sde_lib *sde_lib_get(const char *name)
{
	for (struct sde_lib *l = libs; l; l = l->next)
		if (strcmp(l->name, name) == 0)
			return l;
	struct sde_lib *l = calloc(1, sizeof *l);
	if (!l || !(l->name = strdup(name))) {
		free(l);
		return NULL;
	}
	l->magic = SDE_LIB_MAGIC;
	l->next = libs;
	libs = l;
	return l;
}

/* "LIBRARY::EVENT", malloc'ed, or NULL. */
static char *full_name(const struct sde_lib *lib, const char *event_name)
{
	size_t n = strlen(lib->name) + 2 + strlen(event_name) + 1;
	char *full = malloc(n);
	if (full)
		snprintf(full, n, "%s::%s", lib->name, event_name);
	return full;
}

struct sde_ev *sde_lookup(struct sde_lib *lib, const char *event_name)
{
	char *full = event_name ? full_name(lib, event_name) : NULL;
	struct sde_ev *e = full ? sde_find(full) : NULL;
	free(full);
	return e;
}

struct sde_ev *sde_get(struct sde_lib *lib, const char *event_name, int *err)
{
	*err = SDE_EINVAL;
	if (!event_name || !*event_name)
		return NULL;
	char *full = full_name(lib, event_name);
	*err = SDE_ENOMEM;
	if (!full)
		return NULL;
	struct sde_ev *e = sde_find(full);
	*err = SDE_OK;
	if (e) {
		free(full);
		return e;
	}
	*err = SDE_ENOMEM;
	if (nev == cap) {
		uint32_t c = cap ? 2 * cap : 64;
		struct sde_ev **t = realloc(by_id, c * sizeof *t);
		if (!t)
			goto fail;
		by_id = t;
		cap = c;
	}
	if (grow_hash() != SDE_OK)
		goto fail;
	e = calloc(1, sizeof *e);
	if (!e)
		goto fail;
	e->magic = SDE_EV_MAGIC;
	e->id = nev;
	e->name = full;
	e->lib = lib;
	by_id[nev++] = e;
	uint32_t b = hash(full) & (nbucket - 1);
	e->hnext = htab[b];
	htab[b] = e;
	*err = SDE_OK;
	return e;
fail:
	free(full);
	return NULL;
}

struct sde_ev *sde_by_id(uint32_t id)
{
	return id < nev ? by_id[id] : NULL;
}

uint32_t sde_count(void)
{
	return nev;
}

struct sde_ev *sde_ev_of(void *h, int k)
{
	struct sde_ev *e = h;
	if (!e || e->magic != SDE_EV_MAGIC || __atomic_load_n(&e->kind, __ATOMIC_ACQUIRE) != k)
		return NULL;
	return e;
}

/* The kinds record.c keeps: what it registered (atomic, set once). */
static const struct sde_kind_ops *kind_ops[SK_CSET + 1];

void sde_set_kind_ops(enum sde_kind k, const struct sde_kind_ops *ops)
{
	if ((unsigned)k <= SK_CSET)
		__atomic_store_n(&kind_ops[k], ops, __ATOMIC_RELEASE);
}

static const struct sde_kind_ops *ops_of(const struct sde_ev *e)
{
	unsigned k = (unsigned)e->kind;
	return k <= SK_CSET ? __atomic_load_n(&kind_ops[k], __ATOMIC_ACQUIRE) : NULL;
}

void sde_clear(struct sde_ev *e)
{
	const struct sde_kind_ops *ops = ops_of(e);
	if (e->kind == SK_GROUP) {
		for (struct sde_member *m = e->u.group.members, *nx; m; m = nx) {
			nx = m->next;
			free(m);
		}
	} else if (ops && ops->clear) {
		ops->clear(e);
	}
	free(e->desc);
	e->desc = NULL;
	memset(&e->u, 0, sizeof e->u);
	e->base = 0;
	__atomic_store_n(&e->created, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&e->kind, SK_NONE, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------- values */

static int is_fp(int type)
{
	return type == PAPI_SDE_double || type == PAPI_SDE_float;
}

static long long dbits(double d)
{
	long long v;
	memcpy(&v, &d, sizeof v);
	return v;
}

static double bitsd(long long v)
{
	double d;
	memcpy(&d, &v, sizeof d);
	return d;
}

/* A value of type at p, as a long long (fp types: a double's bits). */
static long long load(int type, const void *p)
{
	switch (type) {
	case PAPI_SDE_int: {
		int i;
		memcpy(&i, p, sizeof i);
		return i;
	}
	case PAPI_SDE_double: {
		double d;
		memcpy(&d, p, sizeof d);
		return dbits(d);
	}
	case PAPI_SDE_float: {
		float f;
		memcpy(&f, p, sizeof f);
		return dbits(f);
	}
	default: {
		long long v;
		memcpy(&v, p, sizeof v);
		return v;
	}
	}
}

/* The counter's current value (SK_VAR, SK_CB, SK_CREATED). */
static long long raw(struct sde_ev *e)
{
	switch (e->kind) {
	case SK_VAR:
		return load(e->type, e->u.var);
	case SK_CB: {
		/* the callback returns the type's bytes in a long long, as PAPI 7.0 reads them */
		long long r = e->u.cb.fn(e->u.cb.param);
		return load(e->type, &r);
	}
	default:
		return __atomic_load_n(&e->created, __ATOMIC_RELAXED);
	}
}

/* A group's value: its members' combined (depth bounds a corrupt chain). */
static long long group_value(struct sde_ev *g, int depth)
{
	long long acc = 0;
	double dacc = 0;
	int first = 1, fp = g->u.group.fp;
	for (struct sde_member *m = g->u.group.members; m; m = m->next) {
		struct sde_ev *e = m->ev;
		long long v;
		if (e->kind == SK_GROUP && depth < 64)
			v = group_value(e, depth + 1);
		else if (e->kind == SK_VAR || e->kind == SK_CB || e->kind == SK_CREATED)
			sde_read(e, &v);
		else
			continue;	/* unregistered since */
		uint32_t f = g->u.group.flags;
		if (fp) {
			double d = bitsd(v);
			if (first || (f == PAPI_SDE_MAX && d > dacc) || (f == PAPI_SDE_MIN && d < dacc))
				dacc = d;
			else if (f == PAPI_SDE_SUM)
				dacc += d;
		} else {
			if (first || (f == PAPI_SDE_MAX && v > acc) || (f == PAPI_SDE_MIN && v < acc))
				acc = v;
			else if (f == PAPI_SDE_SUM)
				acc = (long long)((unsigned long long)acc + (unsigned long long)v);
		}
		first = 0;
	}
	return fp ? dbits(dacc) : acc;
}

int sde_read(struct sde_ev *e, long long *v)
{
	switch (e->kind) {
	case SK_NONE:
		*v = -1;	/* PAPI 7.0's value of an event no library registers */
		return SDE_OK;
	case SK_VAR:
	case SK_CB:
	case SK_CREATED: {
		long long r = raw(e);
		if (e->mode & PAPI_SDE_INSTANT)
			*v = r;
		else if (is_fp(e->type))
			*v = dbits(bitsd(r) - bitsd(e->base));
		else
			*v = (long long)((unsigned long long)r - (unsigned long long)e->base);
		return SDE_OK;
	}
	case SK_GROUP:
		*v = group_value(e, 0);
		return SDE_OK;
	default: {
		const struct sde_kind_ops *ops = ops_of(e);
		if (ops && ops->read)
			return ops->read(e, v);
		break;
	}
	}
	return SDE_EINVAL;
}

static void reset_depth(struct sde_ev *e, int depth)
{
	if (e->kind == SK_VAR || e->kind == SK_CB || e->kind == SK_CREATED)
		e->base = raw(e);
	else if (e->kind == SK_GROUP && depth < 64)
		for (struct sde_member *m = e->u.group.members; m; m = m->next)
			reset_depth(m->ev, depth + 1);
}

void sde_reset(struct sde_ev *e)
{
	reset_depth(e, 0);
}

/* ---------------------------------------------------------------- libpapi's overflow calls */

/* PAPI 7.0's libpapi defines these for libsde; found when present, weakly
 * when linked into one program, else by name in the process. */
extern void papi_sde_check_overflow_status(uint32_t id, long long value) __attribute__((weak));
extern int papi_sde_set_timer_for_overflow(void) __attribute__((weak));

static void *papi_fn(void *weak, const char *name)
{
	return weak ? weak : dlsym(RTLD_DEFAULT, name);
}

void sde_registered(struct sde_ev *e)
{
	if (!e->overflow || e->kind == SK_CREATED)
		return;
	int (*timer)(void) = (int (*)(void))papi_fn((void *)papi_sde_set_timer_for_overflow,
						    "papi_sde_set_timer_for_overflow");
	if (timer)
		timer();
}

void sde_overflow_check(struct sde_ev *e, long long value)
{
	void (*check)(uint32_t, long long) = (void (*)(uint32_t, long long))
		papi_fn((void *)papi_sde_check_overflow_status, "papi_sde_check_overflow_status");
	if (check)
		check(e->id, value);
}

/* record.c: recorders (values kept in order, with their count, extremes and quartiles) and counting sets (distinct elements counted). */
#include <stdlib.h>
#include <string.h>

#include "sde/sde_int.h"

const char *const sde_aux_suffix[AUX_N] = { ":CNT", ":MIN", ":Q1", ":MED", ":Q3", ":MAX" };
static const int quantile_pct[AUX_N] = { [AUX_Q1] = 25, [AUX_MED] = 50, [AUX_Q3] = 75 };

struct sde_rec {
	size_t size;			/* of one value */
	char *buf;			/* n values, room for cap */
	long long n, cap;
	int (*cmp)(const void *, const void *);
	char *sorted;			/* the values sorted, while nsorted == n */
	long long nsorted;
};

static void rec_free(struct sde_rec *r)
{
	if (r) {
		free(r->buf);
		free(r->sorted);
		free(r);
	}
}

/* How the registry reads and frees the events kept here (defined below,
 * registered before the first one is made). */
static const struct sde_kind_ops rec_ops, aux_ops, cset_ops;

/* The handle of a recorder, for the calls below (lock held). */
static struct sde_rec *rec_of(void *h, const char *call)
{
	struct sde_ev *e = sde_ev_of(h, SK_RECORDER);
	if (!e)
		SDE_ERROR("%s(): not the handle of a recorder", call);
	return e ? e->u.rec : NULL;
}

int papi_sde_create_recorder(papi_handle_t handle, const char *event_name, size_t typesize,
			     int (*cmpr_func_ptr)(const void *p1, const void *p2), void **record_handle)
{
	if (!handle)
		return SDE_OK;
	if (!typesize || !event_name) {
		SDE_ERROR("papi_sde_create_recorder(): %s", !typesize ? "values of size 0" : "no name");
		return SDE_EINVAL;
	}
	sde_lock();
	struct sde_lib *lib = sde_lib_of(handle);
	struct sde_ev *e = NULL, *aux[AUX_N] = { 0 };
	int naux = cmpr_func_ptr ? AUX_N : 1, r = SDE_EINVAL;
	const char *why = "the handle is not one papi_sde_init returned";
	if (!lib || !(e = sde_get(lib, event_name, &r)))
		goto out;
	sde_set_kind_ops(SK_RECORDER, &rec_ops);
	sde_set_kind_ops(SK_REC_AUX, &aux_ops);
	if (e->kind == SK_RECORDER) {	/* made before: the same recorder */
		why = e->u.rec->size == typesize ? NULL : "already made with another value size";
		r = why ? SDE_EINVAL : SDE_OK;
		goto out;
	}
	why = "the name is another kind of event";
	if (e->kind != SK_NONE)
		goto out;
	size_t len = strlen(event_name);
	char *name = malloc(len + 8);
	why = "out of memory";
	r = SDE_ENOMEM;
	if (!name)
		goto out;
	for (int i = 0; i < naux; i++) {
		memcpy(name, event_name, len);
		strcpy(name + len, sde_aux_suffix[i]);
		if (!(aux[i] = sde_get(lib, name, &r)))
			break;
		if (aux[i]->kind != SK_NONE) {
			why = "a name of its reductions (:CNT ... :MAX) is another event's";
			r = SDE_EINVAL;
			aux[i] = NULL;
			break;
		}
	}
	free(name);
	struct sde_rec *rec = NULL;
	if (aux[naux - 1]) {
		r = SDE_ENOMEM;
		why = "out of memory";
		rec = calloc(1, sizeof *rec);
	}
	if (!rec)
		goto out;
	rec->size = typesize;
	rec->cmp = cmpr_func_ptr;
	e->u.rec = rec;
	e->mode = PAPI_SDE_RO | PAPI_SDE_INSTANT;
	e->type = PAPI_SDE_long_long;
	__atomic_store_n(&e->kind, SK_RECORDER, __ATOMIC_RELEASE);
	for (int i = 0; i < naux; i++) {
		aux[i]->u.aux.rec_ev = e;
		aux[i]->u.aux.which = i;
		aux[i]->mode = PAPI_SDE_RO | PAPI_SDE_INSTANT;
		aux[i]->type = PAPI_SDE_long_long;
		__atomic_store_n(&aux[i]->kind, SK_REC_AUX, __ATOMIC_RELEASE);
	}
	r = SDE_OK;
	why = NULL;
out:
	if (r == SDE_OK && record_handle)
		*record_handle = e;
	if (why)
		SDE_ERROR("papi_sde_create_recorder(): '%s': %s", event_name, why);
	sde_unlock();
	return r;
}

int papi_sde_record(void *record_handle, size_t typesize, const void *value)
{
	if (!record_handle)
		return SDE_OK;
	sde_lock();
	struct sde_rec *r = rec_of(record_handle, "papi_sde_record");
	int ret = SDE_EINVAL;
	if (!r || !value || typesize != r->size) {
		if (r)
			SDE_ERROR("papi_sde_record(): %s", !value ? "no value" : "a value of another size");
		goto out;
	}
	if (r->n == r->cap) {
		long long c = r->cap ? 2 * r->cap : 64;
		char *b = realloc(r->buf, (size_t)c * r->size);
		ret = SDE_ENOMEM;
		if (!b)
			goto out;
		r->buf = b;
		r->cap = c;
	}
	memcpy(r->buf + (size_t)r->n * r->size, value, r->size);
	r->n++;
	ret = SDE_OK;
out:
	sde_unlock();
	return ret;
}

int papi_sde_reset_recorder(void *record_handle)
{
	if (!record_handle)
		return SDE_OK;
	sde_lock();
	struct sde_rec *r = rec_of(record_handle, "papi_sde_reset_recorder");
	if (r) {
		r->n = 0;
		free(r->sorted);
		r->sorted = NULL;
		r->nsorted = 0;
	}
	sde_unlock();
	return r ? SDE_OK : SDE_EINVAL;
}

/* A malloc'ed copy of n values at p, as a long long (0 for none). */
static int copy_out(const void *p, size_t bytes, long long *v)
{
	*v = 0;
	if (!bytes)
		return SDE_OK;
	void *c = malloc(bytes);
	if (!c)
		return SDE_ENOMEM;
	memcpy(c, p, bytes);
	*v = (long long)(intptr_t)c;
	return SDE_OK;
}

static int rec_read(struct sde_ev *e, long long *v)
{
	if (e->kind == SK_RECORDER)
		return copy_out(e->u.rec->buf, (size_t)e->u.rec->n * e->u.rec->size, v);
	struct sde_rec *r = e->u.aux.rec_ev->u.rec;
	int which = e->u.aux.which;
	if (which == AUX_CNT) {
		*v = r->n;
		return SDE_OK;
	}
	if (!r->n) {
		*v = 0;		/* no value: a NULL address, as PAPI 7.0 */
		return SDE_OK;
	}
	const char *at = r->buf;
	if (which == AUX_MIN || which == AUX_MAX) {
		for (long long i = 1; i < r->n; i++) {
			const char *x = r->buf + (size_t)i * r->size;
			int c = r->cmp(x, at);
			if (which == AUX_MIN ? c < 0 : c > 0)
				at = x;
		}
	} else {
		if (r->nsorted != r->n) {
			char *s = realloc(r->sorted, (size_t)r->n * r->size);
			if (!s)
				return SDE_ENOMEM;
			memcpy(s, r->buf, (size_t)r->n * r->size);
			qsort(s, (size_t)r->n, r->size, r->cmp);
			r->sorted = s;
			r->nsorted = r->n;
		}
		at = r->sorted + (size_t)(r->n * quantile_pct[which] / 100) * r->size;
	}
	return copy_out(at, r->size, v);
}

/* ---------------------------------------------------------------- counting sets */

struct elem {
	struct elem *next;
	uint32_t type_id, count;
	uint32_t hash;
	size_t size, hsize;
	unsigned char data[];
};

struct sde_cset {
	struct elem **tab;
	size_t nb, n;
};

static void cset_free(struct sde_cset *s)
{
	if (!s)
		return;
	for (size_t b = 0; b < s->nb; b++)
		for (struct elem *x = s->tab[b], *nx; x; x = nx) {
			nx = x->next;
			free(x);
		}
	free(s->tab);
	free(s);
}

int papi_sde_create_counting_set(papi_handle_t handle, const char *cset_name, void **cset_handle)
{
	if (!handle)
		return SDE_OK;
	sde_lock();
	struct sde_lib *lib = sde_lib_of(handle);
	struct sde_ev *e = NULL;
	int r = SDE_EINVAL;
	if (lib && (e = sde_get(lib, cset_name, &r))) {
		sde_set_kind_ops(SK_CSET, &cset_ops);
		if (e->kind == SK_NONE) {
			struct sde_cset *s = calloc(1, sizeof *s);
			r = SDE_ENOMEM;
			if (s) {
				e->u.cset = s;
				e->mode = PAPI_SDE_RO | PAPI_SDE_INSTANT;
				e->type = PAPI_SDE_long_long;
				__atomic_store_n(&e->kind, SK_CSET, __ATOMIC_RELEASE);
				r = SDE_OK;
			}
		} else
			r = e->kind == SK_CSET ? SDE_OK : SDE_EINVAL;
	}
	if (r == SDE_OK && cset_handle)
		*cset_handle = e;
	if (r != SDE_OK)
		SDE_ERROR("papi_sde_create_counting_set(): '%s': %s", cset_name ? cset_name : "(null)",
			  r == SDE_ENOMEM ? "out of memory" : !lib ? "not a library's handle" :
			  !e ? "no name" : "the name is another kind of event");
	sde_unlock();
	return r;
}

static uint32_t elem_hash(const void *p, size_t n, uint32_t type_id)
{
	uint32_t h = 2166136261u ^ type_id;
	for (const unsigned char *c = p; n--; c++)
		h = (h ^ *c) * 16777619u;
	return h;
}

/* The element's slot in s (its link), where it is or would go. */
static struct elem **slot(struct sde_cset *s, uint32_t h, size_t hsize, const void *p, uint32_t type_id)
{
	struct elem **x = &s->tab[h & (s->nb - 1)];
	for (; *x; x = &(*x)->next)
		if ((*x)->hash == h && (*x)->type_id == type_id && (*x)->hsize == hsize &&
		    memcmp((*x)->data, p, hsize) == 0)
			break;
	return x;
}

static int cset_grow(struct sde_cset *s)
{
	if (s->n < s->nb)
		return SDE_OK;
	size_t nb = s->nb ? 2 * s->nb : 64;
	struct elem **t = calloc(nb, sizeof *t);
	if (!t)
		return SDE_ENOMEM;
	for (size_t b = 0; b < s->nb; b++)
		for (struct elem *x = s->tab[b], *nx; x; x = nx) {
			nx = x->next;
			x->next = t[x->hash & (nb - 1)];
			t[x->hash & (nb - 1)] = x;
		}
	free(s->tab);
	s->tab = t;
	s->nb = nb;
	return SDE_OK;
}

int papi_sde_counting_set_insert(void *cset_handle, size_t element_size, size_t hashable_size,
				 const void *element, uint32_t type_id)
{
	if (!cset_handle)
		return SDE_OK;
	sde_lock();
	struct sde_ev *e = sde_ev_of(cset_handle, SK_CSET);
	int r = SDE_EINVAL;
	if (!e || !element || !hashable_size || hashable_size > element_size) {
		SDE_ERROR("papi_sde_counting_set_insert(): %s", !e ? "not the handle of a counting set" :
			  !element ? "no element" : "the hashable size is 0 or above the element's");
		goto out;
	}
	struct sde_cset *s = e->u.cset;
	r = cset_grow(s);
	if (r != SDE_OK)
		goto out;
	uint32_t h = elem_hash(element, hashable_size, type_id);
	struct elem **x = slot(s, h, hashable_size, element, type_id);
	if (*x) {
		(*x)->count++;
		goto out;
	}
	struct elem *n = malloc(sizeof *n + element_size);
	r = SDE_ENOMEM;
	if (!n)
		goto out;
	*n = (struct elem){ .type_id = type_id, .count = 1, .hash = h, .size = element_size, .hsize = hashable_size };
	memcpy(n->data, element, element_size);
	*x = n;
	s->n++;
	r = SDE_OK;
out:
	sde_unlock();
	return r;
}

int papi_sde_counting_set_remove(void *cset_handle, size_t hashable_size, const void *element, uint32_t type_id)
{
	if (!cset_handle)
		return SDE_OK;
	sde_lock();
	struct sde_ev *e = sde_ev_of(cset_handle, SK_CSET);
	struct elem **x = NULL;
	int r = SDE_EINVAL;
	if (e && element && e->u.cset->nb)
		x = slot(e->u.cset, elem_hash(element, hashable_size, type_id), hashable_size, element, type_id);
	if (x && *x) {
		if (--(*x)->count == 0) {
			struct elem *gone = *x;
			*x = gone->next;
			free(gone);
			e->u.cset->n--;
		}
		r = SDE_OK;
	} else
		SDE_ERROR("papi_sde_counting_set_remove(): %s", !e ? "not the handle of a counting set" :
			  !element ? "no element" : "the element is not in the set");
	sde_unlock();
	return r;
}

static int cset_read(struct sde_ev *e, long long *v)
{
	struct sde_cset *s = e->u.cset;
	*v = 0;
	if (!s->n)
		return SDE_OK;
	size_t obj = (sizeof(cset_list_object_t) + 15) & ~(size_t)15, bytes = 0;
	for (size_t b = 0; b < s->nb; b++)
		for (struct elem *x = s->tab[b]; x; x = x->next)
			bytes += obj + ((x->size + 15) & ~(size_t)15);
	char *block = malloc(bytes), *at = block;
	if (!block)
		return SDE_ENOMEM;
	cset_list_object_t *prev = NULL;
	for (size_t b = 0; b < s->nb; b++)
		for (struct elem *x = s->tab[b]; x; x = x->next) {
			cset_list_object_t *o = (cset_list_object_t *)at;
			o->count = x->count;
			o->type_id = x->type_id;
			o->type_size = x->size;
			o->ptr = at + obj;
			o->next = NULL;
			memcpy(o->ptr, x->data, x->size);
			if (prev)
				prev->next = o;
			prev = o;
			at += obj + ((x->size + 15) & ~(size_t)15);
		}
	*v = (long long)(intptr_t)block;
	return SDE_OK;
}

static void rec_clear(struct sde_ev *e)
{
	rec_free(e->u.rec);
}

static void cset_clear(struct sde_ev *e)
{
	cset_free(e->u.cset);
}

static const struct sde_kind_ops rec_ops = { .read = rec_read, .clear = rec_clear };
static const struct sde_kind_ops aux_ops = { .read = rec_read };
static const struct sde_kind_ops cset_ops = { .read = cset_read, .clear = cset_clear };

/* ---------------------------------------------------------------- comparison functions */

#define CMP(name, type) \
	int name(const void *p1, const void *p2) \
	{ \
		type a, b; \
		memcpy(&a, p1, sizeof a); \
		memcpy(&b, p2, sizeof b); \
		return a < b ? -1 : a > b; \
	}
CMP(papi_sde_compare_long_long, long long)
CMP(papi_sde_compare_int, int)
CMP(papi_sde_compare_double, double)
CMP(papi_sde_compare_float, float)

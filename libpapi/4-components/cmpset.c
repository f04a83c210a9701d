/* cmpset.c: an EventSet's events of a component other than perf_event, and counts since start made from a component's sampled totals. */
#include <stdlib.h>
#include <string.h>

#include "4-components/components.h"

/* ------------------------------------------------------------------ the set */

int cmpset_new(const struct component *c, struct cmp_set **out)
{
	struct cmp_set *s = calloc(1, sizeof *s);
	if (!s)
		return PAPI_ENOMEM;
	s->c = c;
	*out = s;
	return PAPI_OK;
}

int cmpset_add(struct cmp_set *s, int ev)
{
	if (s->running)
		return PAPI_EISRUN;
	for (int i = 0; i < s->n; i++)
		if (s->ev[i] == ev)
			return PAPI_ECNFLCT;	/* PAPI 7 refuses duplicates so */
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 8;
		int *e = realloc(s->ev, (size_t)cap * sizeof *e);
		if (!e)
			return PAPI_ENOMEM;
		s->ev = e;
		s->cap = cap;
	}
	s->ev[s->n++] = ev;
	int ret = s->c->update(s);
	if (ret != PAPI_OK) {
		s->n--;
		s->c->update(s);
	}
	return ret;
}

int cmpset_remove(struct cmp_set *s, int i)
{
	if (s->running)
		return PAPI_EISRUN;
	if (i < 0 || i >= s->n)
		return PAPI_EINVAL;
	memmove(&s->ev[i], &s->ev[i + 1], (size_t)(s->n - i - 1) * sizeof *s->ev);
	s->n--;
	return s->c->update(s);
}

void cmpset_clear(struct cmp_set *s)
{
	if (s->running)
		s->c->stop(s, NULL);
	s->running = 0;
	s->n = 0;
	s->c->update(s);
}

void cmpset_free(struct cmp_set *s)
{
	if (!s)
		return;
	if (s->running)
		s->c->stop(s, NULL);
	s->c->release(s);
	free(s->ev);
	free(s);
}

int cmpset_start(struct cmp_set *s)
{
	if (s->running)
		return PAPI_EISRUN;
	if (s->n == 0)
		return PAPI_EINVAL;
	int ret = s->c->start(s);
	if (ret == PAPI_OK)
		s->running = 1;
	return ret;
}

int cmpset_stop(struct cmp_set *s, long long *v)
{
	if (!s->running)
		return PAPI_ENOTRUN;
	int ret = s->c->stop(s, v);
	s->running = 0;
	return ret;
}

int cmpset_read(struct cmp_set *s, long long *v)
{
	return s->c->read(s, v);
}

int cmpset_reset(struct cmp_set *s)
{
	return s->c->reset(s);
}

int cmpset_accum(struct cmp_set *s, long long *v)
{
	if (s->c->accum)
		return s->c->accum(s, v);
	int ret = s->c->read(s, v);
	return ret == PAPI_OK ? s->c->reset(s) : ret;
}

int cmpset_write(struct cmp_set *s, const long long *v)
{
	if (!s->c->write) {
		papi_set_reason("%s: its counts cannot be written", s->c->name);
		return PAPI_ENOSUPP;
	}
	return s->c->write(s, v);
}

/* ------------------------------------------------------------------ sampled totals
 * The totals of the last start or reset are the base; a read samples them
 * again and each event's value comes from the differences. A stop keeps its
 * values, which reads return until the next start. */
struct sampled {
	int nraw;
	long long *base;	/* totals at start or reset */
	long long *now;		/* the last sample */
	long long *d;		/* now - base */
	long long *stopped;	/* per event: the stop's values */
	int cap;		/* events stopped[] holds */
};

static int sampled_nraw(const struct component *c)
{
	return c->nraw ? c->nraw() : c->nevents();
}

int cmp_sampled_update(struct cmp_set *s)
{
	struct sampled *p = s->priv;
	if (!p) {
		int nraw = sampled_nraw(s->c);
		p = calloc(1, sizeof *p);
		size_t n = nraw > 0 ? (size_t)nraw : 1;
		if (p) {
			p->nraw = nraw;
			p->base = calloc(n, sizeof *p->base);
			p->now = calloc(n, sizeof *p->now);
			p->d = calloc(n, sizeof *p->d);
		}
		if (!p || !p->base || !p->now || !p->d) {
			if (p)
				free(p->base), free(p->now), free(p->d);
			free(p);
			return PAPI_ENOMEM;
		}
		s->priv = p;
	}
	if (s->n > p->cap) {
		long long *v = realloc(p->stopped, (size_t)s->n * sizeof *v);
		if (!v)
			return PAPI_ENOMEM;
		p->stopped = v;
		p->cap = s->n;
	}
	for (int i = 0; i < s->n; i++)
		if (s->ev[i] < 0 || (!s->c->nraw && s->ev[i] >= p->nraw))
			return PAPI_ENOEVNT;
	/* a changed list starts from zero, as a new set would */
	memset(p->stopped, 0, (size_t)p->cap * sizeof *p->stopped);
	return PAPI_OK;
}

/* Sample the totals into p->now and p->d. */
static int sample(struct cmp_set *s, struct sampled *p)
{
	int ret = s->c->sample(p->now);
	if (ret != PAPI_OK)
		return ret;
	for (int r = 0; r < p->nraw; r++)
		p->d[r] = (long long)((unsigned long long)p->now[r] - (unsigned long long)p->base[r]);
	return PAPI_OK;
}

/* Each event's value from the last sample. */
static void values(const struct cmp_set *s, const struct sampled *p, long long *v)
{
	for (int i = 0; i < s->n; i++) {
		int ev = s->ev[i];
		if (s->c->value) {
			v[i] = s->c->value(ev, p->d, p->now);
			continue;
		}
		struct cmp_event e;
		int instant = s->c->event(ev, &e) == PAPI_OK && e.instant;
		v[i] = instant ? p->now[ev] : p->d[ev];
	}
}

int cmp_sampled_start(struct cmp_set *s)
{
	struct sampled *p = s->priv;
	int ret = s->c->sample(p->base);
	if (ret == PAPI_OK)
		memset(p->stopped, 0, (size_t)p->cap * sizeof *p->stopped);
	return ret;
}

int cmp_sampled_read(struct cmp_set *s, long long *v)
{
	struct sampled *p = s->priv;
	if (!s->running) {
		memcpy(v, p->stopped, (size_t)s->n * sizeof *v);
		return PAPI_OK;
	}
	int ret = sample(s, p);
	if (ret == PAPI_OK)
		values(s, p, v);
	return ret;
}

int cmp_sampled_stop(struct cmp_set *s, long long *v)
{
	struct sampled *p = s->priv;
	int ret = sample(s, p);
	if (ret != PAPI_OK)
		return ret;
	values(s, p, p->stopped);
	if (v)
		memcpy(v, p->stopped, (size_t)s->n * sizeof *v);
	return PAPI_OK;
}

int cmp_sampled_reset(struct cmp_set *s)
{
	struct sampled *p = s->priv;
	if (!s->running) {
		memset(p->stopped, 0, (size_t)p->cap * sizeof *p->stopped);
		return PAPI_OK;
	}
	return s->c->sample(p->base);
}

/* The read's sample becomes the base: nothing falls between. */
int cmp_sampled_accum(struct cmp_set *s, long long *v)
{
	struct sampled *p = s->priv;
	int ret = cmp_sampled_read(s, v);
	if (ret != PAPI_OK)
		return ret;
	if (s->running)
		memcpy(p->base, p->now, (size_t)p->nraw * sizeof *p->base);
	else
		memset(p->stopped, 0, (size_t)p->cap * sizeof *p->stopped);
	return PAPI_OK;
}

/* Only where each event is one total counted since start: the base moves
 * so that the next reads continue from v. */
int cmp_sampled_write(struct cmp_set *s, const long long *v)
{
	struct sampled *p = s->priv;
	for (int i = 0; i < s->n; i++) {
		struct cmp_event e;
		if (s->c->value || s->c->nraw || s->c->event(s->ev[i], &e) != PAPI_OK || e.instant) {
			papi_set_reason("%s: its values are computed, or levels: they cannot be written",
					s->c->name);
			return PAPI_ENOSUPP;
		}
	}
	if (!s->running) {
		memcpy(p->stopped, v, (size_t)s->n * sizeof *v);
		return PAPI_OK;
	}
	int ret = s->c->sample(p->now);
	if (ret != PAPI_OK)
		return ret;
	for (int i = 0; i < s->n; i++)
		p->base[s->ev[i]] = (long long)((unsigned long long)p->now[s->ev[i]] -
						(unsigned long long)v[i]);
	return PAPI_OK;
}

void cmp_sampled_release(struct cmp_set *s)
{
	struct sampled *p = s->priv;
	if (p) {
		free(p->base);
		free(p->now);
		free(p->d);
		free(p->stopped);
		free(p);
	}
	s->priv = NULL;
}

/* intervals.c: papi stat's intervals: each one's counts as deltas of the totals read at its end (per row too), its metrics, and those kept for JSON and --plot. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compute.h"

static void interval_free(struct st_interval *iv)
{
	free(iv->val);
	free(iv->rows);
	free(iv->met);
	memset(iv, 0, sizeof *iv);
}

/* --per-*: each row's deltas since the previous interval, from count's
 * reading in s->rowcur; NULL without rows (or out of memory). */
static long long *row_deltas(struct st *s)
{
	const long long *tot = s->rowcur;
	size_t n = (size_t)s->nrows * (size_t)(s->nev > 0 ? s->nev : 1);
	long long *d;
	if (!s->o.aggr || !tot || !(d = malloc(n * sizeof *d)))
		return NULL;
	for (int w = 0; w < s->nrows; w++) {
		struct st_row *row = &s->rows[w];
		if (!row->ivprev && !(row->ivprev = calloc((size_t)(s->nev > 0 ? s->nev : 1), sizeof *row->ivprev))) {
			free(d);
			return NULL;
		}
		for (int i = 0; i < s->nev; i++) {
			long long now = tot[w * s->nev + i];
			d[w * s->nev + i] = now - row->ivprev[i];
			row->ivprev[i] = now;
		}
	}
	return d;
}

const struct st_interval *st_compute_interval(struct st *s, int64_t t_ns, int64_t at_ns, const long long *total)
{
	struct st_interval iv = { .t_ns = t_ns, .at_ns = at_ns };
	if (!s->ivprev && !(s->ivprev = calloc((size_t)(s->nev > 0 ? s->nev : 1), sizeof *s->ivprev)))
		return NULL;
	if (!(iv.val = malloc((size_t)(s->nev > 0 ? s->nev : 1) * sizeof *iv.val)))
		return NULL;
	for (int i = 0; i < s->nev; i++) {
		iv.val[i] = total[i] - s->ivprev[i];
		s->ivprev[i] = total[i];
	}
	/* a metric's rate takes the time between two reads */
	double secs = (double)(at_ns - s->ivprev_ns) / 1e9;
	s->ivprev_ns = at_ns;
	iv.rows = row_deltas(s);
	if (st_interval_metrics_compute(s, &iv, secs) < 0) {
		interval_free(&iv);
		return NULL;
	}
	/* kept for the one JSON document at the end (--save's too), and for --plot */
	if (s->o.json || s->o.plot_path || s->o.save_path) {
		struct st_interval *n = realloc(s->iv, (size_t)(s->niv + 1) * sizeof *n);
		if (!n) {
			interval_free(&iv);
			return NULL;
		}
		s->iv = n;
		s->iv[s->niv] = iv;
		return &s->iv[s->niv++];
	}
	interval_free(&s->ivlast);
	s->ivlast = iv;
	return &s->ivlast;
}

void st_intervals_free(struct st *s)
{
	for (int i = 0; i < s->niv; i++)
		interval_free(&s->iv[i]);
	free(s->iv);
	s->iv = NULL;
	s->niv = 0;
	interval_free(&s->ivlast);
	free(s->ivprev);
	s->ivprev = NULL;
}

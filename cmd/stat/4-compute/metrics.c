/* metrics.c: papi stat's metrics: each metric group's values per run and their statistics, per row, and per interval. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "metrics.h"
#include "compute.h"

_Static_assert(ST_GROUP_EVENTS == MGROUP_MAX_EVENTS, "st_group.evi holds a group's events");

/* Metric m of gr from the counts vals[nev]; in_row: a row's counts, of
 * which --per-cputype has none for an event not on core types alone. */
static double metric_value(const struct st *s, const struct st_group *gr, const struct mgroup_metric *m,
		       const long long *vals, double secs, int in_row)
{
	double v[MGROUP_MAX_EVENTS];
	for (int i = 0; i < gr->g->nev; i++) {
		int e = gr->evi[i];
		v[i] = e >= 0 && s->ev[e].avail && (s->ev[e].run > 0 || s->ev[e].en == 0) &&
		       !(in_row && s->o.aggr == AGGR_CPUTYPE && !s->ev[e].types) ? (double)vals[e] : NAN;
	}
	return mg_value(gr->g, m, v, secs);
}

static int metrics_max(const struct st *s)
{
	int n = 0;
	for (int k = 0; k < s->ngrp; k++)
		n += s->grp[k].g->nmet;
	return n > 0 ? n : 1;
}

/* Was a metric of this name listed already? */
static int listed(const struct st_metric *m, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(m[i].def->name, name))
			return 1;
	return 0;
}

/* Every input of metric def of gr that was not counted, named (an event
 * the group found none of by its first name), "A, B", into buf. */
static void needs(const struct st *s, const struct st_group *gr, const struct mgroup_metric *def, char *buf,
		  size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int u = 0; u < def->nuse && k < len; u++) {
		int i = def->use[u];
		if (i >= gr->g->nev)
			continue;
		int e = gr->evi[i];
		if (e >= 0 && s->ev[e].avail && !(s->ev[e].run == 0 && s->ev[e].en > 0))
			continue;
		const char *name = e >= 0 ? s->ev[e].name : gr->g->ev[i].alt[0];
		if (strstr(buf, name))
			continue;	/* an input the formula uses twice */
		k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "", name);
	}
}

static int interval_metrics(const struct st *s, const long long *d, double secs, struct st_ivmetric *out)
{
	int n = 0;
	for (int k = 0; k < s->ngrp; k++) {
		const struct st_group *gr = &s->grp[k];
		for (int j = 0; j < gr->g->nmet; j++) {
			const struct mgroup_metric *def = &gr->g->met[j];
			int seen = 0;
			char lacks[256];
			for (int i = 0; i < n; i++)
				seen |= !strcmp(out[i].def->name, def->name);
			needs(s, gr, def, lacks, sizeof lacks);
			if (seen || *lacks)
				continue;
			out[n].def = def;
			out[n].grp = gr;
			out[n++].value = metric_value(s, gr, def, d, secs, 0);
		}
	}
	return n;
}

static int metrics(const struct st *s, struct st_metric *m)
{
	int n = 0;
	long long row[s->nev > 0 ? s->nev : 1];
	double v[s->nruns > 0 ? s->nruns : 1];
	for (int k = 0; k < s->ngrp; k++) {
		const struct st_group *gr = &s->grp[k];
		for (int j = 0; j < gr->g->nmet; j++) {
			const struct mgroup_metric *def = &gr->g->met[j];
			if (listed(m, n, def->name))
				continue;
			/* each run's own value, so that the statistics describe the metric */
			int nv = 0;
			for (int r = 0; r < s->nruns; r++) {
				for (int i = 0; i < s->nev; i++)
					row[i] = s->ev[i].avail ? s->ev[i].val[r] : 0;
				double x = metric_value(s, gr, def, row, s->runs[r].elapsed, 0);
				if (!isnan(x))
					v[nv++] = x;
			}
			if (gr->dflt && nv == 0)
				continue;
			struct st_metric *o = &m[n++];
			memset(o, 0, sizeof *o);
			o->grp = gr;
			o->def = def;
			o->line = gr->dflt && def->nuse > 0 && def->use[0] < gr->g->nev ? gr->evi[def->use[0]] : -1;
			needs(s, gr, def, o->needs, sizeof o->needs);
			st_stats(v, nv, &o->t);
		}
	}
	return n;
}


/* ------------------------------------------------------------------ rows */
/* Row w's counts in run r, as the metrics take them. */
static void row_run(const struct st *s, const struct st_row *w, int r, long long *v)
{
	for (int i = 0; i < s->nev; i++)
		v[i] = w->val[i * s->o.repeat + r];
}

static void row_stats(const struct st *s, const struct st_row *w, int i, struct st_stats *t)
{
	double v[s->nruns > 0 ? s->nruns : 1];
	for (int r = 0; r < s->nruns; r++)
		v[r] = (double)w->val[i * s->o.repeat + r];
	st_stats(v, s->nruns, t);
}

/* Metric m's statistics over the runs in row w (t->n 0: none). */
static void row_metric(const struct st *s, const struct st_row *w, const struct st_metric *m,
		       struct st_stats *t)
{
	long long v[s->nev > 0 ? s->nev : 1];
	double x[s->nruns > 0 ? s->nruns : 1];
	int n = 0;
	for (int r = 0; r < s->nruns; r++) {
		row_run(s, w, r, v);
		double y = metric_value(s, m->grp, m->def, v, s->runs[r].elapsed, 1);
		if (!isnan(y))
			x[n++] = y;
	}
	st_stats(x, n, t);
}


int st_metrics_compute(struct st *s)
{
	if (!(s->met = calloc((size_t)metrics_max(s), sizeof *s->met)))
		return -1;
	s->nmet = metrics(s, s->met);
	return 0;
}

int st_rows_compute(struct st *s)
{
	for (int w = 0; w < s->nrows; w++) {
		struct st_row *row = &s->rows[w];
		if (!(row->t = calloc((size_t)(s->nev > 0 ? s->nev : 1), sizeof *row->t)) ||
		    !(row->mt = calloc((size_t)(s->nmet > 0 ? s->nmet : 1), sizeof *row->mt)))
			return -1;
		for (int i = 0; i < s->nev; i++) {
			row_stats(s, row, i, &row->t[i]);
			if (s->ev[i].is_time)
				st_stats_whole(&row->t[i]);
		}
		for (int k = 0; k < s->nmet; k++)
			row_metric(s, row, &s->met[k], &row->mt[k]);
	}
	return 0;
}

int st_interval_metrics_compute(const struct st *s, struct st_interval *iv, double secs)
{
	if (!(iv->met = calloc((size_t)metrics_max(s), sizeof *iv->met)))
		return -1;
	iv->nmet = interval_metrics(s, iv->val, secs, iv->met);
	return 0;
}

/* stat_stats.c: papi stat's numbers: the tables of derived metrics and report columns, statistics over runs, metrics per run, and the precision they are printed to. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stat.h"

/* ------------------------------------------------------------------ tables */
/* Each derived metric: value = scale * numerator / denominator, computed
 * per run from the events (by role) or the elapsed time, shown when both
 * inputs were counted. A new metric is a new row. */
const struct st_metric_def st_metric_defs[] = {
	{ "cpu_utilization", "CPUs utilized", "CPUs", IN_CLOCK, IN_ELAPSED, 1e-9, IN_CLOCK },
	{ "context_switch_rate", "/s of CPU time", "1/s", ROLE_CS, IN_CLOCK, 1e9, ROLE_CS },
	{ "page_fault_rate", "/s of CPU time", "1/s", ROLE_PF, IN_CLOCK, 1e9, ROLE_PF },
	{ "clock_rate", "GHz", "GHz", ROLE_CYC, IN_CLOCK, 1, ROLE_CYC },
	{ "ipc", "instructions per cycle", "", ROLE_INS, ROLE_CYC, 1, ROLE_INS },
	{ "branch_miss_ratio", "of all branches", "%", ROLE_BR_MSP, ROLE_BR_INS, 100, ROLE_BR_MSP },
};
const int st_nmetric_defs = (int)(sizeof st_metric_defs / sizeof *st_metric_defs);

/* The CSV columns, the same in every mode. */
const char *const st_csv_cols[] = {
	"time", "kind", "name", "value", "unit", "runs", "stddev", "min", "median", "max",
	"time_enabled", "time_running", "running_pct", "note",
};
const int st_ncsv_cols = (int)(sizeof st_csv_cols / sizeof *st_csv_cols);

const char *const st_time_names[T_COUNT] = { "elapsed", "user", "sys" };

/* ------------------------------------------------------------------ statistics */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void st_stats(const double *v, int n, struct st_stats *o)
{
	memset(o, 0, sizeof *o);
	if (n <= 0)
		return;
	double sorted[n], sum = 0, sq = 0;
	memcpy(sorted, v, (size_t)n * sizeof *v);
	qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
	for (int i = 0; i < n; i++)
		sum += v[i];
	o->n = n;
	o->mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (v[i] - o->mean) * (v[i] - o->mean);
	o->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;	/* sample standard deviation */
	o->min = sorted[0];
	o->max = sorted[n - 1];
	o->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double st_tidy(double v)
{
	if (!isfinite(v) || v == 0)
		return v;
	if (fabs(v) >= 1e9)
		return cli_round(v);
	/* snprintf and strtod agree on the locale's decimal point */
	char buf[40];
	snprintf(buf, sizeof buf, "%.9g", v);
	return strtod(buf, NULL);
}

double st_run_time(const struct st_run *r, int which)
{
	return which == T_ELAPSED ? r->elapsed : which == T_USER ? r->user : r->sys;
}

int st_time_stats(const struct st *s, int which, struct st_stats *o)
{
	double v[s->nruns > 0 ? s->nruns : 1];
	for (int r = 0; r < s->nruns; r++)
		if ((v[r] = st_run_time(&s->runs[r], which)) < 0)
			return 0;
	st_stats(v, s->nruns, o);
	return s->nruns > 0;
}

void st_event_stats(const struct st *s, const struct st_event *e, struct st_stats *o)
{
	double v[s->nruns > 0 ? s->nruns : 1];
	for (int r = 0; r < s->nruns; r++)
		v[r] = (double)e->val[r];
	st_stats(v, s->nruns, o);
}

double st_running_pct(const struct st_event *e)
{
	return e->en ? 100.0 * (double)e->run / (double)e->en : 0;
}

/* ------------------------------------------------------------------ derived metrics */
/* The first counted event with this role. */
static const struct st_event *by_role(const struct st *s, int role)
{
	for (int i = 0; i < s->nev; i++)
		if (s->ev[i].avail && s->ev[i].role == role && s->ev[i].run > 0)
			return &s->ev[i];
	return NULL;
}

/* One input of a metric: an event (the clock: task-clock, else cpu-clock),
 * or the elapsed time (*e stays NULL). 0 when it was not counted. */
static int input(const struct st *s, int in, const struct st_event **e)
{
	*e = NULL;
	if (in == IN_ELAPSED)
		return 1;
	*e = in == IN_CLOCK ? by_role(s, ROLE_TASK_CLOCK) : by_role(s, in);
	if (!*e && in == IN_CLOCK)
		*e = by_role(s, ROLE_CPU_CLOCK);
	return *e != NULL;
}

static double input_value(const struct st *s, const struct st_event *e, int r)
{
	return e ? (double)e->val[r] : s->runs[r].elapsed;
}

int st_metrics(const struct st *s, struct st_metric *m)
{
	int n = 0;
	for (int k = 0; k < st_nmetric_defs; k++) {
		const struct st_metric_def *d = &st_metric_defs[k];
		const struct st_event *num, *den;
		if (!input(s, d->num, &num) || !input(s, d->den, &den))
			continue;
		/* Each run's own ratio, so that the statistics describe the
		 * metric; a run whose denominator is 0 has none. */
		double v[s->nruns > 0 ? s->nruns : 1];
		int nv = 0;
		for (int r = 0; r < s->nruns; r++) {
			double dv = input_value(s, den, r);
			if (dv > 0)
				v[nv++] = d->scale * input_value(s, num, r) / dv;
		}
		if (nv == 0)
			continue;
		m[n].def = d;
		m[n].line = d->line == IN_CLOCK ? num->role : d->line;
		st_stats(v, nv, &m[n].t);
		n++;
	}
	return n;
}

/* stat_stats.c: papi stat's numbers: the report columns, statistics over runs, and the precision they are printed to. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "stat.h"

/* ------------------------------------------------------------------ tables */
/* The CSV columns, the same in every mode. */
const char *const st_csv_cols[] = {
	"time", "kind", "name", "value", "unit", "runs", "stddev", "min", "median", "max",
	"time_enabled", "time_running", "running_pct", "note", "target", "domain",
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

int st_run_code(const struct st_run *r)
{
	if (r->status == -1)
		return -1;
	return WIFSIGNALED(r->status) ? 128 + WTERMSIG(r->status) : WEXITSTATUS(r->status);
}

/* With -r, a run that failed must not hide behind later ones that did not:
 * a test suite that failed once is a failure. */
int st_status_run(const struct st *s)
{
	for (int r = s->nruns - 1; r >= 0; r--)
		if (st_run_code(&s->runs[r]) > 0)
			return r;
	return s->nruns - 1;
}

const char *st_not_counted(const struct st *s, const struct st_event *e)
{
	int r = 0;
	while (r < s->nruns && s->runs[r].uncounted)
		r++;
	if (s->nruns > 0 && r == s->nruns) {
		static char why[128];
		snprintf(why, sizeof why, "%s before --delay's %ld ms: counting never started",
			 s->o.cmd ? "the command ended" : "counting was stopped", s->o.delay_ms);
		return why;
	}
	if (e->run == 0 && e->en > 0)
		return "it never got a counter";
	return NULL;
}

/* numbers.c: papi stat's numbers and the words of its reports: the columns, statistics, the precision numbers are printed to. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "metrics.h"
#include "base.h"

/* ------------------------------------------------------------------ tables */
/* The CSV columns, the same in every mode. */
const char *const st_csv_cols[] = {
	"time", "kind", "name", "value", "unit", "runs", "stddev", "min", "median", "max",
	"time_enabled", "time_running", "running_pct", "note", "target", "domain",
};
const int st_ncsv_cols = (int)(sizeof st_csv_cols / sizeof *st_csv_cols);

const char *const st_time_names[T_COUNT] = { "elapsed", "user", "sys" };

/* perf's names of what the events measure (enum st_role). */
const char *const st_role_names[ROLE_COUNT] = {
	[ROLE_OTHER] = "other", [ROLE_TASK_CLOCK] = "task-clock", [ROLE_CPU_CLOCK] = "cpu-clock",
	[ROLE_CS] = "context-switches", [ROLE_MIGR] = "cpu-migrations", [ROLE_PF] = "page-faults",
	[ROLE_CYC] = "cycles", [ROLE_INS] = "instructions", [ROLE_BR_INS] = "branches",
	[ROLE_BR_MSP] = "branch-misses",
};

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

static const char *const aggr_names[] = {
	[AGGR_NONE] = "none", [AGGR_CPU] = "cpu", [AGGR_CORE] = "core", [AGGR_SOCKET] = "socket",
	[AGGR_NODE] = "node", [AGGR_THREAD] = "thread", [AGGR_PROCESS] = "process",
	[AGGR_CGROUP] = "cgroup", [AGGR_CPUTYPE] = "cputype",
};

const char *st_aggr_name(int aggr)
{
	return aggr >= 0 && aggr <= AGGR_CPUTYPE ? aggr_names[aggr] : "none";
}

void st_metric_format(char *buf, size_t len, double v, const struct mgroup_metric *m)
{
	mg_format(buf, len, v, m->unit);
}

int st_trace_note(const struct st *s, char *buf, size_t len)
{
	/* the kernel's doing: counted in user space only, they add nothing */
	int said = 0, named;
	for (int i = 0; i < s->nev; i++)
		said |= (s->ev[i].role == ROLE_CS || s->ev[i].role == ROLE_MIGR) &&
			(st_event_dom(s, &s->ev[i], &named) & PAPI_DOM_KERNEL);
	if (!s->traced || !said)
		return 0;
	const long *n = s->trace_stops;
	long all = n[0] + n[1] + n[2];
	snprintf(buf, len, "ptrace (--per-thread) stopped the command's tasks %ld time%s (%ld starting a "
		 "thread or process, %ld exiting, %ld for a signal), each a context switch more than "
		 "untraced (and maybe a CPU migration)", all, all == 1 ? "" : "s", n[0], n[1], n[2]);
	return 1;
}

double st_running_pct(const struct st_event *e)
{
	return e->en ? 100.0 * (double)e->run / (double)e->en : 0;
}

int st_low_share(const struct st_event *e)
{
	return cli_low_share((double)e->en, (double)e->run);
}

double st_seen(double mean, uint64_t en, uint64_t run)
{
	return en ? floor(mean * ((double)run / (double)en) + 0.5) : 0;
}

double st_counted(const struct st_event *e)
{
	return st_seen(e->t.mean, e->en, e->run);
}

/* Counts, times and their statistics are per run: with -r N the mean over
 * the runs, to the nanosecond for times. */
long long st_per_run(const struct st *s, uint64_t sum)
{
	return s->nruns > 0 ? (long long)cli_round((double)sum / s->nruns) : 0;
}

void st_stats_whole(struct st_stats *t)
{
	t->mean = cli_round(t->mean);
	t->stddev = cli_round(t->stddev);
	t->min = cli_round(t->min);
	t->median = cli_round(t->median);
	t->max = cli_round(t->max);
}

int st_trace_wanted(const struct st *s)
{
	return s->o.aggr == AGGR_THREAD && s->o.cmd && !s->o.system_wide;
}

int st_split(const struct st *s, const struct st_event *e)
{
	return s->o.aggr == AGGR_CPUTYPE && e->avail && e->cidx == 0 && __builtin_popcount(e->types) >= 2;
}

int st_by_row(const struct st *s, const struct st_event *e)
{
	return e->avail && e->cidx == 0 && (s->o.aggr != AGGR_CPUTYPE || st_split(s, e));
}

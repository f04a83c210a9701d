/* text.c: papi stat's report for a person: one run or statistics over runs, the rows of --per-*, and each interval as it ends. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "tool.h"
#include "report.h"

/* ------------------------------------------------------------------ one run */
/* A count in the report's columns: "51.129 ms" for a time, else the
 * number (two decimals when not whole). */
static void human_value(FILE *f, const struct st_event *e, double v)
{
	if (e->is_time)
		fprintf(f, "%16.3f %-4s", v / 1e6, "ms");
	else if (v == floor(v))
		fprintf(f, "%16.0f %-4s", v, "");
	else
		fprintf(f, "%16.2f %-4s", v, "");
}

/* A metric's value in the columns of an event's count: the number
 * right-aligned as counts are, the unit after it ("-" when there is no
 * value); 21 columns and the unit's overflow. */
static void human_metric_value(FILE *f, double v, const struct mgroup_metric *def)
{
	char val[64];
	if (isnan(v)) {
		fprintf(f, "%21s", "-");
		return;
	}
	st_metric_format(val, sizeof val, v, def);
	char *sp = strchr(val, ' ');
	if (sp)
		*sp++ = '\0';
	fprintf(f, "%16s %-4s", val, sp ? sp : "");
}

/* "  # 0.262 CPUs utilized" after the event name, aligned; over runs with
 * the relative standard deviation of the metric's per-run values. */
static void human_metric(FILE *f, const char *name, const struct st_metric *m)
{
	int pad = 24 - (int)strlen(name);
	char val[64];
	st_metric_format(val, sizeof val, m->t.mean, m->def);
	fprintf(f, "%*s  # %s", pad > 0 ? pad : 0, "", val);
	if (*m->def->desc)
		fprintf(f, " %s", m->def->desc);
	if (m->t.n > 1)
		fprintf(f, " (± %.2f%%)", m->t.mean ? 100 * m->t.stddev / fabs(m->t.mean) : 0);
}

/* Before the first metric of a -g group (*cur: the group of the last):
 * the group's name and description. */
static void group_heading(FILE *f, const struct st_metric *m, const struct st_group **cur)
{
	if (m->grp == *cur)
		return;
	*cur = m->grp;
	fprintf(f, "\n %s: %s\n", m->grp->g->name, m->grp->g->desc ? m->grp->g->desc : "");
}

/* The metrics of the -g groups, group by group, after the events: the
 * value and unit, the name, and the description or what it lacks. */
static void human_groups(FILE *f, const struct st *s, const struct st_metric *m, int nm)
{
	const struct st_group *cur = NULL;
	for (int k = 0; k < nm; k++) {
		if (m[k].grp->dflt)
			continue;
		group_heading(f, &m[k], &cur);
		if (m[k].t.n > 0)
			human_metric_value(f, m[k].t.mean, m[k].def);
		else
			fprintf(f, "%21s", "<not computed>");
		fprintf(f, " %-24s", m[k].def->name);
		if (m[k].t.n == 0 && *m[k].needs)
			fprintf(f, "  # needs %s", m[k].needs);
		else if (*m[k].def->desc)
			fprintf(f, "  # %s", m[k].def->desc);
		if (m[k].t.n > 1)
			fprintf(f, " (± %.2f%%, min %.4g, max %.4g)",
				m[k].t.mean ? 100 * m[k].t.stddev / fabs(m[k].t.mean) : 0, m[k].t.min, m[k].t.max);
		fputc('\n', f);
	}
}

/* ------------------------------------------------------------------ over runs
 * One row per event and time: mean, the standard deviation relative to the
 * mean (as perf stat's "+-"), min, median, max, each in the row's unit and
 * at the row's one precision. */
#define COL "%13.*f %-2s"

static void stats_row(FILE *f, const struct st_stats *t, double div, int prec, const char *unit)
{
	fprintf(f, COL, prec, t->mean / div, unit);
	fprintf(f, "  ± %6.2f%%", t->mean ? 100 * t->stddev / fabs(t->mean) : 0);
	fprintf(f, " " COL " " COL " " COL, prec, t->min / div, unit, prec, t->median / div, unit, prec,
		t->max / div, unit);
}

/* A count's row: the mean with two decimals when it is not whole; min and
 * max are counts, whole numbers, and so is the median unless it falls
 * between two. */
static void count_row(FILE *f, const struct st_stats *t)
{
	fprintf(f, COL, t->mean == floor(t->mean) ? 0 : 2, t->mean, "");
	fprintf(f, "  ± %6.2f%%", t->mean ? 100 * t->stddev / fabs(t->mean) : 0);
	fprintf(f, " " COL " " COL " " COL, 0, t->min, "", t->median == floor(t->median) ? 0 : 1, t->median, "",
		0, t->max, "");
}

static void stats_header(FILE *f)
{
	/* "±" is two bytes: printf's widths count bytes */
	fprintf(f, "%16s  ± stddev  %16s %16s %16s  %s\n", "mean", "min", "median", "max", "event");
}

/* "process 7", "processes 7 and 8", "threads 7, 8 and 9". */
static void human_ids(FILE *f, const char *one, const char *many, const pid_t *id, int n)
{
	fprintf(f, " %s", n == 1 ? one : many);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%d", i == 0 ? " " : i == n - 1 ? " and " : ", ", (int)id[i]);
}

/* "CPU 1", "CPUs 0-3,8", as a CPU list. */
static void human_cpus(FILE *f, const struct st *s)
{
	fprintf(f, " %s ", s->o.ncpus == 1 ? "CPU" : "CPUs");
	for (int i = 0; i < s->o.ncpus; i++) {
		int j = i;
		while (j + 1 < s->o.ncpus && s->o.cpus[j + 1] == s->o.cpus[j] + 1)
			j++;
		fprintf(f, "%s%d", i ? "," : "", s->o.cpus[i]);
		if (j > i)
			fprintf(f, "-%d", s->o.cpus[j]);
		i = j;
	}
	char off[128];
	st_cpus_offline(off, sizeof off);
	if (*off)
		fprintf(f, " (offline, not counted: %s)", off);
}

static void human_status(FILE *f, const struct st *s)
{
	if (s->o.system_wide) {
		fprintf(f, " Counts of");
		human_cpus(f, s);
		if (!s->o.cmd) {
			fputs(", system-wide:\n\n", f);
			return;
		}
		fputs(", system-wide, while", f);
	}
	if (!s->o.cmd) {
		fprintf(f, " Counts of");
		if (s->o.npids)
			human_ids(f, "process", "processes", s->o.pids, s->o.npids);
		if (s->o.npids && s->o.ntids)
			fputs(", and", f);
		if (s->o.ntids)
			human_ids(f, "thread", "threads", s->o.tids, s->o.ntids);
		fputs(":\n\n", f);
		return;
	}
	fprintf(f, s->o.system_wide ? " '" : " Counts of '");
	for (int i = 0; i < s->o.ncmd; i++)
		fprintf(f, "%s%s", i ? " " : "", s->o.cmd[i]);
	int d = s->status_run;
	int st = d >= 0 ? s->runs[d].status : 0;
	if (s->o.repeat > 1)
		fprintf(f, "'%s (%d of %d runs, ", s->o.system_wide ? " ran" : "", s->nruns, s->o.repeat);
	else
		fprintf(f, "'%s (", s->o.system_wide ? " ran" : "");
	if (s->nruns > 1) {
		/* every run's, so that a failed run shows whichever it was */
		fputs("exit status of each:", f);
		for (int r = 0; r < s->nruns; r++) {
			int rs = s->runs[r].status;
			if (WIFSIGNALED(rs))
				fprintf(f, "%s signal %d", r ? "," : "", WTERMSIG(rs));
			else
				fprintf(f, "%s %d", r ? "," : "", WEXITSTATUS(rs));
		}
		fputs("; ", f);
		if (st_run_code(&s->runs[d]) > 0)
			fprintf(f, "run %d ", d + 1);
		else
			fputs("all ", f);
	}
	if (s->nruns > 1 && st_run_code(&s->runs[d]) == 0)
		fputs("exited 0", f);
	else if (WIFSIGNALED(st))
		fprintf(f, "killed by signal %d, %s", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		fprintf(f, "exit status %d", WEXITSTATUS(st));
	int sent = s->nruns > 0 ? s->runs[s->nruns - 1].timeout : 0;
	if (sent)
		fprintf(f, "; --timeout sent SIGTERM after %ld ms", s->o.timeout_ms);
	if (sent > 1)
		fprintf(f, ", then SIGKILL after %ld ms more", s->o.kill_after_ms);
	fputs("):\n\n", f);
}

/* The notes above the counts: user space only and why, why context
 * switches may read 0 there, and what --per-thread's ptrace stops add to
 * them; nothing when none applies. */
static void domain_human(const struct st *s, FILE *f)
{
	int said = 0;
	if (s->dom_note) {
		fprintf(f, " User space only (:u): %s.\n", s->dom_note);
		said = 1;
	}
	char trace[320];
	if (st_trace_note(s, trace, sizeof trace)) {
		fprintf(f, " Context switches: %s.\n", trace);
		said = 1;
	}
	/* a context switch is the kernel's doing: user space sees none */
	for (int i = 0; i < s->nev; i++) {
		int named, dom = st_event_dom(s, &s->ev[i], &named);
		if (s->ev[i].role == ROLE_CS && dom && !(dom & PAPI_DOM_KERNEL)) {
			fputs(" Context switches happen in the kernel: counted in user space only, they "
			      "may read 0.\n", f);
			said = 1;
			break;
		}
	}
	if (said)
		fputc('\n', f);
}

/* The share of a count's enabled time its counter ran (en, run: the
 * kernel's times; mean: the count), after the value when it is not the
 * whole; below a tenth (cli_low_share) with what was really counted. */
static void share_note(FILE *f, const struct st_event *e, uint64_t en, uint64_t run, double mean)
{
	double pct = en ? 100.0 * (double)run / (double)en : 0;
	double seen = st_seen(mean, en, run);
	if (cli_low_share((double)en, (double)run) && e->is_time)	/* an extrapolation: say what was seen */
		fprintf(f, "  (counted %.2f%% of the time, scaled: an extrapolation of %.3f ms counted)", pct,
			seen / 1e6);
	else if (cli_low_share((double)en, (double)run))
		fprintf(f, "  (counted %.2f%% of the time, scaled: an extrapolation of %.0f counted)", pct, seen);
	else if (en && pct < 99.995)
		fprintf(f, "  (counted %.2f%% of the time, scaled)", pct);
}

/* ------------------------------------------------------------------ --per-* rows */
/* The width of the rows' label column: 14, or the longest label (a
 * thread's "name-tid", a cgroup's path). */
static int row_width(const struct st *s)
{
	int n = 14;
	if (s->o.aggr == AGGR_CORE || s->o.aggr == AGGR_SOCKET || s->o.aggr == AGGR_NODE)
		return n;	/* "%-10s %3d": the label and the CPUs it sums */
	for (int w = 0; w < s->nrows; w++)
		if ((int)strlen(s->rows[w].label) > n)
			n = (int)strlen(s->rows[w].label);
	return n;
}

static void row_label(const struct st *s, FILE *f, const struct st_row *w)
{
	if (s->o.aggr == AGGR_CORE || s->o.aggr == AGGR_SOCKET || s->o.aggr == AGGR_NODE)
		fprintf(f, "%-10s %3d", w->label, w->n);
	else
		fprintf(f, "%-*s", row_width(s), w->label);
}

/* Event i's line of row (NULL: the totals, "all", as --per-cputype ends
 * an event with): its value, the DEFAULT metrics shown beside it, the
 * spread over the runs and the share of the time it was counted. */
static void row_line(const struct st *s, FILE *f, int i, const struct st_row *row)
{
	const struct st_event *e = &s->ev[i];
	const struct st_stats t = row ? row->t[i] : e->t;
	uint64_t en = row ? row->en[i] : e->en, run = row ? row->run[i] : e->run;
	char val[64];
	if (row)
		row_label(s, f, row);
	else
		fprintf(f, "%-*s", row_width(s), "all");
	if (row ? run == 0 && en > 0 : e->nc != NULL) {
		fprintf(f, " %21s %s\n", "<not counted>", st_label(e));
		return;
	}
	human_value(f, e, t.mean);
	fprintf(f, " %-24s", st_label(e));
	for (int k = 0; k < s->nmet; k++) {
		const struct st_metric *m = &s->met[k];
		const struct st_stats mt = row ? row->mt[k] : m->t;
		if (!m->grp->dflt || m->line != i || !mt.n)
			continue;
		st_metric_format(val, sizeof val, mt.mean, m->def);
		fprintf(f, "  # %s%s%s", val, *m->def->desc ? " " : "", m->def->desc);
	}
	if (s->nruns > 1)
		fprintf(f, "  (± %.2f%%)", t.mean ? 100 * t.stddev / fabs(t.mean) : 0);
	share_note(f, e, en, run, t.mean);
	fputc('\n', f);
}

/* The event lines, row by row, with the DEFAULT metrics of each row; then
 * the -g groups' metrics row by row. --per-cputype: an event split over
 * the core types ends with their sum, one that is not has that line only. */
static void rows_human(const struct st *s, FILE *f)
{
	const struct st_metric *m = s->met;
	int nm = s->nmet, types = s->o.aggr == AGGR_CPUTYPE;
	char val[64];
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail) {
			fprintf(f, "%-*s %21s %s\n", row_width(s), "", "<not supported>", e->name);
			continue;
		}
		if (types && !st_split(s, e)) {
			row_line(s, f, i, NULL);
			continue;
		}
		if (e->cidx > 0) {	/* another component's: counted once, not by row */
			fprintf(f, "%-*s", row_width(s), "all");
			human_value(f, e, e->t.mean);
			fprintf(f, " %s\n", st_label(e));
			continue;
		}
		for (int w = 0; w < s->nrows; w++)
			row_line(s, f, i, &s->rows[w]);
		if (types)
			row_line(s, f, i, NULL);
	}
	/* the -g groups' metrics, row by row */
	const struct st_group *cur = NULL;
	for (int k = 0; k < nm; k++) {
		if (m[k].grp->dflt)
			continue;
		group_heading(f, &m[k], &cur);
		for (int w = 0; w < s->nrows; w++) {
			const struct st_stats mt = s->rows[w].mt[k];
			row_label(s, f, &s->rows[w]);
			if (mt.n)
				st_metric_format(val, sizeof val, mt.mean, m[k].def);
			fprintf(f, " %21s %s\n", mt.n ? val : "<not computed>", m[k].def->name);
		}
		if (types) {
			if (m[k].t.n)
				st_metric_format(val, sizeof val, m[k].t.mean, m[k].def);
			fprintf(f, "%-*s %21s %s\n", row_width(s), "all", m[k].t.n ? val : "<not computed>",
				m[k].def->name);
		}
	}
}

void st_text_report(const struct st *s, FILE *f)
{
	const struct st_metric *m = s->met;
	int nm = s->nmet, multi = s->nruns > 1;
	fputc('\n', f);
	human_status(f, s);
	domain_human(s, f);
	if (multi && !s->nrows)
		stats_header(f);
	if (s->nrows)
		rows_human(s, f);
	for (int i = 0; i < s->nev && !s->nrows; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail) {
			fprintf(f, "%21s %s\n", "<not supported>", e->name);
			continue;
		}
		const struct st_stats t = e->t;
		if (e->nc) {
			fprintf(f, "%21s %s\n", "<not counted>", st_label(e));
			continue;
		}
		if (multi) {
			if (e->is_time)
				stats_row(f, &t, 1e6, 3, "ms");
			else
				count_row(f, &t);
			fputc(' ', f);
		} else {
			human_value(f, e, t.mean);
		}
		fprintf(f, " %s", st_label(e));
		for (int k = 0; k < nm; k++)
			if (m[k].grp->dflt && m[k].line == i)
				human_metric(f, st_label(e), &m[k]);
		share_note(f, e, e->en, e->run, t.mean);
		fputc('\n', f);
	}
	/* Each distinct reason once, with the events it concerns. */
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		int seen = 0;
		if (e->avail || !e->reason)
			continue;
		for (int j = 0; j < i; j++)
			if (!s->ev[j].avail && s->ev[j].reason && !strcmp(s->ev[j].reason, e->reason))
				seen = 1;
		if (seen)
			continue;
		fprintf(f, "\n Not supported:");
		for (int j = i, k = 0; j < s->nev; j++)
			if (!s->ev[j].avail && s->ev[j].reason && !strcmp(s->ev[j].reason, e->reason))
				fprintf(f, "%s %s", k++ ? "," : "", s->ev[j].name);
		fprintf(f, ":\n   %s\n", e->reason);
	}
	/* how a {...} group that is not one kernel group was counted */
	for (int g = 1; g <= s->nbraces; g++) {
		const char *how = s->brace_how[g];
		if (!how)
			continue;
		fputs("\n Group {", f);
		for (int i = 0, k = 0; i < s->nev; i++)
			if (s->ev[i].brace == g)
				fprintf(f, "%s%s", k++ ? "," : "", s->ev[i].name);
		fprintf(f, "}:\n   %s\n", how);
	}
	/* and why an event has no count, once for those it concerns */
	const char *why = NULL;
	for (int i = 0; i < s->nev && !why; i++)
		if (s->ev[i].avail)
			why = s->ev[i].nc;
	if (why) {
		fprintf(f, "\n Not counted:");
		for (int i = 0, k = 0; i < s->nev; i++)
			if (s->ev[i].avail && s->ev[i].nc && !strcmp(s->ev[i].nc, why))
				fprintf(f, "%s %s", k++ ? "," : "", s->ev[i].name);
		fprintf(f, ":\n   %s\n", why);
	}
	if (!s->nrows)
		human_groups(f, s, m, nm);
	fputc('\n', f);
	for (int w = 0; w < T_COUNT; w++) {
		const struct st_stats t = s->times[w];
		if (!s->has_time[w])
			continue;
		if (multi) {
			stats_row(f, &t, 1, 6, "s");
			fprintf(f, "  %s\n", st_time_names[w]);
		} else {
			fprintf(f, "%16.6f s    %s\n", t.mean, st_time_names[w]);
		}
	}
	if (s->multiplexed)
		fputs("\n Counters were multiplexed: counts are scaled from the time each ran.\n", f);
	fputc('\n', f);
}


/* --per-*: an interval's lines row by row, under a header whose columns
 * they fill as the final report's rows do: another component's events
 * (counted once, not by row) and the metrics (of the totals) as "all". */
static void interval_rows(struct st *s, const struct st_interval *iv, double t)
{
	FILE *f = s->out;
	if (s->ivrows++ == 0)
		fprintf(f, "%12s %-*s%21s %s\n", "time (s)", row_width(s), st_aggr_name(s->o.aggr), "count",
			"event");
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail)
			continue;
		/* --per-cputype: the core types' lines of a split event, then its sum */
		int types = s->o.aggr == AGGR_CPUTYPE, once = !st_by_row(s, e);
		for (int w = 0; w < (once ? 1 : s->nrows + types); w++) {
			int all = once || w == s->nrows;
			fprintf(f, "%12.3f ", t);
			if (all)
				fprintf(f, "%-*s", row_width(s), "all");
			else
				row_label(s, f, &s->rows[w]);
			human_value(f, e, (double)(all ? iv->val[i] : iv->rows[w * s->nev + i]));
			fprintf(f, " %s\n", st_label(e));
		}
	}
	for (int k = 0; k < iv->nmet; k++) {
		fprintf(f, "%12.3f %-*s", t, row_width(s), "all");
		human_metric_value(f, iv->met[k].value, iv->met[k].def);
		fprintf(f, " %s\n", iv->met[k].def->name);
	}
}

void st_text_interval(struct st *s, const struct st_interval *iv)
{
	FILE *f = s->out;
	double t = (double)iv->t_ns / 1e9;
	if (iv->rows) {
		interval_rows(s, iv, t);
		fflush(f);
		return;
	}
	if (s->ivrows++ == 0)
		fprintf(f, "%12s %21s %s\n", "time (s)", "count", "event");
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail)
			continue;
		fprintf(f, "%12.3f ", t);
		human_value(f, e, (double)iv->val[i]);
		fprintf(f, " %s\n", st_label(e));
	}
	for (int k = 0; k < iv->nmet; k++) {
		fprintf(f, "%12.3f ", t);
		human_metric_value(f, iv->met[k].value, iv->met[k].def);
		fprintf(f, " %s\n", iv->met[k].def->name);
	}
	fflush(f);
}

/* csv.c: papi stat's CSV report (-x SEP): the totals, metrics, times, runs and rows, and each interval as it ends, one column set for all. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "tool.h"
#include "report.h"

/* ------------------------------------------------------------------ CSV */
static void csv_header(struct cli_csv *c)
{
	for (int i = 0; i < st_ncsv_cols; i++)
		cli_csv_field(c, st_csv_cols[i]);
	cli_csv_end(c);
}

static void csv_num(struct cli_csv *c, double v)
{
	cli_csv_double(c, st_tidy(v));
}

/* Columns time to max; stddev is empty for fewer than two values. */
static void csv_stat_row(struct cli_csv *c, const char *kind, const char *name, const char *unit,
			 const struct st_stats *t)
{
	cli_csv_field(c, NULL);
	cli_csv_field(c, kind);
	cli_csv_field(c, name);
	csv_num(c, t->mean);
	cli_csv_field(c, unit);
	cli_csv_int(c, t->n);
	if (t->n > 1)
		csv_num(c, t->stddev);
	else
		cli_csv_field(c, NULL);
	csv_num(c, t->min);
	csv_num(c, t->median);
	csv_num(c, t->max);
}

/* Empty columns from from, then the note; the target is empty (a row of
 * the totals), and so is the domain (the last column: events only). */
static void csv_empty(struct cli_csv *c, int from, const char *note)
{
	for (int k = from; k < st_ncsv_cols - 3; k++)
		cli_csv_field(c, NULL);
	cli_csv_field(c, note);
	cli_csv_field(c, NULL);
	cli_csv_field(c, NULL);
	cli_csv_end(c);
}

/* CSV rows of each event and metric per row (the target column). */
static void rows_csv(const struct st *s, struct cli_csv *c)
{
	const struct st_metric *m = s->met;
	int nm = s->nmet;
	for (int w = 0; w < s->nrows; w++) {
		const struct st_row *row = &s->rows[w];
		for (int i = 0; i < s->nev; i++) {
			if (!st_by_row(s, &s->ev[i]))
				continue;
			const struct st_stats t = row->t[i];
			cli_csv_field(c, NULL);
			cli_csv_field(c, "event");
			cli_csv_field(c, s->ev[i].name);
			cli_csv_double(c, st_tidy(t.mean));
			cli_csv_field(c, s->ev[i].is_time ? "ns" : "count");
			cli_csv_int(c, t.n);
			for (int k = 6; k < 10; k++)	/* stddev to max: the totals' rows say them */
				cli_csv_field(c, NULL);
			/* the row's own times: its share may differ from the total's */
			cli_csv_int(c, st_per_run(s, row->en[i]));
			cli_csv_int(c, st_per_run(s, row->run[i]));
			csv_num(c, row->en[i] ? 100.0 * (double)row->run[i] / (double)row->en[i] : 0);
			cli_csv_field(c, NULL);
			cli_csv_field(c, row->label);
			char dom[32];
			cli_csv_field(c, st_csv_domain(s, &s->ev[i], dom, sizeof dom));
			cli_csv_end(c);
		}
		for (int k = 0; k < nm; k++) {
			const struct st_stats mt = row->mt[k];
			if (!mt.n)
				continue;
			cli_csv_field(c, NULL);
			cli_csv_field(c, "metric");
			cli_csv_field(c, m[k].def->name);
			cli_csv_double(c, st_tidy(mt.mean));
			cli_csv_field(c, m[k].def->unit);
			cli_csv_int(c, mt.n);
			for (int j = 6; j < st_ncsv_cols - 2; j++)
				cli_csv_field(c, NULL);
			cli_csv_field(c, row->label);
			cli_csv_field(c, NULL);
			cli_csv_end(c);
		}
	}
}


/* A row of kind note: what it is about (name), the note, and a domain. */
static void note_row(struct cli_csv *c, const char *name, const char *note, const char *dom)
{
	cli_csv_field(c, NULL);
	cli_csv_field(c, "note");
	cli_csv_field(c, name);
	for (int k = 3; k < st_ncsv_cols - 3; k++)
		cli_csv_field(c, NULL);
	cli_csv_field(c, note);
	cli_csv_field(c, NULL);
	cli_csv_field(c, dom);
	cli_csv_end(c);
}

void st_csv_report(const struct st *s, FILE *f)
{
	struct cli_csv c;
	const struct st_metric *m = s->met;
	int nm = s->nmet;
	cli_csv_init(&c, f, s->o.sep);
	if (s->ivrows == 0)
		csv_header(&c);
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail) {
			cli_csv_field(&c, NULL);
			cli_csv_field(&c, "event");
			cli_csv_field(&c, e->name);
			csv_empty(&c, 3, e->reason ? e->reason : "not supported");
			continue;
		}
		const char *nc = e->nc;
		char note[192];
		if (nc && s->runs[0].uncounted) {
			/* no value: a 0 would read as counted */
			snprintf(note, sizeof note, "not counted: %s", nc);
			cli_csv_field(&c, NULL);
			cli_csv_field(&c, "event");
			cli_csv_field(&c, e->name);
			cli_csv_field(&c, NULL);
			cli_csv_field(&c, e->is_time ? "ns" : "count");
			csv_empty(&c, 5, note);
			continue;
		}
		csv_stat_row(&c, "event", e->name, e->is_time ? "ns" : "count", &e->t);
		cli_csv_int(&c, st_per_run(s, e->en));
		cli_csv_int(&c, st_per_run(s, e->run));
		csv_num(&c, st_running_pct(e));
		char low[96];
		snprintf(low, sizeof low, "low share: an extrapolation of %.0f counted", st_counted(e));
		cli_csv_field(&c, nc ? "not counted" : st_low_share(e) ? low : e->brace ? s->brace_how[e->brace] : NULL);
		cli_csv_field(&c, e->cg >= 0 ? s->o.cgroups[e->cg] : NULL);	/* -G: its cgroup */
		char dom[32];
		cli_csv_field(&c, st_csv_domain(s, e, dom, sizeof dom));
		cli_csv_end(&c);
	}
	for (int k = 0; k < nm; k++) {
		char note[384];
		snprintf(note, sizeof note, "group %s%s%s", m[k].grp->g->name,
			 m[k].t.n || !*m[k].needs ? "" : ": needs ", m[k].t.n ? "" : m[k].needs);
		if (m[k].t.n) {
			csv_stat_row(&c, "metric", m[k].def->name, m[k].def->unit, &m[k].t);
			csv_empty(&c, 10, note);
			continue;
		}
		cli_csv_field(&c, NULL);
		cli_csv_field(&c, "metric");
		cli_csv_field(&c, m[k].def->name);
		cli_csv_field(&c, NULL);
		cli_csv_field(&c, m[k].def->unit);
		csv_empty(&c, 5, note);
	}
	for (int w = 0; w < T_COUNT; w++) {
		if (!s->has_time[w])
			continue;
		csv_stat_row(&c, "time", st_time_names[w], "s", &s->times[w]);
		csv_empty(&c, 10, NULL);
	}
	/* Each run's exit status: a run that failed shows whichever it was */
	for (int r = 0; s->o.cmd && r < s->nruns; r++) {
		char name[16], note[96] = "";
		int st = s->runs[r].status;
		snprintf(name, sizeof name, "%d", r + 1);
		if (WIFSIGNALED(st))
			snprintf(note, sizeof note, "killed by signal %d, %s", WTERMSIG(st), strsignal(WTERMSIG(st)));
		cli_csv_field(&c, NULL);
		cli_csv_field(&c, "run");
		cli_csv_field(&c, name);
		cli_csv_int(&c, st_run_code(&s->runs[r]));
		cli_csv_field(&c, "exit_status");
		csv_empty(&c, 5, *note ? note : NULL);
	}
	if (s->nrows)
		rows_csv(s, &c);
	/* Why only user space was counted: once, as the text report says it */
	if (s->dom_note) {
		char dom[32];
		note_row(&c, "domain", s->dom_note, st_dom_word(s->dom, dom, sizeof dom));
	}
	/* What --per-thread's ptrace stops add: once, as the text says it */
	char trace[320];
	if (st_trace_note(s, trace, sizeof trace))
		note_row(&c, "ptrace", trace, NULL);
	/* What --timeout sent in the last run, and when. */
	int sent = s->nruns > 0 ? s->runs[s->nruns - 1].timeout : 0;
	for (int k = 0; k < sent; k++) {
		cli_csv_field(&c, NULL);
		cli_csv_field(&c, "signal");
		cli_csv_field(&c, k ? "SIGKILL" : "SIGTERM");
		cli_csv_int(&c, s->o.timeout_ms + (k ? s->o.kill_after_ms : 0));
		cli_csv_field(&c, "ms");
		csv_empty(&c, 5, "sent by --timeout");
	}
}

void st_csv_interval(struct st *s, const struct st_interval *iv)
{
	double t = (double)iv->t_ns / 1e9;
	const long long *d = iv->val;
	struct cli_csv c;
	cli_csv_init(&c, s->out, s->o.sep);
	if (s->ivrows++ == 0)
		csv_header(&c);
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail)
			continue;
		cli_csv_double(&c, st_tidy(t));
		cli_csv_field(&c, "interval");
		cli_csv_field(&c, e->name);
		cli_csv_int(&c, d[i]);
		cli_csv_field(&c, e->is_time ? "ns" : "count");
		for (int k = 5; k < st_ncsv_cols - 1; k++)
			cli_csv_field(&c, NULL);
		char dom[32];
		cli_csv_field(&c, st_csv_domain(s, e, dom, sizeof dom));
		cli_csv_end(&c);
	}
	for (int k = 0; k < iv->nmet; k++) {
		const struct st_ivmetric *m = &iv->met[k];
		cli_csv_double(&c, st_tidy(t));
		cli_csv_field(&c, "interval_metric");
		cli_csv_field(&c, m->def->name);
		cli_csv_double(&c, st_tidy(m->value));
		cli_csv_field(&c, m->def->unit);
		for (int j = 5; j < st_ncsv_cols - 3; j++)
			cli_csv_field(&c, NULL);
		char note[80];
		snprintf(note, sizeof note, "group %s", m->grp->g->name);
		cli_csv_field(&c, note);
		cli_csv_field(&c, NULL);
		cli_csv_field(&c, NULL);
		cli_csv_end(&c);
	}
	/* --per-*: each row's deltas */
	for (int i = 0; iv->rows && i < s->nev; i++) {
		if (!st_by_row(s, &s->ev[i]))
			continue;
		for (int w = 0; w < s->nrows; w++) {
			cli_csv_double(&c, st_tidy(t));
			cli_csv_field(&c, "interval");
			cli_csv_field(&c, s->ev[i].name);
			cli_csv_int(&c, iv->rows[w * s->nev + i]);
			cli_csv_field(&c, s->ev[i].is_time ? "ns" : "count");
			for (int k = 5; k < st_ncsv_cols - 2; k++)
				cli_csv_field(&c, NULL);
			cli_csv_field(&c, s->rows[w].label);
			char dom[32];
			cli_csv_field(&c, st_csv_domain(s, &s->ev[i], dom, sizeof dom));
			cli_csv_end(&c);
		}
	}
	fflush(s->out);
}

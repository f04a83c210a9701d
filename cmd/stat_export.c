/* stat_export.c: papi stat's machine-readable reports: CSV and JSON, every number at a stated precision. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "stat.h"
#include "internal.h"

#define JSON_SCHEMA_VERSION 1

/* Counts, times and their statistics are per run: with -r N the mean over
 * the runs. The times an event was enabled and running are that mean too,
 * to the nanosecond; every non-integer is rounded by st_tidy. */
static long long per_run(const struct st *s, uint64_t sum)
{
	return s->nruns > 0 ? (long long)cli_round((double)sum / s->nruns) : 0;
}

/* ------------------------------------------------------------------ CSV */
void st_csv_header(struct csv *c)
{
	for (int i = 0; i < st_ncsv_cols; i++)
		csv_field(c, st_csv_cols[i]);
	csv_row_end(c);
}

static void csv_num(struct csv *c, double v)
{
	csv_double(c, st_tidy(v));
}

/* Columns time to max; stddev is empty for fewer than two values. */
static void csv_stat_row(struct csv *c, const char *kind, const char *name, const char *unit,
			 const struct st_stats *t)
{
	csv_field(c, NULL);
	csv_field(c, kind);
	csv_field(c, name);
	csv_num(c, t->mean);
	csv_field(c, unit);
	csv_int(c, t->n);
	if (t->n > 1)
		csv_num(c, t->stddev);
	else
		csv_field(c, NULL);
	csv_num(c, t->min);
	csv_num(c, t->median);
	csv_num(c, t->max);
}

/* Empty columns from from, then the note; the target is empty (a row of
 * the totals), and so is the domain (the last column: events only). */
static void csv_empty(struct csv *c, int from, const char *note)
{
	for (int k = from; k < st_ncsv_cols - 3; k++)
		csv_field(c, NULL);
	csv_field(c, note);
	csv_field(c, NULL);
	csv_field(c, NULL);
	csv_row_end(c);
}

const char *st_csv_domain(const struct st *s, const struct st_event *e, char *buf, size_t len)
{
	int named;
	return st_dom_word(st_event_dom(s, e, &named), buf, len);
}

void st_csv_report(const struct st *s, FILE *f)
{
	struct csv c;
	struct st_metric m[st_metrics_max(s)];
	int nm = st_metrics(s, m);
	csv_init(&c, f, s->o.sep);
	if (s->ivrows == 0)
		st_csv_header(&c);
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail) {
			csv_field(&c, NULL);
			csv_field(&c, "event");
			csv_field(&c, e->name);
			csv_empty(&c, 3, e->reason ? e->reason : "not supported");
			continue;
		}
		struct st_stats t;
		const char *nc = st_not_counted(s, e);
		char note[192];
		if (nc && s->runs[0].uncounted) {
			/* no value: a 0 would read as counted */
			snprintf(note, sizeof note, "not counted: %s", nc);
			csv_field(&c, NULL);
			csv_field(&c, "event");
			csv_field(&c, e->name);
			csv_field(&c, NULL);
			csv_field(&c, e->is_time ? "ns" : "count");
			csv_empty(&c, 5, note);
			continue;
		}
		st_event_stats(s, e, &t);
		csv_stat_row(&c, "event", e->name, e->is_time ? "ns" : "count", &t);
		csv_int(&c, per_run(s, e->en));
		csv_int(&c, per_run(s, e->run));
		csv_num(&c, st_running_pct(e));
		csv_field(&c, nc ? "not counted" : e->brace ? st_brace_how(s, e->brace) : NULL);
		csv_field(&c, NULL);
		char dom[32];
		csv_field(&c, st_csv_domain(s, e, dom, sizeof dom));
		csv_row_end(&c);
	}
	for (int k = 0; k < nm; k++) {
		char note[128];
		snprintf(note, sizeof note, "group %s%s%s", m[k].grp->g->name, m[k].t.n ? "" : ": needs ",
			 m[k].t.n ? "" : m[k].missing >= 0 ? s->ev[m[k].missing].name : "an event not counted");
		if (m[k].t.n) {
			csv_stat_row(&c, "metric", m[k].def->name, m[k].def->unit, &m[k].t);
			csv_empty(&c, 10, note);
			continue;
		}
		csv_field(&c, NULL);
		csv_field(&c, "metric");
		csv_field(&c, m[k].def->name);
		csv_field(&c, NULL);
		csv_field(&c, m[k].def->unit);
		csv_empty(&c, 5, note);
	}
	for (int w = 0; w < T_COUNT; w++) {
		struct st_stats t;
		if (!st_time_stats(s, w, &t))
			continue;
		csv_stat_row(&c, "time", st_time_names[w], "s", &t);
		csv_empty(&c, 10, NULL);
	}
	/* Each run's exit status: a run that failed shows whichever it was */
	for (int r = 0; s->o.cmd && r < s->nruns; r++) {
		char name[16], note[96] = "";
		int st = s->runs[r].status;
		snprintf(name, sizeof name, "%d", r + 1);
		if (WIFSIGNALED(st))
			snprintf(note, sizeof note, "killed by signal %d, %s", WTERMSIG(st), strsignal(WTERMSIG(st)));
		csv_field(&c, NULL);
		csv_field(&c, "run");
		csv_field(&c, name);
		csv_int(&c, st_run_code(&s->runs[r]));
		csv_field(&c, "exit_status");
		csv_empty(&c, 5, *note ? note : NULL);
	}
	if (s->nrows)
		st_rows_csv(s, &c);
	/* Why only user space was counted: once, as the text report says it */
	if (s->dom_note) {
		char dom[32];
		csv_field(&c, NULL);
		csv_field(&c, "note");
		csv_field(&c, "domain");
		for (int k = 3; k < st_ncsv_cols - 3; k++)
			csv_field(&c, NULL);
		csv_field(&c, s->dom_note);
		csv_field(&c, NULL);
		csv_field(&c, st_dom_word(s->dom, dom, sizeof dom));
		csv_row_end(&c);
	}
	/* What --timeout sent in the last run, and when. */
	int sent = s->nruns > 0 ? s->runs[s->nruns - 1].timeout : 0;
	for (int k = 0; k < sent; k++) {
		csv_field(&c, NULL);
		csv_field(&c, "signal");
		csv_field(&c, k ? "SIGKILL" : "SIGTERM");
		csv_int(&c, s->o.timeout_ms + (k ? s->o.kill_after_ms : 0));
		csv_field(&c, "ms");
		csv_empty(&c, 5, "sent by --timeout");
	}
}

/* ------------------------------------------------------------------ JSON */
static void json_num(struct json *j, const char *key, double v)
{
	json_kdouble(j, key, st_tidy(v));
}

/* mean, stddev (null for fewer than two values), min, median, max. */
static void json_stats(struct json *j, const struct st_stats *t)
{
	json_num(j, "mean", t->mean);
	json_key(j, "stddev");
	if (t->n > 1)
		json_double(j, st_tidy(t->stddev));
	else
		json_put_null(j);
	json_num(j, "min", t->min);
	json_num(j, "median", t->median);
	json_num(j, "max", t->max);
}

static void json_target(struct json *j, const struct st *s)
{
	json_key(j, "command");
	if (s->o.cmd) {
		json_arr_begin(j);
		for (int i = 0; i < s->o.ncmd; i++)
			json_str(j, s->o.cmd[i]);
		json_arr_end(j);
	} else {
		json_put_null(j);
	}
	json_key(j, "pids");
	json_arr_begin(j);
	for (int i = 0; i < s->o.npids; i++)
		json_int(j, s->o.pids[i]);
	json_arr_end(j);
	json_key(j, "tids");
	json_arr_begin(j);
	for (int i = 0; i < s->o.ntids; i++)
		json_int(j, s->o.tids[i]);
	json_arr_end(j);
	json_key(j, "cpus");	/* -a, -C: the CPUs counted whole */
	if (s->o.system_wide) {
		json_arr_begin(j);
		for (int i = 0; i < s->o.ncpus; i++)
			json_int(j, s->o.cpus[i]);
		json_arr_end(j);
	} else {
		json_put_null(j);
	}
	json_kint(j, "runs", s->nruns);
	/* papi stat's exit status and the run it comes from (the last that
	 * failed), then every run's */
	int d = s->o.cmd ? st_status_run(s) : -1;
	int st = d >= 0 ? s->runs[d].status : -1;
	json_key(j, "exit_status");
	if (s->o.cmd)
		json_int(j, s->exit_code);
	else
		json_put_null(j);
	json_key(j, "signal");
	if (st != -1 && WIFSIGNALED(st))
		json_int(j, WTERMSIG(st));
	else
		json_put_null(j);
	json_key(j, "exit_statuses");
	if (s->o.cmd) {
		json_arr_begin(j);
		for (int r = 0; r < s->nruns; r++)
			json_int(j, st_run_code(&s->runs[r]));
		json_arr_end(j);
	} else {
		json_put_null(j);
	}
	json_key(j, "signals");
	if (s->o.cmd) {
		json_arr_begin(j);
		for (int r = 0; r < s->nruns; r++)
			if (WIFSIGNALED(s->runs[r].status))
				json_int(j, WTERMSIG(s->runs[r].status));
			else
				json_put_null(j);
		json_arr_end(j);
	} else {
		json_put_null(j);
	}
	json_kbool(j, "multiplexed", s->multiplexed);
	/* the domain chosen for the events, and why only user space */
	char dom[32];
	json_kstr(j, "domain", st_dom_word(s->dom, dom, sizeof dom));
	json_kstr(j, "domain_note", s->dom_note);
	json_key(j, "timeout");
	if (!s->o.timeout_ms) {
		json_put_null(j);
		return;
	}
	json_obj_begin(j);
	json_kint(j, "ms", s->o.timeout_ms);
	if (s->o.cmd)
		json_kint(j, "kill_after_ms", s->o.kill_after_ms);
	json_key(j, "sent");	/* in the last run */
	json_arr_begin(j);
	int sent = s->o.cmd && s->nruns > 0 ? s->runs[s->nruns - 1].timeout : 0;
	for (int k = 0; k < sent; k++)
		json_str(j, k ? "SIGKILL" : "SIGTERM");
	json_arr_end(j);
	json_obj_end(j);
}

static void json_event(struct json *j, const struct st *s, const struct st_event *e)
{
	json_obj_begin(j);
	json_kstr(j, "name", e->name);
	if (e->brace)
		json_kint(j, "group", e->brace);
	if (e->brace && e->avail && st_brace_how(s, e->brace))
		json_kstr(j, "group_note", st_brace_how(s, e->brace));
	json_kbool(j, "available", e->avail);
	if (!e->avail) {
		json_kstr(j, "reason", e->reason);
		json_obj_end(j);
		return;
	}
	struct st_stats t;
	const char *nc = st_not_counted(s, e);
	json_kstr(j, "unit", e->is_time ? "ns" : "count");
	char dom[32];
	json_kstr(j, "domain", st_csv_domain(s, e, dom, sizeof dom));
	json_kbool(j, "counted", !nc);
	if (nc && s->runs[0].uncounted) {
		/* no value: a 0 would read as counted */
		json_key(j, "value");
		json_put_null(j);
		json_kstr(j, "reason", nc);
		json_obj_end(j);
		return;
	}
	if (nc)
		json_kstr(j, "reason", nc);
	st_event_stats(s, e, &t);
	if (s->nruns == 1)
		json_kint(j, "value", e->val[0]);
	else
		json_num(j, "value", t.mean);
	json_kint(j, "time_enabled", per_run(s, e->en));
	json_kint(j, "time_running", per_run(s, e->run));
	json_num(j, "scale", e->run ? (double)e->en / (double)e->run : 0);
	json_num(j, "running_pct", st_running_pct(e));
	json_stats(j, &t);
	json_key(j, "values");
	json_arr_begin(j);
	for (int r = 0; r < s->nruns; r++)
		json_int(j, e->val[r]);
	json_arr_end(j);
	json_obj_end(j);
}

static void json_times(struct json *j, const struct st *s)
{
	for (int w = 0; w < T_COUNT; w++) {
		struct st_stats t;
		json_key(j, st_time_names[w]);
		if (!st_time_stats(s, w, &t)) {
			json_put_null(j);
			continue;
		}
		json_obj_begin(j);
		json_kstr(j, "unit", "s");
		json_stats(j, &t);
		json_key(j, "values");
		json_arr_begin(j);
		for (int r = 0; r < s->nruns; r++)
			json_double(j, st_tidy(st_run_time(&s->runs[r], w)));
		json_arr_end(j);
		json_obj_end(j);
	}
}

static void json_intervals(struct json *j, const struct st *s)
{
	json_kint(j, "interval_ms", s->o.interval_ms);
	json_key(j, "intervals");
	json_arr_begin(j);
	struct st_ivmetric m[st_metrics_max(s)];
	for (int k = 0; k < s->niv; k++) {
		json_obj_begin(j);
		json_num(j, "time", (double)s->iv[k].t_ns / 1e9);
		int64_t from = k ? s->iv[k - 1].at_ns : 0;
		int nm = st_interval_metrics(s, s->iv[k].val, (double)(s->iv[k].at_ns - from) / 1e9, m);
		json_key(j, "metrics");
		json_obj_begin(j);
		for (int i = 0; i < nm; i++)
			json_num(j, m[i].def->name, m[i].value);
		json_obj_end(j);
		st_rows_json_interval(s, j, k);
		json_key(j, "values");
		json_arr_begin(j);
		for (int i = 0; i < s->nev; i++)
			if (s->ev[i].avail)
				json_int(j, s->iv[k].val[i]);
			else
				json_put_null(j);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void st_json_report(const struct st *s, FILE *f)
{
	struct json j;
	struct st_metric m[st_metrics_max(s)];
	int nm = st_metrics(s, m);
	json_init(&j, f, 1);
	json_obj_begin(&j);
	json_kstr(&j, "format", "papi-stat");
	json_kint(&j, "version", JSON_SCHEMA_VERSION);
	json_kstr(&j, "papi_version", PAPI_TOOL_VERSION);
	json_target(&j, s);
	st_rank_json(&j, &s->rank, s->ranked);
	json_times(&j, s);
	json_key(&j, "events");
	json_arr_begin(&j);
	for (int i = 0; i < s->nev; i++)
		json_event(&j, s, &s->ev[i]);
	json_arr_end(&j);
	json_key(&j, "metrics");
	json_arr_begin(&j);
	for (int k = 0; k < nm; k++) {
		json_obj_begin(&j);
		json_kstr(&j, "name", m[k].def->name);
		json_kstr(&j, "group", m[k].grp->g->name);
		json_kstr(&j, "unit", m[k].def->unit);
		json_kstr(&j, "description", m[k].def->desc);
		json_kstr(&j, "formula", m[k].def->formula);
		json_kint(&j, "runs", m[k].t.n);
		if (m[k].t.n) {
			json_num(&j, "value", m[k].t.mean);
			json_stats(&j, &m[k].t);
		} else {
			json_key(&j, "value");
			json_put_null(&j);
			json_kstr(&j, "needs", m[k].missing >= 0 ? s->ev[m[k].missing].name : NULL);
		}
		json_obj_end(&j);
	}
	json_arr_end(&j);
	if (s->nrows)
		st_rows_json(s, &j);
	if (s->o.interval_ms)
		json_intervals(&j, s);
	json_obj_end(&j);
	json_end(&j);
}

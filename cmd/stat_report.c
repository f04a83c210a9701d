/* stat_report.c: papi stat's reports: human, CSV and JSON, intervals, statistics and derived metrics. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "stat.h"

#define JSON_SCHEMA_VERSION 1

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
	o->mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (v[i] - o->mean) * (v[i] - o->mean);
	o->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;	/* sample standard deviation */
	o->min = sorted[0];
	o->max = sorted[n - 1];
	o->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

static void ev_stats(const struct st *s, const struct st_event *e, struct st_stats *o)
{
	double v[s->nruns > 0 ? s->nruns : 1];
	for (int r = 0; r < s->nruns; r++)
		v[r] = (double)e->val[r];
	st_stats(v, s->nruns, o);
}

enum { T_ELAPSED, T_USER, T_SYS };
static const char *const time_names[] = { "elapsed", "user", "sys" };

/* 0 when the time is unknown (attach mode has no user/sys). */
static int time_stats(const struct st *s, int which, struct st_stats *o)
{
	double v[s->nruns > 0 ? s->nruns : 1];
	for (int r = 0; r < s->nruns; r++) {
		const struct st_run *u = &s->runs[r];
		v[r] = which == T_ELAPSED ? u->elapsed : which == T_USER ? u->user : u->sys;
		if (v[r] < 0)
			return 0;
	}
	st_stats(v, s->nruns, o);
	return s->nruns > 0;
}

/* Percentage of the enabled time the event was really counting. */
static double running_pct(const struct st_event *e)
{
	return e->en ? 100.0 * (double)e->run / (double)e->en : 0;
}

/* ------------------------------------------------------------------ derived metrics */
struct metric {
	const char *key;	/* JSON/CSV name */
	const char *label;	/* human text after the value */
	const char *unit;
	int role;		/* shown on the line of the event with this role */
	double value;
};

static const struct st_event *by_role(const struct st *s, int role)
{
	for (int i = 0; i < s->nev; i++)
		if (s->ev[i].avail && s->ev[i].role == role && s->ev[i].run > 0)
			return &s->ev[i];
	return NULL;
}

static double ev_mean(const struct st *s, const struct st_event *e)
{
	struct st_stats t;
	ev_stats(s, e, &t);
	return t.mean;
}

/* The metrics whose inputs were counted; returns how many (at most 8). */
static int metrics(const struct st *s, struct metric *m)
{
	int n = 0;
	struct st_stats el;
	const struct st_event *clk = by_role(s, ROLE_TASK_CLOCK);
	const struct st_event *cyc = by_role(s, ROLE_CYC), *ins = by_role(s, ROLE_INS);
	const struct st_event *bri = by_role(s, ROLE_BR_INS), *brm = by_role(s, ROLE_BR_MSP);
	const struct st_event *pf = by_role(s, ROLE_PF), *cs = by_role(s, ROLE_CS);
	if (!clk)
		clk = by_role(s, ROLE_CPU_CLOCK);
	time_stats(s, T_ELAPSED, &el);
	double secs = clk ? ev_mean(s, clk) / 1e9 : 0;
	if (clk && el.mean > 0)
		m[n++] = (struct metric){ "cpu_utilization", "CPUs utilized", "CPUs", clk->role,
					  secs / el.mean };
	if (cs && secs > 0)
		m[n++] = (struct metric){ "context_switch_rate", "/s of CPU time", "1/s", ROLE_CS,
					  ev_mean(s, cs) / secs };
	if (pf && secs > 0)
		m[n++] = (struct metric){ "page_fault_rate", "/s of CPU time", "1/s", ROLE_PF,
					  ev_mean(s, pf) / secs };
	if (cyc && secs > 0)
		m[n++] = (struct metric){ "clock_rate", "GHz", "GHz", ROLE_CYC,
					  ev_mean(s, cyc) / secs / 1e9 };
	if (cyc && ins && ev_mean(s, cyc) > 0)
		m[n++] = (struct metric){ "ipc", "instructions per cycle", "", ROLE_INS,
					  ev_mean(s, ins) / ev_mean(s, cyc) };
	if (bri && brm && ev_mean(s, bri) > 0)
		m[n++] = (struct metric){ "branch_miss_ratio", "of all branches", "%", ROLE_BR_MSP,
					  100.0 * ev_mean(s, brm) / ev_mean(s, bri) };
	return n;
}

/* ------------------------------------------------------------------ human */
static void human_value(FILE *f, const struct st_event *e, double v)
{
	if (e->is_time)
		fprintf(f, "%16.3f %-4s", v / 1e6, "ms");
	else if (v == floor(v))
		fprintf(f, "%16.0f %-4s", v, "");
	else
		fprintf(f, "%16.2f %-4s", v, "");
}

/* "  # 0.262 CPUs utilized" after the event name, aligned. */
static void human_metric(FILE *f, const char *name, const struct metric *m)
{
	double v = m->value;
	const char *k = "";
	if (!strcmp(m->unit, "1/s") && v >= 1e6) {
		v /= 1e6;
		k = "M";
	} else if (!strcmp(m->unit, "1/s") && v >= 1e3) {
		v /= 1e3;
		k = "K";
	}
	int pad = 24 - (int)strlen(name);
	fprintf(f, "%*s  # %.3f %s%s%s", pad > 0 ? pad : 0, "", v, k,
		!strcmp(m->unit, "%") ? "% " : "", m->label);
}

/* "process 7", "processes 7 and 8", "threads 7, 8 and 9". */
static void human_ids(FILE *f, const char *one, const char *many, const pid_t *id, int n)
{
	fprintf(f, " %s", n == 1 ? one : many);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%d", i == 0 ? " " : i == n - 1 ? " and " : ", ", (int)id[i]);
}

static void human_status(FILE *f, const struct st *s)
{
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
	fprintf(f, " Counts of '");
	for (int i = 0; i < s->o.ncmd; i++)
		fprintf(f, "%s%s", i ? " " : "", s->o.cmd[i]);
	int st = s->nruns > 0 ? s->runs[s->nruns - 1].status : 0;
	if (s->o.repeat > 1)
		fprintf(f, "' (%d of %d runs", s->nruns, s->o.repeat);
	else
		fputs("' (", f);
	if (WIFSIGNALED(st))
		fprintf(f, "%skilled by signal %d, %s", s->o.repeat > 1 ? ", last " : "",
			WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		fprintf(f, "%sexit status %d", s->o.repeat > 1 ? ", last " : "",
			WEXITSTATUS(st));
	int sent = s->nruns > 0 ? s->runs[s->nruns - 1].timeout : 0;
	if (sent)
		fprintf(f, "; --timeout sent SIGTERM after %ld ms", s->o.timeout_ms);
	if (sent > 1)
		fprintf(f, ", then SIGKILL after %ld ms more", s->o.kill_after_ms);
	fputs("):\n\n", f);
}

static void human(const struct st *s, FILE *f)
{
	struct metric m[8];
	int nm = metrics(s, m), multi = s->nruns > 1;
	fputc('\n', f);
	human_status(f, s);
	if (multi)
		fprintf(f, "%16s %-4s %14s %14s %14s %14s  %s\n", "mean", "", "stddev", "min", "median",
			"max", "event");
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail) {
			fprintf(f, "%21s %s\n", "<not supported>", e->name);
			continue;
		}
		struct st_stats t;
		ev_stats(s, e, &t);
		if (e->run == 0 && e->en > 0) {
			fprintf(f, "%21s %s\n", "<not counted>", e->name);
			continue;
		}
		human_value(f, e, t.mean);
		if (multi) {
			double k = e->is_time ? 1e6 : 1;
			fprintf(f, "%14.*f %14.*f %14.*f %14.*f", e->is_time ? 3 : 1, t.stddev / k,
				e->is_time ? 3 : 0, t.min / k, e->is_time ? 3 : 1, t.median / k,
				e->is_time ? 3 : 0, t.max / k);
		}
		fprintf(f, " %s", e->name);
		for (int k = 0; k < nm; k++)
			if (m[k].role == e->role)
				human_metric(f, e->name, &m[k]);
		double pct = running_pct(e);
		if (e->en && pct < 99.995)
			fprintf(f, "  (counted %.2f%% of the time, scaled)", pct);
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
	fputc('\n', f);
	for (int w = T_ELAPSED; w <= T_SYS; w++) {
		struct st_stats t;
		if (!time_stats(s, w, &t))
			continue;
		fprintf(f, "%16.6f s    %s", t.mean, time_names[w]);
		if (multi)
			fprintf(f, "%*s stddev %.6f  min %.6f  median %.6f  max %.6f", 8 - (int)strlen(time_names[w]), "", t.stddev, t.min,
				t.median, t.max);
		fputc('\n', f);
	}
	if (s->multiplexed)
		fputs("\n Counters were multiplexed: counts are scaled from the time each ran.\n", f);
	fputc('\n', f);
}

/* ------------------------------------------------------------------ CSV
 * Fixed columns, the same in every mode; totals have an empty time. */
static const char *const csv_cols[] = {
	"time", "kind", "name", "value", "unit", "runs", "stddev", "min", "median", "max",
	"time_enabled", "time_running", "running_pct", "note",
};
#define NCOLS (sizeof csv_cols / sizeof *csv_cols)

static void csv_header(struct csv *c)
{
	for (size_t i = 0; i < NCOLS; i++)
		csv_field(c, csv_cols[i]);
	csv_row_end(c);
}

static void csv_stat_row(struct csv *c, const char *kind, const char *name, const char *unit,
			 int runs, const struct st_stats *t)
{
	csv_field(c, NULL);
	csv_field(c, kind);
	csv_field(c, name);
	csv_double(c, t->mean);
	csv_field(c, unit);
	csv_int(c, runs);
	csv_double(c, t->stddev);
	csv_double(c, t->min);
	csv_double(c, t->median);
	csv_double(c, t->max);
}

static void csv_report(const struct st *s, FILE *f)
{
	struct csv c;
	struct metric m[8];
	int nm = metrics(s, m);
	csv_init(&c, f, s->o.sep);
	if (s->ivrows == 0)
		csv_header(&c);
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		struct st_stats t = { 0 };
		if (e->avail)
			ev_stats(s, e, &t);
		if (!e->avail) {
			csv_field(&c, NULL);
			csv_field(&c, "event");
			csv_field(&c, e->name);
			for (size_t k = 3; k < NCOLS - 1; k++)
				csv_field(&c, NULL);
			csv_field(&c, e->reason ? e->reason : "not supported");
			csv_row_end(&c);
			continue;
		}
		csv_stat_row(&c, "event", e->name, e->is_time ? "ns" : "count", s->nruns, &t);
		csv_int(&c, (long long)e->en);
		csv_int(&c, (long long)e->run);
		csv_double(&c, running_pct(e));
		csv_field(&c, e->run == 0 && e->en > 0 ? "not counted" : NULL);
		csv_row_end(&c);
	}
	for (int k = 0; k < nm; k++) {
		struct st_stats t = { .mean = m[k].value, .min = m[k].value, .median = m[k].value,
				      .max = m[k].value };
		csv_stat_row(&c, "metric", m[k].key, m[k].unit, s->nruns, &t);
		for (int j = 0; j < 4; j++)
			csv_field(&c, NULL);
		csv_row_end(&c);
	}
	for (int w = T_ELAPSED; w <= T_SYS; w++) {
		struct st_stats t;
		if (!time_stats(s, w, &t))
			continue;
		csv_stat_row(&c, "time", time_names[w], "s", s->nruns, &t);
		for (int j = 0; j < 4; j++)
			csv_field(&c, NULL);
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
		for (size_t i = 5; i < NCOLS - 1; i++)
			csv_field(&c, NULL);
		csv_field(&c, "sent by --timeout");
		csv_row_end(&c);
	}
}

/* ------------------------------------------------------------------ JSON */
static void json_stats(struct json *j, const struct st_stats *t)
{
	json_kdouble(j, "mean", t->mean);
	json_kdouble(j, "stddev", t->stddev);
	json_kdouble(j, "min", t->min);
	json_kdouble(j, "median", t->median);
	json_kdouble(j, "max", t->max);
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
	json_kint(j, "runs", s->nruns);
	int st = s->nruns > 0 ? s->runs[s->nruns - 1].status : -1;
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
	json_kbool(j, "multiplexed", s->multiplexed);
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
	json_kbool(j, "available", e->avail);
	if (!e->avail) {
		json_kstr(j, "reason", e->reason);
		json_obj_end(j);
		return;
	}
	struct st_stats t;
	ev_stats(s, e, &t);
	json_kstr(j, "unit", e->is_time ? "ns" : "count");
	if (s->nruns == 1)
		json_kint(j, "value", e->val[0]);
	else
		json_kdouble(j, "value", t.mean);
	json_kint(j, "time_enabled", (long long)e->en);
	json_kint(j, "time_running", (long long)e->run);
	json_kdouble(j, "scale", e->run ? (double)e->en / (double)e->run : 0);
	json_kdouble(j, "running_pct", running_pct(e));
	json_stats(j, &t);
	json_key(j, "values");
	json_arr_begin(j);
	for (int r = 0; r < s->nruns; r++)
		json_int(j, e->val[r]);
	json_arr_end(j);
	json_obj_end(j);
}

static void json_report(const struct st *s, FILE *f)
{
	struct json j;
	struct metric m[8];
	int nm = metrics(s, m);
	json_init(&j, f, 1);
	json_obj_begin(&j);
	json_kstr(&j, "format", "papi-stat");
	json_kint(&j, "version", JSON_SCHEMA_VERSION);
	json_kstr(&j, "papi_version", PAPI_TOOL_VERSION);
	json_target(&j, s);
	st_rank_json(&j, &s->rank, s->ranked);
	for (int w = T_ELAPSED; w <= T_SYS; w++) {
		struct st_stats t;
		json_key(&j, time_names[w]);
		if (!time_stats(s, w, &t)) {
			json_put_null(&j);
			continue;
		}
		json_obj_begin(&j);
		json_kstr(&j, "unit", "s");
		json_stats(&j, &t);
		json_key(&j, "values");
		json_arr_begin(&j);
		for (int r = 0; r < s->nruns; r++)
			json_double(&j, w == T_ELAPSED ? s->runs[r].elapsed
					: w == T_USER ? s->runs[r].user : s->runs[r].sys);
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_key(&j, "events");
	json_arr_begin(&j);
	for (int i = 0; i < s->nev; i++)
		json_event(&j, s, &s->ev[i]);
	json_arr_end(&j);
	json_key(&j, "metrics");
	json_arr_begin(&j);
	for (int k = 0; k < nm; k++) {
		json_obj_begin(&j);
		json_kstr(&j, "name", m[k].key);
		json_kdouble(&j, "value", m[k].value);
		json_kstr(&j, "unit", m[k].unit);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	if (s->o.interval_ms) {
		json_kint(&j, "interval_ms", s->o.interval_ms);
		json_key(&j, "intervals");
		json_arr_begin(&j);
		for (int k = 0; k < s->niv; k++) {
			json_obj_begin(&j);
			json_kdouble(&j, "time", (double)s->iv[k].t_ns / 1e9);
			json_key(&j, "values");
			json_arr_begin(&j);
			for (int i = 0; i < s->nev; i++)
				if (s->ev[i].avail)
					json_int(&j, s->iv[k].val[i]);
				else
					json_put_null(&j);
			json_arr_end(&j);
			json_obj_end(&j);
		}
		json_arr_end(&j);
	}
	json_obj_end(&j);
	json_end(&j);
}

void st_report(struct st *s)
{
	if (s->o.json)
		json_report(s, s->out);
	else if (s->o.sep)
		csv_report(s, s->out);
	else
		human(s, s->out);
}

/* ------------------------------------------------------------------ intervals */
void st_interval(struct st *s, int64_t t_ns, const long long *total)
{
	double t = (double)t_ns / 1e9;
	if (!s->ivprev && !(s->ivprev = calloc((size_t)s->nev, sizeof *s->ivprev)))
		return;
	long long *d = malloc((size_t)s->nev * sizeof *d);
	if (!d)
		return;
	for (int i = 0; i < s->nev; i++) {
		d[i] = total[i] - s->ivprev[i];
		s->ivprev[i] = total[i];
	}
	if (s->o.json) {	/* kept for the one document at the end */
		struct st_interval *n = realloc(s->iv, (size_t)(s->niv + 1) * sizeof *n);
		if (!n) {
			free(d);
			return;
		}
		s->iv = n;
		s->iv[s->niv++] = (struct st_interval){ .t_ns = t_ns, .val = d };
		return;
	}
	FILE *f = s->out;
	if (s->o.sep) {
		struct csv c;
		csv_init(&c, f, s->o.sep);
		if (s->ivrows++ == 0)
			csv_header(&c);
		for (int i = 0; i < s->nev; i++) {
			const struct st_event *e = &s->ev[i];
			if (!e->avail)
				continue;
			csv_double(&c, t);
			csv_field(&c, "interval");
			csv_field(&c, e->name);
			csv_int(&c, d[i]);
			csv_field(&c, e->is_time ? "ns" : "count");
			for (size_t k = 5; k < NCOLS; k++)
				csv_field(&c, NULL);
			csv_row_end(&c);
		}
	} else {
		if (s->ivrows++ == 0)
			fprintf(f, "%12s %21s  %s\n", "time (s)", "count", "event");
		for (int i = 0; i < s->nev; i++) {
			const struct st_event *e = &s->ev[i];
			if (!e->avail)
				continue;
			fprintf(f, "%12.3f ", t);
			human_value(f, e, (double)d[i]);
			fprintf(f, " %s\n", e->name);
		}
	}
	fflush(f);
	free(d);
}

/* json.c: papi stat's JSON report (--json): one document with the target, times, events, metrics, rows and intervals, and a rank's file when it could not count. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "tool.h"
#include "report.h"

#define JSON_SCHEMA_VERSION 1

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
	json_kint(j, "repeat", s->o.repeat);	/* -r: runs asked for */
	/* papi stat's exit status and the run it comes from (the last that
	 * failed), then every run's */
	int d = s->o.cmd ? s->status_run : -1;
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
	/* --per-thread with a command: its tasks' ptrace stops, and the note */
	json_key(j, "ptrace_stops");
	if (s->traced) {
		json_obj_begin(j);
		json_kint(j, "start", s->trace_stops[0]);
		json_kint(j, "exit", s->trace_stops[1]);
		json_kint(j, "signal", s->trace_stops[2]);
		json_obj_end(j);
	} else {
		json_put_null(j);
	}
	char trace[320];
	json_kstr(j, "ptrace_note", st_trace_note(s, trace, sizeof trace) ? trace : NULL);
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
	if (e->cg >= 0)
		json_kstr(j, "cgroup", s->o.cgroups[e->cg]);	/* -G: counted in it only */
	if (e->brace)
		json_kint(j, "group", e->brace);
	if (e->brace && e->avail && s->brace_how[e->brace])
		json_kstr(j, "group_note", s->brace_how[e->brace]);
	json_kbool(j, "available", e->avail);
	if (!e->avail) {
		json_kstr(j, "reason", e->reason);
		json_obj_end(j);
		return;
	}
	const char *nc = e->nc;
	json_kstr(j, "unit", e->is_time ? "ns" : "count");
	if (e->role != ROLE_OTHER)	/* what it measures, in perf's words */
		json_kstr(j, "role", st_role_names[e->role]);
	if (e->label)	/* the text report's name, with :u when it counts user space only */
		json_kstr(j, "label", e->label);
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
	if (s->nruns == 1)
		json_kint(j, "value", e->val[0]);
	else
		json_num(j, "value", e->t.mean);
	json_kint(j, "time_enabled", st_per_run(s, e->en));
	json_kint(j, "time_running", st_per_run(s, e->run));
	json_num(j, "scale", e->run ? (double)e->en / (double)e->run : 0);
	json_num(j, "running_pct", st_running_pct(e));
	/* below CLI_LOW_SHARE: the value is an extrapolation of what was counted */
	json_kbool(j, "low_share", st_low_share(e));
	if (st_low_share(e))
		json_num(j, "unscaled", st_counted(e));
	json_stats(j, &e->t);
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
		json_key(j, st_time_names[w]);
		if (!s->has_time[w]) {
			json_put_null(j);
			continue;
		}
		json_obj_begin(j);
		json_kstr(j, "unit", "s");
		json_stats(j, &s->times[w]);
		json_key(j, "values");
		json_arr_begin(j);
		for (int r = 0; r < s->nruns; r++)
			json_double(j, st_tidy(st_run_time(&s->runs[r], w)));
		json_arr_end(j);
		json_obj_end(j);
	}
}

/* An interval's "rows". */
static void rows_json_interval(const struct st *s, struct json *j, int k)
{
	const long long *d = s->iv[k].rows;
	if (!d)
		return;
	json_key(j, "rows");
	json_obj_begin(j);
	for (int w = 0; w < s->nrows; w++) {
		json_key(j, s->rows[w].label);
		json_arr_begin(j);
		for (int i = 0; i < s->nev; i++)	/* --per-cputype: a split event's parts only */
			if (s->ev[i].avail && (s->o.aggr != AGGR_CPUTYPE || st_split(s, &s->ev[i])))
				json_int(j, d[w * s->nev + i]);
			else
				json_put_null(j);
		json_arr_end(j);
	}
	json_obj_end(j);
}

/* "interval_metrics": each metric the intervals show, once, with its group
 * and unit (the intervals give only its name and value). */
static void json_interval_defs(struct json *j, const struct st *s)
{
	json_key(j, "interval_metrics");
	json_arr_begin(j);
	for (int k = 0; k < s->niv; k++)
		for (int i = 0; i < s->iv[k].nmet; i++) {
			const struct st_ivmetric *m = &s->iv[k].met[i];
			int seen = 0;
			for (int k2 = 0; k2 <= k && !seen; k2++)
				for (int i2 = 0; i2 < (k2 < k ? s->iv[k2].nmet : i) && !seen; i2++)
					seen = !strcmp(s->iv[k2].met[i2].def->name, m->def->name);
			if (seen)
				continue;
			json_obj_begin(j);
			json_kstr(j, "name", m->def->name);
			json_kstr(j, "group", m->grp->g->name);
			json_kstr(j, "unit", m->def->unit);
			json_obj_end(j);
		}
	json_arr_end(j);
}

static void json_intervals(struct json *j, const struct st *s)
{
	json_kint(j, "interval_ms", s->o.interval_ms);
	json_interval_defs(j, s);
	json_key(j, "intervals");
	json_arr_begin(j);
	for (int k = 0; k < s->niv; k++) {
		json_obj_begin(j);
		json_num(j, "time", (double)s->iv[k].t_ns / 1e9);
		json_key(j, "metrics");
		json_obj_begin(j);
		for (int i = 0; i < s->iv[k].nmet; i++)
			json_num(j, s->iv[k].met[i].def->name, s->iv[k].met[i].value);
		json_obj_end(j);
		rows_json_interval(s, j, k);
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

/* "per" and "rows". */
static void rows_json(const struct st *s, struct json *j)
{
	const struct st_metric *m = s->met;
	int nm = s->nmet;
	json_kstr(j, "per", st_aggr_name(s->o.aggr));
	json_key(j, "rows");
	json_arr_begin(j);
	for (int w = 0; w < s->nrows; w++) {
		const struct st_row *row = &s->rows[w];
		json_obj_begin(j);
		json_kstr(j, "target", row->label);
		json_key(j, "cpus");
		json_arr_begin(j);
		for (int t = 0; t < s->ntargets; t++)	/* --per-cputype: every target */
			if ((!s->tg_row || s->tg_row[t] == w) && s->tg[t].cpu >= 0)
				json_int(j, s->tg[t].cpu);
		json_arr_end(j);
		json_key(j, "tids");
		json_arr_begin(j);
		for (int t = 0; t < s->ntargets; t++)
			if ((!s->tg_row || s->tg_row[t] == w) && s->tg[t].cpu < 0)
				json_int(j, s->tg[t].tid);
		json_arr_end(j);
		json_key(j, "events");
		json_arr_begin(j);
		for (int i = 0; i < s->nev; i++) {
			if (!st_by_row(s, &s->ev[i]))
				continue;
			const struct st_stats t = row->t[i];
			json_obj_begin(j);
			json_kstr(j, "name", s->ev[i].name);
			json_kdouble(j, "value", st_tidy(t.mean));
			json_key(j, "values");
			json_arr_begin(j);
			for (int r = 0; r < s->nruns; r++)
				json_int(j, row->val[i * s->o.repeat + r]);
			json_arr_end(j);
			json_kint(j, "time_enabled", s->nruns ? (long long)(row->en[i] / (uint64_t)s->nruns) : 0);
			json_kint(j, "time_running", s->nruns ? (long long)(row->run[i] / (uint64_t)s->nruns) : 0);
			json_num(j, "running_pct", row->en[i] ? 100.0 * (double)row->run[i] / (double)row->en[i] : 0);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_key(j, "metrics");
		json_obj_begin(j);
		for (int k = 0; k < nm; k++) {
			const struct st_stats mt = row->mt[k];
			if (mt.n)
				json_kdouble(j, m[k].def->name, st_tidy(mt.mean));
		}
		json_obj_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}


/* "host" and "pid", and with mpi the "mpi" object. */
static void rank_json(struct json *j, const struct st_rank *r, int mpi)
{
	json_kstr(j, "host", r->host);
	json_kint(j, "pid", r->pid);
	if (!mpi)
		return;
	json_key(j, "mpi");
	json_obj_begin(j);
	json_kstr(j, "job", r->job);
	json_kint(j, "rank", r->rank);
	if (r->size > 0)
		json_kint(j, "size", r->size);
	else
		json_kstr(j, "size", NULL);
	if (r->local_rank >= 0)
		json_kint(j, "local_rank", r->local_rank);
	json_kstr(j, "launcher", r->in_job ? r->launcher : NULL);
	json_obj_end(j);
}

void st_json_rank_failed(const struct st *s, int status)
{
	struct json j;
	char why[64];
	json_init(&j, s->out, 1);
	json_obj_begin(&j);
	json_kstr(&j, "format", "papi-stat");
	json_kint(&j, "version", JSON_SCHEMA_VERSION);
	json_kstr(&j, "papi_version", PAPI_TOOL_VERSION);
	json_key(&j, "command");
	json_arr_begin(&j);
	for (int i = 0; i < s->o.ncmd; i++)
		json_str(&j, s->o.cmd[i]);
	json_arr_end(&j);
	rank_json(&j, &s->rank, 1);
	json_kint(&j, "exit_status", status);
	json_kstr(&j, "signal", NULL);
	snprintf(why, sizeof why, "exit status %d before counting", status);
	json_kstr(&j, "error", why);
	json_key(&j, "events");
	json_arr_begin(&j);
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

void st_json_report(const struct st *s, FILE *f)
{
	struct json j;
	const struct st_metric *m = s->met;
	int nm = s->nmet;
	json_init(&j, f, 1);
	json_obj_begin(&j);
	json_kstr(&j, "format", "papi-stat");
	json_kint(&j, "version", JSON_SCHEMA_VERSION);
	json_kstr(&j, "papi_version", PAPI_TOOL_VERSION);
	json_target(&j, s);
	rank_json(&j, &s->rank, s->ranked);
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
		if (!m[k].grp->dflt && m[k].grp->g->desc)
			json_kstr(&j, "group_description", m[k].grp->g->desc);
		/* DEFAULT's, shown beside its events: the event whose line shows it */
		if (m[k].grp->dflt)
			json_kstr(&j, "shown_with", m[k].line >= 0 ? s->ev[m[k].line].name : NULL);
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
			json_kstr(&j, "needs", *m[k].needs ? m[k].needs : NULL);
		}
		json_obj_end(&j);
	}
	json_arr_end(&j);
	if (s->nrows)
		rows_json(s, &j);
	if (s->o.interval_ms)
		json_intervals(&j, s);
	json_obj_end(&j);
	json_end(&j);
}

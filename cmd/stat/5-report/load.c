/* load.c: papi stat --report RUN.json: a saved --json report read back into the computed result (struct st), so that the same writers print it again. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "tool.h"
#include "report.h"

/* The saved report: the strings of the loaded result point into it. One
 * papi stat loads one report. */
static json_t *saved;
static const char *file;

/* What the loader allocated beside the result's own arrays. */
static struct mgroup *groups;		/* the metrics' groups, by name */
static struct mgroup_metric *defs;	/* the metrics' definitions */
static int ngroups, ndefs, maxdefs;
static struct st_ivmetric *ivdefs;	/* the intervals' metrics not among the totals' */
static int nivdefs;

/* Says what is wrong with the file; -1. */
static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad(const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return cli_error("stat", "--report: %s: %s", file, what), -1;
}

static void *alloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

/* o's key: a string, or NULL when it is absent or null (required: then
 * *err is set after a message when it is not a string). */
static const char *str(json_t *o, const char *key, const char *where, int required, int *err)
{
	json_t *v = json_object_get(o, key);
	if (json_is_string(v))
		return json_string_value(v);
	if ((v && !json_is_null(v)) || required)
		*err = bad("%s: \"%s\" is not a string", where, key);
	return NULL;
}

/* o's key: an integer in [lo, hi]; absent or null gives dflt unless
 * required. */
static long long num(json_t *o, const char *key, const char *where, long long lo, long long hi,
		     long long dflt, int required, int *err)
{
	json_t *v = json_object_get(o, key);
	if ((!v || json_is_null(v)) && !required)
		return dflt;
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
		*err = bad("%s: \"%s\" is not an integer from %lld to %lld", where, key, lo, hi);
		return dflt;
	}
	return json_integer_value(v);
}

/* o's key as an array of n elements (n < 0: any), else NULL after a
 * message (absent or null: NULL, and a message only when required). */
static json_t *arr(json_t *o, const char *key, const char *where, long long n, int required, int *err)
{
	json_t *v = json_object_get(o, key);
	if ((!v || json_is_null(v)) && !required)
		return NULL;
	if (!json_is_array(v))
		return *err = bad("%s: \"%s\" is not an array", where, key), NULL;
	if (n >= 0 && (long long)json_array_size(v) != n)
		return *err = bad("%s: \"%s\" has %zu values, not one per run (%lld)", where, key,
				  json_array_size(v), n), NULL;
	return v;
}

/* An array of integers (ids, CPUs) into a new array of *n. */
static int ints(json_t *o, const char *key, int **out, int *n, int *err)
{
	json_t *a = arr(o, key, "the target", -1, 0, err), *v;
	size_t i;
	*n = 0;
	if (!a)
		return 0;
	if (!(*out = alloc(json_array_size(a), sizeof **out)))
		return *err = bad("out of memory");
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < -1 || json_integer_value(v) > 0x3fffffff)
			return *err = bad("\"%s\"[%zu] is not an id", key, i);
		(*out)[(*n)++] = (int)json_integer_value(v);
	}
	return 0;
}

/* The numbers o carries beside those read back (an event's "value" and
 * its statistics, which "values" gives again; a metric's "value"): each
 * a number or null, else a message (the item and the key) and -1. */
static int spare_numbers(json_t *o, const char *where, const char *name, const char *const *keys)
{
	for (; *keys; keys++) {
		json_t *v = json_object_get(o, *keys);
		if (v && !json_is_null(v) && !json_is_number(v))
			return bad("%s (%s): \"%s\" is not a number", where, name, *keys);
	}
	return 0;
}

/* "all", "user,kernel", ... as PAPI_DOM_* bits; -1 when not a domain. */
static int dom_bits(const char *w)
{
	if (!strcmp(w, "all"))
		return PAPI_DOM_USER | PAPI_DOM_KERNEL | PAPI_DOM_SUPERVISOR;
	int d = 0;
	char buf[64];
	snprintf(buf, sizeof buf, "%s", w);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		d |= !strcmp(t, "user") ? PAPI_DOM_USER : !strcmp(t, "kernel") ? PAPI_DOM_KERNEL
		     : !strcmp(t, "supervisor") ? PAPI_DOM_SUPERVISOR : -1;
	return d > 0 ? d : -1;
}

/* ------------------------------------------------------------------ the target and the runs */
static int load_target(struct st *s, json_t *r)
{
	int err = 0;
	json_t *cmd = arr(r, "command", "the target", -1, 0, &err), *v;
	size_t i;
	s->nruns = (int)num(r, "runs", "the report", 0, 100000, 0, 1, &err);
	s->o.repeat = (int)num(r, "repeat", "the report", s->nruns, 100000, s->nruns ? s->nruns : 1, 0, &err);
	if (err)
		return -1;
	if (cmd) {
		if (!(s->o.cmd = alloc(json_array_size(cmd) + 1, sizeof *s->o.cmd)))
			return bad("out of memory");
		json_array_foreach(cmd, i, v) {
			if (!json_is_string(v))
				return bad("\"command\"[%zu] is not a string", i);
			s->o.cmd[s->o.ncmd++] = (char *)json_string_value(v);
		}
	}
	int ncpus = 0;
	if (ints(r, "pids", (int **)&s->o.pids, &s->o.npids, &err) < 0 || ints(r, "tids", (int **)&s->o.tids, &s->o.ntids, &err) < 0 ||
	    ints(r, "cpus", &s->o.cpus, &ncpus, &err) < 0)
		return -1;
	s->o.ncpus = ncpus;
	s->o.system_wide = json_is_array(json_object_get(r, "cpus"));
	s->multiplexed = json_is_true(json_object_get(r, "multiplexed"));
	const char *dom = str(r, "domain", "the report", 0, &err);
	if (dom && (s->dom = dom_bits(dom)) < 0)
		return bad("\"domain\" is not a domain: '%s'", dom);
	s->dom_note = (char *)str(r, "domain_note", "the report", 0, &err);
	json_t *pt = json_object_get(r, "ptrace_stops");
	if (json_is_object(pt)) {
		static const char *const why[3] = { "start", "exit", "signal" };
		s->traced = 1;
		for (int k = 0; k < 3; k++)
			s->trace_stops[k] = (long)num(pt, why[k], "\"ptrace_stops\"", 0, LONG_MAX, 0, 1, &err);
	}
	json_t *to = json_object_get(r, "timeout");
	if (json_is_object(to)) {
		s->o.timeout_ms = (long)num(to, "ms", "\"timeout\"", 1, 0x7fffffff, 0, 1, &err);
		s->o.kill_after_ms = (long)num(to, "kill_after_ms", "\"timeout\"", 0, 0x7fffffff, 0, 0, &err);
	}
	/* the MPI rank: its file's fields said again */
	json_t *mpi = json_object_get(r, "mpi");
	const char *host = str(r, "host", "the report", 0, &err);
	snprintf(s->rank.host, sizeof s->rank.host, "%s", host ? host : "");
	s->rank.pid = (long)num(r, "pid", "the report", 0, 0x7fffffff, 0, 0, &err);
	if (json_is_object(mpi)) {
		const char *job = str(mpi, "job", "\"mpi\"", 0, &err), *l = str(mpi, "launcher", "\"mpi\"", 0, &err);
		s->ranked = 1;
		s->rank.in_job = l != NULL;
		snprintf(s->rank.job, sizeof s->rank.job, "%s", job ? job : "");
		snprintf(s->rank.launcher, sizeof s->rank.launcher, "%s", l ? l : "");
		s->rank.rank = (int)num(mpi, "rank", "\"mpi\"", 0, 0x7fffffff, 0, 1, &err);
		s->rank.size = (int)num(mpi, "size", "\"mpi\"", 0, 0x7fffffff, 0, 0, &err);
		s->rank.local_rank = (int)num(mpi, "local_rank", "\"mpi\"", -1, 0x7fffffff, -1, 0, &err);
	}
	return err;
}

/* Each run's status and times; the run whose status papi stat exited with. */
static int load_runs(struct st *s, json_t *r)
{
	int err = 0, n = s->nruns;
	json_t *codes = arr(r, "exit_statuses", "the report", n, s->o.cmd != NULL, &err);
	json_t *sigs = arr(r, "signals", "the report", n, 0, &err);
	if (err || !(s->runs = alloc((size_t)s->o.repeat, sizeof *s->runs)))
		return err ? err : bad("out of memory");
	for (int k = 0; k < n; k++) {
		json_t *sig = json_array_get(sigs, (size_t)k), *code = json_array_get(codes, (size_t)k);
		struct st_run *run = &s->runs[k];
		run->status = -1;
		if (json_is_integer(sig) && json_integer_value(sig) > 0 && json_integer_value(sig) < 0x7f)
			run->status = (int)json_integer_value(sig);	/* as wait(2) says a signal */
		else if (json_is_integer(code) && json_integer_value(code) >= 0 && json_integer_value(code) < 256)
			run->status = (int)json_integer_value(code) << 8;
		else if (s->o.cmd)
			return bad("run %d has neither an exit status nor a signal", k + 1);
	}
	json_t *sent = json_object_get(json_object_get(r, "timeout"), "sent");
	if (n > 0 && json_is_array(sent))
		s->runs[n - 1].timeout = (int)(json_array_size(sent) > 2 ? 2 : json_array_size(sent));
	for (int w = 0; w < T_COUNT; w++) {
		json_t *t = json_object_get(r, st_time_names[w]);
		json_t *vals = json_is_object(t) ? arr(t, "values", st_time_names[w], n, 1, &err) : NULL;
		double v[n > 0 ? n : 1];
		if (err)
			return -1;
		for (int k = 0; k < n; k++) {
			json_t *x = json_array_get(vals, (size_t)k);
			if (vals && !json_is_number(x))
				return bad("\"%s\": run %d's time is not a number", st_time_names[w], k + 1);
			v[k] = vals ? json_number_value(x) : -1;
			*(w == T_ELAPSED ? &s->runs[k].elapsed : w == T_USER ? &s->runs[k].user : &s->runs[k].sys) = v[k];
		}
		if ((s->has_time[w] = vals && n > 0))
			st_stats(v, n, &s->times[w]);
	}
	s->status_run = st_status_run(s);	/* as compute chooses it */
	s->exit_code = (int)num(r, "exit_status", "the report", 0, 255, 0, 0, &err);
	return err;
}

/* ------------------------------------------------------------------ events */
/* Each element of array a, an object, read by one into its slot k (what
 * "rows"[k] or "intervals"[k], for messages); *n counts the slots begun,
 * for st_load_free. 0, or -1 after a message. */
static int each(struct st *s, json_t *a, const char *what, int *n,
		int (*one)(struct st *s, size_t k, json_t *o, const char *where))
{
	json_t *o;
	size_t k;
	json_array_foreach(a, k, o) {
		char where[48];
		snprintf(where, sizeof where, "%s[%zu]", what, k);
		(*n)++;
		if (!json_is_object(o))
			return bad("%s is not an object", where);
		if (one(s, k, o, where) < 0)
			return -1;
	}
	return 0;
}

/* Statistics of n counts, whole for a time as compute makes them. */
static void count_stats(const long long *val, int n, int is_time, struct st_stats *t)
{
	double v[n > 0 ? n : 1];
	for (int k = 0; k < n; k++)
		v[k] = (double)val[k];
	st_stats(v, n, t);
	if (is_time)
		st_stats_whole(t);
}

/* n counts (one per run) from a, into val. */
static int counts(json_t *a, int n, long long *val, const char *where)
{
	for (int k = 0; k < n; k++) {
		json_t *x = json_array_get(a, (size_t)k);
		if (!json_is_integer(x))
			return bad("%s: run %d's count is not an integer", where, k + 1);
		val[k] = json_integer_value(x);
	}
	return 0;
}

static int load_event(struct st *s, struct st_event *e, json_t *o, const char *where)
{
	int err = 0;
	e->slot = -1;
	e->cg = -1;
	e->name = str(o, "name", where, 1, &err);
	const char *cg = str(o, "cgroup", where, 0, &err);
	if (err)
		return -1;
	if (cg) {	/* -G: the cgroup it counted in, kept as the options keep it */
		char **g = realloc(s->o.cgroups, (size_t)(s->o.ncgroups + 1) * sizeof *g);
		if (!g)
			return bad("out of memory");
		s->o.cgroups = g;
		if (!(g[s->o.ncgroups] = strdup(cg)))
			return bad("out of memory");
		e->cg = s->o.ncgroups++;
	}
	if (!json_is_boolean(json_object_get(o, "available")))
		return bad("%s (%s): \"available\" is not true or false", where, e->name);
	e->avail = json_is_true(json_object_get(o, "available"));
	e->brace = (int)num(o, "group", where, 1, 4096, 0, 0, &err);
	if (e->brace > s->nbraces)
		s->nbraces = e->brace;
	if (!(e->val = alloc((size_t)s->o.repeat, sizeof *e->val)))
		return bad("out of memory");
	if (!e->avail) {
		e->reason = (char *)str(o, "reason", where, 0, &err);
		return err;
	}
	static const char *const spare[] = { "value", "mean", "stddev", "min", "median", "max", "scale",
					     "running_pct", NULL };
	const char *unit = str(o, "unit", where, 1, &err), *dom = str(o, "domain", where, 0, &err);
	if (err || spare_numbers(o, where, e->name, spare) < 0)
		return -1;
	e->is_time = !strcmp(unit, "ns");
	e->label = (char *)str(o, "label", where, 0, &err);
	const char *role = str(o, "role", where, 0, &err);
	for (int r = 0; role && r < ROLE_COUNT; r++)
		if (!strcmp(role, st_role_names[r]))
			e->role = r;
	/* another component's event has no domain of perf_event's */
	if (!dom)
		e->cidx = 1;
	else if ((e->dom_saved = dom_bits(dom)) < 0)
		return bad("%s (%s): \"domain\" is not a domain: '%s'", where, e->name, dom);
	if (!json_is_true(json_object_get(o, "counted")))
		e->nc = str(o, "reason", where, 0, &err);
	if (!e->nc && !json_is_true(json_object_get(o, "counted")))
		e->nc = "it never got a counter";
	if (json_is_null(json_object_get(o, "value")) && e->nc) {
		for (int k = 0; k < s->nruns; k++)	/* --delay outlasted the command */
			s->runs[k].uncounted = 1;
		return err;
	}
	json_t *vals = arr(o, "values", e->name, s->nruns, 1, &err);
	if (err || counts(vals, s->nruns, e->val, e->name) < 0)
		return -1;
	long long en = num(o, "time_enabled", e->name, 0, LLONG_MAX / 100001, 0, 1, &err);
	long long run = num(o, "time_running", e->name, 0, LLONG_MAX / 100001, 0, 1, &err);
	if (err)
		return -1;
	/* the sums over the runs, whose means the file holds */
	e->en = (uint64_t)en * (uint64_t)s->nruns;
	e->run = (uint64_t)run * (uint64_t)s->nruns;
	if (!e->nc && run == 0 && en > 0)	/* as compute says it of a live run */
		e->nc = "it never got a counter";
	count_stats(e->val, s->nruns, e->is_time, &e->t);
	return 0;
}

static int event_at(struct st *s, size_t k, json_t *o, const char *where)
{
	return load_event(s, &s->ev[k], o, where);
}

static int load_events(struct st *s, json_t *a)
{
	json_t *o;
	size_t i;
	if (!(s->ev = alloc(json_array_size(a), sizeof *s->ev)))
		return bad("out of memory");
	if (each(s, a, "events", &s->nev, event_at) < 0)
		return -1;
	if (!(s->brace_how = alloc((size_t)s->nbraces + 1, sizeof *s->brace_how)))
		return bad("out of memory");
	json_array_foreach(a, i, o) {
		json_t *how = json_object_get(o, "group_note");
		if (s->ev[i].brace && json_is_string(how))
			s->brace_how[s->ev[i].brace] = (char *)json_string_value(how);
	}
	return 0;
}

/* ------------------------------------------------------------------ metrics */
/* The group named name (desc: its description; dflt: DEFAULT's metrics
 * shown beside its events, not a -g group), added when new. */
static struct st_group *group_of(struct st *s, const char *name, const char *desc, int dflt)
{
	for (int g = 0; g < s->ngrp; g++)
		if (!strcmp(s->grp[g].g->name, name) && s->grp[g].dflt == dflt)
			return &s->grp[g];
	struct st_group *gr = &s->grp[s->ngrp++];
	struct mgroup *g = &groups[ngroups++];
	g->name = (char *)name;
	g->desc = (char *)desc;
	gr->g = g;
	gr->dflt = dflt;
	return gr;
}

/* A metric's definition as the reports read it: name, unit, description, formula. */
static const struct mgroup_metric *def_new(const char *name, const char *unit, const char *desc,
					   const char *formula)
{
	struct mgroup_metric *d = &defs[ndefs++];
	d->name = (char *)name;
	d->unit = (char *)(unit ? unit : "");
	d->desc = (char *)(desc ? desc : "");
	d->formula = (char *)(formula ? formula : "");
	return d;
}

static int load_metric(struct st *s, struct st_metric *m, json_t *o, const char *where)
{
	int err = 0;
	const char *name = str(o, "name", where, 1, &err), *grp = str(o, "group", where, 1, &err);
	const char *unit = str(o, "unit", where, 0, &err), *desc = str(o, "description", where, 0, &err);
	const char *formula = str(o, "formula", where, 0, &err), *needs = str(o, "needs", where, 0, &err);
	const char *gdesc = str(o, "group_description", where, 0, &err);
	const char *with = str(o, "shown_with", where, 0, &err);
	static const char *const spare[] = { "value", NULL };
	m->t.n = (int)num(o, "runs", where, 0, s->nruns, 0, 1, &err);
	if (err || spare_numbers(o, where, name, spare) < 0)
		return -1;
	m->grp = group_of(s, grp, gdesc, json_object_get(o, "shown_with") != NULL);
	m->def = def_new(name, unit, desc, formula);
	m->line = -1;
	for (int i = 0; with && i < s->nev; i++)
		if (!strcmp(s->ev[i].name, with)) {
			m->line = i;
			break;
		}
	snprintf(m->needs, sizeof m->needs, "%s", needs ? needs : "");
	if (m->t.n == 0)
		return 0;
	static const char *const keys[] = { "mean", "min", "median", "max", "stddev" };
	double *at[] = { &m->t.mean, &m->t.min, &m->t.median, &m->t.max, &m->t.stddev };
	for (int k = 0; k < 5; k++) {
		json_t *x = json_object_get(o, keys[k]);
		if (json_is_number(x))
			*at[k] = json_number_value(x);
		else if (k < 4 || m->t.n > 1)
			return bad("%s (%s): \"%s\" is not a number", where, name, keys[k]);
	}
	return 0;
}

static int metric_at(struct st *s, size_t k, json_t *o, const char *where)
{
	return load_metric(s, &s->met[k], o, where);
}

static int load_metrics(struct st *s, json_t *a, json_t *ivs)
{
	size_t n = json_array_size(a);
	/* a definition for each metric, and for each the intervals alone show */
	size_t niv = json_array_size(ivs);
	maxdefs = (int)(n + niv);
	if (!(s->met = alloc(n, sizeof *s->met)) || !(s->grp = alloc(n + niv, sizeof *s->grp)) ||
	    !(groups = alloc(n + niv, sizeof *groups)) || !(defs = alloc((size_t)maxdefs, sizeof *defs)))
		return bad("out of memory");
	return each(s, a, "metrics", &s->nmet, metric_at);
}

/* The metric named name, or -1. */
static int metric_index(const struct st *s, const char *name)
{
	for (int k = 0; k < s->nmet; k++)
		if (!strcmp(s->met[k].def->name, name))
			return k;
	return -1;
}

static int event_index(const struct st *s, const char *name)
{
	for (int i = 0; i < s->nev; i++)
		if (!strcmp(s->ev[i].name, name))
			return i;
	return -1;
}

/* ------------------------------------------------------------------ --per-* rows */
static int load_row(struct st *s, struct st_row *w, json_t *o, const char *where)
{
	int err = 0, *cpus = NULL, *tids = NULL, nc = 0, nt = 0, ret = -1;
	const char *label = str(o, "target", where, 1, &err);
	json_t *evs = arr(o, "events", where, -1, 1, &err), *e, *met = json_object_get(o, "metrics"), *v;
	size_t i;
	const char *key;
	if (err || ints(o, "cpus", &cpus, &nc, &err) < 0 || ints(o, "tids", &tids, &nt, &err) < 0)
		goto out;
	snprintf(w->label, sizeof w->label, "%s", label);
	w->n = nc ? nc : 1;
	w->val = alloc((size_t)s->nev * (size_t)s->o.repeat, sizeof *w->val);
	w->en = alloc((size_t)s->nev, sizeof *w->en);
	w->run = alloc((size_t)s->nev, sizeof *w->run);
	w->t = alloc((size_t)s->nev, sizeof *w->t);
	w->mt = alloc((size_t)s->nmet, sizeof *w->mt);
	struct st_target *tg = realloc(s->tg, (size_t)(s->ntargets + nc + nt + 1) * sizeof *tg);
	int *tg_row = realloc(s->tg_row, (size_t)(s->ntargets + nc + nt + 1) * sizeof *tg_row);
	if (tg)
		s->tg = tg;
	if (tg_row)
		s->tg_row = tg_row;
	if (!w->val || !w->en || !w->run || !w->t || !w->mt || !tg || !tg_row) {
		bad("out of memory");
		goto out;
	}
	for (int k = 0; k < nc + nt; k++) {
		s->tg[s->ntargets] = (struct st_target){ .tid = k < nc ? -1 : tids[k - nc], .cpu = k < nc ? cpus[k] : -1 };
		s->tg_row[s->ntargets++] = (int)(w - s->rows);
	}
	json_array_foreach(evs, i, e) {
		const char *name = str(e, "name", where, 1, &err);
		int k = name ? event_index(s, name) : -1;
		if (err || k < 0) {
			bad("%s: events[%zu] is not an event of the report", where, i);
			goto out;
		}
		json_t *vals = arr(e, "values", name, s->nruns, 1, &err);
		if (err || counts(vals, s->nruns, w->val + (size_t)k * (size_t)s->o.repeat, name) < 0)
			goto out;
		w->en[k] = (uint64_t)num(e, "time_enabled", name, 0, LLONG_MAX / 100001, 0, 1, &err) * (uint64_t)s->nruns;
		w->run[k] = (uint64_t)num(e, "time_running", name, 0, LLONG_MAX / 100001, 0, 1, &err) * (uint64_t)s->nruns;
		count_stats(w->val + (size_t)k * (size_t)s->o.repeat, s->nruns, s->ev[k].is_time, &w->t[k]);
	}
	json_object_foreach(met, key, v) {
		int k = metric_index(s, key);
		if (k >= 0 && json_is_number(v))
			w->mt[k] = (struct st_stats){ .mean = json_number_value(v), .n = s->nruns };
	}
	ret = err;
out:
	free(cpus);
	free(tids);
	return ret;
}

static int row_at(struct st *s, size_t k, json_t *o, const char *where)
{
	return load_row(s, &s->rows[k], o, where);
}

static int load_rows(struct st *s, json_t *r)
{
	int err = 0;
	const char *per = str(r, "per", "the report", 0, &err);
	json_t *rows = arr(r, "rows", "the report", -1, 0, &err);
	if (err || !per || !rows)
		return err;
	for (int a = AGGR_NONE; a <= AGGR_CPUTYPE; a++)
		if (!strcmp(per, st_aggr_name(a)))
			s->o.aggr = a;
	if (!(s->rows = alloc(json_array_size(rows), sizeof *s->rows)))
		return bad("out of memory");
	return each(s, rows, "rows", &s->nrows, row_at);
}

/* ------------------------------------------------------------------ intervals */
/* n counts, one per event (null for one not available), from a into val. */
static int iv_counts(const struct st *s, json_t *a, long long *val, const char *where)
{
	if (!json_is_array(a) || (int)json_array_size(a) != s->nev)
		return bad("%s: not one value per event (%d)", where, s->nev);
	for (int i = 0; i < s->nev; i++) {
		json_t *x = json_array_get(a, (size_t)i);
		if (!json_is_integer(x) && !(json_is_null(x) && !s->ev[i].avail))
			return bad("%s: %s's count is not an integer", where, s->ev[i].name);
		val[i] = json_integer_value(x);
	}
	return 0;
}

static int load_interval(struct st *s, struct st_interval *iv, json_t *o, const char *where)
{
	json_t *t = json_object_get(o, "time"), *met = json_object_get(o, "metrics"), *rows, *v;
	const char *key;
	if (!json_is_number(t) || json_number_value(t) < 0 || json_number_value(t) > 1e9)
		return bad("%s: \"time\" is not a time in seconds", where);
	/* rounded by hand: papi loads no libm (papi.bats) */
	iv->t_ns = iv->at_ns = (int64_t)(json_number_value(t) * 1e9 + 0.5);
	if (!(iv->val = alloc((size_t)s->nev, sizeof *iv->val)) ||
	    !(iv->met = alloc(json_object_size(met), sizeof *iv->met)))
		return bad("out of memory");
	if (iv_counts(s, json_object_get(o, "values"), iv->val, where) < 0)
		return -1;
	json_object_foreach(met, key, v) {
		int k = metric_index(s, key);
		struct st_ivmetric *m = &iv->met[iv->nmet++];
		m->def = k >= 0 ? s->met[k].def : NULL;
		m->grp = k >= 0 ? s->met[k].grp : NULL;
		for (int d = 0; d < nivdefs && !m->def; d++)
			if (!strcmp(ivdefs[d].def->name, key))
				*m = ivdefs[d];
		if (!m->def)
			return bad("%s: metric %s is neither in \"metrics\" nor in \"interval_metrics\"", where, key);
		if (!json_is_number(v) && !json_is_null(v))
			return bad("%s: metric %s is not a number", where, key);
		m->value = json_is_number(v) ? json_number_value(v) : NAN;
	}
	if (!(rows = json_object_get(o, "rows")) || !s->nrows)
		return 0;
	if (!(iv->rows = alloc((size_t)s->nrows * (size_t)s->nev, sizeof *iv->rows)))
		return bad("out of memory");
	for (int w = 0; w < s->nrows; w++) {
		char at[128];
		snprintf(at, sizeof at, "%s: row %s", where, s->rows[w].label);
		if (iv_counts(s, json_object_get(rows, s->rows[w].label), iv->rows + w * s->nev, at) < 0)
			return -1;
	}
	return 0;
}

static int interval_at(struct st *s, size_t k, json_t *o, const char *where)
{
	return load_interval(s, &s->iv[k], o, where);
}

static int load_intervals(struct st *s, json_t *r)
{
	int err = 0;
	json_t *ivs = arr(r, "intervals", "the report", -1, 0, &err), *o;
	json_t *defs_of = arr(r, "interval_metrics", "the report", -1, 0, &err);
	size_t i;
	s->o.interval_ms = (long)num(r, "interval_ms", "the report", 0, 86400000, 0, 0, &err);
	if (err || !ivs)
		return err;
	/* the metrics the intervals show that the totals do not */
	if (!(ivdefs = alloc(json_array_size(defs_of), sizeof *ivdefs)))
		return bad("out of memory");
	json_array_foreach(defs_of, i, o) {
		const char *name = str(o, "name", "interval_metrics", 1, &err);
		const char *grp = str(o, "group", "interval_metrics", 1, &err);
		const char *unit = str(o, "unit", "interval_metrics", 0, &err);
		if (err)
			return -1;
		if (metric_index(s, name) >= 0 || ndefs >= maxdefs)
			continue;
		ivdefs[nivdefs++] = (struct st_ivmetric){ group_of(s, grp, NULL, 0), def_new(name, unit, NULL, NULL), NAN };
	}
	if (!(s->iv = alloc(json_array_size(ivs), sizeof *s->iv)))
		return bad("out of memory");
	return each(s, ivs, "intervals", &s->niv, interval_at);
}

/* ------------------------------------------------------------------ entry */
/* st_report_read: see report.h. */
void *st_report_read(const char *opt, const char *path)
{
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return cli_error("stat", "%s: %s: a directory, not a report (papi stat --json writes one)",
				 opt, path), NULL;
	FILE *f = fopen(path, "r");
	if (!f)
		return cli_error("stat", "%s: %s", path, strerror(errno)), NULL;
	json_error_t jerr;
	json_t *root = json_loadf(f, 0, &jerr);
	int rerr = ferror(f) ? errno : 0;
	fclose(f);
	if (!root && rerr)
		return cli_error("stat", "%s: %s", path, strerror(rerr)), NULL;
	if (!root)
		return cli_error("stat", "%s: %s:%d: not JSON: %s", opt, path, jerr.line, jerr.text), NULL;
	return root;
}

int st_load(struct st *s, const char *path)
{
	file = path;
	if (!(saved = st_report_read("--report", path)))
		return -1;
	const char *fmt = json_string_value(json_object_get(saved, "format"));
	if (!json_is_object(saved) || !fmt)
		return bad("not a report of papi stat (written with --json)");
	if (!strcmp(fmt, "papi-stat-merge") || !strcmp(fmt, "papi-stat-diff"))
		return bad("a report of papi stat --%s, not of a run: only a run's --json is printed again",
			   fmt + 10);
	if (strcmp(fmt, "papi-stat"))
		return bad("not a report of papi stat (written with --json), but \"%s\"", fmt);
	json_t *ver = json_object_get(saved, "version");
	if (!json_is_integer(ver) || json_integer_value(ver) != 1)
		return bad("not version 1 of the report (\"version\": %lld), which this papi stat (%s) reads",
			   json_is_integer(ver) ? (long long)json_integer_value(ver) : -1LL, PAPI_TOOL_VERSION);
	const char *failed = json_string_value(json_object_get(saved, "error"));
	if (failed)
		return bad("the run counted nothing: %s", failed);
	json_t *evs = json_object_get(saved, "events"), *mets = json_object_get(saved, "metrics");
	if (!json_is_array(evs))
		return bad("\"events\" is not an array");
	if (mets && !json_is_array(mets))
		return bad("\"metrics\" is not an array");
	if (load_target(s, saved) < 0 || load_runs(s, saved) < 0 || load_events(s, evs) < 0 ||
	    load_metrics(s, mets, json_object_get(saved, "interval_metrics")) < 0 || load_rows(s, saved) < 0 ||
	    load_intervals(s, saved) < 0)
		return -1;
	return 0;
}

void st_load_free(struct st *s)
{
	for (int i = 0; s->ev && i < s->nev; i++)
		free(s->ev[i].val);
	for (int w = 0; s->rows && w < s->nrows; w++) {
		struct st_row *row = &s->rows[w];
		free(row->val), free(row->en), free(row->run), free(row->t), free(row->mt);
	}
	for (int k = 0; s->iv && k < s->niv; k++)
		free(s->iv[k].val), free(s->iv[k].rows), free(s->iv[k].met);
	free(s->ev), free(s->met), free(s->grp), free(s->brace_how), free(s->runs), free(s->rows);
	free(s->iv), free(s->tg), free(s->tg_row), free(s->o.cmd), free(s->o.pids), free(s->o.tids);
	free(s->o.cpus), free(groups), free(defs), free(ivdefs);
	/* what the stages' own frees would find: nothing */
	s->ev = NULL, s->met = NULL, s->grp = NULL, s->brace_how = NULL, s->runs = NULL, s->rows = NULL;
	s->iv = NULL, s->tg = NULL, s->tg_row = NULL, s->o.cmd = NULL, s->o.pids = NULL, s->o.tids = NULL;
	s->o.cpus = NULL, s->dom_note = NULL;
	s->nev = s->nmet = s->ngrp = s->nbraces = s->nrows = s->niv = s->ntargets = s->nruns = 0;
	s->o.npids = s->o.ntids = s->o.ncpus = s->o.ncmd = 0;
	groups = NULL, defs = NULL, ivdefs = NULL, ngroups = ndefs = maxdefs = nivdefs = 0;
	json_decref(saved);
	saved = NULL;
}

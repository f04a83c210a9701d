/* merge.c: papi stat --merge: one report of an MPI job from its per-rank files (sum, min, median, max per event and metric, per host and for the job). */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plot.h"
#include "report.h"

/* One rank's file. */
struct mg_rank {
	char *file, *job, *host, *launcher;
	int rank, size;		/* size 0: unknown */
	int exit_status;	/* -1 when none was recorded */
	int signal;		/* 0 when not killed */
	char *error;		/* papi stat itself failed on that rank */
	double *v;		/* [nitems] value, NAN when absent or not counted */
};

/* One event or metric, in the order first seen. */
struct mg_item {
	char *name, *unit;
	int metric;
};

struct mg {
	struct mg_rank *r;
	int nr, cap_r;
	struct mg_item *it;
	int nit, cap_it;
	int njob;		/* r[0..njob-1]: the job reported, by rank */
	int size;		/* the job's size as its files say, 0 unknown */
};

static void *grow(void *p, int *cap, int need, size_t sz)
{
	if (need <= *cap)
		return p;
	int n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(p, (size_t)n * sz);
	if (q)
		*cap = n;
	return q;
}

static char *dup_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? strdup(s) : NULL;
}

static int item_index(struct mg *m, const char *name, const char *unit, int metric)
{
	for (int i = 0; i < m->nit; i++)
		if (m->it[i].metric == metric && !strcmp(m->it[i].name, name))
			return i;
	struct mg_item *it = grow(m->it, &m->cap_it, m->nit + 1, sizeof *it);
	if (!it)
		return -1;
	m->it = it;
	it[m->nit] = (struct mg_item){ strdup(name), strdup(unit ? unit : ""), metric };
	/* Every rank gets a slot for the new item. */
	for (int k = 0; k < m->nr; k++) {
		double *v = realloc(m->r[k].v, (size_t)(m->nit + 1) * sizeof *v);
		if (!v)
			return -1;
		v[m->nit] = NAN;
		m->r[k].v = v;
	}
	return m->nit++;
}

/* The number an event or metric entry carries: "value", else "mean". */
static double entry_value(json_t *e)
{
	json_t *v = json_object_get(e, "value");
	if (!json_is_number(v))
		v = json_object_get(e, "mean");
	if (!json_is_number(v) || json_is_false(json_object_get(e, "available")))
		return NAN;
	return json_number_value(v);
}

static int load_items(struct mg *m, struct mg_rank *r, json_t *arr, int metric)
{
	size_t i;
	json_t *e;
	json_array_foreach(arr, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		if (!name)
			continue;
		int k = item_index(m, name, json_string_value(json_object_get(e, "unit")), metric);
		if (k < 0)
			return -1;
		r->v[k] = entry_value(e);
	}
	return 0;
}

/* Read one rank file. 0, or -1 after saying why. */
static int load_file(struct mg *m, const char *path)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	if (!root)
		return cli_error("stat", "--merge: %s:%d: %s", path, jerr.line, jerr.text), -1;
	int ret = -1;
	json_t *mpi = json_object_get(root, "mpi");
	const char *fmt = json_string_value(json_object_get(root, "format"));
	if (!fmt || strcmp(fmt, "papi-stat") || !json_is_object(mpi) ||
	    !json_is_integer(json_object_get(mpi, "rank"))) {
		cli_error("stat", "--merge: %s is not a per-rank file of papi stat "
			  "(written with --per-rank, or -j -o with %%r in an MPI job)", path);
		goto out;
	}
	struct mg_rank *rs = grow(m->r, &m->cap_r, m->nr + 1, sizeof *rs);
	if (!rs)
		goto out;
	m->r = rs;
	struct mg_rank *r = &rs[m->nr];
	memset(r, 0, sizeof *r);
	r->file = strdup(path);
	r->job = dup_str(mpi, "job");
	r->launcher = dup_str(mpi, "launcher");
	r->host = dup_str(root, "host");
	r->rank = (int)json_integer_value(json_object_get(mpi, "rank"));
	r->size = (int)json_integer_value(json_object_get(mpi, "size"));
	json_t *es = json_object_get(root, "exit_status");
	r->exit_status = json_is_integer(es) ? (int)json_integer_value(es) : -1;
	r->signal = (int)json_integer_value(json_object_get(root, "signal"));
	r->error = dup_str(root, "error");
	r->v = calloc((size_t)m->nit + 1, sizeof *r->v);
	if (!r->file || !r->v)
		goto out;
	for (int k = 0; k < m->nit; k++)
		r->v[k] = NAN;
	m->nr++;
	if (load_items(m, r, json_object_get(root, "events"), 0) < 0 ||
	    load_items(m, r, json_object_get(root, "metrics"), 1) < 0)
		goto out;
	ret = 0;
out:
	json_decref(root);
	return ret;
}

/* A directory: its papi-stat.*.json files; anything else: that file. */
static int load_arg(struct mg *m, const char *arg)
{
	DIR *d = opendir(arg);
	if (!d)
		return errno == ENOTDIR ? load_file(m, arg)
		       : (cli_error("stat", "--merge: cannot read '%s': %s", arg, strerror(errno)), -1);
	struct dirent *de;
	char **names = NULL;
	int n = 0, cap = 0, ret = 0;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (strncmp(de->d_name, "papi-stat.", 10) || l < 15 || strcmp(de->d_name + l - 5, ".json"))
			continue;
		char **nn = grow(names, &cap, n + 1, sizeof *nn);
		if (!nn)
			break;
		names = nn;
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n == 0)
		ret = (cli_error("stat", "--merge: no per-rank files (papi-stat.*.json) in '%s'", arg), -1);
	for (int i = 0; i < n && ret == 0; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", arg, names[i]);
		ret = load_file(m, path);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

static void mg_free(struct mg *m)
{
	for (int k = 0; k < m->nr; k++) {
		struct mg_rank *r = &m->r[k];
		free(r->file), free(r->job), free(r->host), free(r->launcher), free(r->error), free(r->v);
	}
	for (int i = 0; i < m->nit; i++)
		free(m->it[i].name), free(m->it[i].unit);
	free(m->r);
	free(m->it);
}

static int by_rank(const void *a, const void *b)
{
	const struct mg_rank *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Keep one job's ranks: the only one there is, or the one --job names.
 * Refuses two jobs, two files of one rank. 0 or -1 after a message. */
static int pick_job(struct mg *m, const char *want)
{
	int k = 0;
	for (int i = 0; i < m->nr; i++) {
		const char *j = m->r[i].job ? m->r[i].job : "";
		if (want ? strcmp(j, want) : strcmp(j, m->r[0].job ? m->r[0].job : "")) {
			if (!want)
				return cli_error("stat", "--merge: the files hold more than one job ('%s' in %s, "
						 "'%s' in %s): choose one with --job", m->r[0].job, m->r[0].file,
						 j, m->r[i].file), -1;
			continue;
		}
		struct mg_rank t = m->r[k];
		m->r[k++] = m->r[i];
		m->r[i] = t;
	}
	if (k == 0)
		return cli_error("stat", "--merge: no file of job '%s'", want), -1;
	/* The others stay in r[k..] (freed with the rest) but are not reported. */
	m->njob = k;
	qsort(m->r, (size_t)k, sizeof *m->r, by_rank);
	for (int i = 1; i < k; i++)
		if (m->r[i].rank == m->r[i - 1].rank)
			return cli_error("stat", "--merge: rank %d twice: %s and %s", m->r[i].rank,
					 m->r[i - 1].file, m->r[i].file), -1;
	for (int i = 0; i < k; i++)
		if (m->r[i].size > m->size)
			m->size = m->r[i].size;
	return 0;
}

/* ------------------------------------------------------------------ statistics */
struct mg_stat {
	int n;			/* ranks with a value */
	double sum, min, median, max;
	int min_rank, max_rank;	/* the lowest rank at the min and at the max */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Item k over the job's ranks on host (NULL: every host). */
static void item_stat(const struct mg *m, int k, const char *host, struct mg_stat *st)
{
	double v[m->njob > 0 ? m->njob : 1];
	memset(st, 0, sizeof *st);
	for (int i = 0; i < m->njob; i++) {
		const struct mg_rank *r = &m->r[i];
		double x = r->v[k];
		if (isnan(x) || (host && (!r->host || strcmp(r->host, host))))
			continue;
		if (st->n == 0 || x < st->min)
			st->min = x, st->min_rank = r->rank;
		if (st->n == 0 || x > st->max)
			st->max = x, st->max_rank = r->rank;
		st->sum += x;
		v[st->n++] = x;
	}
	if (st->n == 0)
		return;
	qsort(v, (size_t)st->n, sizeof *v, cmp_double);
	st->median = st->n % 2 ? v[st->n / 2] : (v[st->n / 2 - 1] + v[st->n / 2]) / 2;
}

/* The job's hosts in order of their lowest rank. */
static int hosts(const struct mg *m, const char **h, int max)
{
	int n = 0;
	for (int i = 0; i < m->njob; i++) {
		const char *x = m->r[i].host ? m->r[i].host : "";
		int seen = 0;
		for (int k = 0; k < n; k++)
			seen |= !strcmp(h[k], x);
		if (!seen && n < max)
			h[n++] = x;
	}
	return n;
}

/* Ranks below the job's size that have no file. */
static int missing(const struct mg *m, int *out, int max)
{
	int n = 0;
	for (int r = 0, i = 0; r < m->size; r++) {
		while (i < m->njob && m->r[i].rank < r)
			i++;
		if (i < m->njob && m->r[i].rank == r)
			continue;
		if (n < max)
			out[n] = r;
		n++;
	}
	return n;
}

/* What ended a rank badly, in words, or NULL when it exited 0. */
static const char *rank_failure(const struct mg_rank *r, char *buf, size_t len)
{
	if (r->error)
		snprintf(buf, len, "papi stat failed: %s", r->error);
	else if (r->signal > 0)
		snprintf(buf, len, "killed by signal %d (%s)", r->signal, strsignal(r->signal));
	else if (r->exit_status > 0)
		snprintf(buf, len, "exit status %d", r->exit_status);
	else
		return NULL;
	return buf;
}

/* ------------------------------------------------------------------ reports */
#define MAX_HOSTS 4096
#define MAX_LISTED 4096

/* v in 15 columns; ms: a time in milliseconds, to the microsecond. */
static void human_num(FILE *f, double v, int ms)
{
	if (isnan(v))
		fprintf(f, " %15s", "-");
	else if (ms)
		fprintf(f, " %15.3f", v);
	else if (v == floor(v) && fabs(v) < 1e18)
		fprintf(f, " %15.0f", v);
	else if (fabs(v) >= 1e5 && fabs(v) < 1e18)
		fprintf(f, " %15.1f", v);	/* a median between two counts */
	else
		fprintf(f, " %15.6g", v);
}

static void human_block(FILE *f, const struct mg *m, const char *host)
{
	fprintf(f, "%15s %15s %15s %15s %6s %6s  %s\n", "sum", "min", "median", "max", "min@",
		"max@", "event");
	for (int k = 0; k < m->nit; k++) {
		struct mg_stat st;
		item_stat(m, k, host, &st);
		if (st.n == 0) {
			fprintf(f, "%15s %15s %15s %15s %6s %6s  %s\n", "-", "-", "-", "-", "", "",
				m->it[k].name);
			continue;
		}
		/* a time in nanoseconds reads as milliseconds, as in papi stat's
		 * own report; the CSV and JSON keep the nanoseconds */
		int ns = !strcmp(m->it[k].unit, "ns");
		double div = ns ? 1e6 : 1;
		const char *unit = ns ? "ms" : m->it[k].unit;
		human_num(f, m->it[k].metric ? NAN : st.sum / div, ns);
		human_num(f, st.min / div, ns);
		human_num(f, st.median / div, ns);
		human_num(f, st.max / div, ns);
		fprintf(f, " %6d %6d  %s%s%s%s\n", st.min_rank, st.max_rank, m->it[k].name,
			*unit ? " (" : "", unit, *unit ? ")" : "");
	}
}

static void human_report(FILE *f, const struct mg *m)
{
	const char *h[MAX_HOSTS];
	int miss[MAX_LISTED], nh = hosts(m, h, MAX_HOSTS), nmiss = missing(m, miss, MAX_LISTED);
	char why[160];
	fprintf(f, "\n Job %s: %d rank%s", m->r[0].job, m->njob, m->njob == 1 ? "" : "s");
	if (m->size)
		fprintf(f, " of %d", m->size);
	fprintf(f, " on %d host%s", nh, nh == 1 ? "" : "s");
	if (m->r[0].launcher)
		fprintf(f, " (%s)", m->r[0].launcher);
	fputs(":\n\n", f);
	for (int i = 0; i < m->njob; i++)
		if (rank_failure(&m->r[i], why, sizeof why))
			fprintf(f, " rank %d on %s: %s\n", m->r[i].rank, m->r[i].host ? m->r[i].host : "?", why);
	if (nmiss) {
		fprintf(f, " missing: %d rank%s without a file:", nmiss, nmiss == 1 ? "" : "s");
		for (int i = 0; i < nmiss && i < MAX_LISTED; i++)
			fprintf(f, "%s %d", i ? "," : "", miss[i]);
		fputc('\n', f);
	}
	fputc('\n', f);
	human_block(f, m, NULL);
	for (int i = 0; nh > 1 && i < nh; i++) {
		fprintf(f, "\n Host %s:\n\n", h[i]);
		human_block(f, m, h[i]);
	}
	fputc('\n', f);
}

static const char *const csv_cols[] = {
	"scope", "host", "name", "kind", "unit", "ranks", "sum", "min", "median", "max",
	"min_rank", "max_rank",
};

static void csv_block(struct cli_csv *c, const struct mg *m, const char *host)
{
	for (int k = 0; k < m->nit; k++) {
		struct mg_stat st;
		item_stat(m, k, host, &st);
		cli_csv_field(c, host ? "host" : "job");
		cli_csv_field(c, host ? host : "");
		cli_csv_field(c, m->it[k].name);
		cli_csv_field(c, m->it[k].metric ? "metric" : "event");
		cli_csv_field(c, m->it[k].unit);
		cli_csv_int(c, st.n);
		cli_csv_double(c, st.n && !m->it[k].metric ? st.sum : NAN);
		cli_csv_double(c, st.n ? st.min : NAN);
		cli_csv_double(c, st.n ? st.median : NAN);
		cli_csv_double(c, st.n ? st.max : NAN);
		if (st.n) {
			cli_csv_int(c, st.min_rank);
			cli_csv_int(c, st.max_rank);
		} else {
			cli_csv_field(c, "");
			cli_csv_field(c, "");
		}
		cli_csv_end(c);
	}
}

static void csv_report(FILE *f, const struct mg *m, char sep)
{
	struct cli_csv c;
	const char *h[MAX_HOSTS];
	int nh = hosts(m, h, MAX_HOSTS);
	cli_csv_init(&c, f, sep);
	for (size_t i = 0; i < sizeof csv_cols / sizeof *csv_cols; i++)
		cli_csv_field(&c, csv_cols[i]);
	cli_csv_end(&c);
	csv_block(&c, m, NULL);
	for (int i = 0; nh > 1 && i < nh; i++)
		csv_block(&c, m, h[i]);
}

static void json_items(struct json *j, const struct mg *m, const char *host)
{
	json_arr_begin(j);
	for (int k = 0; k < m->nit; k++) {
		struct mg_stat st;
		item_stat(m, k, host, &st);
		json_obj_begin(j);
		json_kstr(j, "name", m->it[k].name);
		json_kstr(j, "kind", m->it[k].metric ? "metric" : "event");
		json_kstr(j, "unit", m->it[k].unit);
		json_kint(j, "ranks", st.n);
		if (st.n) {
			if (!m->it[k].metric)
				json_kdouble(j, "sum", st.sum);
			json_kdouble(j, "min", st.min);
			json_kdouble(j, "median", st.median);
			json_kdouble(j, "max", st.max);
			json_kint(j, "min_rank", st.min_rank);
			json_kint(j, "max_rank", st.max_rank);
		}
		json_key(j, "values");
		json_arr_begin(j);
		for (int i = 0; i < m->njob; i++)
			if (!host || (m->r[i].host && !strcmp(m->r[i].host, host)))
				json_double(j, m->r[i].v[k]);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_report(FILE *f, const struct mg *m)
{
	struct json j;
	const char *h[MAX_HOSTS];
	int miss[MAX_LISTED], nh = hosts(m, h, MAX_HOSTS), nmiss = missing(m, miss, MAX_LISTED);
	char why[160];
	json_init(&j, f, 1);
	json_obj_begin(&j);
	json_kstr(&j, "format", "papi-stat-merge");
	json_kint(&j, "version", 1);
	json_kstr(&j, "job", m->r[0].job);
	json_kstr(&j, "launcher", m->r[0].launcher);
	if (m->size)
		json_kint(&j, "size", m->size);
	else
		json_kstr(&j, "size", NULL);
	json_key(&j, "ranks");
	json_arr_begin(&j);
	for (int i = 0; i < m->njob; i++) {
		const struct mg_rank *r = &m->r[i];
		json_obj_begin(&j);
		json_kint(&j, "rank", r->rank);
		json_kstr(&j, "host", r->host);
		json_kstr(&j, "file", r->file);
		if (r->exit_status >= 0)
			json_kint(&j, "exit_status", r->exit_status);
		else
			json_kstr(&j, "exit_status", NULL);
		if (r->signal > 0)
			json_kint(&j, "signal", r->signal);
		else
			json_kstr(&j, "signal", NULL);
		json_kstr(&j, "failure", rank_failure(r, why, sizeof why));
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "missing");
	json_arr_begin(&j);
	for (int i = 0; i < nmiss && i < MAX_LISTED; i++)
		json_int(&j, miss[i]);
	json_arr_end(&j);
	json_key(&j, "hosts");
	json_arr_begin(&j);
	for (int i = 0; i < nh; i++)
		json_str(&j, h[i]);
	json_arr_end(&j);
	json_key(&j, "items");
	json_items(&j, m, NULL);
	json_key(&j, "per_host");
	json_obj_begin(&j);
	for (int i = 0; i < nh; i++) {
		json_key(&j, h[i]);
		json_items(&j, m, h[i]);
	}
	json_obj_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

/* ------------------------------------------------------------------ plot */
/* The ranks the chart shows: every rank of the job's size (a rank without a
 * file is an empty slot), or those with a file when the size is unknown or
 * absurd. *cat gets each slot's job index, -1 for a missing rank. */
static int plot_slots(const struct mg *m, int **cat)
{
	int n = m->size > 0 && m->size <= 65536 && m->r[m->njob - 1].rank < m->size ? m->size : m->njob;
	if (!(*cat = malloc((size_t)n * sizeof **cat)))
		return -1;
	for (int s = 0, i = 0; s < n; s++)
		if (n == m->njob)
			(*cat)[s] = s;
		else
			(*cat)[s] = i < m->njob && m->r[i].rank == s ? i++ : -1;
	return n;
}

/* One panel per event and metric: a bar per rank, the job's min (its bar
 * green), median and max (its bar red) marked. */
static int merge_plot(const struct mg *m, const char *path)
{
	int *cat = NULL, n = plot_slots(m, &cat), nit = m->nit;
	struct plot_panel *p = calloc((size_t)nit + 1, sizeof *p);
	double *v = malloc(((size_t)nit * (size_t)(n > 0 ? n : 1) + 1) * sizeof *v);
	unsigned char *tone = calloc((size_t)nit * (size_t)(n > 0 ? n : 1) + 1, 1);
	char (*lab)[3][48] = calloc((size_t)nit + 1, sizeof *lab);
	char (*names)[12] = calloc((size_t)(n > 0 ? n : 1), sizeof *names);
	const char **cats = calloc((size_t)(n > 0 ? n : 1), sizeof *cats);
	int ret = CLI_OK;
	if (n < 0 || !p || !v || !tone || !lab || !names || !cats) {
		ret = cli_error("stat", "--plot: out of memory");
		goto out;
	}
	for (int s = 0; s < n; s++) {
		snprintf(names[s], sizeof names[s], "%d", cat[s] >= 0 ? m->r[cat[s]].rank : s);
		cats[s] = names[s];
	}
	for (int k = 0; k < nit; k++) {
		const struct mg_item *it = &m->it[k];
		struct plot_panel *q = &p[k];
		struct mg_stat st;
		double scale = strcmp(it->unit, "ns") ? 1 : 1e-6;	/* times in ms */
		char num[32];
		item_stat(m, k, NULL, &st);
		q->title = it->name;
		q->unit = scale != 1 ? "ms" : *it->unit ? it->unit : it->metric ? "ratio" : "count";
		q->nlines = 1;
		q->y[0] = v + (size_t)k * (size_t)n;
		q->tone = tone + (size_t)k * (size_t)n;
		for (int s = 0; s < n; s++) {
			const struct mg_rank *r = cat[s] >= 0 ? &m->r[cat[s]] : NULL;
			v[(size_t)k * (size_t)n + (size_t)s] = r ? r->v[k] * scale : NAN;
			/* the min's bar green, the max's red, when they differ */
			tone[(size_t)k * (size_t)n + (size_t)s] = !r || !(st.max > st.min) ? 0
								  : r->rank == st.max_rank ? 3
								  : r->rank == st.min_rank ? 1 : 0;
		}
		if (!st.n)
			continue;
		plot_number(num, sizeof num, st.min * scale);
		snprintf(lab[k][0], sizeof lab[k][0], "min %s @%d", num, st.min_rank);
		plot_number(num, sizeof num, st.median * scale);
		snprintf(lab[k][1], sizeof lab[k][1], "median %s", num);
		plot_number(num, sizeof num, st.max * scale);
		snprintf(lab[k][2], sizeof lab[k][2], "max %s @%d", num, st.max_rank);
		q->nmarks = 3;
		q->mark[0] = (struct plot_mark){ lab[k][0], st.min * scale };
		q->mark[1] = (struct plot_mark){ lab[k][1], st.median * scale };
		q->mark[2] = (struct plot_mark){ lab[k][2], st.max * scale };
	}
	const char *h[MAX_HOSTS];
	int nh = hosts(m, h, MAX_HOSTS);
	char title[256];
	int t = snprintf(title, sizeof title, "papi stat: job %.60s, %d", m->r[0].job ? m->r[0].job : "?",
			 m->njob);
	if (m->size && m->size != m->njob)
		t += snprintf(title + t, sizeof title - (size_t)t, " of %d", m->size);
	snprintf(title + t, sizeof title - (size_t)t, " rank%s on %d host%s, per rank",
		 m->size > 1 || m->njob > 1 ? "s" : "", nh, nh == 1 ? "" : "s");
	if (nit == 0) {
		ret = cli_error("stat", "--plot: the files hold no event or metric to draw");
		goto out;
	}
	FILE *f = cli_wopen("stat", "--plot", path);
	if (!f) {
		ret = CLI_FAIL;
		goto out;
	}
	plot_bars_svg(f, title, "MPI rank", cats, n, p, nit);
	ret = cli_wclose("stat", "--plot", path, f);
out:
	free(cat), free(p), free(v), free(tone), free(lab), free(names), free(cats);
	return ret;
}

/* ------------------------------------------------------------------ entry */
int st_merge(FILE *out, int json, char sep, char **args, int nargs, const char *job, const char *plot,
	     int *nmissing)
{
	struct mg m = { 0 };
	int ret = CLI_FAIL;
	*nmissing = 0;
	for (int i = 0; i < nargs; i++)
		if (load_arg(&m, args[i]) < 0)
			goto out;
	if (m.nr == 0) {
		cli_error("stat", "--merge: no per-rank files");
		goto out;
	}
	if (pick_job(&m, job) < 0)
		goto out;
	if (json)
		json_report(out, &m);
	else if (sep)
		csv_report(out, &m, sep);
	else
		human_report(out, &m);
	int miss[1];
	*nmissing = missing(&m, miss, 1);
	ret = plot ? merge_plot(&m, plot) : CLI_OK;
out:
	mg_free(&m);
	return ret;
}

/* hl_read.c: reading the region API's rank files (ours and PAPI 7.0's) with jansson into the hl-report model. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "hl_report.h"

/* Files larger than this are refused rather than read into memory. */
#define HLR_MAX_FILE (256L << 20)

void hlr_init(struct hlr *r)
{
	memset(r, 0, sizeof *r);
}

void hlr_free(struct hlr *r)
{
	for (int i = 0; i < r->nregion; i++) {
		for (int c = 0; c < r->region[i].ncell; c++) {
			free(r->region[i].cell[c].v);
			free(r->region[i].cell[c].en);
			free(r->region[i].cell[c].run);
		}
		free(r->region[i].cell);
		free(r->region[i].name);
	}
	for (int m = 0; m < r->nmetric; m++)
		free(r->metric[m]);
	free(r->metric);
	free(r->instant);
	free(r->region);
	free(r->ranks);
	hlr_init(r);
}

static int grow(void **p, int *cap, int need, size_t sz)
{
	if (need <= *cap)
		return 0;
	int n = *cap ? *cap * 2 : 8;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, (size_t)n * sz);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

int hlr_metric(const struct hlr *r, const char *name)
{
	for (int m = 0; m < r->nmetric; m++)
		if (!strcmp(r->metric[m], name))
			return m;
	return -1;
}

/* The index of metric name, added (NaN in every existing cell) when new. */
static int metric_get(struct hlr *r, const char *name, int instant)
{
	int m = hlr_metric(r, name);
	if (m >= 0) {
		r->instant[m] |= (unsigned char)instant;
		return m;
	}
	int old = r->cap_metric;
	if (grow((void **)&r->metric, &r->cap_metric, r->nmetric + 1, sizeof *r->metric))
		return -1;
	unsigned char *in = realloc(r->instant, (size_t)r->cap_metric);
	if (!in)
		return -1;
	r->instant = in;
	if (r->cap_metric != old)	/* widen every cell's values and times */
		for (int i = 0; i < r->nregion; i++)
			for (int c = 0; c < r->region[i].ncell; c++) {
				struct hlr_cell *x = &r->region[i].cell[c];
				double **arr[3] = { &x->v, &x->en, &x->run };
				for (int a = 0; a < 3; a++) {
					double *v = realloc(*arr[a], (size_t)r->cap_metric * sizeof *v);
					if (!v)
						return -1;
					*arr[a] = v;
				}
			}
	if (!(r->metric[r->nmetric] = strdup(name)))
		return -1;
	r->instant[r->nmetric] = (unsigned char)instant;
	for (int i = 0; i < r->nregion; i++)
		for (int c = 0; c < r->region[i].ncell; c++) {
			struct hlr_cell *x = &r->region[i].cell[c];
			x->v[r->nmetric] = x->en[r->nmetric] = x->run[r->nmetric] = NAN;
		}
	return r->nmetric++;
}

/* The cell of region name for (rank, thread), made when new. */
static struct hlr_cell *cell_get(struct hlr *r, const char *name, int rank, long long thread)
{
	struct hlr_region *g = NULL;
	for (int i = 0; i < r->nregion && !g; i++)
		if (!strcmp(r->region[i].name, name))
			g = &r->region[i];
	if (!g) {
		if (grow((void **)&r->region, &r->cap_region, r->nregion + 1, sizeof *r->region))
			return NULL;
		g = &r->region[r->nregion];
		memset(g, 0, sizeof *g);
		if (!(g->name = strdup(name)))
			return NULL;
		r->nregion++;
	}
	for (int c = 0; c < g->ncell; c++)
		if (g->cell[c].rank == rank && g->cell[c].thread == thread)
			return &g->cell[c];
	if (grow((void **)&g->cell, &g->cap, g->ncell + 1, sizeof *g->cell))
		return NULL;
	struct hlr_cell *c = &g->cell[g->ncell];
	int cap = r->cap_metric > 0 ? r->cap_metric : 1;
	c->v = malloc((size_t)cap * sizeof *c->v);
	c->en = malloc((size_t)cap * sizeof *c->en);
	c->run = malloc((size_t)cap * sizeof *c->run);
	if (!c->v || !c->en || !c->run) {
		free(c->v), free(c->en), free(c->run);
		return NULL;
	}
	for (int m = 0; m < cap; m++)
		c->v[m] = c->en[m] = c->run[m] = NAN;
	c->rank = rank;
	c->thread = thread;
	c->count = 0;
	g->ncell++;
	return c;
}

/* A number as we write it, or as PAPI 7.0 writes it (a string of digits). */
static int num_of(json_t *v, double *out)
{
	if (json_is_integer(v)) {
		*out = (double)json_integer_value(v);
		return 0;
	}
	if (json_is_real(v)) {
		*out = json_real_value(v);
		return 0;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		errno = 0;
		long long n = strtoll(s, &end, 10);
		if (*s && !*end && !errno) {
			*out = (double)n;
			return 0;
		}
	}
	return -1;
}

/* Add value v of metric m into cell c (instant metrics keep the largest). */
static void add(struct hlr *r, struct hlr_cell *c, int m, double v)
{
	if (isnan(c->v[m]))
		c->v[m] = v;
	else if (r->instant[m])
		c->v[m] = v > c->v[m] ? v : c->v[m];
	else
		c->v[m] += v;
}

/* Keys of a region object that are not counted values. */
static int is_meta(const char *k)
{
	static const char *const meta[] = { "region_count", "read_count", "parent_region", "last_read",
					    "name", "parent_region_id" };
	for (size_t i = 0; i < sizeof meta / sizeof meta[0]; i++)
		if (!strcmp(k, meta[i]))
			return 1;
	return 0;
}

/* Add a region's "event_times" ({EVENT: {"time_enabled": N,
 * "time_running": N}}, numbers or PAPI 7.0-style strings) into the
 * (rank, thread) cell's times. */
static int merge_times(struct hlr *r, const char *name, json_t *obj, int rank, long long thread,
		       char *err, size_t errlen)
{
	const char *k;
	json_t *t;
	if (!json_is_object(obj)) {
		snprintf(err, errlen, "region \"%.64s\": \"event_times\" is not an object", name);
		return -1;
	}
	json_object_foreach(obj, k, t) {
		double en, run;
		if (!json_is_object(t) || num_of(json_object_get(t, "time_enabled"), &en) < 0 ||
		    num_of(json_object_get(t, "time_running"), &run) < 0 || en < 0 || run < 0) {
			snprintf(err, errlen, "region \"%.64s\": times of \"%.64s\" are not two numbers", name, k);
			return -1;
		}
		int m = metric_get(r, k, 0);
		struct hlr_cell *c = m < 0 ? NULL : cell_get(r, name, rank, thread);
		if (!c) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		c->en[m] = isnan(c->en[m]) ? en : c->en[m] + en;
		c->run[m] = isnan(c->run[m]) ? run : c->run[m] + run;
	}
	return 0;
}

/* One region's values (obj) for (rank, thread): count instances added. */
static int merge_region(struct hlr *r, const char *name, json_t *obj, int rank, long long thread,
			long long count, char *err, size_t errlen)
{
	const char *k;
	json_t *v;
	struct hlr_cell *c = cell_get(r, name, rank, thread);
	if (!c)
		goto nomem;
	c->count += count;
	json_object_foreach(obj, k, v) {
		double x;
		if (!strcmp(k, "event_times")) {
			if (merge_times(r, name, v, rank, thread, err, errlen))
				return -1;
			continue;
		}
		if (is_meta(k))
			continue;
		/* PAPI 7.0 writes {"region_value": N, "read_1": ...} after reads. */
		if (json_is_object(v))
			v = json_object_get(v, "region_value");
		if (!v || num_of(v, &x) < 0) {
			snprintf(err, errlen, "region \"%.64s\": value of \"%.64s\" is not a number", name, k);
			return -1;
		}
		int m = metric_get(r, k, 0);
		if (m < 0 || !(c = cell_get(r, name, rank, thread)))
			goto nomem;
		add(r, c, m, x);
	}
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Our layout: "threads": [ { "id": N, "regions": [ { NAME: {...} } ] } ]. */
static int read_ours(struct hlr *r, json_t *threads, int rank, char *err, size_t errlen)
{
	size_t i, k;
	json_t *t, *reg;
	json_array_foreach(threads, i, t) {
		json_t *regs = json_object_get(t, "regions");
		json_t *id = json_object_get(t, "id");
		double tid = (double)i;
		if (!json_is_object(t) || !json_is_array(regs) || (id && num_of(id, &tid) < 0)) {
			snprintf(err, errlen, "thread %zu: no \"regions\" array or a bad \"id\"", i);
			return -1;
		}
		r->nthreads++;
		json_array_foreach(regs, k, reg) {
			const char *name;
			json_t *body;
			if (!json_is_object(reg) || json_object_size(reg) != 1) {
				snprintf(err, errlen, "thread %zu: region %zu is not {NAME: {...}}", i, k);
				return -1;
			}
			json_object_foreach(reg, name, body) {
				double cnt;
				json_t *rc = json_object_get(body, "region_count");
				if (!json_is_object(body) || !rc || num_of(rc, &cnt) < 0 || cnt < 0) {
					snprintf(err, errlen, "region \"%.64s\": no region_count", name);
					return -1;
				}
				if (merge_region(r, name, body, rank, (long long)tid, (long long)cnt, err, errlen))
					return -1;
			}
		}
	}
	return 0;
}

/* PAPI 7.0's: "threads": { "0": { "regions": { "0": { "name": NAME, ... } } } },
 * one entry per region instance. */
static int read_papi7(struct hlr *r, json_t *threads, int rank, char *err, size_t errlen)
{
	const char *tk, *rk;
	json_t *t, *reg;
	json_object_foreach(threads, tk, t) {
		json_t *regs = json_object_get(t, "regions");
		char *end;
		long long tid = strtoll(tk, &end, 10);
		if (!json_is_object(regs) || *end) {
			snprintf(err, errlen, "thread \"%.32s\": no \"regions\" object", tk);
			return -1;
		}
		r->nthreads++;
		json_object_foreach(regs, rk, reg) {
			json_t *name = json_object_get(reg, "name");
			if (!json_is_object(reg) || !json_is_string(name)) {
				snprintf(err, errlen, "region \"%.32s\": no name", rk);
				return -1;
			}
			if (merge_region(r, json_string_value(name), reg, rank, tid, 1, err, errlen))
				return -1;
		}
		/* beside "regions" (PAPI 7.0's readers look at that only): the
		 * event times of each instance, by its number */
		json_t *times = json_object_get(t, "event_times");
		if (times && !json_is_object(times)) {
			snprintf(err, errlen, "thread \"%.32s\": \"event_times\" is not an object", tk);
			return -1;
		}
		json_object_foreach(times, rk, reg) {
			json_t *name = json_object_get(json_object_get(regs, rk), "name");
			if (!json_is_string(name)) {
				snprintf(err, errlen, "thread \"%.32s\": event_times of \"%.32s\", no such region", tk, rk);
				return -1;
			}
			if (merge_times(r, json_string_value(name), reg, rank, tid, err, errlen))
				return -1;
		}
	}
	return 0;
}

int hlr_load_buffer(struct hlr *r, const char *buf, size_t len, long long rank, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
	int ret = -1;
	if (!root) {
		snprintf(err, errlen, "not JSON: %s (line %d, column %d)", je.text, je.line, je.column);
		return -1;
	}
	json_t *threads = json_object_get(root, "threads");
	json_t *defs = json_object_get(root, "event_definitions");
	json_t *rk = json_object_get(root, "rank");
	double x;
	if (!json_is_object(root) || !(json_is_array(threads) || json_is_object(threads))) {
		snprintf(err, errlen, "no \"threads\": not a report of the high-level API");
		goto out;
	}
	if (rk && num_of(rk, &x) == 0 && x >= 0 && x < 1e15)
		rank = (long long)x;
	long long top = -1;
	int clash = rank < 0;
	for (int i = 0; i < r->nrank; i++) {
		top = r->ranks[i] > top ? r->ranks[i] : top;
		clash |= r->ranks[i] == rank;
	}
	if (clash)	/* no number, or two files with one: keep both apart */
		rank = top + 1;
	if (grow((void **)&r->ranks, &r->cap_rank, r->nrank + 1, sizeof *r->ranks)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	int ri = r->nrank;
	r->ranks[r->nrank++] = rank;
	if (metric_get(r, "cycles", 0) < 0 || metric_get(r, "real_time_nsec", 0) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	const char *ek;
	json_t *ev;
	json_object_foreach(defs, ek, ev) {
		json_t *type = json_object_get(ev, "type");
		int inst = json_is_string(type) && !strcmp(json_string_value(type), "instant");
		if (metric_get(r, ek, inst) < 0) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	}
	ret = json_is_array(threads) ? read_ours(r, threads, ri, err, errlen)
				     : read_papi7(r, threads, ri, err, errlen);
out:
	json_decref(root);
	return ret;
}

/* The rank in a file name rank_NNN.json, or -1. */
static long long rank_of_name(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	char *end;
	if (strncmp(b, "rank_", 5))
		return -1;
	long long n = strtoll(b + 5, &end, 10);
	return end != b + 5 && !strcmp(end, ".json") ? n : -1;
}

static int load_file(struct hlr *r, const char *path, char *err, size_t errlen)
{
	char why[512];
	FILE *f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int ret = -1;
	for (;;) {
		if (len == cap) {
			size_t nc = cap ? cap * 2 : 65536;
			char *b = nc <= (size_t)HLR_MAX_FILE ? realloc(buf, nc) : NULL;
			if (!b) {
				snprintf(err, errlen, "%s: larger than %ld MiB", path, HLR_MAX_FILE >> 20);
				goto out;
			}
			buf = b, cap = nc;
		}
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	/* MPI ranks say their rank; otherwise (and in PAPI 7.0's files) the
	 * number in the name stands for it. */
	if (hlr_load_buffer(r, buf, len, rank_of_name(path), why, sizeof why) < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		goto out;
	}
	ret = 1;
out:
	fclose(f);
	free(buf);
	return ret;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int hlr_load_path(struct hlr *r, const char *path, char *err, size_t errlen)
{
	struct stat st;
	char sub[PATH_MAX];
	if (stat(path, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return load_file(r, path, err, errlen);
	DIR *d = opendir(path);
	if (!d) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char **names = NULL;
	int n = 0, cap = 0, ret = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (rank_of_name(e->d_name) < 0)
			continue;
		if (grow((void **)&names, &cap, n + 1, sizeof *names) || !(names[n] = strdup(e->d_name))) {
			snprintf(err, errlen, "out of memory");
			ret = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (ret == 0 && n == 0) {
		snprintf(sub, sizeof sub, "%s/papi_hl_output", path);
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			ret = hlr_load_path(r, sub, err, errlen);
		else {
			snprintf(err, errlen, "%s: no rank_*.json files", path);
			ret = -1;
		}
	}
	if (n > 1)
		qsort(names, (size_t)n, sizeof *names, by_name);
	for (int i = 0; i < n && ret >= 0; i++) {
		snprintf(sub, sizeof sub, "%s/%s", path, names[i]);
		ret = load_file(r, sub, err, errlen) < 0 ? -1 : ret + 1;
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

/* diff.c: papi stat --diff BASE.json NEW.json: two saved runs compared, per event and metric the change and, with -r, whether it is beyond the runs' spread. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

/* One event or metric of a saved report: its mean over the runs, their
 * standard deviation (NAN for one run) and how many runs. */
struct dv {
	double mean, sd;
	int n;
};

/* One row of the comparison. */
struct drow {
	const char *name, *unit;	/* in the reports' JSON, which outlive the rows */
	int metric;
	struct dv base, new;		/* n 0: not in that report, or no value */
};

/* A saved report's root object, or NULL after a message. */
static json_t *load(const char *path)
{
	json_t *root = st_report_read("--diff", path);
	if (!root)
		return NULL;
	const char *fmt = json_string_value(json_object_get(root, "format"));
	if (!fmt || strcmp(fmt, "papi-stat") || !json_is_array(json_object_get(root, "events"))) {
		cli_error("stat", "--diff: %s is not a report of papi stat (written with --json)", path);
		json_decref(root);
		return NULL;
	}
	return root;
}

/* The value of item o (name, of the report in path): an event's or a
 * metric's mean over the runs; no value (n 0) for one not counted (null).
 * A value that is neither a number nor null: a message, and *err set. */
static struct dv value(json_t *o, const char *path, const char *name, int *err)
{
	struct dv v = { .mean = NAN, .sd = NAN, .n = 0 };
	static const char *const keys[] = { "mean", "value", "stddev" };
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
		json_t *x = json_object_get(o, keys[k]);
		if (x && !json_is_null(x) && !json_is_number(x)) {
			cli_error("stat", "--diff: %s: %s: \"%s\" is not a number", path, name, keys[k]);
			*err = 1;
			return v;
		}
	}
	json_t *x = json_object_get(o, "mean");
	if (!json_is_number(x))
		x = json_object_get(o, "value");
	if (!json_is_number(x))
		return v;
	v.mean = json_number_value(x);
	json_t *runs = json_object_get(o, "runs"), *vals = json_object_get(o, "values");
	v.n = json_is_integer(runs) ? (int)json_integer_value(runs)
	      : json_is_array(vals) ? (int)json_array_size(vals) : 1;
	json_t *sd = json_object_get(o, "stddev");
	if (json_is_number(sd))
		v.sd = json_number_value(sd);
	return v;
}

/* The row of name (and kind) among rows[*n], added when new. */
static struct drow *row_of(struct drow **rows, int *n, int *cap, const char *name, const char *unit, int metric)
{
	for (int i = 0; i < *n; i++)
		if ((*rows)[i].metric == metric && !strcmp((*rows)[i].name, name))
			return &(*rows)[i];
	if (*n == *cap) {
		int c = *cap ? 2 * *cap : 16;
		struct drow *r = realloc(*rows, (size_t)c * sizeof *r);
		if (!r)
			return NULL;
		*rows = r;
		*cap = c;
	}
	struct drow *r = &(*rows)[(*n)++];
	*r = (struct drow){ .name = name, .unit = unit ? unit : "", .metric = metric };
	return r;
}

/* Each event and metric of report root (from path) into the rows, as its
 * base (which 0) or new (1) side. 0, or -1 after a message. */
static int gather(json_t *root, const char *path, int which, struct drow **rows, int *n, int *cap)
{
	int err = 0;
	static const char *const lists[] = { "events", "metrics" };
	for (int m = 0; m < 2; m++) {
		json_t *arr = json_object_get(root, lists[m]), *o;
		size_t i;
		json_array_foreach(arr, i, o) {
			const char *name = json_string_value(json_object_get(o, "name"));
			if (!name)
				continue;
			struct drow *r = row_of(rows, n, cap, name,
						json_string_value(json_object_get(o, "unit")), m);
			if (!r)
				return cli_error("stat", "out of memory"), -1;
			*(which ? &r->new : &r->base) = value(o, path, name, &err);
			if (err)
				return -1;
		}
	}
	return 0;
}

/* Whether the change of r is beyond its runs' spread: both sides from
 * two runs or more, and the difference of the means more than twice its
 * standard error (Welch's, about 95% for normal runs). -1 when it cannot
 * be said. */
static int beyond(const struct drow *r)
{
	if (r->base.n < 2 || r->new.n < 2 || isnan(r->base.sd) || isnan(r->new.sd))
		return -1;
	double se = sqrt(r->base.sd * r->base.sd / r->base.n + r->new.sd * r->new.sd / r->new.n);
	double d = fabs(r->new.mean - r->base.mean);
	return se > 0 ? d > 2 * se : d > 0;
}

/* The change in percent of the base; NAN when the base is 0 or missing. */
static double pct(const struct drow *r)
{
	return r->base.n && r->new.n && r->base.mean != 0 ? 100 * (r->new.mean - r->base.mean) / fabs(r->base.mean)
							   : NAN;
}

static const char *verdict(int b)
{
	return b < 0 ? "" : b ? "beyond the runs' spread" : "within the runs' spread";
}

static void text(FILE *f, const struct drow *rows, int n, const char *base, const char *new)
{
	fprintf(f, "\n Change from '%s' to '%s':\n\n", base, new);
	fprintf(f, "%18s %18s %18s %9s  %s\n", "base", "new", "change", "%", "event");
	for (int i = 0; i < n; i++) {
		const struct drow *r = &rows[i];
		int ns = !strcmp(r->unit, "ns");
		double div = ns ? 1e6 : 1;	/* a time in ms, as papi stat prints it */
		char b[32] = "-", w[32] = "-", d[32] = "-", p[16] = "-";
		if (r->base.n)
			snprintf(b, sizeof b, ns ? "%.3f ms" : "%.6g", r->base.mean / div);
		if (r->new.n)
			snprintf(w, sizeof w, ns ? "%.3f ms" : "%.6g", r->new.mean / div);
		if (r->base.n && r->new.n)
			snprintf(d, sizeof d, ns ? "%+.3f ms" : "%+.6g", (r->new.mean - r->base.mean) / div);
		if (!isnan(pct(r)))
			snprintf(p, sizeof p, "%+.2f%%", pct(r));
		fprintf(f, "%18s %18s %18s %9s  %s", b, w, d, p, r->name);
		if (*r->unit && !ns)
			fprintf(f, " (%s)", r->unit);
		if (!r->base.n && !r->new.n)
			fputs("  # counted in neither run", f);
		else if (!r->base.n || !r->new.n)
			fprintf(f, "  # counted in the %s run only", r->base.n ? "base" : "new");
		else if (beyond(r) >= 0)
			fprintf(f, "  # %s", verdict(beyond(r)));
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void csv(FILE *f, char sep, const struct drow *rows, int n)
{
	static const char *const cols[] = { "kind", "name", "unit", "base", "new", "change", "change_pct",
					    "base_runs", "new_runs", "beyond_spread" };
	struct cli_csv c;
	cli_csv_init(&c, f, sep);
	for (size_t k = 0; k < sizeof cols / sizeof *cols; k++)
		cli_csv_field(&c, cols[k]);
	cli_csv_end(&c);
	for (int i = 0; i < n; i++) {
		const struct drow *r = &rows[i];
		int both = r->base.n && r->new.n, b = beyond(r);
		cli_csv_field(&c, r->metric ? "metric" : "event");
		cli_csv_field(&c, r->name);
		cli_csv_field(&c, r->unit);
		cli_csv_double(&c, r->base.n ? st_tidy(r->base.mean) : NAN);
		cli_csv_double(&c, r->new.n ? st_tidy(r->new.mean) : NAN);
		cli_csv_double(&c, both ? st_tidy(r->new.mean - r->base.mean) : NAN);
		cli_csv_double(&c, st_tidy(pct(r)));
		cli_csv_int(&c, r->base.n);
		cli_csv_int(&c, r->new.n);
		cli_csv_field(&c, b < 0 ? NULL : b ? "yes" : "no");
		cli_csv_end(&c);
	}
}

static void num_or_null(struct json *j, const char *key, int have, double v)
{
	if (have && !isnan(v))
		json_kdouble(j, key, st_tidy(v));
	else
		json_kstr(j, key, NULL);
}

static void js(FILE *f, const struct drow *rows, int n, const char *base, const char *new)
{
	struct json j;
	json_init(&j, f, 1);
	json_obj_begin(&j);
	json_kstr(&j, "format", "papi-stat-diff");
	json_kint(&j, "version", 1);
	json_kstr(&j, "base", base);
	json_kstr(&j, "new", new);
	json_key(&j, "items");
	json_arr_begin(&j);
	for (int i = 0; i < n; i++) {
		const struct drow *r = &rows[i];
		int both = r->base.n && r->new.n, b = beyond(r);
		json_obj_begin(&j);
		json_kstr(&j, "name", r->name);
		json_kstr(&j, "kind", r->metric ? "metric" : "event");
		json_kstr(&j, "unit", r->unit);
		num_or_null(&j, "base", r->base.n, r->base.mean);
		num_or_null(&j, "new", r->new.n, r->new.mean);
		num_or_null(&j, "change", both, r->new.mean - r->base.mean);
		num_or_null(&j, "change_pct", both, pct(r));
		json_kint(&j, "base_runs", r->base.n);
		json_kint(&j, "new_runs", r->new.n);
		json_key(&j, "beyond_spread");
		if (b < 0)
			json_put_null(&j);
		else
			json_bool(&j, b);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	json_end(&j);
}

int st_diff(FILE *out, int json, char sep, const char *base, const char *new)
{
	json_t *b = load(base), *w = b ? load(new) : NULL;
	struct drow *rows = NULL;
	int n = 0, cap = 0, ret = CLI_FAIL;
	if (!b || !w)
		goto out;
	if (gather(b, base, 0, &rows, &n, &cap) < 0 || gather(w, new, 1, &rows, &n, &cap) < 0)
		goto out;
	if (json)
		js(out, rows, n, base, new);
	else if (sep)
		csv(out, sep, rows, n);
	else
		text(out, rows, n, base, new);
	ret = CLI_OK;
out:
	free(rows);
	json_decref(w);
	json_decref(b);
	return ret;
}

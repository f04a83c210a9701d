/* cost.c: `papi cost`: what PAPI's start/stop, read, read_ts, accum and reset calls cost. */
#include "cli.h"
#include "cmds.h"
#include "tool.h"
#include "papi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_opt opts[] = {
	{ "bins", 'b', required_argument, "BINS", "bins of the histogram (default 100)" },
	{ "histogram", 'd', no_argument, NULL, "print a histogram of each cost (bins grow geometrically from the minimum)" },
	{ "percentiles", 'p', no_argument, NULL, "print percentiles of each cost" },
	{ "std-dev", 's', no_argument, NULL, "print how many samples lie more than 1, 2, ... 10 standard deviations above the mean" },
	{ "iterations", 't', required_argument, "N", "samples per operation (default 10000)" },
	{ "event", 'e', required_argument, "EV[,EV...]", "count these events (default PAPI_TOT_CYC, else perf::TASK-CLOCK)" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ 0 },
};

static const struct cli_spec spec = {
	"cost", "[OPTION]...",
	"Measure the cost of PAPI's counting calls in cycles (PAPI_get_real_cyc) and\n"
	"nanoseconds (PAPI_get_real_nsec): PAPI_start+PAPI_stop, PAPI_read,\n"
	"PAPI_read_ts, PAPI_accum and PAPI_reset, on an EventSet counting the events.",
	opts, 0,
};

#define MAX_EVENTS 16
enum { OP_STARTSTOP, OP_READ, OP_READ_TS, OP_ACCUM, OP_RESET, NOPS };
static const char *const op_names[NOPS] = { "start/stop", "read", "read_ts", "accum", "reset" };
static const double pcts[] = { 25, 50, 75, 90, 95, 99 };
#define NPCTS (sizeof pcts / sizeof pcts[0])

struct stats {
	long long min, max;
	double mean, std, pct[NPCTS];
};

struct opt {
	long bins, iters;
	int hist, perc, sdev, json;
};

/* cost_op: one call of op on es (running, except for start/stop). */
static int cost_op(int op, int es, long long *v)
{
	long long ts;
	switch (op) {
	case OP_STARTSTOP: {
		int rv = PAPI_start(es);
		return rv != PAPI_OK ? rv : PAPI_stop(es, v);
	}
	case OP_READ:
		return PAPI_read(es, v);
	case OP_READ_TS:
		return PAPI_read_ts(es, v, &ts);
	case OP_ACCUM:
		return PAPI_accum(es, v);
	default:
		return PAPI_reset(es);
	}
}

/* cost_sample: n samples of op timed with clock; 0 or a PAPI error. */
static int cost_sample(int op, int es, long long (*clock)(void), long long *out, long n)
{
	long long v[MAX_EVENTS];
	int rv = PAPI_OK;
	if (op != OP_STARTSTOP && (rv = PAPI_start(es)) != PAPI_OK)
		return rv;
	for (long i = 0; i < n; i++) {
		long long t0 = clock();
		rv = cost_op(op, es, v);
		long long t1 = clock();
		if (rv != PAPI_OK)
			break;
		out[i] = t1 - t0;
	}
	if (op != OP_STARTSTOP)
		PAPI_stop(es, v);
	return rv;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

/* cost_stats: s->pct needs the samples sorted: sorts x in place. */
static void cost_stats(long long *x, long n, struct stats *s)
{
	double sum = 0, sq = 0;
	qsort(x, (size_t)n, sizeof *x, cmp_ll);
	s->min = x[0];
	s->max = x[n - 1];
	for (long i = 0; i < n; i++)
		sum += (double)x[i];
	s->mean = sum / (double)n;
	for (long i = 0; i < n; i++)
		sq += ((double)x[i] - s->mean) * ((double)x[i] - s->mean);
	s->std = sqrt(sq / (double)n);
	for (size_t k = 0; k < NPCTS; k++) {
		long idx = (long)(pcts[k] / 100.0 * (double)(n - 1) + 0.5);
		s->pct[k] = (double)x[idx];
	}
}

/* One bin of a histogram: the samples from lo to hi, both included. */
struct bin {
	long long lo, hi;
	long n;
};

/* cost_hist: at most nbins bins over sorted x, each wider than the last by
 * a constant factor, counted from the minimum: bin edges min - 1 + R^(i/B)
 * with R = max - min + 2. Costs pile up just above the minimum with a long
 * tail of outliers; equal-width bins put nearly all samples in the first
 * one. Edges are whole numbers (the costs are), so near the minimum several
 * edges may coincide: those bins are one. Returns the number of bins. */
/* b to the power n (n >= 0) by squaring. */
static double ipow(double b, long n)
{
	double r = 1.0;
	for (; n; n >>= 1, b *= b)
		if (n & 1)
			r *= b;
	return r;
}

/* The factor f with f^nbins = range (>= 2), by bisection: the papi binary
 * does without libm, whose loading would cost every command its start-up
 * time (see the README). */
static double bin_factor(double range, long nbins)
{
	double lo = 1.0, hi = range;
	for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
		double mid = (lo + hi) / 2;
		if (ipow(mid, nbins) < range)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

static long cost_hist(const long long *x, long n, long nbins, struct bin *h)
{
	long long min = x[0], max = x[n - 1];
	double range = (double)(max - min) + 2.0, f = bin_factor(range, nbins), edge = 1.0;
	long nb = 0, i = 0;
	long long lo = min;
	for (long k = 1; k <= nbins && lo <= max; k++) {
		edge *= f;	/* range^(k / nbins) */
		long long up = (long long)edge;
		up += (double)up < edge;	/* rounded up */
		long long hi = k == nbins ? max : min - 2 + up;
		if (hi < lo)
			continue;	/* this edge falls where the last one did */
		if (hi > max)
			hi = max;
		h[nb] = (struct bin){ lo, hi, 0 };
		while (i < n && x[i] <= hi)
			h[nb].n++, i++;
		nb++;
		lo = hi + 1;
	}
	return nb;
}

/* cost_sdev: as PAPI's papi_cost -s: how many samples lie more than k
 * standard deviations above the mean, k = 1..NSDEV. */
#define NSDEV 10
static void cost_sdev(const long long *x, long n, const struct stats *s, long above[NSDEV])
{
	for (int k = 0; k < NSDEV; k++) {
		above[k] = 0;
		for (long i = 0; i < n; i++)
			if ((double)x[i] > s->mean + (k + 1) * s->std)
				above[k]++;
	}
}

static void print_stats(const char *op, const char *unit, const struct stats *s, const struct opt *o)
{
	printf("%-10s %-6s min %lld  max %lld  mean %.2f  std %.2f\n", op, unit, s->min, s->max,
	       s->mean, s->std);
	if (o->perc) {
		printf("%17s", "percentiles:");
		for (size_t k = 0; k < NPCTS; k++)
			printf("  %gth %.0f", pcts[k], s->pct[k]);
		putchar('\n');
	}
}

static void json_stats(struct json *j, const char *key, const long long *x, long n,
		       const struct stats *s, const struct opt *o, struct bin *h)
{
	char k[16];
	json_key(j, key);
	json_obj_begin(j);
	json_kint(j, "min", s->min);
	json_kint(j, "max", s->max);
	json_kdouble(j, "mean", s->mean);
	json_kdouble(j, "std", s->std);
	json_key(j, "percentiles");
	json_obj_begin(j);
	for (size_t i = 0; i < NPCTS; i++) {
		snprintf(k, sizeof k, "%g", pcts[i]);
		json_kdouble(j, k, s->pct[i]);
	}
	json_obj_end(j);
	if (o->sdev) {
		long w[NSDEV];
		cost_sdev(x, n, s, w);
		json_key(j, "above_mean_plus_std");
		json_arr_begin(j);
		for (int i = 0; i < NSDEV; i++)
			json_int(j, w[i]);
		json_arr_end(j);
	}
	if (o->hist) {
		long nb = cost_hist(x, n, o->bins, h);
		json_key(j, "histogram");
		json_arr_begin(j);
		for (long i = 0; i < nb; i++) {
			json_obj_begin(j);
			json_kint(j, "from", h[i].lo);
			json_kint(j, "to", h[i].hi);
			json_kint(j, "count", h[i].n);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	json_obj_end(j);
}

static void text_extra(const long long *x, long n, const char *unit, const struct stats *s,
		       const struct opt *o, struct bin *h)
{
	if (o->sdev) {
		long w[NSDEV];
		cost_sdev(x, n, s, w);
		printf("%17s", "above mean+k*std:");
		for (int k = 0; k < NSDEV; k++)
			printf("  %dx %ld", k + 1, w[k]);
		putchar('\n');
	}
	if (o->hist) {
		enum { BAR = 40 };
		long nb = cost_hist(x, n, o->bins, h), top = 1;
		for (long i = 0; i < nb; i++)
			if (h[i].n > top)
				top = h[i].n;
		char label[32];
		snprintf(label, sizeof label, "%s histogram:", unit);
		printf("%17s  %12s %12s %9s %7s\n", label, "from", "to", "samples", "share");
		for (long i = 0; i < nb; i++) {
			if (!h[i].n)
				continue;
			/* at least one mark for a bin that has samples */
			int bar = (int)((h[i].n * BAR + top - 1) / top);
			printf("%17s  %12lld %12lld %9ld %6.2f%%  %.*s\n", "", h[i].lo, h[i].hi,
			       h[i].n, 100.0 * (double)h[i].n / (double)n, bar,
			       "########################################");
		}
	}
}

/* cost_events: the EventSet to measure; fills names ("PAPI_TOT_CYC" ...). */
static int cost_events(char *list, int *es, char *used, size_t len)
{
	int rv = PAPI_create_eventset(es);
	if (rv != PAPI_OK)
		return cli_error(spec.name, "cannot create an EventSet: %s", PAPI_strerror(rv));
	if (!list) {
		if (PAPI_add_named_event(*es, "PAPI_TOT_CYC") == PAPI_OK) {
			snprintf(used, len, "PAPI_TOT_CYC");
			return CLI_OK;
		}
		rv = PAPI_add_named_event(*es, "perf::TASK-CLOCK");
		char why[PAPI_HUGE_STR_LEN];
		if (rv != PAPI_OK)
			return cli_error(spec.name, "cannot count perf::TASK-CLOCK: %s",
					 cli_name_why("perf::TASK-CLOCK", rv, why, sizeof why));
		snprintf(used, len, "perf::TASK-CLOCK");
		return CLI_OK;
	}
	snprintf(used, len, "%s", list);
	int n = 0;
	char *save = list;
	for (char *t = cli_next_event(&save); t; t = cli_next_event(&save)) {
		int code;
		if (++n > MAX_EVENTS)
			return cli_error(spec.name, "at most %d events", MAX_EVENTS);
		char why[PAPI_HUGE_STR_LEN];
		if ((rv = PAPI_event_name_to_code(t, &code)) != PAPI_OK)
			return cli_error(spec.name, "%s: %s", t, cli_name_why(t, rv, why, sizeof why));
		rv = PAPI_add_event(*es, code);
		if (rv != PAPI_OK)
			return cli_error(spec.name, "cannot count %s: %s", t,
					 cli_name_why(t, rv, why, sizeof why));
	}
	return CLI_OK;
}

int cmd_cost(int argc, char **argv)
{
	struct cli_ctx c;
	struct opt o = { .bins = 100, .iters = 10000 };
	char *events = NULL, used[1024];
	int opt, n, es = PAPI_NULL, status;
	long long *cyc = NULL, *ns = NULL;
	struct bin *h = NULL;

	cli_begin(&c, &spec, argc, argv);
	while ((opt = cli_next(&c)) != -1) {
		switch (opt) {
		case 'b':
			if (cli_long_arg(spec.name, c.optword, c.optarg, 1, 1000000, &o.bins))
				return CLI_USAGE;
			break;
		case 't':
			if (cli_long_arg(spec.name, c.optword, c.optarg, 1, 100000000, &o.iters))
				return CLI_USAGE;
			break;
		case 'd':
			o.hist = 1;
			break;
		case 'p':
			o.perc = 1;
			break;
		case 's':
			o.sdev = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'e':
			if (!*c.optarg)
				return cli_usage(spec.name, "empty event list");
			if (events) {
				size_t l = strlen(events) + strlen(c.optarg) + 2;
				char *m = malloc(l);
				if (!m)
					return cli_error(spec.name, "out of memory");
				snprintf(m, l, "%s,%s", events, c.optarg);
				free(events);
				events = m;
			} else if (!(events = strdup(c.optarg))) {
				return cli_error(spec.name, "out of memory");
			}
			break;
		}
	}
	char **ops = cli_operands(&c, &n);
	/* PAPI's papi_cost documents "cost TESTS_QUIET" (and ignores it). */
	if (n == 1 && cli_is_classic(argv) && !strcmp(ops[0], "TESTS_QUIET"))
		n = 0;
	if (n) {
		free(events);
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);
	}

	int rv = PAPI_library_init(PAPI_VER_CURRENT);
	if (rv != PAPI_VER_CURRENT) {
		free(events);
		return cli_error(spec.name, "cannot initialise PAPI: %s", PAPI_strerror(rv));
	}
	event_env_report(spec.name);
	if ((status = cli_can_count(spec.name)) != 0)
		goto done;
	status = cost_events(events, &es, used, sizeof used);
	if (status != CLI_OK)
		goto done;
	cyc = malloc((size_t)o.iters * sizeof *cyc);
	ns = malloc((size_t)o.iters * sizeof *ns);
	h = malloc((size_t)o.bins * sizeof *h);
	if (!cyc || !ns || !h) {
		status = cli_error(spec.name, "out of memory");
		goto done;
	}

	struct json j;
	if (o.json) {
		json_init(&j, stdout, 1);
		json_obj_begin(&j);
		json_kstr(&j, "events", used);
		json_kint(&j, "iterations", o.iters);
		json_key(&j, "operations");
		json_arr_begin(&j);
	} else {
		printf("Cost of PAPI calls over %ld iterations, counting %s\n\n", o.iters, used);
	}
	for (int op = 0; op < NOPS; op++) {
		struct stats sc, sn;
		rv = cost_sample(op, es, PAPI_get_real_cyc, cyc, o.iters);
		if (rv == PAPI_OK)
			rv = cost_sample(op, es, PAPI_get_real_nsec, ns, o.iters);
		if (rv != PAPI_OK) {
			if (o.json)
				json_end(&j);
			status = cli_error(spec.name, "%s failed: %s", op_names[op], cli_reason(rv));
			goto done;
		}
		cost_stats(cyc, o.iters, &sc);
		cost_stats(ns, o.iters, &sn);
		if (o.json) {
			json_obj_begin(&j);
			json_kstr(&j, "operation", op_names[op]);
			json_stats(&j, "cycles", cyc, o.iters, &sc, &o, h);
			json_stats(&j, "nsec", ns, o.iters, &sn, &o, h);
			json_obj_end(&j);
		} else {
			print_stats(op_names[op], "cycles", &sc, &o);
			text_extra(cyc, o.iters, "cycles", &sc, &o, h);
			print_stats("", "nsec", &sn, &o);
			text_extra(ns, o.iters, "nsec", &sn, &o, h);
			putchar('\n');
		}
	}
	if (o.json) {
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
	}
done:
	free(cyc);
	free(ns);
	free(h);
	free(events);
	if (es != PAPI_NULL) {
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	PAPI_shutdown();
	return cli_finish(spec.name, status);
}

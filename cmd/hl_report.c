/* hl_report.c: `papi hl-report`: merge the region API's rank files into a summary or a per-thread detail, with derived metrics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <errno.h>

#include "cli.h"
#include "cmds.h"
#include "hl_report.h"
#include "plot.h"

enum { O_PLOT = CLI_LONG(0) };

static const struct cli_opt opts[] = {
	{ "detail", 'd', no_argument, NULL, "one entry per rank and thread instead of the summary" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ "plot", O_PLOT, required_argument, "FILE",
	  "also draw the regions side by side into FILE, an SVG chart (a panel per metric and event)" },
	{ 0 },
};

static const struct cli_spec spec = {
	"hl-report", "[OPTION]... [DIR|FILE]...",
	"Read the reports the high-level region API wrote (papi_hl_output/rank_*.json,\n"
	"ours or PAPI 7's; default ./papi_hl_output) and print, per region, the counts\n"
	"summed over threads and ranks with their minimum, median and maximum over\n"
	"ranks, and the derived metrics: real and CPU time, IPC, MFLIPS/s, MFLOPS/s\n"
	"(each where its events were counted). SHARE: the part of its enabled time an\n"
	"event's counter really ran (under 100%: multiplexed, scaled; under 10%: an\n"
	"extrapolation, what was really counted beside it).",
	opts, 0,
};

/* The derived metrics of seed 004, Fig. 5, from totals v (NaN: unknown). */
struct derived {
	double real_s, cpu_s, ipc, mflips, mflops;
};

static double get(const struct hlr *r, const double *v, const char *name)
{
	int m = hlr_metric(r, name);
	return m < 0 ? NAN : v[m];
}

static double first_of(const struct hlr *r, const double *v, const char *a, const char *b, const char *c)
{
	double x = get(r, v, a);
	if (isnan(x))
		x = get(r, v, b);
	if (isnan(x))
		x = get(r, v, c);
	return x;
}

/* Whether the event called name counts nanoseconds (the kernel's task and
 * CPU clocks, whatever the spelling and qualifiers): shown as time. */
static int is_clock(const char *name)
{
	static const char *const clocks[] = { "TASK-CLOCK", "CPU-CLOCK", "PERF_COUNT_SW_TASK_CLOCK",
					      "PERF_COUNT_SW_CPU_CLOCK" };
	if (strncasecmp(name, "perf::", 6))
		return 0;
	name += 6;
	size_t n = strcspn(name, ":");
	for (size_t i = 0; i < sizeof clocks / sizeof *clocks; i++)
		if (strlen(clocks[i]) == n && !strncasecmp(name, clocks[i], n))
			return 1;
	return 0;
}

/* The unit of metric m's values in the reports, which the JSON keeps: "ns"
 * for the real time and the clocks, "value" for an instant event, else
 * "count". */
static const char *unit_of(const struct hlr *r, int m)
{
	if (m == HLR_REALNS || is_clock(r->metric[m]))
		return "ns";
	return r->instant[m] ? "value" : "count";
}

/* One column of the event table: a count, or seconds for a clock. */
static void cell(double v, int clock)
{
	if (clock)
		printf(" %14.6f s", v / 1e9);
	else
		printf(" %16.0f", v);
}

/* real_ns: wall time of the region (the longest thread). */
static struct derived derive(const struct hlr *r, const double *v, double real_ns)
{
	struct derived d;
	double ins = get(r, v, "PAPI_TOT_INS"), cyc = get(r, v, "PAPI_TOT_CYC");
	double fpi = first_of(r, v, "PAPI_FP_INS", "PAPI_VEC_DP", "PAPI_VEC_SP");
	double fpo = first_of(r, v, "PAPI_FP_OPS", "PAPI_DP_OPS", "PAPI_SP_OPS");
	d.real_s = real_ns / 1e9;
	d.cpu_s = get(r, v, "perf::TASK-CLOCK") / 1e9;
	d.ipc = cyc > 0 ? ins / cyc : NAN;
	d.mflips = real_ns > 0 ? fpi / (real_ns / 1e3) : NAN;
	d.mflops = real_ns > 0 ? fpo / (real_ns / 1e3) : NAN;
	return d;
}

static void json_derived(struct json *j, const struct derived *d)
{
	const struct {
		const char *k;
		double v;
	} f[] = { { "Real_time_in_s", d->real_s }, { "CPU_time_in_s", d->cpu_s }, { "IPC", d->ipc },
		  { "MFLIPS/s", d->mflips }, { "MFLOPS/s", d->mflops } };
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (!isnan(f[i].v))
			json_kdouble(j, f[i].k, f[i].v);
}

static void put_cell(double v, int width, int prec)
{
	if (isnan(v))
		printf(" %*s", width, "-");
	else
		printf(" %*.*f", width, prec, v);
}

static void text_derived(const struct derived *d)
{
	put_cell(d->real_s, 10, 4);
	put_cell(d->cpu_s, 10, 4);
	put_cell(d->ipc, 6, 2);
	put_cell(d->mflips, 10, 2);
	put_cell(d->mflops, 10, 2);
	putchar('\n');
}

/* How much of the time metric m was really counted in cells[0..n): the
 * kernel's times summed, and what was counted (each cell's value scaled
 * back by its running/enabled). 0 when no cell gives times (older files,
 * PAPI 7.0's, other components), else 1. */
struct share {
	double en, run, counted;
};

static int share_of(const struct hlr_cell *cells, int n, int m, struct share *s)
{
	int any = 0;
	*s = (struct share){ 0, 0, 0 };
	for (int c = 0; c < n; c++) {
		const struct hlr_cell *x = &cells[c];
		if (isnan(x->en[m]) || isnan(x->run[m]) || isnan(x->v[m]))
			continue;
		any = 1;
		s->en += x->en[m];
		s->run += x->run[m];
		s->counted += x->en[m] > 0 && x->run[m] < x->en[m] ? x->v[m] * (x->run[m] / x->en[m]) : x->v[m];
	}
	return any && s->en > 0;
}

static double share_pct(const struct share *s)
{
	return 100.0 * s->run / s->en;
}

/* The share's keys in a JSON object: time_enabled, time_running (ns),
 * running_pct, low_share and, when low (cli_low_share), unscaled: what
 * was really counted. */
static void json_share(struct json *j, const struct share *s)
{
	json_kdouble(j, "time_enabled", s->en);
	json_kdouble(j, "time_running", s->run);
	json_kdouble(j, "running_pct", share_pct(s));
	json_kbool(j, "low_share", cli_low_share(s->en, s->run));
	if (cli_low_share(s->en, s->run))
		json_kdouble(j, "unscaled", cli_round(s->counted));
}

/* The text table's share column, and after a low share what was really
 * counted (seconds for a clock). */
static void text_share(const struct hlr_region *g, int m, int clock)
{
	struct share s;
	if (!share_of(g->cell, g->ncell, m, &s)) {
		printf(" %8s", "-");
		return;
	}
	printf(" %7.2f%%", share_pct(&s));
	if (cli_low_share(s.en, s.run) && clock)
		printf("  (scaled: an extrapolation of %.6f s counted)", s.counted / 1e9);
	else if (cli_low_share(s.en, s.run))
		printf("  (scaled: an extrapolation of %.0f counted)", cli_round(s.counted));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Totals of region g over its cells (instant metrics: largest), per rank
 * into per[rank * nmetric + m] when per is not NULL. */
static void totals(const struct hlr *r, const struct hlr_region *g, double *tot, double *per,
		   long long *count, double *real_ns)
{
	*count = 0;
	*real_ns = NAN;
	for (int m = 0; m < r->nmetric; m++)
		tot[m] = NAN;
	if (per)
		for (int i = 0; i < r->nrank * r->nmetric; i++)
			per[i] = NAN;
	for (int c = 0; c < g->ncell; c++) {
		const struct hlr_cell *x = &g->cell[c];
		*count += x->count;
		for (int m = 0; m < r->nmetric; m++) {
			double v = x->v[m];
			if (isnan(v))
				continue;
			double *slots[2] = { &tot[m], per ? &per[x->rank * r->nmetric + m] : NULL };
			for (int s = 0; s < 2; s++)
				if (slots[s])
					*slots[s] = isnan(*slots[s]) ? v
						  : r->instant[m] ? (v > *slots[s] ? v : *slots[s]) : *slots[s] + v;
		}
		if (!isnan(x->v[HLR_REALNS]) && (isnan(*real_ns) || x->v[HLR_REALNS] > *real_ns))
			*real_ns = x->v[HLR_REALNS];
	}
}

/* min, median and max of metric m over the ranks that have a value. */
static int over_ranks(const struct hlr *r, const double *per, int m, double *tmp, double out[3])
{
	int n = 0;
	for (int k = 0; k < r->nrank; k++)
		if (!isnan(per[k * r->nmetric + m]))
			tmp[n++] = per[k * r->nmetric + m];
	if (!n)
		return 0;
	qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
	out[0] = tmp[0];
	out[1] = n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
	out[2] = tmp[n - 1];
	return n;
}

static int distinct_ranks(const struct hlr *r, const struct hlr_region *g)
{
	int n = 0;
	for (int k = 0; k < r->nrank; k++)
		for (int c = 0; c < g->ncell; c++)
			if (g->cell[c].rank == k) {
				n++;
				break;
			}
	return n;
}

static int summary(const struct hlr *r, int json)
{
	double *tot = calloc((size_t)r->nmetric, sizeof *tot);
	double *per = calloc((size_t)r->nrank * (size_t)r->nmetric + 1, sizeof *per);
	double *tmp = calloc((size_t)r->nrank + 1, sizeof *tmp);
	struct json j;
	if (!tot || !per || !tmp) {
		free(tot), free(per), free(tmp);
		return cli_error(spec.name, "out of memory");
	}
	if (json) {
		json_init(&j, stdout, 1);
		json_obj_begin(&j);
		json_kint(&j, "Number_of_ranks", r->nrank);
		json_kint(&j, "Number_of_threads", r->nthreads);
		json_key(&j, "regions");
		json_obj_begin(&j);
	} else {
		printf("%d rank(s), %lld thread(s)\n\n%-24s %8s %5s %7s %10s %10s %6s %10s %10s\n", r->nrank,
		       r->nthreads, "REGION", "COUNT", "RANKS", "THREADS", "REAL_S", "CPU_S", "IPC", "MFLIPS/S",
		       "MFLOPS/S");
	}
	for (int i = 0; i < r->nregion; i++) {
		const struct hlr_region *g = &r->region[i];
		long long count;
		double real_ns;
		totals(r, g, tot, per, &count, &real_ns);
		struct derived d = derive(r, tot, real_ns);
		int nr = distinct_ranks(r, g);
		if (json) {
			json_key(&j, g->name);
			json_obj_begin(&j);
			json_kint(&j, "Region_count", count);
			json_derived(&j, &d);
			json_kint(&j, "Number_of_ranks", nr);
			json_kint(&j, "Number_of_threads", g->ncell);
			json_kint(&j, "Number_of_processes", nr);
			json_key(&j, "events");
			json_obj_begin(&j);
			for (int m = HLR_REALNS + 1; m < r->nmetric; m++) {
				double mm[3];
				if (isnan(tot[m]) || !over_ranks(r, per, m, tmp, mm))
					continue;
				json_key(&j, r->metric[m]);
				json_obj_begin(&j);
				json_kdouble(&j, "total", tot[m]);
				json_kdouble(&j, "min", mm[0]);
				json_kdouble(&j, "median", mm[1]);
				json_kdouble(&j, "max", mm[2]);
				json_kstr(&j, "unit", unit_of(r, m));
				struct share sh;
				if (share_of(g->cell, g->ncell, m, &sh))
					json_share(&j, &sh);
				json_obj_end(&j);
			}
			json_obj_end(&j);
			json_obj_end(&j);
		} else {
			printf("%-24s %8lld %5d %7d", g->name, count, nr, g->ncell);
			text_derived(&d);
		}
	}
	if (json) {
		json_obj_end(&j);
		json_obj_end(&j);
		if (json_end(&j) < 0)
			fprintf(stderr, "papi hl-report: internal error: unbalanced JSON\n");
	} else {
		printf("\n%-24s %-28s %16s %16s %16s %16s %8s\n", "REGION", "EVENT", "TOTAL", "MIN/RANK",
		       "MEDIAN/RANK", "MAX/RANK", "SHARE");
		for (int i = 0; i < r->nregion; i++) {
			long long count;
			double real_ns, mm[3];
			totals(r, &r->region[i], tot, per, &count, &real_ns);
			for (int m = HLR_REALNS + 1; m < r->nmetric; m++) {
				if (isnan(tot[m]) || !over_ranks(r, per, m, tmp, mm))
					continue;
				int clock = is_clock(r->metric[m]);
				printf("%-24s %-28s", r->region[i].name, r->metric[m]);
				cell(tot[m], clock);
				for (int k = 0; k < 3; k++)
					cell(mm[k], clock);
				text_share(&r->region[i], m, clock);
				putchar('\n');
			}
		}
	}
	free(tot), free(per), free(tmp);
	return CLI_OK;
}

/* --plot: a panel per derived metric and per event, a bar per region. */
static int plot(const struct hlr *r, const char *path)
{
	int n = r->nregion, nm = r->nmetric - HLR_REALNS - 1;
	if (n == 0)
		return cli_error(spec.name, "--plot: no region to draw");
	double *tot = calloc((size_t)r->nmetric, sizeof *tot);
	double *v = calloc((size_t)(5 + (nm > 0 ? nm : 0)) * (size_t)n, sizeof *v);
	struct plot_panel *p = calloc((size_t)(5 + (nm > 0 ? nm : 0)), sizeof *p);
	const char **cats = calloc((size_t)n, sizeof *cats);
	if (!tot || !v || !p || !cats) {
		free(tot), free(v), free(p), free(cats);
		return cli_error(spec.name, "out of memory");
	}
	static const struct {
		const char *title, *unit;
	} dm[5] = { { "real time", "s" }, { "CPU time", "s" }, { "instructions per cycle", "IPC" },
		    { "floating-point instructions", "MFLIPS/s" },
		    { "floating-point operations", "MFLOPS/s" } };
	for (int i = 0; i < n; i++) {
		long long count;
		double real_ns;
		cats[i] = r->region[i].name;
		totals(r, &r->region[i], tot, NULL, &count, &real_ns);
		struct derived d = derive(r, tot, real_ns);
		double dv[5] = { d.real_s, d.cpu_s, d.ipc, d.mflips, d.mflops };
		for (int k = 0; k < 5; k++)
			v[k * n + i] = dv[k];
		for (int m = 0; m < nm; m++)
			v[(5 + m) * n + i] = tot[HLR_REALNS + 1 + m] /
					     (is_clock(r->metric[HLR_REALNS + 1 + m]) ? 1e9 : 1);
	}
	int np = 0;
	for (int k = 0; k < 5 + nm; k++) {
		int any = 0;
		for (int i = 0; i < n; i++)
			any |= !isnan(v[k * n + i]);
		if (!any)
			continue;	/* a metric whose events were not counted */
		p[np].title = k < 5 ? dm[k].title : r->metric[HLR_REALNS + 1 + k - 5];
		p[np].unit = k < 5 ? dm[k].unit
			     : is_clock(p[np].title) ? "s"
			     : r->instant[HLR_REALNS + 1 + k - 5] ? "value" : "count";
		p[np].nlines = 1;
		p[np].y[0] = &v[k * n];
		np++;
	}
	char title[128];
	snprintf(title, sizeof title, "papi hl-report: %d region%s, %d rank%s", n, n == 1 ? "" : "s",
		 r->nrank, r->nrank == 1 ? "" : "s");
	int ret = CLI_FAIL;
	FILE *f = cli_wopen(spec.name, "--plot", path);
	if (f) {
		plot_bars_svg(f, title, NULL, cats, n, p, np);
		ret = cli_wclose(spec.name, "--plot", path, f);
	}
	free(tot), free(v), free(p), free(cats);
	return ret;
}

static int detail(const struct hlr *r, int json)
{
	struct json j;
	if (json) {
		json_init(&j, stdout, 1);
		json_obj_begin(&j);
		json_key(&j, "units");	/* of the values under "events" */
		json_obj_begin(&j);
		for (int m = 0; m < r->nmetric; m++)
			json_kstr(&j, r->metric[m], unit_of(r, m));
		json_obj_end(&j);
		json_key(&j, "ranks");
		json_arr_begin(&j);
	} else {
		printf("%-8s %-6s %-24s %8s %10s %10s %6s %10s %10s\n", "RANK", "THREAD", "REGION", "COUNT", "REAL_S",
		       "CPU_S", "IPC", "MFLIPS/S", "MFLOPS/S");
	}
	for (int k = 0; k < r->nrank; k++) {
		if (json) {
			json_obj_begin(&j);
			json_kint(&j, "rank", r->ranks[k]);
			json_key(&j, "regions");
			json_arr_begin(&j);
		}
		for (int i = 0; i < r->nregion; i++)
			for (int c = 0; c < r->region[i].ncell; c++) {
				const struct hlr_cell *x = &r->region[i].cell[c];
				if (x->rank != k)
					continue;
				struct derived d = derive(r, x->v, x->v[HLR_REALNS]);
				if (!json) {
					printf("%-8lld %-6lld %-24s %8lld", r->ranks[k], x->thread, r->region[i].name,
					       x->count);
					text_derived(&d);
					continue;
				}
				json_obj_begin(&j);
				json_kstr(&j, "region", r->region[i].name);
				json_kint(&j, "thread", x->thread);
				json_kint(&j, "Region_count", x->count);
				json_derived(&j, &d);
				json_key(&j, "events");
				json_obj_begin(&j);
				for (int m = 0; m < r->nmetric; m++)
					if (!isnan(x->v[m]))
						json_kdouble(&j, r->metric[m], x->v[m]);
				json_obj_end(&j);
				json_key(&j, "shares");	/* of the events with times */
				json_obj_begin(&j);
				for (int m = 0; m < r->nmetric; m++) {
					struct share sh;
					if (!share_of(x, 1, m, &sh))
						continue;
					json_key(&j, r->metric[m]);
					json_obj_begin(&j);
					json_share(&j, &sh);
					json_obj_end(&j);
				}
				json_obj_end(&j);
				json_obj_end(&j);
			}
		if (json) {
			json_arr_end(&j);
			json_obj_end(&j);
		}
	}
	if (json) {
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
	}
	return CLI_OK;
}

int cmd_hl_report(int argc, char **argv)
{
	struct cli_ctx c;
	int o, json = 0, det = 0, n, ret;
	const char *plot_path = NULL;
	char err[1024];

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1) {
		switch (o) {
		case 'd':
			det = 1;
			break;
		case 'j':
			json = 1;
			break;
		case O_PLOT:
			if (cli_plot_arg(spec.name, c.optarg) < 0)
				return CLI_USAGE;
			plot_path = c.optarg;
			break;
		}
	}
	char **paths = cli_operands(&c, &n);
	static char *dflt[] = { "papi_hl_output" };
	if (n == 0)
		paths = dflt, n = 1;
	struct hlr r;
	hlr_init(&r);
	for (int i = 0; i < n; i++)
		if (hlr_load_path(&r, paths[i], err, sizeof err) < 0) {
			hlr_free(&r);
			return cli_error(spec.name, "%s", err);
		}
	ret = det ? detail(&r, json) : summary(&r, json);
	if (plot_path && ret == CLI_OK)
		ret = plot(&r, plot_path);
	hlr_free(&r);
	return cli_finish(spec.name, ret);
}

/* t_sim_topdown.c: the TOPDOWN and TOPDOWN_L2 metric groups on simulated Intel (skx, hsw, icx, spr), Neoverse N1 and AMD Zen 4 PMUs: each event's rate set here, each metric checked against the documented formula applied to those rates. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/metrics.c"
#include "sim/sim_pmu.h"
#include "tap.h"
#include "pmu_child.h"

/* metrics.c reports group-file problems through the CLI's messages. */
int cli_error(const char *cmd, const char *fmt, ...)
{
	(void)cmd;
	(void)fmt;
	return 1;
}

#define CYCLES 1000000ull	/* 1 ms of the simulated 1 GHz CPU */

/* An event's count per 1000 cycles. */
struct rate {
	const char *name;
	uint64_t per_kcycle;
};

/* One PMU: the events' rates, and each metric's value (in %) that TMA's
 * formula gives for them, worked out below from the same rates. */
struct want {
	const char *metric;
	double pct;
};
struct pmu_case {
	int line;
	const char *pmu;
	int levels;		/* 1: TOPDOWN only, 2: TOPDOWN_L2 too */
	struct rate rate[12];
	struct want want[16];
};

/* The metrics of level 1, which sum to 100 %. */
static int level1(const char *metric)
{
	static const char *const l1[] = { "frontend_bound", "bad_speculation", "backend_bound", "retiring",
					  "smt_contention" };
	for (size_t i = 0; i < sizeof l1 / sizeof *l1; i++)
		if (!strcmp(metric, l1[i]))
			return 1;
	return 0;
}

/* Events whose rate is declared at the raw encoding (PERF_TYPE_RAW) AMD's
 * PPR gives them, not at what the library makes of their names: event bits
 * 7:0 at config 7:0 and 11:8 at 35:32, the unit mask at 15:8. */
static const struct {
	const char *name;
	uint64_t config;
} amd_raw[] = {
	{ "CYCLES_NOT_IN_HALT", 0x76 },
	{ "RETIRED_OPS", 0xc1 },
	{ "cpu/event=0x1a0,umask=0x01/", 0x1000001a0 },
	{ "cpu/event=0x1a0,umask=0x1e/", 0x100001ea0 },
	{ "cpu/event=0x1a0,umask=0x60/", 0x1000060a0 },
	{ "cpu/event=0xaa,umask=0x07/", 0x7aa },
};

/* Haswell-Cascade Lake, 4 slots a cycle, per 1000 cycles: slots 4000,
 * FE = IDQ_UOPS_NOT_DELIVERED.CORE / slots = 600 / 4000 = 15 %;
 * BadSpec = (UOPS_ISSUED.ANY - RETIRE_SLOTS + 4 * RECOVERY_CYCLES) / slots
 *         = (2400 - 2000 + 200) / 4000 = 15 %;
 * Retiring = 2000 / 4000 = 50 %; BE = 1 - FE - (2400 + 200) / 4000 = 20 %.
 * Fetch_Latency = 4 * CYCLES_0_UOPS_DELIV.CORE / slots = 400 / 4000 = 10 %,
 * Fetch_Bandwidth = FE - 10 % = 5 %; Branch_Mispredicts = BadSpec *
 * BR_MISP / (BR_MISP + MACHINE_CLEARS) = 15 % * 30 / 40 = 11.25 %;
 * Machine_Clears = 15 % - 11.25 % = 3.75 %. */
#define SKX_RATES { "UNHALTED_CORE_CYCLES", 1000 }, { "IDQ_UOPS_NOT_DELIVERED:CORE", 600 }, \
	{ "UOPS_ISSUED:ANY", 2400 }, { "UOPS_RETIRED:RETIRE_SLOTS", 2000 }, \
	{ "INT_MISC:RECOVERY_CYCLES", 50 }, { "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", 100 }, \
	{ "BR_MISP_RETIRED:ALL_BRANCHES", 30 }, { "MACHINE_CLEARS:COUNT", 10 }
#define SKX_WANT { "frontend_bound", 15 }, { "bad_speculation", 15 }, { "backend_bound", 20 }, \
	{ "retiring", 50 }, { "fetch_latency", 10 }, { "fetch_bandwidth", 5 }, \
	{ "branch_mispredicts", 11.25 }, { "machine_clears", 3.75 }

static const struct pmu_case cases[] = {
	{ __LINE__, "skx", 2, { SKX_RATES }, { SKX_WANT } },
	{ __LINE__, "hsw", 2, { SKX_RATES }, { SKX_WANT } },
	/* Ice Lake-SP, per 1000 cycles: TOPDOWN.SLOTS 5000;
	 * FE = (IDQ_UOPS_NOT_DELIVERED.CORE - INT_MISC.UOP_DROPPING) / slots
	 *    = (900 - 100) / 5000 = 16 %;
	 * BE = (TOPDOWN.BACKEND_BOUND_SLOTS + 5 * INT_MISC.CLEARS_COUNT) / slots
	 *    = (1000 + 200) / 5000 = 24 %;
	 * Retiring = UOPS_RETIRED.SLOTS / slots = 2500 / 5000 = 50 %;
	 * BadSpec = max(1 - FE - BE - Retiring, 0) = 10 %.
	 * Fetch_Latency = (5 * CYCLES_0_UOPS_DELIV.CORE - UOP_DROPPING) / slots
	 *    = (600 - 100) / 5000 = 10 %; Fetch_Bandwidth = 16 - 10 = 6 %;
	 * Branch_Mispredicts = 10 % * 30 / (30 + 10) = 7.5 %; Machine_Clears 2.5 %. */
	{ __LINE__, "icx", 2,
	  { { "TOPDOWN:SLOTS", 5000 }, { "IDQ_UOPS_NOT_DELIVERED:CORE", 900 }, { "INT_MISC:UOP_DROPPING", 100 },
	    { "TOPDOWN:BACKEND_BOUND_SLOTS", 1000 }, { "INT_MISC:CLEARS_COUNT", 40 },
	    { "UOPS_RETIRED:SLOTS", 2500 }, { "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", 120 },
	    { "BR_MISP_RETIRED:ALL_BRANCHES", 30 }, { "MACHINE_CLEARS:COUNT", 10 } },
	  { { "frontend_bound", 16 }, { "bad_speculation", 10 }, { "backend_bound", 24 }, { "retiring", 50 },
	    { "fetch_latency", 10 }, { "fetch_bandwidth", 6 }, { "branch_mispredicts", 7.5 },
	    { "machine_clears", 2.5 } } },
	/* Sapphire Rapids, per 1000 cycles: TOPDOWN.SLOTS 6000;
	 * FE = (1300 - 100) / 6000 = 20 %; BE = BACKEND_BOUND_SLOTS / slots =
	 * 1500 / 6000 = 25 %; Retiring = 2400 / 6000 = 40 %; BadSpec = 15 %.
	 * Fetch_Latency = (6 * 150 - 100) / 6000 = 13.33 %, Fetch_Bandwidth
	 * 6.67 %; Branch_Mispredicts = BR_MISPREDICT_SLOTS / slots = 450 / 6000
	 * = 7.5 %, Machine_Clears = 15 - 7.5 = 7.5 %; Memory_Bound =
	 * MEMORY_BOUND_SLOTS / slots = 900 / 6000 = 15 %, Core_Bound = 25 - 15 =
	 * 10 %; Heavy_Operations = UOPS_RETIRED.HEAVY / slots = 600 / 6000 = 10 %,
	 * Light_Operations = 40 - 10 = 30 %. */
	{ __LINE__, "spr", 2,
	  { { "TOPDOWN:SLOTS", 6000 }, { "IDQ_UOPS_NOT_DELIVERED:CORE", 1300 }, { "INT_MISC:UOP_DROPPING", 100 },
	    { "TOPDOWN:BACKEND_BOUND_SLOTS", 1500 }, { "TOPDOWN:MEMORY_BOUND_SLOTS", 900 },
	    { "TOPDOWN:BR_MISPREDICT_SLOTS", 450 }, { "UOPS_RETIRED:SLOTS", 2400 },
	    { "UOPS_RETIRED:HEAVY", 600 }, { "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", 150 } },
	  { { "frontend_bound", 20 }, { "bad_speculation", 15 }, { "backend_bound", 25 }, { "retiring", 40 },
	    { "fetch_latency", 800.0 / 60 }, { "fetch_bandwidth", 400.0 / 60 }, { "branch_mispredicts", 7.5 },
	    { "machine_clears", 7.5 }, { "memory_bound", 15 }, { "core_bound", 10 },
	    { "heavy_operations", 10 }, { "light_operations", 30 } } },
	/* Neoverse N1, by cycles, per 1000: FE = STALL_FRONTEND / CPU_CYCLES =
	 * 20 %; BE = STALL_BACKEND / CPU_CYCLES = 30 %; the 50 % that issued
	 * split by INST_RETIRED / INST_SPEC = 400 / 500: Retiring 40 %,
	 * BadSpec 10 %. No level 2. */
	{ __LINE__, "arm_n1", 1,
	  { { "CPU_CYCLES", 1000 }, { "STALL_FRONTEND", 200 }, { "STALL_BACKEND", 300 },
	    { "INST_RETIRED", 400 }, { "INST_SPEC", 500 } },
	  { { "frontend_bound", 20 }, { "bad_speculation", 10 }, { "backend_bound", 30 }, { "retiring", 40 },
	    { "retiring_and_bad_speculation", 50 } } },
	/* Zen 4, 6 dispatch slots a cycle not halted (PMCx076), per 1000
	 * cycles: slots 6000. FE = PMCx1A0 umask 0x01 / slots = 900 / 6000 =
	 * 15 %; BE = PMCx1A0 umask 0x1E / slots = 1800 / 6000 = 30 %;
	 * SMT contention = PMCx1A0 umask 0x60 / slots = 300 / 6000 = 5 %;
	 * Retiring = PMCx0C1 / slots = 2400 / 6000 = 40 %; BadSpec = (PMCx0AA
	 * umask 0x07 - PMCx0C1) / slots = (3000 - 2400) / 6000 = 10 %.
	 * No level 2. */
	{ __LINE__, "amd64_fam19h_zen4", 1,
	  { { "CYCLES_NOT_IN_HALT", 1000 }, { "cpu/event=0x1a0,umask=0x01/", 900 },
	    { "cpu/event=0x1a0,umask=0x1e/", 1800 }, { "cpu/event=0x1a0,umask=0x60/", 300 },
	    { "cpu/event=0xaa,umask=0x07/", 3000 }, { "RETIRED_OPS", 2400 } },
	  { { "frontend_bound", 15 }, { "bad_speculation", 10 }, { "backend_bound", 30 }, { "retiring", 40 },
	    { "smt_contention", 5 } } },
};

/* The count of event name over CYCLES simulated cycles, in an EventSet of
 * its own; -1 when it cannot be counted. */
static long long count_one(const char *name)
{
	int es = PAPI_NULL, code;
	long long v = -1;
	if (mg_resolve(name, &code) != PAPI_OK || PAPI_create_eventset(&es) != PAPI_OK)
		return -1;
	if (PAPI_add_event(es, code) == PAPI_OK && PAPI_start(es) == PAPI_OK) {
		sim_advance(CYCLES);
		if (PAPI_stop(es, &v) != PAPI_OK)
			v = -1;
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return v;
}

/* In a child with a fresh libpfm4: the PMU forced, each event of the case
 * declared at its rate, the two groups' metrics computed from the counts
 * and written to fd, "METRIC VALUE" a line ("METRIC nan" when not). */
static void child(const void *ctx, int fd)
{
	const struct pmu_case *c = ctx;
	setenv("LIBPFM_FORCE_PMU", c->pmu, 1);
	struct sim_config cfg = sim_default_config();
	sim_install(&cfg);
	int amd = !strncmp(c->pmu, "amd64_", 6);
	/* AMD's cpu PMU: the event code split, as the kernel's format files say */
	if (amd && (sim_sysfs_write("cpu/format/event", "config:0-7,32-35") < 0 ||
		    sim_sysfs_write("cpu/format/umask", "config:8-15") < 0))
		dprintf(fd, "! cannot write the cpu PMU's format files\n");
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		dprintf(fd, "! init failed\n");
		_exit(1);
	}
	for (int i = 0; i < 12 && c->rate[i].name; i++) {
		int code;
		const struct native *n;
		uint64_t raw = 0;
		for (size_t k = 0; amd && k < sizeof amd_raw / sizeof *amd_raw; k++)
			if (!strcmp(amd_raw[k].name, c->rate[i].name))
				raw = amd_raw[k].config;
		if (raw) {
			sim_event(PERF_TYPE_RAW, raw, 0, c->rate[i].per_kcycle, 1000);
			continue;
		}
		if (mg_resolve(c->rate[i].name, &code) != PAPI_OK ||
		    !(n = native_get(code & PAPI_NATIVE_AND_MASK))) {
			dprintf(fd, "! %s does not resolve\n", c->rate[i].name);
			continue;
		}
		sim_event(n->attr.type, n->attr.config, 0, c->rate[i].per_kcycle, 1000);
	}
	static const char *const groups[] = { "TOPDOWN", "TOPDOWN_L2" };
	for (int k = 0; k < c->levels; k++) {
		const struct mgroup *g = mgroups_find(groups[k]);
		struct mg_pick pick[MGROUP_MAX_EVENTS];
		double v[MGROUP_MAX_EVENTS];
		if (!g || mg_pick_all(g, pick) < 0) {
			dprintf(fd, "! no group %s\n", groups[k]);
			continue;
		}
		for (int i = 0; i < g->nev; i++) {
			long long x = pick[i].alt >= 0 ? count_one(g->ev[i].alt[pick[i].alt]) : -1;
			v[i] = x >= 0 ? (double)x : NAN;
		}
		for (int m = 0; m < g->nmet; m++)
			dprintf(fd, "%s %.17g\n", g->met[m].name, mg_value(g, &g->met[m], v, 1e-3));
		mg_picks_free(g, pick);
	}
	dprintf(fd, "open %d\n", sim_open_count());
	PAPI_shutdown();
	sim_uninstall();
	_exit(0);
}

/* The value of metric in the child's lines, NAN when it is not there. */
static double got(const char *out, const char *metric)
{
	size_t n = strlen(metric);
	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, metric, n) && l[n] == ' ')
			return strtod(l + n + 1, NULL);
	return NAN;
}

int main(void)
{
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const struct pmu_case *c = &cases[k];
		char out[8192], what[64];
		int status;
		snprintf(what, sizeof what, "line %d: top-down groups on a simulated %s PMU", c->line, c->pmu);
		if (pmu_tables_missing(c->pmu, what))
			continue;
		if (!ok(pmu_child_run(child, c, out, sizeof out, &status) == 0 && WIFEXITED(status) &&
			WEXITSTATUS(status) == 0 && !strchr(out, '!'),
			"line %d: %s: the child counted the groups' events", c->line, c->pmu)) {
			diag("%s", out);
			continue;
		}
		double l1 = 0;
		for (int i = 0; i < 16 && c->want[i].metric; i++) {
			double x = got(out, c->want[i].metric);
			ok(fabs(x - c->want[i].pct) <= 1e-9 * 100, "line %d: %s: %s = %.4g %% (got %.6g)", c->line,
			   c->pmu, c->want[i].metric, c->want[i].pct, x);
			if (level1(c->want[i].metric))
				l1 += x;
		}
		ok(fabs(l1 - 100) <= 1e-9 * 100, "line %d: %s: level 1 sums to 100 %% (%.12g)", c->line, c->pmu, l1);
		ok(got(out, "open") == 0, "line %d: %s: no counter stays open", c->line, c->pmu);
		if (c->levels == 1)
			ok(!strstr(out, "fetch_latency"), "line %d: %s: no level 2", c->line, c->pmu);
	}
	return tap_done();
}

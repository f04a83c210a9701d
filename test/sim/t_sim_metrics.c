/* t_sim_metrics.c: metric groups on hardware events, on a simulated skx PMU: the alternatives picked, the counts, and the metrics computed from them. */
#include <math.h>
#include <stdarg.h>
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

/* Count g's picked events over cycles simulated cycles into v[] (NAN for
 * an event not counted). 0, or -1 when the set cannot be made. */
static int count(const struct mgroup *g, const struct mg_pick *pick, uint64_t cycles, double *v)
{
	int es = PAPI_NULL, idx[MGROUP_MAX_EVENTS], n = 0;
	long long c[MGROUP_MAX_EVENTS];
	if (PAPI_create_eventset(&es) != PAPI_OK)
		return -1;
	for (int i = 0; i < g->nev; i++) {
		idx[i] = -1;
		if (pick[i].ok && PAPI_add_event(es, pick[i].code) == PAPI_OK)
			idx[i] = n++;
	}
	int ret = n ? PAPI_start(es) : PAPI_ENOEVNT;
	sim_advance(cycles);
	if (ret == PAPI_OK)
		ret = PAPI_stop(es, c);
	for (int i = 0; i < g->nev; i++)
		v[i] = idx[i] >= 0 && ret == PAPI_OK ? (double)c[idx[i]] : NAN;
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return ret == PAPI_OK || n == 0 ? 0 : -1;
}

static const struct mgroup_metric *metric(const struct mgroup *g, const char *name)
{
	for (int i = 0; i < g->nmet; i++)
		if (!strcmp(g->met[i].name, name))
			return &g->met[i];
	return NULL;
}

/* (group, metric, value after 1,000,000 cycles = 1 ms of the simulated
 * 1 GHz CPU; NAN: it cannot be computed here) */
static const struct {
	int line;
	const char *group, *metric;
	double want;
} rows[] = {
	/* PAPI_TOT_CYC 1 per cycle, PAPI_TOT_INS 2 per cycle */
	{ __LINE__, "CPI", "ipc", 2.0 },
	{ __LINE__, "CPI", "cpi", 0.5 },
	/* the task clock is a perf:: event, hidden under LIBPFM_FORCE_PMU */
	{ __LINE__, "CPI", "clock_rate", NAN },
	/* BR_INST_RETIRED:ALL_BRANCHES 1 per 5 cycles; PAPI_BR_MSP undeclared: 1 per cycle */
	{ __LINE__, "BRANCH", "branch_rate", 0.1 },
	{ __LINE__, "BRANCH", "instructions_per_branch", 10.0 },
	/* Intel's FLOPS_DP: four FP_ARITH events, undeclared: 1 per cycle each */
	{ __LINE__, "FLOPS_DP", "dp_mflops", (1 + 2 + 4 + 8) * 1e6 / 1e-3 / 1e6 },
	{ __LINE__, "FLOPS_DP", "avx512_dp_mflops", 8e6 / 1e-3 / 1e6 },
	{ __LINE__, "FLOPS_DP", "dp_vectorization_ratio", 75.0 },
	/* skx's memory controllers are uncore PMUs this machine lacks */
	{ __LINE__, "MEM", "mem_bandwidth", NAN },
};

int main(void)
{
	if (pmu_tables_missing("skx", "metric groups on a simulated skx PMU"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	struct sim_config c = sim_default_config();
	sim_install(&c);
	sim_declare_skx();
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init on the simulated PMU");
	for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		const struct mgroup *g = mgroups_find(rows[r].group);
		const struct mgroup_metric *m = g ? metric(g, rows[r].metric) : NULL;
		if (!ok(m != NULL, "line %d: %s has %s", rows[r].line, rows[r].group, rows[r].metric))
			continue;
		struct mg_pick pick[MGROUP_MAX_EVENTS];
		double v[MGROUP_MAX_EVENTS];
		is_int(mg_pick_all(g, pick), 0, "line %d: events picked", rows[r].line);
		ok(count(g, pick, 1000000, v) == 0, "line %d: counted", rows[r].line);
		double got = mg_value(g, m, v, 1e-3);
		int miss = mg_missing(g, m, pick);
		if (isnan(rows[r].want)) {
			ok(isnan(got) && miss >= 0 && pick[miss].why, "line %d: %s cannot be computed: %s lacks %s (%s)",
			   rows[r].line, rows[r].metric, rows[r].group, miss >= 0 ? g->ev[miss].alias : "-",
			   miss >= 0 && pick[miss].why ? pick[miss].why : "no reason");
		} else {
			ok(miss < 0 && fabs(got - rows[r].want) <= 1e-9 * rows[r].want,
			   "line %d: %s.%s = %g (got %g)", rows[r].line, rows[r].group, rows[r].metric,
			   rows[r].want, got);
		}
		mg_picks_free(g, pick);
	}
	is_int(sim_open_count(), 0, "no counter stays open");
	PAPI_shutdown();
	sim_uninstall();
	return tap_done();
}

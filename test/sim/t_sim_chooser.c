/* t_sim_chooser.c: papi chooser's grouping and conflict reasons on a simulated skx PMU with counter constraints. */
#include <stdlib.h>
#include <string.h>

#include "../../cmd/chooser_bundles.c"
#include "sim/sim_pmu.h"
#include "tap.h"
#include "pmu_child.h"

#define CYC 0x3c	/* UNHALTED_CORE_CYCLES: fixed 1 or any general */
#define INS 0xc0	/* INST_RETIRED:ANY_P: fixed 0 or any general */
#define BR 0xc4		/* BR_INST_RETIRED:ALL_BRANCHES: any general */
#define STALL 0xc000ca3	/* CYCLE_ACTIVITY:STALLS_L1D_MISS: counter 2 only */
#define L1HIT 0x1d1	/* MEM_LOAD_RETIRED:L1_HIT: counter 2 only here */

static const char *const names[] = {
	"skx::UNHALTED_CORE_CYCLES", "skx::CYCLE_ACTIVITY:STALLS_L1D_MISS",
	"skx::MEM_LOAD_RETIRED:L1_HIT", "skx::INST_RETIRED:ANY_P", "skx::BR_INST_RETIRED:ALL_BRANCHES",
};
enum { I_CYC, I_STALL, I_L1HIT, I_INS, I_BR, N };

static int codes[N];

static void resolve(void)
{
	for (int i = 0; i < N; i++)
		is_int(PAPI_event_name_to_code(names[i], &codes[i]), PAPI_OK, "code of %s", names[i]);
}

static void groups(void)
{
	int group[N], bad = -1;
	/* table rows: event order, expected sets and set of each event */
	static const struct {
		int line, order[N], n, sets, want[N];
	} rows[] = {
		{ __LINE__, { I_CYC, I_STALL, I_L1HIT, I_INS, I_BR }, 5, 2, { 0, 0, 1, 0, 0 } },
		{ __LINE__, { I_STALL, I_L1HIT }, 2, 2, { 0, 1 } },
		{ __LINE__, { I_CYC, I_INS, I_BR }, 3, 1, { 0, 0, 0 } },
		{ __LINE__, { I_L1HIT, I_CYC, I_STALL }, 3, 2, { 0, 0, 1 } },
	};
	for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		int c[N];
		for (int i = 0; i < rows[r].n; i++)
			c[i] = codes[rows[r].order[i]];
		int ns = chooser_bundles(c, rows[r].n, group, &bad);
		is_int(ns, rows[r].sets, "line %d: number of sets", rows[r].line);
		ok(ns < 0 || memcmp(group, rows[r].want, (size_t)rows[r].n * sizeof *group) == 0,
		   "line %d: each event in its first-fit set", rows[r].line);
		is_int(sim_open_count(), 0, "line %d: no counter stays open", rows[r].line);
	}
}

static void sets_and_reasons(void)
{
	int bad = -1, pair[2] = { codes[I_STALL], codes[I_L1HIT] };
	int es = chooser_set(pair, 2, &bad);
	is_int(es, PAPI_ECNFLCT, "two counter-2-only events cannot share a set");
	is_int(bad, 1, "the second one is named as the one that failed");
	is_int(sim_open_count(), 0, "and nothing stays open");

	int given[2] = { codes[I_CYC], codes[I_STALL] };
	es = chooser_set(given, 2, &bad);
	ok(es >= 0, "cycles and the stall event count together");
	int rv = PAPI_add_event(es, codes[I_L1HIT]);
	is_int(rv, PAPI_ECNFLCT, "the L1 hit event conflicts with them");
	char why[256];
	chooser_why(rv, codes[I_L1HIT], given, 2, why, sizeof why);
	is_str(why, "counter conflict with skx::CYCLE_ACTIVITY:STALLS_L1D_MISS",
	       "the reason names the given event it conflicts with");
	is_int(PAPI_add_event(es, codes[I_BR]), PAPI_OK, "branches still fit");
	chooser_drop(es);
	is_int(sim_open_count(), 0, "chooser_drop closes everything");
}

int main(void)
{
	if (pmu_tables_missing("skx", "the chooser on a simulated skx PMU"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	native_names_qualified(1);	/* as the papi tool's main: events keep their PMU */
	struct sim_config c = sim_default_config();
	sim_install(&c);
	sim_event(PERF_TYPE_RAW, CYC, SIM_FIXED(1) | SIM_ANY_GP, 1, 1);
	sim_event(PERF_TYPE_RAW, INS, SIM_FIXED(0) | SIM_ANY_GP, 2, 1);
	sim_event(PERF_TYPE_RAW, BR, SIM_ANY_GP, 1, 5);
	sim_event(PERF_TYPE_RAW, STALL, SIM_GP(2), 1, 10);
	sim_event(PERF_TYPE_RAW, L1HIT, SIM_GP(2), 1, 3);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init on the simulated PMU");
	resolve();
	groups();
	sets_and_reasons();
	PAPI_shutdown();
	sim_uninstall();
	return tap_done();
}

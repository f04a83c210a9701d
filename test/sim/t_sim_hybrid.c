/* t_sim_hybrid.c: libpapi on a simulated hybrid machine (cpu_core + cpu_atom, no "cpu" PMU): which kernel PMU a core event goes to, and presets counting there. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sim/sim_pmu.h"
#include "tap.h"
#include "pmu_child.h"

/* skx encodings; on the simulated hybrid the P-core PMU is cpu_core (type
 * 4 = PERF_TYPE_RAW), the E-core PMU cpu_atom (type 10). */
#define CYC 0x3c	/* UNHALTED_CORE_CYCLES */
#define INS 0xc0	/* INST_RETIRED:ANY_P */
#define BR 0xc4		/* BR_INST_RETIRED:ALL_BRANCHES */

/* Presets from the skx table on the P-core PMU of a hybrid: libpfm4 names
 * skx events, the kernel has no "cpu" PMU, so the counters must be opened
 * on cpu_core and count exactly. */
static void presets_on_core(void)
{
	sim_event(PERF_TYPE_RAW, CYC, SIM_FIXED(1) | SIM_ANY_GP, 1, 1);
	sim_event(PERF_TYPE_RAW, INS, SIM_FIXED(0) | SIM_ANY_GP, 3, 1);
	sim_event(PERF_TYPE_RAW, BR, SIM_ANY_GP, 1, 4);
	/* the E-core counts differently: a PMU mix-up would show in the values */
	sim_event(10, CYC, SIM_ANY_GP, 7, 1);
	sim_event(10, INS, SIM_ANY_GP, 11, 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init on a simulated hybrid");
	is_int(PAPI_query_event(PAPI_TOT_CYC), PAPI_OK, "PAPI_TOT_CYC is available");
	is_int(PAPI_query_event(PAPI_TOT_INS), PAPI_OK, "PAPI_TOT_INS is available");
	int es = PAPI_NULL;
	long long v[3] = { 0 };
	PAPI_create_eventset(&es);
	is_int(PAPI_add_event(es, PAPI_TOT_CYC), PAPI_OK, "add PAPI_TOT_CYC");
	is_int(PAPI_add_event(es, PAPI_TOT_INS), PAPI_OK, "add PAPI_TOT_INS");
	is_int(PAPI_add_event(es, PAPI_BR_INS), PAPI_OK, "add PAPI_BR_INS");
	is_int(PAPI_start(es), PAPI_OK, "start");
	sim_advance(4000000);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[0] == 4000000 && v[1] == 12000000 && v[2] == 1000000,
	   "the presets count on cpu_core, exactly: %lld %lld %lld", v[0], v[1], v[2]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	is_int(sim_open_count(), 0, "no counter left open");
}

/* An event the P-core PMU refuses (ENOENT) but the E-core PMU has is not
 * quietly moved to cpu_atom, whose encodings differ: the add fails. */
static void atom_only(void)
{
	sim_event_refuse(PERF_TYPE_RAW, CYC, ENOENT);
	sim_event(10, CYC, SIM_ANY_GP, 1, 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init again");
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	int r = PAPI_add_named_event(es, "skx::UNHALTED_CORE_CYCLES");
	is_int(r, PAPI_ENOEVNT, "a core event cpu_core lacks is refused");
	is_int(PAPI_num_events(es), 0, "and the set stays empty");
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
}

int main(void)
{
	if (pmu_tables_missing("skx", "presets on a simulated hybrid PMU"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	struct sim_config c = sim_hybrid_config();
	sim_install(&c);
	presets_on_core();
	sim_uninstall();
	sim_install(&c);
	atom_only();
	sim_uninstall();
	/* Counting on the E-cores needs libpfm4's Gracemont table (adl_grt),
	 * which this libpfm4 does not have: nothing can name an atom event. */
	skip("this libpfm4 has no hybrid (adl_glc/adl_grt) tables", "presets counting on the E-core PMU");
	return tap_done();
}

/* t_sim_hl.c: the region API on a simulated skx PMU whose counters the kernel multiplexes: each region event's time enabled and running. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "6-api/hl.h"
#include "sim/sim_pmu.h"
#include "tap.h"
#include "pmu_child.h"

/* Ten sets each filling the four general counters, and the region API's
 * one event that needs a general counter too: eleven groups take turns,
 * each tick the next, so the region's event runs 1/11 of the time. */
#define NBUSY 10
#define EV "skx::BR_INST_RETIRED:ALL_BRANCHES"	/* 1 per 5 cycles */

static const char *const busy_ev[4] = { "skx::L2_RQSTS:MISS", "skx::UOPS_ISSUED:ANY",
					"skx::MEM_LOAD_RETIRED:L1_HIT", "skx::BR_INST_RETIRED:ALL_BRANCHES" };

int main(void)
{
	if (pmu_tables_missing("skx", "the region API on a simulated skx PMU"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	setenv("PAPI_HL_LAYOUT", "aggregated", 1);
	char dir[] = "/tmp/papi-t_sim_hl.XXXXXX";	/* where the report goes at shutdown */
	if (!mkdtemp(dir))
		return ok(0, "mkdtemp"), tap_done();
	setenv("PAPI_OUTPUT_DIRECTORY", dir, 1);
	struct sim_config c = sim_default_config();
	sim_install(&c);
	sim_declare_skx();
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init on the simulated PMU");
	int busy[NBUSY];
	for (int b = 0; b < NBUSY; b++) {
		busy[b] = PAPI_NULL;
		PAPI_create_eventset(&busy[b]);
		for (int i = 0; i < 4; i++)
			PAPI_add_named_event(busy[b], busy_ev[i]);
		if (PAPI_start(busy[b]) != PAPI_OK)
			diag("busy set %d did not start: %s", b, papi_last_reason());
	}
	is_int(PAPI_hl_set_events(EV), PAPI_OK, "the region API counts " EV);
	/* the region twice: its times are summed over both calls */
	uint64_t cycles = 4000000ull * 11 * 20;	/* 20 turns of the eleven */
	for (int k = 0; k < 2; k++) {
		is_int(PAPI_hl_region_begin("mpx"), PAPI_OK, "begin %d", k);
		sim_advance(cycles);
		is_int(PAPI_hl_region_end("mpx"), PAPI_OK, "end %d", k);
	}
	struct hl_thread *t = atomic_load(&hl_threads);
	ok(t && hl_nev == 1 && atomic_load(&t->nreg) == 1, "one thread, one event, one region");
	if (t && hl_nev == 1 && atomic_load(&t->nreg) == 1) {
		const long long *v = hl_region_at(t, 0)->val;
		long long en = v[hl_en(0)], run = v[hl_run(0)], want = (long long)(2 * cycles);
		/* the simulated CPU runs 1 cycle a ns: enabled is the regions'
		 * cycles, running one tick in eleven of them (a tick either way
		 * at the edges of each call) */
		ok(en == want, "enabled %lld ns: the 2 x %llu cycles of the regions", en, (unsigned long long)cycles);
		ok(run >= want / 11 - 2 * 4000000 && run <= want / 11 + 2 * 4000000,
		   "running %lld ns: about a turn in eleven (%lld)", run, want / 11);
		ok(100.0 * (double)run / (double)en < 10, "a share under a tenth: %.2f%%", 100.0 * (double)run / (double)en);
		long long cnt = v[HL_FIRST_EVENT], rate = want / 5;
		/* scaled by enabled/running: the rate over the whole time */
		ok(cnt >= rate - rate / 20 && cnt <= rate + rate / 20, "the count is scaled: %lld, about %lld", cnt, rate);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		ok(f && hl_output_json(f) == PAPI_OK && fclose(f) == 0, "the report");
		char key[160];
		snprintf(key, sizeof key, "\"" EV "\": { \"time_enabled\": %lld, \"time_running\": %lld }", en, run);
		ok(buf && strstr(buf, key), "the report gives the times: %s", key);
		free(buf);
	}
	PAPI_hl_stop();
	PAPI_shutdown();
	sim_uninstall();
	char rm[128];
	snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
	if (system(rm) != 0)
		diag("could not remove %s", dir);
	return tap_done();
}

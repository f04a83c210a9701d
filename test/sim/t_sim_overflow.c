/* t_sim_overflow.c: PAPI_overflow on a hardware event (skx cycles) through the simulated PMU's sampling and signals. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sim/sim_pmu.h"
#include "tap.h"
#include "pmu_child.h"

static int calls, bad_vector;
static void *last_addr;

static void handler(int es, void *addr, long long vector, void *ctx)
{
	calls++;
	last_addr = addr;
	if (!(vector & 1))
		bad_vector++;
}

int main(void)
{
	if (pmu_tables_missing("skx", "overflow on a simulated skx PMU"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	struct sim_config c = sim_default_config();
	sim_install(&c);
	sim_event(PERF_TYPE_RAW, 0x3c, SIM_FIXED(1) | SIM_ANY_GP, 1, 1);
	sim_event(PERF_TYPE_RAW, 0xc0, SIM_FIXED(0) | SIM_ANY_GP, 2, 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init on the simulated PMU");
	int es = PAPI_NULL, cyc, ins;
	PAPI_create_eventset(&es);
	is_int(PAPI_event_name_to_code("skx::UNHALTED_CORE_CYCLES", &cyc), PAPI_OK, "cycles code");
	is_int(PAPI_event_name_to_code("skx::INST_RETIRED:ANY_P", &ins), PAPI_OK, "instructions code");
	is_int(PAPI_add_event(es, cyc), PAPI_OK, "add cycles");
	is_int(PAPI_add_event(es, ins), PAPI_OK, "add instructions");
	is_int(PAPI_overflow(es, cyc, 100000, 0, handler), PAPI_OK, "overflow on cycles every 100000");
	sim_set_ip(0x4a5b6c);
	is_int(PAPI_start(es), PAPI_OK, "start");
	for (int i = 0; i < 10; i++)
		sim_advance(100000);
	is_int(calls, 10, "the handler ran once per 100000 cycles");
	is_int(bad_vector, 0, "the overflow vector names the cycles event");
	ok(last_addr == (void *)0x4a5b6c, "the address is the sampled IP (%p)", last_addr);
	long long v[2];
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[0] == 1000000 && v[1] == 2000000, "counting goes on while sampling: %lld %lld", v[0], v[1]);
	sim_advance(500000);
	is_int(calls, 10, "no overflow after stop");
	is_int(PAPI_overflow(es, cyc, 0, 0, handler), PAPI_OK, "overflow off");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	is_int(sim_open_count(), 0, "nothing left open");
	sim_uninstall();
	return tap_done();
}

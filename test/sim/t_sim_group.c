/* t_sim_group.c: an EventSet of papi stat's {a,b} kind (one kernel group whatever the PMU) on a simulated PMU: one leader, all or nothing, scheduled together under rotation. */
#include <string.h>

#include "internal.h"
#include "sim/sim_pmu.h"
#include "tap.h"

static int one_group_set(void)
{
	int es = PAPI_NULL;
	if (PAPI_create_eventset(&es) != PAPI_OK)
		return PAPI_NULL;
	es_lookup(es)->one_group = 1;
	return es;
}

/* A software event and hardware events share one group: one read, one
 * leader (without the flag, the software event leads a group of its own). */
static void mixed(void)
{
	int es = one_group_set(), plain = PAPI_NULL;
	const char *names[] = { "perf::TASK-CLOCK", "perf::BRANCH-INSTRUCTIONS", "perf::CACHE-MISSES" };
	for (int i = 0; i < 3; i++)
		is_int(PAPI_add_named_event(es, names[i]), PAPI_OK, "{...}: add %s", names[i]);
	is_int(es_lookup(es)->ngroups, 1, "one kernel group for a software and two hardware events");
	PAPI_create_eventset(&plain);
	for (int i = 0; i < 3; i++)
		PAPI_add_named_event(plain, names[i]);
	is_int(es_lookup(plain)->ngroups, 2, "an ordinary set: one group per PMU");
	long long v[3];
	is_int(PAPI_start(es), PAPI_OK, "start");
	uint64_t rd = sim_reads();
	sim_advance(1000);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[0] == 1000 && v[1] == 200 && v[2] == 1000, "exact counts: %lld %lld %lld", v[0], v[1], v[2]);
	ok(sim_reads() - rd <= 1, "read with one read() of the group");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_cleanup_eventset(plain);
	PAPI_destroy_eventset(&plain);
}

/* Two events only counter 2 can hold never go into one group. */
static void all_or_nothing(void)
{
	int es = one_group_set();
	is_int(PAPI_add_named_event(es, "perf::CPU-CYCLES"), PAPI_OK, "add one");
	is_int(PAPI_add_named_event(es, "perf::INSTRUCTIONS"), PAPI_ECNFLCT,
	       "the second counter-2-only event: PAPI_ECNFLCT");
	is_int(sim_open_count(), 1, "nothing of it stays open");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	is_int(sim_open_count(), 0, "cleanup closes the rest");
}

/* Under rotation the group runs whole: its members' enabled and running
 * times are equal, each with a share of the time. */
static void rotation(void)
{
	int g = one_group_set(), other = PAPI_NULL;
	PAPI_add_named_event(g, "perf::CPU-CYCLES");
	PAPI_add_named_event(g, "perf::BRANCH-INSTRUCTIONS");
	PAPI_create_eventset(&other);
	is_int(PAPI_add_named_event(other, "perf::INSTRUCTIONS"), PAPI_OK,
	       "a rival for counter 2 in another set");
	PAPI_start(g);
	PAPI_start(other);
	sim_advance(40000000);	/* 10 ticks of 4 ms */
	EventSet_t *es = es_lookup(g);
	long long v[2];
	uint64_t en[2], run[2];
	is_int(es_read_times(es, v, en, run), PAPI_OK, "read times");
	ok(en[0] == en[1] && run[0] == run[1], "members share their times: %llu/%llu %llu/%llu",
	   (unsigned long long)run[0], (unsigned long long)en[0], (unsigned long long)run[1],
	   (unsigned long long)en[1]);
	ok(run[0] > 0 && run[0] < en[0], "the group ran part of the time (%.0f%%)",
	   en[0] ? 100.0 * (double)run[0] / (double)en[0] : 0);
	PAPI_stop(g, v);
	PAPI_stop(other, v);
	PAPI_cleanup_eventset(g);
	PAPI_destroy_eventset(&g);
	PAPI_cleanup_eventset(other);
	PAPI_destroy_eventset(&other);
}

int main(void)
{
	/* the kernel's generic events (perf::), which libpfm4 names on any
	 * machine unforced: cycles and instructions only on counter 2,
	 * branches 1 in 5 cycles, cache misses undeclared (1 per cycle) */
	unsetenv("LIBPFM_FORCE_PMU");
	struct sim_config c = sim_default_config();
	sim_install(&c);
	sim_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, SIM_GP(2), 1, 1);
	sim_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, SIM_GP(2), 2, 1);
	sim_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, SIM_ANY_GP, 1, 5);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init on the simulated PMU");
	mixed();
	all_or_nothing();
	rotation();
	PAPI_shutdown();
	sim_uninstall();
	return tap_done();
}

/* t_overflow_sw.c: PAPI_OVERFLOW_FORCE_SW: timer-driven overflow reads the counts and fires past each threshold. */
#include <stdint.h>

#include "ovf_common.h"

#define THRESHOLD 10000000	/* 10 ms of task-clock: above the timer's period */

static volatile int calls, bad;
static volatile long long or_vec;
static int inside, expect_set;

static void handler(int EventSet, void *address, long long vec, void *context)
{
	if (EventSet != expect_set || !context)
		bad++;
	inside += in_a((uintptr_t)address);
	or_vec |= vec;
	calls++;
}

int main(void)
{
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	if (!can_count()) {
		skip("perf_event_open refuses perf::TASK-CLOCK here", "software overflow tests");
		return tap_done();
	}
	int es = set_of("perf::CPU-CLOCK", "perf::TASK-CLOCK");
	int tc = code_of("perf::TASK-CLOCK");
	is_int(PAPI_overflow(es, tc, THRESHOLD, PAPI_OVERFLOW_FORCE_SW, handler), PAPI_OK,
	       "PAPI_overflow with PAPI_OVERFLOW_FORCE_SW");
	is_int(PAPI_overflow(es, code_of("perf::CPU-CLOCK"), THRESHOLD, 0, handler), PAPI_ECNFLCT,
	       "kernel overflow in a software-overflow set: PAPI_ECNFLCT");
	expect_set = es;
	long long v[2];
	is_int(PAPI_start(es), PAPI_OK, "start");
	spin_cpu(300000000, 0);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	double want = (double)v[1] / THRESHOLD;
	diag("task-clock %lld ns, %d calls, %.0f expected, %d PCs in hot_a", v[1], calls, want,
	     inside);
	ok(want > 10, "ran long enough to judge (%.0f thresholds)", want);
	ok(calls >= want * 0.5 && calls <= want * 1.5 + 2, "handler calls %d within 50%% of %.0f",
	   calls, want);
	is_int(bad, 0, "every call names the set and passes a context");
	is_int(or_vec, 2, "vector bit 1: TASK-CLOCK is the set's counter 1");
	ok(calls > 0 && inside * 2 > calls, "most PCs inside the busy function (%d of %d)", inside,
	   calls);
	ok((double)v[1] / (double)v[0] > 0.9 && (double)v[1] / (double)v[0] < 1.1,
	   "counts stay exact under software overflow (%lld vs %lld)", v[1], v[0]);

	int idx[2], n = 2;
	is_int(PAPI_get_overflow_event_index(es, 2, idx, &n), PAPI_OK, "event index of 0x2");
	ok(n == 1 && idx[0] == 1, "bit 1 is event 1");

	/* no calls while stopped: the timer is gone */
	int before = calls;
	spin_cpu(30000000, 0);
	is_int(calls, before, "no handler call after PAPI_stop");

	/* threshold 0 turns it off */
	is_int(PAPI_overflow(es, tc, 0, 0, NULL), PAPI_OK, "threshold 0");
	calls = 0;
	PAPI_start(es);
	spin_cpu(50000000, 0);
	PAPI_stop(es, v);
	is_int(calls, 0, "no handler call once turned off");

	/* a kernel-overflow set refuses software overflow */
	is_int(PAPI_overflow(es, tc, THRESHOLD, 0, handler), PAPI_OK, "kernel overflow");
	is_int(PAPI_overflow(es, code_of("perf::CPU-CLOCK"), THRESHOLD, PAPI_OVERFLOW_FORCE_SW,
			     handler), PAPI_ECNFLCT, "software overflow in a kernel set: PAPI_ECNFLCT");
	drop_set(&es);
	PAPI_shutdown();
	return tap_done();
}

/* t_overflow.c: kernel-sampled overflow on perf::TASK-CLOCK: rate, PCs, counts, turning off, event index. */
#include <stdint.h>

#include "ovf_common.h"

#define THRESHOLD 1000000	/* task-clock counts nanoseconds: every 1 ms */
#define MAX_PCS 4096

static volatile int calls, bad_set, calls_b;
static volatile long long last_vec, or_vec;
static uintptr_t pcs[MAX_PCS];
static int expect_set;

static void handler(int EventSet, void *address, long long vec, void *context)
{
	if (EventSet != expect_set || !context)
		bad_set++;
	if (calls < MAX_PCS)
		pcs[calls] = (uintptr_t)address;
	last_vec = vec;
	or_vec |= vec;
	calls++;
}

static void reset_counts(int es)
{
	calls = bad_set = calls_b = 0;
	last_vec = or_vec = 0;
	expect_set = es;
}

/* The handler runs about once per threshold of CPU time, on hot_a's PCs. */
static void rate_and_pcs(void)
{
	int es = set_of("perf::TASK-CLOCK", "perf::CPU-CLOCK");
	ok(es != PAPI_NULL, "a set with TASK-CLOCK and CPU-CLOCK");
	is_int(PAPI_overflow(es, code_of("perf::TASK-CLOCK"), THRESHOLD, 0, handler), PAPI_OK,
	       "PAPI_overflow on TASK-CLOCK");
	int st = 0;
	PAPI_state(es, &st);
	ok(st & PAPI_OVERFLOWING, "the set says it is overflowing (state %#x)", st);
	reset_counts(es);
	long long v[2] = { 0, 0 };
	is_int(PAPI_start(es), PAPI_OK, "start");
	spin_cpu(300000000, 0);
	long long mid[2];
	is_int(PAPI_read(es, mid), PAPI_OK, "read while overflowing");
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	int n = calls;
	double want = (double)v[0] / THRESHOLD;
	diag("task-clock %lld ns, cpu-clock %lld ns, %d handler calls, %.0f expected", v[0], v[1],
	     n, want);
	ok(want > 50, "the set ran long enough to judge (%.0f thresholds)", want);
	ok(n >= want * 0.5 && n <= want * 1.5 + 2, "handler calls %d within 50%% of %.0f", n, want);
	is_int(bad_set, 0, "every call names the set and passes a context");
	is_int(or_vec, 1, "overflow vector: bit 0 (TASK-CLOCK is counter 0)");
	int inside = 0, m = n < MAX_PCS ? n : MAX_PCS;
	for (int i = 0; i < m; i++)
		inside += in_a(pcs[i]);
	diag("%d of %d PCs inside hot_a [%p, %p)", inside, m, (void *)__start_papi_hot_a,
	     (void *)__stop_papi_hot_a);
	ok(m > 0 && inside * 2 > m, "most PCs fall inside the busy function (%d of %d)", inside, m);
	/* Sampling leaves counting alone: TASK-CLOCK agrees with the
	 * non-sampled CPU-CLOCK of the same thread and group. */
	ok(v[0] > 0 && v[1] > 0 && (double)v[0] / (double)v[1] > 0.9 &&
	   (double)v[0] / (double)v[1] < 1.1, "overflowing count agrees with CPU-CLOCK (%lld vs %lld)",
	   v[0], v[1]);
	ok(mid[0] > 0 && mid[0] <= v[0], "a read while running is between 0 and the final count");

	/* threshold 0 turns it off; running again brings no calls */
	is_int(PAPI_overflow(es, code_of("perf::TASK-CLOCK"), 0, 0, NULL), PAPI_OK, "threshold 0");
	PAPI_state(es, &st);
	ok(!(st & PAPI_OVERFLOWING), "no longer overflowing (state %#x)", st);
	reset_counts(es);
	PAPI_start(es);
	spin_cpu(50000000, 0);
	PAPI_stop(es, v);
	is_int(calls, 0, "no handler call after threshold 0 (%lld ns counted)", v[0]);
	ok(v[0] > 10000000, "the set still counts after overflow is off");

	/* and on again: a second run of the same set delivers again */
	is_int(PAPI_overflow(es, code_of("perf::TASK-CLOCK"), THRESHOLD, 0, handler), PAPI_OK,
	       "overflow on again");
	reset_counts(es);
	PAPI_start(es);
	spin_cpu(50000000, 0);
	PAPI_stop(es, v);
	ok(calls > 5, "handler runs again after re-enabling (%d calls)", calls);
	drop_set(&es);
}

/* Two overflowing events: the vector bits follow the counters and
 * PAPI_get_overflow_event_index maps them back to event positions.
 * The second period is no multiple of the first: the kernel drops a
 * user-only sample whose timer fires while the CPU is in the kernel, and
 * a timer due just after the first one's always finds it there, delivering
 * the first one's signal (every time on a guest as regular as QEMU's). */
static void two_events(void)
{
	int es = set_of("perf::TASK-CLOCK", "perf::CPU-CLOCK");
	is_int(PAPI_overflow(es, code_of("perf::TASK-CLOCK"), THRESHOLD, 0, handler), PAPI_OK,
	       "overflow on event 0");
	is_int(PAPI_overflow(es, code_of("perf::CPU-CLOCK"), THRESHOLD * 7 / 3, 0, handler), PAPI_OK,
	       "overflow on event 1 (one handler per set)");
	reset_counts(es);
	PAPI_start(es);
	spin_cpu(100000000, 0);
	long long v[2];
	PAPI_stop(es, v);
	is_int(or_vec, 3, "both counters overflowed: bits 0 and 1 (%d calls)", calls);
	int idx[4], n = 4;
	is_int(PAPI_get_overflow_event_index(es, 3, idx, &n), PAPI_OK, "event index of 0x3");
	is_int(n, 2, "two events");
	ok(n == 2 && idx[0] == 0 && idx[1] == 1, "lowest bit first: [0, 1]");
	n = 1;
	is_int(PAPI_get_overflow_event_index(es, 2, idx, &n), PAPI_OK, "event index of 0x2");
	ok(n == 1 && idx[0] == 1, "bit 1 is CPU-CLOCK, event 1");
	n = 1;
	PAPI_get_overflow_event_index(es, 3, idx, &n);
	is_int(n, 1, "a short array keeps *number entries");
	/* removing an overflowing event turns its overflow off */
	is_int(PAPI_remove_event(es, code_of("perf::TASK-CLOCK")), PAPI_OK, "remove event 0");
	reset_counts(es);
	PAPI_start(es);
	spin_cpu(50000000, 0);
	PAPI_stop(es, v);
	ok(calls > 5 && or_vec == 1, "CPU-CLOCK, now counter 0, overflows alone (%d calls, vec %#llx)",
	   calls, (long long)or_vec);
	drop_set(&es);
}

int main(void)
{
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	if (!can_count()) {
		skip("perf_event_open refuses perf::TASK-CLOCK here", "kernel overflow tests");
		return tap_done();
	}
	rate_and_pcs();
	two_events();
	PAPI_shutdown();
	return tap_done();
}

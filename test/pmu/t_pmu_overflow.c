/* t_pmu_overflow.c: overflow interrupts of hardware counters against their thresholds, and profiling samples landing in the loop that ran.
 *
 * The PMU interrupts every `threshold` counts of the event, so the handler
 * runs (the event's final count) / threshold times, one less or a few more
 * (the counts of the library's own code at the ends), and the interrupted
 * addresses are the loop's, which is nearly all the counters see. QEMU
 * raises its event counters' overflow interrupts only at the next access to
 * the PMU (see pmu_util.h): there only the cycle counter's are checked. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "papi.h"
#include "tap.h"
#include "pmu_util.h"

#define N 10000000L

static volatile sig_atomic_t calls, in_loop;
static volatile long long last_vector;
static void *lo, *hi;

static void handler(int es, void *addr, long long vector, void *ctx)
{
	calls++;
	/* The interrupt may land one instruction past the loop's last. */
	if ((char *)addr >= (char *)lo && (char *)addr <= (char *)hi + 4)
		in_loop++;
	last_vector = vector;
}

/* Overflow every threshold counts of event (PAPI_TOT_INS or PAPI_TOT_CYC),
 * with the other one counting alongside. */
static void overflow(const char *event, int threshold)
{
	int es, code, pos;
	long long v[2];
	const char *names[] = { "PAPI_TOT_INS", "PAPI_TOT_CYC" };
	if (pmu_qemu() && !strcmp(event, names[0])) {
		skip("QEMU raises an event counter's overflow interrupt only at the next PMU access",
		     "overflow on PAPI_TOT_INS");
		return;
	}
	if (!ok(pmu_set(&es, names, 2) == PAPI_OK, "%s: a set of instructions and cycles", event))
		return;
	PAPI_event_name_to_code(event, &code);
	pos = strcmp(event, names[0]) ? 1 : 0;
	is_int(PAPI_overflow(es, code, threshold, 0, handler), PAPI_OK, "%s: overflow every %d", event, threshold);
	calls = in_loop = 0;
	last_vector = 0;
	is_int(PAPI_start(es), PAPI_OK, "%s: start", event);
	pmu_loop(N);
	is_int(PAPI_stop(es, v), PAPI_OK, "%s: stop", event);
	long long want = v[pos] / threshold;
	ok(calls >= want - 1 && calls <= want + want / 50 + 2, "%s: %d interrupts for %lld counts (want %lld)",
	   event, (int)calls, v[pos], want);
	ok(in_loop >= calls * 9 / 10, "%s: %d of them in the loop", event, (int)in_loop);
	ok(pmu_near(v[0], PMU_LOOP_INS * N, 5000, 0.005), "%s: counting goes on while sampling (%lld instructions)",
	   event, v[0]);
	if (pmu_qemu())
		ok(pmu_near(v[1], v[0], 5000, 0.005), "%s: as many cycles on QEMU (%lld)", event, v[1]);
	int idx[2], n = 2;
	ok(PAPI_get_overflow_event_index(es, last_vector, idx, &n) == PAPI_OK && n == 1 && idx[0] == pos,
	   "%s: the overflow vector names it (event %d)", event, n == 1 ? idx[0] : -1);
	int before = calls;
	pmu_loop(N / 10);
	is_int(calls, before, "%s: no interrupt after the stop", event);
	is_int(PAPI_overflow(es, code, 0, 0, handler), PAPI_OK, "%s: overflow off", event);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* PAPI_profil on cycles: a histogram of the sampled addresses over the
 * loop's code. Every sample but those at the ends falls into it. */
static void profiling(void)
{
	int es, code;
	unsigned short buf[64];
	const int threshold = 100000;
	const char *cyc = "PAPI_TOT_CYC";
	memset(buf, 0, sizeof buf);
	if (!ok(pmu_set(&es, &cyc, 1) == PAPI_OK, "profil: PAPI_TOT_CYC"))
		return;
	PAPI_event_name_to_code(cyc, &code);
	/* scale 0x10000: one bucket per two bytes, from the loop's start */
	is_int(PAPI_profil(buf, sizeof buf, (caddr_t)lo, 0x10000, es, code, threshold, PAPI_PROFIL_POSIX), PAPI_OK,
	       "profil: on, every %d cycles", threshold);
	PAPI_start(es);
	pmu_loop(N);
	long long v;
	PAPI_stop(es, &v);
	is_int(PAPI_profil(buf, sizeof buf, (caddr_t)lo, 0x10000, es, code, 0, PAPI_PROFIL_POSIX), PAPI_OK,
	       "profil: off");
	long long total = 0;
	for (size_t i = 0; i < sizeof buf / sizeof buf[0]; i++)
		total += buf[i];
	long long want = v / threshold;
	ok(total >= want * 9 / 10 && total <= want + 2,
	   "profil: %lld samples in the loop's buckets for %lld cycles (want %lld)", total, v, want);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	if (!pmu_begin("overflow and profiling on hardware events"))
		return tap_done();
	pmu_loop_range(&lo, &hi);
	overflow("PAPI_TOT_CYC", 200000);
	overflow("PAPI_TOT_INS", 200000);
	profiling();
	PAPI_shutdown();
	return tap_done();
}

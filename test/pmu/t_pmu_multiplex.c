/* t_pmu_multiplex.c: more hardware events than counters, multiplexed by the kernel and by the library's own rotation, scaled to the loop's known length.
 *
 * Ten events need more than the PMU's counters (6 + the cycle counter on
 * QEMU's Neoverse N1), so each counts part of the time and is scaled by
 * enabled/running time. A steady loop makes the estimate good to a few
 * percent; 10% is allowed. That the rotation happened is seen on one
 * counter's own times: under the kernel's, it ran part of the time it was
 * enabled; under the library's, it was enabled part of the time only. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "papi.h"
#include "tap.h"
#include "pmu_util.h"

/* 10^8 instructions: about 100 ms of the emulated CPU, many rotations of
 * the kernel's (4 ms at HZ 250) and of the library's (10 ms). */
#define N 50000000L

#if defined(__aarch64__)
/* Events every PMUv3 since ARMv8.1 has, then the kernel's generic ones: a
 * CPU libpfm4 does not know (QEMU's max) lists only what its PMU announces. */
static const char *const ev[] = { "INST_RETIRED", "CPU_CYCLES", "STALL_FRONTEND", "STALL_BACKEND",
				  "perf::CYCLES:u", "perf::CYCLES:k", "perf::INSTRUCTIONS:k",
				  "perf::CYCLES:u:k", "perf::INSTRUCTIONS:u:k", "perf::INSTRUCTIONS" };
/* Without the right to count the kernel (an ordinary user at
 * perf_event_paranoid 2), the hypervisor level in place of the kernel's. */
static const char *const ev_user[] = { "INST_RETIRED", "CPU_CYCLES", "STALL_FRONTEND", "STALL_BACKEND",
				       "perf::CYCLES:u", "perf::CYCLES:h", "perf::INSTRUCTIONS:h",
				       "perf::CYCLES:u:h", "perf::INSTRUCTIONS:u:h", "perf::INSTRUCTIONS" };
#else
static const char *const ev[] = { "perf::INSTRUCTIONS", "perf::CYCLES", "perf::BRANCHES",
				  "perf::BRANCH-MISSES", "perf::CACHE-REFERENCES", "perf::CACHE-MISSES",
				  "perf::L1-DCACHE-LOADS", "perf::L1-DCACHE-LOAD-MISSES",
				  "perf::L1-ICACHE-LOAD-MISSES", "perf::INSTRUCTIONS:u" };
#define ev_user ev /* no event of the kernel's domain */
#endif
#define NEV (int)(sizeof ev / sizeof ev[0])
/* The two events that count instructions, and the cycles one. */
#define INS0 0
#define CYC 1
#define INS1 (NEV - 1)

static void run(int sw)
{
	const char *how = sw ? "software" : "kernel";
	int es = PAPI_NULL;
	long long v[NEV];
	PAPI_option_t o;
	PAPI_create_eventset(&es);
	PAPI_assign_eventset_component(es, 0);
	memset(&o, 0, sizeof o);
	o.multiplex.eventset = es;
	o.multiplex.flags = sw ? PAPI_MULTIPLEX_FORCE_SW : PAPI_MULTIPLEX_DEFAULT;
	is_int(PAPI_set_opt(PAPI_MULTIPLEX, &o), PAPI_OK, "%s multiplexing set", how);
	int added = 0;
	const char *const *evs = pmu_kernel() ? ev : ev_user;
	for (int i = 0; i < NEV; i++) {
		char nb[256];
		int r = PAPI_add_named_event(es, pmu_event(evs[i], nb, sizeof nb));
		if (r != PAPI_OK)
			diag("%s: %s", evs[i], PAPI_strerror(r));
		added += r == PAPI_OK;
	}
	is_int(added, NEV, "%s: all %d events taken (%d counters)", how, NEV, PAPI_num_cmp_hwctrs(0));
	if (added != NEV)
		goto out;
	long long t0 = PAPI_get_real_nsec();
	is_int(PAPI_start(es), PAPI_OK, "%s: start", how);
	pmu_loop(N);
	/* The rotation, seen by the first counter itself before the stop. */
	uint64_t raw[4] = { 0 };
	EventSet_t *e = es_lookup(es);
	ok(e && e->nhw == NEV && read(e->hw[0].fd, raw, sizeof raw) == (ssize_t)sizeof raw,
	   "%s: raw read of one counter", how);
	long long t = PAPI_get_real_nsec() - t0;
	if (sw)
		ok(raw[1] > 0 && (double)raw[1] < 0.8 * (double)t,
		   "software: it was enabled part of the time only (%llu of %lld ns)", (unsigned long long)raw[1], t);
	else
		ok(raw[1] > 0 && raw[2] < raw[1], "kernel: it ran part of the time only (%llu of %llu ns)",
		   (unsigned long long)raw[2], (unsigned long long)raw[1]);
	is_int(PAPI_stop(es, v), PAPI_OK, "%s: stop", how);
	ok(pmu_near(v[INS0], PMU_LOOP_INS * N, 0, 0.1), "%s: %s scaled to %lld (want %ld)", how, evs[INS0],
	   v[INS0], PMU_LOOP_INS * N);
	ok(pmu_near(v[INS1], PMU_LOOP_INS * N, 0, 0.1), "%s: %s scaled to %lld", how, evs[INS1], v[INS1]);
	if (pmu_qemu())
		ok(pmu_near(v[CYC], PMU_LOOP_INS * N, 0, 0.1), "%s: %s scaled to %lld", how, evs[CYC], v[CYC]);
	else
		ok(v[CYC] > 0, "%s: %s counted (%lld)", how, evs[CYC], v[CYC]);
out:
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	if (!pmu_begin("multiplexing hardware events"))
		return tap_done();
	is_int(PAPI_multiplex_init(), PAPI_OK, "PAPI_multiplex_init");
	run(0);
	run(1);
	PAPI_shutdown();
	return tap_done();
}

/* t_pmu_counting.c: hardware counts of a loop of known length: instructions, cycles, domains, read/accum/reset, and a full group that counts all-or-nothing.
 *
 * pmu_loop(n) retires 2n instructions in user mode. Around it the counters
 * also see the library's own instructions between their enable and their
 * disable (a few hundred; a few thousand for a read or accum), and on a
 * QEMU guest of more than one CPU the instructions the others run meanwhile
 * (its -icount counter is one for all CPUs). Hence the slack: 5000
 * instructions plus 0.5%. On QEMU (PMU_QEMU=1) the CPU takes one cycle per
 * instruction, so cycles are checked against instructions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "papi.h"
#include "tap.h"
#include "pmu_util.h"

#define N 1000000L
#define SLACK 5000
#define REL 0.005

static void instructions(void)
{
	int es;
	long long v[2];
	const char *names[] = { "PAPI_TOT_INS", "PAPI_TOT_CYC" };
	if (!ok(pmu_set(&es, names, 2) == PAPI_OK, "PAPI_TOT_INS and PAPI_TOT_CYC in one set"))
		return;
	PAPI_start(es);
	pmu_loop(N);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(pmu_near(v[0], PMU_LOOP_INS * N, SLACK, REL), "a loop of %ld iterations: %lld instructions (want %ld)",
	   N, v[0], PMU_LOOP_INS * N);
	ok(v[1] > 0, "cycles counted (%lld)", v[1]);
	if (pmu_qemu())
		ok(pmu_near(v[1], v[0], SLACK, REL), "one cycle per instruction on QEMU: %lld cycles", v[1]);
	else
		skip("cycles equal instructions only on QEMU's -icount CPU", "cycles against instructions");

	/* Three times the loop: three times the instructions, to the slack. */
	long long one = v[0];
	PAPI_start(es);
	pmu_loop(3 * N);
	PAPI_stop(es, v);
	ok(pmu_near(v[0] - one, 2 * PMU_LOOP_INS * N, SLACK, REL), "3N - N iterations: %lld more instructions",
	   v[0] - one);

	/* Reads while running, accum and reset. */
	long long r[2], a[2] = { 0, 0 };
	PAPI_start(es);
	pmu_loop(N);
	is_int(PAPI_read(es, r), PAPI_OK, "read while running");
	ok(pmu_near(r[0], PMU_LOOP_INS * N, SLACK, REL), "read after N: %lld", r[0]);
	pmu_loop(N);
	is_int(PAPI_accum(es, a), PAPI_OK, "accum");
	ok(pmu_near(a[0], 2 * PMU_LOOP_INS * N, 2 * SLACK, REL), "accum after 2N: %lld", a[0]);
	pmu_loop(N);
	is_int(PAPI_read(es, r), PAPI_OK, "read after accum");
	ok(pmu_near(r[0], PMU_LOOP_INS * N, SLACK, REL), "accum zeroed the counters: %lld after N more", r[0]);
	is_int(PAPI_reset(es), PAPI_OK, "reset");
	pmu_loop(2 * N);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(pmu_near(v[0], 2 * PMU_LOOP_INS * N, SLACK, REL), "counts since the reset: %lld after 2N", v[0]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* The user domain leaves the kernel's instructions out; the kernel domain
 * counts them (system calls) and not the loop's. Without the right to count
 * the kernel (an ordinary user at perf_event_paranoid 2) the kernel domain
 * is refused with PAPI_EINVAL_DOM and the user domain still counts. */
static void domains(void)
{
	int es[2] = { PAPI_NULL, PAPI_NULL };
	long long c[2] = { 0, 0 };
	int doms[2] = { PAPI_DOM_USER, PAPI_DOM_KERNEL };
	int kernel = pmu_kernel(), n = kernel ? 2 : 1;
	for (int i = 0; i < 2; i++) {
		PAPI_option_t opt;
		memset(&opt, 0, sizeof opt);
		PAPI_create_eventset(&es[i]);
		PAPI_assign_eventset_component(es[i], 0);
		opt.domain.eventset = es[i];
		opt.domain.domain = doms[i];
		int want = i < n ? PAPI_OK : PAPI_EINVAL_DOM;
		is_int(PAPI_set_opt(PAPI_DOMAIN, &opt), want, "%s domain %s", i ? "kernel" : "user",
		       want == PAPI_OK ? "set" : "refused: " PMU_NEEDS_KERNEL);
		if (i < n)
			is_int(PAPI_add_named_event(es[i], "PAPI_TOT_INS"), PAPI_OK, "add PAPI_TOT_INS (%s)",
			       i ? "kernel" : "user");
	}
	for (int i = 0; i < n; i++)
		PAPI_start(es[i]);
	pmu_loop(N);
	for (int i = 0; i < 1000; i++)
		syscall(SYS_getppid);
	for (int i = n - 1; i >= 0; i--)
		PAPI_stop(es[i], &c[i]);
	ok(c[0] >= PMU_LOOP_INS * N && c[0] < PMU_LOOP_INS * N + 1000 * 200,
	   "user domain: the loop and the syscalls' user side (%lld)", c[0]);
	if (kernel) {
		ok(c[1] >= 1000 * 10, "kernel domain: 1000 system calls' kernel instructions (%lld)", c[1]);
		ok(c[1] < PMU_LOOP_INS * N / 2, "kernel domain: not the loop's (%lld)", c[1]);
	} else {
		skip(PMU_NEEDS_KERNEL, "kernel domain: 1000 system calls' kernel instructions");
		skip(PMU_NEEDS_KERNEL, "kernel domain: not the loop's");
	}
	for (int i = 0; i < 2; i++) {
		PAPI_cleanup_eventset(es[i]);
		PAPI_destroy_eventset(&es[i]);
	}
}

/* A group holds what the PMU's counters hold together, or refuses the event
 * that does not fit (PAPI_ECNFLCT) and keeps counting the others: never a
 * group the kernel takes and then cannot schedule, which would read zero.
 * The events are the architecture's common ones (on QEMU only instructions
 * and cycles count; stalls read zero). */
static void full_group(void)
{
#if defined(__aarch64__)
	/* Events every PMUv3 since ARMv8.1 has, then the kernel's generic
	 * ones per privilege level: a CPU libpfm4 does not know (QEMU's max)
	 * lists only what its PMU announces. */
	static const char *const ev[] = { "INST_RETIRED", "CPU_CYCLES", "STALL_FRONTEND", "STALL_BACKEND",
					  "perf::INSTRUCTIONS", "perf::CYCLES", "perf::INSTRUCTIONS:u",
					  "perf::CYCLES:u", "perf::INSTRUCTIONS:k", "perf::CYCLES:k",
					  "perf::INSTRUCTIONS:u:k" };
#else
	static const char *const ev[] = { "perf::INSTRUCTIONS", "perf::CYCLES", "perf::BRANCHES",
					  "perf::BRANCH-MISSES", "perf::CACHE-REFERENCES", "perf::CACHE-MISSES",
					  "perf::L1-DCACHE-LOADS", "perf::L1-DCACHE-LOAD-MISSES",
					  "perf::L1-ICACHE-LOAD-MISSES", "perf::DTLB-LOAD-MISSES",
					  "perf::ITLB-LOAD-MISSES" };
#endif
	const int nev = (int)(sizeof ev / sizeof ev[0]);
	int es = PAPI_NULL, added = 0, refused = -1;
	long long v[sizeof ev / sizeof ev[0]];
	PAPI_create_eventset(&es);
	for (int i = 0; i < nev && refused < 0; i++) {
		char nb[256];
		int r = PAPI_add_named_event(es, pmu_event(ev[i], nb, sizeof nb));
		if (r == PAPI_OK)
			added++;
		else if (r == PAPI_ECNFLCT)
			refused = i;
		else
			diag("%s: %s", ev[i], PAPI_strerror(r));
	}
	int ctrs = PAPI_num_cmp_hwctrs(0);
	ok(refused >= 0, "an event past the counters is refused with PAPI_ECNFLCT (after %d of %d, %d counters)",
	   added, nev, ctrs);
	ok(added >= ctrs, "as many events as the component's %d counters were taken (%d)", ctrs, added);
	is_int(PAPI_start(es), PAPI_OK, "the full group starts");
	pmu_loop(N);
	is_int(PAPI_stop(es, v), PAPI_OK, "and stops");
	ok(pmu_near(v[0], PMU_LOOP_INS * N, SLACK, REL), "the full group counts: %lld instructions", v[0]);
	if (pmu_qemu())
		ok(pmu_near(v[1], v[0], SLACK, REL), "and %lld cycles", v[1]);
	else
		ok(v[1] > 0, "and %lld cycles", v[1]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(int argc, char **argv)
{
	/* t_pmu_counting --loop N: only the loop, a workload of known length
	 * for the tests of papi's commands (t_pmu_cli.sh). */
	if (argc == 3 && !strcmp(argv[1], "--loop")) {
		unsigned long n = strtoul(argv[2], NULL, 10);
		if (n > 0)
			pmu_loop(n);
		return n > 0 ? 0 : 2;
	}
	if (!pmu_begin("counting hardware events"))
		return tap_done();
	instructions();
	domains();
	full_group();
	PAPI_shutdown();
	return tap_done();
}

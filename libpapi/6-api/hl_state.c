/* hl_state.c: the region API's process-wide state, which recording (hl.c) writes and the report (hl_output.c) reads. */
#include "6-api/hl.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int hl_layout = HL_LAYOUT_PAPI7;
struct hl_event *hl_ev;
int hl_nev, hl_nval = HL_FIRST_EVENT;
_Atomic(struct hl_thread *) hl_threads;
atomic_int hl_nthreads;

/* Region real time. With an invariant TSC a region keeps only its TSC
 * cycles, and the report turns them into nanoseconds at the rate the TSC
 * ran against CLOCK_MONOTONIC between setup and the report: one
 * clock_gettime fewer per begin and per end (about 40 ns each right after
 * the read() syscall, measured on a PTI kernel). Without one, each sample
 * reads both clocks. */
int hl_tsc_allowed = 1;
int hl_tsc_time;
static long long hl_tsc0, hl_ns0;

#if defined(__x86_64__) || defined(__i386__)
/* CPUID 0x80000007 EDX bit 8: the TSC ticks at one rate in every P-, C- and
 * T-state (Linux's constant_tsc and nonstop_tsc). */
static int tsc_invariant(void)
{
	unsigned a, b, c, d;
	return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d >> 8 & 1);
}
#else
static int tsc_invariant(void)
{
	return 0;
}
#endif

/* The TSC and CLOCK_MONOTONIC at one instant (the TSC halfway across the
 * clock read). A thread preempted inside the read would pair the clock
 * with a TSC up to the preemption's length away, and skew the rate over a
 * short run by as much: of a few tries, the tightest pair counts. */
static void clock_pair(long long *tsc, long long *ns)
{
	long long best = -1;
	for (int i = 0; i < 5; i++) {
		long long a = PAPI_get_real_cyc();
		long long t = PAPI_get_real_nsec();
		long long b = PAPI_get_real_cyc();
		if (best < 0 || b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = t;
		}
	}
}

void hl_clock_start(void)
{
	hl_tsc_time = hl_tsc_allowed && tsc_invariant();
	clock_pair(&hl_tsc0, &hl_ns0);
}

double hl_ns_per_cycle(void)
{
	long long tsc, ns;
	clock_pair(&tsc, &ns);
	if (tsc <= hl_tsc0 || ns <= hl_ns0)
		return 0;
	return (double)(ns - hl_ns0) / (double)(tsc - hl_tsc0);
}

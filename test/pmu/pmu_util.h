/* pmu_util.h: what the tests that need a hardware PMU share (test/pmu/pmu_util.c).
 *
 * These tests count real hardware events. Where the kernel has no hardware
 * PMU driver (the development VM) they skip with the reason "no hardware
 * PMU"; make check-pmu runs them in a QEMU arm64 guest whose kernel drives an
 * emulated PMU, where such a skip is a failure. What they assert is what that
 * emulated CPU guarantees (and real hardware too): the instructions of a
 * loop of known length, counted in user mode. */
#ifndef PAPI_TEST_PMU_UTIL_H
#define PAPI_TEST_PMU_UTIL_H

#include "papi.h"
#include "tap.h"

/* Instructions one iteration of pmu_loop retires. */
#define PMU_LOOP_INS 2

/* pmu_loop: n (>= 1) iterations of a two-instruction loop (subtract and
 * branch): 2n instructions, plus a handful for the call. */
void pmu_loop(unsigned long n);

/* pmu_loop_begin, pmu_loop_end: the address range of pmu_loop's code. */
void pmu_loop_range(void **begin, void **end);

/* pmu_present: 1 when PAPI_TOT_INS can be added, started and counts a
 * loop, else 0 (after printing why as a TAP comment). Call after
 * PAPI_library_init. */
int pmu_present(void);

/* pmu_begin: PAPI_library_init (a TAP point) and the PMU probe. 1 when the
 * test can go on; else 0, after the failed point or a skip of what for want
 * of a PMU, and main returns tap_done(). (Inline: each test program has its
 * own TAP counter.) */
static inline int pmu_begin(const char *what)
{
	if (!ok(PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT, "PAPI_library_init"))
		return 0;
	if (!pmu_present()) {
		skip("no hardware PMU", what);
		return 0;
	}
	return 1;
}

/* pmu_qemu: 1 when the tests run on QEMU's emulated PMU under -icount
 * (make check-pmu sets PMU_QEMU=1). That CPU takes one cycle per
 * instruction, so cycles equal instructions; and QEMU raises overflow
 * interrupts on time only for its cycle counter (an event counter's
 * overflow is seen at the next access to the PMU, a timer tick later). */
int pmu_qemu(void);

/* pmu_kernel: 1 when this process may count the kernel's share (root or
 * CAP_PERFMON, or perf_event_paranoid 1 or lower): the perf_event
 * component's available domains hold PAPI_DOM_KERNEL. Else 0: an ordinary
 * user at Debian's paranoid 2 counts user space only, and a test of the
 * kernel domain skips with PMU_NEEDS_KERNEL as its reason. */
int pmu_kernel(void);
#define PMU_NEEDS_KERNEL "counting the kernel needs root or perf_event_paranoid 1 or lower"

/* pmu_near: |got - want| <= abs + rel * want. */
int pmu_near(long long got, long long want, long long abs, double rel);

/* pmu_set: a fresh EventSet holding the named events; PAPI_OK or the first
 * error (and the set destroyed). */
int pmu_set(int *es, const char *const *names, int n);

/* pmu_event: name as the library knows it here: name itself when it names
 * an event, else the core PMU's sysfs event of that name in lower case,
 * "PMU/name/" (a CPU libpfm4 does not know has only those), written into
 * buf; name when neither exists (adding it then says why). */
const char *pmu_event(const char *name, char *buf, size_t len);

#endif

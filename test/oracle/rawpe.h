/* rawpe.h: the oracle tests' own counter (test/oracle/rawpe.c).
 *
 * A handful of lines over perf_event_open(2) that share no code with
 * libpapi: a count libpapi reports is checked against what this counter,
 * opened by the test on the same thread or process, saw over the same
 * stretch. It counts user space only (exclude_kernel, exclude_hv) unless
 * told otherwise, as libpapi's default domain does and as an ordinary user
 * at perf_event_paranoid 2 must. Names begin with raw_ so they cannot meet
 * libpapi's internal ones in libpapi-internal.a. */
#ifndef PAPI_TEST_RAWPE_H
#define PAPI_TEST_RAWPE_H

#include <stdint.h>
#include <sys/types.h>

/* One event as the kernel names it: perf_event_attr's type and config. */
struct raw_event {
	const char *name;	/* the name the test gives libpapi */
	uint32_t type;		/* PERF_TYPE_SOFTWARE, PERF_TYPE_HARDWARE, ... */
	uint64_t config;
	int every_level;	/* the PMU excludes no privilege level (msr): opened
				 * with no exclude_* bit, whatever kernel says */
};

/* raw_open: a disabled counter of ev on pid (0: the calling thread), on any
 * CPU; inherit: count the children pid creates from then on; kernel: count
 * the kernel's share too (root, or perf_event_paranoid 1 or lower).
 * Returns the descriptor, or -errno. */
int raw_open(const struct raw_event *ev, pid_t pid, int inherit, int kernel);

/* raw_open_cgroup: a disabled counter of ev counting the tasks of the
 * cgroup whose directory cgfd is open, on CPU cpu (PERF_FLAG_PID_CGROUP);
 * kernel as raw_open. The descriptor, or -errno. */
int raw_open_cgroup(const struct raw_event *ev, int cgfd, int cpu, int kernel);

/* raw_enable, raw_disable, raw_reset: the ioctls; 0 or -errno. */
int raw_enable(int fd);
int raw_disable(int fd);
int raw_reset(int fd);

/* raw_read: the count so far (running or not), or -1. */
long long raw_read(int fd);

void raw_close(int fd);

/* raw_by_name: the event of that name in the tests' table (perf::PAGE-FAULTS,
 * PAPI_TOT_INS, ...), or msr::EVENT read from the kernel's msr PMU in sysfs
 * (its type, and its event file "event=0xN" under the format config:0-63;
 * counted at every level; valid until the next msr:: lookup), or NULL. */
const struct raw_event *raw_by_name(const char *name);

/* raw_touch: map n fresh anonymous pages (small pages: no transparent huge
 * pages), write one byte in each, unmap them: n user-mode page faults, the
 * workload whose count every oracle test knows. */
void raw_touch(long n);

#endif

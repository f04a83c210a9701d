/* kernel.h: layer 2, the kernel door: the perf_event seam (perf.c), the
 * machine's description from /proc, sysfs and CPUID (hwinfo.c, memhier.c),
 * the process's (procinfo.c) and the clocks (timers.c). Calls only layer 1. */
#ifndef PAPI_KERNEL_H
#define PAPI_KERNEL_H

#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "1-state/state.h"

/* ------------------------------------------------------------------ sys seam
 * perf.c is the only module that talks to the kernel's perf_event interface,
 * and it does so only through these calls, so that a test binary can plug in
 * a simulated PMU (test/sim). The shipped library always uses the real ones. */
struct sys_ops {
	int (*perf_open)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags);
	ssize_t (*read)(int fd, void *buf, size_t len);
	int (*ioctl)(int fd, unsigned long req, unsigned long arg);
	void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd, off_t off);
	int (*munmap)(void *addr, size_t len);
	int (*close)(int fd);
	int (*fcntl)(int fd, int cmd, long arg);
	/* perf_event_attr.type of the kernel PMU called name (as in
	 * /sys/bus/event_source/devices/NAME/type), or -1 when the kernel has none. */
	int (*pmu_type)(const char *name);
	/* The raw value of hardware counter `counter` of this CPU (x86 rdpmc
	 * ecx encoding: the user page's index - 1). NULL where the library has
	 * no such instruction: counters are then always read with read(). */
	uint64_t (*rdpmc)(uint32_t counter);
	/* The time-stamp counter the user page's time_mult/time_shift convert
	 * to nanoseconds (x86 rdtsc). NULL when absent (read() is used). */
	uint64_t (*tsc)(void);
};
extern const struct sys_ops *sys;
extern const struct sys_ops sys_real;
/* Replace the seam (test binaries only; NULL restores the real one). */
void sys_set_ops(const struct sys_ops *ops);

/* Turn a perf_event_open errno into a PAPI error code. */
int pe_errno_to_papi(int err);
/* Write advice for a failed perf_event_open of the event called name into
 * buf: what failed and what a person can do about it. core_why, when not
 * NULL, says why this machine's core PMU cannot count (the naming layer
 * knows: pmu_core_unavailable_reason) and explains a refused hardware event. */
void pe_advice(int err, const char *name, const struct perf_event_attr *attr,
	       const char *core_why, char *buf, size_t len);

/* ------------------------------------------------------------------ hardware */
/* Fill the process-wide hardware description once (hwinfo.c). */
const PAPI_hw_info_t *hwinfo_get(void);
/* Nominal clock in MHz for cycle conversions (never 0). */
double hwinfo_mhz(void);

/* ------------------------------------------------------------------ memhier
 * memhier.c: the cache and TLB hierarchy of CPU 0, the one source for
 * PAPI_get_hardware_info's mem_hierarchy and `papi mem-info`. */
#define MH_MAX_ENTRIES 64
struct mh_entry {
	int tlb;		/* 1: a TLB, 0: a cache */
	int level;		/* 1, 2, 3 ... */
	int type;		/* PAPI_MH_TYPE_INST, _DATA or _UNIFIED */
	long long size;		/* cache: bytes */
	int line_size;		/* cache: bytes per line */
	int entries;		/* cache: lines; TLB: entries */
	int assoc;		/* ways; SHRT_MAX fully associative; 0 unknown */
	int page_kb;		/* TLB: page size in KB */
	char shared[128];	/* cache: CPUs sharing it (sysfs shared_cpu_list), or "" */
};
/* mh_scan: caches of cpu0 from sysfs, then TLBs from CPUID on x86 (none
 * elsewhere), into e[0..max-1]. Returns how many exist (may exceed max;
 * only max are stored); 0 when nothing is known. Never fails. */
int mh_scan(struct mh_entry *e, int max);
/* mh_fill: fill mh (zeroed by the caller) from mh_scan: one cache or tlb
 * slot per entry at its level; levels = the deepest level seen. */
void mh_fill(PAPI_mh_info_t *mh);

#endif

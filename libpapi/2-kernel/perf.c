/* perf.c: the only door to the kernel's perf_event interface: the sys seam, errno mapping and advice. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "2-kernel/kernel.h"

static int real_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			  unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int real_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg);
}

static int real_fcntl(int fd, int cmd, long arg)
{
	return fcntl(fd, cmd, arg);
}

/* The kernel PMU's type number, read from sysfs; -1 when the kernel has no
 * PMU of that name. Names with '/' or '.' are refused: they are not PMUs. */
static int real_pmu_type(const char *name)
{
	char path[PATH_MAX];
	if (!name || !*name || strchr(name, '/') || strstr(name, ".."))
		return -1;
	if (!sys->pmu_dir)
		return -1;
	snprintf(path, sizeof path, "%s/%s/type", sys->pmu_dir, name);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int type = -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	return type;
}

#if defined(__x86_64__)
/* The x86 rdpmc instruction: counter ecx into edx:eax. The kernel allows it
 * in user space while a perf user page with cap_user_rdpmc is mapped. */
static uint64_t real_rdpmc(uint32_t counter)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
}

/* The x86 time-stamp counter, which the user page's time fields convert. */
static uint64_t real_tsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#define REAL_RDPMC real_rdpmc
#define REAL_TSC real_tsc
#else
/* Elsewhere there is no user-space read: counters always go through read(). */
#define REAL_RDPMC NULL
#define REAL_TSC NULL
#endif

#if defined(__x86_64__) || defined(__i386__)
/* CPUID, refusing a leaf beyond the highest of its range (basic or
 * extended), whose answer would be another leaf's. */
static int real_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
	if ((unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf)
		return -1;
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
	return 0;
}
#define REAL_CPUID real_cpuid
#else
#define REAL_CPUID NULL
#endif

const struct sys_ops sys_real = {
	.perf_open = real_perf_open,
	.read = read,
	.ioctl = real_ioctl,
	.mmap = mmap,
	.munmap = munmap,
	.close = close,
	.fcntl = real_fcntl,
	.pmu_type = real_pmu_type,
	.pmu_dir = "/sys/bus/event_source/devices",
	.rdpmc = REAL_RDPMC,
	.tsc = REAL_TSC,
	.cpu_dir = "/sys/devices/system/cpu",
	.cpuid = REAL_CPUID,
};

const struct sys_ops *sys = &sys_real;

/* sys_set_ops: test binaries plug a simulated PMU in here; NULL restores
 * the kernel. Call it before PAPI_library_init or after PAPI_shutdown. */
void sys_set_ops(const struct sys_ops *ops)
{
	sys = ops ? ops : &sys_real;
}

/* pe_errno_to_papi: how PAPI reports each perf_event_open failure. */
int pe_errno_to_papi(int err)
{
	switch (err) {
	case EPERM:
	case EACCES:
		return PAPI_EPERM;
	case ENOENT:
		return PAPI_ENOEVNT;
	case ENODEV:
	case EOPNOTSUPP:
		return PAPI_ENOSUPP;
	case ENOSPC:
	case EBUSY:
		return PAPI_ECNFLCT;
	case ENOMEM:
		return PAPI_ENOMEM;
	case EMFILE:
	case ENFILE:
	case ESRCH:
	case E2BIG:
	case EAGAIN:
	case ENOSYS:
		return PAPI_ESYS;
	default:
		return PAPI_EINVAL;
	}
}

static int read_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 2;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* pe_advice: one sentence a person can act on, for a failed open of the
 * event called name. Never fails; truncates to len. */
void pe_advice(int err, const char *name, const struct perf_event_attr *attr,
	       const char *core_why, char *buf, size_t len)
{
	const char *ev = name ? name : "event";

	switch (err) {
	case EACCES:
	case EPERM: {
		int p = read_paranoid();
		snprintf(buf, len,
			 "%s: permission denied (perf_event_paranoid=%d): set "
			 "/proc/sys/kernel/perf_event_paranoid to %d or lower, or grant CAP_PERFMON",
			 ev, p, attr && !attr->exclude_kernel ? 1 : 2);
		break;
	}
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		if (core_why)
			snprintf(buf, len, "%s: %s", ev, core_why);
		else if (attr && attr->sample_period && err == EOPNOTSUPP)
			snprintf(buf, len, "%s: this PMU cannot sample or interrupt on overflow", ev);
		else
			snprintf(buf, len, "%s: the kernel does not know this event on this PMU", ev);
		break;
	case ENOSPC:
		snprintf(buf, len, "%s: no free hardware counter for it together with the other events", ev);
		break;
	case EBUSY:
		snprintf(buf, len, "%s: the counters are in use by another tool (or exclusive access)", ev);
		break;
	case EINVAL:
		if (core_why)
			snprintf(buf, len, "%s: %s", ev, core_why);
		else
			snprintf(buf, len, "%s: the kernel refused its encoding or this combination of options", ev);
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, len, "%s: out of file descriptors (raise 'ulimit -n')", ev);
		break;
	case ESRCH:
		snprintf(buf, len, "%s: no such process or thread to attach to", ev);
		break;
	case ENOSYS:
		snprintf(buf, len, "%s: this kernel has no perf_event support", ev);
		break;
	default:
		snprintf(buf, len, "%s: perf_event_open failed: %s", ev, strerror(err));
		break;
	}
}

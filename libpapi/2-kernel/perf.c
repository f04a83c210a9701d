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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <linux/capability.h>

#include "2-kernel/kernel.h"

static int real_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			  unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* A counter's read never waits, yet a signal can still interrupt it (the
 * program's own timers, a debugger): it is read again then, as read(2) asks
 * of its callers, rather than failing the PAPI_read that asked. */
static ssize_t real_read(int fd, void *buf, size_t n)
{
	ssize_t r;
	while ((r = io_real_read(fd, buf, n)) < 0 && errno == EINTR)
		;
	return r;
}

static int real_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg);
}

static int real_fcntl(int fd, int cmd, long arg)
{
	return fcntl(fd, cmd, arg);
}

/* The number a /proc or /sys file begins with (after blanks): 0 and *v, or
 * -1 when the file cannot be read or begins with none. No stdio: it would
 * fault in its own code and a 4 KB buffer at a tool's start. */
static int read_number(const char *path, long long *v)
{
	char buf[64], *end;
	if (os_read_at(AT_FDCWD, path, buf, sizeof buf) < 0)
		return -1;
	errno = 0;
	long long x = strtoll(buf, &end, 10);
	if (end == buf || errno)
		return -1;
	*v = x;
	return 0;
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
	long long type;
	return read_number(path, &type) == 0 && type >= 0 && type <= INT_MAX ? (int)type : -1;
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
#elif defined(__aarch64__)
/* arm64: a counter as EL0 reads it once the kernel allows it (the user
 * page's index - 1): 31 is the cycle counter, the others the event counter
 * PMSELR_EL0 selects for PMXEVCNTR_EL0. A reschedule between the select and
 * the read changes the page's lock, and the read is done again. */
static uint64_t real_rdpmc(uint32_t counter)
{
	uint64_t v;
	if (counter == 31) {
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		return v;
	}
	__asm__ __volatile__("msr pmselr_el0, %1\n\tisb\n\tmrs %0, pmxevcntr_el0"
			     : "=r"(v) : "r"((uint64_t)counter));
	return v;
}

/* The generic timer's virtual count, which the arm64 user page's time
 * fields convert (the kernel's sched_clock runs on it). */
static uint64_t real_tsc(void)
{
	uint64_t v;
	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
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
 * extended), whose answer would be another leaf's. The two highest leaves
 * are asked once: in a VM each CPUID traps to the hypervisor (~7 us). */
static int real_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
	static unsigned max_leaf[2];	/* 0: not asked yet (a range's answer is never 0) */
	int range = !!(leaf & 0x80000000u);
	unsigned m = __atomic_load_n(&max_leaf[range], __ATOMIC_RELAXED);
	if (!m) {
		m = (unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL);
		__atomic_store_n(&max_leaf[range], m, __ATOMIC_RELAXED);
	}
	if (m < leaf)
		return -1;
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
	return 0;
}
#define REAL_CPUID real_cpuid
#else
#define REAL_CPUID NULL
#endif

/* The kernel's perf_event_paranoid: -1 everything, 0 no raw tracepoints,
 * 1 no CPU-wide counting, 2 no kernel counting, 3 and more (a patch some
 * distributions carry) no counting at all for unprivileged users. */
static int real_paranoid(void)
{
	long long v;
	return read_number("/proc/sys/kernel/perf_event_paranoid", &v) == 0 && v >= INT_MIN && v <= INT_MAX
		       ? (int)v
		       : 2;
}

/* pe_max_sample_rate: see kernel.h. Read each time: the kernel lowers it
 * on its own when sampling takes too long. */
unsigned long long pe_max_sample_rate(void)
{
	long long v;
	return read_number("/proc/sys/kernel/perf_event_max_sample_rate", &v) == 0 && v > 0
		       ? (unsigned long long)v
		       : 0;
}

/* CAP_PERFMON (or, before Linux 5.8 knew it, CAP_SYS_ADMIN) in the
 * effective set lifts the paranoid limits. */
static int real_privileged(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	memset(d, 0, sizeof d);
	if (syscall(SYS_capget, &h, d) != 0)
		return 0;
	return (d[CAP_TO_INDEX(CAP_PERFMON)].effective & CAP_TO_MASK(CAP_PERFMON)) ||
	       (d[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective & CAP_TO_MASK(CAP_SYS_ADMIN));
}

const struct sys_ops sys_real = {
	.perf_open = real_perf_open,
	.read = real_read,	/* not the interposed read(): appio counts the program's */
	.ioctl = real_ioctl,
	.mmap = mmap,
	.munmap = munmap,
	.close = io_real_close,
	.fcntl = real_fcntl,
	.pmu_type = real_pmu_type,
	.pmu_dir = "/sys/bus/event_source/devices",
	.rdpmc = REAL_RDPMC,
	.tsc = REAL_TSC,
	.cpu_dir = "/sys/devices/system/cpu",
	.cpuid = REAL_CPUID,
	.paranoid = real_paranoid,
	.privileged = real_privileged,
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

static int paranoid(void)
{
	return sys->paranoid ? sys->paranoid() : real_paranoid();
}

static int privileged(void)
{
	return sys->privileged ? sys->privileged() : real_privileged();
}

/* pe_kernel_allowed, pe_cpu_allowed, pe_domains_allowed: see internal.h.
 * They answer what the kernel surely refuses; where they allow, the kernel
 * still decides (a root in a container may hold capabilities that count
 * only in its own namespace). */
int pe_kernel_allowed(void)
{
	return paranoid() <= 1 || privileged();
}

int pe_cpu_allowed(void)
{
	return paranoid() <= 0 || privileged();
}

int pe_domains_allowed(void)
{
	return PAPI_DOM_USER | PAPI_DOM_SUPERVISOR | (pe_kernel_allowed() ? PAPI_DOM_KERNEL : 0);
}

void pe_kernel_advice(char *buf, size_t len)
{
	snprintf(buf, len, "counting the kernel needs perf_event_paranoid 1 or lower (it is %d) or "
		 "CAP_PERFMON: set /proc/sys/kernel/perf_event_paranoid to 1, or grant CAP_PERFMON",
		 paranoid());
}

/* Why the kernel refused (EACCES/EPERM) to count pid, in order: nothing is
 * open to unprivileged users, a whole CPU, the kernel's share, another
 * user's process; else a security policy (a container's seccomp profile,
 * SELinux, AppArmor) forbids what the paranoid level allows. */
static void perm_advice(const struct perf_event_attr *attr, pid_t pid, int cpu, char *buf, size_t len)
{
	int p = paranoid(), priv = privileged(), kernel = attr && !attr->exclude_kernel;
	char path[64];
	struct stat st;
	snprintf(path, sizeof path, "/proc/self/task/%d", (int)pid);
	int foreign = pid > 0 && stat(path, &st) != 0;
	if (!priv && p >= 3 && !kernel) {
		snprintf(buf, len, "this kernel lets no unprivileged user count events "
			 "(perf_event_paranoid=%d): set /proc/sys/kernel/perf_event_paranoid to 2, "
			 "or grant CAP_PERFMON", p);
	} else if (!priv && p >= 1 && pid == -1) {
		snprintf(buf, len, "counting all of CPU %d needs perf_event_paranoid 0 or lower "
			 "(it is %d) or CAP_PERFMON: set /proc/sys/kernel/perf_event_paranoid to 0, "
			 "or grant CAP_PERFMON", cpu, p);
	} else if (!priv && p >= 2 && kernel) {
		pe_kernel_advice(buf, len);
	} else if (foreign) {
		snprintf(path, sizeof path, "/proc/%d", (int)pid);
		int other = stat(path, &st) == 0 && st.st_uid != getuid();
		snprintf(buf, len, "not permitted to count process %d: %s; that needs CAP_PERFMON "
			 "or the right to ptrace it", (int)pid,
			 other ? "it belongs to another user" : "it is not dumpable (set-user-ID?)");
	} else {
		snprintf(buf, len, "perf_event_open was refused although perf_event_paranoid=%d%s: "
			 "a security policy forbids it (a container's seccomp profile, SELinux, "
			 "AppArmor)", p, priv ? " and CAP_PERFMON allow it" : " allows it");
	}
}

/* pe_advice: one sentence a person can act on, for a failed open of the
 * event called name ("name: why"; just why when name is NULL). Never
 * fails; truncates to len. */
void pe_advice(int err, const char *name, const struct perf_event_attr *attr, pid_t pid, int cpu,
	       const char *core_why, char *buf, size_t len)
{
	char why[400];
	const char *w = why;

	switch (err) {
	case EACCES:
	case EPERM:
		perm_advice(attr, pid, cpu, why, sizeof why);
		break;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		if (core_why)
			w = core_why;
		else if (attr && attr->sample_period && err == EOPNOTSUPP)
			w = "this PMU cannot sample or interrupt on overflow";
		else
			w = "the kernel does not know this event on this PMU";
		break;
	case ENOSPC:
		w = "no free hardware counter for it together with the other events";
		break;
	case EBUSY:
		w = "the counters are in use by another tool (or exclusive access)";
		break;
	case EINVAL:
		w = core_why ? core_why : "the kernel refused its encoding or this combination of options";
		break;
	case EMFILE:
	case ENFILE:
		w = "out of file descriptors (raise 'ulimit -n')";
		break;
	case ESRCH:
		w = "no such process or thread to attach to";
		break;
	case ENOSYS:
		w = "this kernel has no perf_event support";
		break;
	default:
		snprintf(why, sizeof why, "perf_event_open failed: %s", strerror(err));
		break;
	}
	snprintf(buf, len, "%s%s%s", name ? name : "", name ? ": " : "", w);
}

/* pe_probe: can this process count anything at all? Opens a user-space
 * task clock on itself, as the least any counting needs. PAPI_OK, or the
 * failure's code with the sentence why in buf (perf_event_paranoid 3 or 4
 * on kernels that close counting to unprivileged users, a security
 * policy, a kernel without perf_event). */
int pe_probe(char *buf, size_t len)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = sys->perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		sys->close(fd);
		return PAPI_OK;
	}
	int err = errno;
	/* A refusal, or no perf_event at all, is the whole answer; any other
	 * failure (no file descriptor left, say) is named by what failed. */
	const char *what = err == EACCES || err == EPERM || err == ENOSYS
				   ? NULL : "cannot count even perf::TASK-CLOCK in user space";
	pe_advice(err, what, &a, 0, -1, NULL, buf, len);
	return pe_errno_to_papi(err);
}

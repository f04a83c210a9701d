/* rawpe.c: the oracle tests' own perf_event_open counter (see rawpe.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include "rawpe.h"

/* The events the oracle tests compare, by the kernel's own numbers. The
 * PAPI presets are listed by what they mean on every CPU that has them;
 * the stall events are the ARMv8 common events (0x23, 0x24), counted as raw
 * events of the core PMU, and the kernel's generic stall events. */
static const struct raw_event events[] = {
	{ "perf::TASK-CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0 },
	{ "perf::CPU-CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0 },
	{ "perf::PAGE-FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0 },
	{ "perf::MINOR-FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, 0 },
	{ "perf::CONTEXT-SWITCHES", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0 },
	{ "PAPI_TOT_INS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0 },
	{ "PAPI_TOT_CYC", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0 },
	{ "PAPI_BR_INS", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0 },
	{ "STALL_FRONTEND", PERF_TYPE_RAW, 0x23, 0 },
	{ "STALL_BACKEND", PERF_TYPE_RAW, 0x24, 0 },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 0 },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 0 },
};

/* The first line of sysfs file msr/rel into buf: 0, or -1. */
static int msr_file(const char *rel, char *buf, size_t len)
{
	char path[256];
	snprintf(path, sizeof path, "/sys/bus/event_source/devices/msr/%s", rel);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int r = fgets(buf, (int)len, f) ? 0 : -1;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return r;
}

/* msr::EVENT from the msr PMU's sysfs directory, as the kernel describes it. */
static const struct raw_event *raw_msr(const char *name)
{
	static struct raw_event ev;
	static char evname[64];
	char buf[128], rel[96];
	unsigned long type;
	unsigned long long config;
	if (strncmp(name, "msr::", 5) || strlen(name) >= sizeof evname || strchr(name + 5, '/'))
		return NULL;
	snprintf(rel, sizeof rel, "events/%s", name + 5);
	if (msr_file("type", buf, sizeof buf) || sscanf(buf, "%lu", &type) != 1 ||
	    msr_file("format/event", buf, sizeof buf) || strcmp(buf, "config:0-63") ||
	    msr_file(rel, buf, sizeof buf) || sscanf(buf, "event=%llx", &config) != 1)
		return NULL;
	snprintf(evname, sizeof evname, "%s", name);
	ev = (struct raw_event){ evname, (uint32_t)type, config, 1 };
	return &ev;
}

const struct raw_event *raw_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof events / sizeof events[0]; i++)
		if (strcmp(events[i].name, name) == 0)
			return &events[i];
	return raw_msr(name);
}

/* A disabled counter of ev on pid and cpu with flags: the descriptor, or -errno. */
static int open_one(const struct raw_event *ev, pid_t pid, int cpu, int inherit, int kernel, unsigned long flags)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = ev->type;
	a.config = ev->config;
	a.disabled = 1;
	a.exclude_kernel = !kernel && !ev->every_level;
	a.exclude_hv = !ev->every_level;
	a.inherit = inherit ? 1 : 0;
	long fd = syscall(SYS_perf_event_open, &a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC | flags);
	return fd < 0 ? -errno : (int)fd;
}

int raw_open(const struct raw_event *ev, pid_t pid, int inherit, int kernel)
{
	return open_one(ev, pid, -1, inherit, kernel, 0);
}

int raw_open_cgroup(const struct raw_event *ev, int cgfd, int cpu, int kernel)
{
	return open_one(ev, cgfd, cpu, 0, kernel, PERF_FLAG_PID_CGROUP);
}

static int raw_ioctl(int fd, unsigned long req)
{
	return ioctl(fd, req, 0) < 0 ? -errno : 0;
}

int raw_enable(int fd)
{
	return raw_ioctl(fd, PERF_EVENT_IOC_ENABLE);
}

int raw_disable(int fd)
{
	return raw_ioctl(fd, PERF_EVENT_IOC_DISABLE);
}

int raw_reset(int fd)
{
	return raw_ioctl(fd, PERF_EVENT_IOC_RESET);
}

long long raw_read(int fd)
{
	uint64_t v;
	return read(fd, &v, sizeof v) == (ssize_t)sizeof v ? (long long)v : -1;
}

void raw_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

void raw_touch(long n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = (size_t)n * pg;
	volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += pg)
		p[i] = 1;
	munmap((void *)p, len);
}

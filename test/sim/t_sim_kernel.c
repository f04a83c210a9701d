/* t_sim_kernel.c: the simulated PMU itself behaves as the kernel does (groups, reads, rotation, wrap, user page, sampling). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "sim/sim_pmu.h"
#include "tap.h"

static struct perf_event_attr raw_attr(uint64_t config, int disabled, uint64_t rf)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_RAW;
	a.config = config;
	a.disabled = disabled;
	a.exclude_kernel = 1;
	a.read_format = rf;
	return a;
}

#define GRP (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static int open_raw(uint64_t config, int group_fd, uint64_t rf)
{
	struct perf_event_attr a = raw_attr(config, group_fd < 0, rf);
	return sys->perf_open(&a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static void groups(void)
{
	struct sim_config c = sim_default_config();	/* 4 general + 3 fixed */
	sim_install(&c);
	sim_event(PERF_TYPE_RAW, 0xa3, SIM_GP(2), 1, 1);	/* only on counter 2 */
	int l = open_raw(0x10, -1, GRP), fds[8], n = 0;
	ok(l >= 0, "leader opens");
	for (int i = 0; i < 3; i++)
		fds[n++] = open_raw(0x11 + (uint64_t)i, l, GRP);
	ok(fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0, "three members fill the 4 general counters");
	errno = 0;
	is_int(open_raw(0x20, l, GRP), -1, "a fifth general event does not fit the group");
	is_int(errno, ENOSPC, "... ENOSPC");
	int solo = open_raw(0x20, -1, GRP);
	ok(solo >= 0, "the same event opens alone");
	sys->close(solo);

	/* Counter constraints: two events that both need counter 2. */
	int g2 = open_raw(0xa3, -1, GRP);
	ok(g2 >= 0, "constrained event alone");
	sim_event(PERF_TYPE_RAW, 0xa4, SIM_GP(2), 1, 1);
	errno = 0;
	is_int(open_raw(0xa4, g2, GRP), -1, "two events needing counter 2 conflict");
	is_int(errno, ENOSPC, "... ENOSPC");
	c.group_err = EINVAL;	/* x86 kernels say EINVAL instead */
	sim_install(&c);
	sim_event(PERF_TYPE_RAW, 0xa3, SIM_GP(2), 1, 1);
	sim_event(PERF_TYPE_RAW, 0xa4, SIM_GP(2), 1, 1);
	g2 = open_raw(0xa3, -1, GRP);
	errno = 0;
	is_int(open_raw(0xa4, g2, GRP), -1, "conflict under group_err=EINVAL");
	is_int(errno, EINVAL, "... EINVAL");
	int m = open_raw(0x10, g2, GRP);
	errno = 0;
	is_int(open_raw(0x11, m, GRP), -1, "group_fd of a member");
	is_int(errno, EINVAL, "... EINVAL");
	errno = 0;
	is_int(open_raw(0x11, 999, GRP), -1, "group_fd not open");
	is_int(errno, EBADF, "... EBADF");
	sim_event(PERF_TYPE_RAW, 0xff, SIM_FIXED(7), 1, 1);
	errno = 0;
	is_int(open_raw(0xff, -1, GRP), -1, "an event no counter of this PMU can hold");
	is_int(errno, EINVAL, "... EINVAL");
	sim_uninstall();
}

static void errors(void)
{
	struct sim_config c = sim_default_config();
	static const struct {
		int line, paranoid, busy, inject;
		uint32_t type;
		uint64_t config;
		int exclude_kernel, want;
	} rows[] = {
		{ __LINE__, 1, 0, 0, 99, 1, 1, ENOENT },		/* no PMU of that type */
		{ __LINE__, 1, 0, 0, PERF_TYPE_SOFTWARE, 999, 1, ENOENT },
		{ __LINE__, 1, 0, 0, PERF_TYPE_HARDWARE, 999, 1, EINVAL },
		{ __LINE__, 2, 0, 0, PERF_TYPE_RAW, 0x3c, 0, EACCES },	/* kernel counting */
		{ __LINE__, 2, 0, 0, PERF_TYPE_RAW, 0x3c, 1, 0 },
		{ __LINE__, 3, 0, 0, PERF_TYPE_RAW, 0x3c, 1, EACCES },
		{ __LINE__, 1, 1, 0, PERF_TYPE_RAW, 0x3c, 1, EBUSY },
		{ __LINE__, 1, 1, 0, PERF_TYPE_SOFTWARE, 0, 1, 0 },	/* software: no counter */
		{ __LINE__, 1, 0, EMFILE, PERF_TYPE_RAW, 0x3c, 1, EMFILE },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		c.paranoid = rows[i].paranoid;
		sim_install(&c);
		sim_set_busy(rows[i].busy);
		if (rows[i].inject)
			sim_fail_next(rows[i].inject, 1);
		struct perf_event_attr a = raw_attr(rows[i].config, 1, 0);
		a.type = rows[i].type;
		a.exclude_kernel = (unsigned)rows[i].exclude_kernel;
		errno = 0;
		int fd = sys->perf_open(&a, 0, -1, -1, 0);
		is_int(fd < 0 ? errno : 0, rows[i].want, "open errno (row at line %d)", rows[i].line);
		if (fd >= 0)
			sys->close(fd);
	}
	sim_install(&c);
	sim_event_refuse(PERF_TYPE_RAW, 0x77, ENOENT);
	struct perf_event_attr a = raw_attr(0x77, 1, 0);
	errno = 0;
	is_int(sys->perf_open(&a, 0, -1, -1, 0), -1, "refused event");
	is_int(errno, ENOENT, "... with the errno asked for");
	sim_uninstall();
}

static void reads_and_rotation(void)
{
	struct sim_config c = sim_default_config();
	c.pmu[0].ngeneral = 2;
	sim_install(&c);
	sim_event(PERF_TYPE_RAW, 0xc0, 0, 3, 2);	/* 1.5 per cycle */
	int l = open_raw(0x3c, -1, GRP | PERF_FORMAT_ID);
	int m = open_raw(0xc0, l, GRP | PERF_FORMAT_ID);
	uint64_t b[16];
	is_int(sys->read(l, b, 8), -1, "short buffer");
	sim_advance(1000);
	is_int(sys->read(l, b, sizeof b), 7 * 8, "group read: nr, 2 times, 2 x (value, id)");
	ok(b[0] == 2 && b[3] == 0 && b[5] == 0, "nothing counts while disabled");
	is_int(sys->ioctl(l, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0, "enable group");
	sim_advance(1001);
	sys->read(m, b, sizeof b);	/* a member's read returns the whole group */
	ok(b[1] == 1001 && b[2] == 1001, "enabled == running == 1001 (%llu, %llu)",
	   (unsigned long long)b[1], (unsigned long long)b[2]);
	ok(b[3] == 1001 && b[5] == 1501, "counts 1001 and 1501 (remainder carried): %llu %llu",
	   (unsigned long long)b[3], (unsigned long long)b[5]);
	sys->ioctl(l, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	sys->read(l, b, sizeof b);
	ok(b[3] == 0 && b[5] == 0 && b[1] == 1001, "reset zeroes counts, not times");

	/* Three singleton groups on two counters: each runs 2/3 of the time. */
	int f[3];
	for (int i = 0; i < 3; i++) {
		f[i] = open_raw(0x10 + (uint64_t)i, -1, PERF_FORMAT_TOTAL_TIME_ENABLED |
								 PERF_FORMAT_TOTAL_TIME_RUNNING);
		sys->ioctl(f[i], PERF_EVENT_IOC_ENABLE, 0);
	}
	sys->close(m);
	sys->close(l);
	sim_advance(c.tick * 300);
	int good = 0;
	for (int i = 0; i < 3; i++) {
		is_int(sys->read(f[i], b, sizeof b), 24, "single read: value, enabled, running");
		good += b[1] == c.tick * 300 && b[2] == c.tick * 200 && b[0] == b[2];
	}
	is_int(good, 3, "rotation: enabled 300 ticks, running 200, count == running");
	for (int i = 0; i < 3; i++)
		sys->close(f[i]);
	is_int(sim_open_count(), 0, "all closed");
	sim_uninstall();
}

static void wrap_and_user_page(void)
{
	struct sim_config c = sim_default_config();
	sim_install(&c);
	int fd = open_raw(0x3c, -1, 0);
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *up = sys->mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	ok(up != MAP_FAILED, "user page maps");
	ok(sys->mmap(NULL, pg + 3 * pg, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED,
	   "data area not a power of two pages: refused");
	is_int(up->index, 0, "index 0 while not counting");
	sys->ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	uint64_t big = (1ull << 48) + 12345, v = 0;
	sim_advance(big);
	sys->read(fd, &v, sizeof v);
	ok(v == big, "the kernel's count is 64-bit past 2^48: %llu", (unsigned long long)v);
	ok(up->cap_user_rdpmc && up->pmc_width == 48 && up->index > 0, "user page: rdpmc, width 48");
	int64_t r = sim_rdpmc(fd, up->index - 1);
	ok(r >= 0 && (uint64_t)r < (1ull << 48), "raw counter stays within 48 bits");
	ok((uint64_t)r != big, "raw counter wrapped");
	uint64_t en, run;
	int64_t u = sim_user_read(fd, up, &en, &run);
	ok((uint64_t)u == big, "user-space read (offset + sign-extended raw) == count");
	sim_advance(1000);
	ok((uint64_t)sim_user_read(fd, up, NULL, NULL) == big + 1000, "and keeps up after more counting");
	sys->munmap(up, pg);
	sys->close(fd);
	sim_uninstall();
}

static volatile sig_atomic_t got_sig, got_fd, got_code;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	got_sig++;
	got_fd = si->si_fd;
	got_code = si->si_code;
}

static void sampling(void)
{
	struct sim_config c = sim_default_config();
	sim_install(&c);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGRTMIN + 2, &sa, NULL);

	struct perf_event_attr a = raw_attr(0x3c, 1, 0);
	a.sample_period = 100000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
	a.wakeup_events = 1;
	int fd = sys->perf_open(&a, 0, -1, -1, 0);
	ok(fd >= 0, "sampling event opens");
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *up =
		sys->mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ok(up != MAP_FAILED && up->data_size == 2 * pg, "ring buffer of 2 pages");
	struct f_owner_ex own = { F_OWNER_TID, (pid_t)syscall(SYS_gettid) };
	ok(sys->fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) == 0 &&
	   sys->fcntl(fd, F_SETSIG, SIGRTMIN + 2) == 0 &&
	   sys->fcntl(fd, F_SETOWN_EX, (long)&own) == 0, "async signal set up");
	sim_set_ip(0x401234);
	sys->ioctl(fd, PERF_EVENT_IOC_REFRESH, 3);
	sim_advance(1000000);
	is_int(sim_overflows(fd), 3, "REFRESH 3: three overflows, then disabled");
	is_int(got_sig, 4, "three POLL_IN signals and one POLL_HUP");
	is_int(got_fd, fd, "si_fd names the counter");
	is_int(got_code, POLL_HUP, "the last is POLL_HUP");
	is_int(up->data_head, 3 * 32, "three 32-byte records");
	const unsigned char *d = (const unsigned char *)up + up->data_offset;
	struct perf_event_header h;
	uint64_t rec[3];
	memcpy(&h, d, sizeof h);
	memcpy(rec, d + 8, sizeof rec);
	ok(h.type == PERF_RECORD_SAMPLE && h.size == 32, "PERF_RECORD_SAMPLE header");
	ok(rec[0] == 0x401234 && (rec[1] & 0xffffffff) == (uint64_t)getpid() && rec[2] == 100000,
	   "ip, pid and period in the record");
	uint64_t np = 50000;
	is_int(sys->ioctl(fd, PERF_EVENT_IOC_PERIOD, (unsigned long)&np), 0, "PERIOD ioctl");
	sys->ioctl(fd, PERF_EVENT_IOC_REFRESH, 2);
	sim_advance(100000);
	is_int(sim_overflows(fd), 5, "the new period applies");
	int plain = open_raw(0xc0, -1, 0);
	is_int(sys->ioctl(plain, PERF_EVENT_IOC_REFRESH, 1), -1, "REFRESH of a counting event is refused");
	sys->close(plain);
	is_int(sys->ioctl(fd, PERF_EVENT_IOC_REFRESH, 0), 0, "REFRESH 0 re-enables without a limit");
	sim_advance(200000);
	is_int(sim_overflows(fd), 9, "... and keeps overflowing");
	sys->munmap(up, 3 * pg);
	sys->close(fd);
	sim_uninstall();
}

static void hybrid(void)
{
	struct sim_config c = sim_hybrid_config();
	sim_install(&c);
	is_int(sys->pmu_type("cpu"), -1, "hybrid: no 'cpu' PMU");
	is_int(sys->pmu_type("cpu_core"), 4, "cpu_core is type 4");
	is_int(sys->pmu_type("cpu_atom"), 10, "cpu_atom is type 10");
	is_int(sys->pmu_type("software"), 1, "software is type 1");
	int core = open_raw(0x3c, -1, GRP);
	struct perf_event_attr a = raw_attr(0x3c, 0, GRP);
	a.type = 10;
	errno = 0;
	is_int(sys->perf_open(&a, 0, -1, core, 0), -1, "an atom event cannot join a core group");
	is_int(errno, EINVAL, "... EINVAL");
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES | (10ull << 32);
	int atom = sys->perf_open(&a, 0, -1, -1, 0);
	ok(atom >= 0, "generic cycles on cpu_atom via the extended type");
	a.config = PERF_COUNT_HW_CPU_CYCLES | (11ull << 32);
	ok(sys->perf_open(&a, 0, -1, -1, 0) < 0 && errno == ENOENT, "extended type of no PMU: ENOENT");
	sys->close(atom);
	sys->close(core);
	sim_uninstall();
}

int main(void)
{
	groups();
	errors();
	reads_and_rotation();
	wrap_and_user_page();
	sampling();
	hybrid();
	return tap_done();
}

/* t_oracle_lib.c: libpapi's counts of software events against the tests' own perf_event_open counter.
 *
 * Each case runs a workload with a known share (fresh pages touched: one
 * user-mode page fault each; CPU time spent; a sleep) between PAPI_start
 * and PAPI_stop, with the raw counters of rawpe.c bracketing libpapi's
 * window (oracle.h): libpapi's count must lie between the inner and the
 * outer raw count, exactly for page faults, to 0.5% + 50 us for clocks.
 * The workload's own arithmetic and getrusage check that the raw counter
 * saw the workload at all. Covered: start/stop, stop and start again with
 * each software event leading the group, PAPI_read while running,
 * PAPI_accum, PAPI_reset, a multiplexed set, and faults the kernel takes
 * for the thread (read() into fresh pages), which the user domain leaves
 * out. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "oracle.h"

#define ROUNDS 4

static const char *const sw[] = { "perf::PAGE-FAULTS", "perf::TASK-CLOCK", "perf::CPU-CLOCK",
				  "perf::MINOR-FAULTS" };
#define NSW 4

/* One measured stretch: the bracket around PAPI_start .. PAPI_stop, the
 * workload in the middle; v gets libpapi's counts. */
static int measure(int es, struct orc *o, void (*work)(long), long arg, long long *v)
{
	orc_outer_on(o);
	int r = PAPI_start(es);
	orc_inner_on(o);
	work(arg);
	orc_inner_off(o);
	if (r == PAPI_OK)
		r = PAPI_stop(es, v);
	orc_outer_off(o);
	return r;
}

static void check_all(const struct orc *o, const long long *v, const char *what)
{
	for (int i = 0; i < o->n; i++)
		orc_check(o, i, v[i], what);
}

/* The page-fault counts must hold the workload's own: n pages touched. */
static void check_pages(const struct orc *o, long n, const char *what)
{
	for (int i = 0; i < o->n; i++)
		if (strstr(o->names[i], "FAULTS"))
			ok(o->lo[i] >= n, "%s: the raw counter saw the %ld pages touched (%lld %s)", what, n, o->lo[i],
			   o->names[i]);
}

static void start_stop(void)
{
	int es;
	struct orc o;
	long long v[NSW];
	long n = orc_pages(16);
	char what[128];
	if (!ok(orc_set(&es, sw, NSW, 0) == PAPI_OK && orc_open(&o, sw, NSW, 0, 0) == 0,
		"a set of %d software events and their raw counters", NSW))
		return;
	long f0 = orc_minflt(RUSAGE_SELF);
	is_int(measure(es, &o, orc_touch, n, v), PAPI_OK, "start, touch, stop");
	long f1 = orc_minflt(RUSAGE_SELF);
	snprintf(what, sizeof what, "PAPI_start, touch %ld fresh pages, PAPI_stop", n);
	check_all(&o, v, what);
	check_pages(&o, n, what);
	ok(f1 - f0 >= v[0], "getrusage saw at least libpapi's page faults (%ld minor faults, libpapi %lld)", f1 - f0,
	   v[0]);
	orc_close(&o);
	orc_set_free(&es);
}

/* Stop, then start again, several rounds, with each software event at the
 * head of the set (the group's leader). A group switched as a whole lost
 * its members' counts after the first round. */
static void restart(void)
{
	static const char *const leaders[] = { "perf::TASK-CLOCK", "perf::CPU-CLOCK", "perf::PAGE-FAULTS" };
	long n = orc_pages(64);
	for (int l = 0; l < 3; l++) {
		const char *names[3] = { leaders[l] };
		for (int i = 0, k = 1; i < 3; i++)
			if (i != l)
				names[k++] = leaders[i];
		int es;
		struct orc o;
		long long v[3];
		char what[160];
		if (!ok(orc_set(&es, names, 3, 0) == PAPI_OK && orc_open(&o, names, 3, 0, 0) == 0,
			"a set led by %s", leaders[l]))
			continue;
		for (int round = 1; round <= ROUNDS; round++) {
			snprintf(what, sizeof what, "led by %s, round %d of start, touch %ld fresh pages, stop",
				 leaders[l], round, n);
			if (measure(es, &o, orc_touch, n, v) != PAPI_OK) {
				ok(0, "%s: start and stop", what);
				break;
			}
			check_all(&o, v, what);
		}
		check_pages(&o, n, what);
		orc_close(&o);
		orc_set_free(&es);
	}
}

/* PAPI_read while running, twice: each read between a read of the inner
 * counters before it and of the outer ones after it. */
static void read_running(void)
{
	int es;
	struct orc o;
	long long v[NSW];
	long n = orc_pages(8);
	char what[128];
	if (!ok(orc_set(&es, sw, NSW, 0) == PAPI_OK && orc_open(&o, sw, NSW, 0, 0) == 0, "a set for PAPI_read"))
		return;
	orc_outer_on(&o);
	PAPI_start(es);
	orc_inner_on(&o);
	for (int k = 1; k <= 2; k++) {
		orc_touch(n);
		orc_inner_off(&o);
		int r = PAPI_read(es, v);
		orc_read_outer(&o);
		snprintf(what, sizeof what, "PAPI_read %d while running, after touching %ld pages %d times", k, n, k);
		is_int(r, PAPI_OK, "%s", what);
		check_all(&o, v, what);
	}
	orc_inner_off(&o);
	PAPI_stop(es, v);
	orc_outer_off(&o);
	snprintf(what, sizeof what, "PAPI_stop after two reads");
	check_all(&o, v, what);
	orc_close(&o);
	orc_set_free(&es);
}

/* PAPI_accum twice: the sum of two stretches, each from a start or a
 * reset; the inner counters pause across the first accum, whose own reset
 * drops what came before it. */
static void accum(void)
{
	int es;
	struct orc o;
	long long a[NSW] = { 0 }, v[NSW];
	long n = orc_pages(8);
	if (!ok(orc_set(&es, sw, NSW, 0) == PAPI_OK && orc_open(&o, sw, NSW, 0, 0) == 0, "a set for PAPI_accum"))
		return;
	orc_outer_on(&o);
	PAPI_start(es);
	orc_inner_on(&o);
	orc_touch(n);
	orc_inner_pause(&o);
	int r1 = PAPI_accum(es, a);
	orc_inner_resume(&o);
	orc_touch(2 * n);
	orc_inner_off(&o);
	int r2 = PAPI_accum(es, a);
	orc_outer_off(&o);
	PAPI_stop(es, v);
	ok(r1 == PAPI_OK && r2 == PAPI_OK, "PAPI_accum twice");
	check_all(&o, a, "PAPI_accum after touching n pages, again after 2n more");
	check_pages(&o, 3 * n, "PAPI_accum");
	orc_close(&o);
	orc_set_free(&es);
}

/* PAPI_reset while running: what came before it is dropped. */
static void reset(void)
{
	int es;
	struct orc o;
	long long v[NSW];
	long n = orc_pages(8);
	if (!ok(orc_set(&es, sw, NSW, 0) == PAPI_OK && orc_open(&o, sw, NSW, 0, 0) == 0, "a set for PAPI_reset"))
		return;
	orc_outer_on(&o);
	PAPI_start(es);
	orc_touch(4 * n);
	orc_outer_mark(&o);
	int r = PAPI_reset(es);
	orc_inner_on(&o);
	orc_touch(n);
	orc_inner_off(&o);
	PAPI_stop(es, v);
	orc_outer_off(&o);
	is_int(r, PAPI_OK, "PAPI_reset while running");
	check_all(&o, v, "touch 4n pages, PAPI_reset, touch n pages, PAPI_stop");
	check_pages(&o, n, "PAPI_reset");
	orc_close(&o);
	orc_set_free(&es);
}

/* A multiplexed set of software events: the kernel never takes them off
 * (their time running equals their time enabled), so libpapi's scaled
 * estimate is the count itself and the bracket is exact. Twice: start,
 * stop, start again. */
static void multiplexed(void)
{
	static const char *const names[] = { "perf::PAGE-FAULTS", "perf::TASK-CLOCK", "perf::CPU-CLOCK",
					     "perf::MINOR-FAULTS", "perf::CONTEXT-SWITCHES" };
	int es;
	struct orc o;
	long long v[5];
	long n = orc_pages(16);
	char what[96];
	is_int(PAPI_multiplex_init(), PAPI_OK, "PAPI_multiplex_init");
	if (!ok(orc_set(&es, names, 5, 1) == PAPI_OK && orc_open(&o, names, 5, 0, 0) == 0,
		"a multiplexed set of 5 software events"))
		return;
	for (int round = 1; round <= 2; round++) {
		snprintf(what, sizeof what, "multiplexed, round %d of start, touch %ld pages, stop", round, n);
		is_int(measure(es, &o, orc_touch, n, v), PAPI_OK, "%s", what);
		check_all(&o, v, what);
	}
	check_pages(&o, n, what);
	orc_close(&o);
	orc_set_free(&es);
}

/* read() from /dev/zero into fresh pages: the kernel takes their faults
 * while copying, in kernel mode, which the user domain leaves out (raw
 * counter and libpapi alike); getrusage counts them. */
static void read_pages(long n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = (size_t)n * pg;
	int fd = open("/dev/zero", O_RDONLY);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd >= 0 && p != MAP_FAILED) {
		madvise(p, len, MADV_NOHUGEPAGE);
		for (size_t off = 0; off < len;) {
			ssize_t k = read(fd, p + off, len - off);
			if (k <= 0)
				break;
			off += (size_t)k;
		}
	}
	if (p != MAP_FAILED)
		munmap(p, len);
	if (fd >= 0)
		close(fd);
}

static void kernel_faults(void)
{
	int es;
	struct orc o;
	long long v[NSW];
	long n = orc_pages(8);
	if (!ok(orc_set(&es, sw, NSW, 0) == PAPI_OK && orc_open(&o, sw, NSW, 0, 0) == 0,
		"a set for read() into fresh pages"))
		return;
	long f0 = orc_minflt(RUSAGE_SELF);
	is_int(measure(es, &o, read_pages, n, v), PAPI_OK, "start, read() into fresh pages, stop");
	long f1 = orc_minflt(RUSAGE_SELF);
	check_all(&o, v, "read() 8 MiB of /dev/zero into fresh pages");
	ok(f1 - f0 >= n, "getrusage saw the kernel's %ld faults on the pages read into (%ld)", n, f1 - f0);
	ok(v[0] < n, "the user domain leaves the kernel's faults out (libpapi %lld of %ld)", v[0], n);
	orc_close(&o);
	orc_set_free(&es);
}

/* Time: CPU spent and a sleep (which neither task-clock nor cpu-clock of
 * this thread counts while it is off the CPU). */
static void spin_sleep(long ms)
{
	orc_spin(ms * 1000000LL);
	struct timespec ts = { 0, ms * 1000000L };
	nanosleep(&ts, NULL);
}

static void clocks(void)
{
	int es;
	struct orc o;
	long long v[NSW];
	if (!ok(orc_set(&es, sw, NSW, 0) == PAPI_OK && orc_open(&o, sw, NSW, 0, 0) == 0, "a set for the clocks"))
		return;
	is_int(measure(es, &o, spin_sleep, 20, v), PAPI_OK, "start, spin 20 ms, sleep 20 ms, stop");
	check_all(&o, v, "20 ms on the CPU, then 20 ms asleep");
	/* (loosely: the thread's CPU clock and task-clock are kept apart
	 * and drift a few percent apart on a busy VM) */
	ok(o.lo[1] >= 10000000, "the raw task-clock saw at least half the 20 ms spent (%lld ns)", o.lo[1]);
	orc_close(&o);
	orc_set_free(&es);
}

int main(void)
{
	if (!ok(PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT, "PAPI_library_init"))
		return tap_done();
	/* One untested round first: the code and data of the measuring
	 * calls are then in place, so the brackets are tight. */
	int es;
	long long v[NSW];
	if (orc_set(&es, sw, NSW, 0) == PAPI_OK) {
		PAPI_start(es);
		orc_touch(1);
		PAPI_stop(es, v);
		orc_set_free(&es);
	}
	start_stop();
	restart();
	read_running();
	accum();
	reset();
	multiplexed();
	kernel_faults();
	clocks();
	return tap_done();
}

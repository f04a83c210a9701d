/* t_multiplex.c: kernel and software multiplexing with software events agree with plain counting. */
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#include "llapi_util.h"

static const char *const ev[] = { "perf::TASK-CLOCK", "perf::CPU-CLOCK", "perf::PAGE-FAULTS" };

/* Count ev over about sec of CPU with the given multiplexing (-1 none,
 * else the PAPI_MULTIPLEX flags) into v. */
static int measure(int mode, double sec, long long *v)
{
	int es = PAPI_NULL, r = PAPI_create_eventset(&es);
	/* the first event binds the set to its component */
	if (r == PAPI_OK)
		r = PAPI_add_event(es, code_of(ev[0]));
	if (r == PAPI_OK && mode >= 0) {
		PAPI_option_t o;
		memset(&o, 0, sizeof o);
		o.multiplex.eventset = es;
		o.multiplex.ns = 2000000;	/* 2 ms slices: many rotations */
		o.multiplex.flags = mode;
		r = PAPI_set_opt(PAPI_MULTIPLEX, &o);
	}
	for (int i = 1; r == PAPI_OK && i < 3; i++)
		r = PAPI_add_event(es, code_of(ev[i]));
	if (r == PAPI_OK)
		r = PAPI_start(es);
	if (r == PAPI_OK) {
		spin_cpu(sec);
		r = PAPI_stop(es, v);
	}
	set_free(&es);
	return r;
}

static void agree(void)
{
	long long plain[3], kmpx[3], smpx[3];
	is_int(measure(-1, 0.3, plain), PAPI_OK, "plain counting of three software events");
	is_int(measure(PAPI_MULTIPLEX_DEFAULT, 0.3, kmpx), PAPI_OK, "kernel multiplexing works for software events");
	is_int(measure(PAPI_MULTIPLEX_FORCE_SW, 0.3, smpx), PAPI_OK, "software multiplexing works for software events");
	diag("task-clock ns: plain %lld kernel-mpx %lld sw-mpx %lld", plain[0], kmpx[0], smpx[0]);
	diag("cpu-clock  ns: plain %lld kernel-mpx %lld sw-mpx %lld", plain[1], kmpx[1], smpx[1]);
	ok(near((double)kmpx[0], (double)plain[0], 0.5), "kernel-multiplexed task-clock agrees with plain counting");
	ok(near((double)kmpx[1], (double)plain[1], 0.5), "kernel-multiplexed cpu-clock agrees with plain counting");
	ok(near((double)smpx[0], (double)plain[0], 0.5), "software-multiplexed task-clock (scaled) agrees");
	ok(near((double)smpx[1], (double)plain[1], 0.5), "software-multiplexed cpu-clock (scaled) agrees");
	ok(smpx[2] >= 0 && kmpx[2] >= 0, "page faults are never negative");
}

/* The kernel's raw count of set es's first counter (a read() of its fd,
 * past the library); 0 when it cannot be read. */
static uint64_t raw_count(int es)
{
	EventSet_t *e = es_lookup(es);
	uint64_t raw[4] = { 0 };
	if (!e || e->nhw < 1 || read(e->hw[0].fd, raw, sizeof raw) != (ssize_t)sizeof raw)
		return 0;
	return raw[3];
}

/* Spins until each of the n sets es[] has been out of the rotation for a
 * fifth of the CPU time since t0 (its first counter's own count, from
 * raw0[], lags that time by more), in 20 ms steps after 100 ms, for at
 * most 5 s: on a busy machine the rotation thread may wait for a CPU, so a
 * fixed spin is not sure to see a rotation. A set that never rotates
 * still fails rotated(). */
static void spin_until_rotated(const int *es, const uint64_t *raw0, int n, double t0)
{
	spin_cpu(0.1);
	for (int i = 0; i < 250; i++) {
		double cpu_ns = (thread_cpu_s() - t0) * 1e9;
		int all = 1;
		for (int k = 0; k < n; k++)
			all &= (double)(raw_count(es[k]) - raw0[k]) < 0.8 * cpu_ns;
		if (all)
			return;
		spin_cpu(0.02);
	}
}

/* Reads of a software-multiplexed set never go back and reset restarts. */
static void monotonic(void)
{
	int es;
	int r = set_of(&es, ev, 2);
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.multiplex.eventset = es;
	o.multiplex.ns = 1000000;
	o.multiplex.flags = PAPI_MULTIPLEX_FORCE_SW;
	is_int(r, PAPI_OK, "a set with two events");
	is_int(PAPI_set_opt(PAPI_MULTIPLEX, &o), PAPI_OK, "converted after the events were added");
	is_int(PAPI_get_multiplex(es), 1, "PAPI_get_multiplex says multiplexed");
	memset(&o, 0, sizeof o);
	o.multiplex.eventset = es;
	is_int(PAPI_get_opt(PAPI_MULTIPLEX, &o), PAPI_OK, "PAPI_get_opt(PAPI_MULTIPLEX)");
	is_int(o.multiplex.flags, PAPI_MULTIPLEX_FORCE_SW, "flags read back");
	is_int(o.multiplex.ns, 1000000, "time slice read back");
	int st = 0;
	PAPI_state(es, &st);
	ok(st & PAPI_MULTIPLEXING, "state has PAPI_MULTIPLEXING");
	is_int(PAPI_start(es), PAPI_OK, "start");
	long long prev[2] = { 0, 0 }, v[2];
	int back = 0, reads = 0;
	for (int i = 0; i < 40; i++) {
		spin_cpu(0.003);
		if (PAPI_read(es, v) != PAPI_OK)
			break;
		reads++;
		for (int k = 0; k < 2; k++) {
			if (v[k] < prev[k])
				back++;
			prev[k] = v[k];
		}
	}
	is_int(reads, 40, "40 reads while rotating");
	is_int(back, 0, "no read is smaller than the one before");
	/* The kernel's own count of the first counter from here: the library
	 * never zeroes it (its reset is a new base), so the test takes its own. */
	uint64_t raw0 = raw_count(es);
	is_int(PAPI_reset(es), PAPI_OK, "reset while rotating");
	double t0 = thread_cpu_s();
	PAPI_read(es, v);
	ok(v[0] < prev[0], "after reset the count starts again (%lld < %lld)", v[0], prev[0]);
	long long acc[2] = { 0, 0 };
	spin_cpu(0.02);
	is_int(PAPI_accum(es, acc), PAPI_OK, "accum");
	ok(acc[0] > 0, "accum added a positive count");
	is_int(PAPI_set_multiplex(es), PAPI_EISRUN, "set_multiplex while running: PAPI_EISRUN");
	spin_until_rotated(&es, &raw0, 1, t0);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	double cpu_ns = (thread_cpu_s() - t0) * 1e9;
	/* The rotation really happened: the first counter's own kernel count
	 * (it counted about half of the time) is well below the estimate. */
	uint64_t raw1 = raw_count(es);
	ok(raw0 > 0 && raw1 > raw0, "raw reads of the first counter (%llu, %llu)",
	   (unsigned long long)raw0, (unsigned long long)raw1);
	ok(raw1 > raw0 && (double)(raw1 - raw0) < 0.8 * cpu_ns,
	   "its raw task-clock %llu ns is well below the %.0f ns of CPU since the reset",
	   (unsigned long long)(raw1 - raw0), cpu_ns);
	ok(v[0] > 0.05e9, "the scaled estimate after accum covers the last 0.1 s (%lld ns)", v[0]);
	is_int(PAPI_set_multiplex(es), PAPI_EINVAL, "set_multiplex twice: PAPI_EINVAL");
	set_free(&es);
}

/* A software-multiplexed set of ev[0..1] with 1 ms slices into *es. */
static int sw_set(int *es)
{
	int r = set_of(es, ev, 2);
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.multiplex.eventset = *es;
	o.multiplex.ns = 1000000;
	o.multiplex.flags = PAPI_MULTIPLEX_FORCE_SW;
	return r == PAPI_OK ? PAPI_set_opt(PAPI_MULTIPLEX, &o) : r;
}

/* Whether set es rotated while it counted cpu_ns of CPU: its first
 * counter's own kernel count grew from raw0 by well below that (it counted
 * about half of the time), and the scaled estimate covers it. */
static int rotated(int es, const long long *v, double cpu_ns, uint64_t raw0)
{
	uint64_t raw = raw_count(es);
	diag("raw %llu ns, scaled %lld ns, CPU %.0f ns", (unsigned long long)(raw - raw0), v[0], cpu_ns);
	return raw > raw0 && (double)(raw - raw0) < 0.8 * cpu_ns && (double)v[0] > 0.5 * cpu_ns;
}

/* The perf system calls the calling thread makes (the rotation thread's
 * are not its): read() and ioctl(), counted past the sys seam. */
static __thread long my_calls;

static ssize_t count_read(int fd, void *buf, size_t len)
{
	my_calls++;
	return sys_real.read(fd, buf, len);
}

static int count_ioctl(int fd, unsigned long req, unsigned long arg)
{
	my_calls++;
	return sys_real.ioctl(fd, req, arg);
}

/* read()s and ioctl()s of n PAPI_start and PAPI_stop pairs of set es, or
 * of n PAPI_reads when read (started once, outside the count). */
static long calls_of(int es, int n, int read)
{
	long long v[3];
	if (read && PAPI_start(es) != PAPI_OK)
		return -1;
	long before = my_calls;
	for (int i = 0; i < n; i++)
		if (read ? PAPI_read(es, v) != PAPI_OK
			 : PAPI_start(es) != PAPI_OK || PAPI_stop(es, v) != PAPI_OK)
			return -1;
	long c = my_calls - before;
	if (read && PAPI_stop(es, v) != PAPI_OK)
		return -1;
	return c;
}

/* A multiplexed set costs at most twice the system calls of a plain set of
 * the same three events per start and stop, and per read (debian's
 * papi_multiplex_cost runs a million of each: at one read(), RESET, ENABLE
 * and DISABLE per counter per call it ran for hours where a system call
 * costs microseconds). A budget in calls, not in time: load cannot move it.
 * The plain set is the yardstick: one group, one call per operation. */
static void syscall_budget(void)
{
	struct sys_ops counted = sys_real;
	counted.read = count_read;
	counted.ioctl = count_ioctl;
	sys_set_ops(&counted);
	int sets[3] = { PAPI_NULL, PAPI_NULL, PAPI_NULL };
	const char *what[3] = { "plain", "kernel-multiplexed", "software-multiplexed" };
	for (int m = 0; m < 3; m++) {
		int r = set_of(&sets[m], ev, 1);
		PAPI_option_t o;
		memset(&o, 0, sizeof o);
		o.multiplex.eventset = sets[m];
		o.multiplex.ns = 1000000000;	/* 1 s: the counted calls see no rotation */
		o.multiplex.flags = m == 2 ? PAPI_MULTIPLEX_FORCE_SW : PAPI_MULTIPLEX_DEFAULT;
		if (r == PAPI_OK && m > 0)
			r = PAPI_set_opt(PAPI_MULTIPLEX, &o);
		for (int i = 1; r == PAPI_OK && i < 3; i++)
			r = PAPI_add_event(sets[m], code_of(ev[i]));
		is_int(r, PAPI_OK, "a %s set of three software events", what[m]);
	}
	long ss[3], rd[3];
	for (int m = 0; m < 3; m++) {
		calls_of(sets[m], 1, 0);	/* the first start reads every counter */
		ss[m] = calls_of(sets[m], 100, 0);
		rd[m] = calls_of(sets[m], 100, 1);
	}
	sys_set_ops(NULL);
	diag("read()+ioctl() per 100 start+stop: plain %ld, kernel-mpx %ld, sw-mpx %ld", ss[0], ss[1], ss[2]);
	diag("read() per 100 PAPI_read: plain %ld, kernel-mpx %ld, sw-mpx %ld", rd[0], rd[1], rd[2]);
	ok(ss[0] > 0 && rd[0] > 0, "the plain set's calls were counted");
	for (int m = 1; m < 3; m++) {
		ok(ss[m] > 0 && ss[m] <= 2 * ss[0], "%s start+stop: at most twice the plain set's calls (%ld, %ld)",
		   what[m], ss[m], ss[0]);
		ok(rd[m] > 0 && rd[m] <= 2 * rd[0], "%s read: at most twice the plain set's calls (%ld, %ld)",
		   what[m], rd[m], rd[0]);
	}
	for (int m = 0; m < 3; m++)
		set_free(&sets[m]);
}

static int nthreads(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/task");
	for (struct dirent *de; d && (de = readdir(d));)
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* One rotation serves every running set: two at once, one restarted many
 * times without a thread per start, and a set in a child of fork. */
static void shared_rotation(void)
{
	int a = PAPI_NULL, b = PAPI_NULL;
	long long va[2], vb[2];
	is_int(sw_set(&a), PAPI_OK, "software-multiplexed set a");
	is_int(sw_set(&b), PAPI_OK, "software-multiplexed set b");
	uint64_t ra = raw_count(a), rb = raw_count(b);
	double t0 = thread_cpu_s();
	is_int(PAPI_start(a), PAPI_OK, "start a");
	is_int(PAPI_start(b), PAPI_OK, "start b while a runs");
	spin_until_rotated((int[]){ a, b }, (uint64_t[]){ ra, rb }, 2, t0);
	is_int(PAPI_stop(b, vb), PAPI_OK, "stop b");
	is_int(PAPI_stop(a, va), PAPI_OK, "stop a");
	double cpu_ns = (thread_cpu_s() - t0) * 1e9;
	ok(rotated(a, va, cpu_ns, ra), "set a rotated while b ran too");
	ok(rotated(b, vb, cpu_ns, rb), "set b rotated while a ran too");
	/* The rotation thread outlives the stop: a start makes none. */
	int before = nthreads(), most = 0;
	for (int i = 0; i < 50; i++) {
		PAPI_start(a);
		int n = nthreads();
		most = n > most ? n : most;
		PAPI_stop(a, va);
	}
	is_int(most, before, "50 starts and stops make no thread (%d threads)", before);
	ra = raw_count(a);
	t0 = thread_cpu_s();
	is_int(PAPI_start(a), PAPI_OK, "start a again");
	spin_until_rotated(&a, &ra, 1, t0);
	is_int(PAPI_stop(a, va), PAPI_OK, "stop a again");
	ok(rotated(a, va, (thread_cpu_s() - t0) * 1e9, ra), "a restarted set rotates again");
	pid_t pid = fork();
	if (pid == 0) {
		/* the child's copy of a counts the child: it must rotate
		 * without the parent's thread */
		/* its start opens the child's own counters, from zero */
		uint64_t r0 = 0;
		double c0 = thread_cpu_s();
		int r = PAPI_start(a);
		spin_cpu(0.1);
		if (r == PAPI_OK)
			r = PAPI_stop(a, va);
		_exit(r == PAPI_OK && rotated(a, va, (thread_cpu_s() - c0) * 1e9, r0) ? 0 : 1);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a set in a child of fork rotates (status %d)", st);
	set_free(&a);
	set_free(&b);
}

static void errors(void)
{
	int es = PAPI_NULL;
	is_int(PAPI_multiplex_init(), PAPI_OK, "PAPI_multiplex_init always PAPI_OK");
	is_int(PAPI_set_multiplex(12345), PAPI_ENOEVST, "set_multiplex on no set: PAPI_ENOEVST");
	is_int(PAPI_get_multiplex(12345), PAPI_ENOEVST, "get_multiplex on no set: PAPI_ENOEVST");
	PAPI_create_eventset(&es);
	is_int(PAPI_get_multiplex(es), 0, "a new set is not multiplexed");
	is_int(PAPI_set_multiplex(es), PAPI_ENOCMP, "set_multiplex before a component is bound: PAPI_ENOCMP (as PAPI 7)");
	is_int(PAPI_add_event(es, code_of("perf::TASK-CLOCK")), PAPI_OK, "adding an event binds the component");
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.multiplex.eventset = es;
	o.multiplex.flags = 0x100;
	is_int(PAPI_set_opt(PAPI_MULTIPLEX, &o), PAPI_EINVAL, "unknown multiplex flags: PAPI_EINVAL");
	o.multiplex.flags = 0;
	o.multiplex.ns = -5;
	is_int(PAPI_set_opt(PAPI_MULTIPLEX, &o), PAPI_EINVAL, "negative time slice: PAPI_EINVAL");
	is_int(PAPI_set_multiplex(es), PAPI_OK, "set_multiplex on a stopped set");
	is_int(PAPI_add_event(es, code_of("perf::CPU-CLOCK")), PAPI_OK, "events can be added after the conversion");
	is_int(PAPI_cleanup_eventset(es), PAPI_OK, "cleanup");
	is_int(PAPI_get_multiplex(es), 0, "cleanup makes the set plain again");
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	if (!code_of(ev[0]) || !code_of(ev[1]) || !code_of(ev[2])) {
		skip("perf:: software events unknown here", "multiplexing tests");
		return tap_done();
	}
	errors();
	agree();
	monotonic();
	shared_rotation();
	syscall_budget();
	PAPI_shutdown();
	return tap_done();
}

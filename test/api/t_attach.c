/* t_attach.c: attach to another process, bind to a CPU, inherit into children, fork and exec. */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "llapi_util.h"

static int tclk;

/* A child that, once a byte arrives on *go, burns 100 ms of its own CPU
 * time, writes a byte on *done and waits to be killed: a fixed amount of
 * work, however busy the machine. */
static pid_t worker(int *go, int *done)
{
	int g[2], d[2];
	if (pipe(g) < 0 || pipe(d) < 0)
		return -1;
	pid_t p = fork();
	if (p == 0) {
		char c;
		if (read(g[0], &c, 1) == 1) {
			spin_cpu(0.1);
			if (write(d[1], "d", 1) != 1)
				_exit(1);
		}
		for (;;)
			pause();
	}
	close(g[0]);
	close(d[1]);
	*go = g[1];
	*done = d[0];
	return p;
}

static double mono_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void attach_child(void)
{
	int go, done;
	pid_t child = worker(&go, &done);
	if (child < 0) {
		skip("fork failed", "attach to a working child");
		return;
	}
	int es = PAPI_NULL;
	long long v[1] = { 0 };
	PAPI_create_eventset(&es);
	is_int(PAPI_add_event(es, tclk), PAPI_OK, "task-clock added");
	is_int(PAPI_attach(es, (unsigned long)child), PAPI_OK, "PAPI_attach to the child");
	is_int(PAPI_attach(es, (unsigned long)child), PAPI_EINVAL, "attaching twice: PAPI_EINVAL");
	int st = 0;
	PAPI_state(es, &st);
	ok(st & PAPI_ATTACHED, "state has PAPI_ATTACHED");
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.attach.eventset = es;
	is_int(PAPI_get_opt(PAPI_ATTACH, &o), 1, "PAPI_get_opt(PAPI_ATTACH) is true");
	is_int((long long)o.attach.tid, child, "and names the child");
	is_int(PAPI_get_opt(PAPI_DETACH, &o), 0, "PAPI_get_opt(PAPI_DETACH) is false");
	double me0 = thread_cpu_s();
	is_int(PAPI_start(es), PAPI_OK, "start");
	is_int(PAPI_attach(es, 1), PAPI_EISRUN, "attach while running: PAPI_EISRUN");
	is_int(PAPI_detach(es), PAPI_EISRUN, "detach while running: PAPI_EISRUN");
	/* we wait, the child works its 100 ms of CPU */
	char c;
	ok(write(go, "g", 1) == 1 && read(done, &c, 1) == 1, "the child did its work");
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	close(go);
	close(done);
	double mine = (thread_cpu_s() - me0) * 1e9;
	diag("child task-clock %lld ns, our own CPU %.0f ns", v[0], mine);
	/* the spin is timed by the child's CPU clock, the count by the task
	 * clock: the two can differ a little */
	ok(v[0] > 90000000, "the child's CPU time was counted (%lld ns > 90 ms)", v[0]);
	ok((double)v[0] > 3 * mine, "it is the child's time, not ours");
	is_int(PAPI_detach(es), PAPI_OK, "PAPI_detach");
	is_int(PAPI_detach(es), PAPI_EINVAL, "detach when not attached: PAPI_EINVAL");
	is_int(PAPI_get_opt(PAPI_DETACH, &o), 1, "PAPI_get_opt(PAPI_DETACH) is true again");
	is_int(PAPI_start(es), PAPI_OK, "start after detach");
	spin_cpu(0.05);
	PAPI_stop(es, v);
	ok(v[0] > 20000000, "after detach we count ourselves (%lld ns)", v[0]);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	is_int(PAPI_attach(es, (unsigned long)child), PAPI_ESYS, "attach to a gone process: PAPI_ESYS (as PAPI 7)");
	PAPI_get_opt(PAPI_ATTACH, &o);
	is_int(PAPI_get_opt(PAPI_ATTACH, &o), 0, "the failed attach left the set detached");
	set_free(&es);
	is_int(PAPI_attach(54321, 1), PAPI_ENOEVST, "attach on no set: PAPI_ENOEVST");
	is_int(PAPI_detach(54321), PAPI_ENOEVST, "detach on no set: PAPI_ENOEVST");
	PAPI_create_eventset(&es);
	is_int(PAPI_attach(es, 1), PAPI_ENOCMP, "attach before any event: PAPI_ENOCMP (as PAPI 7)");
	PAPI_destroy_eventset(&es);
}

static void cpu_bound(void)
{
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	PAPI_add_event(es, code_of("perf::CPU-CLOCK"));
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.cpu.eventset = es;
	o.cpu.cpu_num = 100000;
	is_int(PAPI_set_opt(PAPI_CPU_ATTACH, &o), PAPI_EINVAL, "CPU_ATTACH to a CPU that does not exist: PAPI_EINVAL");
	o.cpu.cpu_num = 0;
	int r = PAPI_set_opt(PAPI_CPU_ATTACH, &o);
	if (r == PAPI_EPERM) {
		skip("counting a whole CPU needs root or perf_event_paranoid 0 or lower", "CPU_ATTACH counts CPU 0");
		set_free(&es);
		return;
	}
	is_int(r, PAPI_OK, "CPU_ATTACH to CPU 0 (system-wide)");
	memset(&o, 0, sizeof o);
	o.cpu.eventset = es;
	is_int(PAPI_get_opt(PAPI_CPU_ATTACH, &o), 1, "PAPI_get_opt(PAPI_CPU_ATTACH) is true");
	is_int(o.cpu.cpu_num, 0, "and names CPU 0");
	long long v[1] = { 0 };
	double t0 = mono_s();
	PAPI_start(es);
	double t1 = mono_s();
	usleep(200000);
	double t2 = mono_s();
	PAPI_stop(es, v);
	double t3 = mono_s();
	/* cpu-clock of a CPU runs whether or not we use it: the wall time it
	 * was enabled, which lies between what we saw inside and around the
	 * start and stop, however long the sleep really took. */
	ok(v[0] >= (long long)((t2 - t1) * 1e9 * 0.99) && v[0] <= (long long)((t3 - t0) * 1e9 * 1.01) + 1000000,
	   "CPU 0's clock ran while enabled (%lld ns, slept %.0f ns)", v[0], (t2 - t1) * 1e9);
	set_free(&es);
}

static void inherit(void)
{
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	PAPI_add_event(es, tclk);
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.inherit.eventset = es;
	o.inherit.inherit = 7;
	is_int(PAPI_set_opt(PAPI_INHERIT, &o), PAPI_EINVAL, "inherit value other than ALL/NONE: PAPI_EINVAL");
	o.inherit.inherit = PAPI_INHERIT_ALL;
	is_int(PAPI_set_opt(PAPI_INHERIT, &o), PAPI_OK, "PAPI_INHERIT set");
	memset(&o, 0, sizeof o);
	o.inherit.eventset = es;
	PAPI_get_opt(PAPI_INHERIT, &o);
	is_int(o.inherit.inherit, PAPI_INHERIT_ALL, "PAPI_INHERIT reads back");
	long long v[1] = { 0 };
	PAPI_start(es);
	pid_t c = fork();
	if (c == 0) {
		spin_cpu(0.3);
		_exit(0);
	}
	waitpid(c, NULL, 0);
	PAPI_stop(es, v);
	ok(v[0] > 200000000, "the exited child's 0.3 s was inherited (%lld ns)", v[0]);
	set_free(&es);
}

/* After fork the child's sets count the child only, from zero. */
static void fork_clean(void)
{
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	PAPI_add_event(es, tclk);
	PAPI_start(es);
	spin_cpu(0.2);
	int fd[2];
	if (pipe(fd) < 0) {
		skip("pipe failed", "fork child starts clean");
		set_free(&es);
		return;
	}
	pid_t c = fork();
	if (c == 0) {
		long long cv[3] = { -1, -1, -1 };
		int st = 0;
		PAPI_state(es, &st);
		cv[0] = st;
		PAPI_read(es, &cv[1]);
		if (PAPI_start(es) == PAPI_OK) {
			spin_cpu(0.05);
			PAPI_stop(es, &cv[2]);
		}
		ssize_t w = write(fd[1], cv, sizeof cv);
		_exit(w == (ssize_t)sizeof cv ? 0 : 1);
	}
	close(fd[1]);
	long long cv[3] = { 0, 0, 0 };
	ssize_t got = read(fd[0], cv, sizeof cv);
	close(fd[0]);
	waitpid(c, NULL, 0);
	long long pv[1];
	PAPI_stop(es, pv);
	is_int(got, (long long)sizeof cv, "the child reported");
	ok(!(cv[0] & PAPI_RUNNING), "in the child the set is stopped");
	is_int(cv[1], 0, "the child reads zero, not the parent's counts");
	ok(cv[2] > 20000000 && cv[2] < 150000000, "the child counts its own 0.05 s (%lld ns)", cv[2]);
	ok(pv[0] > 150000000, "the parent's count is intact (%lld ns)", pv[0]);
	set_free(&es);
}

/* Run ourselves again through exec: the new image initializes afresh. */
static int exec_child(void)
{
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return 2;
	int es = PAPI_NULL;
	long long v[1] = { 0 };
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_event(es, code_of("perf::TASK-CLOCK")) != PAPI_OK ||
	    PAPI_start(es) != PAPI_OK)
		return 3;
	spin_cpu(0.02);
	if (PAPI_stop(es, v) != PAPI_OK || v[0] <= 0)
		return 4;
	return 0;
}

static void exec_again(const char *self)
{
	pid_t c = fork();
	if (c == 0) {
		execl(self, self, "--exec-child", (char *)NULL);
		_exit(9);
	}
	int st = -1;
	waitpid(c, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "after exec PAPI_library_init and counting work (status %d)",
	   WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--exec-child"))
		return exec_child();
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	tclk = code_of("perf::TASK-CLOCK");
	if (!tclk) {
		skip("perf::TASK-CLOCK unknown here", "attach tests");
		return tap_done();
	}
	attach_child();
	cpu_bound();
	inherit();
	fork_clean();
	exec_again(argv[0]);
	PAPI_shutdown();
	return tap_done();
}

/* t_threads_proc.c: fork while counting, exec, and PAPI_read from a signal handler (real kernel, software events). */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static volatile double sink;

static void burn_ms(long ms)
{
	/* CPU time, not wall time: task-clock only advances while we run. */
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	double x = 1.0;
	do {
		for (int i = 0; i < 10000; i++)
			x = x * 1.0000001 + 0.5;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	sink = x;
}

static int counting_set(void)
{
	int es = PAPI_NULL;
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, "perf::TASK-CLOCK") != PAPI_OK ||
	    PAPI_start(es) != PAPI_OK)
		return -1;
	return es;
}

static void fork_while_counting(void)
{
	int es = counting_set();
	ok(es >= 0, "parent counts task-clock");
	long long before, after;
	PAPI_read(es, &before);
	pid_t pid = fork();
	if (pid == 0) {
		/* The child: its own set counts its own work from zero. */
		int mine = counting_set();
		long long v = 0;
		burn_ms(200);
		int ok_child = mine >= 0 && PAPI_stop(mine, &v) == PAPI_OK && v >= 150000000;
		PAPI_shutdown();
		_exit(ok_child ? 0 : 1);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	is_int(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0, "the child counted its 200 ms of work with a set of its own");
	PAPI_read(es, &after);
	ok(after >= before && after - before < 150000000,
	   "the child's work is not in the parent's count (+%lld ns)", after - before);
	PAPI_stop(es, NULL);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static void exec_while_counting(void)
{
	int es = counting_set();
	EventSet_t *s = es_lookup(es);
	int cloexec = s && s->nhw > 0 && (fcntl(s->hw[0].fd, F_GETFD) & FD_CLOEXEC);
	ok(cloexec, "counter descriptors are close-on-exec");
	pid_t pid = fork();
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
		_exit(127);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	is_int(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 7, "a program exec'd while counting runs");
	long long v = -1;
	is_int(PAPI_stop(es, &v), PAPI_OK, "the parent's set still stops");
	ok(v > 0, "and has counted");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static int sig_es;
static volatile sig_atomic_t sig_reads, sig_bad;
static long long sig_last;

static void on_prof(int sig)
{
	long long v[2];
	if (PAPI_read(sig_es, v) != PAPI_OK || v[0] < sig_last)
		sig_bad++;
	else
		sig_last = v[0];
	sig_reads++;
}

static void read_in_handler(void)
{
	sig_es = PAPI_NULL;
	PAPI_create_eventset(&sig_es);
	PAPI_add_named_event(sig_es, "perf::TASK-CLOCK");
	PAPI_add_named_event(sig_es, "perf::PAGE-FAULTS");
	PAPI_start(sig_es);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_prof;
	sigaction(SIGPROF, &sa, NULL);
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	setitimer(ITIMER_PROF, &it, NULL);
	int bad_main = 0;
	long long v[2], last = 0;
	/* The main line reads the same set while the handler interrupts it. */
	while (sig_reads < 50) {
		if (PAPI_read(sig_es, v) != PAPI_OK || v[0] < last)
			bad_main++;
		last = v[0];
	}
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_PROF, &it, NULL);
	is_int(sig_bad, 0, "PAPI_read in a SIGPROF handler: %d reads, all OK and growing", (int)sig_reads);
	is_int(bad_main, 0, "the interrupted reads of the main line stay OK and growing");
	PAPI_stop(sig_es, NULL);
	PAPI_cleanup_eventset(sig_es);
	PAPI_destroy_eventset(&sig_es);
}

int main(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init");
	fork_while_counting();
	exec_while_counting();
	read_in_handler();
	PAPI_shutdown();
	return tap_done();
}

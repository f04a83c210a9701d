/* t_native_cpu.c: the :cpu=N qualifier: refused for a CPU this machine lacks, honoured (a task counted on CPU N only, unscaled) otherwise. */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "papi.h"
#include "tap.h"
#include "llapi_util.h"

static long ncpu;

/* :cpu=N of a CPU that does not exist: EINVAL from every naming call. */
static void refused(void)
{
	char name[96];
	int code;
	snprintf(name, sizeof name, "perf::TASK-CLOCK:cpu=%ld", ncpu);
	is_int(PAPI_event_name_to_code(name, &code), PAPI_EINVAL, "%s (one past the last CPU) -> EINVAL", name);
	is_int(PAPI_query_named_event(name), PAPI_EINVAL, "query_named_event(%s) -> EINVAL", name);
	int es = PAPI_NULL;
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create_eventset");
	is_int(PAPI_add_named_event(es, name), PAPI_EINVAL, "add_named_event(%s) -> EINVAL", name);
	is_int(PAPI_num_events(es), 0, "nothing was added");
	PAPI_destroy_eventset(&es);
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK:cpu=99999999", &code), PAPI_EINVAL,
	       "cpu=99999999 -> EINVAL");
	snprintf(name, sizeof name, "perf::TASK-CLOCK:cpu=%ld", ncpu - 1);
	is_int(PAPI_event_name_to_code(name, &code), PAPI_OK, "%s (the last CPU) resolves", name);
}

static void spin_ms(long ms)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* Pinned to the last CPU, a task counts nothing on CPU 0 and its whole
 * task clock on the last one: exactly so, however busy the machine. */
static void honoured(void)
{
	if (ncpu < 2) {
		skip("one CPU: nothing to tell apart", ":cpu=N counts on CPU N only");
		return;
	}
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET((int)ncpu - 1, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0) {
		skip("cannot pin this thread to the last CPU", ":cpu=N counts on CPU N only");
		return;
	}
	char last[96];
	snprintf(last, sizeof last, "perf::TASK-CLOCK:cpu=%ld", ncpu - 1);
	int es = PAPI_NULL;
	long long v[3] = { -1, -1, -1 };
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create_eventset");
	is_int(PAPI_add_named_event(es, "perf::TASK-CLOCK:cpu=0"), PAPI_OK, "add perf::TASK-CLOCK:cpu=0");
	is_int(PAPI_add_named_event(es, last), PAPI_OK, "add %s", last);
	is_int(PAPI_add_named_event(es, "perf::TASK-CLOCK"), PAPI_OK, "add perf::TASK-CLOCK");
	is_int(PAPI_start(es), PAPI_OK, "start");
	spin_ms(30);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	is_int(v[0], 0, "pinned elsewhere: nothing counted on CPU 0");
	/* the spin is timed by the thread's CPU clock, the count by the task
	 * clock: the two can differ a little */
	ok(v[1] >= 27000000, "on the last CPU: the task's 30 ms spin (%lld ns)", v[1]);
	ok(v[2] >= 27000000, "unbound: the same spin (%lld ns)", v[2]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static int pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set);
}

/* A thread that faults 2000 pages on CPU 0, then 2000 on the last CPU:
 * each :cpu=N counter counts its CPU's share as it is, never scaled up for
 * the time the thread spent on the other (that is no multiplexing), and
 * the shares add up to the unrestricted count, which getrusage confirms.
 * mpx: the set multiplexed by the kernel (which never rotates software
 * events out: the counts stay exact). */
static void split(int mpx)
{
	if (ncpu < 2) {
		skip("one CPU: nothing to split", ":cpu=N counts add up");
		return;
	}
	if (pin(0) != 0) {
		skip("cannot pin this thread to CPU 0", ":cpu=N counts add up");
		return;
	}
	char last[96];
	snprintf(last, sizeof last, "perf::PAGE-FAULTS:cpu=%ld", ncpu - 1);
	int es = PAPI_NULL;
	long long v[3] = { -1, -1, -1 }, r[3] = { -1, -1, -1 };
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create_eventset");
	if (mpx) {
		is_int(PAPI_assign_eventset_component(es, 0), PAPI_OK, "assign_eventset_component");
		is_int(PAPI_set_multiplex(es), PAPI_OK, "set_multiplex");
	}
	is_int(PAPI_add_named_event(es, "perf::PAGE-FAULTS:cpu=0"), PAPI_OK, "add perf::PAGE-FAULTS:cpu=0");
	is_int(PAPI_add_named_event(es, last), PAPI_OK, "add %s", last);
	is_int(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK, "add perf::PAGE-FAULTS");
	struct rusage ru0, ru1;
	getrusage(RUSAGE_THREAD, &ru0);
	is_int(PAPI_start(es), PAPI_OK, "start");
	long on0 = touch_pages(2000);
	int moved = pin((int)ncpu - 1) == 0;
	long onl = touch_pages(2000);
	is_int(PAPI_read(es, r), PAPI_OK, "read");
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	getrusage(RUSAGE_THREAD, &ru1);
	const char *how = mpx ? "multiplexed: " : "";
	ok(moved && on0 == 2000 && onl == 2000, "%sthe workload ran on both CPUs", how);
	ok(v[0] >= on0 && v[0] < on0 + touch_slack(on0), "%son CPU 0: its 2000 pages, unscaled (%lld)", how, v[0]);
	ok(v[1] >= onl && v[1] < onl + touch_slack(onl), "%son the last CPU: its 2000 pages, unscaled (%lld)", how, v[1]);
	is_int(v[0] + v[1], v[2], "%sthe CPUs' parts add up to the whole (%lld + %lld)", how, v[0], v[1]);
	is_int(r[0] + r[1], r[2], "%sso does PAPI_read's (%lld + %lld)", how, r[0], r[1]);
	long rus = (ru1.ru_minflt - ru0.ru_minflt) + (ru1.ru_majflt - ru0.ru_majflt);
	ok(v[2] <= rus && v[2] >= rus - 16, "%sthe whole as getrusage counts it (%lld of %ld)", how, v[2], rus);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* A set of one :cpu=N event alone (one group: read apart from the others'
 * way): the same, its CPU's pages unscaled. */
static void alone(void)
{
	if (ncpu < 2 || pin(0) != 0) {
		skip("one CPU, or cannot pin to CPU 0", ":cpu=N alone counts unscaled");
		return;
	}
	int es = PAPI_NULL;
	long long v = -1;
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create_eventset");
	is_int(PAPI_add_named_event(es, "perf::PAGE-FAULTS:cpu=0"), PAPI_OK, "add perf::PAGE-FAULTS:cpu=0 alone");
	is_int(PAPI_start(es), PAPI_OK, "start");
	long on0 = touch_pages(2000);
	int moved = pin((int)ncpu - 1) == 0;
	touch_pages(2000);
	is_int(PAPI_stop(es, &v), PAPI_OK, "stop");
	ok(moved && v >= on0 && v < on0 + touch_slack(on0), "alone on CPU 0: its 2000 pages, unscaled (%lld)", v);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1)
		ncpu = 1;
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	refused();
	honoured();
	split(0);
	is_int(PAPI_multiplex_init(), PAPI_OK, "multiplex_init");
	split(1);
	alone();
	PAPI_shutdown();
	return tap_done();
}

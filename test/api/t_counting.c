/* t_counting.c: counting real software events through the kernel: start/stop/read/accum/reset on perf groups. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "papi.h"
#include "tap.h"

static volatile double sink;

static void burn(long n)
{
	double x = 1.0;
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 0.5;
	sink = x;
}

/* Touch npages fresh anonymous pages: each first touch is a page fault. */
static void touch(size_t npages)
{
	long ps = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, npages * (size_t)ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	for (size_t i = 0; i < npages; i++)
		p[i * (size_t)ps] = 1;
	munmap(p, npages * (size_t)ps);
}

int main(void)
{
	long long v[4] = { 0 }, w[4] = { 0 };
	int es = PAPI_NULL;

	/* Before init everything says so. */
	is_int(PAPI_create_eventset(&es), PAPI_ENOINIT, "create before init: PAPI_ENOINIT");
	is_int(PAPI_start(0), PAPI_ENOINIT, "start before init: PAPI_ENOINIT");
	is_int(PAPI_is_initialized(), PAPI_NOT_INITED, "not initialized yet");
	is_int(PAPI_library_init(PAPI_VER_CURRENT + 1), PAPI_EINVAL, "wrong version: PAPI_EINVAL");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init again is harmless");
	is_int(PAPI_is_initialized(), PAPI_LOW_LEVEL_INITED, "low-level initialized");

	is_int(PAPI_create_eventset(NULL), PAPI_EINVAL, "create(NULL): PAPI_EINVAL");
	es = 5;
	is_int(PAPI_create_eventset(&es), PAPI_EINVAL, "create with *es != PAPI_NULL: PAPI_EINVAL");
	es = PAPI_NULL;
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create");
	ok(es >= 0, "eventset id %d is not negative", es);
	is_int(PAPI_start(es), PAPI_ENOCMP, "start of a never-filled set: PAPI_ENOCMP");
	is_int(PAPI_stop(es, v), PAPI_ENOTRUN, "stop of a never-started set: PAPI_ENOTRUN");

	is_int(PAPI_add_named_event(es, "perf::TASK-CLOCK"), PAPI_OK, "add perf::TASK-CLOCK");
	is_int(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK, "add perf::PAGE-FAULTS");
	is_int(PAPI_add_named_event(es, "perf::TASK-CLOCK"), PAPI_ECNFLCT, "same event twice: PAPI_ECNFLCT");
	is_int(PAPI_add_named_event(es, "perf::NO-SUCH-EVENT"), PAPI_ENOEVNT, "unknown event: PAPI_ENOEVNT");
	is_int(PAPI_add_named_event(es, NULL), PAPI_EINVAL, "NULL name: PAPI_EINVAL");
	is_int(PAPI_add_event(es, 0x12345), PAPI_ENOEVNT, "junk code: PAPI_ENOEVNT");
	is_int(PAPI_num_events(es), 2, "two events in the set");

	int codes[4], n = 4;
	is_int(PAPI_list_events(es, codes, &n), PAPI_OK, "list_events");
	is_int(n, 2, "list_events reports two");
	/* The size query of PAPI 7.0: *number == 0 asks for the count. */
	n = 0;
	is_int(PAPI_list_events(es, NULL, &n), PAPI_OK, "list_events(NULL, &0)");
	is_int(n, 2, "list_events(NULL, &0) gives the number of events");
	n = 0, codes[0] = -5;
	is_int(PAPI_list_events(es, codes, &n), PAPI_OK, "list_events(codes, &0)");
	ok(n == 2 && codes[0] == -5, "list_events(codes, &0) gives the count and copies nothing");
	n = 1;
	is_int(PAPI_list_events(es, codes, &n), PAPI_OK, "list_events(codes, &1)");
	is_int(n, 1, "list_events(codes, &1) copies one");
	n = 3;
	is_int(PAPI_list_events(es, NULL, &n), PAPI_EINVAL, "list_events(NULL, &3): PAPI_EINVAL");

	/* A group read returns every member; task-clock grows with CPU work. */
	is_int(PAPI_start(es), PAPI_OK, "start");
	is_int(PAPI_start(es), PAPI_EISRUN, "start twice: PAPI_EISRUN");
	is_int(PAPI_add_named_event(es, "perf::CONTEXT-SWITCHES"), PAPI_EISRUN, "add to a running set: PAPI_EISRUN");
	int st = 0;
	is_int(PAPI_state(es, &st), PAPI_OK, "state");
	ok(st & PAPI_RUNNING, "state says running");
	burn(20000000);
	touch(64);
	is_int(PAPI_read(es, v), PAPI_OK, "read while running");
	ok(v[0] > 1000000, "task-clock counted CPU work (%lld ns)", v[0]);
	ok(v[1] >= 64, "page-faults counted 64 touched pages (%lld)", v[1]);
	burn(20000000);
	is_int(PAPI_read(es, w), PAPI_OK, "second read");
	ok(w[0] > v[0], "task-clock keeps growing (%lld > %lld)", w[0], v[0]);
	is_int(PAPI_read(es, NULL), PAPI_EINVAL, "read(NULL): PAPI_EINVAL");

	/* reset zeroes: a read right after is smaller than before. */
	is_int(PAPI_reset(es), PAPI_OK, "reset");
	is_int(PAPI_read(es, v), PAPI_OK, "read after reset");
	ok(v[0] < w[0] / 2, "reset zeroed task-clock (%lld after, %lld before)", v[0], w[0]);

	/* accum adds and zeroes. */
	long long acc[2] = { 1000, 5 };
	burn(10000000);
	is_int(PAPI_accum(es, acc), PAPI_OK, "accum");
	ok(acc[0] > 1000 + 100000, "accum added task-clock (%lld)", acc[0]);
	ok(acc[1] >= 5, "accum kept the page-fault base (%lld)", acc[1]);
	is_int(PAPI_read(es, v), PAPI_OK, "read after accum");
	ok(v[0] < acc[0] - 1000, "accum zeroed the counters (%lld)", v[0]);

	long long ts = 0;
	is_int(PAPI_read_ts(es, v, &ts), PAPI_OK, "read_ts");
	ok(ts > 0, "read_ts gives a cycle stamp");

	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	is_int(PAPI_stop(es, v), PAPI_ENOTRUN, "stop twice: PAPI_ENOTRUN");
	is_int(PAPI_read(es, w), PAPI_OK, "read a stopped set");
	is_int(w[0], v[0], "a stopped set reads what it stopped with");
	is_int(PAPI_write(es, v), PAPI_ENOSUPP, "write: PAPI_ENOSUPP on perf_event");

	/* Remove, clean up, destroy. */
	is_int(PAPI_remove_named_event(es, "perf::PAGE-FAULTS"), PAPI_OK, "remove");
	is_int(PAPI_remove_named_event(es, "perf::PAGE-FAULTS"), PAPI_EINVAL, "remove again: PAPI_EINVAL");
	is_int(PAPI_num_events(es), 1, "one event left");
	is_int(PAPI_start(es), PAPI_OK, "start after remove");
	burn(5000000);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop after remove");
	ok(v[0] > 0, "remaining event still counts (%lld)", v[0]);
	is_int(PAPI_destroy_eventset(&es), PAPI_EINVAL, "destroy a non-empty set: PAPI_EINVAL");
	is_int(PAPI_cleanup_eventset(es), PAPI_OK, "cleanup");
	int old = es;
	is_int(PAPI_destroy_eventset(&es), PAPI_OK, "destroy");
	is_int(es, PAPI_NULL, "destroy sets PAPI_NULL");
	is_int(PAPI_read(old, v), PAPI_ENOEVST, "read a destroyed set: PAPI_ENOEVST");
	is_int(PAPI_start(old), PAPI_ENOEVST, "start a destroyed set: PAPI_ENOEVST");
	is_int(PAPI_num_events(-7), PAPI_ENOEVST, "negative id: PAPI_ENOEVST");
	is_int(PAPI_destroy_eventset(NULL), PAPI_EINVAL, "destroy(NULL): PAPI_EINVAL");

	/* Timers move forward. */
	long long r0 = PAPI_get_real_nsec(), c0 = PAPI_get_virt_nsec();
	burn(5000000);
	ok(PAPI_get_real_nsec() > r0, "real nsec advances");
	ok(PAPI_get_virt_nsec() > c0, "virtual nsec advances with CPU work");
	ok(PAPI_get_real_usec() > 0 && PAPI_get_real_cyc() > 0, "real usec and cycles are positive");

	const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
	ok(hw != NULL, "hardware info");
	ok(hw && hw->totalcpus >= 1 && hw->cores >= 1 && hw->sockets >= 1, "topology is filled");
	ok(hw && hw->vendor_string[0], "vendor string is filled (%s)", hw ? hw->vendor_string : "");

	is_str(PAPI_strerror(PAPI_ENOEVNT), "Event does not exist", "strerror");
	ok(PAPI_strerror(-1000) == NULL && PAPI_strerror(1) == NULL, "strerror of a non-code is NULL");

	PAPI_shutdown();
	is_int(PAPI_is_initialized(), PAPI_NOT_INITED, "shutdown");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init again after shutdown");
	es = PAPI_NULL;
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create after re-init");
	is_int(PAPI_add_named_event(es, "perf::TASK-CLOCK"), PAPI_OK, "add after re-init");
	PAPI_shutdown();
	return tap_done();
}

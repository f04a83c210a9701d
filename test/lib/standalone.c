/* standalone.c: a program linked with libpapi.a alone (cc prog.c libpapi.a -lpthread -lm -ldl) that counts, with names of libpfm4 and libcsv of its own or with the system's libpfm4 beside it. */
/*
 * Built three ways by library.bats:
 *   -DOWN_NAMES   it defines pfm_initialize, pfm_strerror and csv_init
 *                 itself, with other meanings: libpapi.a's copies are its own
 *   -DSYSTEM_PFM  it links -lpfm and asks the system's libpfm4 for an event
 *   neither       plain
 * It also calls PAPI_library_init from a constructor of its own, which runs
 * before main (and libpfm4 starts then). An event named as its argument
 * is looked up (in libpfm4, which writes what LIBPFM_VERBOSE asks for to
 * stderr, or to stdout with LIBPFM_DEBUG_STDOUT). It counts perf::TASK-CLOCK over a
 * loop and prints "ok" when the count is at least 80% of the thread's CPU
 * time (clock_gettime(CLOCK_THREAD_CPUTIME_ID), which shares nothing with
 * libpapi) and at most the wall time (CLOCK_MONOTONIC) around it, then
 * what its own names gave.
 */
#include <stdio.h>
#include <time.h>

#include "papi.h"

#ifdef SYSTEM_PFM
#include <perfmon/pfmlib.h>
#endif

#ifdef OWN_NAMES
int pfm_initialize(void)
{
	return 42;
}

const char *pfm_strerror(int code)
{
	return code == 42 ? "mine" : "?";
}

int csv_init(void *parser, unsigned char options)
{
	return parser ? -1 : options + 1;
}
#endif

static int init_in_constructor;

__attribute__((constructor)) static void early(void)
{
	init_in_constructor = PAPI_library_init(PAPI_VER_CURRENT);
}

static long long clock_ns(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long long thread_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static long long wall_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

int main(int argc, char **argv)
{
	int es = PAPI_NULL, r, code;
	long long v = 0, t0, t1;
	volatile double x = 0;

	if (init_in_constructor != PAPI_VER_CURRENT) {
		fprintf(stderr, "PAPI_library_init: %d\n", init_in_constructor);
		return 1;
	}
	/* an event named on the command line is looked up first: through
	 * libpfm4, which then writes what LIBPFM_VERBOSE asks for */
	if (argc > 1 && (r = PAPI_event_name_to_code(argv[1], &code)) != PAPI_OK)
		printf("%s: %s\n", argv[1], PAPI_strerror(r));
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK ||
	    (r = PAPI_add_named_event(es, "perf::TASK-CLOCK")) != PAPI_OK) {
		fprintf(stderr, "perf::TASK-CLOCK: %s\n", PAPI_strerror(r));
		return 1;
	}
	t0 = thread_ns();
	long long w0 = wall_ns();
	if ((r = PAPI_start(es)) != PAPI_OK)
		return fprintf(stderr, "PAPI_start: %s\n", PAPI_strerror(r)), 1;
	for (long i = 0; i < 20000000; i++)
		x += (double)i;
	if ((r = PAPI_stop(es, &v)) != PAPI_OK)
		return fprintf(stderr, "PAPI_stop: %s\n", PAPI_strerror(r)), 1;
	long long w1 = wall_ns();
	t1 = thread_ns();
	/* the counter runs for all of the loop, at least most of the thread's
	 * CPU time over it, and never longer than the wall time around it: the
	 * task clock also runs while a VM's CPU is stolen or an interrupt is
	 * served, which the thread's CPU clock leaves out */
	printf("%s %lld %lld\n", v >= (t1 - t0) * 8 / 10 && v <= w1 - w0 ? "ok" : "off", v, t1 - t0);
#ifdef OWN_NAMES
	printf("own %d %s %d\n", pfm_initialize(), pfm_strerror(42), csv_init(NULL, 1));
#endif
#ifdef SYSTEM_PFM
	pfm_pmu_encode_arg_t enc = { 0 };
	r = pfm_initialize();
	printf("system libpfm4 %s", r == PFM_SUCCESS ? "initialized" : pfm_strerror(r));
	r = pfm_get_os_event_encoding("perf::TASK-CLOCK", PFM_PLM3, PFM_OS_NONE, &enc);
	printf(", perf::TASK-CLOCK %s\n", r == PFM_SUCCESS ? "found" : pfm_strerror(r));
	pfm_terminate();	/* what it allocated, freed (LeakSanitizer checks) */
#endif
	return 0;
}

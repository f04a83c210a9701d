/* t_threads_shutdown.c: PAPI_shutdown while other threads still count and read their EventSets does not crash. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "papi.h"
#include "tap.h"

#define NTHREADS 4

static atomic_int stop_now, ready, bad_codes, after_ok;
static atomic_long reads;

static void *worker(void *arg)
{
	(void)arg;
	int es = PAPI_NULL;
	long long v[2];
	if (PAPI_create_eventset(&es) != PAPI_OK ||
	    PAPI_add_named_event(es, "perf::TASK-CLOCK") != PAPI_OK ||
	    PAPI_add_named_event(es, "perf::CONTEXT-SWITCHES") != PAPI_OK ||
	    PAPI_start(es) != PAPI_OK) {
		atomic_fetch_add(&bad_codes, 1);
		atomic_fetch_add(&ready, 1);
		return NULL;
	}
	atomic_fetch_add(&ready, 1);
	int gone = 0;
	while (!atomic_load(&stop_now)) {
		/* Keep every kind of call going: read, stop/start, state. */
		int r = PAPI_read(es, v), s = PAPI_OK;
		if (r == PAPI_OK && (atomic_fetch_add(&reads, 1) & 7) == 0) {
			s = PAPI_stop(es, v);
			if (s == PAPI_OK)
				s = PAPI_start(es);
		}
		if (r == PAPI_OK && (s == PAPI_OK || s == PAPI_ENOINIT || s == PAPI_ENOEVST))
			continue;
		if ((r != PAPI_ENOINIT && r != PAPI_ENOEVST && r != PAPI_OK) ||
		    (s != PAPI_OK && s != PAPI_ENOINIT && s != PAPI_ENOEVST))
			atomic_fetch_add(&bad_codes, 1);
		gone = 1;
		break;
	}
	/* After shutdown the set is gone, whatever this thread does. */
	if (gone && PAPI_read(es, v) == PAPI_OK)
		atomic_fetch_add(&after_ok, 1);
	return NULL;
}

int main(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init");
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	while (atomic_load(&ready) < NTHREADS)
		sched_yield();
	/* Let them read a while (a count, not a time: robust under load). */
	while (atomic_load(&reads) < 2000)
		sched_yield();
	PAPI_shutdown();
	ok(1, "PAPI_shutdown returned while %d threads were reading", NTHREADS);
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	atomic_store(&stop_now, 1);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	is_int(atomic_load(&bad_codes), 0, "readers saw only PAPI_OK, PAPI_ENOINIT or PAPI_ENOEVST");
	is_int(atomic_load(&after_ok), 0, "no set survived the shutdown");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init again after shutdown");
	int es = PAPI_NULL;
	is_int(PAPI_create_eventset(&es), PAPI_OK, "and it works");
	PAPI_shutdown();
	return tap_done();
}

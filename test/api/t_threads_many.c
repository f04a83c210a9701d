/* t_threads_many.c: many threads create, start, read, stop and destroy their own EventSets at once (real kernel, software events). */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "papi.h"
#include "tap.h"

#define NTHREADS 8
#define ROUNDS 25

static __thread volatile double sink;
static atomic_int failures, nonmonotonic, zero_counts;
static pthread_barrier_t go;

static void burn(long n)
{
	double x = 1.0;
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 0.5;
	sink = x;
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&go);
	for (int r = 0; r < ROUNDS; r++) {
		int es = PAPI_NULL;
		long long a[2] = { 0 }, b[2] = { 0 };
		if (PAPI_create_eventset(&es) != PAPI_OK ||
		    PAPI_add_named_event(es, "perf::TASK-CLOCK") != PAPI_OK ||
		    PAPI_add_named_event(es, "perf::PAGE-FAULTS") != PAPI_OK ||
		    PAPI_start(es) != PAPI_OK) {
			atomic_fetch_add(&failures, 1);
			continue;
		}
		burn(20000);
		if (PAPI_read(es, a) != PAPI_OK)
			atomic_fetch_add(&failures, 1);
		burn(20000);
		if (PAPI_stop(es, b) != PAPI_OK)
			atomic_fetch_add(&failures, 1);
		if (b[0] < a[0] || b[1] < a[1])
			atomic_fetch_add(&nonmonotonic, 1);
		if (b[0] <= 0)
			atomic_fetch_add(&zero_counts, 1);
		if (PAPI_cleanup_eventset(es) != PAPI_OK || PAPI_destroy_eventset(&es) != PAPI_OK)
			atomic_fetch_add(&failures, 1);
	}
	return NULL;
}

int main(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init");
	pthread_t t[NTHREADS];
	pthread_barrier_init(&go, NULL, NTHREADS);
	int started = 0;
	for (int i = 0; i < NTHREADS; i++)
		started += pthread_create(&t[i], NULL, worker, NULL) == 0;
	is_int(started, NTHREADS, "threads started");
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	is_int(atomic_load(&failures), 0, "%d threads x %d rounds of create/add/start/read/stop/destroy: no call failed",
	       NTHREADS, ROUNDS);
	is_int(atomic_load(&nonmonotonic), 0, "each thread's counts only grow between read and stop");
	is_int(atomic_load(&zero_counts), 0, "each thread's task-clock counted its own work");
	/* Every id came back: a new set after all that reuses a low id. */
	int es = PAPI_NULL;
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create after the storm");
	ok(es >= 0 && es < NTHREADS, "ids were released (got %d)", es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	return tap_done();
}

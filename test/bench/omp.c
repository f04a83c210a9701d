/* omp.c (bench): PAPI's omptough pattern, timed: after PAPI_thread_init, NITER OpenMP parallel regions in each of which every thread registers, creates an EventSet, destroys it and unregisters.
 *
 * Uses only papi.h; test/bench/run.sh builds it against our library and
 * against PAPI 7. Prints "op value" lines: omp_seq_ns, the median and p90
 * wall time of one thread's four calls (preemption rarely hits the median,
 * so it is the library's own cost even on a busy machine); omp_region_ns,
 * the wall time per parallel region (what omptough's run time is made of:
 * the calls plus OpenMP's fork and join); omp_vcs, voluntary context
 * switches per region (a thread that blocks on a lock the other holds).
 *   omp [NITER]   (OMP_NUM_THREADS threads, default 2) */
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "papi.h"

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

static unsigned long self_id(void)
{
	return (unsigned long)pthread_self();
}

int main(int argc, char **argv)
{
	int niter = argc > 1 ? atoi(argv[1]) : 20000, bad = 0;
	if (niter < 1)
		niter = 1;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT || PAPI_thread_init(self_id) != PAPI_OK) {
		fprintf(stderr, "omp: cannot initialize the library\n");
		return 1;
	}
	int nthr = omp_get_max_threads();
	long long *seq = malloc(sizeof *seq * (size_t)niter * (size_t)nthr);
	if (!seq)
		return 1;
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	long long t0 = now_ns();
	for (int i = 0; i < niter; i++) {
#pragma omp parallel reduction(+ : bad)
		{
			int es = PAPI_NULL, tid = omp_get_thread_num();
			long long s = now_ns();
			bad += PAPI_register_thread() != PAPI_OK;
			bad += PAPI_create_eventset(&es) != PAPI_OK;
			bad += PAPI_destroy_eventset(&es) != PAPI_OK;
			bad += PAPI_unregister_thread() != PAPI_OK;
			seq[(size_t)i * (size_t)nthr + (size_t)tid] = now_ns() - s;
		}
	}
	long long t1 = now_ns();
	getrusage(RUSAGE_SELF, &r1);
	if (bad) {
		fprintf(stderr, "omp: %d calls failed\n", bad);
		return 1;
	}
	size_t n = (size_t)niter * (size_t)nthr;
	qsort(seq, n, sizeof *seq, cmp);
	printf("omp_seq_ns %lld\n", seq[n / 2]);
	printf("omp_seq_p90_ns %lld\n", seq[n * 9 / 10]);
	printf("omp_region_ns %lld\n", (t1 - t0) / niter);
	printf("omp_vcs %.3f\n", (double)(r1.ru_nvcsw - r0.ru_nvcsw) / niter);
	free(seq);
	return 0;
}

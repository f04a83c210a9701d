/* llapi_util.h: helpers the low-level API tests share (header only, all static). */
#ifndef LLAPI_UTIL_H
#define LLAPI_UTIL_H
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

/* The code of a native event: through the public call when the codes module
 * answers, else straight from the native table. 0 when unknown. */
static inline int code_of(const char *name)
{
	int c, idx;
	if (PAPI_event_name_to_code(name, &c) == PAPI_OK)
		return c;
	if (native_lookup(name, &idx) == PAPI_OK)
		return PAPI_NATIVE_MASK | idx;
	return 0;
}

/* Write a byte into each of n fresh pages (small pages: no transparent huge
 * page backs them): n page faults taken in user space. n, or 0 when the
 * pages could not be mapped. */
static inline long touch_pages(long n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 0;
	madvise(p, (size_t)(n * page), MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	munmap(p, (size_t)(n * page));
	return n;
}

/* How many page faults a count of touch_pages(n) may hold beyond the n:
 * the library's and the C library's own, and under AddressSanitizer its
 * shadow memory's too, one page for every 8 touched. */
static inline long touch_slack(long n)
{
#if defined(__SANITIZE_ADDRESS__)
	return n / 8 + 64;
#else
	(void)n;
	return 64;
#endif
}

static inline double thread_cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Burn about sec seconds of this thread's CPU time. */
static volatile unsigned long llapi_sink;
static inline void spin_cpu(double sec)
{
	double end = thread_cpu_s() + sec;
	while (thread_cpu_s() < end)
		for (int i = 0; i < 10000; i++)
			llapi_sink += (unsigned long)i * 2654435761u;
}

/* a within a relative tolerance tol of b; never true unless b > 0. */
static inline int near(double a, double b, double tol)
{
	if (b <= 0)
		return 0;
	double r = a / b;
	return r > 1 - tol && r < 1 + tol;
}

/* A fresh set holding the named events (all must be known and countable). */
static inline int set_of(int *es, const char *const *names, int n)
{
	*es = PAPI_NULL;
	int r = PAPI_create_eventset(es);
	for (int i = 0; r == PAPI_OK && i < n; i++) {
		int c = code_of(names[i]);
		r = c ? PAPI_add_event(*es, c) : PAPI_ENOEVNT;
	}
	return r;
}

/* Stop, clean up and destroy a set, whatever state it is in. */
static inline void set_free(int *es)
{
	int st = 0;
	if (PAPI_state(*es, &st) == PAPI_OK && (st & PAPI_RUNNING))
		PAPI_stop(*es, NULL);
	PAPI_cleanup_eventset(*es);
	PAPI_destroy_eventset(es);
}
#endif

/* timers.c: real and virtual time in cycles, nanoseconds and microseconds. */
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "2-kernel/kernel.h"

PAPI_HOT static long long ns_of(clockid_t id)
{
	struct timespec ts;
	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* PAPI_get_real_nsec: monotonic wall-clock nanoseconds (arbitrary origin). */
PAPI_HOT long long PAPI_get_real_nsec(void)
{
	return ns_of(CLOCK_MONOTONIC);
}

/* PAPI_get_real_usec: monotonic wall-clock microseconds. */
long long PAPI_get_real_usec(void)
{
	return ns_of(CLOCK_MONOTONIC) / 1000;
}

/* PAPI_get_real_cyc: the time-stamp counter where the CPU has one, else
 * nanoseconds times the nominal clock. */
PAPI_HOT long long PAPI_get_real_cyc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return (long long)__rdtsc();
#else
	return (long long)((double)ns_of(CLOCK_MONOTONIC) * hwinfo_mhz() / 1000.0);
#endif
}

/* PAPI_get_virt_nsec: CPU time of the calling thread in nanoseconds. */
long long PAPI_get_virt_nsec(void)
{
	return ns_of(CLOCK_THREAD_CPUTIME_ID);
}

/* PAPI_get_virt_usec: CPU time of the calling thread in microseconds. */
long long PAPI_get_virt_usec(void)
{
	return ns_of(CLOCK_THREAD_CPUTIME_ID) / 1000;
}

/* PAPI_get_virt_cyc: CPU time of the calling thread in nominal cycles. */
long long PAPI_get_virt_cyc(void)
{
	return (long long)((double)ns_of(CLOCK_THREAD_CPUTIME_ID) * hwinfo_mhz() / 1000.0);
}

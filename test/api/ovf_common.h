/* ovf_common.h: helpers the overflow and profiling tests share (header only). */
#ifndef PAPI_TEST_OVF_COMMON_H
#define PAPI_TEST_OVF_COMMON_H
#include <stdint.h>

#include "papi.h"
#include "tap.h"

/* Busy functions that live alone in their own sections, so the linker's
 * __start_/__stop_ symbols give their exact address ranges. They call
 * nothing: every cycle they burn is inside the range. */
#define HOT(sec) __attribute__((noinline, noclone, unused, section(sec)))

HOT("papi_hot_a") static double hot_a(long n)
{
	volatile double x = 1.0;
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	return x;
}

HOT("papi_hot_b") static double hot_b(long n)
{
	volatile double x = 2.0;
	for (long i = 0; i < n; i++)
		x = x * 0.9999999 + 2e-9;
	return x;
}

extern char __start_papi_hot_a[], __stop_papi_hot_a[];
extern char __start_papi_hot_b[], __stop_papi_hot_b[];

static inline int in_a(uintptr_t pc)
{
	return pc >= (uintptr_t)__start_papi_hot_a && pc < (uintptr_t)__stop_papi_hot_a;
}

static inline int in_b(uintptr_t pc)
{
	return pc >= (uintptr_t)__start_papi_hot_b && pc < (uintptr_t)__stop_papi_hot_b;
}

/* Burn about ns of this thread's CPU time in hot_a (or hot_b). */
static inline void spin_cpu(long long ns, int which_b)
{
	long long end = PAPI_get_virt_nsec() + ns;
	while (PAPI_get_virt_nsec() < end) {
		if (which_b)
			hot_b(200000);
		else
			hot_a(200000);
	}
}

/* Event code by name; 0 when the event is unknown. */
static inline int code_of(const char *name)
{
	int code;
	return PAPI_event_name_to_code(name, &code) == PAPI_OK ? code : 0;
}

/* A stopped EventSet holding the named events, or PAPI_NULL. */
static inline int set_of(const char *a, const char *b)
{
	int es = PAPI_NULL;
	if (PAPI_create_eventset(&es) != PAPI_OK)
		return PAPI_NULL;
	if (PAPI_add_event(es, code_of(a)) != PAPI_OK ||
	    (b && PAPI_add_event(es, code_of(b)) != PAPI_OK)) {
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
		return PAPI_NULL;
	}
	return es;
}

/* Can this kernel sample perf::TASK-CLOCK? (It can on every Linux we know;
 * a sandbox without perf_event_open cannot.) */
static inline int can_count(void)
{
	int es = set_of("perf::TASK-CLOCK", NULL);
	if (es == PAPI_NULL)
		return 0;
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return 1;
}

static inline void drop_set(int *es)
{
	int st = 0;
	if (PAPI_state(*es, &st) == PAPI_OK && (st & PAPI_RUNNING))
		PAPI_stop(*es, NULL);
	PAPI_cleanup_eventset(*es);
	PAPI_destroy_eventset(es);
}
#endif

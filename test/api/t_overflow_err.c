/* t_overflow_err.c: every misuse of PAPI_overflow and PAPI_get_overflow_event_index gets its error code. */
#include "ovf_common.h"

static void handler(int EventSet, void *address, long long vec, void *context)
{
	(void)EventSet, (void)address, (void)vec, (void)context;
}

int main(void)
{
	int idx[4], n = 4;
	is_int(PAPI_overflow(0, 0, 1000, 0, handler), PAPI_ENOINIT, "before init: PAPI_ENOINIT");
	is_int(PAPI_get_overflow_event_index(0, 1, idx, &n), PAPI_ENOINIT,
	       "event index before init: PAPI_ENOINIT");
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	if (!can_count()) {
		skip("perf_event_open refuses perf::TASK-CLOCK here", "overflow error tests");
		return tap_done();
	}
	int tc = code_of("perf::TASK-CLOCK"), cc = code_of("perf::CPU-CLOCK");
	int es = set_of("perf::TASK-CLOCK", NULL);
	is_int(PAPI_overflow(12345, tc, 1000000, 0, handler), PAPI_ENOEVST, "no such set");
	is_int(PAPI_overflow(-1, tc, 1000000, 0, handler), PAPI_ENOEVST, "negative set");
	is_int(PAPI_overflow(es, cc, 1000000, 0, handler), PAPI_ENOEVNT, "event not in the set");
	is_int(PAPI_overflow(es, tc, -1, 0, handler), PAPI_EINVAL, "negative threshold");
	is_int(PAPI_overflow(es, tc, 1000000, 0, NULL), PAPI_EINVAL, "NULL handler");
	is_int(PAPI_overflow(es, tc, 0, 0, handler), PAPI_EINVAL,
	       "threshold 0 on a set without overflow");
	int st;
	PAPI_state(es, &st);
	is_int(st, PAPI_STOPPED, "refused calls leave the set alone");
	is_int(PAPI_overflow(es, tc, 1000000, 0, handler), PAPI_OK, "valid call");
	is_int(PAPI_overflow(es, tc, 2000000, 0, NULL), PAPI_OK,
	       "a new threshold keeps the handler when NULL is passed");
	PAPI_add_event(es, cc);
	is_int(PAPI_overflow(es, cc, 0, 0, handler), PAPI_EINVAL,
	       "threshold 0 for an event that does not overflow");
	is_int(PAPI_overflow(es, cc, 1000000, PAPI_OVERFLOW_FORCE_SW, handler), PAPI_ECNFLCT,
	       "mixing software and kernel overflow");
	is_int(PAPI_start(es), PAPI_OK, "start");
	is_int(PAPI_overflow(es, tc, 0, 0, handler), PAPI_EISRUN, "running: PAPI_EISRUN");
	is_int(PAPI_overflow(es, cc, 1000000, 0, handler), PAPI_EISRUN, "running, new event");
	PAPI_stop(es, NULL);

	n = 4;
	is_int(PAPI_get_overflow_event_index(12345, 1, idx, &n), PAPI_ENOEVST, "index: no set");
	is_int(PAPI_get_overflow_event_index(es, 0, idx, &n), PAPI_EINVAL, "index: vector 0");
	is_int(PAPI_get_overflow_event_index(es, 1, NULL, &n), PAPI_EINVAL, "index: NULL array");
	is_int(PAPI_get_overflow_event_index(es, 1, idx, NULL), PAPI_EINVAL, "index: NULL number");
	n = 0;
	is_int(PAPI_get_overflow_event_index(es, 1, idx, &n), PAPI_EINVAL, "index: *number 0");
	int empty = PAPI_NULL;
	PAPI_create_eventset(&empty);
	n = 4;
	is_int(PAPI_get_overflow_event_index(empty, 1, idx, &n), PAPI_EINVAL, "index: empty set");
	is_int(PAPI_overflow(empty, tc, 1000, 0, handler), PAPI_ENOEVNT, "overflow on an empty set");
	PAPI_destroy_eventset(&empty);

	/* cleanup drops overflow; the set is plain again */
	is_int(PAPI_cleanup_eventset(es), PAPI_OK, "cleanup of an overflowing set");
	PAPI_state(es, &st);
	is_int(st, PAPI_STOPPED, "cleanup clears PAPI_OVERFLOWING");
	PAPI_add_event(es, tc);
	is_int(PAPI_overflow(es, tc, 0, 0, handler), PAPI_EINVAL, "no overflow left after cleanup");
	drop_set(&es);
	PAPI_shutdown();
	return tap_done();
}

/* t_bad_input.c: the bad-input catalogue: every implemented public call with invalid arguments returns its exact error code, and the library works afterwards. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "tap.h"

/* One row: the call, the code it must return, the line of the row. */
static void row(int line, const char *call, long long got, long long want)
{
	if (!ok(got == want, "%s == %lld (line %d)", call, want, line))
		printf("#   got %lld\n", got);
}
#define ROW(call, want) row(__LINE__, #call, (long long)(call), (long long)(want))

/* Does the library still count after the rows? */
static void still_works(const char *after)
{
	int es = PAPI_NULL;
	long long v = -1;
	int r = PAPI_create_eventset(&es);
	if (r == PAPI_OK)
		r = PAPI_add_named_event(es, "perf::TASK-CLOCK");
	if (r == PAPI_OK)
		r = PAPI_start(es);
	if (r == PAPI_OK)
		r = PAPI_stop(es, &v);
	if (r == PAPI_OK)
		r = PAPI_cleanup_eventset(es);
	if (r == PAPI_OK)
		r = PAPI_destroy_eventset(&es);
	ok(r == PAPI_OK && v >= 0, "the library still counts after %s (%d)", after, r);
}

int main(void)
{
	int es = PAPI_NULL, code = 0, n = 0, st = 0, codes[4] = { 0 };
	long long v[8] = { 0 }, cyc = 0;
	char name[PAPI_MAX_STR_LEN];
	PAPI_event_info_t info;

	/* Before PAPI_library_init. */
	ROW(PAPI_create_eventset(&es), PAPI_ENOINIT);
	ROW(PAPI_add_event(0, PAPI_TOT_INS), PAPI_ENOINIT);
	ROW(PAPI_add_named_event(0, "perf::TASK-CLOCK"), PAPI_ENOINIT);
	ROW(PAPI_start(0), PAPI_ENOINIT);
	ROW(PAPI_stop(0, v), PAPI_ENOINIT);
	ROW(PAPI_read(0, v), PAPI_ENOINIT);
	ROW(PAPI_accum(0, v), PAPI_ENOINIT);
	ROW(PAPI_reset(0), PAPI_ENOINIT);
	ROW(PAPI_num_events(0), PAPI_ENOINIT);
	ROW(PAPI_state(0, &st), PAPI_ENOINIT);
	ROW(PAPI_cleanup_eventset(0), PAPI_ENOINIT);
	ROW(PAPI_destroy_eventset(&es), PAPI_ENOINIT);
	ROW(PAPI_is_initialized(), PAPI_NOT_INITED);
	ROW(PAPI_library_init(0), PAPI_EINVAL);
	ROW(PAPI_library_init(PAPI_VER_CURRENT + 1), PAPI_EINVAL);
	ROW(PAPI_set_debug(12345), PAPI_EINVAL);
	ok(PAPI_strerror(1) == NULL && PAPI_strerror(-1000) == NULL && PAPI_strerror(INT_MIN) == NULL,
	   "PAPI_strerror of codes that are not PAPI's: NULL");

	ROW(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);

	/* NULL pointers and bad ids. */
	ROW(PAPI_create_eventset(NULL), PAPI_EINVAL);
	es = 5;
	ROW(PAPI_create_eventset(&es), PAPI_EINVAL);	/* must be PAPI_NULL on entry */
	ROW(PAPI_destroy_eventset(NULL), PAPI_EINVAL);
	static const int bad_ids[] = { -1, INT_MIN, INT_MAX, 65536, 12345 };
	for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
		int id = bad_ids[i];
		ROW(PAPI_start(id), PAPI_ENOEVST);
		ROW(PAPI_stop(id, v), PAPI_ENOEVST);
		ROW(PAPI_read(id, v), PAPI_ENOEVST);
		ROW(PAPI_accum(id, v), PAPI_ENOEVST);
		ROW(PAPI_reset(id), PAPI_ENOEVST);
		ROW(PAPI_add_event(id, PAPI_TOT_INS), PAPI_ENOEVST);
		ROW(PAPI_remove_event(id, PAPI_TOT_INS), PAPI_ENOEVST);
		ROW(PAPI_num_events(id), PAPI_ENOEVST);
		ROW(PAPI_state(id, &st), PAPI_ENOEVST);
		ROW(PAPI_cleanup_eventset(id), PAPI_ENOEVST);
		ROW(PAPI_get_eventset_component(id), PAPI_ENOEVST);
		ROW(PAPI_assign_eventset_component(id, 0), PAPI_ENOEVST);
		n = 4;
		ROW(PAPI_list_events(id, codes, &n), PAPI_ENOEVST);
		int d = id;
		ROW(PAPI_destroy_eventset(&d), PAPI_ENOEVST);
	}

	/* Wrong states of a real set. */
	es = PAPI_NULL;
	ROW(PAPI_create_eventset(&es), PAPI_OK);
	ROW(PAPI_start(es), PAPI_ENOCMP);		/* nothing was ever added */
	ROW(PAPI_stop(es, v), PAPI_ENOTRUN);
	ROW(PAPI_state(es, NULL), PAPI_EINVAL);
	ROW(PAPI_add_events(es, NULL, 1), PAPI_EINVAL);
	ROW(PAPI_add_events(es, codes, 0), PAPI_EINVAL);
	ROW(PAPI_add_events(es, codes, -5), PAPI_EINVAL);
	ROW(PAPI_add_named_event(es, NULL), PAPI_EINVAL);
	ROW(PAPI_remove_named_event(es, NULL), PAPI_EINVAL);
	ROW(PAPI_add_event(es, 0), PAPI_ENOEVNT);	/* PAPI 7 says EINVAL; t_counting wants ENOEVNT */
	ROW(PAPI_add_event(es, PAPI_NATIVE_MASK | 0xfffffff), PAPI_ENOEVNT);
	ROW(PAPI_add_named_event(es, "perf::NO-SUCH-EVENT"), PAPI_ENOEVNT);
	ROW(PAPI_add_named_event(es, ""), PAPI_ENOEVNT);
	ROW(PAPI_add_named_event(es, "perf::TASK-CLOCK"), PAPI_OK);
	ROW(PAPI_add_named_event(es, "perf::TASK-CLOCK"), PAPI_ECNFLCT);	/* already in */
	ROW(PAPI_remove_event(es, PAPI_TOT_INS), PAPI_EINVAL);	/* not in the set */
	ROW(PAPI_assign_eventset_component(es, 99), PAPI_ENOCMP);
	ROW(PAPI_assign_eventset_component(es, -1), PAPI_ENOCMP);
	n = -1;
	ROW(PAPI_list_events(es, codes, &n), PAPI_EINVAL);
	ROW(PAPI_list_events(es, codes, NULL), PAPI_EINVAL);
	ROW(PAPI_read(es, NULL), PAPI_EINVAL);
	ROW(PAPI_accum(es, NULL), PAPI_EINVAL);
	ROW(PAPI_read_ts(es, v, NULL), PAPI_EINVAL);
	ROW(PAPI_write(es, NULL), PAPI_EINVAL);
	ROW(PAPI_write(es, v), PAPI_ENOSUPP);
	ROW(PAPI_start(es), PAPI_OK);
	ROW(PAPI_start(es), PAPI_EISRUN);
	ROW(PAPI_add_named_event(es, "perf::PAGE-FAULTS"), PAPI_EISRUN);
	ROW(PAPI_remove_named_event(es, "perf::TASK-CLOCK"), PAPI_EISRUN);
	ROW(PAPI_cleanup_eventset(es), PAPI_EISRUN);
	ROW(PAPI_destroy_eventset(&es), PAPI_EISRUN);
	ROW(PAPI_read_ts(es, v, &cyc), PAPI_OK);
	ROW(PAPI_stop(es, NULL), PAPI_OK);
	ROW(PAPI_destroy_eventset(&es), PAPI_EINVAL);	/* still holds an event */
	ROW(PAPI_cleanup_eventset(es), PAPI_OK);
	int gone = es;
	ROW(PAPI_destroy_eventset(&es), PAPI_OK);
	ROW(es, PAPI_NULL);
	/* A destroyed id is no set. */
	ROW(PAPI_start(gone), PAPI_ENOEVST);
	ROW(PAPI_read(gone, v), PAPI_ENOEVST);
	ROW(PAPI_destroy_eventset(&gone), PAPI_ENOEVST);

	/* Names: NULL, empty, overlong, odd. */
	ROW(PAPI_event_name_to_code(NULL, &code), PAPI_EINVAL);
	ROW(PAPI_event_name_to_code("perf::TASK-CLOCK", NULL), PAPI_EINVAL);
	ROW(PAPI_event_code_to_name(PAPI_NATIVE_MASK, NULL), PAPI_EINVAL);
	ROW(PAPI_get_event_info(PAPI_TOT_INS, NULL), PAPI_EINVAL);
	ROW(PAPI_query_named_event(NULL), PAPI_EINVAL);
	ROW(PAPI_event_code_to_name(0, name), PAPI_ENOEVNT);
	ROW(PAPI_get_event_info(0, &info), PAPI_ENOTPRESET);	/* as PAPI 7 */
	ROW(PAPI_query_event(0), PAPI_ENOEVNT);
	size_t big = 100000;
	char *huge = malloc(big + 1);
	if (huge) {
		memset(huge, 'A', big);
		huge[big] = 0;
		int r = PAPI_event_name_to_code(huge, &code);
		is_int(r, PAPI_ENOEVNT, "a 100000-character name is refused, no overflow");
		memcpy(huge, "perf::", 6);
		r = PAPI_query_named_event(huge);
		is_int(r, PAPI_ENOEVNT, "... with a PMU prefix too");
		free(huge);
	}
	static const char *const odd[] = { "::", ":", "perf::", "::TASK-CLOCK", "perf::TASK-CLOCK:",
					   "perf::TASK-CLOCK::u", "perf::TASK-CLOCK:u=", "perf::TASK-CLOCK:=1",
					   "perf::TASK-CLOCK:u=99999999999999999999", "\xff\xfe", "perf::\n",
					   "PAPI_", "PAPI_TOT_INS:u", " perf::TASK-CLOCK" };
	int refused = 0;
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
		int r = PAPI_event_name_to_code(odd[i], &code);
		refused += r == PAPI_ENOEVNT;
	}
	is_int(refused, (int)(sizeof odd / sizeof odd[0]), "odd names are refused with ENOEVNT (as PAPI 7)");
	ROW(PAPI_enum_event(NULL, PAPI_ENUM_FIRST), PAPI_EINVAL);
	ROW(PAPI_get_component_index(NULL), PAPI_EINVAL);
	ROW(PAPI_get_component_index("no-such-component"), PAPI_ENOCMP);
	ok(PAPI_get_component_info(-1) == NULL && PAPI_get_component_info(99) == NULL,
	   "component info of no component: NULL");
	ROW(PAPI_num_cmp_hwctrs(99), PAPI_ENOCMP);
	ROW(PAPI_disable_component(99), PAPI_ENOCMP);
	ROW(PAPI_disable_component_by_name(NULL), PAPI_EINVAL);
	still_works("the rows above");

	/* After shutdown, as before init; and it comes back. */
	PAPI_shutdown();
	PAPI_shutdown();	/* twice is harmless */
	ROW(PAPI_start(0), PAPI_ENOINIT);
	ROW(PAPI_create_eventset(&es), PAPI_ENOINIT);
	ROW(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
	still_works("shutdown and init again");
	PAPI_shutdown();
	return tap_done();
}

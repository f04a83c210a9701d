/* t_sde_papi.c: the sde component: counters a library registers through libsde (linked here as libsde.a) read through PAPI as sde:::LIBRARY::COUNTER: naming, enumeration, event info, EventSets, overflow, the region API and the error codes. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "sde/sde_lib.h"
#include "tap.h"

/* The library's state: what a library offering SDEs keeps. */
static long long cnt;		/* T::CNT, by address, DELTA */
static int level;		/* T::LEVEL, by address, read-write, INSTANT */
static void *made;		/* T::MADE, kept by libsde */
static void *rec;		/* T::REC, a recorder */
static papi_handle_t lib;

static void register_lib(void)
{
	lib = papi_sde_init("T");
	papi_sde_register_counter(lib, "CNT", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &cnt);
	papi_sde_register_counter(lib, "LEVEL", PAPI_SDE_RW | PAPI_SDE_INSTANT, PAPI_SDE_int, &level);
	papi_sde_create_counter(lib, "MADE", PAPI_SDE_RO | PAPI_SDE_DELTA, &made);
	papi_sde_add_counter_to_group(lib, "CNT", "ALL", PAPI_SDE_SUM);
	papi_sde_add_counter_to_group(lib, "MADE", "ALL", PAPI_SDE_SUM);
	papi_sde_create_recorder(lib, "REC", sizeof(long long), papi_sde_compare_long_long, &rec);
	papi_sde_describe_counter(lib, "CNT", "Work items the test did.");
}

static int code_of(const char *name)
{
	int code = 0, r = PAPI_event_name_to_code(name, &code);
	if (r != PAPI_OK)
		printf("# PAPI_event_name_to_code(%s) = %d: %s\n", name, r, PAPI_strerror(r));
	return r == PAPI_OK ? code : 0;
}

/* 1 when the sde component enumerates an event called name. */
static int listed(int cidx, const char *name, int *total)
{
	int code = PAPI_NATIVE_MASK, found = 0, n = 0;
	char s[PAPI_MAX_STR_LEN];
	for (int r = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx); r == PAPI_OK;
	     r = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx), n++)
		if (PAPI_event_code_to_name(code, s) == PAPI_OK && !strcmp(s, name))
			found = 1;
	if (total)
		*total = n;
	return found;
}

static void naming(int cidx)
{
	int code;
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	ok(ci && !ci->disabled && !strcmp(ci->name, "sde"), "sde is active without any SDE registered");
	is_int(ci->num_native_events, 0, "and has no events yet");
	code = PAPI_NATIVE_MASK;
	is_int(PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx), PAPI_ENOEVNT, "nothing to enumerate yet");
	is_int(PAPI_event_name_to_code("sde:::T::CNT", &code), PAPI_ENOEVNT, "a name before its library registers it");
	ok(strstr(papi_last_reason(), "no library in this process has registered it") != NULL,
	   "the reason says so: %s", papi_last_reason());

	register_lib();
	int n;
	ok(listed(cidx, "sde:::T::CNT", &n) && listed(cidx, "sde:::T::LEVEL", NULL) &&
	   listed(cidx, "sde:::T::MADE", NULL) && listed(cidx, "sde:::T::ALL", NULL) &&
	   listed(cidx, "sde:::T::REC", NULL) && listed(cidx, "sde:::T::REC:CNT", NULL),
	   "PAPI_enum_cmp_event lists counters, the group and the recorder with its count");
	ok(n >= 6, "%d events enumerated", n);
	is_int(PAPI_get_component_info(cidx)->num_native_events, n, "component info counts them (after re-reading)");

	code = code_of("sde:::T::CNT");
	char s[PAPI_MAX_STR_LEN];
	is_int(PAPI_event_code_to_name(code, s), PAPI_OK, "code to name");
	is_str(s, "sde:::T::CNT", "the name round-trips");
	is_int(PAPI_get_event_component(code), cidx, "the event is sde's");
	is_int(PAPI_query_event(code), PAPI_OK, "PAPI_query_event");
	is_int(PAPI_query_named_event("sde:::T::ALL"), PAPI_OK, "PAPI_query_named_event of a group");
	PAPI_event_info_t info;
	is_int(PAPI_get_event_info(code, &info), PAPI_OK, "PAPI_get_event_info");
	is_str(info.symbol, "sde:::T::CNT", "its symbol");
	is_str(info.long_descr, "Work items the test did.", "its description, as the library registered it");
	is_int(info.component_index, cidx, "its component");
	is_int(PAPI_get_event_info(code_of("sde:::T::LEVEL"), &info), PAPI_OK, "info of an undescribed counter");
	is_str(info.long_descr, "T::LEVEL", "describes it by its name");
	papi_sde_describe_counter(lib, "LEVEL", "The level.");
	is_int(PAPI_get_event_info(code_of("sde:::T::LEVEL"), &info), PAPI_OK, "described later");
	is_str(info.long_descr, "The level.", "the new description");

	/* unknown names */
	is_int(PAPI_event_name_to_code("sde:::T::NOPE", &code), PAPI_ENOEVNT, "unknown counter: PAPI_ENOEVNT");
	is_int(PAPI_event_name_to_code("sde:::X::CNT", &code), PAPI_ENOEVNT, "unknown library: PAPI_ENOEVNT");
	is_int(PAPI_event_name_to_code("sde:::CNT", &code), PAPI_ENOEVNT, "no library part: PAPI_ENOEVNT");
	ok(strstr(papi_last_reason(), "sde:::LIBRARY::COUNTER") != NULL, "the reason shows the form: %s",
	   papi_last_reason());
	is_int(PAPI_event_name_to_code("sde:::", &code), PAPI_ENOEVNT, "empty name: PAPI_ENOEVNT");
	is_int(PAPI_query_named_event("sde:::T::NOPE"), PAPI_ENOEVNT, "PAPI_query_named_event: PAPI_ENOEVNT");
	ok(PAPI_event_name_to_code("T::CNT", &code) != PAPI_OK, "without sde::: it is no SDE (a PMU's name form)");

	/* bad arguments */
	is_int(PAPI_event_name_to_code(NULL, &code), PAPI_EINVAL, "NULL name: PAPI_EINVAL");
	is_int(PAPI_event_name_to_code("sde:::T::CNT", NULL), PAPI_EINVAL, "NULL code: PAPI_EINVAL");
	is_int(PAPI_get_event_info(code_of("sde:::T::CNT"), NULL), PAPI_EINVAL, "NULL info: PAPI_EINVAL");
	is_int(PAPI_event_code_to_name(code_of("sde:::T::CNT"), NULL), PAPI_EINVAL, "NULL name buffer: PAPI_EINVAL");
	is_int(PAPI_enum_cmp_event(NULL, PAPI_ENUM_FIRST, cidx), PAPI_EINVAL, "NULL code to enumerate: PAPI_EINVAL");
	code = PAPI_NATIVE_MASK;
	is_int(PAPI_enum_cmp_event(&code, 12345, cidx), PAPI_EINVAL, "unknown modifier: PAPI_EINVAL");
}

static void counting(int cidx)
{
	int es = PAPI_NULL, tc;
	long long v[5], w[5];
	const char *names[] = { "sde:::T::CNT", "sde:::T::MADE", "sde:::T::ALL", "sde:::T::LEVEL", "sde:::T::REC:CNT" };
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create an EventSet");
	for (int i = 0; i < 5; i++)
		is_int(PAPI_add_named_event(es, names[i]), PAPI_OK, "add %s", names[i]);
	is_int(PAPI_add_named_event(es, "sde:::T::CNT"), PAPI_ECNFLCT, "a duplicate: PAPI_ECNFLCT");
	is_int(PAPI_add_named_event(es, "sde:::T::NOPE"), PAPI_ENOEVNT, "add an unknown one: PAPI_ENOEVNT");
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &tc) == PAPI_OK)
		ok(PAPI_add_event(es, tc) != PAPI_OK, "a perf_event event does not join an sde EventSet");
	is_int(PAPI_read(es, NULL), PAPI_EINVAL, "PAPI_read(NULL): PAPI_EINVAL");

	long long one = 5;
	cnt += 100;	/* before the start: not counted */
	papi_sde_inc_counter(made, 50);
	papi_sde_record(rec, sizeof one, &one);
	is_int(PAPI_start(es), PAPI_OK, "start");
	is_int(PAPI_start(es), PAPI_EISRUN, "start again: PAPI_EISRUN");
	cnt += 3;
	papi_sde_inc_counter(made, 4);
	level = 7;
	papi_sde_record(rec, sizeof one, &one);
	papi_sde_record(rec, sizeof one, &one);
	is_int(PAPI_read(es, v), PAPI_OK, "read");
	is_int(v[0], 3, "CNT counts from the start");
	is_int(v[1], 4, "MADE (kept by libsde) counts from the start");
	is_int(v[2], 7, "the group ALL sums them");
	is_int(v[3], 7, "LEVEL reads its level");
	is_int(v[4], 3, "the recorder's count: every value it holds");

	is_int(PAPI_reset(es), PAPI_OK, "reset");
	is_int(PAPI_read(es, v), PAPI_OK, "read after reset");
	ok(v[0] == 0 && v[1] == 0 && v[2] == 0, "counts are zero after reset (%lld %lld %lld)", v[0], v[1], v[2]);
	is_int(v[3], 7, "a level is not reset");
	cnt += 2;
	is_int(PAPI_accum(es, (memset(w, 0, sizeof w), w)), PAPI_OK, "accum");
	is_int(w[0], 2, "accum adds the counts");
	is_int(PAPI_read(es, v), PAPI_OK, "read after accum");
	is_int(v[0], 0, "accum zeroed them");

	cnt += 9;
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	is_int(v[0], 9, "stop returns the counts");
	cnt += 1000;
	is_int(PAPI_read(es, w), PAPI_OK, "read while stopped");
	is_int(w[0], 9, "a stopped set reads the stop's counts");
	is_int(PAPI_stop(es, v), PAPI_ENOTRUN, "stop again: PAPI_ENOTRUN");
	is_int(PAPI_start(es), PAPI_OK, "start again");
	cnt += 1;
	is_int(PAPI_read(es, v), PAPI_OK, "read");
	is_int(v[0], 1, "a new start counts from zero");

	/* write: only a read-write counter */
	long long lv[1] = { 42 };
	int es2 = PAPI_NULL;
	PAPI_create_eventset(&es2);
	PAPI_add_named_event(es2, "sde:::T::LEVEL");
	is_int(PAPI_start(es2), PAPI_OK, "start a set of LEVEL");
	is_int(PAPI_write(es2, lv), PAPI_OK, "PAPI_write a read-write counter");
	is_int(level, 42, "the library's variable holds the value written");
	is_int(PAPI_write(es, v), PAPI_ENOSUPP, "PAPI_write a read-only counter: PAPI_ENOSUPP");
	PAPI_stop(es2, NULL);
	PAPI_cleanup_eventset(es2);
	PAPI_destroy_eventset(&es2);

	/* a counter the library unregisters while it is counted */
	is_int(papi_sde_unregister_counter(lib, "CNT"), SDE_OK, "the library unregisters CNT");
	is_int(PAPI_read(es, v), PAPI_OK, "read");
	is_int(v[0], -1, "an unregistered counter reads -1");
	ok(!listed(cidx, "sde:::T::CNT", NULL) && listed(cidx, "sde:::T::MADE", NULL),
	   "enumeration leaves it out, and lists the others");
	papi_sde_register_counter(lib, "CNT", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &cnt);
	ok(listed(cidx, "sde:::T::CNT", NULL), "registered again, it is listed again");
	is_int(PAPI_stop(es, NULL), PAPI_OK, "stop");
	is_int(PAPI_cleanup_eventset(es), PAPI_OK, "cleanup");
	is_int(PAPI_destroy_eventset(&es), PAPI_OK, "destroy");
}

/* The region API: PAPI_EVENTS names an SDE; the report holds its count. */
static void regions(void)
{
	char dir[256];
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/t_sde_papi.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	setenv("PAPI_OUTPUT_DIRECTORY", dir, 1);
	setenv("PAPI_EVENTS", "sde:::T::CNT", 1);
	setenv("PAPI_REPORT", "0", 1);
	is_int(PAPI_hl_region_begin("work"), PAPI_OK, "region begin with PAPI_EVENTS=sde:::T::CNT");
	cnt += 11;
	is_int(PAPI_hl_region_end("work"), PAPI_OK, "region end");
	is_int(PAPI_hl_finalize(), PAPI_OK, "finalize writes the report");
	char cmd[512], line[2048] = "";
	snprintf(cmd, sizeof cmd, "cat %s/papi_hl_output/*.json 2>/dev/null | tr -d ' \\n'", dir);
	FILE *p = popen(cmd, "r");
	if (p) {
		if (!fgets(line, sizeof line, p))
			line[0] = 0;
		pclose(p);
	}
	if (!ok(strstr(line, "\"sde:::T::CNT\":11") || strstr(line, "\"sde:::T::CNT\":\"11\""),
		"the region counted 11 work items"))
		diag("report: %s", line);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
}

/* ---- overflow: the handler's calls */
static volatile int calls, last_set;
static volatile long long last_vec;

static void handler(int EventSet, void *pc, long long vec, void *ctx)
{
	(void)pc, (void)ctx;
	calls++;
	last_set = EventSet;
	last_vec = vec;
}

/* Wait (at most 10 s) until the handler was called n times. */
static int wait_calls(int n)
{
	for (int i = 0; i < 10000 && calls < n; i++)
		usleep(1000);
	return calls;
}

static void overflow(void)
{
	void *ovf;
	static long long polled, late;
	int es = PAPI_NULL, es2 = PAPI_NULL, idx[2], n = 2;
	papi_sde_create_counter(lib, "OVF", PAPI_SDE_RO | PAPI_SDE_DELTA, &ovf);
	papi_sde_register_counter(lib, "POLLED", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &polled);
	is_int(PAPI_create_eventset(&es), PAPI_OK, "overflow: create an EventSet");
	is_int(PAPI_add_named_event(es, "sde:::T::CNT"), PAPI_OK, "add CNT");
	is_int(PAPI_add_named_event(es, "sde:::T::OVF"), PAPI_OK, "add OVF, a counter libsde keeps");
	int ovf_code = code_of("sde:::T::OVF");

	/* the errors, PAPI 7.0's */
	is_int(PAPI_overflow(es, ovf_code, 10, 0, NULL), PAPI_EINVAL, "no handler: PAPI_EINVAL");
	is_int(PAPI_overflow(es, ovf_code, -1, 0, handler), PAPI_EINVAL, "threshold -1: PAPI_EINVAL");
	is_int(PAPI_overflow(es, ovf_code, 0, 0, handler), PAPI_EINVAL, "threshold 0 while none overflows: PAPI_EINVAL");
	is_int(PAPI_overflow(es, code_of("sde:::T::LEVEL"), 10, 0, handler), PAPI_ENOEVNT,
	       "an event not in the set: PAPI_ENOEVNT");
	is_int(PAPI_overflow(12345, ovf_code, 10, 0, handler), PAPI_ENOEVST, "no such EventSet: PAPI_ENOEVST");
	is_int(PAPI_create_eventset(&es2), PAPI_OK, "a set of a recorder");
	is_int(PAPI_add_named_event(es2, "sde:::T::REC"), PAPI_OK, "add REC");
	is_int(PAPI_overflow(es2, code_of("sde:::T::REC"), 10, 0, handler), PAPI_EINVAL,
	       "a recorder does not overflow: PAPI_EINVAL");
	int st = 0;
	PAPI_state(es2, &st);
	ok(!(st & PAPI_OVERFLOWING), "and its set does not overflow");

	/* a counter libsde keeps: it calls the handler as it crosses */
	is_int(PAPI_overflow(es, ovf_code, 10, 0, handler), PAPI_OK, "overflow on OVF every 10");
	PAPI_state(es, &st);
	ok(st & PAPI_OVERFLOWING, "the set is PAPI_OVERFLOWING");
	papi_sde_inc_counter(ovf, 5);	/* not running: no call */
	is_int(PAPI_start(es), PAPI_OK, "start");
	is_int(PAPI_overflow(es, ovf_code, 20, 0, handler), PAPI_EISRUN, "PAPI_overflow while running: PAPI_EISRUN");
	for (int i = 0; i < 30; i++)	/* 6 ... 35 */
		papi_sde_inc_counter(ovf, 1);
	is_int(calls, 3, "OVF 5 -> 35 by ones: 3 calls (past 10, 20, 30)");
	is_int(last_set, es, "the handler gets the EventSet");
	is_int((int)last_vec, 1 << 1, "and the vector's bit 1, OVF's position in the set");
	is_int(PAPI_get_overflow_event_index(es, last_vec, idx, &n), PAPI_OK, "PAPI_get_overflow_event_index");
	ok(n == 1 && idx[0] == 1, "maps the bit to event 1 (%d events, first %d)", n, idx[0]);
	papi_sde_inc_counter(ovf, 25);	/* 60: one call, the deadline moves to 70 */
	is_int(calls, 4, "a jump by 25 past 40: one call");
	papi_sde_inc_counter(ovf, 10);	/* 70: not past it */
	is_int(calls, 4, "reaching the deadline 70 is not passing it (PAPI 7.0)");
	long long v[2];
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[1] == 65, "OVF counted 65 meanwhile (%lld)", v[1]);
	papi_sde_inc_counter(ovf, 20);	/* 90, stopped: no call */
	is_int(calls, 4, "no call while stopped");
	is_int(PAPI_start(es), PAPI_OK, "start again");
	papi_sde_inc_counter(ovf, 1);
	is_int(calls, 5, "the counter's own value goes on: 91 is past the deadline 70");
	PAPI_stop(es, NULL);
	is_int(PAPI_overflow(es, ovf_code, 0, 0, handler), PAPI_OK, "threshold 0 turns it off");
	PAPI_state(es, &st);
	ok(!(st & PAPI_OVERFLOWING), "the set no longer overflows");
	PAPI_start(es);
	papi_sde_inc_counter(ovf, 100);
	PAPI_stop(es, NULL);
	is_int(calls, 5, "and the handler is not called");
	is_int(PAPI_overflow(es, ovf_code, 0, 0, handler), PAPI_EINVAL, "turned off twice: PAPI_EINVAL");

	/* a counter by address: polled */
	calls = 0;
	PAPI_cleanup_eventset(es2);
	is_int(PAPI_add_named_event(es2, "sde:::T::POLLED"), PAPI_OK, "a set of POLLED, a variable of the library's");
	is_int(PAPI_overflow(es2, code_of("sde:::T::POLLED"), 100, 0, handler), PAPI_OK, "overflow on it every 100");
	polled = 1000;	/* before the start */
	is_int(PAPI_start(es2), PAPI_OK, "start");
	polled += 250;
	is_int(wait_calls(1), 1, "250 counted: one call, once a poll saw it");
	is_int(last_set, es2, "with that EventSet");
	is_int((int)last_vec, 1, "and bit 0");
	polled += 100;	/* 350: past the deadline 300 */
	is_int(wait_calls(2), 2, "350: a second call");
	usleep(20000);
	is_int(calls, 2, "no more while it stays");
	is_int(PAPI_stop(es2, v), PAPI_OK, "stop");
	is_int(v[0], 350, "it counted 350");
	polled += 1000;
	usleep(20000);
	is_int(calls, 2, "no call after the stop");

	/* a counter registered only once the set runs: libsde asks libpapi to
	 * poll it (papi_sde_set_timer_for_overflow) */
	calls = 0;
	PAPI_cleanup_eventset(es2);
	papi_sde_register_counter(lib, "LATE", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &late);
	is_int(PAPI_add_named_event(es2, "sde:::T::LATE"), PAPI_OK, "a set of LATE");
	papi_sde_unregister_counter(lib, "LATE");
	is_int(PAPI_overflow(es2, code_of("sde:::T::LATE"), 10, 0, handler), PAPI_OK,
	       "overflow on LATE while no library registers it");
	is_int(PAPI_start(es2), PAPI_OK, "start");
	papi_sde_register_counter(lib, "LATE", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &late);
	late += 30;
	is_int(wait_calls(1), 1, "registered again and counting 30: one call");
	PAPI_stop(es2, NULL);
	is_int(PAPI_destroy_eventset(&es2) == PAPI_OK || (PAPI_cleanup_eventset(es2) == PAPI_OK &&
	       PAPI_destroy_eventset(&es2) == PAPI_OK), 1, "free the set");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI_library_init");
	int cidx = PAPI_get_component_index("sde");
	ok(cidx > 0, "PAPI has an sde component (%d)", cidx);
	if (cidx <= 0)
		return tap_done();
	naming(cidx);
	counting(cidx);
	overflow();

	/* a second life: the registered counters are still there */
	PAPI_shutdown();
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI_library_init again");
	ok(listed(cidx, "sde:::T::CNT", NULL), "the events survive PAPI_shutdown");
	PAPI_shutdown();
	setenv("PAPI_DISABLE_COMPONENTS", "sde", 1);
	PAPI_library_init(PAPI_VER_CURRENT);
	int code;
	ok(PAPI_get_component_info(cidx)->disabled, "PAPI_DISABLE_COMPONENTS=sde disables it");
	is_int(PAPI_event_name_to_code("sde:::T::CNT", &code), PAPI_ENOEVNT, "and its events do not resolve");
	PAPI_shutdown();
	unsetenv("PAPI_DISABLE_COMPONENTS");

	regions();
	return tap_done();
}

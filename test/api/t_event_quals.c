/* t_event_quals.c: PAPI 7.2's qualifiers in PAPI_event_info_t: a native event's libpfm4 modifiers (":u=0", ...), at most PAPI_MAX_COMP_QUALS, as PAPI 7.2's papi_native_avail lists them; every one the unit-mask walk lists among them; none for presets and other components' events; qualifiers that leave no privilege level taken, counting nothing, as PAPI 7 takes them. */
#include <stdio.h>
#include <string.h>

#include "papi.h"
#include "tap.h"
#include "llapi_util.h"

/* The modifiers PAPI_NTV_ENUM_UMASKS lists for code: their suffixes. */
static int walk_mods(int code, char mods[][PAPI_HUGE_STR_LEN], int max, const char *base)
{
	int n = 0, c = code;
	size_t len = strlen(base);
	while (n < max && PAPI_enum_event(&c, PAPI_NTV_ENUM_UMASKS) == PAPI_OK) {
		char name[PAPI_HUGE_STR_LEN];
		if (PAPI_event_code_to_name(c, name) != PAPI_OK || strncmp(name, base, len) != 0)
			continue;
		const char *suffix = name + len;
		if (strstr(suffix, "=0"))
			snprintf(mods[n++], PAPI_HUGE_STR_LEN, "%s", suffix);
	}
	return n;
}

/* What Debian sid's PAPI 7.2 papi_native_avail -e perf::TASK-CLOCK lists
 * as its qualifiers (the first eight of nine; the ninth is :pinned=0). */
static const char *const task_clock_72[][2] = {
	{ ":u=0", "monitor at user level" }, { ":k=0", "monitor at kernel level" },
	{ ":period=0", "sampling period" }, { ":freq=0", "sampling frequency (Hz)" },
	{ ":excl=0", "exclusive access" }, { ":mg=0", "monitor guest execution" },
	{ ":mh=0", "monitor host execution" }, { ":cpu=0", "CPU to program" },
};

static void check(const char *ev, int exact)
{
	int code;
	if (PAPI_event_name_to_code(ev, &code) != PAPI_OK) {
		skip("no such event here", ev);
		return;
	}
	static PAPI_event_info_t in;
	is_int(PAPI_get_event_info(code, &in), PAPI_OK, "%s: info", ev);
	if (exact) {
		is_int(in.num_quals, PAPI_MAX_COMP_QUALS, "%s: %d qualifiers, as PAPI 7.2 lists", ev,
		       PAPI_MAX_COMP_QUALS);
		for (int i = 0; i < in.num_quals && i < PAPI_MAX_COMP_QUALS; i++) {
			is_str(in.quals[i], task_clock_72[i][0], "%s: qualifier %d", ev, i);
			is_str(in.quals_descrs[i], task_clock_72[i][1], "%s: its description", ev);
		}
	}
	/* every modifier the walk lists (those this library takes in a name)
	 * is among the qualifiers, unless they are full */
	static char mods[32][PAPI_HUGE_STR_LEN];
	int n = walk_mods(code, mods, 32, in.symbol), missing = 0;
	ok(n > 0, "%s: the unit-mask walk lists %d modifiers", ev, n);
	for (int m = 0; m < n; m++) {
		int found = 0;
		for (int i = 0; i < in.num_quals; i++)
			found |= !strcmp(in.quals[i], mods[m]);
		missing += !found && in.num_quals < PAPI_MAX_COMP_QUALS;
	}
	is_int(missing, 0, "%s: each of them is a qualifier", ev);
}

/* Qualifiers that turn off every privilege level leave nothing to count:
 * the name is listed and a set takes it, as PAPI 7.0's library does (its
 * papi_event_chooser adds each listed qualifier), and it counts none of
 * the pages this thread touches; with one level kept it counts them all.
 * (papi stat and papi command-line refuse such a name: stat-events.bats.) */
static void empty_domain(void)
{
	static const char *const none[] = { "perf::PAGE-FAULTS:u=0", "perf::PAGE-FAULTS:k=0",
					    "perf::PAGE-FAULTS:u=0:k=0" };
	for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
		int code, es = PAPI_NULL;
		long long v = -1;
		is_int(PAPI_event_name_to_code(none[i], &code), PAPI_OK, "%s: named", none[i]);
		is_int(PAPI_create_eventset(&es), PAPI_OK, "create_eventset");
		is_int(PAPI_add_named_event(es, none[i]), PAPI_OK, "%s: added, as PAPI 7 adds it", none[i]);
		is_int(PAPI_start(es), PAPI_OK, "start");
		long n = touch_pages(1000);
		is_int(PAPI_stop(es, &v), PAPI_OK, "stop");
		ok(n == 1000 && v == 0, "%s: none of the %ld pages touched counted (%lld)", none[i], n, v);
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	/* user space kept: the pages this thread touches, every one */
	int es = PAPI_NULL;
	long long v = -1;
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create_eventset");
	is_int(PAPI_add_named_event(es, "perf::PAGE-FAULTS:k=0:u=1"), PAPI_OK, "add perf::PAGE-FAULTS:k=0:u=1");
	is_int(PAPI_start(es), PAPI_OK, "start");
	long n = touch_pages(1000);
	is_int(PAPI_stop(es, &v), PAPI_OK, "stop");
	ok(n == 1000 && v >= n && v < n + touch_slack(n), ":k=0:u=1 counts the %ld pages touched (%lld)", n, v);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	check("perf::TASK-CLOCK", 1);
	check("perf::PAGE-FAULTS", 0);
	static PAPI_event_info_t in;
	is_int(PAPI_get_event_info(PAPI_TOT_INS, &in), PAPI_OK, "preset info");
	is_int(in.num_quals, 0, "a preset has no qualifiers");
	int code;
	if (PAPI_event_name_to_code("io:::rchar", &code) == PAPI_OK) {
		is_int(PAPI_get_event_info(code, &in), PAPI_OK, "io:::rchar info");
		is_int(in.num_quals, 0, "another component's event has none");
	} else {
		skip("io is disabled here", "io:::rchar");
	}
	empty_domain();
	PAPI_shutdown();
	return tap_done();
}

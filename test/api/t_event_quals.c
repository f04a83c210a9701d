/* t_event_quals.c: PAPI 7.2's qualifiers in PAPI_event_info_t: a native event's libpfm4 modifiers (":u=0", ...), at most PAPI_MAX_COMP_QUALS, as PAPI 7.2's papi_native_avail lists them; every one the unit-mask walk lists among them; none for presets and other components' events. */
#include <stdio.h>
#include <string.h>

#include "papi.h"
#include "tap.h"

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
	PAPI_shutdown();
	return tap_done();
}

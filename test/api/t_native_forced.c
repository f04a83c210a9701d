/* t_native_forced.c: naming, umask enumeration and encoding of another CPU's events (LIBPFM_FORCE_PMU=skx). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "tap.h"
#include "pmu_child.h"
#include "ntv_walk.h"

int main(void)
{
	if (pmu_tables_missing("skx", "skx native events"))
		return tap_done();
	/* libpfm4 reads this at its (lazy) start-up, which follows PAPI_library_init. */
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	int code, again;
	char name[PAPI_MAX_STR_LEN];

	is_int(PAPI_event_name_to_code("INST_RETIRED:ANY_P", &code), PAPI_OK, "skx event without PMU prefix");
	is_int(PAPI_event_code_to_name(code, name), PAPI_OK, "code to name");
	/* skx is libpfm4's default core PMU now: PAPI 7 names its events
	 * without the PMU, and takes either spelling. */
	is_str(name, "INST_RETIRED:ANY_P", "the default core PMU's event is named without its PMU");
	is_int(PAPI_event_name_to_code("skx::INST_RETIRED:ANY_P", &again), PAPI_OK, "prefixed spelling");
	is_int(again, code, "both spellings share a code");
	is_int(PAPI_event_code_to_name(again, name), PAPI_OK, "code of the prefixed spelling to name");
	is_str(name, "INST_RETIRED:ANY_P", "named without its PMU too");
	PAPI_event_info_t info;
	is_int(PAPI_get_event_info(code, &info), PAPI_OK, "its info");
	is_str(info.symbol, "INST_RETIRED:ANY_P", "info.symbol without the PMU");
	is_int(PAPI_event_name_to_code("skx::INST_RETIRED:NO_SUCH_UMASK", &again), PAPI_ENOEVNT, "bad umask -> ENOEVNT (as PAPI 7)");
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK", &again), PAPI_ENOEVNT, "perf:: is hidden while forced");

	/* Qualifiers are kept as spelled, so a name may outgrow what
	 * PAPI_event_code_to_name writes (PAPI_MAX_STR_LEN): it answers
	 * PAPI_EBUF, and the event's info has the whole name, which round-trips. */
	char longq[2 * PAPI_MAX_STR_LEN];
	snprintf(longq, sizeof longq, "skx::DTLB_LOAD_MISSES:WALK_COMPLETED:c=%0*d2", 100, 0);
	is_int(PAPI_event_name_to_code(longq, &code), PAPI_OK, "a %zu-character spelling has a code",
	       strlen(longq));
	is_int(PAPI_event_code_to_name(code, name), PAPI_EBUF, "too long for code_to_name: PAPI_EBUF");
	is_int(PAPI_get_event_info(code, &info), PAPI_OK, "its info");
	is_str(info.symbol, longq + 5, "names it whole (but for its PMU)");
	is_int(PAPI_event_name_to_code(info.symbol, &again) == PAPI_OK && again == code, 1,
	       "and round-trips");

	/* Umask enumeration of an event that has umasks. */
	is_int(PAPI_event_name_to_code("skx::DTLB_LOAD_MISSES", &code), PAPI_OK,
	       "an event that needs a umask still has a code");
	int u = code, n = 0, umasks = 0, bad = 0;
	while (PAPI_enum_event(&u, PAPI_NTV_ENUM_UMASKS) == PAPI_OK) {
		n++;
		if (PAPI_event_code_to_name(u, name) != PAPI_OK ||
		    strncmp(name, "DTLB_LOAD_MISSES:", 17) != 0) {
			bad++;
			continue;
		}
		if (strchr(name + 17, '='))
			continue;	/* a modifier: not encodable without a umask */
		umasks++;
		bad += PAPI_event_name_to_code(name, &again) != PAPI_OK || again != u;
	}
	ok(umasks >= 3, "DTLB_LOAD_MISSES lists its umasks (%d of %d qualifiers)", umasks, n);
	/* and then its modifiers, though libpfm4 encodes none of them without
	 * a unit mask (their names are refused): PAPI 7 lists them all */
	int walked;
	is_int(ntv_walk_check(code, "DTLB_LOAD_MISSES", &walked), 0,
	       "the walk of DTLB_LOAD_MISSES is libpfm4's unit masks and modifiers (%d)", walked);
	ok(walked > umasks, "modifiers after the unit masks (%d of %d)", walked - umasks, walked);

	is_int(bad, 0, "each umask code is DTLB_LOAD_MISSES:X and round-trips");
	is_int(PAPI_event_name_to_code("skx::DTLB_LOAD_MISSES:WALK_COMPLETED", &again), PAPI_OK,
	       "a listed umask resolves");

	/* Every event of the forced PMU enumerates, named without its PMU, and
	 * round-trips in both spellings; after them come the events of the
	 * kernel's own PMUs that count per task (msr), named from sysfs as
	 * PMU/EVENT/ (their PMU kept), which the forcing leaves as they are. */
	int c = PAPI_NATIVE_MASK, events = 0, skx = 0, sysfs = 0;
	bad = 0;
	for (int r = PAPI_enum_event(&c, PAPI_ENUM_FIRST); r == PAPI_OK; r = PAPI_enum_event(&c, PAPI_ENUM_EVENTS)) {
		events++;
		if (PAPI_event_code_to_name(c, name) != PAPI_OK) {
			bad++;
			continue;
		}
		int ours = !strchr(name, '/'), prefixed = -1;
		char full[PAPI_MAX_STR_LEN + 8];
		snprintf(full, sizeof full, "skx::%s", name);
		skx += ours;
		sysfs += !ours;
		if (ours && (PAPI_event_name_to_code(full, &prefixed) != PAPI_OK || prefixed != c))
			bad++;
		if ((ours && (sysfs || strstr(name, "::"))) ||
		    PAPI_event_name_to_code(name, &again) != PAPI_OK || again != c)
			bad++;
	}
	ok(skx > 50, "skx's events listed (%d of %d)", skx, events);
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	ok(ci != NULL, "component info");
	is_int(events, ci ? ci->num_native_events : -1, "enumeration count equals num_native_events");
	is_int(bad, 0, "every skx event round-trips, with its PMU and without");
	is_str(ci && ci->pmu_names[0] ? ci->pmu_names[0] : "", "skx", "the forced PMU is the component's PMU");
	PAPI_shutdown();
	return tap_done();
}

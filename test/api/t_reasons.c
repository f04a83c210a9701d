/* t_reasons.c: a preset that cannot be counted here comes with a reason naming it and the cause. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

int main(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	int es = PAPI_NULL;
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create_eventset");

	/* One row per preset: on a machine that counts it, the row is skipped. */
	static const struct { int line; int code; const char *name; } rows[] = {
		{ __LINE__, PAPI_TOT_CYC, "PAPI_TOT_CYC" },
		{ __LINE__, PAPI_TOT_INS, "PAPI_TOT_INS" },
		{ __LINE__, PAPI_L1_DCM, "PAPI_L1_DCM" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		papi_clear_reason();
		int q = PAPI_query_event(rows[i].code);
		if (q == PAPI_OK) {
			skip("this machine counts the preset", rows[i].name);
			continue;
		}
		const char *why = papi_last_reason();
		ok(strstr(why, rows[i].name) != NULL, "line %d: query reason names %s: '%s'",
		   rows[i].line, rows[i].name, why);
		ok(strstr(why, "not available") != NULL, "line %d: query reason says not available",
		   rows[i].line);
		const char *core = pmu_core_unavailable_reason();
		if (core)
			ok(strstr(why, core) != NULL, "line %d: reason carries the PMU's cause",
			   rows[i].line);

		papi_clear_reason();
		int a = PAPI_add_event(es, rows[i].code);
		ok(a != PAPI_OK, "line %d: add fails as query did (%d)", rows[i].line, a);
		ok(strstr(papi_last_reason(), rows[i].name) != NULL, "line %d: add reason names %s: '%s'",
		   rows[i].line, rows[i].name, papi_last_reason());
	}

	/* A code that is no preset at all. */
	papi_clear_reason();
	int bad = (int)(PAPI_PRESET_MASK | 0x7fff);
	ok(PAPI_query_event(bad) != PAPI_OK, "out-of-range preset code refused");
	ok(*papi_last_reason() != 0, "with a reason: '%s'", papi_last_reason());

	/* A countable software event leaves no reason behind. */
	int code;
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &code) == PAPI_OK) {
		papi_clear_reason();
		is_int(PAPI_add_event(es, code), PAPI_OK, "perf::TASK-CLOCK adds");
		is_str(papi_last_reason(), "", "no reason after a success");
	} else {
		skip("perf::TASK-CLOCK not known here", "software event");
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	return tap_done();
}

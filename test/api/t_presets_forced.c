/* t_presets_forced.c: the built-in skx preset table under LIBPFM_FORCE_PMU=skx: every defined preset resolves to skx natives and is listed as available. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"
#include "pmu_child.h"

int main(void)
{
	if (pmu_tables_missing("skx", "the skx preset table"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	unsetenv("PAPI_CSV_EVENT_FILE");
	unsetenv("PAPI_USER_EVENTS_FILE");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	int nerr;
	const char *const *errs = presets_errors(&nerr);
	if (!ok(nerr == 0, "the skx table loads without problems"))
		for (int i = 0; i < nerr; i++)
			diag("%s", errs[i]);
	int code = PAPI_PRESET_MASK, defined = 0, avail = 0, derived = 0, bad = 0;
	PAPI_enum_event(&code, PAPI_ENUM_FIRST);
	do {
		PAPI_event_info_t in;
		if (PAPI_get_event_info(code, &in) != PAPI_OK || !in.count)
			continue;
		defined++;
		avail += PAPI_query_event(code) == PAPI_OK;
		derived += strcmp(in.derived, "NOT_DERIVED") != 0;
		for (unsigned t = 0; t < in.count; t++) {
			int c;
			if (strncmp(in.name[t], "skx::", 5) ||
			    PAPI_event_name_to_code(in.name[t], &c) != PAPI_OK ||
			    (unsigned)c != in.code[t]) {
				diag("%s: native %s does not resolve back", in.symbol, in.name[t]);
				bad++;
			}
		}
	} while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
	ok(defined >= 30, "skx defines many presets (%d)", defined);
	is_int(avail, defined, "each defined preset is available under the forced PMU");
	ok(derived > 0, "some are derived (%d)", derived);
	is_int(bad, 0, "every native resolves to its own code");
	/* Enumerating only the available ones finds the same number. */
	int n = 0;
	code = PAPI_PRESET_MASK;
	if (PAPI_query_event(code) == PAPI_OK)
		n++;
	while (PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL) == PAPI_OK)
		n++;
	is_int(n, avail, "PAPI_PRESET_ENUM_AVAIL walks the available presets");
	/* Category filter: every branch preset has the branch bit. */
	code = PAPI_PRESET_MASK;
	int nbr = 0, wrong = 0;
	while (PAPI_enum_event(&code, PAPI_PRESET_ENUM_BR) == PAPI_OK) {
		PAPI_event_info_t in;
		PAPI_get_event_info(code, &in);
		nbr++;
		wrong += !(in.event_type & PAPI_PRESET_BIT_BR);
	}
	ok(nbr > 0 && !wrong, "PAPI_PRESET_ENUM_BR: %d branch presets", nbr);
	/* Counting needs an skx: adding fails with a PAPI error, not a crash. */
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	int r = PAPI_add_event(es, PAPI_TOT_CYC);
	if (r == PAPI_OK)
		r = PAPI_start(es);
	ok(r < 0, "no skx here: counting PAPI_TOT_CYC fails cleanly (%d)", r);
	PAPI_shutdown();
	return tap_done();
}

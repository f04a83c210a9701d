/* fz_event_name.c: libFuzzer target for event-name and qualifier parsing (PAPI_event_name_to_code and back). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"

/* The input is the name. FZ_PMU=skx (etc.) makes libpfm4 name another CPU's
 * events, whose qualifier rules differ. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int inited = -1;
	if (inited < 0) {
		const char *p = getenv("FZ_PMU");
		if (p && *p)
			setenv("LIBPFM_FORCE_PMU", p, 1);
		inited = PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT;
	}
	if (!inited)
		return 0;
	char *name = malloc(size + 1);
	if (!name)
		return 0;
	memcpy(name, data, size);
	name[size] = 0;
	int code;
	if (PAPI_event_name_to_code(name, &code) == PAPI_OK) {
		char back[PAPI_HUGE_STR_LEN];
		PAPI_event_info_t info;
		if (PAPI_get_event_info(code, &info) != PAPI_OK)
			abort();	/* a code we handed out must describe itself */
		int r = PAPI_event_code_to_name(code, back);
		/* and name itself: in code_to_name's PAPI_MAX_STR_LEN buffer, or
		 * PAPI_EBUF for a longer name, which the info then has whole */
		if (r == PAPI_EBUF && strlen(info.symbol) >= PAPI_MAX_STR_LEN)
			strcpy(back, info.symbol);
		else if (r != PAPI_OK || strcmp(back, info.symbol) != 0)
			abort();
		int again;
		if (PAPI_event_name_to_code(back, &again) != PAPI_OK || again != code)
			abort();	/* and round-trip */
		PAPI_query_event(code);
	}
	PAPI_query_named_event(name);
	free(name);
	return 0;
}

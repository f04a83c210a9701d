/* t_components_env.c: PAPI_DISABLE_COMPONENTS disables a component at PAPI_library_init. */
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "tap.h"

int main(void)
{
	setenv("PAPI_DISABLE_COMPONENTS", "other,perf_event", 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	ok(ci && ci->disabled, "perf_event disabled by the environment (%s)", ci ? ci->disabled_reason : "");
	int code;
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK", &code), PAPI_ENOEVNT, "its events do not resolve");
	PAPI_shutdown();
	setenv("PAPI_DISABLE_COMPONENTS", "perf_event_uncore", 1);
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(0);
	ok(ci && !ci->disabled, "a longer name does not disable perf_event");
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK", &code), PAPI_OK, "its events resolve again");
	PAPI_shutdown();
	return tap_done();
}

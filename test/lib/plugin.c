/* plugin.c: a plugin built as a shared object linked with -lpapi, as tool plugins are; the host (host.c) dlopens it and calls plugin_count. */
#include <stdio.h>

#include "papi.h"

/* Count perf::TASK-CLOCK over some work; the library is initialized here
 * unless the process did it already. 0 and *count, or a PAPI error. */
int plugin_count(long long *count)
{
	int es = PAPI_NULL, r;
	volatile double x = 0;

	if (!PAPI_is_initialized() && (r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		return r < 0 ? r : PAPI_EMISC;
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK)
		return r;
	if ((r = PAPI_add_named_event(es, "perf::TASK-CLOCK")) != PAPI_OK || (r = PAPI_start(es)) != PAPI_OK)
		goto out;
	for (int i = 1; i < 2000000; i++)
		x += 1.0 / i;
	r = PAPI_stop(es, count);
out:
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return r;
}

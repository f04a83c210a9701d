/* moda.c: the first of two shared objects linked with -lpapi (as two Python extension modules are): it initializes the library and makes an EventSet that modb.c then uses. */
#include "papi.h"

/* The EventSet (perf::TASK-CLOCK), or a PAPI error. */
int moda_init(void)
{
	int es = PAPI_NULL, r;
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		return r < 0 ? r : PAPI_EMISC;
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK || (r = PAPI_add_named_event(es, "perf::TASK-CLOCK")) != PAPI_OK)
		return r;
	return es;
}

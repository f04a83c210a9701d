/* modb.c: the second of two shared objects linked with -lpapi: it finds the library initialized by moda.c and counts with moda's EventSet. */
#include "papi.h"

/* 0 and *count; PAPI_ENOINIT when this module sees another library than
 * moda's, or a PAPI error. */
int modb_count(int es, long long *count)
{
	int n = 0, code = 0, r;
	volatile double x = 0;

	if (PAPI_is_initialized() == PAPI_NOT_INITED)
		return PAPI_ENOINIT;
	if ((r = PAPI_list_events(es, &code, &(int){ 1 })) != PAPI_OK || (n = PAPI_num_events(es)) != 1)
		return r != PAPI_OK ? r : PAPI_EMISC;
	if ((r = PAPI_start(es)) != PAPI_OK)
		return r;
	for (int i = 1; i < 2000000; i++)
		x += 1.0 / i;
	return PAPI_stop(es, count);
}

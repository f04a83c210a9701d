/* pending.c: functions declared in papi.h that no module implements yet; each returns PAPI_ENOIMPL. */
/*
 * A module that implements a function deletes it here (a duplicate
 * definition fails the link, which is how we notice).  Functions that do not
 * return int return an equally clear "no": NULL for pointers, -1 for
 * PAPI_thread_id, PAPI_ENOIMPL for the long long clocks, nothing for void.
 * Kept in alphabetical order, one block per function.
 */
#include <stddef.h>

#include "papi.h"

/* The parameters are unused until the real definitions arrive. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

int PAPI_enum_dev_type(int enum_modifier, void **handle)
{
	return PAPI_ENOIMPL;
}

int PAPI_get_dev_attr(void *handle, int id, PAPI_dev_attr_e attr, void *value)
{
	return PAPI_ENOIMPL;
}

int PAPI_get_dev_type_attr(void *handle, PAPI_dev_type_attr_e attr, void *value)
{
	return PAPI_ENOIMPL;
}


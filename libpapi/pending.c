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

int PAPI_accum_counters(long long *values, int array_len)
{
	return PAPI_ENOIMPL;
}

int PAPI_epc(int event, float *rtime, float *ptime, long long *ref, long long *core, long long *evt, float *epc)
{
	return PAPI_ENOIMPL;
}

int PAPI_flips(float *rtime, float *ptime, long long *flpins, float *mflips)
{
	return PAPI_ENOIMPL;
}

int PAPI_flips_rate(int event, float *rtime, float *ptime, long long *flpins, float *mflips)
{
	return PAPI_ENOIMPL;
}

int PAPI_flops(float *rtime, float *ptime, long long *flpops, float *mflops)
{
	return PAPI_ENOIMPL;
}

int PAPI_flops_rate(int event, float *rtime, float *ptime, long long *flpops, float *mflops)
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

int PAPI_hl_region_begin(const char *region)
{
	return PAPI_ENOIMPL;
}

int PAPI_hl_region_end(const char *region)
{
	return PAPI_ENOIMPL;
}

int PAPI_hl_stop(void)
{
	return PAPI_ENOIMPL;
}

int PAPI_ipc(float *rtime, float *ptime, long long *ins, float *ipc)
{
	return PAPI_ENOIMPL;
}

int PAPI_num_counters(void)
{
	return PAPI_ENOIMPL;
}

int PAPI_rate_stop(void)
{
	return PAPI_ENOIMPL;
}

int PAPI_read_counters(long long *values, int array_len)
{
	return PAPI_ENOIMPL;
}

int PAPI_start_counters(int *events, int array_len)
{
	return PAPI_ENOIMPL;
}

int PAPI_stop_counters(long long *values, int array_len)
{
	return PAPI_ENOIMPL;
}


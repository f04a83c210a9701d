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

int PAPI_attach(int EventSet, unsigned long tid)
{
	return PAPI_ENOIMPL;
}

int PAPI_detach(int EventSet)
{
	return PAPI_ENOIMPL;
}

int PAPI_encode_events(char *event_file, int replace)
{
	return PAPI_ENOIMPL;
}

int PAPI_enum_dev_type(int enum_modifier, void **handle)
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

int PAPI_get_cmp_opt(int option, PAPI_option_t *ptr, int cidx)
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

int PAPI_get_dmem_info(PAPI_dmem_info_t *dest)
{
	return PAPI_ENOIMPL;
}

const PAPI_exe_info_t *PAPI_get_executable_info(void)
{
	return NULL;
}

int PAPI_get_multiplex(int EventSet)
{
	return PAPI_ENOIMPL;
}

int PAPI_get_opt(int option, PAPI_option_t *ptr)
{
	return PAPI_ENOIMPL;
}

int PAPI_get_overflow_event_index(int EventSet, long long overflow_vector, int *array, int *number)
{
	return PAPI_ENOIMPL;
}

const PAPI_shlib_info_t *PAPI_get_shared_lib_info(void)
{
	return NULL;
}

int PAPI_get_thr_specific(int tag, void **ptr)
{
	return PAPI_ENOIMPL;
}

int PAPI_hl_read(const char *region)
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

int PAPI_list_threads(unsigned long *tids, int *number)
{
	return PAPI_ENOIMPL;
}

int PAPI_lock(int lck)
{
	return PAPI_ENOIMPL;
}

int PAPI_multiplex_init(void)
{
	return PAPI_ENOIMPL;
}

int PAPI_num_counters(void)
{
	return PAPI_ENOIMPL;
}

int PAPI_overflow(int EventSet, int EventCode, int threshold, int flags, PAPI_overflow_handler_t handler)
{
	return PAPI_ENOIMPL;
}

int PAPI_profil(void *buf, unsigned bufsiz, vptr_t offset, unsigned scale, int EventSet, int EventCode, int threshold, int flags)
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

int PAPI_register_thread(void)
{
	return PAPI_ENOIMPL;
}

int PAPI_set_cmp_domain(int domain, int cidx)
{
	return PAPI_ENOIMPL;
}

int PAPI_set_cmp_granularity(int granularity, int cidx)
{
	return PAPI_ENOIMPL;
}

int PAPI_set_domain(int domain)
{
	return PAPI_ENOIMPL;
}

int PAPI_set_event_info(PAPI_event_info_t *info, int *EventCode, int replace)
{
	return PAPI_ENOIMPL;
}

int PAPI_set_granularity(int granularity)
{
	return PAPI_ENOIMPL;
}

int PAPI_set_multiplex(int EventSet)
{
	return PAPI_ENOIMPL;
}

int PAPI_set_opt(int option, PAPI_option_t *ptr)
{
	return PAPI_ENOIMPL;
}

int PAPI_set_thr_specific(int tag, void *ptr)
{
	return PAPI_ENOIMPL;
}

int PAPI_sprofil(PAPI_sprofil_t *prof, int profcnt, int EventSet, int EventCode, int threshold, int flags)
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

unsigned long PAPI_thread_id(void)
{
	return (unsigned long)-1;
}

int PAPI_thread_init(unsigned long (*id_fn)(void))
{
	return PAPI_ENOIMPL;
}

int PAPI_unlock(int lck)
{
	return PAPI_ENOIMPL;
}

int PAPI_unregister_thread(void)
{
	return PAPI_ENOIMPL;
}


/* fortran.c: the PAPIF_* calling interface for Fortran (gfortran symbol names, arguments by reference, strings with hidden lengths). */
#include <stdlib.h>
#include <string.h>

#include "5-core/core.h"

/*
 * Conventions (seed 000, "PAPIF"): every argument is passed by reference and
 * the C call's result lands in the last INTEGER argument (check). gfortran
 * names a subroutine in lower case with one trailing underscore and appends
 * a size_t length for every CHARACTER argument, in order, after the others.
 * A string coming in is copied with its trailing blanks removed; a string
 * going out is copied, truncated to the Fortran length (and never longer
 * than PAPI_MAX_STR_LEN), and padded with blanks.
 *
 * The functions here are public symbols without prototypes in papi.h: a C
 * program never calls them, a Fortran compiler does.
 */

/* Exported: the library hides every name papi.h does not declare. */
#define F(name) __attribute__((visibility("default"))) papif_##name##_

/* f2c: a NUL-terminated copy of a blank-padded Fortran string (NULL when out
 * of memory; the caller frees it). */
static char *f2c(const char *s, size_t len)
{
	while (len > 0 && s[len - 1] == ' ')
		len--;
	char *c = malloc(len + 1);
	if (c) {
		memcpy(c, s, len);
		c[len] = '\0';
	}
	return c;
}

/* c2f: copy C string src into the Fortran string dst of length len. */
static void c2f(char *dst, size_t len, const char *src)
{
	size_t n = src ? strlen(src) : 0;
	if (n > len)
		n = len;
	if (n > PAPI_MAX_STR_LEN)
		n = PAPI_MAX_STR_LEN;
	memcpy(dst, src, n);
	memset(dst + n, ' ', len - n);
}

/* ---- library ------------------------------------------------------------ */

/* PAPIF_library_init(check): check holds PAPI_VER_CURRENT on entry and the
 * result of PAPI_library_init on return. */
void F(library_init)(int *check)
{
	*check = PAPI_library_init(*check);
}

void F(is_initialized)(int *check)
{
	*check = PAPI_is_initialized();
}

void F(shutdown)(void)
{
	PAPI_shutdown();
}

void F(set_debug)(int *debug, int *check)
{
	*check = PAPI_set_debug(*debug);
}

void F(set_domain)(int *domain, int *check)
{
	*check = PAPI_set_domain(*domain);
}

void F(set_granularity)(int *granularity, int *check)
{
	*check = PAPI_set_granularity(*granularity);
}

void F(multiplex_init)(int *check)
{
	*check = PAPI_multiplex_init();
}

void F(num_hwctrs)(int *num)
{
	*num = PAPI_num_hwctrs();
}

void F(num_cmp_hwctrs)(int *cidx, int *num)
{
	*num = PAPI_num_cmp_hwctrs(*cidx);
}

/* PAPIF_perror(message): PAPI_perror's text on stderr, after message. */
void F(perror)(char *message, size_t len)
{
	char *m = f2c(message, len);
	PAPI_perror(m);
	free(m);
}

/* PAPIF_get_clockrate(clockrate): the CPU's clock in MHz (Fortran only). */
void F(get_clockrate)(int *clockrate)
{
	*clockrate = PAPI_get_opt(PAPI_CLOCKRATE, NULL);
}

/* PAPIF_get_preload(preload, check): the name of the preload variable
 * (LD_PRELOAD) (Fortran only). */
void F(get_preload)(char *preload, int *check, size_t len)
{
	PAPI_option_t opt;
	memset(&opt, 0, sizeof opt);
	*check = PAPI_get_opt(PAPI_PRELOAD, &opt);
	if (*check == PAPI_OK)
		c2f(preload, len, opt.preload.lib_preload_env);
}

/* PAPIF_get_domain(EventSet, domain, mode, check): mode PAPI_DEFDOM gives
 * the default domain, PAPI_DOMAIN that of EventSet; PAPI_EINVAL otherwise. */
void F(get_domain)(int *es, int *domain, int *mode, int *check)
{
	PAPI_option_t opt;
	memset(&opt, 0, sizeof opt);
	if (*mode == PAPI_DEFDOM) {
		int r = PAPI_get_opt(PAPI_DEFDOM, NULL);
		if (r >= 0)
			*domain = r;
		*check = r < 0 ? r : PAPI_OK;
	} else if (*mode == PAPI_DOMAIN) {
		opt.domain.eventset = *es;
		*check = PAPI_get_opt(PAPI_DOMAIN, &opt);
		if (*check == PAPI_OK)
			*domain = opt.domain.domain;
	} else {
		*check = PAPI_EINVAL;
	}
}

/* PAPIF_get_granularity(EventSet, granularity, mode, check): mode
 * PAPI_DEFGRN or PAPI_GRANUL, as PAPIF_get_domain. */
void F(get_granularity)(int *es, int *granularity, int *mode, int *check)
{
	PAPI_option_t opt;
	memset(&opt, 0, sizeof opt);
	if (*mode == PAPI_DEFGRN) {
		int r = PAPI_get_opt(PAPI_DEFGRN, NULL);
		if (r >= 0)
			*granularity = r;
		*check = r < 0 ? r : PAPI_OK;
	} else if (*mode == PAPI_GRANUL) {
		opt.granularity.eventset = *es;
		*check = PAPI_get_opt(PAPI_GRANUL, &opt);
		if (*check == PAPI_OK)
			*granularity = opt.granularity.granularity;
	} else {
		*check = PAPI_EINVAL;
	}
}

/* PAPIF_set_event_domain(EventSet, domain, check) (Fortran only). */
void F(set_event_domain)(int *es, int *domain, int *check)
{
	PAPI_option_t opt;
	memset(&opt, 0, sizeof opt);
	opt.domain.eventset = *es;
	opt.domain.domain = *domain;
	*check = PAPI_set_opt(PAPI_DOMAIN, &opt);
}

/* ---- event sets --------------------------------------------------------- */

void F(create_eventset)(int *es, int *check)
{
	*check = PAPI_create_eventset(es);
}

void F(destroy_eventset)(int *es, int *check)
{
	*check = PAPI_destroy_eventset(es);
}

void F(cleanup_eventset)(int *es, int *check)
{
	*check = PAPI_cleanup_eventset(*es);
}

void F(assign_eventset_component)(int *es, int *cidx, int *check)
{
	*check = PAPI_assign_eventset_component(*es, *cidx);
}

void F(add_event)(int *es, int *code, int *check)
{
	*check = PAPI_add_event(*es, *code);
}

void F(add_events)(int *es, int *codes, int *number, int *check)
{
	*check = PAPI_add_events(*es, codes, *number);
}

void F(remove_event)(int *es, int *code, int *check)
{
	*check = PAPI_remove_event(*es, *code);
}

void F(remove_events)(int *es, int *codes, int *number, int *check)
{
	*check = PAPI_remove_events(*es, codes, *number);
}

/* PAPIF_add_named_event(EventSet, name, check): PAPI_ENOMEM when the name
 * cannot be copied. */
void F(add_named_event)(int *es, char *name, int *check, size_t len)
{
	char *n = f2c(name, len);
	*check = n ? PAPI_add_named_event(*es, n) : PAPI_ENOMEM;
	free(n);
}

void F(remove_named_event)(int *es, char *name, int *check, size_t len)
{
	char *n = f2c(name, len);
	*check = n ? PAPI_remove_named_event(*es, n) : PAPI_ENOMEM;
	free(n);
}

/* PAPIF_num_events(EventSet, count): the count, or an error code. */
void F(num_events)(int *es, int *count)
{
	*count = PAPI_num_events(*es);
}

/* PAPIF_list_events(EventSet, Events, number, check): number is the room
 * in Events on entry and the number of events on return. */
void F(list_events)(int *es, int *events, int *number, int *check)
{
	*check = PAPI_list_events(*es, events, number);
}

void F(state)(int *es, int *status, int *check)
{
	*check = PAPI_state(*es, status);
}

void F(set_multiplex)(int *es, int *check)
{
	*check = PAPI_set_multiplex(*es);
}

void F(get_multiplex)(int *es, int *check)
{
	*check = PAPI_get_multiplex(*es);
}

/* ---- counting ----------------------------------------------------------- */

void F(start)(int *es, int *check)
{
	*check = PAPI_start(*es);
}

void F(stop)(int *es, long long *values, int *check)
{
	*check = PAPI_stop(*es, values);
}

void F(read)(int *es, long long *values, int *check)
{
	*check = PAPI_read(*es, values);
}

void F(read_ts)(int *es, long long *values, long long *cyc, int *check)
{
	*check = PAPI_read_ts(*es, values, cyc);
}

void F(accum)(int *es, long long *values, int *check)
{
	*check = PAPI_accum(*es, values);
}

void F(reset)(int *es, int *check)
{
	*check = PAPI_reset(*es);
}

void F(write)(int *es, long long *values, int *check)
{
	*check = PAPI_write(*es, values);
}

/* ---- event codes and names ---------------------------------------------- */

/* PAPIF_event_code_to_name(EventCode, EventName, check). */
void F(event_code_to_name)(int *code, char *name, int *check, size_t len)
{
	char buf[PAPI_HUGE_STR_LEN];
	*check = PAPI_event_code_to_name(*code, buf);
	if (*check == PAPI_OK)
		c2f(name, len, buf);
}

/* PAPIF_event_name_to_code(EventName, EventCode, check). */
void F(event_name_to_code)(char *name, int *code, int *check, size_t len)
{
	char *n = f2c(name, len);
	*check = n ? PAPI_event_name_to_code(n, code) : PAPI_ENOMEM;
	free(n);
}

void F(query_event)(int *code, int *check)
{
	*check = PAPI_query_event(*code);
}

void F(query_named_event)(char *name, int *check, size_t len)
{
	char *n = f2c(name, len);
	*check = n ? PAPI_query_named_event(n) : PAPI_ENOMEM;
	free(n);
}

void F(enum_event)(int *code, int *modifier, int *check)
{
	*check = PAPI_enum_event(code, *modifier);
}

/* PAPIF_get_event_info(EventCode, symbol, long_descr, short_descr, count,
 * event_note, flags, check): the fields of PAPI_event_info_t a Fortran
 * program can hold; count is the number of native terms, flags is 0. */
void F(get_event_info)(int *code, char *symbol, char *long_descr, char *short_descr,
	int *count, char *note, int *flags, int *check,
	size_t symbol_len, size_t long_len, size_t short_len, size_t note_len)
{
	PAPI_event_info_t *info = malloc(sizeof *info);
	if (!info) {
		*check = PAPI_ENOMEM;
		return;
	}
	*check = PAPI_get_event_info(*code, info);
	if (*check == PAPI_OK) {
		c2f(symbol, symbol_len, info->symbol);
		c2f(long_descr, long_len, info->long_descr);
		c2f(short_descr, short_len, info->short_descr);
		c2f(note, note_len, info->note);
		*count = (int)info->count;
		*flags = 0;
	}
	free(info);
}

/* ---- clocks ------------------------------------------------------------- */

void F(get_real_cyc)(long long *v)
{
	*v = PAPI_get_real_cyc();
}

void F(get_real_usec)(long long *v)
{
	*v = PAPI_get_real_usec();
}

void F(get_real_nsec)(long long *v)
{
	*v = PAPI_get_real_nsec();
}

void F(get_virt_cyc)(long long *v)
{
	*v = PAPI_get_virt_cyc();
}

void F(get_virt_usec)(long long *v)
{
	*v = PAPI_get_virt_usec();
}

void F(get_virt_nsec)(long long *v)
{
	*v = PAPI_get_virt_nsec();
}

/* ---- system and process information ------------------------------------- */

/* PAPIF_get_hardware_info(ncpu, nnodes, totalcpus, vendor, vendor_string,
 * model, model_string, revision, mhz): no check argument; all fields are
 * left alone when the library is not initialized. */
void F(get_hardware_info)(int *ncpu, int *nnodes, int *totalcpus, int *vendor,
	char *vendor_string, int *model, char *model_string, float *revision,
	float *mhz, size_t vendor_len, size_t model_len)
{
	const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
	if (!hw)
		return;
	*ncpu = hw->ncpu;
	*nnodes = hw->nnodes;
	*totalcpus = hw->totalcpus;
	*vendor = hw->vendor;
	c2f(vendor_string, vendor_len, hw->vendor_string);
	*model = hw->model;
	c2f(model_string, model_len, hw->model_string);
	*revision = hw->revision;
	*mhz = hw->mhz > 0 ? hw->mhz : (float)hw->cpu_max_mhz;
}

/* PAPIF_get_exe_info(fullname, name, text_start, text_end, data_start,
 * data_end, bss_start, bss_end, check): PAPI_EINVAL when the library
 * cannot say (not initialized). */
void F(get_exe_info)(char *fullname, char *name, long long *text_start,
	long long *text_end, long long *data_start, long long *data_end,
	long long *bss_start, long long *bss_end, int *check,
	size_t fullname_len, size_t name_len)
{
	const PAPI_exe_info_t *exe = PAPI_get_executable_info();
	if (!exe) {
		*check = PAPI_EINVAL;
		return;
	}
	c2f(fullname, fullname_len, exe->fullname);
	c2f(name, name_len, exe->address_info.name);
	*text_start = (long long)(uintptr_t)exe->address_info.text_start;
	*text_end = (long long)(uintptr_t)exe->address_info.text_end;
	*data_start = (long long)(uintptr_t)exe->address_info.data_start;
	*data_end = (long long)(uintptr_t)exe->address_info.data_end;
	*bss_start = (long long)(uintptr_t)exe->address_info.bss_start;
	*bss_end = (long long)(uintptr_t)exe->address_info.bss_end;
	*check = PAPI_OK;
}

/* PAPIF_get_dmem_info(dmem, check): dmem(PAPIF_DMEM_VMSIZE) ... up to
 * dmem(PAPIF_DMEM_MAXVAL), Fortran's 1-based positions. */
void F(get_dmem_info)(long long *dmem, int *check)
{
	PAPI_dmem_info_t d;
	*check = PAPI_get_dmem_info(&d);
	if (*check != PAPI_OK)
		return;
	dmem[PAPIF_DMEM_VMPEAK - 1] = d.peak;
	dmem[PAPIF_DMEM_VMSIZE - 1] = d.size;
	dmem[PAPIF_DMEM_RESIDENT - 1] = d.resident;
	dmem[PAPIF_DMEM_HIGH_WATER - 1] = d.high_water_mark;
	dmem[PAPIF_DMEM_SHARED - 1] = d.shared;
	dmem[PAPIF_DMEM_TEXT - 1] = d.text;
	dmem[PAPIF_DMEM_LIBRARY - 1] = d.library;
	dmem[PAPIF_DMEM_HEAP - 1] = d.heap;
	dmem[PAPIF_DMEM_LOCKED - 1] = d.locked;
	dmem[PAPIF_DMEM_STACK - 1] = d.stack;
	dmem[PAPIF_DMEM_PAGESIZE - 1] = d.pagesize;
	dmem[PAPIF_DMEM_PTE - 1] = d.pte;
}

/* ---- threads and locks -------------------------------------------------- */

/* A Fortran INTEGER FUNCTION returns int: the library's thread-id callback
 * returns unsigned long, so it goes through this adapter. */
static int (*fortran_id_fn)(void);

static unsigned long fortran_thread_id(void)
{
	return (unsigned long)(unsigned int)fortran_id_fn();
}

/* PAPIF_thread_init(handle, check): handle is an INTEGER FUNCTION without
 * arguments (e.g. omp_get_thread_num). */
void F(thread_init)(int (*handle)(void), int *check)
{
	if (!handle) {
		*check = PAPI_EINVAL;
		return;
	}
	fortran_id_fn = handle;
	*check = PAPI_thread_init(fortran_thread_id);
}

void F(thread_id)(int *id)
{
	*id = (int)PAPI_thread_id();
}

void F(register_thread)(int *check)
{
	*check = PAPI_register_thread();
}

void F(unregister_thread)(int *check)
{
	*check = PAPI_unregister_thread();
}

/* PAPIF_lock(lock) and PAPIF_unlock(lock): no check argument (seed 000). */
void F(lock)(int *lck)
{
	PAPI_lock(*lck);
}

void F(unlock)(int *lck)
{
	PAPI_unlock(*lck);
}

/* ---- legacy counters and rates ------------------------------------------ */

void F(num_counters)(int *number)
{
	*number = PAPI_num_counters();
}

void F(start_counters)(int *events, int *array_len, int *check)
{
	*check = PAPI_start_counters(events, *array_len);
}

void F(read_counters)(long long *values, int *array_len, int *check)
{
	*check = PAPI_read_counters(values, *array_len);
}

void F(accum_counters)(long long *values, int *array_len, int *check)
{
	*check = PAPI_accum_counters(values, *array_len);
}

void F(stop_counters)(long long *values, int *array_len, int *check)
{
	*check = PAPI_stop_counters(values, *array_len);
}

void F(flips)(float *rtime, float *ptime, long long *flpins, float *mflips, int *check)
{
	*check = PAPI_flips(rtime, ptime, flpins, mflips);
}

void F(flops)(float *rtime, float *ptime, long long *flpops, float *mflops, int *check)
{
	*check = PAPI_flops(rtime, ptime, flpops, mflops);
}

void F(flips_rate)(int *event, float *rtime, float *ptime, long long *flpins,
	float *mflips, int *check)
{
	*check = PAPI_flips_rate(*event, rtime, ptime, flpins, mflips);
}

void F(flops_rate)(int *event, float *rtime, float *ptime, long long *flpops,
	float *mflops, int *check)
{
	*check = PAPI_flops_rate(*event, rtime, ptime, flpops, mflops);
}

void F(ipc)(float *rtime, float *ptime, long long *ins, float *ipc, int *check)
{
	*check = PAPI_ipc(rtime, ptime, ins, ipc);
}

void F(epc)(int *event, float *rtime, float *ptime, long long *ref,
	long long *core, long long *evt, float *epc, int *check)
{
	*check = PAPI_epc(*event, rtime, ptime, ref, core, evt, epc);
}

void F(rate_stop)(int *check)
{
	*check = PAPI_rate_stop();
}

/* ---- region API --------------------------------------------------------- */

void F(hl_region_begin)(char *region, int *check, size_t len)
{
	char *r = f2c(region, len);
	*check = r ? PAPI_hl_region_begin(r) : PAPI_ENOMEM;
	free(r);
}

void F(hl_read)(char *region, int *check, size_t len)
{
	char *r = f2c(region, len);
	*check = r ? PAPI_hl_read(r) : PAPI_ENOMEM;
	free(r);
}

void F(hl_region_end)(char *region, int *check, size_t len)
{
	char *r = f2c(region, len);
	*check = r ? PAPI_hl_region_end(r) : PAPI_ENOMEM;
	free(r);
}

void F(hl_stop)(int *check)
{
	*check = PAPI_hl_stop();
}

/* ---- PAPI 7.0's remaining Fortran calls --------------------------------- */

void F(set_cmp_domain)(int *domain, int *cidx, int *check)
{
	*check = PAPI_set_cmp_domain(*domain, *cidx);
}

void F(set_cmp_granularity)(int *granularity, int *cidx, int *check)
{
	*check = PAPI_set_cmp_granularity(*granularity, *cidx);
}

/* PAPIF_set_inherit(inherit, check): PAPI_set_opt(PAPI_INHERIT) naming no
 * EventSet, as PAPI 7.0's does (it passes none), so check receives the
 * error for a missing set. */
void F(set_inherit)(int *inherit, int *check)
{
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.inherit.eventset = PAPI_NULL;
	o.inherit.inherit = *inherit;
	*check = PAPI_set_opt(PAPI_INHERIT, &o);
}

/* The device-type handle of the last PAPIF_enum_dev_type: Fortran holds an
 * index in its place, always 0, as with PAPI 7.0. */
static void *dev_handle;

void F(enum_dev_type)(int *modifier, int *handle_index, int *check)
{
	*check = PAPI_enum_dev_type(*modifier, &dev_handle);
	*handle_index = 0;
}

/* PAPIF_get_dev_type_attr(handle_index, attr, value, string, check): the
 * CHAR_ attributes land in string, the others in value. */
void F(get_dev_type_attr)(int *handle_index, int *attr, int *value, char *string, int *check, size_t len)
{
	union { const char *s; unsigned long ul; int i; } v = { 0 };
	*handle_index = 0;
	*check = PAPI_get_dev_type_attr(dev_handle, (PAPI_dev_type_attr_e)*attr, &v);
	if (*check != PAPI_OK)
		return;
	if (*attr == PAPI_DEV_TYPE_ATTR__CHAR_NAME || *attr == PAPI_DEV_TYPE_ATTR__CHAR_STATUS)
		c2f(string, len, v.s);
	else
		*value = v.i;
}

/* PAPIF_get_dev_attr(handle_index, id, attr, value, string, check): device
 * id's attribute; the CHAR_ ones land in string, the others in value. */
void F(get_dev_attr)(int *handle_index, int *id, int *attr, int *value, char *string, int *check, size_t len)
{
	union { const char *s; unsigned long ul; unsigned u; } v = { 0 };
	*handle_index = 0;
	*check = PAPI_get_dev_attr(dev_handle, *id, (PAPI_dev_attr_e)*attr, &v);
	if (*check != PAPI_OK)
		return;
	switch (*attr) {
	case PAPI_DEV_ATTR__CPU_CHAR_NAME:
	case PAPI_DEV_ATTR__CUDA_CHAR_DEVICE_NAME:
	case PAPI_DEV_ATTR__ROCM_CHAR_DEVICE_NAME:
		c2f(string, len, v.s);
		break;
	case PAPI_DEV_ATTR__CUDA_ULONG_UID:
	case PAPI_DEV_ATTR__ROCM_ULONG_UID:
		*value = (int)v.ul;
		break;
	default:
		*value = (int)v.u;
	}
}

/* PAPI 7.0's misspelt PAPIF_unregster_thread. */
void F(unregster_thread)(int *check)
{
	*check = PAPI_unregister_thread();
}

/* ---- other spellings ------------------------------------------------------
 * PAPI 7.0's library answers to every spelling a Fortran compiler may use:
 * one trailing underscore (gfortran, the definitions above), none (xlf,
 * ifort -assume nounderscore), two (g77 and f2c for names with an
 * underscore) and upper case (Cray, ifort /names:uppercase). So does this
 * one, for the calls PAPI 7.0 has. */
#define ALIAS(name, target) \
	extern __typeof__(target) name __attribute__((alias(#target), visibility("default")))
#define SPELLINGS(lower, upper)                         \
	ALIAS(papif_##lower, papif_##lower##_);         \
	ALIAS(papif_##lower##__, papif_##lower##_);     \
	ALIAS(upper, papif_##lower##_)

SPELLINGS(accum, PAPIF_ACCUM);
SPELLINGS(add_event, PAPIF_ADD_EVENT);
SPELLINGS(add_events, PAPIF_ADD_EVENTS);
SPELLINGS(add_named_event, PAPIF_ADD_NAMED_EVENT);
SPELLINGS(assign_eventset_component, PAPIF_ASSIGN_EVENTSET_COMPONENT);
SPELLINGS(cleanup_eventset, PAPIF_CLEANUP_EVENTSET);
SPELLINGS(create_eventset, PAPIF_CREATE_EVENTSET);
SPELLINGS(destroy_eventset, PAPIF_DESTROY_EVENTSET);
SPELLINGS(enum_dev_type, PAPIF_ENUM_DEV_TYPE);
SPELLINGS(enum_event, PAPIF_ENUM_EVENT);
SPELLINGS(epc, PAPIF_EPC);
SPELLINGS(event_code_to_name, PAPIF_EVENT_CODE_TO_NAME);
SPELLINGS(event_name_to_code, PAPIF_EVENT_NAME_TO_CODE);
SPELLINGS(flips_rate, PAPIF_FLIPS_RATE);
SPELLINGS(flops_rate, PAPIF_FLOPS_RATE);
SPELLINGS(get_clockrate, PAPIF_GET_CLOCKRATE);
SPELLINGS(get_dev_attr, PAPIF_GET_DEV_ATTR);
SPELLINGS(get_dev_type_attr, PAPIF_GET_DEV_TYPE_ATTR);
SPELLINGS(get_dmem_info, PAPIF_GET_DMEM_INFO);
SPELLINGS(get_domain, PAPIF_GET_DOMAIN);
SPELLINGS(get_event_info, PAPIF_GET_EVENT_INFO);
SPELLINGS(get_exe_info, PAPIF_GET_EXE_INFO);
SPELLINGS(get_granularity, PAPIF_GET_GRANULARITY);
SPELLINGS(get_hardware_info, PAPIF_GET_HARDWARE_INFO);
SPELLINGS(get_multiplex, PAPIF_GET_MULTIPLEX);
SPELLINGS(get_preload, PAPIF_GET_PRELOAD);
SPELLINGS(get_real_cyc, PAPIF_GET_REAL_CYC);
SPELLINGS(get_real_nsec, PAPIF_GET_REAL_NSEC);
SPELLINGS(get_real_usec, PAPIF_GET_REAL_USEC);
SPELLINGS(get_virt_cyc, PAPIF_GET_VIRT_CYC);
SPELLINGS(get_virt_usec, PAPIF_GET_VIRT_USEC);
SPELLINGS(hl_read, PAPIF_HL_READ);
SPELLINGS(hl_region_begin, PAPIF_HL_REGION_BEGIN);
SPELLINGS(hl_region_end, PAPIF_HL_REGION_END);
SPELLINGS(hl_stop, PAPIF_HL_STOP);
SPELLINGS(ipc, PAPIF_IPC);
SPELLINGS(is_initialized, PAPIF_IS_INITIALIZED);
SPELLINGS(library_init, PAPIF_LIBRARY_INIT);
SPELLINGS(list_events, PAPIF_LIST_EVENTS);
SPELLINGS(lock, PAPIF_LOCK);
SPELLINGS(multiplex_init, PAPIF_MULTIPLEX_INIT);
SPELLINGS(num_cmp_hwctrs, PAPIF_num_cmp_hwctrs);
SPELLINGS(num_events, PAPIF_NUM_EVENTS);
SPELLINGS(num_hwctrs, PAPIF_num_hwctrs);
SPELLINGS(perror, PAPIF_PERROR);
SPELLINGS(query_event, PAPIF_QUERY_EVENT);
SPELLINGS(query_named_event, PAPIF_QUERY_NAMED_EVENT);
SPELLINGS(rate_stop, PAPIF_RATE_STOP);
SPELLINGS(read, PAPIF_READ);
SPELLINGS(read_ts, PAPIF_READ_TS);
SPELLINGS(register_thread, PAPIF_REGISTER_THREAD);
SPELLINGS(remove_event, PAPIF_REMOVE_EVENT);
SPELLINGS(remove_events, PAPIF_REMOVE_EVENTS);
SPELLINGS(remove_named_event, PAPIF_REMOVE_NAMED_EVENT);
SPELLINGS(reset, PAPIF_RESET);
SPELLINGS(set_cmp_domain, PAPIF_SET_CMP_DOMAIN);
SPELLINGS(set_cmp_granularity, PAPIF_SET_CMP_GRANULARITY);
SPELLINGS(set_debug, PAPIF_SET_DEBUG);
SPELLINGS(set_domain, PAPIF_SET_DOMAIN);
SPELLINGS(set_event_domain, PAPIF_SET_EVENT_DOMAIN);
SPELLINGS(set_granularity, PAPIF_SET_GRANULARITY);
SPELLINGS(set_inherit, PAPIF_SET_INHERIT);
SPELLINGS(set_multiplex, PAPIF_SET_MULTIPLEX);
SPELLINGS(shutdown, PAPIF_SHUTDOWN);
SPELLINGS(start, PAPIF_START);
SPELLINGS(state, PAPIF_STATE);
SPELLINGS(stop, PAPIF_STOP);
SPELLINGS(thread_id, PAPIF_THREAD_ID);
SPELLINGS(thread_init, PAPIF_THREAD_INIT);
SPELLINGS(unlock, PAPIF_unlock);
SPELLINGS(unregister_thread, PAPIF_UNREGISTER_THREAD);
SPELLINGS(unregster_thread, PAPIF_UNREGSTER_THREAD);
SPELLINGS(write, PAPIF_WRITE);

/* sde_lib.h: libsde, software-defined events: the counters a library registers for PAPI to read (PAPI 7.0's API). */
#ifndef PAPI_SDE_LIB_H
#define PAPI_SDE_LIB_H

/*
 * A library names its own counters and PAPI reads them as the events
 * "sde:::LIBRARY::COUNTER" of the sde component:
 *
 *     static long long hits;
 *     papi_handle_t h = papi_sde_init("MyLib");
 *     papi_sde_register_counter(h, "HITS", PAPI_SDE_RO | PAPI_SDE_DELTA,
 *                               PAPI_SDE_long_long, &hits);
 *
 * The library links libsde (-lsde), a small library of its own: it runs
 * whether or not the program links libpapi, and costs nothing on the paths
 * that count (a registered counter is the library's own variable). libpapi's
 * sde component finds libsde in the process (sde_ti_* below) and reads the
 * counters on PAPI_start/read/stop. Names, values and error codes equal PAPI
 * 7.0's; man papi-sde(3) says where this libsde is stricter.
 */

#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>

#define PAPI_SDE_VERSION_NUMBER(_maj, _min) (((_maj) << 16) | (_min))
#define PAPI_SDE_VERSION PAPI_SDE_VERSION_NUMBER(1, 0)

/* Counter modes: one of RO/RW (may a tool PAPI_write it) and one of
 * DELTA (read as the change since PAPI_start or PAPI_reset) / INSTANT (read
 * as it is). */
#define PAPI_SDE_RO		0x00
#define PAPI_SDE_RW		0x01
#define PAPI_SDE_DELTA		0x00
#define PAPI_SDE_INSTANT	0x10

/* Counter types. PAPI returns every value in a long long: a double's or a
 * float's value (as a double) is stored bit for bit; GET_DOUBLE_SDE reads it. */
#define PAPI_SDE_long_long	0x0
#define PAPI_SDE_int		0x1
#define PAPI_SDE_double		0x2
#define PAPI_SDE_float		0x3

/* How a counting group combines its members. */
#define PAPI_SDE_SUM		0x0
#define PAPI_SDE_MAX		0x1
#define PAPI_SDE_MIN		0x2

/* Return codes; each equals the PAPI_E* code of papi.h of the same meaning. */
#define SDE_OK		0	/* success */
#define SDE_EINVAL	-1	/* bad argument, or a handle of the wrong kind */
#define SDE_ENOMEM	-2	/* out of memory */
#define SDE_ECMP	-4	/* not supported */
#define SDE_ENOEVNT	-7	/* no such event */

/* Old names. */
#define register_fp_counter register_counter_cb
#define papi_sde_register_fp_counter papi_sde_register_counter_cb
#define destroy_counter unregister_counter
#define destroy_counting_set unregister_counter
#define papi_sde_destroy_counter papi_sde_unregister_counter
#define papi_sde_destroy_counting_set papi_sde_unregister_counter

#pragma GCC visibility push(default)

/* Set from PAPI_VERBOSE (any value: SDE_ERROR prints) and PAPI_DEBUG
 * (containing SUBSTRATE or ALL: SDEDBG prints) by papi_sde_init. */
extern int _sde_be_verbose;
extern int _sde_debug;
#define SDEDBG(format, args...) { if (_sde_debug) { fprintf(stderr, format, ## args); } }

static inline void SDE_ERROR(const char *format, ...)
{
	va_list args;
	if (_sde_be_verbose) {
		va_start(args, format);
		fprintf(stderr, "PAPI SDE Error: ");
		vfprintf(stderr, format, args);
		fprintf(stderr, "\n");
		va_end(args);
	}
}

#ifdef __cplusplus
extern "C" {
#endif

/* The value of a double or float counter from the long long PAPI read. */
#define GET_FLOAT_SDE(x) *((float *)&x)
#define GET_DOUBLE_SDE(x) *((double *)&x)
/* A recorder's event reads as the address of a copy of its values (the
 * caller frees it): GET_SDE_RECORDER_ADDRESS(value, double)[i]. */
#define GET_SDE_RECORDER_ADDRESS(x, rcrd_type) ((rcrd_type *)x)

/* A counting set's event reads as the address of a list of these, one per
 * distinct element: the element (type_size bytes at ptr), how many times it
 * is in the set and the type_id it was inserted with. The list is one block:
 * free(head) frees it all. */
typedef struct cset_list_object_s cset_list_object_t;
struct cset_list_object_s {
	uint32_t count;
	uint32_t type_id;
	size_t type_size;
	void *ptr;
	cset_list_object_t *next;
};

typedef long long int (*papi_sde_fptr_t)(void *);
typedef int (*papi_sde_cmpr_fptr_t)(void *);
typedef void *papi_handle_t;

/* The calls, as papi_sde_hook_list_events receives them (see below). */
typedef struct papi_sde_fptr_struct_s {
	papi_handle_t (*init)(const char *lib_name);
	int (*shutdown)(papi_handle_t handle);
	int (*register_counter)(papi_handle_t handle, const char *event_name, int mode, int type, void *counter);
	int (*register_counter_cb)(papi_handle_t handle, const char *event_name, int mode, int type,
				   papi_sde_fptr_t callback, void *param);
	int (*unregister_counter)(papi_handle_t handle, const char *event_name);
	int (*describe_counter)(papi_handle_t handle, const char *event_name, const char *event_description);
	int (*add_counter_to_group)(papi_handle_t handle, const char *event_name, const char *group_name,
				    uint32_t group_flags);
	int (*create_counter)(papi_handle_t handle, const char *event_name, int cntr_type, void **cntr_handle);
	int (*inc_counter)(papi_handle_t cntr_handle, long long int increment);
	int (*create_recorder)(papi_handle_t handle, const char *event_name, size_t typesize,
			       int (*cmpr_func_ptr)(const void *p1, const void *p2), void **record_handle);
	int (*create_counting_set)(papi_handle_t handle, const char *cset_name, void **cset_handle);
	int (*counting_set_insert)(void *cset_handle, size_t element_size, size_t hashable_size,
				   const void *element, uint32_t type_id);
	int (*counting_set_remove)(void *cset_handle, size_t hashable_size, const void *element, uint32_t type_id);
	int (*record)(void *record_handle, size_t typesize, const void *value);
	int (*reset_recorder)(void *record_handle);
	int (*reset_counter)(void *cntr_handle);
	void *(*get_counter_handle)(papi_handle_t handle, const char *event_name);
} papi_sde_fptr_struct_t;

/* papi_sde_init: the handle of library name_of_library, registering it on
 * the first call (later calls with the same name return the same handle).
 * NULL when the name is NULL, empty or contains "::", or memory runs out;
 * every call below does nothing and returns SDE_OK on a NULL handle, so a
 * library need not test it. */
papi_handle_t papi_sde_init(const char *name_of_library);

/* papi_sde_shutdown: unregister every counter of the library. SDE_OK (also
 * on NULL). The handle stays valid: the library may register again. */
int papi_sde_shutdown(papi_handle_t handle);

/* papi_sde_register_counter: make the variable at counter (of cntr_type) the
 * event LIBRARY::event_name in mode cntr_mode. The variable must live until
 * the counter is unregistered. Registering a name again keeps the first
 * registration and returns SDE_OK (as PAPI 7.0). SDE_EINVAL: NULL or empty
 * name, NULL counter, unknown mode or type, or the name taken by another kind
 * (a group, a recorder). SDE_ENOMEM. */
int papi_sde_register_counter(papi_handle_t handle, const char *event_name, int cntr_mode, int cntr_type,
			      void *counter);

/* papi_sde_register_counter_cb: as papi_sde_register_counter, the value being
 * callback(param) at each read: a long long, or for the types double and
 * float a double's bits in a long long. SDE_EINVAL (NULL callback, ...). */
int papi_sde_register_counter_cb(papi_handle_t handle, const char *event_name, int cntr_mode, int cntr_type,
				 papi_sde_fptr_t callback, void *param);

/* papi_sde_unregister_counter: remove counter, created counter, recorder
 * (with its :CNT ... :MAX events), counting set or group event_name. An
 * EventSet holding it then reads -1, as an event no library registered, and
 * counts again if the name is registered again. SDE_OK, SDE_EINVAL (not
 * registered). */
int papi_sde_unregister_counter(void *handle, const char *event_name);

/* papi_sde_describe_counter: the description PAPI shows for event_name (by
 * default "LIBRARY::event_name"). SDE_OK, SDE_EINVAL (not registered, NULL
 * description), SDE_ENOMEM. */
int papi_sde_describe_counter(papi_handle_t handle, const char *event_name, const char *event_description);

/* papi_sde_add_counter_to_group: add registered counter (or group)
 * event_name to group group_name, creating the group, an event that reads as
 * the SUM, MAX or MIN (group_flags) of its members' values. SDE_EINVAL:
 * event_name not registered, or a recorder or counting set; flags unknown or
 * not those the group was made with; members of integer and floating types
 * mixed; a group inside itself; group_name taken by another kind. */
int papi_sde_add_counter_to_group(papi_handle_t handle, const char *event_name, const char *group_name,
				  uint32_t group_flags);

/* papi_sde_create_counter: a long long counter kept by libsde, changed by
 * papi_sde_inc_counter (thread-safe) and papi_sde_reset_counter; its handle
 * in *cntr_handle (when not NULL). Creating an existing created counter
 * returns its handle. SDE_EINVAL (bad name or mode, name taken by another
 * kind), SDE_ENOMEM. */
int papi_sde_create_counter(papi_handle_t handle, const char *event_name, int cntr_mode, void **cntr_handle);

/* papi_sde_inc_counter: add increment to a created counter. SDE_OK (also on
 * NULL), SDE_EINVAL (not a created counter's handle, or unregistered). */
int papi_sde_inc_counter(void *cntr_handle, long long int increment);

/* papi_sde_create_recorder: a recorder of values of typesize bytes
 * (papi_sde_record): the event event_name reads as the address of a copy of
 * every value recorded (malloc'ed: the reader frees it), event_name:CNT as
 * how many; with a comparison function (papi_sde_compare_long_long, ...)
 * also :MIN, :Q1, :MED, :Q3 and :MAX, each the address of a malloc'ed copy of
 * that value (0 while nothing is recorded). SDE_EINVAL (bad name, typesize
 * 0, name taken), SDE_ENOMEM. */
int papi_sde_create_recorder(papi_handle_t handle, const char *event_name, size_t typesize,
			     int (*cmpr_func_ptr)(const void *p1, const void *p2), void **record_handle);

/* papi_sde_create_counting_set: a set that counts how many times each
 * distinct element is in it; the event reads as a cset_list_object_t list
 * (one block: free(head)). SDE_EINVAL, SDE_ENOMEM. */
int papi_sde_create_counting_set(papi_handle_t handle, const char *cset_name, void **cset_handle);

/* papi_sde_counting_set_insert: count element (element_size bytes, told
 * apart from others by its first hashable_size bytes and its type_id) once
 * more. SDE_OK, SDE_EINVAL (bad handle, NULL element, hashable_size 0 or
 * above element_size), SDE_ENOMEM. */
int papi_sde_counting_set_insert(void *cset_handle, size_t element_size, size_t hashable_size,
				 const void *element, uint32_t type_id);

/* papi_sde_counting_set_remove: count the element once less, dropping it at
 * zero. SDE_OK, SDE_EINVAL (bad handle, element not in the set). */
int papi_sde_counting_set_remove(void *cset_handle, size_t hashable_size, const void *element, uint32_t type_id);

/* papi_sde_record: append the value (typesize bytes, the recorder's size) to
 * a recorder. SDE_OK, SDE_EINVAL (bad handle, other size, NULL value),
 * SDE_ENOMEM. */
int papi_sde_record(void *record_handle, size_t typesize, const void *value);

/* papi_sde_reset_recorder: forget the values recorded. SDE_OK, SDE_EINVAL. */
int papi_sde_reset_recorder(void *record_handle);

/* papi_sde_reset_counter: set a created counter to zero. SDE_OK, SDE_EINVAL. */
int papi_sde_reset_counter(void *cntr_handle);

/* papi_sde_get_counter_handle: the handle of the created counter, recorder or
 * counting set event_name, NULL when there is none. */
void *papi_sde_get_counter_handle(papi_handle_t handle, const char *event_name);

/* Comparison functions for recorders: -1, 0 or 1 as *p1 <, ==, > *p2. */
int papi_sde_compare_long_long(const void *p1, const void *p2);
int papi_sde_compare_int(const void *p1, const void *p2);
int papi_sde_compare_double(const void *p1, const void *p2);
int papi_sde_compare_float(const void *p1, const void *p2);

/* papi_sde_hook_list_events: defined by a library (not by libsde) that wants
 * `papi native -sde LIB.so` (papi_native_avail -sde) to list its events
 * without running it: register them through fptr_struct and return the
 * handle. */
papi_handle_t papi_sde_hook_list_events(papi_sde_fptr_struct_t *fptr_struct);

/* Fill a papi_sde_fptr_struct_t with libsde's calls. */
#define POPULATE_SDE_FPTR_STRUCT(_A_) do { \
	_A_.init = papi_sde_init; \
	_A_.shutdown = papi_sde_shutdown; \
	_A_.register_counter = papi_sde_register_counter; \
	_A_.register_counter_cb = papi_sde_register_counter_cb; \
	_A_.unregister_counter = papi_sde_unregister_counter; \
	_A_.describe_counter = papi_sde_describe_counter; \
	_A_.add_counter_to_group = papi_sde_add_counter_to_group; \
	_A_.create_counter = papi_sde_create_counter; \
	_A_.inc_counter = papi_sde_inc_counter; \
	_A_.create_recorder = papi_sde_create_recorder; \
	_A_.create_counting_set = papi_sde_create_counting_set; \
	_A_.counting_set_insert = papi_sde_counting_set_insert; \
	_A_.counting_set_remove = papi_sde_counting_set_remove; \
	_A_.record = papi_sde_record; \
	_A_.reset_recorder = papi_sde_reset_recorder; \
	_A_.reset_counter = papi_sde_reset_counter; \
	_A_.get_counter_handle = papi_sde_get_counter_handle; \
} while (0)

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif

/* sde_ti.h: libsde's tool interface, the calls through which libpapi's sde component reads the registry (PAPI 7.0's names). */
#ifndef PAPI_SDE_TI_H
#define PAPI_SDE_TI_H

/*
 * libsde exports these and libpapi's sde component (4-components/sde.c) finds
 * them in the process at run time: as weak references when both are linked
 * into one program, by dlsym otherwise. Neither library links the other. The
 * names and signatures are PAPI 7.0's, so that this libpapi reads a PAPI
 * 7.0 libsde's counters and PAPI 7.0's libpapi reads this libsde's.
 *
 * An event is a 32-bit id, given once per name ("LIBRARY::COUNTER") and
 * never reused: a name unregistered keeps its id, reading -1 until a library
 * registers it again.
 */

#include <stdint.h>

#pragma GCC visibility push(default)

#ifdef __cplusplus
extern "C" {
#endif

/* The value of event id into *value: a counter's change since its last
 * sde_ti_reset_counter (DELTA) or its value (INSTANT); a group's combined
 * value; a recorder's or counting set's malloc'ed copy (as an address);
 * -1 for a name no library registers. SDE_OK, SDE_EINVAL (no such id). */
int sde_ti_read_counter(uint32_t id, long long int *value);

/* Set counter id (registered with PAPI_SDE_RW) so that it reads value.
 * SDE_OK, SDE_EINVAL (no such id, read-only, or not a variable). */
int sde_ti_write_counter(uint32_t id, long long value);

/* Start counter id (a group: each member) over from its current value.
 * SDE_OK (also for events that do not count, as recorders), SDE_EINVAL (no
 * such id). */
int sde_ti_reset_counter(uint32_t id);

/* The id of "LIBRARY::COUNTER" into *id; an unregistered name gets an id
 * (it reads -1 until registered). SDE_OK, SDE_ENOEVNT (not of that form),
 * SDE_ENOMEM. */
int sde_ti_name_to_code(const char *event_name, uint32_t *id);

/* 1 when id is a counter registered by address, else 0. */
int sde_ti_is_simple_counter(uint32_t id);

/* Overflow (PAPI_overflow on an SDE): 1 when id is set to overflow and
 * libpapi must poll it (a counter libsde does not see change), else 0. */
int sde_ti_is_counter_set_to_overflow(uint32_t id);
/* Set (threshold > 0) or clear overflow of id: SDE_OK when libpapi need not
 * poll (a created counter: libsde calls papi_sde_check_overflow_status at
 * each increment; a name not registered yet), a positive value when it
 * must, SDE_EINVAL (a recorder or counting set, no such id). */
int sde_ti_set_counter_overflow(uint32_t id, int threshold);

/* The name ("LIBRARY::COUNTER") and description of id (the name when the
 * library gave none), NULL when no id is given. Valid until libsde's
 * library unregisters the event or describes it again. */
char *sde_ti_get_event_name(int id);
char *sde_ti_get_event_description(int id);

/* 1 when a library registers id now, 0 when not (a name a tool asked for
 * first, or unregistered since). Not in PAPI 7.0's libsde: libpapi looks it
 * up and takes every id as registered without it, as PAPI 7.0 does. */
int sde_ti_is_registered(uint32_t id);

/* One more than the highest id given so far. */
int sde_ti_get_num_reg_events(void);

/* libpapi shuts down: SDE_OK (the libraries' counters stay registered). */
int sde_ti_shutdown(void);

#ifdef __cplusplus
}
#endif

#pragma GCC visibility pop

#endif

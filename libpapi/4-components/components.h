/* components.h: layer 4, the component table (components.c) and the event
 * code dispatch over components and presets (codes.c). */
#ifndef PAPI_COMPONENTS_H
#define PAPI_COMPONENTS_H

#include "3-naming/naming.h"

/* codes.c: record (papi_last_reason, PAPI_VERB_ECONT output) why the preset
 * or user event code failed with err: not a preset, or not available here and
 * why (no hardware PMU, or no definition for this CPU). Nothing for PAPI_OK
 * or native codes (native_usable says why for those). */
void codes_explain_unavailable(int code, int err);

/* components.c: 1 when component cidx was disabled (PAPI_disable_component or
 * PAPI_DISABLE_COMPONENTS), 0 when not, -1 when cidx is out of range. */
int cmp_disabled(int cidx);

#endif

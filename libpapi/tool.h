/* tool.h: what the papi tool (cmd/) may use of libpapi beyond papi.h: the
 * naming, kernel and component layers' functions it reads (names, reasons,
 * PMUs, presets, metric groups), and the core's door (5-core/door.h) that
 * configures and reads an EventSet by its id. EventSet_t stays the core's
 * own: nothing here shows its fields, so the tool cannot write one. The
 * library's modules include their layer's header, never this one. */
#ifndef PAPI_TOOL_H
#define PAPI_TOOL_H

#ifdef PAPI_IN_LIBRARY
#error "a libpapi module includes its layer's header, not tool.h"
#endif

#include "4-components/components.h"
#include "5-core/door.h"

#endif

/* internal.h: every layer's private header at once, for cmd/ and the tests.
 * A library module includes its own layer's header instead (N-layer/x.h),
 * so that what it may call is what lies below it; test/tools/layers.sh
 * checks both the includes and the calls. */
#ifndef PAPI_INTERNAL_H
#define PAPI_INTERNAL_H

#ifdef PAPI_IN_LIBRARY
#error "a libpapi module includes its layer's header (e.g. 3-naming/naming.h), not internal.h"
#endif

#include "6-api/hl.h"

#endif

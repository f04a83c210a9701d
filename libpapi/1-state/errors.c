/* errors.c: the message of each PAPI error code (PAPI_strerror) and PAPI_perror. */
#include <stdio.h>

#include "1-state/state.h"

/* The messages PAPI 7.2 gives for each error code (index = -code). */
static const char *const messages[] = {
	[-PAPI_OK] = "No error",
	[-PAPI_EINVAL] = "Invalid argument",
	[-PAPI_ENOMEM] = "Insufficient memory",
	[-PAPI_ESYS] = "A System/C library call failed",
	[-PAPI_ECMP] = "Not supported by component",
	[-PAPI_ECLOST] = "Access to the counters was lost or interrupted",
	[-PAPI_EBUG] = "Internal error, please send mail to the developers",
	[-PAPI_ENOEVNT] = "Event does not exist",
	[-PAPI_ECNFLCT] = "Event exists, but cannot be counted due to hardware resource limits",
	[-PAPI_ENOTRUN] = "EventSet is currently not running",
	[-PAPI_EISRUN] = "EventSet is currently counting",
	[-PAPI_ENOEVST] = "No such EventSet available",
	[-PAPI_ENOTPRESET] = "Event in argument is not a valid preset",
	[-PAPI_ENOCNTR] = "Hardware does not support performance counters",
	[-PAPI_EMISC] = "Unknown error code",
	[-PAPI_EPERM] = "Permission level does not permit operation",
	[-PAPI_ENOINIT] = "PAPI hasn't been initialized yet",
	[-PAPI_ENOCMP] = "Component Index isn't set",
	[-PAPI_ENOSUPP] = "Not supported",
	[-PAPI_ENOIMPL] = "Not implemented",
	[-PAPI_EBUF] = "Buffer size exceeded",
	[-PAPI_EINVAL_DOM] = "EventSet domain is not supported for the operation",
	[-PAPI_EATTR] = "Invalid or missing event attributes",
	[-PAPI_ECOUNT] = "Too many events or attributes",
	[-PAPI_ECOMBO] = "Bad combination of features",
	[-PAPI_ECMP_DISABLED] = "Component containing event is disabled",
	[-PAPI_EDELAY_INIT] = "Delayed initialization component",
	[-PAPI_EMULPASS] = "Event exists, but cannot be counted due to multiple passes required by hardware",
	[-PAPI_PARTIAL] = "Component in use is partially disabled, see utils/papi_component_avail for more information.",
};
#define NMESSAGES ((int)(sizeof messages / sizeof messages[0]))

/* PAPI_strerror: the message for an error code, or NULL for a code that is
 * not one of PAPI's. Works before PAPI_library_init. */
char *PAPI_strerror(int code)
{
	if (code > 0 || -code >= NMESSAGES || !messages[-code])
		return NULL;
	return (char *)messages[-code];
}

/* PAPI_perror: print "msg: <message of the last error>" on stderr. PAPI 7
 * keeps no last error code, so the message printed is the reason text when
 * one is recorded for this thread. */
void PAPI_perror(const char *msg)
{
	const char *why = papi_last_reason();
	if (msg && *msg)
		fprintf(stderr, "%s%s%s\n", msg, *why ? ": " : "", why);
	else if (*why)
		fprintf(stderr, "%s\n", why);
}

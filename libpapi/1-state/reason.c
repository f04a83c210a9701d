/* reason.c: debug output (PAPI_DEBUG, PAPI_set_debug) and the per-thread reason the last call failed. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "1-state/state.h"

PAPI_FIRST_DATA int papi_debug_level = PAPI_QUIET;
PAPI_FIRST_DATA int papi_explain;

/* PAPI_set_debug: PAPI_QUIET, PAPI_VERB_ECONT or PAPI_VERB_ESTOP (see
 * state.h for what they print). PAPI_EINVAL for any other level. */
int PAPI_set_debug(int level)
{
	if (level != PAPI_QUIET && level != PAPI_VERB_ECONT && level != PAPI_VERB_ESTOP)
		return PAPI_EINVAL;
	papi_debug_level = level;
	return PAPI_OK;
}

void papi_dbg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("PAPI: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static __thread char reason[512];
static __thread int reason_muted;	/* papi_reason_mute */
static __thread char reason_said[512];	/* the last one printed */

const char *papi_last_reason(void)
{
	return reason;
}

void papi_set_reason(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof reason, fmt, ap);
	va_end(ap);
	/* once: a call that fails deep down may say the same again on its
	 * way out */
	if (papi_explain && !reason_muted && strcmp(reason, reason_said) != 0) {
		papi_dbg("%s", reason);
		memcpy(reason_said, reason, sizeof reason_said);
	}
}

/* papi_reason_mute: see state.h. */
int papi_reason_mute(int on)
{
	int was = reason_muted;
	reason_muted = on;
	return was;
}

void papi_clear_reason(void)
{
	reason[0] = 0;
}

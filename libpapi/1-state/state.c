/* library.c: library init and shutdown, debug output, error strings, the per-thread failure reason. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

PAPI_FIRST_DATA int papi_state = PAPI_NOT_INITED;
PAPI_FIRST_DATA int papi_debug_level = PAPI_QUIET;
PAPI_FIRST_DATA static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

/* Components, presets and threads register a shutdown hook here so that this
 * module needs no knowledge of them. Hooks run in reverse order. */
#define MAX_HOOKS 16
static void (*shutdown_hooks[MAX_HOOKS])(void);
static int nhooks;

void papi_on_shutdown(void (*fn)(void))
{
	pthread_mutex_lock(&init_lock);
	for (int i = 0; i < nhooks; i++)
		if (shutdown_hooks[i] == fn)
			goto out;
	if (nhooks < MAX_HOOKS)
		shutdown_hooks[nhooks++] = fn;
out:
	pthread_mutex_unlock(&init_lock);
}

static __thread pid_t cached_tid;

pid_t papi_gettid(void)
{
	if (!cached_tid)
		cached_tid = (pid_t)syscall(SYS_gettid);
	return cached_tid;
}

/* After fork the child is a new thread with a new id. */
static void reset_tid_after_fork(void);

/* PAPI_library_init: version must be PAPI_VER_CURRENT. Cheap by design: no
 * event enumeration and no libpfm4 work happen here; they happen on the first
 * call that needs them. Returns PAPI_VER_CURRENT, or PAPI_EINVAL for a
 * version this library does not implement. Calling it again is harmless. */
int PAPI_library_init(int version)
{
	if (version != PAPI_VER_CURRENT)
		return PAPI_EINVAL;
	pthread_mutex_lock(&init_lock);
	if (papi_state == PAPI_NOT_INITED) {
		const char *dbg = getenv("PAPI_DEBUG");
		if (dbg && *dbg)
			papi_debug_level = PAPI_VERB_ECONT;
		rdpmc_init();
		presets_read_env();
		__atomic_store_n(&papi_state, PAPI_LOW_LEVEL_INITED, __ATOMIC_SEQ_CST);
		reset_tid_after_fork();
	}
	pthread_mutex_unlock(&init_lock);
	return PAPI_VER_CURRENT;
}

/* PAPI_is_initialized: PAPI_NOT_INITED or the PAPI_*_INITED bits. */
int PAPI_is_initialized(void)
{
	return __atomic_load_n(&papi_state, __ATOMIC_ACQUIRE);
}

/* PAPI_shutdown: stop and destroy every EventSet, close every counter, free
 * every table. The library can be initialized again afterwards. */
void PAPI_shutdown(void)
{
	pthread_mutex_lock(&init_lock);
	if (papi_state == PAPI_NOT_INITED) {
		pthread_mutex_unlock(&init_lock);
		return;
	}
	__atomic_store_n(&papi_state, PAPI_NOT_INITED, __ATOMIC_SEQ_CST);
	int n = nhooks;
	pthread_mutex_unlock(&init_lock);
	es_destroy_all();
	for (int i = n - 1; i >= 0; i--)
		shutdown_hooks[i]();
	native_shutdown();
}

/* The messages PAPI 7 gives for each error code (index = -code). */
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

/* PAPI_set_debug: PAPI_QUIET, PAPI_VERB_ECONT or PAPI_VERB_ESTOP.
 * PAPI_EINVAL for any other level. */
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
	if (!reason_muted)
		DBG("%s", reason);
}

/* papi_reason_mute: see internal.h. */
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

/* The forking thread's cached id is the parent's; the child's differs. */
static void child_after_fork(void)
{
	cached_tid = 0;
}

static void reset_tid_after_fork(void)
{
	static int done;
	if (!done) {
		done = 1;
		pthread_atfork(NULL, NULL, child_after_fork);
	}
}

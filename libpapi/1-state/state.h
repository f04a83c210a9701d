/* state.h: layer 1, the state every module reads: whether the library is
 * initialized, the shutdown hooks, debug output, the per-thread failure
 * reason and thread id. Calls nothing above it. */
#ifndef PAPI_STATE_H
#define PAPI_STATE_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "papi.h"

/* state.c: papi_state is PAPI_NOT_INITED until PAPI_library_init succeeds.
 * Every public call that needs the library checks lib_ready() first and
 * returns PAPI_ENOINIT when it is not. Init and shutdown themselves live at
 * the top of the core layer (5-core/init.c). */
extern int papi_state;
/* Register fn to run at PAPI_shutdown (once per fn; last registered runs
 * first): how a module of any layer frees its tables without the shutdown
 * code knowing it. */
void papi_on_shutdown(void (*fn)(void));
/* Run the registered hooks, newest first (PAPI_shutdown). */
void state_run_shutdown_hooks(void);
/* Functions on the counting hot path (read, accum, the high-level region
 * calls): GCC places them side by side in .text.hot, so the few code pages
 * touched right after the read() syscall stay together. */
#define PAPI_HOT __attribute__((hot))
/* Small state that library init and a first name lookup touch: one section
 * for all of it (the linker gathers a section of this name from every
 * object file), so a fresh process faults in one page of it, not one per
 * source file. */
#define PAPI_FIRST_DATA __attribute__((section("papi_first_data")))
/* Atomic: other threads read it while PAPI_shutdown changes it. */
static inline int lib_ready(void) { return __atomic_load_n(&papi_state, __ATOMIC_ACQUIRE) != PAPI_NOT_INITED; }

/* Debug output (PAPI_DEBUG / PAPI_set_debug): prints only when asked. */
extern int papi_debug_level;
void papi_dbg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define DBG(...) do { if (papi_debug_level) papi_dbg(__VA_ARGS__); } while (0)

/* reason.c: thread-local text saying why the last failing call failed, in
 * words a person can act on ("perf_event_open(perf::CYCLES): no hardware
 * PMU: ..."). Empty when the last failure left no detail. The CLI prints it. */
const char *papi_last_reason(void);
void papi_set_reason(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void papi_clear_reason(void);
/* While on (per thread), papi_set_reason records without printing through
 * DBG: for questions the library asks itself (loading the preset tables),
 * whose answers are no failure of the caller's. Returns the previous state. */
int papi_reason_mute(int on);

/* state.c: thread id of the caller (cached per thread); state_tid_init
 * installs the fork handler that forgets the cache in a child. */
pid_t papi_gettid(void);
void state_tid_init(void);

#endif

/* state.h: layer 1, the state every module reads: whether the library is
 * initialized, the shutdown hooks, debug output, the per-thread failure
 * reason and thread id. Calls nothing above it. */
#ifndef PAPI_STATE_H
#define PAPI_STATE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
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

/* Debug output (PAPI_DEBUG / PAPI_set_debug): prints only when asked. At
 * PAPI_set_debug's levels (PAPI_VERB_ECONT, _ESTOP), DBG says what PAPI 7's
 * library says there: the library's own trouble (an event file line it
 * skips, counters it could not reopen), never why a call failed, since
 * PAPI's tools ask for those levels and expect silence from calls that
 * fail. papi_explain (the PAPI_DEBUG variable, read by PAPI_library_init)
 * also prints each failure's reason as papi_set_reason records it. */
extern int papi_debug_level;
extern int papi_explain;
void papi_dbg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define DBG(...) do { if (papi_debug_level) papi_dbg(__VA_ARGS__); } while (0)

/* reason.c: thread-local text saying why the last failing call failed, in
 * words a person can act on ("perf_event_open(perf::CYCLES): no hardware
 * PMU: ..."). Empty when the last failure left no detail. The CLI prints it. */
const char *papi_last_reason(void);
void papi_set_reason(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void papi_clear_reason(void);
/* While on (per thread), papi_set_reason records without printing under
 * papi_explain: for questions the library asks itself (loading the preset
 * tables), whose answers are no failure of the caller's. Returns the
 * previous state. */
int papi_reason_mute(int on);

/* state.c: thread id of the caller, cached per thread. The first fill
 * installs the fork handler that forgets the cache in a child; until a
 * thread fills its cache, nothing needs it (PAPI_library_init asks the
 * kernel directly, and so touches no fork-handler pages). */
pid_t papi_gettid(void);
/* papi_getenv: getenv's answer for name (NULL when unset), found by a walk
 * of environ in this library's own code: PAPI_library_init reads its
 * variables with it, with their names in PAPI_FIRST_DATA, so that a fresh
 * process faults in none of libc's or .rodata's pages for them. */
const char *papi_getenv(const char *name);

/* interpose.c: the program's I/O calls. It defines read, write, open, open64, close, lseek, lseek64,
 * select, recv, fread and fwrite for the whole program (glibc only): each
 * passes the call on to the C library and, while some appio EventSet holds
 * events, tallies it in the calling thread's totals. A program that links
 * libpapi (static or shared) has them; one that dlopens it does not. */
enum { IO_BYTES, IO_CALLS, IO_ERR, IO_INTR, IO_AGAIN, IO_SHORT, IO_EOF, IO_REQ, IO_NS, IO_NF };
enum {				/* the thread's totals: blocks of IO_NF, then singles */
	IOT_READ = 0, IOT_WRITE = IO_NF, IOT_RECV = 2 * IO_NF, IOT_SOCK_READ = 3 * IO_NF,
	IOT_SOCK_WRITE = 4 * IO_NF,
	IOT_OPEN_CALLS = 5 * IO_NF, IOT_OPEN_ERR, IOT_OPEN_OK, IOT_CLOSE_OK, IOT_SELECT_NS,
	IOT_SEEK_CALLS, IOT_SEEK_ABS, IOT_SEEK_NS,
	IOT_N
};
/* NULL when the program's calls come here; else why not (no glibc, or
 * libpapi loaded with dlopen, after the program's calls were bound). */
const char *io_interpose_problem(void);
/* One more (delta 1) or one fewer (-1) EventSet wants the calls tallied. */
void io_tally_use(int delta);
/* The calling thread's totals, IOT_N of them (never NULL). */
const long long *io_tally_self(void);
/* The C library's calls behind the interposed names: the library's own
 * I/O goes through these, so that appio counts only the program's. Under
 * glibc, io_real_read is glibc's own __read: perf.c's counter reads take
 * no extra call on their way. */
#if defined(__GLIBC__)
ssize_t __read(int fd, void *buf, size_t n);
#define io_real_read __read
#else
ssize_t io_real_read(int fd, void *buf, size_t n);
#endif
int io_real_open(const char *path, int flags);
int io_real_close(int fd);

/* ---- text.c: what the library's files (hl_output) and the CLI write alike. */
/* Length of the valid UTF-8 sequence at s, or 0 when s[0] starts none
 * (overlongs, surrogates and code points past U+10FFFF are not valid). */
int text_utf8_len(const unsigned char *s);
/* str as one JSON string on f: quotes, backslashes and control characters
 * escaped, a byte that starts no valid UTF-8 written as U+FFFD. */
void text_json_quoted(FILE *f, const char *str);

#endif

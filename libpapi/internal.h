/* internal.h: the private types and calls shared across libpapi's modules. */
#ifndef PAPI_INTERNAL_H
#define PAPI_INTERNAL_H

#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "papi.h"

#define PAPI_HIDDEN __attribute__((visibility("hidden")))

/* Most native terms one preset or user event may combine (PAPI 7's limit). */
#define PAPI_EVENTS_IN_DERIVED_EVENT 8

/* Derived types of the definition files (seed 002). */
#define NOT_DERIVED	0x0
#define DERIVED_ADD	0x1
#define DERIVED_PS	0x2
#define DERIVED_ADD_PS	0x4
#define DERIVED_CMPD	0x8
#define DERIVED_SUB	0x10
#define DERIVED_POSTFIX	0x20
#define DERIVED_INFIX	0x40

/* ------------------------------------------------------------------ library
 * library.c owns the global state. papi_state: PAPI_NOT_INITED until
 * PAPI_library_init succeeds. Every public call that needs the library checks
 * lib_ready() first and returns PAPI_ENOINIT when it is not. */
extern int papi_state;
/* Register fn to run at PAPI_shutdown (once per fn; last registered runs first). */
void papi_on_shutdown(void (*fn)(void));
/* Defaults for new EventSets (PAPI_DEFDOM, PAPI_DEFGRN). */
extern int papi_default_domain, papi_default_granularity;
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

/* Thread-local text saying why the last failing call failed, in words a
 * person can act on ("perf_event_open(perf::CYCLES): no hardware PMU: ...").
 * Empty when the last failure left no detail. The CLI prints it. */
const char *papi_last_reason(void);
void papi_set_reason(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void papi_clear_reason(void);
/* While on (per thread), papi_set_reason records without printing through
 * DBG: for questions the library asks itself (loading the preset tables),
 * whose answers are no failure of the caller's. Returns the previous state. */
int papi_reason_mute(int on);

/* ------------------------------------------------------------------ sys seam
 * perf.c is the only module that talks to the kernel's perf_event interface,
 * and it does so only through these calls, so that a test binary can plug in
 * a simulated PMU (test/sim). The shipped library always uses the real ones. */
struct sys_ops {
	int (*perf_open)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags);
	ssize_t (*read)(int fd, void *buf, size_t len);
	int (*ioctl)(int fd, unsigned long req, unsigned long arg);
	void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd, off_t off);
	int (*munmap)(void *addr, size_t len);
	int (*close)(int fd);
	int (*fcntl)(int fd, int cmd, long arg);
	/* perf_event_attr.type of the kernel PMU called name (as in
	 * /sys/bus/event_source/devices/NAME/type), or -1 when the kernel has none. */
	int (*pmu_type)(const char *name);
	/* The raw value of hardware counter `counter` of this CPU (x86 rdpmc
	 * ecx encoding: the user page's index - 1). NULL where the library has
	 * no such instruction: counters are then always read with read(). */
	uint64_t (*rdpmc)(uint32_t counter);
	/* The time-stamp counter the user page's time_mult/time_shift convert
	 * to nanoseconds (x86 rdtsc). NULL when absent (read() is used). */
	uint64_t (*tsc)(void);
};
extern const struct sys_ops *sys;
extern const struct sys_ops sys_real;
/* Replace the seam (test binaries only; NULL restores the real one). */
void sys_set_ops(const struct sys_ops *ops);

/* Turn a perf_event_open errno into a PAPI error code. */
int pe_errno_to_papi(int err);
/* Write advice for a failed perf_event_open of the event called name into
 * buf: what failed and what a person can do about it. */
void pe_advice(int err, const char *name, const struct perf_event_attr *attr, char *buf,
	       size_t len);

/* ------------------------------------------------------------------ PMUs
 * native.c keeps the PMUs libpfm4 detected. A PMU is usable when libpfm4
 * detected it and the running kernel exposes it (sys->pmu_type >= 0). */
struct pmu {
	int pfm_pmu;		/* libpfm4 pfm_pmu_t */
	int pfm_type;		/* PFM_PMU_TYPE_CORE, _UNCORE, _OS_GENERIC */
	int kernel_type;	/* perf_event_attr.type from sysfs, -1 when absent */
	int num_cntrs, num_fixed;
	char name[64];		/* libpfm4 name: "skx", "perf", "amd64_fam19h_zen4" */
	char desc[128];
	char kernel_name[64];	/* sysfs device: "cpu", "cpu_core", "software", ... */
};
int pmu_count(void);
const struct pmu *pmu_get(int i);
/* Why the core PMU cannot count here, or NULL when it can. */
const char *pmu_core_unavailable_reason(void);

/* ------------------------------------------------------------------ native events
 * Native events live in a per-process table; code = PAPI_NATIVE_MASK | index.
 * Entries are created on first lookup (name -> encoding through libpfm4) and
 * never move, so native_get() needs no lock. */
struct native {
	char *name;		/* canonical name "pmu::EVENT[:UMASK][:mod=val]" */
	char *desc;		/* long description (event, then umask), owned */
	int pfm_idx;		/* libpfm4 event index */
	int pmu;		/* index into the PMU list */
	int umask_only;		/* 1 for the code of a bare "EVENT:UMASK" enumeration entry */
	int attr_idx;		/* libpfm4 attribute index of that umask/modifier, else -1 */
	int encode_err;		/* PAPI_OK, or why attr is unusable (an event that needs a
				 * unit mask: listed and named, but not countable as is) */
	struct perf_event_attr attr;	/* encoded; exclude_* as the name's modifiers set */
	unsigned char has_domain_mod;	/* name carries :u/:k/:h: domain fixed by name */
};
/* Look name up (encoding it through libpfm4 the first time).
 * Returns PAPI_OK and *idx, PAPI_ENOEVNT (unknown), PAPI_EINVAL (bad
 * qualifier or NULL/overlong name), PAPI_ENOMEM. */
int native_lookup(const char *name, int *idx);
/* The entry for index idx, or NULL when idx is not a valid index. */
const struct native *native_get(int idx);
/* Enumerate native codes (PAPI_enum_event semantics for native codes). */
int native_enum(int *code, int modifier, int cidx);
/* Fill info for a native code. */
int native_info(int idx, PAPI_event_info_t *info);
/* Number of native events native_enum lists: the events of every PMU libpfm4
 * detected (for component info; whether the kernel can count them is
 * native_usable's question). */
int native_count(void);
/* Can the running kernel count native index idx? PAPI_OK, or PAPI_ENOEVNT
 * (bad index), PAPI_EINVAL (needs a unit mask), PAPI_ECMP (the PMU it needs
 * is absent from the kernel; papi_last_reason() says which). */
int native_usable(int idx);
/* Free the table and libpfm4's state; the next call starts afresh. */
void native_shutdown(void);

/* native_sw: the software events a lookup resolves without libpfm4. */
struct native_sw {
	char canon[96];		/* "perf::EVENT[:u|:k]", EVENT as libpfm4 spells it */
	const char *event;	/* EVENT inside canon */
	size_t event_len;
	char desc[128];		/* the description libpfm4's lookup gives it */
	struct perf_event_attr attr;	/* as libpfm4 encodes it */
	int has_domain_mod;
};
/* If name is "perf::EVENT" (any case) with an optional ":u" or ":k", EVENT
 * a software event libpfm4 lists, and no LIBPFM_FORCE_PMU/DISABLED_PMUS in
 * the environment: fill *out and return 1; else 0 (ask libpfm4). */
int native_sw_match(const char *name, struct native_sw *out);
/* 0 when name cannot be a preset or user event, so that a native lookup may
 * skip loading the preset tables (a "pmu::" name and no event file named in
 * the environment); 1 when the tables must be asked. */
int presets_may_name(const char *name);
/* Note whether the environment names an event file (PAPI_USER_EVENTS_FILE,
 * PAPI_CSV_EVENT_FILE) for presets_may_name; PAPI_library_init calls it,
 * so a change to those variables takes effect at the next init. */
void presets_read_env(void);
/* 1 once the preset tables (and event files) are loaded, 0 before. */
int presets_loaded(void);

/* ------------------------------------------------------------------ codes / presets
 * codes.c dispatches preset (PAPI_PRESET_MASK) and user (PAPI_UE_MASK) codes to
 * the presets module. Same contracts as the public calls of the same names. */
int presets_name_to_code(const char *name, int *code);
int presets_code_to_name(int code, char *name);
int presets_info(int code, PAPI_event_info_t *info);
int presets_enum(int *code, int modifier);
/* PAPI_OK when the preset/user event can be counted here, else PAPI_ENOEVNT /
 * PAPI_ENOTPRESET. */
int presets_query(int code);
/* presets_info_full: as presets_info, but count, code[], name[], derived and
 * postfix describe this CPU's definition even when the kernel cannot count
 * its natives (PAPI_get_event_info leaves them empty then); for the CLI. */
int presets_info_full(int code, PAPI_event_info_t *info);

/* codes.c: record (papi_last_reason, PAPI_VERB_ECONT output) why the preset
 * or user event code failed with err: not a preset, or not available here and
 * why (no hardware PMU, or no definition for this CPU). Nothing for PAPI_OK
 * or native codes (native_usable says why for those). */
void codes_explain_unavailable(int code, int err);

/* components.c: 1 when component cidx was disabled (PAPI_disable_component or
 * PAPI_DISABLE_COMPONENTS), 0 when not, -1 when cidx is out of range. */
int cmp_disabled(int cidx);

/* ------------------------------------------------------------------ presets / user events
 * A preset or user-defined event resolves to up to PAPI_EVENTS_IN_DERIVED_EVENT
 * native indexes and a formula over their values. */
struct formula;
struct derived_def {
	int nterms;
	int ntv[PAPI_EVENTS_IN_DERIVED_EVENT];	/* native indexes */
	int derived;		/* DERIVED_* type as in the definition files */
	const struct formula *f;	/* compiled program; NULL for NOT_DERIVED and ADD */
};
/* Resolve a preset or user-event code for the running machine.
 * PAPI_OK, PAPI_ENOEVNT (not defined / not available here), PAPI_ENOTPRESET. */
int presets_resolve(int code, struct derived_def *out);
/* Evaluate a derived event from its term values. */
long long derived_eval(const struct derived_def *d, const long long *vals);

/* ------------------------------------------------------------------ formulas (formula.c)
 * A compiled formula is a stack program over term values N0..N(k-1).
 * Arithmetic wraps modulo 2^64 (unsigned), division is signed and x/0 = 0;
 * DERIVED_PS scales by hwinfo_mhz() with a 128-bit intermediate. */
/* Compile a derived type over nterms base events: text is the formula of
 * DERIVED_POSTFIX ("N0|N1|+|") or DERIVED_INFIX ("N0-(N1*2)"), ignored by the
 * other types, which get their fixed program (ADD, SUB: N0-N1-..., PS:
 * N1*Hz/N0, ADD_PS: (N1+N2)*Hz/N0, NOT_DERIVED and CMPD: N0).
 * PAPI_OK and *out (free with formula_free), PAPI_EINVAL with a message in
 * err (may be NULL) for a malformed formula or wrong term count, PAPI_ENOMEM. */
int formula_compile(int type, const char *text, int nterms, struct formula **out, char *err,
		    size_t errlen);
/* Replace each term i of outer by the program sub[i] (whose terms are already
 * numbered in the final term list). PAPI_OK, PAPI_EINVAL, PAPI_ENOMEM. */
int formula_substitute(const struct formula *outer, const struct formula *const *sub, int nsub,
		       struct formula **out);
/* Copy of f with term i renamed map[i]. PAPI_OK or PAPI_ENOMEM. */
int formula_remap(const struct formula *f, const int *map, struct formula **out);
void formula_free(struct formula *f);
long long formula_eval(const struct formula *f, const long long *vals);
/* Write f as a PAPI postfix string ("N0|N1|+|"). PAPI_OK, PAPI_EBUF (too
 * long), PAPI_EINVAL (a per-second step, which postfix cannot spell). */
int formula_to_postfix(const struct formula *f, char *buf, size_t len);
/* The simplest derived type whose fixed program f is (over nterms terms):
 * NOT_DERIVED, DERIVED_ADD, DERIVED_SUB, DERIVED_PS/ADD_PS, else DERIVED_POSTFIX. */
int formula_shape(const struct formula *f, int nterms);
/* "DERIVED_ADD" for DERIVED_ADD ...; "UNKNOWN" for other values. */
const char *formula_type_name(int type);
/* The DERIVED_* value of a type name, -1 when it is not one. */
int formula_type_parse(const char *name);

/* ------------------------------------------------------------------ definition files (deffile.c)
 * Seed 002's syntax (CPU / PRESET / EVENT lines) and papi decode's CSV
 * (title "name,derived,postfix,..." then one row per event). One record a
 * line; errors read "file:line: what is wrong" and the next line loads. */
#include <stdio.h>
struct msgs {			/* collected messages */
	char **v;
	int n, cap;
	int total;		/* also those past the kept 1000 */
};
void msgs_add(struct msgs *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void msgs_free(struct msgs *m);

struct def_event {		/* one PRESET/EVENT row; strings live until the callback returns */
	const char *file;
	int line;
	int preset;		/* PRESET (1) or EVENT (0) */
	const char *name;
	int derived;		/* DERIVED_* */
	const char *formula;	/* POSTFIX/INFIX text, NULL for the other types */
	int nbase;
	const char *base[PAPI_EVENTS_IN_DERIVED_EVENT];	/* as written */
	const char *ldesc, *sdesc, *note;	/* NULL when absent */
	const char *pmu;	/* CPU name of the section that matched; NULL outside sections */
	const char *const *cpus;	/* every name of that section, NULL-terminated; NULL outside */
};
struct deffile_sink {
	/* 1 when the events under "CPU,name" concern this machine; NULL: all do. */
	int (*cpu_match)(void *ctx, const char *name);
	/* Take one event: PAPI_OK, or an error code with the reason in why. */
	int (*event)(void *ctx, const struct def_event *ev, char *why, size_t len);
	void *ctx;
};
/* Parse text (len bytes, named path in messages): every event of a section
 * that applies goes to sink->event; each problem is added to errs. Returns
 * the number of problems (0 = clean), or PAPI_ENOMEM. */
int deffile_parse(const char *path, const char *text, size_t len, const struct deffile_sink *sink,
		  struct msgs *errs);
/* Read a whole file ("-" = stdin) into a NUL-terminated buffer (free() it).
 * PAPI_OK, PAPI_ESYS (errno says why), PAPI_ENOMEM, PAPI_EINVAL (over 64 MiB). */
int deffile_read(const char *path, char **text, size_t *len);
/* Write ev as one definition-file line (PRESET or EVENT as ev->preset says). */
void deffile_write_event(FILE *f, const struct def_event *ev);

/* ------------------------------------------------------------------ presets extras (presets.c) */
/* Problems met while loading the tables and event files (file:line: ...), in
 * order; *n receives their count. Valid until PAPI_shutdown. Loads the tables
 * first if needed. */
const char *const *presets_errors(int *n);
/* Fill *ev with the definition of preset/user code as this machine resolved
 * it: canonical native names, effective derived type and postfix. Strings
 * stay valid until PAPI_shutdown or a redefinition. PAPI_OK, PAPI_ENOEVNT
 * (not defined here), PAPI_ENOTPRESET (bad code). *avail: 1 when countable. */
int presets_definition(int code, struct def_event *ev, int *avail);

/* ------------------------------------------------------------------ EventSets */
struct es_hw {			/* one perf_event file descriptor */
	int ntv;		/* native index */
	int fd;
	int group;		/* index into es->groups */
	int slot;		/* position of this counter in its group's read buffer */
	int refs;		/* how many of es->events use it */
	uint64_t id;
	/* Scaling (counting.c): the raw kernel count and times at the last
	 * start/reset/accum, and the last value returned (reads never go back). */
	uint64_t base_count, base_en, base_run;
	long long last;
	/* rdpmc.c: the counter's perf user page (one page, read only) when the
	 * set may read it from user space, else NULL. */
	const struct perf_event_mmap_page *page;
};

struct es_group {		/* one perf_event group: one read(), one ioctl per op */
	int leader;		/* fd of the leader */
	int n;			/* members */
	int kernel_type;	/* PMU the group belongs to */
	/* counting.c: the leader's enabled/running times at the last read */
	uint64_t read_en, read_run;
};

struct es_event {		/* one event as added by the user */
	int code;
	struct derived_def def;
	int hw[PAPI_EVENTS_IN_DERIVED_EVENT];	/* indexes into es->hw */
};

typedef struct EventSet {
	int id;
	int state;		/* PAPI_STOPPED | PAPI_RUNNING, PAPI_MULTIPLEXING, ... */
	int cidx;		/* component, -1 until bound */
	int domain, granularity;
	pid_t owner;		/* thread (gettid) that created it */
	pid_t attach;		/* PAPI_attach target, 0 = the owner thread */
	int cpu;		/* PAPI_CPU_ATTACH, -1 = any */
	int inherit;
	int multiplex;		/* each counter its own group: the kernel rotates */
	int enable_on_exec;	/* internal: papi stat counts from the child's exec */

	int nev, cap_ev;
	struct es_event *ev;
	int nhw, cap_hw;
	struct es_hw *hw;
	int ngroups, cap_groups;
	struct es_group *groups;

	uint64_t *rbuf;		/* read buffer for the largest group */
	size_t rbuf_len;
	long long *hwval;	/* latest value per counter (scaled) */
	long long *acc;		/* PAPI_accum / counts kept across reopen */

	void *overflow;		/* overflow.c state, NULL when none */
	void *mpx;		/* multiplex.c software state, NULL when none */
	void *profil;		/* profil.c state */
	/* counting.c: stopped, read since, and nothing opened or closed since:
	 * the next start may take its time base from that read (frozen times
	 * of a disabled group) instead of reading again. */
	int frozen;
	/* rdpmc.c: counters with a user page; 0 keeps reads off rdpmc.c. */
	int npages;
} EventSet_t;

/* Look up EventSet id (no lock: the table never moves).
 * Returns NULL when id is invalid or destroyed. */
EventSet_t *es_lookup(int id);
/* (Re)open every counter of es (after attach/inherit/domain/multiplex change).
 * On failure es keeps no open counters and the error is returned. */
int es_reopen(EventSet_t *es);
void es_close_all(EventSet_t *es);
/* Read every group into es->hwval (scaled), then compute values[nev]. */
int es_read_values(EventSet_t *es, long long *values);
void es_destroy_all(void);
/* Shutdown safety (eventset.c): a public call that uses an EventSet runs
 * between es_enter() and es_leave(). es_enter returns PAPI_ENOINIT once
 * PAPI_shutdown has begun; es_destroy_all frees the sets only when no call
 * is in flight. Calls nest. Modules with their own PAPI_* calls on EventSets
 * (overflow, multiplex, attach...) wrap them the same way. */
int es_enter(void);
void es_leave(void);

/* ------------------------------------------------------------------ rdpmc (rdpmc.c)
 * Counter reads from user space: each eligible counter's perf user page is
 * mapped when it is opened; while its set runs on the counted thread, a read
 * takes every count from offset + rdpmc and the group times from the
 * leader's page, under the page's seqlock, without a system call. */
/* 0 when PAPI_RDPMC=0 was in the environment at PAPI_library_init. */
extern int papi_rdpmc;
/* Read PAPI_RDPMC (PAPI_library_init calls it). */
void rdpmc_init(void);
/* After counter h of es was opened: map its user page when the set and the
 * counter are eligible (own thread or process, no CPU binding, inheritance,
 * software multiplexing or overflow; a hardware event; PAPI_RDPMC not 0).
 * Never fails: without a page the counter is read with read(). */
void rdpmc_map(EventSet_t *es, int h);
/* Unmap counter h's page, if any (before its descriptor is closed). */
void rdpmc_unmap(EventSet_t *es, int h);
/* Fill buf as read() of each group would: group g at buf + off[g] (off NULL:
 * the one group at buf) holds nr, time enabled, time running and the counts
 * by slot. Returns 1 when every counter was read from user space, 0 when the
 * set must use read() (not running, another thread, a counter without a page
 * or whose page says no rdpmc, user time or index, or a page that kept
 * changing). Allocates nothing and never blocks. */
int rdpmc_read(EventSet_t *es, uint64_t *buf, const size_t *off);

/* ------------------------------------------------------------------ overflow / profil
 * overflow.c samples counters through the kernel (sample_period, a ring
 * buffer per sampled counter, a signal to the owning thread) or, with
 * PAPI_OVERFLOW_FORCE_SW, reads them on a per-thread timer. Bit h of an
 * overflow vector is es->hw[h], the set's h-th perf counter.
 * eventset.c calls the ovf_* hooks when es->overflow is set; counting.c
 * calls ovf_start after enabling a set and ovf_stop after disabling it. */
#define OVF_HW_SIGNAL (SIGRTMIN + 2)	/* kernel sampling: F_SETSIG signal */
#define OVF_SW_SIGNAL SIGPROF		/* PAPI_OVERFLOW_FORCE_SW timer */
/* Add the sampling fields to the attribute of counter h when it overflows. */
void ovf_attr(const EventSet_t *es, int h, struct perf_event_attr *a);
/* After counter h was opened: map its ring buffer and route its signal.
 * PAPI_OK, PAPI_ENOMEM, PAPI_ESYS (the fd stays; es_close_all reaps it). */
int ovf_fd_open(EventSet_t *es, int h);
/* Before es's counters are closed: unmap every ring buffer of es. */
void ovf_fd_close_all(EventSet_t *es);
/* Arm (after enable) and disarm (after disable). PAPI_OK, PAPI_ESYS. */
int ovf_start(EventSet_t *es);
void ovf_stop(EventSet_t *es);
/* Set, change (threshold > 0) or clear (0) overflow on event code; handler
 * NULL keeps the current one. Reopens the counters when sampling changes.
 * Errors as PAPI_overflow after its argument checks. */
int ovf_configure(EventSet_t *es, int code, int threshold, int flags,
		  PAPI_overflow_handler_t handler);
/* Drop event code's overflow without reopening (the event leaves the set). */
void ovf_forget(EventSet_t *es, int code);
/* Free all overflow state of es (its counters must be closed already). */
void ovf_free(EventSet_t *es);
/* Index in es->ev of event code, or -1. */
int es_event_index(const EventSet_t *es, int code);

/* profil.c: record one sample into the histograms of the profiled events
 * whose bits are in vector (async-signal-safe; weight = thresholds crossed). */
void profil_hit(EventSet_t *es, void *pc, long long vector, unsigned long long weight);
/* One sample into regions: 1 when a bucket took it, 0 when no region covers
 * pc or the flags dropped it. Pure: unit tests call it directly. */
int profil_record(const PAPI_sprofil_t *reg, int nreg, int flags, uintptr_t pc,
		  unsigned long long weight);
void profil_forget(EventSet_t *es, int code);
void profil_free(EventSet_t *es);

/* papi stat: es_read_values plus each event's time enabled and running in
 * ns (counting.c). enabled/running may be NULL. PAPI_ESYS on a failed read. */
int es_read_times(EventSet_t *es, long long *values, uint64_t *enabled, uint64_t *running);

/* Thread id of the caller (cached per thread). */
pid_t papi_gettid(void);

/* ------------------------------------------------------------------ llapi: multiplex, attach, threads, options
 * multiplex.c: software multiplexing (PAPI_MULTIPLEX_FORCE_SW) rotates slices
 * of counters (each counter its own perf group, es->multiplex = 1). */
/* Counters per rotation slice of a software-multiplexed set, 0 when es is not
 * one (kernel multiplexing or none). Slice s holds hw[s*k .. s*k+k-1]. */
int mpx_sw_slice(const EventSet_t *es);
/* Enable the first slice and start the rotation timer (counters reset). */
int mpx_start(EventSet_t *es);
/* Stop the rotation; the caller disables the counters. */
void mpx_stop(EventSet_t *es);
/* Free the software state (set destroyed or cleaned up). */
void mpx_release(EventSet_t *es);
/* After fork in the child: forget the rotation (its thread is not there). */
void mpx_forget(EventSet_t *es);
/* The PAPI_MULTIPLEX option: convert a set (ns, PAPI_MULTIPLEX_* flags), and
 * read its parameters back (returns 1/0 multiplexed or an error). */
int mpx_convert(int EventSet, int ns, int flags);
int mpx_query(int EventSet, int *ns, int *flags);
/* Default rotation interval in ns (PAPI_DEF_MPX_NS) and the interval timer
 * PAPI_DEF_ITIMER describes (the overflow module's software fallback uses it). */
extern int papi_mpx_ns;
extern PAPI_itimer_option_t papi_itimer;
/* counting.c: record the counters' current raw values and times as the zero
 * of the next reads (after a reopen, a start or a reset). PAPI_ESYS. */
int counting_rebase(EventSet_t *es);
/* eventset.c: call fn on every EventSet (no lock: for the fork child, where
 * only one thread exists, and for shutdown). */
void es_foreach(void (*fn)(EventSet_t *es, void *arg), void *arg);
/* threads.c: note the calling thread in the registry (implicit registration
 * when it creates an EventSet); installs the fork handler once. */
void thr_note_self(void);
/* options.c: the file PAPI_USER_EVENTS_FILE named, or NULL. */
const char *options_user_events_file(void);

/* ------------------------------------------------------------------ hardware */
/* Fill the process-wide hardware description once (hwinfo.c). */
const PAPI_hw_info_t *hwinfo_get(void);
/* Nominal clock in MHz for cycle conversions (never 0). */
double hwinfo_mhz(void);

/* ------------------------------------------------------------------ high-level API
 * hl.c: one item of PAPI_EVENTS ("NAME" or "NAME=instant" / "NAME=delta").
 * hl_events_parse splits spec at commas into at most max items (spaces
 * around an item are ignored; a name listed twice is kept once). Items that
 * are empty, hold a space or control character, or are too long are left
 * out and described in err ("; "-separated, may be NULL). Returns the number
 * of items stored, or PAPI_EINVAL for a NULL spec/out or negative max.
 * Never reads past spec's terminating NUL (a fuzz target's entry point). */
#define HL_MAX_EVENTS 64
struct hl_spec {
	char name[PAPI_HUGE_STR_LEN];
	int instant;
};
int hl_events_parse(const char *spec, struct hl_spec *out, int max, char *err, size_t errlen);

/* ------------------------------------------------------------------ memhier
 * memhier.c: the cache and TLB hierarchy of CPU 0, the one source for
 * PAPI_get_hardware_info's mem_hierarchy and `papi mem-info`. */
#define MH_MAX_ENTRIES 64
struct mh_entry {
	int tlb;		/* 1: a TLB, 0: a cache */
	int level;		/* 1, 2, 3 ... */
	int type;		/* PAPI_MH_TYPE_INST, _DATA or _UNIFIED */
	long long size;		/* cache: bytes */
	int line_size;		/* cache: bytes per line */
	int entries;		/* cache: lines; TLB: entries */
	int assoc;		/* ways; SHRT_MAX fully associative; 0 unknown */
	int page_kb;		/* TLB: page size in KB */
	char shared[128];	/* cache: CPUs sharing it (sysfs shared_cpu_list), or "" */
};
/* mh_scan: caches of cpu0 from sysfs, then TLBs from CPUID on x86 (none
 * elsewhere), into e[0..max-1]. Returns how many exist (may exceed max;
 * only max are stored); 0 when nothing is known. Never fails. */
int mh_scan(struct mh_entry *e, int max);
/* mh_fill: fill mh (zeroed by the caller) from mh_scan: one cache or tlb
 * slot per entry at its level; levels = the deepest level seen. */
void mh_fill(PAPI_mh_info_t *mh);

#endif

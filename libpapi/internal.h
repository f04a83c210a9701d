/* internal.h: the private types and calls shared across libpapi's modules. */
#ifndef PAPI_INTERNAL_H
#define PAPI_INTERNAL_H

#include <linux/perf_event.h>
#include <pthread.h>
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
static inline int lib_ready(void) { return papi_state != PAPI_NOT_INITED; }

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

/* ------------------------------------------------------------------ EventSets */
struct es_hw {			/* one perf_event file descriptor */
	int ntv;		/* native index */
	int fd;
	int group;		/* index into es->groups */
	int slot;		/* position of this counter in its group's read buffer */
	int refs;		/* how many of es->events use it */
	uint64_t id;
};

struct es_group {		/* one perf_event group: one read(), one ioctl per op */
	int leader;		/* fd of the leader */
	int n;			/* members */
	int kernel_type;	/* PMU the group belongs to */
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

/* Thread id of the caller (cached per thread). */
pid_t papi_gettid(void);

/* ------------------------------------------------------------------ hardware */
/* Fill the process-wide hardware description once (hwinfo.c). */
const PAPI_hw_info_t *hwinfo_get(void);
/* Nominal clock in MHz for cycle conversions (never 0). */
double hwinfo_mhz(void);

#endif

/* components.h: layer 4, the components: the table of components and their
 * description (components.c), the event code dispatch over components and
 * presets (codes.c), an EventSet's events of a component and the counting of
 * sampled totals (cmpset.c), and one file per component (io.c, ...). */
#ifndef PAPI_COMPONENTS_H
#define PAPI_COMPONENTS_H

#include "3-naming/naming.h"

/* ------------------------------------------------------------------ a component
 * Component 0, perf_event, is the CPU's: its events are the naming layer's
 * (libpfm4, the kernel's software events, the presets) and the core counts
 * them as perf_event groups. Every other component is one file in this
 * folder that defines one `const struct component` and one line in the
 * table of components.c; nothing else names it.
 *
 * A component numbers its events 0..nevents()-1. Their full names are
 * "COMPONENT:::EVENT" (io:::rchar); their codes are native codes like
 * perf_event's (codes.c interns them in the naming layer's table on first
 * use: PAPI_NATIVE_MASK | index, PAPI_get_event_component says which).
 *
 * An EventSet holds the events of one component (as in PAPI 7). For one
 * bound to a component other than perf_event the core keeps a struct
 * cmp_set and calls the component's set operations below on it. Most
 * components read running totals (a /proc file, counters the process keeps):
 * they give sample() and take cmpset.c's operations (CMP_SAMPLED_OPS),
 * which turn totals into counts since PAPI_start. */

struct cmp_event {		/* what a component says of one of its events */
	const char *name;	/* without the prefix: "rchar" (valid until shutdown;
				 * sde's: until its next event() in this thread) */
	const char *desc;	/* one sentence */
	const char *units;	/* "bytes", "us", ...; "" when a plain count */
	int instant;		/* a level read as it is (PAPI_VALUETYPE_ABSOLUTE),
				 * not a count since start */
};

struct cmp_set;

struct component {
	const char *name;	/* "io": its index name and its events' prefix */
	const char *short_name;
	const char *description;
	/* What one EventSet counts: PAPI_GRN_THR (the thread that reads it),
	 * PAPI_GRN_PROC (the whole process) or PAPI_GRN_SYS (the machine). */
	int granularity;
	/* Probe the machine, once per PAPI_library_init, on the component's
	 * first use: PAPI_OK; PAPI_PARTIAL when it works only in part, with
	 * what does not in why, which becomes its partially_disabled_reason
	 * (PAPI 7.2); or an error code (PAPI_ECMP: cannot work here) with the
	 * reason in why, which becomes its disabled_reason. */
	int (*init)(char *why, size_t len);
	/* Forget what init learned (at PAPI_shutdown); NULL when nothing. */
	void (*shutdown)(void);
	/* How many events (after a successful init). */
	int (*nevents)(void);
	/* Describe event ev: PAPI_OK, or PAPI_ENOEVNT when ev is out of range
	 * (or, for a component whose events come and go, gone now). */
	int (*event)(int ev, struct cmp_event *out);
	/* Resolve a name (without the component prefix) that may not be one
	 * of the listed events as written: qualifiers, other spellings.
	 * PAPI_OK and *ev, an index event() describes (a listed event's own
	 * index for a listed name; one past nevents() for the others), or
	 * PAPI_ENOEVNT / PAPI_EINVAL with papi_set_reason saying why. NULL:
	 * only the listed names, matched exactly. */
	int (*lookup)(const char *name, int *ev);
	/* 1: the events' names are whole as they are ("uncore_imc_0::
	 * cas_count_read"), with no "COMPONENT:::" before them; a "pmu::" or
	 * "pmu/terms/" name that perf_event does not know is asked of such
	 * components (the prefix is still accepted). */
	int bare_names;
	/* Whether this process may count the component's events, once its
	 * init succeeded: PAPI_OK, or an error code (PAPI_EPERM) with one
	 * sentence in why: the privilege it lacks and how to get it. NULL:
	 * anyone may. */
	int (*access)(char *why, size_t len);

	/* ---- sampled totals (for CMP_SAMPLED_OPS) */
	/* How many totals sample() fills; NULL: one per event, total ev being
	 * event ev's. */
	int (*nraw)(void);
	/* The current totals into raw[0..nraw-1]: PAPI_OK, or an error code
	 * with papi_set_reason saying why. */
	int (*sample)(long long *raw);
	/* Event ev's value from the change of every total since the set's
	 * start (d) and their current values (now); NULL: d[ev], or now[ev]
	 * for an instant event. */
	long long (*value)(int ev, const long long *d, const long long *now);

	/* ---- an EventSet's counting (a component's own, or CMP_SAMPLED_OPS)
	 * The set's events are s->ev[0..s->n-1], in the order they were added;
	 * v[] has one value per event in that order. Every operation returns
	 * PAPI_OK or an error code (reason set). */
	/* The list changed (an event appended or removed; never while
	 * running): accept it, or refuse it (the layer restores the list and
	 * calls update again). */
	int (*update)(struct cmp_set *s);
	int (*start)(struct cmp_set *s);		/* counts from zero */
	int (*stop)(struct cmp_set *s, long long *v);	/* v may be NULL */
	int (*read)(struct cmp_set *s, long long *v);	/* stopped: the stop's counts */
	int (*reset)(struct cmp_set *s);		/* running or not */
	/* read into v, then reset, losing nothing in between; NULL: read then
	 * reset. */
	int (*accum)(struct cmp_set *s, long long *v);
	/* Counting continues from v; NULL when the component cannot (PAPI_write
	 * then answers PAPI_ENOSUPP). */
	int (*write)(struct cmp_set *s, const long long *v);
	/* Free what the operations keep in s->priv (the set goes away). */
	void (*release)(struct cmp_set *s);

	/* ---- overflow (PAPI_overflow); NULL: the component's events do not
	 * overflow (PAPI_ECMP). Event i of set s is to overflow at threshold (> 0),
	 * or no more (0): CMP_OVF_PUSH when the component reports its changes
	 * itself (through cmp_ovf_push, below), CMP_OVF_POLL when the core must
	 * read it to see it cross, or an error code (reason set). Never while
	 * running. */
	int (*overflow)(struct cmp_set *s, int i, int threshold);
	/* 1 when event i of s, set to overflow, now needs polling (it was a name
	 * no library had registered when PAPI_overflow was called), else 0. */
	int (*overflow_polled)(struct cmp_set *s, int i);
};
enum { CMP_OVF_PUSH = 0, CMP_OVF_POLL = 1 };

struct cmp_set {		/* an EventSet's events of one component */
	const struct component *c;
	int n, cap;
	int *ev;		/* the component's index of each event, in order */
	int running;
	void *priv;		/* the operations' own state */
	int mark;		/* free for the component's own operations */
};

/* cmpset.c: sampled totals as counts since start (see struct component). */
int cmp_sampled_update(struct cmp_set *s);
int cmp_sampled_start(struct cmp_set *s);
int cmp_sampled_stop(struct cmp_set *s, long long *v);
int cmp_sampled_read(struct cmp_set *s, long long *v);
int cmp_sampled_reset(struct cmp_set *s);
int cmp_sampled_accum(struct cmp_set *s, long long *v);
int cmp_sampled_write(struct cmp_set *s, const long long *v);
void cmp_sampled_release(struct cmp_set *s);
#define CMP_SAMPLED_OPS                                                            \
	.update = cmp_sampled_update, .start = cmp_sampled_start,                  \
	.stop = cmp_sampled_stop, .read = cmp_sampled_read,                        \
	.reset = cmp_sampled_reset, .accum = cmp_sampled_accum,                    \
	.write = cmp_sampled_write,                                                \
	.release = cmp_sampled_release

/* cmpset.c: what the core calls for a set bound to component c. */
/* A new empty set of c: PAPI_OK and *out, or PAPI_ENOMEM. */
int cmpset_new(const struct component *c, struct cmp_set **out);
/* Append event ev (the component's index): PAPI_OK, PAPI_ECNFLCT (already
 * in the set), PAPI_EISRUN, PAPI_ENOMEM, or the component's refusal. */
int cmpset_add(struct cmp_set *s, int ev);
/* Remove the i-th event. PAPI_OK, PAPI_EINVAL (no such), PAPI_EISRUN. */
int cmpset_remove(struct cmp_set *s, int i);
/* Remove every event (PAPI_cleanup_eventset); the set stays. */
void cmpset_clear(struct cmp_set *s);
void cmpset_free(struct cmp_set *s);
int cmpset_start(struct cmp_set *s);
int cmpset_stop(struct cmp_set *s, long long *v);
int cmpset_read(struct cmp_set *s, long long *v);
int cmpset_reset(struct cmp_set *s);
/* The counts into v (not added: PAPI_accum adds them), then zero. */
int cmpset_accum(struct cmp_set *s, long long *v);
int cmpset_write(struct cmp_set *s, const long long *v);

/* ------------------------------------------------------------------ the table (components.c) */
/* 1 when component cidx was disabled (PAPI_disable_component or
 * PAPI_DISABLE_COMPONENTS), 0 when not, -1 when cidx is out of range. */
int cmp_disabled(int cidx);
/* The whole of why component cidx is disabled, or NULL when it is not:
 * PAPI_get_component_info's disabled_reason keeps PAPI_MAX_STR_LEN bytes
 * of it, as programs built with PAPI 6's header read; a tool shows this.
 * Valid until the library is shut down. */
const char *cmp_disabled_reason(int cidx);
/* Component cidx (> 0), initialized: PAPI_OK and *out, PAPI_ENOCMP (no such
 * component, or cidx 0, which has no struct component), PAPI_ECMP
 * (disabled, or its init failed: papi_last_reason says why). */
int cmp_get(int cidx, const struct component **out);
/* The index of component c in the table, or -1. */
int cmp_index(const struct component *c);
/* The event of component cidx (> 0) whose name (without the prefix) is
 * name: PAPI_OK and *ev, PAPI_ENOEVNT, or cmp_get's errors. */
int cmp_event_lookup(int cidx, const char *name, int *ev);
/* What keeps this process from counting component cidx (> 0) although it
 * is enabled (its access hook), into why: PAPI_OK when nothing does (or
 * the component is disabled: its disabled reason says why), else the
 * hook's error code. */
int cmp_access(int cidx, char *why, size_t len);

/* ------------------------------------------------------------------ codes (codes.c) */
/* Record (papi_last_reason, PAPI_VERB_ECONT output) why the preset or user
 * event code failed with err: not a preset, or not available here and why
 * (no hardware PMU, or no definition for this CPU). Nothing for PAPI_OK or
 * native codes (native_usable says why for those). */
void codes_explain_unavailable(int code, int err);
/* The component of event code and, for a component other than perf_event,
 * its index there (*cev; -1 for perf_event's). Returns the component index,
 * or PAPI_ENOEVNT (a native code of no event), PAPI_ENOTPRESET (no kind). */
int codes_component(int code, int *cev);

/* uncore_pmus.c, tests only: take libpfm4's uncore PMUs named prefix_* as
 * detected ("skx": skx_unc_imc0, ...), so that their tables name the PMUs
 * of a fake sysfs tree; NULL: only those libpfm4 detected. Call before
 * PAPI_library_init. */
void uncore_assume_family(const char *prefix);

/* The kernel PMUs perf_event_uncore counts on, for papi component. */
struct uncore_pmu_desc {
	char name[64];		/* the kernel's: "uncore_imc_0", "amd_l3", "msr" */
	char pfm_name[64];	/* libpfm4's table naming its events ("skx_unc_imc0"), "" none */
	char cpus[64];		/* the CPUs its events open on ("0,36"; every online CPU's list
				 * when the PMU has no cpumask) */
	int cpumask;		/* 1: cpus is the PMU's cpumask (one CPU per socket or die) */
	int nevents;		/* its listed events: libpfm4's and its event files */
};
/* uncore_pmu_describe: describe the i-th PMU into *d. Returns the number of
 * PMUs the component counts on (0 while it is disabled, or not initialized:
 * components initialize on first use, PAPI_get_component_info for one),
 * or PAPI_EINVAL when d is NULL and i is not -1, or i is out of range
 * (i == -1: only the number). */
int uncore_pmu_describe(int i, struct uncore_pmu_desc *d);

/* ------------------------------------------------------------------ sysdetect (sysdetect.c)
 * The CPU device the device calls (devices.c) describe, gathered when the
 * sysdetect component initializes: hwinfo's vendor, model and topology,
 * memhier's caches, the NUMA nodes under /sys/devices/system/node (through
 * osfile's root). */
enum { SD_L1I, SD_L1D, SD_L2U, SD_L3U, SD_NCACHE };
struct sd_cpu {
	char vendor[PAPI_MAX_STR_LEN];	/* "AuthenticAMD", "GenuineIntel", ARM's "0x41" */
	char name[PAPI_MAX_STR_LEN];	/* the model name */
	int vendor_id;			/* PAPI_VENDOR_* */
	int family, model, stepping;
	int sockets, cores;		/* cores per socket */
	int threads;			/* hardware threads (CPUs) */
	int numas;			/* NUMA nodes, at least 1 */
	struct {
		unsigned size, line, lines, assoc;	/* bytes, bytes, lines, ways; 0 unknown */
	} cache[SD_NCACHE];
	int *thr_numa;			/* [threads]: node index of each CPU, -1 for none */
	unsigned *numa_threads;		/* [numas]: CPUs of each node */
	unsigned *numa_mem_mb;		/* [numas]: memory of each node, MB */
};
/* The CPU, once sysdetect has initialized (cmp_get), else NULL. */
const struct sd_cpu *sysdetect_cpu(void);

/* ------------------------------------------------------------------ the components */
extern const struct component cmp_io, cmp_net, cmp_stealtime, cmp_appio, cmp_sysdetect, cmp_uncore,
	cmp_powercap, cmp_sde;

/* ---- overflow reported by a component (sde.c): reaching up to the core's
 * overflow module, which init.c registers. push: event ev of component c
 * reached value (called on the thread that changed it); poll: an event set to
 * overflow now needs polling (cmp_event.overflow_polled says which). */
typedef void (*cmp_ovf_push_fn)(const struct component *c, int ev, long long value);
typedef void (*cmp_ovf_poll_fn)(const struct component *c);
extern cmp_ovf_push_fn cmp_ovf_push;
extern cmp_ovf_poll_fn cmp_ovf_poll;
/* Inline, and the two pointers in PAPI_FIRST_DATA: PAPI_library_init calls
 * this, and a fresh process should not fault in sde.c's pages for it. */
static inline void cmp_set_overflow_hooks(cmp_ovf_push_fn push, cmp_ovf_poll_fn poll)
{
	__atomic_store_n(&cmp_ovf_push, push, __ATOMIC_RELEASE);
	__atomic_store_n(&cmp_ovf_poll, poll, __ATOMIC_RELEASE);
}

#endif

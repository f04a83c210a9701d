/* core.h: layer 5, EventSets and their life cycle: the set table and its
 * counters (eventset.c), user-space reads (rdpmc.c), multiplexing,
 * overflow, profiling, counting, threads, options, and library init and
 * shutdown (init.c) on top. */
#ifndef PAPI_CORE_H
#define PAPI_CORE_H

#include "4-components/components.h"

/* Defaults for new EventSets (PAPI_DEFDOM, PAPI_DEFGRN; eventset.c). */
extern int papi_default_domain, papi_default_granularity;

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
	int cpu;		/* CPU its members count on, -1 any */
	/* counting.c: the leader's enabled/running times at the last read */
	uint64_t read_en, read_run;
};

struct es_event {		/* one event as added by the user */
	int code;		/* of a component set: no def, no hw (cset counts it) */
	struct derived_def def;
	int hw[PAPI_EVENTS_IN_DERIVED_EVENT];	/* indexes into es->hw */
};

typedef struct EventSet {
	int id;
	int state;		/* PAPI_STOPPED | PAPI_RUNNING, PAPI_MULTIPLEXING, ... */
	int cidx;		/* component, -1 until bound */
	/* Bound to a component other than perf_event: its events there, which
	 * that component counts (cmpset.c); NULL for perf_event's sets, whose
	 * events are the counters below. (Next to state: reads test it.) */
	struct cmp_set *cset;
	int domain, granularity;
	pid_t owner;		/* thread (gettid) that created it */
	pid_t attach;		/* PAPI_attach target, 0 = the owner thread */
	int cpu;		/* PAPI_CPU_ATTACH, -1 = any */
	int cgroup_fd;		/* PAPI_CGROUP_ATTACH: the cgroup's directory, -1 = none */
	char *cgroup;		/* and its path as the caller gave it */
	int inherit;
	int multiplex;		/* 1: the kernel rotates (each hardware counter its own
				 * group, the software events one); 2: software
				 * rotation (multiplex.c; each counter its own group) */
	int enable_on_exec;	/* internal: papi stat counts from the child's exec */
	int one_group;		/* internal: papi stat's {a,b}: every counter in one kernel
				 * group (the first is the leader), whatever its PMU */

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

/* The modules above eventset.c that keep state per set or per counter
 * (threads, rdpmc, profil, overflow, multiplex) hand it these hooks: init.c
 * registers them at PAPI_library_init, and eventset.c and es_open.c call
 * them in that order without knowing the modules. Any hook may be NULL; a module whose
 * state a set lacks does nothing. */
struct es_hooks {
	/* The calling thread created es. */
	void (*created)(EventSet_t *es);
	/* Counter h of es is about to be opened with *a: add what the module needs. */
	void (*attr)(const EventSet_t *es, int h, struct perf_event_attr *a);
	/* Counter h of es is open: PAPI_OK or an error (the descriptor stays
	 * open; es_close_all reaps it). The first error ends the round. */
	int (*opened)(EventSet_t *es, int h);
	/* Every counter of es is about to be closed, before any descriptor. */
	void (*closing_all)(EventSet_t *es);
	/* Counter h of es is about to be closed. */
	void (*closing)(EventSet_t *es, int h);
	/* Event code left es. */
	void (*forget)(EventSet_t *es, int code);
	/* es is about to be freed, perhaps still running (PAPI_shutdown): stop
	 * whatever still uses its counters. */
	void (*halt)(EventSet_t *es);
	/* es was cleaned up, or is being destroyed, its counters closed: free
	 * this module's state of es. */
	void (*release)(EventSet_t *es);
};
/* Register h (once; at most ES_MAX_HOOKS modules). Not thread-safe:
 * PAPI_library_init calls it under its lock before any set exists. Inline,
 * on data in papi_first_data, so that init touches no further page. */
#define ES_MAX_HOOKS 8
extern const struct es_hooks *es_hook_tbl[ES_MAX_HOOKS];
extern int es_nhooks;
static inline void es_add_hooks(const struct es_hooks *h)
{
	for (int i = 0; i < es_nhooks; i++)
		if (es_hook_tbl[i] == h)
			return;
	if (es_nhooks < ES_MAX_HOOKS)
		es_hook_tbl[es_nhooks++] = h;
}
/* Call hook F of every module that has one, with the arguments that follow. */
#define ES_EACH_HOOK(F, ...)                                \
	do {                                                \
		for (int hk_ = 0; hk_ < es_nhooks; hk_++)   \
			if (es_hook_tbl[hk_]->F)            \
				es_hook_tbl[hk_]->F(__VA_ARGS__); \
	} while (0)
/* 1 when some EventSet holds event code, else 0 (also before init). */
int es_code_in_use(int code);

/* Look up EventSet id (no lock: the table never moves).
 * Returns NULL when id is invalid or destroyed. */
EventSet_t *es_lookup(int id);
/* ------------------------------------------------------------------ opening counters (es_open.c) */
/* es_hw_open: open counter h of es, into its PMU's group (alone when
 * multiplexing), calling the hooks' attr before and opened after. On
 * failure nothing of it stays open and the reason is set; a failure caused
 * only by the group's other members, or a group the kernel took but cannot
 * schedule, is PAPI_ECNFLCT. */
int es_hw_open(EventSet_t *es, int h);
/* es_hw_close: close counter h of es (the hooks' closing first). */
void es_hw_close(EventSet_t *es, int h);
/* (Re)open every counter of es (after attach/inherit/domain/multiplex change).
 * On failure es keeps no open counters and the error is returned. */
int es_reopen(EventSet_t *es);
/* es_cgroup_bind: count only the tasks of cgroup path (pe_cgroup_open's
 * name; NULL: any task) on the CPU es is bound to, reopening its counters.
 * PAPI_OK; PAPI_EINVAL (bound to no CPU, or to a thread), pe_cgroup_open's
 * errors, PAPI_ENOMEM, or the error of reopening (the old binding stays).
 * The reason says why. */
int es_cgroup_bind(EventSet_t *es, const char *path);
/* es_close_all: close every counter of es, members before their leaders
 * (the hooks' closing_all first), leaving it no groups. */
void es_close_all(EventSet_t *es);
/* es_grow: make the array *p of *cap elements of sz bytes hold need at
 * least (doubling, the new elements zeroed). PAPI_OK or PAPI_ENOMEM (*p
 * unchanged). */
int es_grow(void **p, int *cap, int need, size_t sz);
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
/* The value of call (an expression giving a PAPI code) evaluated in flight,
 * or es_enter's error without evaluating it: the body of a public entry
 * point, return ES_IN_FLIGHT(start_impl(EventSet)). */
#define ES_IN_FLIGHT(call) ({ \
	int es_in_flight_ret = es_enter(); \
	if (es_in_flight_ret == PAPI_OK) { \
		es_in_flight_ret = (call); \
		es_leave(); \
	} \
	es_in_flight_ret; \
})

/* ------------------------------------------------------------------ rdpmc (rdpmc.c)
 * Counter reads from user space: each eligible counter's perf user page is
 * mapped when it is opened; while its set runs on the counted thread, a read
 * takes every count from offset + rdpmc and the group times from the
 * leader's page, under the page's seqlock, without a system call. */
/* 0 when PAPI_RDPMC=0 was in the environment at PAPI_library_init. */
extern int papi_rdpmc;
/* Take PAPI_RDPMC's value, NULL when unset (PAPI_library_init reads the
 * environment, with papi_getenv). */
void rdpmc_init(const char *env);
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
/* Maps each counter's page as it opens, unmaps it before it closes. */
extern const struct es_hooks rdpmc_es_hooks;

/* ------------------------------------------------------------------ overflow / profil
 * overflow.c samples counters through the kernel (ovf_kernel.c: sample_period,
 * a ring buffer per sampled counter, a signal to the owning thread) or, with
 * PAPI_OVERFLOW_FORCE_SW, reads them on a per-thread timer (ovf_soft.c); a
 * component's events overflow through ovf_cmp.c (5-core/ovf.h). Bit h of an
 * overflow vector is es->hw[h], the set's h-th perf counter.
 * eventset.c calls the ovf_* hooks when es->overflow is set; counting.c
 * calls ovf_prime before enabling a set, ovf_start after enabling it and
 * ovf_stop after disabling it. */
#define OVF_HW_SIGNAL (SIGRTMIN + 2)	/* kernel sampling: F_SETSIG signal */
#define OVF_SW_SIGNAL SIGPROF		/* PAPI_OVERFLOW_FORCE_SW timer */
/* Add the sampling fields to the attribute of counter h when it overflows. */
void ovf_attr(const EventSet_t *es, int h, struct perf_event_attr *a);
/* After counter h was opened: map its ring buffer and route its signal.
 * PAPI_OK, PAPI_ENOMEM, PAPI_ESYS (the fd stays; es_close_all reaps it). */
int ovf_fd_open(EventSet_t *es, int h);
/* Before es's counters are closed: unmap every ring buffer of es. */
void ovf_fd_close_all(EventSet_t *es);
/* Restart each sampled counter's period, the counters still disabled: a
 * period set on a running counter samples once too often (the kernel
 * zeroes what is left of it), which a raw perf_event_open program shows. */
void ovf_prime(EventSet_t *es);
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
/* A multiplexed counter's estimate of what it would have counted over the
 * whole enabled time: count * enabled / running. The rule:
 *   - running 0 (never scheduled): 0, nothing was seen to scale;
 *   - running >= enabled (never multiplexed, or the kernel's times off by
 *     a tick): count itself, never scaled down;
 *   - else the product in 128 bits, rounded down: no overflow, and never
 *     more than count * enabled / running;
 *   - never negative, never beyond INT64_MAX: a count or an estimate above
 *     it (a 64-bit counter past 2^63) reads INT64_MAX.
 * test/unit/t_scale.c holds the rule row by row. */
static inline long long es_scale(uint64_t count, uint64_t enabled, uint64_t running)
{
	if (running == 0)
		return 0;
	if (running >= enabled)
		return count > (uint64_t)INT64_MAX ? INT64_MAX : (long long)count;
	unsigned __int128 v = (unsigned __int128)count * enabled / running;
	return v > (unsigned __int128)INT64_MAX ? INT64_MAX : (long long)v;
}
/* Whether group g counts a task on one CPU only (:cpu=N in an event's name,
 * the set counting a task, not a CPU). Such a counter runs only while the
 * task is on CPU N: its running time short of its enabled time is the
 * task's time elsewhere, which the kernel's times cannot tell from time
 * multiplexed out. Its count is what it saw there, never scaled: a read
 * takes its running time as its enabled time (counting.c). */
static inline int es_cpu_only(const EventSet_t *es, const struct es_group *g)
{
	return es->cpu < 0 && g->cpu >= 0;
}
/* Index in es->ev of event code, or -1. */
static inline int es_event_index(const EventSet_t *es, int code)
{
	for (int e = 0; e < es->nev; e++)
		if (es->ev[e].code == code)
			return e;
	return -1;
}
/* ovf_attr, ovf_fd_open, ovf_fd_close_all, ovf_forget and ovf_free as
 * eventset.c's hooks, for sets with overflow state. */
extern const struct es_hooks ovf_es_hooks;
/* A component's overflow reports (cmp_set_overflow_hooks, which init.c
 * registers): event ev of component c reached value on the calling thread
 * (its running sets that overflow on it call their handler when it passed
 * its deadline); an event set to overflow now needs polling. */
void ovf_cmp_push(const struct component *c, int ev, long long value);
void ovf_cmp_poll(const struct component *c);
/* Who takes each sample besides the user's handler (profil.c's histogram
 * for sets with es->profil): called from the signal handler, so it must be
 * async-signal-safe. NULL: nobody. */
typedef void (*ovf_sample_fn)(EventSet_t *es, void *pc, long long vector, unsigned long long weight);
extern ovf_sample_fn ovf_sample_hook;
static inline void ovf_set_sample_hook(ovf_sample_fn fn)
{
	__atomic_store_n(&ovf_sample_hook, fn, __ATOMIC_RELEASE);
}

/* profil.c: record one sample into the histograms of the profiled events
 * whose bits are in vector (async-signal-safe; weight = thresholds crossed). */
void profil_hit(EventSet_t *es, void *pc, long long vector, unsigned long long weight);
/* One sample into regions: 1 when a bucket took it, 0 when no region covers
 * pc or the flags dropped it. Pure: unit tests call it directly. */
int profil_record(const PAPI_sprofil_t *reg, int nreg, int flags, uintptr_t pc,
		  unsigned long long weight);
void profil_forget(EventSet_t *es, int code);
void profil_free(EventSet_t *es);
/* profil_forget and profil_free as eventset.c's hooks. */
extern const struct es_hooks profil_es_hooks;

/* papi stat: es_read_values plus each event's time enabled and running in
 * ns (counting.c). enabled/running may be NULL. PAPI_ESYS on a failed read. */
int es_read_times(EventSet_t *es, long long *values, uint64_t *enabled, uint64_t *running);
/* Per event of es, the kernel's time enabled and running in ns (cumulative
 * since the counters were opened) as the last read of its counters
 * (PAPI_read, PAPI_accum, es_read_times) found them: no system call. An
 * event of several counters gives the group that ran the smallest share; a
 * set of another component, or one never read, gives 0. enabled/running
 * may be NULL. The region API takes their differences per region. */
void es_last_times(const EventSet_t *es, uint64_t *enabled, uint64_t *running);
/* Stop es counting, whether PAPI_start or its target's exec (enable_on_exec)
 * started it; es_read_times then reads the counts it stopped with (papi
 * stat's --interval-count). PAPI_OK or PAPI_ESYS. */
int es_disable(EventSet_t *es);

/* ------------------------------------------------------------------ llapi: multiplex, attach, threads, options
 * multiplex.c: software multiplexing (PAPI_MULTIPLEX_FORCE_SW) rotates slices
 * of counters (each counter its own perf group, es->multiplex = 2). */
/* Counters per rotation slice of a software-multiplexed set, 0 when es is not
 * one (kernel multiplexing or none). Slice s holds hw[s*k .. s*k+k-1]. */
int mpx_sw_slice(const EventSet_t *es);
/* Enable the first slice and start the rotation timer (the caller has
 * just read every counter: its base). */
int mpx_start(EventSet_t *es);
/* Stop the rotation and disable the slice that counts (the others are). */
void mpx_stop(EventSet_t *es);
/* read_raw for a software-multiplexed set: per counter h its raw count,
 * enabled and running time. read()s only the counters enabled since they
 * were last read (a disabled one stands still). PAPI_OK or PAPI_ESYS. */
int mpx_read_raw(EventSet_t *es, uint64_t *cnt, uint64_t *en, uint64_t *run);
/* Free the software state (set destroyed or cleaned up). */
void mpx_release(EventSet_t *es);
/* After fork in the child: forget the rotation (its thread is not there). */
void mpx_forget(EventSet_t *es);
/* mpx_stop (halt) and mpx_release (release) as eventset.c's hooks. */
extern const struct es_hooks mpx_es_hooks;
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
/* threads.c: register the thread that initializes the library (PAPI 7.0
 * knows it from then on); allocates nothing. */
void thr_register_initial(void);
/* thr_note_self as eventset.c's hook when a set is created. */
extern const struct es_hooks thr_es_hooks;
/* options.c: the file PAPI_USER_EVENTS_FILE named, or NULL. */
const char *options_user_events_file(void);

#endif

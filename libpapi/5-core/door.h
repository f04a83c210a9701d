/* door.h: the core's door for the papi tool (tool.h): an EventSet configured and read by its id, its struct unseen. */
#ifndef PAPI_CORE_DOOR_H
#define PAPI_CORE_DOOR_H

#include <stdint.h>
#include <sys/types.h>

/* How papi stat and papi command-line count with an EventSet, beyond what
 * PAPI_attach, PAPI_set_multiplex and PAPI_set_opt say: a thread that the
 * counters follow from its exec, a CPU counted whole, the children counted
 * too, and each {a,b} bundle one kernel group. */
struct es_target {
	pid_t tid;		/* the thread counted, 0: the caller */
	int cpu;		/* -1, or the CPU counted whole (tid 0 then) */
	int inherit;		/* count what the thread starts too */
	int enable_on_exec;	/* counting starts at the thread's exec */
	int multiplex;		/* each counter in a kernel group of its own */
	int one_group;		/* every counter in one kernel group */
	const char *cgroup;	/* with cpu >= 0: only that cgroup's tasks (its path
				 * under the perf_event hierarchy), NULL: any */
};

/* es_configure: set EventSet id up to count as t says; a set holding
 * events reopens its counters so (its events stay). PAPI_OK; PAPI_ENOEVST
 * (no such set), PAPI_EISRUN (it counts), PAPI_EINVAL (t NULL, cpu >= 0
 * with a tid, a cgroup without a cpu), es_cgroup_bind's errors for the
 * cgroup, or the error of reopening (the set then holds no open
 * counter, and says why through papi_last_reason). */
int es_configure(int id, const struct es_target *t);

/* es_counts: EventSet id's counts as the kernel scales them, running or
 * stopped, into values[n] for its n events (PAPI_num_events), and each
 * one's time enabled and running when those are not NULL. PAPI_OK;
 * PAPI_ENOEVST, PAPI_EINVAL (values NULL), PAPI_ENOTRUN (never opened),
 * PAPI_ESYS (a read failed). */
int es_counts(int id, long long *values, uint64_t *enabled, uint64_t *running);

/* es_counts_types: es_counts, and from the same reading each event's part
 * on each of the ntypes core types of a hybrid CPU (coretype_list's order):
 * parts[k * n + e] for type k and event e (n: PAPI_num_events), and
 * types[e] the core types its counters count on (bit k: type k; 0 for an
 * event some counter of which counts on no core type, or of another
 * component: its parts are 0). Over those types an event's parts sum to its
 * value. Returns as es_counts; PAPI_EINVAL also for parts or types NULL. */
int es_counts_types(int id, int ntypes, long long *values, uint64_t *enabled, uint64_t *running,
		    long long *parts, unsigned *types);

/* es_pause: stop EventSet id counting, whether PAPI_start or its thread's
 * exec started it; es_counts then reads what it stopped with (papi stat's
 * --interval-count). PAPI_OK; PAPI_ENOEVST, PAPI_ESYS. */
int es_pause(int id);

#endif

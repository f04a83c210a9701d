/* stat.h: papi stat's data: what each stage of its pipeline fills in, read by the stages after it. */
#ifndef PAPI_CMD_STAT_H
#define PAPI_CMD_STAT_H

/*
 * papi stat runs one way: options -> plan -> count -> compute -> report.
 *
 *   6-main     parses the options (struct st_opts) and calls each stage in
 *              turn; nothing calls it back but through st.on_interval
 *   2-plan     the events (-e, -g, the default set), their codes and roles,
 *              the metric groups, the domain asked for
 *   3-count    the EventSets, the command or the attached targets, the
 *              signals, the intervals' readings; raw counts only
 *   4-compute  scaling and deltas, statistics over runs, metrics, the
 *              notes the reports print, the exit status
 *   5-report   one module per format (text, CSV, JSON, the SVG plot), each
 *              reading the same computed result, never a counter
 *   1-base     what every stage may use: the clock and signals, numbers and
 *              words, the CPUs' places, the MPI job
 *
 * A stage uses its own folder and 1-base, nothing else (layers.sh -p checks
 * the built objects). Each field below says which stage writes it; a later
 * stage only reads it.
 */

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* ------------------------------------------------------------------ options (6-main) */
struct st_opts {
	int repeat;		/* -r */
	char **groups;		/* -g: the metric groups named (into argv) */
	int ngroups;
	int topdown;		/* --topdown, --td-level: the top-down level (1, 2), 0 = none */
	int json;		/* --json */
	char sep;		/* -x SEP, 0 for the human report */
	const char *out_path;	/* -o */
	int no_inherit, no_multiplex;
	int strict;		/* --strict: an event that cannot be counted is an error */
	int domain;		/* --domain: PAPI_DOM_* bits, 0 for the default (all this user may) */
	const char *domain_arg;	/* its text, for messages */
	const char *cputype;	/* --cputype: the core type presets count on, NULL every one */
	long interval_ms;	/* -I, 0 = none */
	long interval_count;	/* --interval-count: stop counting after that many, 0 = none */
	long delay_ms;		/* --delay: start counting this long after the start */
	int system_wide;	/* -a or -C: count whole CPUs */
	int *cpus;		/* -C LIST (or every online CPU, once read), sorted */
	int ncpus;
	char **cgroups;		/* -G or --for-each-cgroup: cgroup paths ("": none) */
	int ncgroups;
	int each_cgroup;	/* --for-each-cgroup: every event in each, a row each */
	int aggr;		/* enum st_aggr: the rows of the report */
	const char *plot_path;	/* --plot FILE.svg: the intervals, or the job's ranks, as a chart */
	long timeout_ms;	/* --timeout, 0 = none */
	long kill_after_ms;	/* --kill-after: SIGKILL this long after --timeout's SIGTERM */
	pid_t *pids;		/* -p: processes (every thread) */
	int npids;
	pid_t *tids;		/* -t: single threads */
	int ntids;
	char **cmd;		/* the command, NULL in attach mode */
	int ncmd;
	const char *per_rank;	/* --per-rank DIR */
	long merge_wait_ms;	/* --merge-wait: rank 0's limit, 0 = none */
	int merge;		/* --merge: the operands are rank files or directories */
	int diff;		/* --diff: the operands are two saved --json reports */
	const char *save_path;	/* --save FILE: the JSON report there too */
	int report;		/* --report: the operand is a saved --json report to print again */
	const char *job;	/* --job: which job --merge reports */
};

#define ST_MAX_CPUTYPES 8	/* --per-cputype: rows at most */
/* --per-*: what each row of the report sums. */
enum st_aggr { AGGR_NONE, AGGR_CPU, AGGR_CORE, AGGR_SOCKET, AGGR_NODE, AGGR_THREAD, AGGR_PROCESS,
	       AGGR_CGROUP,
	       AGGR_CPUTYPE };	/* --per-cputype: a row per core type of a hybrid, each event's part */

/* This process's place in an MPI job (1-base/rank.c). */
struct st_rank {
	int in_job;		/* 1 under an MPI launcher */
	int rank, size;		/* size 0 when the launcher does not say */
	int local_rank;		/* -1 when unknown */
	long pid;
	char launcher[16];	/* "Open MPI", "Slurm", "PMI", "PMIx", "ALPS" */
	char job[96];		/* launcher's job id, made file-name safe */
	char host[128];
};

/* Statistics of n values (n 0: all 0); stddev is the sample's, 0 when n < 2. */
struct st_stats {
	double mean, stddev, min, median, max;
	int n;
};

/* The run times the reports show. */
enum { T_ELAPSED, T_USER, T_SYS, T_COUNT };

/* ------------------------------------------------------------------ events */
/* What an event measures, for units and derived metrics. */
enum st_role {
	ROLE_OTHER, ROLE_TASK_CLOCK, ROLE_CPU_CLOCK, ROLE_CS, ROLE_MIGR, ROLE_PF,
	ROLE_CYC, ROLE_INS, ROLE_BR_INS, ROLE_BR_MSP, ROLE_COUNT
};

struct st_event {
	/* plan */
	const char *name;	/* as the user wrote it (or the default set's name) */
	int code;		/* PAPI event code */
	int deflt;		/* from the default set: a name that does not resolve is
				 * not supported here rather than unknown */
	int avail;		/* can be counted (count clears it when set-up refuses) */
	char *reason;		/* why not supported (owned; plan or count) */
	int role;		/* enum st_role */
	int is_time;		/* counts nanoseconds */
	int brace;		/* its {...} group in -e (1, 2, ...), 0 when alone */
	int cidx;		/* its component: 0 perf_event, else counted in csets[cidx] */
	int cg;			/* -G: the index in o.cgroups of the cgroup it counts in,
				 * -1: the whole system (and without -G) */
	int dom_saved;		/* --report: the domain its saved run says (PAPI_DOM_*
				 * bits), 0 when its code and s->dom say it */
	/* count */
	int slot;		/* its index in its EventSet, -1 when not available */
	long long *val;		/* per run (scaled) */
	uint64_t en, run;	/* time enabled/running, summed over runs and targets */
	char *label;		/* the text report's name, with perf's :u when it counts
				 * user space only (owned; NULL: name) */
	unsigned types;		/* --per-cputype: the core types its counters count on
				 * (bit w: row w), 0 when not on core types alone */
	/* compute */
	struct st_stats t;	/* its count over the runs */
	const char *nc;		/* why it has no count although available, or NULL */
};

/* A metric group being counted (plan): the DEFAULT group (shown beside its
 * events) or one given with -g. */
struct mgroup;
#define ST_GROUP_EVENTS 32	/* MGROUP_MAX_EVENTS */
struct st_group {
	const struct mgroup *g;
	int dflt;
	int evi[ST_GROUP_EVENTS];	/* each event's index in s->ev, -1 when not there */
};

/* One metric of a group (compute), with its statistics over the runs of
 * each run's value (t.n 0: no run could compute it). */
struct mgroup_metric;
struct st_metric {
	const struct st_group *grp;
	const struct mgroup_metric *def;
	int line;		/* DEFAULT: the index in s->ev of the event whose line shows it */
	char needs[256];	/* every input not counted, "A, B" ("" when none) */
	struct st_stats t;
};

/* A metric's value over one interval (compute). */
struct st_ivmetric {
	const struct st_group *grp;
	const struct mgroup_metric *def;
	double value;		/* NAN: none (a division by zero) */
};

/* ------------------------------------------------------------------ count */
/* One target of the count: a thread (or the command, tid 0 until it is
 * forked, or a process and what it starts), or a whole CPU. */
struct st_target {
	pid_t tid;
	pid_t pid;		/* -p: the process the thread belongs to, else 0 */
	int cpu;		/* -1, or the CPU counted whole (system-wide) */
	int cg;			/* with a CPU: the index in o.cgroups of the cgroup
				 * counted there, -1: every task */
	int enable_on_exec;	/* counting starts at the target's exec */
	char comm[16];		/* its name as it exited (--per-thread of a command) */
};

/* One row of a --per-* report: the targets it sums. */
struct st_row {
	/* count */
	char label[64];		/* "CPU0", "S0-D0-C1", "S0", "N0", "sleep-1234", a cgroup,
				 * "cpu_core" */
	int n;			/* targets summed (CPUs of a core, socket, node) */
	int first;		/* the first of them, in s->tg */
	long long *val;		/* [nev][repeat]: each event's count per run */
	uint64_t *en, *run;	/* [nev]: time enabled and running, over the runs */
	/* compute */
	long long *ivprev;	/* [nev]: totals at the previous interval */
	struct st_stats *t;	/* [nev]: each event's count over the runs */
	struct st_stats *mt;	/* [nmet]: each metric of s->met over the runs */
};

struct st_run {
	int64_t elapsed_ns;
	double elapsed, user, sys;	/* seconds; user/sys < 0 when unknown */
	int status;			/* wait status, -1 when none (attach mode) */
	int timeout;			/* what --timeout sent: 0 nothing, 1 SIGTERM, 2 and SIGKILL */
	int uncounted;			/* --delay outlasted it: counting never started */
};

/* One interval (compute, from count's reading at its end). */
struct st_interval {
	int64_t t_ns;			/* its end, since counting began */
	int64_t at_ns;			/* when its counts were read */
	long long *val;			/* [nev]: each event's delta over the interval */
	long long *rows;		/* --per-*: [nrows][nev], each row's deltas, or NULL */
	struct st_ivmetric *met;	/* the metrics it shows */
	int nmet;
};

struct st {
	struct st_opts o;		/* main */
	struct st_rank rank;		/* main: this process in its MPI job */
	int ranked;			/* main: the JSON report says the MPI rank and job */
	FILE *out;			/* main: where the report goes */

	/* plan */
	struct st_event *ev;
	int nev;
	struct st_group *grp;	/* -g groups in order, then DEFAULT */
	int ngrp;
	int nbraces;		/* {...} groups in -e */
	int dom;		/* the EventSets' domain (PAPI_DOM_* bits, as resolved;
				 * count may narrow it to user space) */
	int dom_auto;		/* no --domain (or "all"): every domain this user may */
	char *dom_note;		/* why only user space is counted, after a fall-back (owned) */

	/* count */
	int *sets;		/* EventSets: 1 + nbraces per target (3-count/sets.c) */
	/* The events of other components: one EventSet per component (PAPI_NULL
	 * when none), on papi stat itself, counting while the command runs. */
	int *csets, ncsets;
	int nsets;
	struct st_target *tg;	/* what is counted: threads, processes or CPUs */
	int ntargets;
	struct st_row *rows;	/* --per-*: the report's rows (3-count/rows.c) */
	int nrows;
	int *tg_row;		/* each target's row (--per-cputype: NULL, every
				 * target has a part in every row) */
	long long *rowcur;	/* [nrows][nev]: the last reading's totals per row */
	int multiplexed;	/* counters were opened as separate groups */
	int trace_failed;	/* a task of it could not be counted: the command was killed */
	/* --per-thread with a command (3-count/trace.c, or a saved run): the
	 * ptrace stops of tasks already counted, each a context switch they
	 * would not make untraced: [0] at a thread or process they started,
	 * [1] at their exit, [2] for a signal. traced: 0 when not followed. */
	int traced;
	long trace_stops[3];
	struct st_run *runs;
	int nruns;
	int iv_stopped;		/* --interval-count was reached: counting stopped */
	/* Called at each interval's end with the totals read (and s->rowcur):
	 * set by main to compute and print it, so that count knows no later
	 * stage. NULL: no intervals. */
	void (*on_interval)(struct st *s, int64_t t_ns, int64_t at_ns, const long long *total);

	/* compute */
	struct st_interval *iv;	/* the intervals kept (for JSON and --plot) */
	int niv;
	struct st_interval ivlast;	/* the last one, when not kept */
	long long *ivprev;	/* totals at the previous interval */
	int64_t ivprev_ns;	/* and when it was read */
	struct st_metric *met;	/* the metrics to report: every metric of the -g
				 * groups (computed or not), then DEFAULT's that were
				 * computed, a name given once (the first group's) */
	int nmet;
	struct st_stats times[T_COUNT];	/* elapsed, user, sys over the runs */
	int has_time[T_COUNT];	/* 0 when some run's is unknown */
	char **brace_how;	/* [1 + nbraces]: how {...} group g was counted when not
				 * as one kernel group, else NULL */
	int status_run;		/* the run whose status papi stat exits with, -1: none */
	int exit_code;		/* what papi stat exits with */

	/* report */
	int ivrows;		/* interval lines printed (human, CSV) */
};

#endif

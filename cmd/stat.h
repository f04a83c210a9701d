/* stat.h: what the parts of papi stat share: options, the event list, runs and intervals. */
#ifndef PAPI_CMD_STAT_H
#define PAPI_CMD_STAT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* What an event measures, for units and derived metrics. */
enum st_role {
	ROLE_OTHER, ROLE_TASK_CLOCK, ROLE_CPU_CLOCK, ROLE_CS, ROLE_MIGR, ROLE_PF,
	ROLE_CYC, ROLE_INS, ROLE_BR_INS, ROLE_BR_MSP,
};

struct st_event {
	const char *name;	/* as the user wrote it (or the default set's name) */
	int code;		/* PAPI event code */
	int deflt;		/* from the default set: a name that does not resolve is
				 * not supported here rather than unknown */
	int avail;		/* set up and counted */
	char *reason;		/* why not supported (owned) */
	int role;		/* enum st_role */
	int is_time;		/* counts nanoseconds */
	int brace;		/* its {...} group in -e (1, 2, ...), 0 when alone */
	int slot;		/* its index in that EventSet, -1 when not available */
	int cidx;		/* its component: 0 perf_event, else counted in csets[cidx] */
	long long *val;		/* per run (scaled) */
	uint64_t en, run;	/* time enabled/running, summed over runs and targets */
	char *label;		/* the text report's name, with perf's :u when it counts
				 * user space only (owned; NULL: name) */
};

struct st_opts {
	int repeat;		/* -r */
	char **groups;		/* -g: the metric groups named (into argv) */
	int ngroups;
	int json;		/* --json */
	char sep;		/* -x SEP, 0 for the human report */
	const char *out_path;	/* -o */
	int no_inherit, no_multiplex;
	int strict;		/* --strict: an event that cannot be counted is an error */
	int domain;		/* --domain: PAPI_DOM_* bits, 0 for the default (all this user may) */
	const char *domain_arg;	/* its text, for messages */
	long interval_ms;	/* -I, 0 = none */
	long interval_count;	/* --interval-count: stop counting after that many, 0 = none */
	long delay_ms;		/* --delay: start counting this long after the start */
	int system_wide;	/* -a or -C: count whole CPUs */
	int *cpus;		/* -C LIST (or every online CPU, once read), sorted */
	int ncpus;
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
	const char *job;	/* --job: which job --merge reports */
};

/* This process's place in an MPI job (stat_rank.c). */
struct st_rank {
	int in_job;		/* 1 under an MPI launcher */
	int rank, size;		/* size 0 when the launcher does not say */
	int local_rank;		/* -1 when unknown */
	long pid;
	char launcher[16];	/* "Open MPI", "Slurm", "PMI", "PMIx", "ALPS" */
	char job[96];		/* launcher's job id, made file-name safe */
	char host[128];
};

/* One row of a --per-* report: the targets it sums. */
struct st_row {
	char label[64];		/* "CPU0", "S0-D0-C1", "S0", "N0", "sleep-1234" */
	int n;			/* targets summed (CPUs of a core, socket, node) */
	long long *val;		/* [nev][repeat]: each event's count per run */
	uint64_t *en, *run;	/* [nev]: time enabled and running, over the runs */
	long long *ivprev;	/* [nev]: totals at the previous interval */
};

/* One target of the count: a thread (or the command, tid 0 until it is
 * forked, or a process and what it starts), or a whole CPU. */
struct st_target {
	pid_t tid;
	pid_t pid;		/* -p: the process the thread belongs to, else 0 */
	int cpu;		/* -1, or the CPU counted whole (system-wide) */
	int enable_on_exec;	/* counting starts at the target's exec */
};

struct st_run {
	int64_t elapsed_ns;
	double elapsed, user, sys;	/* seconds; user/sys < 0 when unknown */
	int status;			/* wait status, -1 when none (attach mode) */
	int timeout;			/* what --timeout sent: 0 nothing, 1 SIGTERM, 2 and SIGKILL */
	int uncounted;			/* --delay outlasted it: counting never started */
};

struct st_interval {
	int64_t t_ns;			/* its end, since counting began */
	int64_t at_ns;			/* when its counts were read */
	long long *rows;		/* --per-*: [nrows][nev], each row's deltas */
	long long *val;			/* per event (delta over the interval) */
};

/* --per-*: what each row of the report sums. */
enum st_aggr { AGGR_NONE, AGGR_CPU, AGGR_CORE, AGGR_SOCKET, AGGR_NODE, AGGR_THREAD, AGGR_PROCESS };

/* A metric group being counted: the DEFAULT group (shown beside its
 * events) or one given with -g. */
struct mgroup;
#define ST_GROUP_EVENTS 32	/* MGROUP_MAX_EVENTS */
struct st_group {
	const struct mgroup *g;
	int dflt;
	int evi[ST_GROUP_EVENTS];	/* each event's index in s->ev, -1 when not there */
};

struct st {
	struct st_opts o;
	struct st_event *ev;
	int nev;
	struct st_group *grp;	/* -g groups in order, then DEFAULT */
	int ngrp;
	int nbraces;		/* {...} groups in -e */
	int *sets;		/* EventSets: 1 + nbraces per target (stat_sets.c) */
	/* The events of other components: one EventSet per component (PAPI_NULL
	 * when none), on papi stat itself, counting while the command runs. */
	int *csets, ncsets;
	int nsets;
	struct st_target *tg;	/* what is counted: threads, processes or CPUs */
	int ntargets;
	struct st_row *rows;	/* --per-*: the report's rows (stat_rows.c) */
	int nrows;
	int *tg_row;		/* each target's row */
	long long *rowcur;	/* [nrows][nev]: the last interval sample's totals */
	int multiplexed;	/* counters were opened as separate groups */
	struct st_run *runs;
	int nruns;
	struct st_interval *iv;
	int niv;
	int ivrows;		/* interval lines printed (human, CSV) */
	long long *ivprev;	/* totals at the previous interval */
	int iv_stopped;		/* --interval-count was reached: counting stopped */
	int64_t ivprev_ns;	/* and when it was read */
	FILE *out;		/* where the report goes */
	struct st_rank rank;	/* this process in its MPI job */
	int ranked;		/* the JSON report says the MPI rank and job */
	int exit_code;		/* what papi stat exits with */
	int dom;		/* the EventSets' domain (PAPI_DOM_* bits, as resolved) */
	int dom_auto;		/* no --domain (or "all"): every domain this user may */
	char *dom_note;		/* why only user space is counted, after a fall-back (owned) */
};

/* ---- stat_events.c */
/* Add event name (not copied: it must outlive s) to s->ev; deflt: what the
 * default set and groups add, reported as not supported when it cannot be
 * counted. Its index, or -1 when out of memory. */
int st_event_push(struct st *s, const char *name, int deflt);
/* Add each name of the comma-separated list to s->ev; the events of a
 * {a,b,...} in it form a group counted together or not at all. 0, or -1
 * after a usage message (empty name, unbalanced or nested braces). */
int st_events_parse(struct st *s, char *list);
/* The default set when no -e was given. */
int st_events_default(struct st *s);
/* Resolve every name to a code. 0, or -1 after printing which event is
 * unknown and why. Default-set events that do not resolve become
 * "not available". */
int st_events_resolve(struct st *s);
/* Why event name failed with ret, for a person (owned; from the library's
 * reason when it gave one). */
char *st_reason(const char *name, int ret);
/* why without the "NAME: " it may start with. */
const char *st_skip_name(const char *why, const char *name);
/* e cannot be counted here (ret says why, unless e has a reason already). */
void st_not_available(struct st_event *e, int ret);
void st_free(struct st *s);

/* ---- stat_domain.c: the domains counted */
/* Choose the domain of the EventSets: --domain's, or every domain this
 * user may count (user space, with the reason kept, when it may not count
 * the kernel). 0, or -1 after a message. */
int st_domain_choose(struct st *s);
/* Whether ret, a failure to open a counter, is the kernel refusing the
 * kernel's share that s chose by default: st_domain_fallback then. */
int st_domain_refused(const struct st *s, int ret);
/* Count in user space from now on, and say why. 0 or -1. */
int st_domain_fallback(struct st *s);
/* Event e's domain (PAPI_DOM_* bits; 0 for another component's); *named:
 * its name chose it (:u, :k). */
int st_event_dom(const struct st *s, const struct st_event *e, int *named);
/* "all", "user", "kernel", "user,kernel", ... of dom, in buf when needed;
 * NULL for 0. */
const char *st_dom_word(int dom, char *buf, size_t len);
/* Once the sets are set up: each event's label (its name with perf's :u,
 * :k, ... unless it counts every domain or its name chose). */
void st_domain_labels(struct st *s);
/* The name the text report shows. */
const char *st_label(const struct st_event *e);
/* The text report's note on the domains: user space only and why, and why
 * context switches may read 0 there; nothing when all are counted. */
void st_domain_human(const struct st *s, FILE *f);

/* ---- stat_rows.c: --per-cpu, --per-core, --per-socket, --per-node,
 * --per-thread, --per-process */
/* After run r: each target's counts into its row (the rows are made at
 * the first call), and their sums into val, en and run [nev], read at
 * once so that the rows add up to the totals. 0, or -1 after a message. */
int st_rows_collect(struct st *s, int r, long long *val, uint64_t *en, uint64_t *run);
/* For an interval: read each target once, keep the rows' totals, and
 * their sums into cur[nev]. 0 or -1. */
int st_rows_sample(struct st *s, long long *cur);
/* After st_interval: that sample's counts row by row (printed, or kept
 * for the JSON report). */
void st_rows_interval(struct st *s, int64_t t_ns);
/* The human report's event lines, row by row, with the DEFAULT metrics of
 * each row; then the -g groups' metrics row by row. */
struct st_metric;
void st_rows_human(const struct st *s, FILE *f, const struct st_metric *m, int nm);
struct csv;
struct json;
/* CSV rows of each event and metric per row (the target column). */
void st_rows_csv(const struct st *s, struct csv *c);
/* JSON: "per" and "rows". */
void st_rows_json(const struct st *s, struct json *j);
/* JSON: an interval's "rows". */
void st_rows_json_interval(const struct st *s, struct json *j, int k);
/* The word of s->o.aggr: "cpu", "core", ... */
const char *st_aggr_name(int aggr);
void st_rows_free(struct st *s);

/* ---- stat_plot.c */
/* --plot: write the intervals kept in s->iv as an SVG chart into
 * s->o.plot_path. 0, or -1 after a message. */
int st_plot(const struct st *s);

/* ---- stat_cpus.c: whole CPUs */
/* -C LIST into s->o.cpus. 0, or -1 after a usage message. */
int st_cpus_parse(struct st *s, const char *list);
/* Read the CPUs from sysfs: -a takes every online CPU; each CPU of -C must
 * be online. 0, or -1 after a message. */
int st_cpus_read(struct st *s);
/* One target per CPU of s->o.cpus, counting it whole. 0 or -1. */
int st_cpus_targets(struct st *s);
/* Where online CPU cpu sits. 0, or -1 when it is not online. */
int st_cpus_place(int cpu, int *socket, int *die, int *core, int *node);
/* The offline CPUs, as a list ("6,7"; "" when none), into buf. */
void st_cpus_offline(char *buf, size_t len);
void st_cpus_free(struct st *s);

/* ---- stat_sets.c: the EventSets */
/* Each {...} group's perf_event events are counted in their own EventSet
 * of a target, bundle ev->brace (one kernel group); its other events in
 * their component's set. */
/* How the events of {...} group g are counted together, for the report:
 * NULL when they form one kernel group, else a sentence ("not a kernel
 * group: io's are read together, in one call"). */
const char *st_brace_how(const struct st *s, int g);
/* Set up target t: its EventSets, with the events added; the first target
 * decides which events can be counted (a {...} group whole or not at all).
 * 0, or -1 after printing the event that cannot be set up and why. */
int st_sets_add_target(struct st *s, const struct st_target *t);
/* The same for thread tid (0: the command, filled in later with
 * st_sets_retarget). enable_on_exec: counting starts at its exec. */
int st_sets_add(struct st *s, pid_t tid, int enable_on_exec);
/* Reopen target's sets on thread tid (a new run). 0 or -1 after a message. */
int st_sets_retarget(struct st *s, int target, pid_t tid);
/* Sum every target's counts into val[nev] (and en/run when not NULL). 0 or -1. */
int st_sets_read(struct st *s, long long *val, uint64_t *en, uint64_t *run);
/* The counts of target t alone. 0 or -1. */
int st_sets_read_target(struct st *s, int t, long long *val, uint64_t *en, uint64_t *run);
/* Start counting on every set (attach mode, system-wide). 0 or -1. */
int st_sets_start(struct st *s);
/* Start (from zero) and stop the sets of the other components: around
 * each run, once the command runs and once papi has reaped it. 0 or -1. */
int st_csets_start(struct st *s);
int st_csets_stop(struct st *s);
/* The other components' counts into val (only their events'). 0 or -1. */
int st_csets_read(struct st *s, long long *val);
/* Stop counting on every set; the counts stay readable. */
void st_sets_stop(struct st *s);

/* ---- stat_run.c */
/* Catch the signals papi stat forwards to the command (or that stop an
 * attached count); call once, before st_run_all. */
void st_signals_catch(void);
/* Every run (one in attach mode), its counts kept per run in s->ev[].val.
 * 0, or papi stat's exit status after a message. */
int st_run_all(struct st *s);

/* Nanoseconds of CLOCK_MONOTONIC. */
int64_t st_now_ns(void);
/* Wait up to ns for a forwarded signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT);
 * return it, or 0 when none came. */
int st_wait_signal(int64_t ns);

/* ---- stat_rank.c */
struct json;
/* Fill r from the launcher's environment (rank, size, local rank, job id)
 * and the machine (host, pid). 1 under an MPI launcher; 0 otherwise, with
 * rank 0 of size 1 and a job of its own. */
int st_rank_detect(struct st_rank *r);
/* tmpl, the file name of option opt ("-o", "--plot"), with %r (rank), %h
 * (host), %p (pid), %j (job) and %% replaced, into out; *placeholders gets
 * the ST_PH_* bits of those used. 0, or -1 after a usage message naming
 * opt (unknown placeholder, too long). */
enum { ST_PH_RANK = 1, ST_PH_HOST = 2, ST_PH_PID = 4, ST_PH_JOB = 8 };
int st_path_expand(const char *opt, const char *tmpl, const struct st_rank *r, char *out, size_t len,
		   int *placeholders);
/* DIR/papi-stat.JOB.RANK.json. */
void st_rank_file(const char *dir, const char *job, int rank, char *out, size_t len);
/* 0 when path does not exist yet, else -1 after saying that a job's files
 * are never overwritten. */
int st_rank_claim(const char *path);
/* Create dir (one level) unless it is one already. 0 or -1 after a message. */
int st_rank_mkdir(const char *dir);
/* A new file beside path (its name in tmp) for the report; NULL after a
 * message. st_rank_publish then gives it path's name, never replacing a file
 * there: 0, or -1 after a message (the report stays in tmp). */
FILE *st_rank_open(const char *path, char *tmp, size_t len);
int st_rank_publish(const char *tmp, const char *path);
/* Rank 0: wait until every rank of r's job has its file in dir, wait_ms
 * passed (0: no limit) or a forwarded signal came. Returns the files there. */
int st_rank_wait(const char *dir, const struct st_rank *r, long wait_ms);
/* "host" and "pid" of the JSON report, and with mpi the "mpi" object. */
void st_rank_json(struct json *j, const struct st_rank *r, int mpi);
/* In place of the report, on s->out: a rank file saying that papi stat
 * failed with status before it counted (the merge reports the rank). */
void st_rank_failed(const struct st *s, int status);

/* ---- stat_merge.c */
/* papi stat --merge: read the per-rank files in args (files, or directories
 * of papi-stat.*.json), keep one job (job NULL: the only one there is) and
 * print its report on out: JSON, CSV with separator sep, or text (sep 0);
 * with plot, also draw each event's and metric's value per rank into that
 * SVG file. *nmissing gets the number of ranks without a file (the report
 * says which). CLI_OK, or CLI_FAIL after a message (no report, or no
 * chart). */
int st_merge(FILE *out, int json, char sep, char **args, int nargs, const char *job, const char *plot,
	     int *nmissing);

/* ---- stat_stats.c: the tables the reports are built from */
enum { T_ELAPSED, T_USER, T_SYS, T_COUNT };
extern const char *const st_time_names[T_COUNT];
extern const char *const st_csv_cols[];
extern const int st_ncsv_cols;

/* ---- stat_stats.c: the numbers */
/* Statistics of n values (n 0: all 0); stddev is the sample's, 0 when n < 2. */
struct st_stats {
	double mean, stddev, min, median, max;
	int n;
};
void st_stats(const double *v, int n, struct st_stats *out);
/* v as the CSV and JSON reports print it: rounded to 9 significant digits
 * (to an integer from 1e9 up), so that no binary rounding noise shows. */
double st_tidy(double v);
/* Run r's elapsed, user or sys seconds (T_*; < 0 when unknown). */
double st_run_time(const struct st_run *r, int which);
/* Statistics of one time over the runs; 0 when some run's is unknown. */
int st_time_stats(const struct st *s, int which, struct st_stats *o);
/* Statistics of an event's count over the runs. */
void st_event_stats(const struct st *s, const struct st_event *e, struct st_stats *o);
/* Percentage of the enabled time the event was really counting. */
double st_running_pct(const struct st_event *e);
/* Run r's status as an exit status: the command's, 128+N when signal N
 * killed it; -1 when there is none (attach mode). */
int st_run_code(const struct st_run *r);
/* The run whose status papi stat exits with: the last that failed (a
 * status other than 0), else the last; -1 when there was no run. */
int st_status_run(const struct st *s);
/* Why event e has no count (NULL when it has one): --delay outlasted every
 * run, or it never got a counter. */
const char *st_not_counted(const struct st *s, const struct st_event *e);
/* ---- stat_metrics.c: metric groups */
/* -g LIST: add the comma-separated group names to s->o.groups. 0, or -1
 * after a usage message. */
int st_groups_parse(struct st *s, char *list);
/* Add each -g group's events to s->ev (the alternative that counts here;
 * one already there is not added again), before st_events_resolve. 0, or
 * -1 after a message (a group that does not exist here). */
int st_groups_add(struct st *s);
/* After st_events_resolve: find the DEFAULT group's events among those
 * counted (whichever alternative, :u or not). 0, or -1 out of memory. */
int st_groups_map(struct st *s);
void st_groups_free(struct st *s);
/* One metric of a group, with its statistics over the runs of each run's
 * value (t.n 0: no run could compute it). */
struct mgroup_metric;
struct st_metric {
	const struct st_group *grp;
	const struct mgroup_metric *def;
	int line;		/* DEFAULT: the index in s->ev of the event whose line shows it */
	int missing;		/* not computed: the s->ev index of an input not counted, or -1 */
	struct st_stats t;
};
/* How many metrics st_metrics may return. */
int st_metrics_max(const struct st *s);
/* The metrics to report, into m[st_metrics_max(s)]: every metric of the
 * -g groups (computed or not), then DEFAULT's that were computed, a name
 * given once (the first group's). Returns how many. */
int st_metrics(const struct st *s, struct st_metric *m);
/* The value of metric m of group gr from per-event counts (vals[s->nev],
 * for the events counted) over secs seconds: NAN when it cannot be
 * computed. */
double st_metric_value(const struct st *s, const struct st_group *gr, const struct mgroup_metric *m,
		       const long long *vals, double secs);
/* The metrics one interval shows: each whose events were all counted
 * (a name once), with its value from the interval's counts d[s->nev] over
 * secs seconds (NAN: none, a division by zero), into out[st_metrics_max(s)].
 * Returns how many. */
struct st_ivmetric {
	const struct st_group *grp;
	const struct mgroup_metric *def;
	double value;
};
int st_interval_metrics(const struct st *s, const long long *d, double secs, struct st_ivmetric *out);
/* v and m's unit as a person reads them ("1.174 K/s"), into buf. */
void st_metric_format(char *buf, size_t len, double v, const struct mgroup_metric *m);

/* ---- stat_report.c: the human report and the intervals */
/* The final report in the chosen format on s->out. */
void st_report(struct st *s);
/* A count in the text report's columns: "51.129 ms" for a time, else the
 * number (two decimals when not whole). */
void st_human_value(FILE *f, const struct st_event *e, double v);
/* Record (and in the human and CSV formats print) the interval that ends
 * t_ns after counting began, given the totals so far, read at_ns after
 * counting began (the metrics take the time between two reads). */
void st_interval(struct st *s, int64_t t_ns, int64_t at_ns, const long long *total);

/* ---- stat_export.c: CSV and JSON */
struct csv;
void st_csv_header(struct csv *c);
/* The domain column (and JSON field) of event e: "all", "user", ...; NULL
 * for another component's event. */
const char *st_csv_domain(const struct st *s, const struct st_event *e, char *buf, size_t len);
void st_csv_report(const struct st *s, FILE *f);
void st_json_report(const struct st *s, FILE *f);

#endif

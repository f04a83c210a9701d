/* base.h: what every stage of papi stat may use: the clock and signals, numbers and words, reasons, the CPUs, the MPI job. */
#ifndef PAPI_CMD_STAT_BASE_H
#define PAPI_CMD_STAT_BASE_H

#include <signal.h>
#include <stddef.h>

#include "stat.h"

/* ---- signals.c: the clock, and the signals papi stat forwards */
/* Nanoseconds of CLOCK_MONOTONIC. */
int64_t st_now_ns(void);
/* Catch the signals papi stat forwards to the command (SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT) or that end an attached count, and SIGCHLD; they stay
 * blocked but while waiting (st_wait_mask). Call once, before counting. */
void st_signals_catch(void);
/* The forwarded signals, as an array of *n. */
const int *st_fwd_signals(size_t *n);
/* The first forwarded signal that came (and forget them all), or 0. */
int st_signal_take(void);
/* Forget a SIGCHLD that came. */
void st_sigchld_clear(void);
/* The mask to wait with (ppoll): the caught signals unblocked. */
const sigset_t *st_wait_mask(void);
/* The disposition signal sig had before st_signals_catch, and the mask. */
const struct sigaction *st_signal_saved(int sig);	/* SIG_DFL for one not caught */
const sigset_t *st_saved_mask(void);
/* In a child before exec: the dispositions and mask papi stat was given. */
void st_signals_restore(void);
/* Catch sig again as st_signals_catch does (after a spawn ignored it). */
void st_signal_recatch(int sig);
/* Wait up to ns for a forwarded signal; return it, or 0 when none came. */
int st_wait_signal(int64_t ns);

/* ---- numbers.c: statistics, precision, the reports' tables */
void st_stats(const double *v, int n, struct st_stats *out);
/* t rounded to whole numbers: the statistics of a time in nanoseconds,
 * which no report shows finer than a nanosecond. */
void st_stats_whole(struct st_stats *t);
/* v as the CSV and JSON reports print it: rounded to 9 significant digits
 * (to an integer from 1e9 up), so that no binary rounding noise shows. */
double st_tidy(double v);
/* Run r's elapsed, user or sys seconds (T_*; < 0 when unknown). */
double st_run_time(const struct st_run *r, int which);
/* Run r's status as an exit status: the command's, 128+N when signal N
 * killed it; -1 when there is none (attach mode). */
int st_run_code(const struct st_run *r);
/* The run papi stat exits with: the last that failed, else the last (-1
 * without runs). */
int st_status_run(const struct st *s);
/* The note on --per-thread's ptrace stops, into buf: what they add to the
 * counts, said where an event counts context switches or CPU migrations
 * in the kernel's domain (where they happen).
 * 1 with a note, 0 without (not traced, or no such event). */
int st_trace_note(const struct st *s, char *buf, size_t len);
/* Percentage of the enabled time the event was really counting. */
double st_running_pct(const struct st_event *e);
/* Whether e's count is an extrapolation: cli_low_share's rule (multiplexed
 * below CLI_LOW_SHARE); the reports then add what was really counted. */
int st_low_share(const struct st_event *e);
/* What a count of mean really counted: scaled back by running/enabled
 * (the kernel's times), rounded; 0 without times. st_counted: e's, per run. */
double st_seen(double mean, uint64_t en, uint64_t run);
double st_counted(const struct st_event *e);
/* sum over the runs (of a time) as the mean per run, rounded. */
long long st_per_run(const struct st *s, uint64_t sum);
/* The CSV columns, the same in every mode, and the times' names. */
extern const char *const st_csv_cols[];
extern const int st_ncsv_cols;
extern const char *const st_time_names[T_COUNT];
/* What an event measures in perf's words ("page-faults"), by enum st_role. */
extern const char *const st_role_names[ROLE_COUNT];
/* The word of an aggregation (enum st_aggr): "cpu", "core", ... */
const char *st_aggr_name(int aggr);
/* Whether --per-thread counts a command's threads and processes each apart
 * (following them with ptrace, 3-count/trace.c). */
int st_trace_wanted(const struct st *s);
/* Whether --per-cputype shows event e split: a row per core type it counts
 * on (two or more), then their sum. */
int st_split(const struct st *s, const struct st_event *e);
/* Whether event e has a value in each --per-* row: counted, by the CPU's
 * component (the others count papi stat itself: totals only), and with
 * --per-cputype split (st_split). */
int st_by_row(const struct st *s, const struct st_event *e);
/* v and m's unit as a person reads them ("1.174 K/s"), into buf. */
void st_metric_format(char *buf, size_t len, double v, const struct mgroup_metric *m);

/* ---- reasons.c: why an event cannot be counted */
/* why without the "NAME: " it may start with (name, or the library's
 * spelling of the event: "msr/tsc/: ..." for msr::tsc). */
const char *st_skip_name(const char *why, const char *name);
/* e cannot be counted here (ret says why, unless e has a reason already). */
void st_not_available(struct st_event *e, int ret);

/* ---- domain.c: the domains counted, in words */
/* Count in user space from now on (the EventSets' default), keeping why
 * (taken over) in s->dom_note. 0, or -1 after a message. */
int st_domain_user(struct st *s, char *why);
/* Event e's domain (PAPI_DOM_* bits; 0 for another component's); *named:
 * its name chose it (:u, :k). */
int st_event_dom(const struct st *s, const struct st_event *e, int *named);
/* Whether dom holds every domain perf_event separates. */
int st_dom_whole(int dom);
/* "all", "user", "kernel", "user,kernel", ... of dom, in buf when needed;
 * NULL for 0. */
const char *st_dom_word(int dom, char *buf, size_t len);
/* The domain column (and JSON field) of event e; NULL for another
 * component's event. */
const char *st_csv_domain(const struct st *s, const struct st_event *e, char *buf, size_t len);
/* The name the text report shows. */
const char *st_label(const struct st_event *e);

/* ---- cpus.c: whole CPUs and where they sit */
/* -C LIST into s->o.cpus. 0, or -1 after a usage message. */
int st_cpus_parse(struct st *s, const char *list);
/* Read the CPUs from sysfs: -a takes every online CPU; each CPU of -C must
 * be online. 0, or -1 after a message. */
int st_cpus_read(struct st *s);
/* Where online CPU cpu sits. 0, or -1 when it is not online. */
int st_cpus_place(int cpu, int *socket, int *die, int *core, int *node);
/* The offline CPUs, as a list ("6,7"; "" when none), into buf. */
void st_cpus_offline(char *buf, size_t len);
void st_cpus_free(struct st *s);

/* ---- rank.c: this process in an MPI job, and the per-rank files */
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

#endif

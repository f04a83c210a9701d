/* count.h: papi stat's counting: the EventSets, the command or the attached targets, the runs and the intervals' readings. */
#ifndef PAPI_CMD_STAT_COUNT_H
#define PAPI_CMD_STAT_COUNT_H

#include <sys/resource.h>

#include "base.h"

/* ---- run.c: the one door of this stage */
/* Every run (one in attach mode): s->runs, each event's raw counts per run
 * (s->ev[].val, en, run) and, with --per-*, s->rows. At each interval's end
 * s->on_interval gets the totals read so far. Call st_signals_catch first.
 * 0, or papi stat's exit status after a message. */
int st_count(struct st *s);
/* Close the EventSets and free what counting kept. */
void st_count_free(struct st *s);

/* ---- what the modules of this stage share */
/* sets.c: each {...} group's perf_event events are counted in their own
 * EventSet of a target, bundle ev->brace (one kernel group); its other
 * events in their component's set. */
/* Set up target t: its EventSets, with the events added; the first target
 * decides which events can be counted (a {...} group whole or not at all).
 * 0, or -1 after printing the event that cannot be set up and why. */
int st_sets_add_target(struct st *s, const struct st_target *t);
/* The same for thread tid (0: the command, filled in later with
 * st_sets_retarget). enable_on_exec: counting starts at its exec. */
int st_sets_add(struct st *s, pid_t tid, int enable_on_exec);
/* One target per CPU of s->o.cpus, counting it whole. 0 or -1. */
int st_cpus_targets(struct st *s);
/* Reopen target's sets on thread tid (a new run). 0 or -1 after a message. */
int st_sets_retarget(struct st *s, int target, pid_t tid);
/* Sum every target's counts into val[nev] (and en/run when not NULL). 0 or -1. */
int st_sets_read(struct st *s, long long *val, uint64_t *en, uint64_t *run);
/* The counts of target t alone; with parts (--per-cputype) also each
 * event's part on each core type (row) added into parts[nrows][nev], read
 * at once, and ev[].types set. 0 or -1. */
int st_sets_read_target(struct st *s, int t, long long *val, uint64_t *en, uint64_t *run, long long *parts);
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
/* Close every EventSet. */
void st_sets_free(struct st *s);
/* Whether ret, a failure to open a counter, is the kernel refusing the
 * kernel's share that the plan chose by default: st_domain_fallback then. */
int st_domain_refused(const struct st *s, int ret);
/* Count in user space from now on, and say why. 0 or -1. */
int st_domain_fallback(struct st *s);
/* Once the sets are set up: each event's label (its name with perf's :u,
 * :k, ... unless it counts every domain or its name chose). */
void st_domain_labels(struct st *s);

/* rows.c: --per-cpu, --per-core, --per-socket, --per-node, --per-thread,
 * --per-process, --per-cputype */
/* After run r: each target's counts into its row (the rows are made at
 * the first call), and their sums into val, en and run [nev], read at
 * once so that the rows add up to the totals; s->rowcur holds the rows'
 * totals. 0, or -1 after a message. */
int st_rows_collect(struct st *s, int r, long long *val, uint64_t *en, uint64_t *run);
/* For an interval: read each target once, the rows' totals into
 * s->rowcur, and their sums into cur[nev]. 0 or -1. */
int st_rows_sample(struct st *s, long long *cur);
void st_rows_free(struct st *s);
/* The process thread tid belongs to (its Tgid in /proc), or tid itself. */
pid_t st_tgid(pid_t tid);
/* Thread tid's name from /proc (of process pid; pid 0 or tid 0: the other
 * one's), "?" when it is gone. */
void st_comm(pid_t pid, pid_t tid, char *buf, size_t len);

/* trace.c: --per-thread with a command */
/* Follow the command pid, not yet exec'd, with ptrace: each task it starts
 * gets counters of its own. 0, or -1 after a message (ptrace refused). */
int st_trace_begin(struct st *s, pid_t pid);
/* Handle every report of the traced tasks so far (new tasks are set up and
 * started, signals handed on): 1 when the command pid ended, its wait
 * status and usage in status and ru; else 0. A task that cannot be counted
 * kills the command and sets s->trace_failed. */
int st_trace_reap(struct st *s, pid_t pid, int *status, struct rusage *ru);

#endif

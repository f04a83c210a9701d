/* trace.c: --per-thread with a command: every thread and process the command starts is followed with ptrace, and gets counters of its own before it runs. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "cli.h"
#include "tool.h"
#include "count.h"

/*
 * The kernel sums an inherited counter's children into it and has no way to
 * read them apart but ring-buffer records, which an inherited counter of a
 * task may not have (mmap is refused). So the command is traced instead: a
 * task it creates stops before its first instruction, papi stat opens that
 * task's own counters (not inherited) and lets it go. Each task's counters
 * stay readable after it ends; its name is read as it exits.
 *
 * The tracing is invisible to the command but for a debugger, which cannot
 * attach to it meanwhile, and for the stops themselves: a task stops where
 * it starts another, where it exits and where a signal reaches it, and each
 * stop of a counted task is a context switch it counts (s->trace_stops, so
 * that the report can say how many). Signals reach the command as before: a
 * signal stop hands the signal on, a group stop (SIGSTOP, SIGTSTP, ...) is
 * left stopped until SIGCONT.
 */

static const long trace_opts = PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			       PTRACE_O_TRACEEXIT;

int st_trace_begin(struct st *s, pid_t pid)
{
	if (ptrace(PTRACE_SEIZE, pid, 0, trace_opts) < 0)
		return cli_error("stat", "--per-thread with a command follows its threads with ptrace, "
				 "which this system refuses: %s%s", strerror(errno),
				 errno == EPERM ? " (a security policy such as Yama's ptrace_scope 3, or a "
						  "container's seccomp profile)" : ""), -1;
	s->traced = 1;
	return 0;
}

/* The target of task tid, or -1. */
static int target_of(const struct st *s, pid_t tid)
{
	for (int t = 0; t < s->ntargets; t++)
		if (s->tg[t].tid == tid)
			return t;
	return -1;
}

/* Task tid stopped for the tracing (why: an index of s->trace_stops): one
 * context switch more in its counts, once they are open. */
static void stopped(struct st *s, pid_t tid, int why)
{
	if (target_of(s, tid) >= 0)
		s->trace_stops[why]++;
}

/* Task tid's own counters, started. 0, or -1 after a message. */
static int add_task(struct st *s, pid_t tid)
{
	if (target_of(s, tid) >= 0)
		return 0;
	struct st_target t = { .tid = tid, .pid = st_tgid(tid), .cpu = -1, .cg = -1 };
	if (st_sets_add_target(s, &t) < 0)
		return -1;
	int nb = 1 + s->nbraces;
	for (int k = s->nsets - nb; k < s->nsets; k++) {
		if (PAPI_num_events(s->sets[k]) == 0)
			continue;
		int ret = PAPI_start(s->sets[k]);
		if (ret != PAPI_OK)
			return cli_error("stat", "cannot count thread %d: %s", (int)tid, cli_reason(ret)), -1;
	}
	return 0;
}

/* A new task, stopped before it runs: its own counters, started. A task
 * that cannot be counted stops the command (SIGKILL to pid): its counts
 * would be missing from the totals. */
static void new_task(struct st *s, pid_t pid, pid_t tid)
{
	if (add_task(s, tid) < 0 && !s->trace_failed) {
		s->trace_failed = 1;
		kill(pid, SIGKILL);
	}
}

/* Let stopped task w go on (req: PTRACE_CONT or PTRACE_LISTEN, with signal
 * sig). A task the kernel will not resume would stay stopped, and papi stat
 * wait for it forever: the run fails after a message, the command is
 * killed (SIGKILL to pid), and w let go (a task stopped as it exits does
 * not wake for SIGKILL). A task already gone (ESRCH) needs nothing. */
static void resume(struct st *s, pid_t pid, pid_t w, int req, int sig)
{
	if (ptrace(req, w, 0, sig) == 0 || errno == ESRCH)
		return;
	if (!s->trace_failed)
		cli_error("stat", "--per-thread: cannot let task %d go on after a stop: %s", (int)w,
			  strerror(errno));
	s->trace_failed = 1;
	kill(pid, SIGKILL);
	ptrace(PTRACE_DETACH, w, 0, 0);
}

/* Task tid is about to exit: keep its name for its row. */
static void exiting(struct st *s, pid_t tid)
{
	int t = target_of(s, tid);
	if (t >= 0)
		st_comm(s->tg[t].pid, tid, s->tg[t].comm, sizeof s->tg[t].comm);
}

int st_trace_reap(struct st *s, pid_t pid, int *status, struct rusage *ru)
{
	int ret = 0;
	for (;;) {
		int st;
		struct rusage r;
		pid_t w = wait4(-1, &st, __WALL | WNOHANG, &r);
		if (w <= 0)
			return ret;
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (w == pid) {
				*status = st;
				*ru = r;
				ret = 1;
			}
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		int ev = (int)((unsigned)st >> 16), sig = WSTOPSIG(st);
		unsigned long msg = 0;
		switch (ev) {
		case PTRACE_EVENT_CLONE:
		case PTRACE_EVENT_FORK:
		case PTRACE_EVENT_VFORK:
			stopped(s, w, 0);
			if (ptrace(PTRACE_GETEVENTMSG, w, 0, &msg) == 0)
				new_task(s, pid, (pid_t)msg);
			resume(s, pid, w, PTRACE_CONT, 0);
			break;
		case PTRACE_EVENT_EXIT:
			stopped(s, w, 1);
			exiting(s, w);
			resume(s, pid, w, PTRACE_CONT, 0);
			break;
		case PTRACE_EVENT_STOP:
			if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
				resume(s, pid, w, PTRACE_LISTEN, 0);	/* a group stop: stays stopped */
				break;
			}
			/* a new task's first stop (which may come before its
			 * parent's report), or the end of a group stop */
			new_task(s, pid, w);
			resume(s, pid, w, PTRACE_CONT, 0);
			break;
		default:	/* a signal for the task: hand it on */
			stopped(s, w, 2);
			resume(s, pid, w, PTRACE_CONT, sig);
		}
	}
}

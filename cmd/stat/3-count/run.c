/* run.c: papi stat's runs: the command (spawned or forked), attached targets, signals, and the wait with its intervals and timeout. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/syscall.h>

#include "cli.h"
#include "count.h"

CLI_FIRST_DATA static int forwarded;		/* a signal we passed on to the command */

/* ------------------------------------------------------------------ targets
 * An attached process (or thread) has ended when its pidfd turns readable;
 * where the kernel has no pidfd for it, /proc is looked at every 100 ms. */
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

/* A pidfd for the target, or -2 when it must be polled through /proc. */
static int target_fd(pid_t id, int thread)
{
	int fd = (int)syscall(SYS_pidfd_open, id, thread ? PIDFD_THREAD : 0);
	return fd >= 0 ? fd : -2;
}

static int polled_targets(const struct pollfd *pfd, int n)
{
	for (int i = 0; i < n; i++)
		if (pfd[i].fd == -2)
			return 1;
	return 0;
}

/* The fields of /proc/ID/stat after "pid (comm)" (a thread's own:
 * /proc/ID/task/ID/stat), read into buf; NULL when the target is gone
 * (reaped) or unreadable. */
static const char *target_stat(pid_t id, int thread, char *buf, size_t len)
{
	char path[96];
	if (thread)
		snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)id, (int)id);
	else
		snprintf(path, sizeof path, "/proc/%d/stat", (int)id);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p + 1 : NULL;
}

/* Gone, or a zombie: it counts no more. */
static int target_gone(pid_t id)
{
	char buf[1024];
	const char *p = target_stat(id, 0, buf, sizeof buf);
	return !p || p[1] == 'Z' || p[1] == 'X';
}

/* The user and system CPU time a target has used so far (a process: all
 * its threads, living and ended; a thread: its own), from /proc in clock
 * ticks, into t[2]. 0, or -1 when the target is gone (reaped) or
 * unreadable. */
static int target_times(pid_t id, int thread, long long *t)
{
	char buf[1024];
	const char *p = target_stat(id, thread, buf, sizeof buf);
	/* state is field 3, utime 14, stime 15 */
	if (!p || sscanf(p, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lld %lld", &t[0], &t[1]) != 2)
		return -1;
	return 0;
}

/* Add the ticks target id used since t0[2] into used[2]; used[0] = -1 when
 * they cannot be read. */
static void target_done(pid_t id, int thread, const long long *t0, long long *used)
{
	long long t[2];
	if (used[0] < 0 || target_times(id, thread, t) < 0) {
		used[0] = used[1] = -1;
		return;
	}
	used[0] += t[0] - t0[0];
	used[1] += t[1] - t0[1];
}

/* ------------------------------------------------------------------ waiting */
/* What one wait saw. */
struct waited {
	int status;		/* the command's wait status */
	struct rusage ru;	/* the command's usage */
	long long ticks[2];	/* attached: user and system clock ticks the targets
				 * used meanwhile; -1 when some target's could not be
				 * read (it was reaped before its end was seen) */
	int timeout;		/* what --timeout sent: 0 nothing, 1 SIGTERM, 2 and SIGKILL */
	int64_t count_from, count_to;	/* when counting began and ended (--delay,
				 * --interval-count), 0 when it ran from t0 to the end */
	int uncounted;		/* it ended before --delay: counting never started */
};

/* --delay: start the counters that were opened disabled. */
static void delayed_start(struct st *s, int64_t t, struct waited *w)
{
	if (st_sets_start(s) == 0 && st_csets_start(s) == 0)
		w->count_from = t;
}

/* --timeout: the time is up at t. The command gets SIGTERM; when it is still
 * there the grace period later, SIGKILL. Returns the next deadline, 0 when
 * none is left. */
static int64_t time_up(const struct st *s, pid_t pid, int64_t deadline, struct waited *w)
{
	if (w->timeout == 0) {
		kill(pid, SIGTERM);
		w->timeout = 1;
		return deadline + (int64_t)s->o.kill_after_ms * 1000000;
	}
	kill(pid, SIGKILL);
	w->timeout = 2;
	return 0;
}

/* Wait for the command (pid > 0) or for every attached target to end,
 * printing intervals, forwarding signals and honouring --timeout. Attached,
 * w->ticks is the CPU time the targets used meanwhile (each one's read when
 * its end is seen, or at the stop). */
static void wait_loop(struct st *s, pid_t pid, int64_t t0, struct waited *w)
{
	int n = pid > 0 ? 0 : s->o.npids + s->o.ntids;
	struct pollfd pfd[n > 0 ? n : 1];
	pid_t who[n > 0 ? n : 1];
	long long t0s[n > 0 ? n : 1][2];
	long long cur[s->nev > 0 ? s->nev : 1];
	const int64_t step = (int64_t)s->o.interval_ms * 1000000;
	/* with --delay, counting (and the intervals) begin later */
	int64_t start_at = s->o.delay_ms ? t0 + (int64_t)s->o.delay_ms * 1000000 : 0;
	int64_t origin = start_at ? start_at : t0;
	int64_t next_iv = step ? origin + step : 0;
	int64_t deadline = s->o.timeout_ms ? t0 + (int64_t)s->o.timeout_ms * 1000000 : 0;
	int live = n, niv = 0;

	memset(w, 0, sizeof *w);
	for (int i = 0; i < n; i++) {
		int thr = i >= s->o.npids;
		who[i] = thr ? s->o.tids[i - s->o.npids] : s->o.pids[i];
		pfd[i] = (struct pollfd){ .fd = target_fd(who[i], thr), .events = POLLIN };
		if (target_times(who[i], thr, t0s[i]) < 0)
			w->ticks[0] = w->ticks[1] = -1;
	}
	for (;;) {
		int sig = st_signal_take();
		if (sig && pid > 0) {
			kill(pid, sig);
			forwarded = sig;
		}
		else if (sig)
			break;		/* attached: stop counting, leave the targets alone */
		if (pid > 0) {
			st_sigchld_clear();
			if (st_trace_wanted(s) ? st_trace_reap(s, pid, &w->status, &w->ru) > 0
				       : wait4(pid, &w->status, WNOHANG, &w->ru) == pid)
				break;
		} else if (live == 0 && !s->o.system_wide) {
			break;
		}
		int64_t t = st_now_ns();
		if (start_at && t >= start_at) {
			delayed_start(s, start_at, w);
			start_at = 0;
		}
		if (deadline && t >= deadline) {
			if (pid <= 0)
				break;
			deadline = time_up(s, pid, deadline, w);
		}
		if (next_iv && !start_at && t >= next_iv) {
			/* the last of --interval-count: stop first, so that the
			 * intervals add up to the total counted */
			int last = s->o.interval_count && niv + 1 == s->o.interval_count;
			if (last)
				st_sets_stop(s);
			/* Each row is labelled with the clock at its read, not
			 * with the time it was due: a read that comes late (a
			 * busy machine, papi stopped) makes a longer row. */
			int64_t at = st_now_ns();
			if ((s->o.aggr ? st_rows_sample(s, cur) : st_sets_read(s, cur, NULL, NULL)) == 0)
				s->on_interval(s, at - origin, at - origin, cur);
			/* The next row is due at the next step of the
			 * schedule at least half a step away: the missed ones
			 * are skipped, never caught up with as rows of a few
			 * microseconds that read 0 while the command runs. */
			next_iv += step;
			while (next_iv < at + step / 2)
				next_iv += step;
			if (s->o.interval_count && ++niv == s->o.interval_count) {
				/* --interval-count: counting ends here; a command
				 * still runs to its end, as under perf stat */
				s->iv_stopped = 1;
				w->count_from = origin;
				w->count_to = at;
				next_iv = 0;
				if (pid <= 0)
					break;
			}
			continue;
		}
		for (int i = 0; i < n; i++)
			if (pfd[i].fd == -2 && target_gone(who[i])) {
				target_done(who[i], i >= s->o.npids, t0s[i], w->ticks);
				pfd[i].fd = -1;
				live--;
			}
		int64_t until = start_at && (!next_iv || start_at < next_iv) ? start_at : next_iv;
		if (live > 0 && polled_targets(pfd, n) && (!until || until > t + 100000000))
			until = t + 100000000;
		if (deadline && (!until || deadline < until))
			until = deadline;
		struct timespec ts, *tp = NULL;
		if (until) {
			int64_t d = until > t ? until - t : 0;
			ts.tv_sec = (time_t)(d / 1000000000);
			ts.tv_nsec = (long)(d % 1000000000);
			tp = &ts;
		}
		int r = ppoll(pfd, (nfds_t)n, tp, st_wait_mask());
		for (int i = 0; r > 0 && i < n; i++)
			if (pfd[i].fd >= 0 && pfd[i].revents) {
				close(pfd[i].fd);	/* that target has ended */
				target_done(who[i], i >= s->o.npids, t0s[i], w->ticks);
				pfd[i].fd = -1;
				live--;
			}
	}
	if (start_at) {
		/* ended before --delay: nothing was counted, not a count of 0 */
		w->uncounted = 1;
		w->count_from = w->count_to = origin;
	} else if (s->o.delay_ms && !w->count_to) {
		w->count_from = origin;
		w->count_to = st_now_ns();
	}
	/* whole CPUs count on after the command: stop them at its end */
	if (s->o.system_wide && !s->iv_stopped)
		st_sets_stop(s);
	/* attached: the targets still running */
	for (int i = 0; i < n; i++)
		if (pfd[i].fd != -1) {
			target_done(who[i], i >= s->o.npids, t0s[i], w->ticks);
			if (pfd[i].fd >= 0)
				close(pfd[i].fd);
		}
}

/* ------------------------------------------------------------------ a command */
static double tv_s(struct timeval tv)
{
	return (double)((long long)tv.tv_sec * 1000000 + tv.tv_usec) / 1e6;
}

/* How the command's run ended, into run r. */
static void run_done(struct st *s, int r, int64_t t0, const struct waited *w)
{
	struct st_run *run = &s->runs[r];
	run->elapsed_ns = st_now_ns() - t0;
	/* --delay, --interval-count: the time counted */
	if (w->count_to)
		run->elapsed_ns = w->count_to > w->count_from ? w->count_to - w->count_from : 0;
	run->elapsed = (double)run->elapsed_ns / 1e9;
	run->user = tv_s(w->ru.ru_utime);
	run->sys = tv_s(w->ru.ru_stime);
	run->status = w->status;
	run->timeout = w->timeout;
	run->uncounted = w->uncounted;
	s->nruns = r + 1;
}

/* Whether the command can be spawned under counters opened on papi stat
 * itself: inherited by the child at its creation, enabled by its exec, and
 * summed back into ours when it ends. That saves a fork of this process and
 * a handshake with it (1.3 ms of the 4.8 ms papi stat took over a bare `true`
 * on the development VM, measured with hyperfine), but counts
 * become readable only once the command has ended, so -I and --no-inherit
 * (which counts the command alone, without what it starts) attach to a
 * forked child instead; so does a SIGCHLD we were told to ignore, which
 * posix_spawn cannot pass on. */
static int can_spawn(const struct st *s)
{
	return !s->o.no_inherit && !s->o.interval_ms && !s->o.delay_ms && !s->o.system_wide &&
	       !st_trace_wanted(s) && st_signal_saved(SIGCHLD)->sa_handler != SIG_IGN;
}

/* spawn_command's answer for a file the kernel cannot execute (a script
 * without "#!"): execvp runs those with /bin/sh, posix_spawnp does not. */
#define SPAWN_NOEXEC (-1000)

/* glibc's posix_spawn sets its two internal signals (32 and 33, below
 * SIGRTMIN) to SIG_IGN in the child, and an ignored signal stays ignored
 * across exec, where a fork and exec would leave them as they were. Unless
 * papi stat was started with them ignored, they go into the spawn's
 * default set; sigaddset refuses them, so the bit is set by hand (glibc's
 * sigset_t holds signal sig at bit sig-1 of an array of unsigned long, and
 * its posix_spawn tests that bit). Where the kernel's sigaction does not
 * start with the handler, nothing is changed. */
static void spawn_internal_defaults(sigset_t *def)
{
#if defined(__GLIBC__) && (defined(__x86_64__) || defined(__aarch64__) || defined(__i386__) || \
			   defined(__riscv) || defined(__powerpc64__) || defined(__s390x__))
	unsigned long *w = (unsigned long *)(void *)def;
	const size_t bits = 8 * sizeof *w;
	for (int sig = 32; sig < SIGRTMIN; sig++) {
		unsigned long k[8] = { 0 };	/* the kernel's struct sigaction, handler first */
		if (syscall(SYS_rt_sigaction, sig, NULL, k, _NSIG / 8) == 0 && k[0] == (unsigned long)SIG_IGN)
			continue;
		w[(sig - 1) / bits] |= 1UL << ((sig - 1) % bits);
	}
#else
	(void)def;
#endif
}

/* Spawn the command with counters opened on ourselves (see can_spawn).
 * Returns run_command's answer, or SPAWN_NOEXEC with the counters open. */
static int spawn_command(struct st *s, int r)
{
	if ((r == 0 ? st_sets_add(s, 0, 1) : st_sets_retarget(s, 0, 0)) < 0)
		return CLI_FAIL;
	posix_spawnattr_t at;
	if ((errno = posix_spawnattr_init(&at)) != 0)
		return cli_error("stat", "posix_spawnattr_init: %s", strerror(errno));
	/* The command gets the default action for what we catch, except a
	 * signal we were started with ignored (nohup, a background job): that
	 * one is ignored again for the spawn so that the command inherits it;
	 * it is blocked meanwhile, so nothing but that signal is lost. */
	sigset_t def, ign;
	sigemptyset(&def);
	sigemptyset(&ign);
	sigaddset(&def, SIGCHLD);
	size_t nfwd;
	const int *fwd = st_fwd_signals(&nfwd);
	for (size_t i = 0; i < nfwd; i++) {
		int sig = fwd[i];
		if (st_signal_saved(sig)->sa_handler != SIG_IGN) {
			sigaddset(&def, sig);
			continue;
		}
		sigaddset(&ign, sig);
		sigaction(sig, st_signal_saved(sig), NULL);
	}
	spawn_internal_defaults(&def);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setsigmask(&at, st_saved_mask());
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	extern char **environ;
	pid_t pid;
	int64_t t0 = st_now_ns();
	int e = st_csets_start(s) < 0 ? -1 : posix_spawnp(&pid, s->o.cmd[0], NULL, &at, s->o.cmd, environ);
	posix_spawnattr_destroy(&at);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&ign, sig) == 1)
			st_signal_recatch(sig);
	if (e < 0)
		return CLI_FAIL;	/* the other components' sets did not start */
	if (e == ENOEXEC)
		return SPAWN_NOEXEC;
	/* No process for it (fork's EAGAIN or ENOMEM): papi stat failed, not
	 * the command, as when fork_command's fork fails. */
	if (e == EAGAIN || e == ENOMEM)
		return cli_error("stat", "cannot start '%s': %s", s->o.cmd[0], strerror(e));
	if (e != 0) {
		cli_error("stat", "cannot run '%s': %s", s->o.cmd[0], strerror(e));
		return e == ENOENT ? 127 : 126;
	}
	struct waited w;
	wait_loop(s, pid, t0, &w);
	run_done(s, r, t0, &w);
	return st_csets_stop(s) < 0 ? CLI_FAIL : 0;
}

/* Fork the command, stopped before exec until its counters are open (set
 * up already when have_set: they are moved to the child). */
static int fork_command(struct st *s, int r, int have_set);

/* Run the command once as run r: 0, or papi stat's exit status. */
static int run_command(struct st *s, int r)
{
	if (!can_spawn(s))
		return fork_command(s, r, 0);
	int rc = spawn_command(s, r);
	return rc == SPAWN_NOEXEC ? fork_command(s, r, 1) : rc;
}

static int fork_command(struct st *s, int r, int have_set)
{
	int go[2], err[2], perr;
	if (pipe2(go, O_CLOEXEC) < 0)
		return cli_error("stat", "pipe: %s", strerror(errno));
	if (pipe2(err, O_CLOEXEC) < 0) {
		perr = errno;
		close(go[0]);
		close(go[1]);
		return cli_error("stat", "pipe: %s", strerror(perr));
	}
	pid_t pid = fork();
	if (pid < 0) {
		perr = errno;
		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return cli_error("stat", "cannot start '%s': %s", s->o.cmd[0], strerror(perr));
	}
	if (pid == 0) {
		char c;
		close(go[1]);
		close(err[0]);
		st_signals_restore();
		ssize_t n;
		while ((n = read(go[0], &c, 1)) < 0 && errno == EINTR)
			;
		if (n < 0) {
			/* the wait itself failed: said as -errno. The child
			 * stays until papi stat has set its counters up and
			 * writes or gives up, so that it finds no task gone
			 * and says why the command did not start. */
			int e = -errno;
			if (write(err[1], &e, sizeof e) < 0)
				_exit(126);	/* papi stat is gone: nobody to tell */
			while (read(go[0], &c, 1) < 0 && errno == EINTR)
				;
			_exit(126);
		}
		if (n == 0)	/* papi stat gave up: its counters could not be set up */
			_exit(126);
		execvp(s->o.cmd[0], s->o.cmd);
		int e = errno;
		if (write(err[1], &e, sizeof e) < 0)
			e = errno;
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(err[1]);
	/* --delay: the counters open disabled and start later. -a and -C
	 * count CPUs, not the command: they start just before its exec. */
	int ret;
	if (st_trace_wanted(s) && st_trace_begin(s, pid) < 0) {
		close(go[1]);
		close(err[0]);
		int st;
		waitpid(pid, &st, 0);
		return CLI_FAIL;
	}
	if (s->o.system_wide)
		ret = (r == 0 ? st_cpus_targets(s) : 0) == 0 && (s->o.delay_ms || st_sets_start(s) == 0)
			      ? 0 : -1;
	else
		ret = r == 0 && !have_set ? st_sets_add(s, pid, !s->o.delay_ms) : st_sets_retarget(s, 0, pid);
	int status = 0, e = 0;
	if (ret < 0) {
		close(go[1]);
		close(err[0]);
		waitpid(pid, &status, 0);
		return CLI_FAIL;
	}
	int64_t t0 = st_now_ns();
	/* SIGPIPE is ignored meanwhile: a child already gone (its wait failed)
	 * must not take papi stat with it, the write fails with EPIPE. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, pipe_was;
	sigaction(SIGPIPE, &ign, &pipe_was);
	ssize_t got;
	while ((got = write(go[1], "g", 1)) < 0 && errno == EINTR)
		;
	if (got == 1)
		while ((got = read(err[0], &e, sizeof e)) < 0 && errno == EINTR)
			;
	/* The go-ahead not given, or its answer not read: whether the command
	 * runs is unknown, so the run is given up (a kill shown as its end
	 * would be papi stat's). */
	if (got < 0)
		e = -errno, kill(pid, SIGKILL);
	sigaction(SIGPIPE, &pipe_was, NULL);
	close(go[1]);
	close(err[0]);
	if (got < 0 || got == (ssize_t)sizeof e) {
		waitpid(pid, &status, 0);
		st_csets_stop(s);
		if (e < 0)	/* its wait for the go-ahead, or ours for its exec, failed */
			return cli_error("stat", "cannot start '%s': %s", s->o.cmd[0], strerror(-e));
		cli_error("stat", "cannot run '%s': %s", s->o.cmd[0], strerror(e));
		return e == ENOENT ? 127 : 126;
	}
	/* the command has exec'd: the other components count from now (or
	 * from --delay's end) */
	if (!s->o.delay_ms && st_csets_start(s) < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return CLI_FAIL;
	}
	struct waited w;
	wait_loop(s, pid, t0, &w);
	run_done(s, r, t0, &w);
	return st_csets_stop(s) < 0 ? CLI_FAIL : 0;
}


/* Every thread of process pid gets its own EventSet (inherit follows the
 * threads it creates from now on). */
static int attach_process(struct st *s, pid_t pid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return cli_error("stat", "cannot attach to process %d: %s", (int)pid,
				 errno == ENOENT ? "no such process" : strerror(errno)), -1;
	struct dirent *de;
	int ret = 0, nt0 = s->ntargets;
	while (ret == 0 && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			pid_t tid = (pid_t)atoi(de->d_name);
			struct st_target t = { .tid = tid, .cpu = -1, .cg = -1, .pid = pid };
			ret = st_sets_add_target(s, &t);
			/* a thread other than the first may have ended meanwhile */
			if (ret < 0 && s->ntargets > nt0 + 1 && kill(tid, 0) < 0)
				ret = 0;
		}
	closedir(d);
	return ret;
}

/* Count the targets set up (threads, or whole CPUs) until they end, a
 * signal, --timeout or --interval-count: the one run without a command. */
static int run_targets(struct st *s)
{
	if ((!s->o.delay_ms && (st_sets_start(s) < 0 || st_csets_start(s) < 0)))
		return CLI_FAIL;
	int64_t t0 = st_now_ns();
	struct waited w;
	wait_loop(s, 0, t0, &w);
	if (st_csets_stop(s) < 0)
		return CLI_FAIL;
	int64_t el = st_now_ns() - t0;
	if (w.count_to)
		el = w.count_to > w.count_from ? w.count_to - w.count_from : 0;
	s->runs[0] = (struct st_run){ .elapsed_ns = el, .elapsed = (double)el / 1e9, .user = -1,
				      .sys = -1, .status = -1, .uncounted = w.uncounted };
	/* attached: the CPU time the targets used meanwhile */
	if (!s->o.system_wide && w.ticks[0] >= 0) {
		double hz = (double)sysconf(_SC_CLK_TCK);
		s->runs[0].user = (double)w.ticks[0] / hz;
		s->runs[0].sys = (double)w.ticks[1] / hz;
	}
	s->nruns = 1;
	return 0;
}

static int run_attached(struct st *s)
{
	for (int i = 0; i < s->o.npids; i++)
		if (attach_process(s, s->o.pids[i]) < 0)
			return CLI_FAIL;
	for (int i = 0; i < s->o.ntids; i++)
		if (st_sets_add(s, s->o.tids[i], 0) < 0)
			return CLI_FAIL;
	return run_targets(s);
}

/* -a or -C without a command: the CPUs, until a signal, --timeout or
 * --interval-count ends the count. */
static int run_system(struct st *s)
{
	return st_cpus_targets(s) < 0 ? CLI_FAIL : run_targets(s);
}

/* ------------------------------------------------------------------ every run */
int st_count(struct st *s)
{
	long long val[s->nev];
	uint64_t en[s->nev], run[s->nev];
	for (int r = 0; r < s->o.repeat; r++) {
		int rc = s->o.cmd ? run_command(s, r) : s->o.system_wide ? run_system(s) : run_attached(s);
		if (rc != 0)
			return rc;
		if (s->trace_failed)
			return CLI_FAIL;	/* a task of it went uncounted: said why */
		if ((s->o.aggr ? st_rows_collect(s, r, val, en, run) : st_sets_read(s, val, en, run)) < 0)
			return CLI_FAIL;
		/* The last interval, cut short by the end: the intervals add
		 * up to the total. */
		if (s->o.interval_ms && !s->iv_stopped)
			s->on_interval(s, s->runs[r].elapsed_ns, s->runs[r].elapsed_ns, val);
		for (int i = 0; i < s->nev; i++) {
			s->ev[i].val[r] = val[i];
			s->ev[i].en += en[i];
			s->ev[i].run += run[i];
		}
		/* A signal we forwarded ends the repetitions. */
		if (forwarded)
			break;
	}
	return 0;
}


void st_count_free(struct st *s)
{
	st_sets_free(s);
	st_rows_free(s);
	for (int i = 0; i < s->nev; i++) {
		free(s->ev[i].val);
		free(s->ev[i].label);
		s->ev[i].val = NULL;
		s->ev[i].label = NULL;
	}
	free(s->tg);
	free(s->runs);
	s->tg = NULL;
	s->runs = NULL;
}

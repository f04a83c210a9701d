/* signals.c: papi stat's clock and the signals it forwards to the command, or that end an attached count. */
#include <poll.h>
#include <signal.h>
#include <time.h>

#include "base.h"
#include "cli.h"

/* The signals to forward are blocked except while we wait in ppoll(), so a
 * signal (or SIGCHLD) can never slip in between a check and the wait. */
static const int fwd_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NFWD (sizeof fwd_sigs / sizeof *fwd_sigs)
/* Per signal caught (the forwarded ones, then SIGCHLD): whether it arrived,
 * and the action it had before. */
CLI_FIRST_DATA static volatile sig_atomic_t pending[NFWD + 1];
CLI_FIRST_DATA static struct sigaction saved[NFWD + 1];
CLI_FIRST_DATA static sigset_t saved_mask, wait_mask;

/* sig's slot in pending and saved, or -1 for a signal not caught. */
static int slot(int sig)
{
	for (size_t i = 0; i < NFWD; i++)
		if (fwd_sigs[i] == sig)
			return (int)i;
	return sig == SIGCHLD ? (int)NFWD : -1;
}

static void on_signal(int sig)
{
	int i = slot(sig);
	if (i >= 0)
		pending[i] = 1;
}

void st_signal_recatch(int sig)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

void st_signals_catch(void)
{
	sigset_t block;
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof fwd_sigs / sizeof *fwd_sigs; i++)
		sigaddset(&block, fwd_sigs[i]);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &saved_mask);
	wait_mask = saved_mask;
	for (int s = 1; s < NSIG; s++)
		if (sigismember(&block, s)) {
			sigdelset(&wait_mask, s);
			sigaction(s, &sa, &saved[slot(s)]);
		}
}

const int *st_fwd_signals(size_t *n)
{
	*n = sizeof fwd_sigs / sizeof *fwd_sigs;
	return fwd_sigs;
}

const struct sigaction *st_signal_saved(int sig)
{
	static const struct sigaction dfl = { .sa_handler = SIG_DFL };
	int i = slot(sig);
	return i >= 0 ? &saved[i] : &dfl;
}

const sigset_t *st_saved_mask(void)
{
	return &saved_mask;
}

const sigset_t *st_wait_mask(void)
{
	return &wait_mask;
}

void st_signals_restore(void)
{
	for (size_t i = 0; i < NFWD; i++)
		sigaction(fwd_sigs[i], &saved[i], NULL);
	sigaction(SIGCHLD, &saved[NFWD], NULL);
	sigprocmask(SIG_SETMASK, &saved_mask, NULL);
}

int st_signal_take(void)
{
	int got = 0;
	for (size_t i = 0; i < NFWD; i++)
		if (pending[i]) {
			pending[i] = 0;
			if (!got)
				got = fwd_sigs[i];
		}
	return got;
}

void st_sigchld_clear(void)
{
	pending[NFWD] = 0;
}

/* Times are kept in integer nanoseconds: a difference of two doubles of
 * CLOCK_MONOTONIC seconds carries rounding noise into the report. */
int64_t st_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int st_wait_signal(int64_t ns)
{
	struct timespec t = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
	int got = st_signal_take();
	if (!got) {
		ppoll(NULL, 0, &t, &wait_mask);
		got = st_signal_take();
	}
	return got;
}

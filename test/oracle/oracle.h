/* oracle.h: what the library oracle tests share (test/oracle/oracle.c).
 *
 * The bracket. libpapi's count of a stretch is checked against a raw
 * counter (rawpe.h) of the same event on the same thread, enabled before
 * PAPI_start and disabled after PAPI_stop (the outer count), and read
 * after PAPI_start and before PAPI_stop (their difference is the inner
 * count). libpapi's window holds the inner one and lies within the outer
 * one, so its count must lie between the two: exactly for events counted
 * one by one (page faults, context switches, instructions); for clocks to
 * a small slack, since a thread that moves to another CPU reads that CPU's
 * clock. The bracket's width is the measuring code's own share (a fault or
 * two in PAPI_start, say); the workload's share must be in both, which the
 * tests check against its arithmetic (pages touched) where it has one.
 *
 * Between PAPI_start and PAPI_stop the raw counter is only read, never
 * switched: enabling a counter of the thread reschedules the thread's
 * counters, libpapi's too, and would hide a group that the kernel left
 * idle after PAPI_start until the next context switch. */
#ifndef PAPI_TEST_ORACLE_H
#define PAPI_TEST_ORACLE_H

#include <sys/types.h>

#include "papi.h"
#include "rawpe.h"
#include "tap.h"

#define ORC_MAX 8

struct orc {
	int n;
	const char *names[ORC_MAX];
	int fd[ORC_MAX];
	long long obase[ORC_MAX], ibase[ORC_MAX], isum[ORC_MAX];
	long long lo[ORC_MAX], hi[ORC_MAX];	/* inner, outer counts */
	double rel[ORC_MAX];			/* tolerance: a share of the count */
	long long abs[ORC_MAX];			/* and an absolute slack */
};

/* orc_open_dom: a disabled raw counter of each named event on pid (0: this
 * thread), inherited by its children when inherit, counting the kernel too
 * when kernel. 0, or -errno (after a TAP comment saying which event could
 * not be opened). orc_open: user space only, as libpapi's default domain.
 * The tolerance is 0 for every event but the clocks (0.5% + 50 us); a test
 * may set another in rel and abs before orc_check. */
int orc_open_dom(struct orc *o, const char *const *names, int n, pid_t pid, int inherit, int kernel);
int orc_open(struct orc *o, const char *const *names, int n, pid_t pid, int inherit);
void orc_close(struct orc *o);

/* orc_outer_on: reset and enable, before PAPI_start. orc_outer_mark: the
 * outer count starts here instead (a running counter, before PAPI_reset).
 * orc_inner_on: the inner count starts (after PAPI_start). orc_inner_off:
 * it ends, into lo (before PAPI_stop). orc_outer_off: disable, the outer
 * count into hi (after PAPI_stop). orc_inner_pause and orc_inner_resume:
 * leave a stretch out of the inner count (one that libpapi does not count,
 * such as PAPI_accum's reset). orc_read_outer: the outer count so far into
 * hi (after a PAPI_read). All but the first and the last only read. */
void orc_outer_on(struct orc *o);
void orc_outer_mark(struct orc *o);
void orc_inner_on(struct orc *o);
void orc_inner_off(struct orc *o);
void orc_outer_off(struct orc *o);
void orc_inner_pause(struct orc *o);
void orc_inner_resume(struct orc *o);
void orc_read_outer(struct orc *o);

/* orc_check: one TAP point: got, libpapi's count of event i, lies in the
 * bracket [lo, hi], to the event's tolerance. what says what ran; a
 * failure prints both counts. Returns whether it held.
 * (Inline: each test program has its own TAP counter.) */
static inline int orc_check(const struct orc *o, int i, long long got, const char *what)
{
	long long lo = o->lo[i], hi = o->hi[i];
	lo -= (long long)((double)lo * o->rel[i]) + o->abs[i];
	hi += (long long)((double)hi * o->rel[i]) + o->abs[i];
	int r = ok(lo <= got && got <= hi && o->lo[i] >= 0, "%s: %s: libpapi %lld in raw [%lld, %lld]", what,
		   o->names[i], got, o->lo[i], o->hi[i]);
	if (!r)
		diag("libpapi counted %lld %s, the raw counter %lld (inner) to %lld (outer), tolerance %g%% + %lld, over: %s",
		     got, o->names[i], o->lo[i], o->hi[i], o->rel[i] * 100, o->abs[i], what);
	return r;
}

/* orc_set: a fresh EventSet holding the named events (component 0 assigned
 * first when multiplex); PAPI_OK or the first error. */
int orc_set(int *es, const char *const *names, int n, int multiplex);
void orc_set_free(int *es);

/* orc_touch: map n fresh anonymous pages (small pages: no transparent huge
 * pages), write one byte in each, unmap them: n user-mode page faults. */
void orc_touch(long n);

/* orc_pages: how many pages make `mib` MiB. */
long orc_pages(long mib);

/* orc_minflt: this process's minor faults so far (getrusage), the second
 * oracle; who is RUSAGE_SELF or RUSAGE_CHILDREN. */
long orc_minflt(int who);

/* orc_spin: run on the CPU until this thread has used ns of CPU time. */
void orc_spin(long long ns);

#endif

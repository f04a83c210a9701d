/* oracle.c: the bracket, the EventSets and the workloads the library oracle tests share (see oracle.h). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#include "oracle.h"
#include "tap.h"

int orc_open_dom(struct orc *o, const char *const *names, int n, pid_t pid, int inherit, int kernel)
{
	memset(o, 0, sizeof *o);
	for (int i = 0; i < ORC_MAX; i++)
		o->fd[i] = -1;
	for (int i = 0; i < n && i < ORC_MAX; i++) {
		const struct raw_event *ev = raw_by_name(names[i]);
		o->names[i] = names[i];
		o->n = i + 1;
		if (strstr(names[i], "CLOCK"))
			o->rel[i] = 0.005, o->abs[i] = 50000;
		if (!ev) {
			diag("the raw counter knows no event %s", names[i]);
			orc_close(o);
			return -22;
		}
		if ((o->fd[i] = raw_open(ev, pid, inherit, kernel)) < 0) {
			int e = o->fd[i];
			diag("the raw counter cannot open %s: %s", names[i], strerror(-e));
			orc_close(o);
			return e;
		}
	}
	return 0;
}

int orc_open(struct orc *o, const char *const *names, int n, pid_t pid, int inherit)
{
	return orc_open_dom(o, names, n, pid, inherit, 0);
}

void orc_close(struct orc *o)
{
	for (int i = 0; i < o->n; i++) {
		raw_close(o->fd[i]);
		o->fd[i] = -1;
	}
}

void orc_outer_on(struct orc *o)
{
	for (int i = 0; i < o->n; i++) {
		raw_reset(o->fd[i]);
		o->obase[i] = 0;
		raw_enable(o->fd[i]);
	}
}

void orc_outer_mark(struct orc *o)
{
	for (int i = 0; i < o->n; i++)
		o->obase[i] = raw_read(o->fd[i]);
}

void orc_inner_on(struct orc *o)
{
	for (int i = 0; i < o->n; i++) {
		o->isum[i] = 0;
		o->ibase[i] = raw_read(o->fd[i]);
	}
}

void orc_inner_pause(struct orc *o)
{
	for (int i = 0; i < o->n; i++)
		o->isum[i] += raw_read(o->fd[i]) - o->ibase[i];
}

void orc_inner_resume(struct orc *o)
{
	for (int i = 0; i < o->n; i++)
		o->ibase[i] = raw_read(o->fd[i]);
}

void orc_inner_off(struct orc *o)
{
	for (int i = 0; i < o->n; i++)
		o->lo[i] = o->isum[i] + raw_read(o->fd[i]) - o->ibase[i];
}

void orc_read_outer(struct orc *o)
{
	for (int i = 0; i < o->n; i++)
		o->hi[i] = raw_read(o->fd[i]) - o->obase[i];
}

void orc_outer_off(struct orc *o)
{
	for (int i = 0; i < o->n; i++)
		raw_disable(o->fd[i]);
	orc_read_outer(o);
}

int orc_set(int *es, const char *const *names, int n, int multiplex)
{
	int r;
	*es = PAPI_NULL;
	if ((r = PAPI_create_eventset(es)) != PAPI_OK)
		return r;
	if (multiplex && ((r = PAPI_assign_eventset_component(*es, 0)) != PAPI_OK ||
			  (r = PAPI_set_multiplex(*es)) != PAPI_OK))
		goto fail;
	for (int i = 0; i < n; i++)
		if ((r = PAPI_add_named_event(*es, names[i])) != PAPI_OK) {
			diag("PAPI_add_named_event %s: %s", names[i], PAPI_strerror(r));
			goto fail;
		}
	return PAPI_OK;
fail:
	orc_set_free(es);
	return r;
}

void orc_set_free(int *es)
{
	if (*es == PAPI_NULL)
		return;
	PAPI_cleanup_eventset(*es);
	PAPI_destroy_eventset(es);
	*es = PAPI_NULL;
}

void orc_touch(long n)
{
	raw_touch(n);
}

long orc_pages(long mib)
{
	return mib * (1024 * 1024 / sysconf(_SC_PAGESIZE));
}

long orc_minflt(int who)
{
	struct rusage ru;
	return getrusage(who, &ru) == 0 ? ru.ru_minflt : -1;
}

/* Most of the time goes to a user-mode loop between clock reads: a thread
 * CPU clock is a system call, and a sampling timer that fires while the
 * thread is in the kernel takes no sample for a counter that excludes the
 * kernel (paranoid 2), which is every sample under QEMU's -icount, where
 * the timer's interrupt is taken at the kernel's read of the clock. */
void orc_spin(long long ns)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (volatile int i = 0; i < 20000; i++)
			;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000LL + (t.tv_nsec - t0.tv_nsec) < ns);
}

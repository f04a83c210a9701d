/* multiplex.c: kernel and software multiplexing: PAPI_multiplex_init, PAPI_set/get_multiplex, the rotation timer. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "5-core/core.h"

/* PAPI 7's default time slice: 10 ms. */
int papi_mpx_ns = 10000000;

/* Software multiplexing (PAPI_MULTIPLEX_FORCE_SW): every counter is its own
 * perf group (es->multiplex = 2) and one slice of them is enabled at a time;
 * the rotation moves each running set to its next slice every ns. The
 * kernel keeps each counter's enabled time, which is exactly the time its
 * slice was counting, so counting.c scales by the sum of the slices' times:
 * no clock of ours enters the estimate. Kernel multiplexing needs no state
 * here: the kernel rotates the groups itself (each hardware counter alone,
 * the software events, which it never needs to rotate, together) and
 * reports the times.
 *
 * One rotation thread serves every running set of the process. It is made
 * at the first start and lives until PAPI_shutdown: a start or stop only
 * links or unlinks the set under the rotation's lock, where a thread per
 * start cost a pthread_create and a join (50-150 us) at every PAPI_start and
 * PAPI_stop. The thread rotates with the lock held, so once a stop has
 * unlinked a set the thread no longer touches it. */
struct mpx {
	int ns;			/* time slice */
	int sw;			/* 1: software rotation */
	int k;			/* counters per slice */
	int cur;		/* the slice counting now */
	int linked;		/* on the rotation's list */
	int running;		/* started: slice cur is enabled */
	struct timespec due;	/* its next rotation (CLOCK_MONOTONIC) */
	/* The last raw count, enabled and running time read per counter
	 * (raw[3h..3h+2]), valid while fresh[h]: read with the counter
	 * disabled, and not enabled since. A disabled counter stands still,
	 * so a read, start or stop need read() only the slice that counted
	 * since (usually the one slice of a short start-stop). ncache: the
	 * counters the arrays hold, -1 after a counter was (re)opened. */
	int ncache;
	uint64_t *raw;
	unsigned char *fresh;
	struct mpx *next;
	EventSet_t *es;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cv;	/* on CLOCK_MONOTONIC; made with the thread */
	pthread_t th;
	int alive;		/* the thread runs in this process */
	int quit;
	int hooked;		/* rot_shutdown and rot_child registered */
	int forked;		/* in a child of fork: the thread is not here */
	int timed;		/* the thread sleeps until wake (else until signalled) */
	struct timespec wake;
	int linger;		/* ns: a set started since the list was last empty */
	struct mpx *head;	/* the running software-multiplexed sets */
} rot = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Counters per slice: as many as the core PMU holds when the set counts a
 * hardware event, else one: software events share no hardware limit, and a
 * slice of one is what makes them rotate at all. */
static int slice_size(const EventSet_t *es)
{
	int hw = 0;
	for (int g = 0; g < es->ngroups; g++)
		if (es->groups[g].kernel_type != PERF_TYPE_SOFTWARE)
			hw = 1;
	for (int i = 0; hw && i < pmu_count(); i++) {
		const struct pmu *p = pmu_get(i);
		if (p && p->kernel_type >= 0 && p->num_cntrs > 0 && p->pfm_type == 1 /* CORE */)
			return p->num_cntrs;
	}
	return 1;
}

int mpx_sw_slice(const EventSet_t *es)
{
	const struct mpx *m = es->mpx;
	return m && m->sw && es->multiplex ? m->k : 0;
}

/* Enable (on != 0) or disable every counter of slice s. */
static void slice_ioctl(EventSet_t *es, int s, int on)
{
	const struct mpx *m = es->mpx;
	for (int h = s * m->k; h < es->nhw && h < (s + 1) * m->k; h++)
		if (es->hw[h].fd >= 0)
			sys->ioctl(es->hw[h].fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

static int nslices(const EventSet_t *es)
{
	const struct mpx *m = es->mpx;
	return (es->nhw + m->k - 1) / m->k;
}

/* Size the cache for es's counters, none of them fresh. 0, or -1 when
 * out of memory (then nothing is cached: every read reads). */
static int cache_fit(struct mpx *m, const EventSet_t *es)
{
	if (m->ncache == es->nhw)
		return 0;
	size_t n = es->nhw > 0 ? (size_t)es->nhw : 1;
	uint64_t *raw = realloc(m->raw, 3 * n * sizeof *raw);
	if (raw)
		m->raw = raw;
	unsigned char *fresh = realloc(m->fresh, n);
	if (fresh)
		m->fresh = fresh;
	if (!raw || !fresh) {
		m->ncache = -1;
		return -1;
	}
	memset(m->fresh, 0, n);
	m->ncache = es->nhw;
	return 0;
}

/* read() counter h (its own group of one): its count, enabled and running
 * time into out[3]. 0, or -1 when the read fails. */
static int counter_read(const EventSet_t *es, int h, uint64_t *out)
{
	uint64_t b[4];	/* nr, enabled, running, count */
	if (es->hw[h].fd < 0 || sys->read(es->hw[h].fd, b, sizeof b) != (ssize_t)sizeof b)
		return -1;
	out[0] = b[3];
	out[1] = b[1];
	out[2] = b[2];
	return 0;
}

/* Counter h into the cache; fresh when keep (the counter is disabled) and
 * the set does not inherit (an exiting child adds to a disabled counter
 * too). 0, or -1 when the read fails. */
static int cache_read(struct mpx *m, EventSet_t *es, int h, int keep)
{
	m->fresh[h] = 0;
	if (counter_read(es, h, &m->raw[3 * h]) < 0)
		return -1;
	m->fresh[h] = keep && !es->inherit;
	return 0;
}

/* Mark slice s's counters as counting: their cache is stale. */
static void slice_stale(struct mpx *m, const EventSet_t *es, int s)
{
	for (int h = s * m->k; h < es->nhw && h < (s + 1) * m->k && h < m->ncache; h++)
		m->fresh[h] = 0;
}

static void ts_add(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

static int ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* The rotation thread: sleeps until the earliest set is due, moves every
 * due set to its next slice, and waits again; with no set running it
 * sleeps until a start links one. A late wake-up rotates once and counts
 * the next slice from now: no burst of catch-up rotations. */
static void *rotate(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&rot.lock);
	while (!rot.quit) {
		struct mpx *first = NULL;
		for (struct mpx *m = rot.head; m; m = m->next)
			if (!first || ts_before(&m->due, &first->due))
				first = m;
		if (!first && !rot.linger) {
			pthread_cond_wait(&rot.cv, &rot.lock);
			continue;
		}
		if (first) {
			rot.wake = first->due;
		} else {
			/* Idle after a start: keep a timed sleep for one more
			 * slice, so that a set started again soon (a start and
			 * stop in a loop) finds the thread already waiting for
			 * less than its slice and need not wake it. */
			clock_gettime(CLOCK_MONOTONIC, &rot.wake);
			ts_add(&rot.wake, rot.linger);
			rot.linger = 0;
		}
		rot.timed = 1;
		int r = pthread_cond_timedwait(&rot.cv, &rot.lock, &rot.wake);
		rot.timed = 0;
		if (r != ETIMEDOUT || !first)
			continue;	/* a set came due sooner, or quit: look again */
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (struct mpx *m = rot.head; m; m = m->next) {
			if (ts_before(&now, &m->due))
				continue;
			EventSet_t *es = m->es;
			int n = nslices(es);
			if (n > 1) {
				/* disable first: two slices never count together;
				 * the disabled slice's counts stand still: keep them */
				slice_ioctl(es, m->cur, 0);
				for (int h = m->cur * m->k; m->ncache == es->nhw && h < es->nhw &&
							    h < (m->cur + 1) * m->k; h++)
					cache_read(m, es, h, 1);
				m->cur = (m->cur + 1) % n;
				slice_stale(m, es, m->cur);
				slice_ioctl(es, m->cur, 1);
			}
			ts_add(&m->due, m->ns);
			if (ts_before(&m->due, &now)) {
				m->due = now;
				ts_add(&m->due, m->ns);
			}
		}
	}
	pthread_mutex_unlock(&rot.lock);
	return NULL;
}

/* No thread, no set linked: as before the first start. */
static void rot_forget(void)
{
	rot.alive = 0;
	rot.quit = 0;
	rot.head = NULL;
	rot.timed = 0;
	rot.linger = 0;
	rot.forked = 0;
}

/* pthread_atfork's child handler: the rotation thread stayed behind. (A
 * flag, not a getpid() at every start: that is a system call.) */
static void rot_child(void)
{
	rot.forked = 1;
}

/* In a child of fork only the forking thread exists: no rotation thread,
 * and its lock may have been held when the process forked. Start afresh
 * (from the one thread the child has, before it makes others). */
static void rot_adopt(void)
{
	if (!rot.alive || !rot.forked)
		return;
	pthread_mutex_init(&rot.lock, NULL);
	rot_forget();
}

/* At PAPI_shutdown: end the thread (every set was stopped and unlinked). */
static void rot_shutdown(void)
{
	rot_adopt();
	pthread_mutex_lock(&rot.lock);
	int alive = rot.alive;
	rot.quit = 1;
	if (alive)
		pthread_cond_signal(&rot.cv);
	pthread_mutex_unlock(&rot.lock);
	if (!alive)
		return;
	pthread_join(rot.th, NULL);
	pthread_cond_destroy(&rot.cv);
	rot_forget();
}

/* Make the thread, with rot.lock held. PAPI_OK or PAPI_ESYS. */
static int rot_spawn(void)
{
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&rot.cv, &ca);
	pthread_condattr_destroy(&ca);
	/* The rotation thread must not take the signals the program expects
	 * in its own threads. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rot.quit = 0;
	int err = pthread_create(&rot.th, NULL, rotate, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		pthread_cond_destroy(&rot.cv);
		papi_set_reason("software multiplexing: cannot start the rotation thread: %s",
				strerror(err));
		return PAPI_ESYS;
	}
	rot.alive = 1;
	if (!rot.hooked) {
		rot.hooked = 1;
		papi_on_shutdown(rot_shutdown);
		pthread_atfork(NULL, NULL, rot_child);
	}
	return PAPI_OK;
}

int mpx_start(EventSet_t *es)
{
	struct mpx *m = es->mpx;
	int k = slice_size(es);
	if (k != m->k)
		m->ncache = -1;	/* the slices changed */
	m->k = k;
	m->cur = 0;
	cache_fit(m, es);
	slice_stale(m, es, 0);
	slice_ioctl(es, 0, 1);
	m->running = 1;
	if (nslices(es) < 2)
		return PAPI_OK;
	rot_adopt();
	pthread_mutex_lock(&rot.lock);
	int ret = rot.alive ? PAPI_OK : rot_spawn();
	if (ret == PAPI_OK) {
		clock_gettime(CLOCK_MONOTONIC, &m->due);
		ts_add(&m->due, m->ns);
		m->next = rot.head;
		rot.head = m;
		m->linked = 1;
		rot.linger = m->ns;
		/* Wake the thread only when it would sleep past this set's
		 * first rotation: a set restarted at once (start, stop, start)
		 * then costs no switch to the thread, which will look at the
		 * list when it wakes anyway. */
		if (!rot.timed || ts_before(&m->due, &rot.wake))
			pthread_cond_signal(&rot.cv);
	}
	pthread_mutex_unlock(&rot.lock);
	if (ret != PAPI_OK) {
		slice_ioctl(es, 0, 0);
		m->running = 0;
	}
	return ret;
}

void mpx_stop(EventSet_t *es)
{
	struct mpx *m = es->mpx;
	if (!m)
		return;
	if (m->linked) {
		pthread_mutex_lock(&rot.lock);
		for (struct mpx **p = &rot.head; *p; p = &(*p)->next)
			if (*p == m) {
				*p = m->next;
				break;
			}
		m->linked = 0;
		m->next = NULL;
		pthread_mutex_unlock(&rot.lock);
	}
	/* Unlinked, the set is ours alone: only slice cur still counts. */
	if (m->running) {
		slice_ioctl(es, m->cur, 0);
		m->running = 0;
	}
}

int mpx_read_raw(EventSet_t *es, uint64_t *cnt, uint64_t *en, uint64_t *run)
{
	struct mpx *m = es->mpx;
	/* A linked set's slices move under rot.lock: hold it, so the slice
	 * read and the cached ones are of one moment. */
	int locked = m->linked;
	if (locked)
		pthread_mutex_lock(&rot.lock);
	else
		cache_fit(m, es);
	int ret = PAPI_OK, cached = m->ncache == es->nhw;
	for (int h = 0; h < es->nhw; h++) {
		if (es->hw[h].fd < 0)
			continue;
		uint64_t b[3];	/* no cache (out of memory): read into b */
		const uint64_t *v = cached ? &m->raw[3 * h] : b;
		if (cached ? !m->fresh[h] && cache_read(m, es, h, !m->running) < 0 : counter_read(es, h, b) < 0) {
			ret = PAPI_ESYS;
			break;
		}
		cnt[h] = v[0];
		en[h] = v[1];
		run[h] = v[2];
	}
	if (locked)
		pthread_mutex_unlock(&rot.lock);
	if (ret != PAPI_OK)
		papi_set_reason("reading counters failed: %s", strerror(errno));
	return ret;
}

/* A counter of es was (re)opened: nothing cached holds for it. */
static int mpx_opened(EventSet_t *es, int h)
{
	(void)h;
	struct mpx *m = es->mpx;
	if (m)
		m->ncache = -1;
	return PAPI_OK;
}

void mpx_release(EventSet_t *es)
{
	struct mpx *m = es->mpx;
	if (!m)
		return;
	m->running = 0;	/* the counters are closed: only unlink */
	mpx_stop(es);
	free(m->raw);
	free(m->fresh);
	free(m);
	es->mpx = NULL;
}

void mpx_forget(EventSet_t *es)
{
	struct mpx *m = es->mpx;
	rot_adopt();
	if (!m)
		return;
	m->linked = 0;
	m->next = NULL;
	m->running = 0;
	m->ncache = -1;
}

/* Convert a stopped set into a multiplexed one (PAPI_MULTIPLEX option):
 * flags PAPI_MULTIPLEX_DEFAULT (the kernel rotates) or
 * PAPI_MULTIPLEX_FORCE_SW (our rotation every ns; ns <= 0 = the default).
 * Counters already added are reopened one group each. Returns PAPI_OK,
 * PAPI_ENOEVST, PAPI_ENOCMP (no component bound yet, as PAPI 7),
 * PAPI_EISRUN, PAPI_EINVAL (already multiplexed, bad flags or ns < 0),
 * PAPI_ENOMEM, or the error reopening the counters (the set is then left
 * as it was). */
static int mpx_convert_impl(int EventSet, int ns, int flags)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	EventSet_t *es = es_lookup(EventSet);
	if (!es)
		return PAPI_ENOEVST;
	if (es->cidx < 0)
		return PAPI_ENOCMP;
	if (es->state & PAPI_RUNNING)
		return PAPI_EISRUN;
	if (es->cset) {
		papi_set_reason("PAPI_set_multiplex: a set of another component than perf_event "
				"counts all its events at once: there is nothing to multiplex");
		return PAPI_ECMP;
	}
	if (es->multiplex || (flags & ~PAPI_MULTIPLEX_FORCE_SW) || ns < 0)
		return PAPI_EINVAL;
	struct mpx *m = calloc(1, sizeof *m);
	if (!m)
		return PAPI_ENOMEM;
	m->ns = ns > 0 ? ns : papi_mpx_ns;
	m->sw = (flags & PAPI_MULTIPLEX_FORCE_SW) != 0;
	m->k = 1;	/* until mpx_start sees the set's counters */
	m->ncache = -1;
	m->es = es;
	mpx_release(es);
	es->mpx = m;
	es->multiplex = m->sw ? 2 : 1;
	int ret = es_reopen(es);
	if (ret != PAPI_OK) {
		mpx_release(es);
		es->multiplex = 0;
		es_reopen(es);
		return ret;
	}
	es->state |= PAPI_MULTIPLEXING;
	return PAPI_OK;
}

/* The multiplexing parameters of a set: *ns and *flags; 1 when the set is
 * multiplexed, 0 when not, PAPI_ENOEVST. */
static int mpx_query_impl(int EventSet, int *ns, int *flags)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	EventSet_t *es = es_lookup(EventSet);
	if (!es)
		return PAPI_ENOEVST;
	const struct mpx *m = es->mpx;
	int on = es->multiplex && (es->state & PAPI_MULTIPLEXING);
	if (ns)
		*ns = on && m ? m->ns : 0;
	if (flags)
		*flags = on && m && m->sw ? PAPI_MULTIPLEX_FORCE_SW : PAPI_MULTIPLEX_DEFAULT;
	return on;
}

/* PAPI_multiplex_init: multiplexing needs no set-up here; always PAPI_OK
 * (as PAPI 7, even before PAPI_library_init). */
int PAPI_multiplex_init(void)
{
	return PAPI_OK;
}

/* PAPI_set_multiplex: make a stopped set multiplexed, the kernel rotating
 * its counters. Works for any event the kernel can count, software events
 * and machines without a hardware PMU included. Errors as mpx_convert. */
int PAPI_set_multiplex(int EventSet)
{
	return mpx_convert(EventSet, papi_mpx_ns, PAPI_MULTIPLEX_DEFAULT);
}

/* PAPI_get_multiplex: 1 when the set is multiplexed, 0 when not,
 * PAPI_ENOEVST for no set, PAPI_ENOINIT. */
int PAPI_get_multiplex(int EventSet)
{
	return mpx_query(EventSet, NULL, NULL);
}

/* mpx_convert and mpx_query run in flight (es_enter/es_leave) so a
 * concurrent PAPI_shutdown cannot free the set under them. */
int mpx_convert(int EventSet, int ns, int flags)
{
	return ES_IN_FLIGHT(mpx_convert_impl(EventSet, ns, flags));
}

int mpx_query(int EventSet, int *ns, int *flags)
{
	return ES_IN_FLIGHT(mpx_query_impl(EventSet, ns, flags));
}

const struct es_hooks mpx_es_hooks = {
	.opened = mpx_opened,
	.halt = mpx_stop,
	.release = mpx_release,
};

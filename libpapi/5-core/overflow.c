/* overflow.c: PAPI_overflow: kernel sampling (ring buffer, signal to the owning thread) and timer-driven software overflow. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "5-core/core.h"

/*
 * How it works.
 *
 * Hardware (kernel) overflow: an overflowing counter stays where eventset.c
 * put it, leader or member of its PMU's group (the kernel samples group
 * members as well as leaders, and one read() of the group still returns
 * every count, exact, while sampling). It is opened with sample_period =
 * threshold, sample_type = PERF_SAMPLE_IP and wakeup_events = 1, gets a ring
 * buffer of 1 + RING_PAGES pages (sys->mmap), and its fd signals
 * OVF_HW_SIGNAL (F_SETSIG) to the thread that counts it (F_SETOWN_EX,
 * F_OWNER_TID; the EventSet's owner for attached sets), O_ASYNC on.
 * The counter runs free: no event_limit, so a count never stops between an
 * overflow and its handler, and inherited counters (where the kernel refuses
 * PERF_EVENT_IOC_REFRESH) work too. The signal handler drains every ring of
 * its thread and calls the user's handler once per PERF_RECORD_SAMPLE with
 * that sample's IP, so signals that merge or arrive late lose no overflow.
 * Should the kernel ever disable a counter after an overflow (POLL_HUP,
 * an event_limit ran out) the handler re-enables it with
 * PERF_EVENT_IOC_REFRESH.
 *
 * Software overflow (PAPI_OVERFLOW_FORCE_SW): at PAPI_start a POSIX timer
 * on the starting thread's CPU clock (CLOCK_MONOTONIC for attached sets)
 * sends OVF_SW_SIGNAL to that thread every SW_TICK_NS; the handler reads the
 * counts and calls the user's handler when an event went threshold past
 * the last point it fired. Derived events may overflow this way.
 *
 * A component's events (PAPI 7.0's sde): the component says per event
 * whether it reports each change itself (push: libsde calls
 * papi_sde_check_overflow_status on the thread that increments a counter it
 * created, and ovf_cmp_push calls the handler there when the value passed its
 * deadline) or must be polled (a counter libsde cannot see change): a
 * thread of the set's own reads the set every SW_TICK_NS, and when an event
 * reached its deadline it posts the bits in the set's slot (K_CMP) and sends
 * OVF_SW_SIGNAL to the thread that started the set, whose signal handler
 * calls the user's handler. The reading stays out of signal handlers, so a
 * library's lock is never taken by a handler that interrupted its holder.
 * Deadlines are PAPI 7.0's: an event fires when it passes (push) or reaches
 * (poll) its deadline, which then moves to the next multiple of the
 * threshold above the value; it starts at the threshold.
 *
 * Signal-handler safety: the handlers take no lock and allocate nothing.
 * They find their work in a fixed slot table; a slot is published with an
 * atomic store and claimed with compare-and-swap (LIVE -> BUSY), so a
 * thread that releases a slot never unmaps a ring under a running handler:
 * it waits for a handler of another thread, and hands the unmapping to a
 * handler of its own thread that it interrupted (DEAD).
 */

#define RING_PAGES 2			/* data pages per ring: a power of two */
#define SW_TICK_NS 1000000L		/* software overflow check period */
#define MAX_SLOTS 1024

enum { S_FREE, S_LIVE, S_BUSY, S_DEAD, S_HELD };
enum { K_RING, K_TIMER, K_CMP };

struct slot {
	int use;			/* S_*, atomic */
	int kind;			/* K_RING or K_TIMER */
	pid_t tid;			/* thread the signal goes to */
	int fd;				/* K_RING: the sampled counter */
	int bit;			/* K_RING: its index in es->hw */
	EventSet_t *es;
	struct perf_event_mmap_page *pg;	/* K_RING: the mapping */
	size_t len;
	long long pending;		/* K_CMP: overflow bits the poller found, atomic */
};

struct ovf_ent {
	int code;
	int threshold;
	int bit;			/* es->hw index of the event's first term */
	int ev;				/* index in es->ev, fixed while running */
	long long base;			/* software: count where it last fired */
	long long deadline;		/* component: the value it fires at next */
	int poll;			/* component: polled (1) or pushed (0), atomic */
};

struct ovf_set {
	PAPI_overflow_handler_t handler;
	int sw;				/* PAPI_OVERFLOW_FORCE_SW for the whole set */
	int n, cap;
	struct ovf_ent *ent;
	int armed;			/* atomic: deliver samples (set running) */
	/* software overflow while running */
	timer_t timer;
	int has_timer;
	struct slot *swslot;
	uint64_t *rbuf;
	size_t rbuf_len;
	long long *hwval;
	int nhwval;
	/* a component's events */
	struct slot *cslot;		/* K_CMP, while running */
	pthread_t poller;
	int has_poller;			/* a poller thread to join */
	int poll_stop;			/* atomic: the poller ends */
	long long *pval;		/* the poller's read of the set */
};

static struct slot slots[MAX_SLOTS];
static int slots_hi;			/* atomic: slots below this were used */
static int ncmp_live;			/* atomic: K_CMP slots taken */
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
static int handlers_installed;
static struct sigaction old_hw, old_sw;
static __thread int in_signal;

static pid_t tid_now(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static struct ovf_set *os_of(const EventSet_t *es)
{
	return (struct ovf_set *)es->overflow;
}

int es_event_index(const EventSet_t *es, int code)
{
	for (int e = 0; e < es->nev; e++)
		if (es->ev[e].code == code)
			return e;
	return -1;
}

static void *pc_of(void *uc)
{
	const ucontext_t *u = uc;
	if (!u)
		return NULL;
#if defined(__x86_64__)
	return (void *)u->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
	return (void *)u->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
	return (void *)u->uc_mcontext.pc;
#else
	return NULL;
#endif
}

/* ------------------------------------------------------------------ dispatch */

/* profil.c's histogram (init.c registers it): samples of a set with
 * es->profil go there too. */
PAPI_FIRST_DATA ovf_sample_fn ovf_sample_hook;

static void dispatch(EventSet_t *es, struct ovf_set *os, void *pc, long long vec, void *uc)
{
	PAPI_overflow_handler_t h = os->handler;
	if (h)
		h(es->id, pc, vec, uc);
}

static void ring_copy(void *dst, const unsigned char *data, uint64_t size, uint64_t pos,
		      size_t n)
{
	unsigned char *d = dst;
	for (size_t i = 0; i < n; i++)
		d[i] = data[(pos + i) & (size - 1)];
}

/* Hand every sample in s's ring to the handler (or drop them when the set
 * is not running) and give the space back to the kernel. */
static void ring_drain(struct slot *s, void *uc)
{
	struct perf_event_mmap_page *pg = s->pg;
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t size = pg->data_size ? pg->data_size : s->len - (size_t)psz;
	uint64_t off = pg->data_offset ? pg->data_offset : (uint64_t)psz;
	const unsigned char *data = (const unsigned char *)pg + off;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	EventSet_t *es = s->es;
	struct ovf_set *os = os_of(es);

	if (size == 0 || (size & (size - 1)))
		return;
	while (head - tail >= sizeof(struct perf_event_header)) {
		struct perf_event_header hdr;
		ring_copy(&hdr, data, size, tail, sizeof hdr);
		if (hdr.size < sizeof hdr || hdr.size > head - tail) {
			tail = head;	/* not a record: drop the rest */
			break;
		}
		if (hdr.type == PERF_RECORD_SAMPLE && hdr.size >= sizeof hdr + sizeof(uint64_t) &&
		    os && __atomic_load_n(&os->armed, __ATOMIC_ACQUIRE)) {
			uint64_t ip;
			ring_copy(&ip, data, size, tail + sizeof hdr, sizeof ip);
			ovf_sample_fn take = __atomic_load_n(&ovf_sample_hook, __ATOMIC_ACQUIRE);
			if (es->profil && take)
				take(es, (void *)(uintptr_t)ip, 1LL << s->bit, 1);
			dispatch(es, os, (void *)(uintptr_t)ip, 1LL << s->bit, uc);
			/* the handler may have turned this overflow off */
			if (__atomic_load_n(&s->use, __ATOMIC_ACQUIRE) != S_BUSY) {
				tail += hdr.size;
				break;
			}
		}
		tail += hdr.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* Scaled value of counter h from the group buffer read in the handler. */
static long long scaled(uint64_t count, uint64_t enabled, uint64_t running)
{
	if (running == 0)
		return 0;
	if (running >= enabled)
		return (long long)count;
	unsigned __int128 v = (unsigned __int128)count * enabled / running;
	return v > (unsigned __int128)INT64_MAX ? INT64_MAX : (long long)v;
}

/* One software tick: read the counts, fire for every event past its mark. */
static void sw_tick(EventSet_t *es, struct ovf_set *os, void *uc)
{
	if (!__atomic_load_n(&os->armed, __ATOMIC_ACQUIRE))
		return;
	for (int g = 0; g < es->ngroups; g++) {
		size_t want = (3 + (size_t)es->groups[g].n) * sizeof(uint64_t);
		if (want > os->rbuf_len * sizeof(uint64_t) ||
		    sys->read(es->groups[g].leader, os->rbuf, want) != (ssize_t)want)
			return;
		for (int h = 0; h < es->nhw && h < os->nhwval; h++)
			if (es->hw[h].group == g)
				os->hwval[h] = scaled(os->rbuf[3 + es->hw[h].slot], os->rbuf[1],
						      os->rbuf[2]);
	}
	long long vec = 0;
	void *pc = pc_of(uc);
	for (int i = 0; i < os->n; i++) {
		struct ovf_ent *e = &os->ent[i];
		if (e->ev < 0 || e->ev >= es->nev)
			continue;
		const struct es_event *ev = &es->ev[e->ev];
		long long v;
		if (ev->def.nterms == 1 && ev->def.derived == NOT_DERIVED) {
			v = os->hwval[ev->hw[0]];
		} else {
			long long in[PAPI_EVENTS_IN_DERIVED_EVENT];
			for (int t = 0; t < ev->def.nterms; t++)
				in[t] = os->hwval[ev->hw[t]];
			v = derived_eval(&ev->def, in);
		}
		if (v < e->base)	/* PAPI_reset or PAPI_accum zeroed it */
			e->base = 0;
		long long k = (v - e->base) / e->threshold;
		if (k <= 0)
			continue;
		e->base += k * e->threshold;
		vec |= 1LL << e->bit;
		ovf_sample_fn take = __atomic_load_n(&ovf_sample_hook, __ATOMIC_ACQUIRE);
		if (es->profil && take)
			take(es, pc, 1LL << e->bit, (unsigned long long)k);
	}
	if (vec)
		dispatch(es, os, pc, vec, uc);
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	pid_t me = tid_now();
	int kind = sig == OVF_SW_SIGNAL ? K_TIMER : K_RING;
	int hi = __atomic_load_n(&slots_hi, __ATOMIC_ACQUIRE);
	in_signal = 1;
	for (int i = 0; i < hi; i++) {
		struct slot *s = &slots[i];
		if (__atomic_load_n(&s->use, __ATOMIC_ACQUIRE) != S_LIVE || s->tid != me ||
		    (s->kind != kind && !(kind == K_TIMER && s->kind == K_CMP)))
			continue;
		int exp = S_LIVE;
		if (!__atomic_compare_exchange_n(&s->use, &exp, S_BUSY, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		if (s->tid == me && s->kind == K_CMP) {
			long long vec = __atomic_exchange_n(&s->pending, 0, __ATOMIC_ACQ_REL);
			struct ovf_set *os = os_of(s->es);
			if (vec && os && __atomic_load_n(&os->armed, __ATOMIC_ACQUIRE))
				dispatch(s->es, os, pc_of(uc), vec, uc);
		} else if (s->tid == me && s->kind == kind) {
			if (kind == K_RING) {
				ring_drain(s, uc);
				/* still ours (the handler did not release it) and the
				 * kernel stopped the counter: switch it back on */
				struct ovf_set *os = __atomic_load_n(&s->use, __ATOMIC_ACQUIRE) ==
						S_BUSY ? os_of(s->es) : NULL;
				if (si && si->si_code == POLL_HUP && si->si_fd == s->fd && os &&
				    __atomic_load_n(&os->armed, __ATOMIC_ACQUIRE))
					sys->ioctl(s->fd, PERF_EVENT_IOC_REFRESH, 0);
			} else if (os_of(s->es)) {
				sw_tick(s->es, os_of(s->es), uc);
			}
		}
		exp = S_BUSY;
		if (!__atomic_compare_exchange_n(&s->use, &exp, S_LIVE, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE)) {
			/* released while we ran (S_DEAD): the unmapping is ours */
			if (s->kind == K_RING && s->pg)
				sys->munmap(s->pg, s->len);
			__atomic_store_n(&s->use, S_FREE, __ATOMIC_RELEASE);
		}
	}
	in_signal = 0;
	errno = saved;
}

/* ------------------------------------------------------------------ slots */

static void handlers_restore(void)
{
	pthread_mutex_lock(&slot_lock);
	if (handlers_installed) {
		sigaction(OVF_HW_SIGNAL, &old_hw, NULL);
		sigaction(OVF_SW_SIGNAL, &old_sw, NULL);
		handlers_installed = 0;
	}
	pthread_mutex_unlock(&slot_lock);
}

/* Called with slot_lock held. */
static int handlers_install(void)
{
	if (handlers_installed)
		return PAPI_OK;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, OVF_HW_SIGNAL);
	sigaddset(&sa.sa_mask, OVF_SW_SIGNAL);
	if (sigaction(OVF_HW_SIGNAL, &sa, &old_hw) < 0)
		return PAPI_ESYS;
	if (sigaction(OVF_SW_SIGNAL, &sa, &old_sw) < 0) {
		sigaction(OVF_HW_SIGNAL, &old_hw, NULL);
		return PAPI_ESYS;
	}
	handlers_installed = 1;
	papi_on_shutdown(handlers_restore);
	return PAPI_OK;
}

static struct slot *slot_take(int kind, pid_t tid, EventSet_t *es)
{
	struct slot *s = NULL;
	pthread_mutex_lock(&slot_lock);
	if (handlers_install() != PAPI_OK)
		goto out;
	for (int i = 0; i < MAX_SLOTS; i++) {
		if (__atomic_load_n(&slots[i].use, __ATOMIC_ACQUIRE) == S_FREE) {
			s = &slots[i];
			s->kind = kind;
			s->tid = tid;
			s->es = es;
			s->fd = -1;
			s->pg = NULL;
			s->len = 0;
			__atomic_store_n(&s->use, S_HELD, __ATOMIC_RELEASE);
			if (i + 1 > __atomic_load_n(&slots_hi, __ATOMIC_ACQUIRE))
				__atomic_store_n(&slots_hi, i + 1, __ATOMIC_RELEASE);
			break;
		}
	}
out:
	pthread_mutex_unlock(&slot_lock);
	return s;
}

/* Take s away from the signal handlers and unmap its ring; a handler of
 * this thread that we interrupted inside s finishes the job instead. */
static void slot_release(struct slot *s)
{
	for (;;) {
		int exp = S_LIVE;
		if (__atomic_compare_exchange_n(&s->use, &exp, S_HELD, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE) || exp == S_HELD)
			break;
		if (exp == S_BUSY && in_signal && s->tid == tid_now()) {
			if (__atomic_compare_exchange_n(&s->use, &exp, S_DEAD, 0, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE))
				return;
			continue;
		}
		if (exp == S_FREE || exp == S_DEAD)
			return;
		sched_yield();	/* a handler of another thread is inside s */
	}
	if (s->kind == K_RING && s->pg)
		sys->munmap(s->pg, s->len);
	s->pg = NULL;
	__atomic_store_n(&s->use, S_FREE, __ATOMIC_RELEASE);
}


/* ------------------------------------------------------------------ a component's events */

static void set_state(EventSet_t *es)
{
	if (es->overflow)
		es->state |= PAPI_OVERFLOWING;
	else
		es->state &= ~PAPI_OVERFLOWING;
}

/* The next deadline of an entry whose event reached v. */
static long long next_deadline(const struct ovf_ent *e, long long v)
{
	return (long long)e->threshold * (v / e->threshold) + e->threshold;
}

/* The poller: reads the set every SW_TICK_NS while it runs, posts the bits
 * of the polled events that reached their deadline and signals the thread
 * that started the set. */
static void *cmp_poller(void *arg)
{
	EventSet_t *es = arg;
	struct ovf_set *os = os_of(es);
	struct slot *s = os->cslot;
	pid_t pid = getpid();
	while (!__atomic_load_n(&os->poll_stop, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, SW_TICK_NS };
		nanosleep(&ts, NULL);
		if (__atomic_load_n(&os->poll_stop, __ATOMIC_ACQUIRE) ||
		    !__atomic_load_n(&os->armed, __ATOMIC_ACQUIRE) || cmpset_read(es->cset, os->pval) != PAPI_OK)
			continue;
		long long vec = 0;
		for (int i = 0; i < os->n; i++) {
			struct ovf_ent *e = &os->ent[i];
			if (!__atomic_load_n(&e->poll, __ATOMIC_ACQUIRE) || e->ev < 0 || e->ev >= es->nev)
				continue;
			long long v = os->pval[e->ev];
			if (v >= e->deadline) {
				e->deadline = next_deadline(e, v);
				vec |= 1LL << e->bit;
			}
		}
		if (vec) {
			__atomic_fetch_or(&s->pending, vec, __ATOMIC_ACQ_REL);
			syscall(SYS_tgkill, pid, s->tid, OVF_SW_SIGNAL);
		}
	}
	return NULL;
}

/* Start the poller of a running set (once). */
static int cmp_poll_start(EventSet_t *es, struct ovf_set *os)
{
	if (os->has_poller)
		return PAPI_OK;
	if (!os->pval && !(os->pval = calloc((size_t)es->nev, sizeof *os->pval)))
		return PAPI_ENOMEM;
	__atomic_store_n(&os->poll_stop, 0, __ATOMIC_RELEASE);
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);	/* the poller takes no signal */
	int r = pthread_create(&os->poller, NULL, cmp_poller, es);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r != 0) {
		papi_set_reason("overflow: starting the thread that polls the counters failed: %s",
				strerror(r));
		return PAPI_ESYS;
	}
	os->has_poller = 1;
	return PAPI_OK;
}

/* End the poller; from the user's handler (in_signal) it is only told to,
 * and joined at the next start, change or free of the set. */
static void cmp_poll_stop(struct ovf_set *os)
{
	__atomic_store_n(&os->poll_stop, 1, __ATOMIC_RELEASE);
	if (os->has_poller && !in_signal) {
		pthread_join(os->poller, NULL);
		os->has_poller = 0;
	}
}

static int cmp_start(EventSet_t *es, struct ovf_set *os)
{
	cmp_poll_stop(os);	/* one told to end from a handler */
	int polled = 0;
	for (int i = 0; i < os->n; i++) {
		struct ovf_ent *e = &os->ent[i];
		e->ev = es_event_index(es, e->code);
		e->bit = e->ev;
		/* a polled event counts from the start; a pushed one is the
		 * counter's own value, whose deadline carries on (PAPI 7.0) */
		if (e->poll)
			e->deadline = e->threshold;
		polled |= e->poll;
	}
	struct slot *s = slot_take(K_CMP, papi_gettid(), es);
	if (!s) {
		papi_set_reason("too many overflowing EventSets in this process (at most %d)", MAX_SLOTS);
		return PAPI_ENOMEM;
	}
	s->pending = 0;
	os->cslot = s;
	__atomic_add_fetch(&ncmp_live, 1, __ATOMIC_ACQ_REL);
	__atomic_store_n(&s->use, S_LIVE, __ATOMIC_RELEASE);
	return polled ? cmp_poll_start(es, os) : PAPI_OK;
}

static void cmp_stop(struct ovf_set *os)
{
	cmp_poll_stop(os);
	if (os->cslot) {
		slot_release(os->cslot);
		os->cslot = NULL;
		__atomic_sub_fetch(&ncmp_live, 1, __ATOMIC_ACQ_REL);
	}
}

/* Run fn on each running set of the calling thread that overflows on
 * component c, holding its slot (BUSY) so that no other thread frees it;
 * the user's handler may stop the set meanwhile (in_signal: the release is
 * left to us). */
static void cmp_each(const struct component *c, void (*fn)(EventSet_t *, struct ovf_set *, void *),
		     void *arg)
{
	if (!__atomic_load_n(&ncmp_live, __ATOMIC_ACQUIRE))
		return;
	pid_t me = papi_gettid();
	int hi = __atomic_load_n(&slots_hi, __ATOMIC_ACQUIRE);
	int was = in_signal;
	for (int i = 0; i < hi; i++) {
		struct slot *s = &slots[i];
		if (__atomic_load_n(&s->use, __ATOMIC_ACQUIRE) != S_LIVE || s->tid != me || s->kind != K_CMP)
			continue;
		int exp = S_LIVE;
		if (!__atomic_compare_exchange_n(&s->use, &exp, S_BUSY, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;
		struct ovf_set *os = os_of(s->es);
		if (s->tid == me && s->kind == K_CMP && os && s->es->cset && s->es->cset->c == c &&
		    __atomic_load_n(&os->armed, __ATOMIC_ACQUIRE)) {
			in_signal = 1;
			fn(s->es, os, arg);
			in_signal = was;
		}
		exp = S_BUSY;
		if (!__atomic_compare_exchange_n(&s->use, &exp, S_LIVE, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			__atomic_store_n(&s->use, S_FREE, __ATOMIC_RELEASE);	/* released meanwhile */
	}
}

struct push_arg {
	int ev;
	long long value;
};

/* The handler, given this thread's context as PAPI 7.0 gives it. */
static __attribute__((noinline)) void push_dispatch(EventSet_t *es, struct ovf_set *os, long long vec)
{
	ucontext_t uc;
	getcontext(&uc);
	dispatch(es, os, __builtin_return_address(0), vec, &uc);
}

static void push_one(EventSet_t *es, struct ovf_set *os, void *arg)
{
	const struct push_arg *p = arg;
	long long vec = 0;
	for (int i = 0; i < os->n; i++) {
		struct ovf_ent *e = &os->ent[i];
		if (__atomic_load_n(&e->poll, __ATOMIC_ACQUIRE) || e->ev < 0 || e->ev >= es->cset->n ||
		    es->cset->ev[e->ev] != p->ev || p->value <= e->deadline)
			continue;
		e->deadline = next_deadline(e, p->value);
		vec |= 1LL << e->bit;
	}
	if (vec)
		push_dispatch(es, os, vec);
}

/* Component c says its event ev now has value (cmp_set_overflow_hooks). */
void ovf_cmp_push(const struct component *c, int ev, long long value)
{
	struct push_arg a = { ev, value };
	cmp_each(c, push_one, &a);
}

static void poll_one(EventSet_t *es, struct ovf_set *os, void *arg)
{
	(void)arg;
	int polled = 0;
	for (int i = 0; i < os->n; i++) {
		struct ovf_ent *e = &os->ent[i];
		if (!e->poll && e->ev >= 0 && es->cset->c->overflow_polled &&
		    es->cset->c->overflow_polled(es->cset, e->ev)) {
			e->deadline = e->threshold;
			__atomic_store_n(&e->poll, 1, __ATOMIC_RELEASE);
		}
		polled |= e->poll;
	}
	if (polled && !os->has_poller && cmp_poll_start(es, os) != PAPI_OK)
		DBG("overflow: the poller of EventSet %d did not start\n", es->id);
}

/* Component c says an event set to overflow now needs polling. */
void ovf_cmp_poll(const struct component *c)
{
	cmp_each(c, poll_one, NULL);
}

/* PAPI_overflow on a set of a component other than perf_event. */
static int cmp_configure(EventSet_t *es, int code, int threshold, int flags,
			 PAPI_overflow_handler_t handler)
{
	struct ovf_set *os = os_of(es);
	const struct component *c = es->cset->c;
	int e = es_event_index(es, code);
	if (e < 0)
		return PAPI_ENOEVNT;
	if (e >= 64)
		return PAPI_ECNFLCT;	/* no bit of the overflow vector for it */
	int i = 0;
	if (os) {
		cmp_poll_stop(os);
		for (i = 0; i < os->n; i++)
			if (os->ent[i].code == code)
				break;
	}
	if (threshold == 0) {
		if (!os || i == os->n)
			return PAPI_EINVAL;
		c->overflow(es->cset, e, 0);
		memmove(&os->ent[i], &os->ent[i + 1], (size_t)(os->n - i - 1) * sizeof *os->ent);
		if (--os->n == 0)
			ovf_free(es);
		set_state(es);
		return PAPI_OK;
	}
	int kind = c->overflow(es->cset, e, threshold);
	if (kind < 0)
		return kind;
	if (flags & PAPI_OVERFLOW_FORCE_SW)
		kind = CMP_OVF_POLL;
	if (!os) {
		if (!(os = calloc(1, sizeof *os)))
			return PAPI_ENOMEM;
		es->overflow = os;
	}
	if (i == os->n && os->n == os->cap) {
		int cap = os->cap ? os->cap * 2 : 4;
		struct ovf_ent *n = realloc(os->ent, (size_t)cap * sizeof *n);
		if (!n) {
			if (!os->n)
				ovf_free(es);
			return PAPI_ENOMEM;
		}
		os->ent = n;
		os->cap = cap;
	}
	os->ent[i] = (struct ovf_ent){ .code = code, .threshold = threshold, .bit = e, .ev = e,
				       .deadline = threshold, .poll = kind == CMP_OVF_POLL };
	if (i == os->n)
		os->n++;
	os->handler = handler;
	set_state(es);
	return PAPI_OK;
}

/* ------------------------------------------------------------------ eventset hooks */

/* The entry sampling counter h, or NULL. */
static const struct ovf_ent *ent_for_hw(const EventSet_t *es, int h)
{
	const struct ovf_set *os = os_of(es);
	if (!os || os->sw)
		return NULL;
	for (int i = 0; i < os->n; i++) {
		int e = es_event_index(es, os->ent[i].code);
		if (e >= 0 && es->ev[e].hw[0] == h)
			return &os->ent[i];
	}
	return NULL;
}

void ovf_attr(const EventSet_t *es, int h, struct perf_event_attr *a)
{
	const struct ovf_ent *e = ent_for_hw(es, h);
	if (!e)
		return;
	a->sample_period = (uint64_t)e->threshold;
	a->sample_type = PERF_SAMPLE_IP;
	a->wakeup_events = 1;
	a->watermark = 0;
}

int ovf_fd_open(EventSet_t *es, int h)
{
	if (!ent_for_hw(es, h))
		return PAPI_OK;
	int fd = es->hw[h].fd;
	size_t len = (size_t)(1 + RING_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	void *pg = sys->mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		int err = errno;
		papi_set_reason("mapping the sample buffer of counter %d failed: %s", h,
				strerror(err));
		return err == ENOMEM || err == EPERM ? PAPI_ENOMEM : PAPI_ESYS;
	}
	pid_t tid = es->attach || es->cpu >= 0 ? es->owner : papi_gettid();
	struct slot *s = slot_take(K_RING, tid, es);
	if (!s) {
		sys->munmap(pg, len);
		papi_set_reason("too many overflowing counters in this process (at most %d)",
				MAX_SLOTS);
		return PAPI_ENOMEM;
	}
	s->fd = fd;
	s->bit = h;
	s->pg = pg;
	s->len = len;
	__atomic_store_n(&s->use, S_LIVE, __ATOMIC_RELEASE);
	struct f_owner_ex own = { .type = F_OWNER_TID, .pid = tid };
	int fl = sys->fcntl(fd, F_GETFL, 0);
	if (fl < 0 || sys->fcntl(fd, F_SETSIG, OVF_HW_SIGNAL) < 0 ||
	    sys->fcntl(fd, F_SETOWN_EX, (long)(uintptr_t)&own) < 0 ||
	    sys->fcntl(fd, F_SETFL, fl | O_ASYNC) < 0) {
		papi_set_reason("routing the overflow signal of counter %d failed: %s", h,
				strerror(errno));
		slot_release(s);
		return PAPI_ESYS;
	}
	return PAPI_OK;
}

void ovf_fd_close_all(EventSet_t *es)
{
	int hi = __atomic_load_n(&slots_hi, __ATOMIC_ACQUIRE);
	for (int i = 0; i < hi; i++) {
		struct slot *s = &slots[i];
		int u = __atomic_load_n(&s->use, __ATOMIC_ACQUIRE);
		if (u != S_FREE && u != S_DEAD && s->es == es && s->kind == K_RING)
			slot_release(s);
	}
}

/* ------------------------------------------------------------------ start / stop */

static int sw_arm(EventSet_t *es, struct ovf_set *os)
{
	size_t need = 3;
	for (int g = 0; g < es->ngroups; g++)
		if (3 + (size_t)es->groups[g].n > need)
			need = 3 + (size_t)es->groups[g].n;
	if (need > os->rbuf_len) {
		uint64_t *b = realloc(os->rbuf, need * sizeof *b);
		if (!b)
			return PAPI_ENOMEM;
		os->rbuf = b;
		os->rbuf_len = need;
	}
	if (es->nhw > os->nhwval) {
		long long *v = realloc(os->hwval, (size_t)es->nhw * sizeof *v);
		if (!v)
			return PAPI_ENOMEM;
		os->hwval = v;
		os->nhwval = es->nhw;
	}
	memset(os->hwval, 0, (size_t)os->nhwval * sizeof *os->hwval);
	pid_t tid = papi_gettid();
	struct slot *s = slot_take(K_TIMER, tid, es);
	if (!s)
		return PAPI_ENOMEM;
	struct sigevent sev;
	memset(&sev, 0, sizeof sev);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = OVF_SW_SIGNAL;
#ifdef sigev_notify_thread_id
	sev.sigev_notify_thread_id = tid;
#else
	sev._sigev_un._tid = tid;
#endif
	clockid_t clk = es->attach || es->cpu >= 0 ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
	if (timer_create(clk, &sev, &os->timer) < 0) {
		papi_set_reason("software overflow: timer_create failed: %s", strerror(errno));
		slot_release(s);
		return PAPI_ESYS;
	}
	os->has_timer = 1;
	os->swslot = s;
	__atomic_store_n(&s->use, S_LIVE, __ATOMIC_RELEASE);
	struct itimerspec its = { .it_interval = { 0, SW_TICK_NS }, .it_value = { 0, SW_TICK_NS } };
	if (timer_settime(os->timer, 0, &its, NULL) < 0) {
		papi_set_reason("software overflow: timer_settime failed: %s", strerror(errno));
		return PAPI_ESYS;	/* ovf_stop undoes the rest */
	}
	return PAPI_OK;
}

int ovf_start(EventSet_t *es)
{
	struct ovf_set *os = os_of(es);
	if (!os)
		return PAPI_OK;
	if (es->cset) {
		int ret = cmp_start(es, os);
		if (ret == PAPI_OK)
			__atomic_store_n(&os->armed, 1, __ATOMIC_RELEASE);
		else
			cmp_stop(os);
		return ret;
	}
	for (int i = 0; i < os->n; i++) {
		struct ovf_ent *e = &os->ent[i];
		e->ev = es_event_index(es, e->code);
		e->bit = e->ev >= 0 ? es->ev[e->ev].hw[0] : 0;
		e->base = 0;
	}
	if (os->sw) {
		int ret = sw_arm(es, os);
		if (ret != PAPI_OK) {
			ovf_stop(es);
			return ret;
		}
	} else {
		/* forget samples of an earlier run; restart each period */
		int hi = __atomic_load_n(&slots_hi, __ATOMIC_ACQUIRE);
		for (int i = 0; i < hi; i++) {
			struct slot *s = &slots[i];
			if (__atomic_load_n(&s->use, __ATOMIC_ACQUIRE) != S_LIVE || s->es != es ||
			    s->kind != K_RING)
				continue;
			const struct ovf_ent *e = ent_for_hw(es, s->bit);
			uint64_t period = e ? (uint64_t)e->threshold : 0;
			if (period)
				sys->ioctl(s->fd, PERF_EVENT_IOC_PERIOD, (unsigned long)(uintptr_t)&period);
			__atomic_store_n(&s->pg->data_tail,
					 __atomic_load_n(&s->pg->data_head, __ATOMIC_ACQUIRE),
					 __ATOMIC_RELEASE);
		}
	}
	__atomic_store_n(&os->armed, 1, __ATOMIC_RELEASE);
	return PAPI_OK;
}

void ovf_stop(EventSet_t *es)
{
	struct ovf_set *os = os_of(es);
	if (!os)
		return;
	__atomic_store_n(&os->armed, 0, __ATOMIC_RELEASE);
	cmp_stop(os);
	if (os->has_timer) {
		timer_delete(os->timer);
		os->has_timer = 0;
	}
	if (os->swslot) {
		slot_release(os->swslot);
		os->swslot = NULL;
	}
}

/* ------------------------------------------------------------------ configuration */

/* Sampling must be redone when a kernel-overflow entry changes. */
static int reopen_or_restore(EventSet_t *es, struct ovf_set *os, const struct ovf_ent *saved,
			     int nsaved)
{
	int ret = es_reopen(es);
	if (ret == PAPI_OK)
		return PAPI_OK;
	/* put the previous entries back and reopen as it was */
	memcpy(os->ent, saved, (size_t)nsaved * sizeof *saved);
	os->n = nsaved;
	if (es_reopen(es) != PAPI_OK)
		DBG("overflow: counters could not be reopened after a failed change\n");
	return ret;
}


int ovf_configure(EventSet_t *es, int code, int threshold, int flags,
		  PAPI_overflow_handler_t handler)
{
	struct ovf_set *os = os_of(es);
	int sw = (flags & PAPI_OVERFLOW_FORCE_SW) ? 1 : 0;
	int e = es_event_index(es, code);
	if (e < 0)
		return PAPI_ENOEVNT;
	if (threshold < 0)
		return PAPI_EINVAL;
	const struct derived_def *d = &es->ev[e].def;
	if (threshold > 0 && !sw && d->nterms != 1)
		return PAPI_EINVAL;	/* the kernel samples one counter, not a formula */
	int i = 0;
	if (os)
		for (i = 0; i < os->n; i++)
			if (os->ent[i].code == code)
				break;
	if (threshold == 0) {
		if (!os || i == os->n)
			return PAPI_EINVAL;
		struct ovf_ent saved[os->n];
		int nsaved = os->n;
		memcpy(saved, os->ent, (size_t)nsaved * sizeof *saved);
		memmove(&os->ent[i], &os->ent[i + 1], (size_t)(os->n - i - 1) * sizeof *os->ent);
		os->n--;
		if (os->n == 0) {
			int was_sw = os->sw;
			ovf_free(es);
			set_state(es);
			return was_sw ? PAPI_OK : es_reopen(es);
		}
		return os->sw ? PAPI_OK : reopen_or_restore(es, os, saved, nsaved);
	}
	int h = es->ev[e].hw[0];
	if (h >= 64)
		return PAPI_ECNFLCT;	/* no bit of the overflow vector for it */
	if (os && os->n > 0 && os->sw != sw)
		return PAPI_ECNFLCT;	/* one kind of overflow per set */
	if (os && !sw)
		for (int j = 0; j < os->n; j++) {
			int ej = es_event_index(es, os->ent[j].code);
			if (j != i && ej >= 0 && es->ev[ej].hw[0] == h &&
			    os->ent[j].threshold != threshold)
				return PAPI_ECNFLCT;	/* one period per counter */
		}
	int fresh = !os;
	if (fresh) {
		os = calloc(1, sizeof *os);
		if (!os)
			return PAPI_ENOMEM;
		os->sw = sw;
		es->overflow = os;
	}
	if (i == os->n && os->n == os->cap) {
		int cap = os->cap ? os->cap * 2 : 4;
		struct ovf_ent *n = realloc(os->ent, (size_t)cap * sizeof *n);
		if (!n) {
			if (fresh)
				ovf_free(es);
			return PAPI_ENOMEM;
		}
		os->ent = n;
		os->cap = cap;
	}
	int nsaved = os->n;
	struct ovf_ent saved[nsaved > 0 ? nsaved : 1];
	memcpy(saved, os->ent, (size_t)nsaved * sizeof *saved);
	int changed = i == os->n || os->ent[i].threshold != threshold;
	os->ent[i] = (struct ovf_ent){ .code = code, .threshold = threshold, .bit = h, .ev = e };
	if (i == os->n)
		os->n++;
	os->sw = sw;
	if (!sw && changed) {
		int ret = reopen_or_restore(es, os, saved, nsaved);
		if (ret != PAPI_OK) {
			if (fresh)
				ovf_free(es);	/* reopened without sampling already */
			set_state(es);
			return ret;
		}
	}
	if (handler)
		os->handler = handler;
	set_state(es);
	return PAPI_OK;
}

void ovf_forget(EventSet_t *es, int code)
{
	struct ovf_set *os = os_of(es);
	if (!os)
		return;
	for (int i = 0; i < os->n; i++)
		if (os->ent[i].code == code) {
			memmove(&os->ent[i], &os->ent[i + 1],
				(size_t)(os->n - i - 1) * sizeof *os->ent);
			os->n--;
			break;
		}
	if (os->n == 0) {
		ovf_fd_close_all(es);
		ovf_free(es);
	}
	set_state(es);
}

void ovf_free(EventSet_t *es)
{
	struct ovf_set *os = os_of(es);
	if (!os)
		return;
	ovf_stop(es);
	ovf_fd_close_all(es);
	es->overflow = NULL;
	free(os->ent);
	free(os->pval);
	free(os->rbuf);
	free(os->hwval);
	free(os);
}

/* ------------------------------------------------------------------ public API */

/* PAPI_overflow: call handler(EventSet, PC, overflow_vector, ucontext) each
 * time EventCode (already in the set) counts threshold more events; a
 * threshold of 0 turns it off again. Bit h of overflow_vector is the set's
 * h-th perf counter (counters are numbered in the order their native events
 * first entered the set); PAPI_get_overflow_event_index maps bits to event
 * positions. flags: 0 (kernel sampling) or PAPI_OVERFLOW_FORCE_SW (timer);
 * other bits are ignored as in PAPI 7. One handler per set: a later call
 * replaces it. The handler runs in a signal handler on the thread that
 * counts the set and must not change the set's overflow setup itself.
 * PAPI_ENOINIT, PAPI_ENOEVST, PAPI_EISRUN (set counting), PAPI_ENOEVNT
 * (event not in the set), PAPI_EINVAL (threshold < 0; NULL handler or
 * threshold 0 while the set has no overflow; threshold 0 for an event that
 * does not overflow; kernel overflow of a derived event of several terms),
 * PAPI_ECNFLCT (kernel and software overflow mixed in one set, two
 * thresholds for one counter, counter index >= 64), PAPI_ENOMEM, and what
 * reopening the counters with sampling returns (PAPI_ENOSUPP when the PMU
 * cannot sample, PAPI_EPERM, ...). A set of another component's events
 * (sde) overflows as that component allows (see "A component's events"
 * above; bit i is the set's i-th event): PAPI_ECMP for a component whose
 * events do not overflow, PAPI_EINVAL for an event of it that does not (a
 * recorder). */
static int overflow_impl(int EventSet, int EventCode, int threshold, int flags,
			 PAPI_overflow_handler_t handler)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	EventSet_t *es = es_lookup(EventSet);
	if (!es)
		return PAPI_ENOEVST;
	if (es->state & PAPI_RUNNING)
		return PAPI_EISRUN;
	if (es_event_index(es, EventCode) < 0)
		return PAPI_ENOEVNT;
	if (threshold < 0)
		return PAPI_EINVAL;
	if (es->cset && !es->cset->c->overflow) {
		papi_set_reason("PAPI_overflow: the events of component %s do not overflow",
				es->cset->c->name);
		return PAPI_ECMP;
	}
	if (!es->overflow && (threshold == 0 || !handler))
		return PAPI_EINVAL;
	if (threshold > 0 && !handler && !os_of(es)->handler)
		return PAPI_EINVAL;
	papi_clear_reason();
	if (es->cset)
		return cmp_configure(es, EventCode, threshold, flags, handler ? handler : os_of(es)->handler);
	return ovf_configure(es, EventCode, threshold, flags, handler);
}

/* PAPI_get_overflow_event_index: the positions in the set of the events
 * behind the bits of overflow_vector, lowest bit first, at most *number of
 * them; *number becomes how many were stored. PAPI_ENOINIT, PAPI_ENOEVST,
 * PAPI_EINVAL (vector 0, NULL array or number, *number < 1, empty set). */
static int overflow_index_impl(int EventSet, long long overflow_vector, int *array,
			       int *number)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	EventSet_t *es = es_lookup(EventSet);
	if (!es)
		return PAPI_ENOEVST;
	if (!array || !number || *number < 1 || overflow_vector == 0 || es->nev == 0)
		return PAPI_EINVAL;
	const struct ovf_set *os = os_of(es);
	int n = 0;
	for (int b = 0; b < 64 && n < *number; b++) {
		if (!((unsigned long long)overflow_vector & (1ULL << b)))
			continue;
		if (es->cset) {	/* bit b is the set's event b */
			if (b < es->nev)
				array[n++] = b;
			continue;
		}
		int found = 0;
		/* events set to overflow on counter b first, then any on it */
		for (int i = 0; os && i < os->n && n < *number; i++) {
			int e = es_event_index(es, os->ent[i].code);
			if (e >= 0 && es->ev[e].hw[0] == b) {
				array[n++] = e;
				found = 1;
			}
		}
		for (int e = 0; !found && e < es->nev; e++)
			if (es->ev[e].hw[0] == b) {
				array[n++] = e;
				found = 1;
			}
	}
	*number = n;
	return PAPI_OK;
}

/* The public entry points run in flight (es_enter/es_leave) so a concurrent
 * PAPI_shutdown cannot free the set under them. */
int PAPI_overflow(int EventSet, int EventCode, int threshold, int flags,
		  PAPI_overflow_handler_t handler)
{
	int ret = es_enter();
	if (ret != PAPI_OK)
		return ret;
	ret = overflow_impl(EventSet, EventCode, threshold, flags, handler);
	es_leave();
	return ret;
}

int PAPI_get_overflow_event_index(int EventSet, long long overflow_vector, int *array,
				  int *number)
{
	int ret = es_enter();
	if (ret != PAPI_OK)
		return ret;
	ret = overflow_index_impl(EventSet, overflow_vector, array, number);
	es_leave();
	return ret;
}

/* ------------------------------------------------------------------ eventset hooks */

static void hook_attr(const EventSet_t *es, int h, struct perf_event_attr *a)
{
	if (es->overflow)
		ovf_attr(es, h, a);
}

static int hook_opened(EventSet_t *es, int h)
{
	return es->overflow ? ovf_fd_open(es, h) : PAPI_OK;
}

static void hook_closing_all(EventSet_t *es)
{
	if (es->overflow)
		ovf_fd_close_all(es);
}

static void hook_forget(EventSet_t *es, int code)
{
	if (es->overflow)
		ovf_forget(es, code);
}

const struct es_hooks ovf_es_hooks = {
	.attr = hook_attr,
	.opened = hook_opened,
	.closing_all = hook_closing_all,
	.forget = hook_forget,
	.release = ovf_free,
};

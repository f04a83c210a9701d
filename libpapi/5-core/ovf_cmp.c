/* ovf_cmp.c: overflow on a component's events (sde): pushed by the component as a counter changes, or polled by a thread of the set's own. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "5-core/ovf.h"

/*
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
 */

static int ncmp_live;			/* atomic: K_CMP slots taken */

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
	struct ovf_set *os = ovf_of(es);
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

/* End the poller; from the user's handler (ovf_in_signal) it is only told to,
 * and joined at the next start, change or free of the set. */
void ovf_cmp_poll_stop(struct ovf_set *os)
{
	__atomic_store_n(&os->poll_stop, 1, __ATOMIC_RELEASE);
	if (os->has_poller && !ovf_in_signal) {
		pthread_join(os->poller, NULL);
		os->has_poller = 0;
	}
}

/* The set's signal: call the user's handler with the bits the poller posted. */
static void cmp_fire(struct slot *s, siginfo_t *si, void *uc)
{
	long long vec = __atomic_exchange_n(&s->pending, 0, __ATOMIC_ACQ_REL);
	struct ovf_set *os = ovf_of(s->es);
	if (vec && os && __atomic_load_n(&os->armed, __ATOMIC_ACQUIRE))
		ovf_dispatch(s->es, os, ovf_pc_of(uc), vec, uc);
}

int ovf_cmp_start(EventSet_t *es, struct ovf_set *os)
{
	ovf_cmp_poll_stop(os);	/* one told to end from a handler */
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
	struct slot *s = ovf_slot_take(K_CMP, cmp_fire, papi_gettid(), es);
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

void ovf_cmp_stop(struct ovf_set *os)
{
	ovf_cmp_poll_stop(os);
	if (os->cslot) {
		ovf_slot_release(os->cslot);
		os->cslot = NULL;
		__atomic_sub_fetch(&ncmp_live, 1, __ATOMIC_ACQ_REL);
	}
}

/* Run fn on each running set of the calling thread that overflows on
 * component c, holding its slot (BUSY) so that no other thread frees it;
 * the user's handler may stop the set meanwhile (ovf_in_signal: the release is
 * left to us). */
static void cmp_each(const struct component *c, void (*fn)(EventSet_t *, struct ovf_set *, void *),
		     void *arg)
{
	if (!__atomic_load_n(&ncmp_live, __ATOMIC_ACQUIRE))
		return;
	pid_t me = papi_gettid();
	int hi = ovf_slots_hi();
	int was = ovf_in_signal;
	for (int i = 0; i < hi; i++) {
		struct slot *s = &ovf_slots[i];
		if (__atomic_load_n(&s->use, __ATOMIC_ACQUIRE) != S_LIVE || s->tid != me || s->kind != K_CMP)
			continue;
		int exp = S_LIVE;
		if (!__atomic_compare_exchange_n(&s->use, &exp, S_BUSY, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;
		struct ovf_set *os = ovf_of(s->es);
		if (s->tid == me && s->kind == K_CMP && os && s->es->cset && s->es->cset->c == c &&
		    __atomic_load_n(&os->armed, __ATOMIC_ACQUIRE)) {
			ovf_in_signal = 1;
			fn(s->es, os, arg);
			ovf_in_signal = was;
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
	ovf_dispatch(es, os, __builtin_return_address(0), vec, &uc);
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

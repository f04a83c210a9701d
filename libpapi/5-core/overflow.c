/* overflow.c: PAPI_overflow: an EventSet's overflow set up, started and stopped, over kernel sampling (ovf_kernel), software overflow (ovf_soft) and a component's events (ovf_cmp). */
#include <stdlib.h>
#include <string.h>

#include "5-core/ovf.h"

/* How each kind works is said at the top of its module; ovf.h says how they
 * share the signal handlers. */

static void set_state(EventSet_t *es)
{
	if (es->overflow)
		es->state |= PAPI_OVERFLOWING;
	else
		es->state &= ~PAPI_OVERFLOWING;
}

/* ------------------------------------------------------------------ a component's events */

/* PAPI_overflow on a set of a component other than perf_event. */
static int cmp_configure(EventSet_t *es, int code, int threshold, int flags,
			 PAPI_overflow_handler_t handler)
{
	struct ovf_set *os = ovf_of(es);
	const struct component *c = es->cset->c;
	int e = es_event_index(es, code);
	if (e < 0)
		return PAPI_ENOEVNT;
	if (e >= 64)
		return PAPI_ECNFLCT;	/* no bit of the overflow vector for it */
	int i = 0;
	if (os) {
		ovf_cmp_poll_stop(os);
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

/* ------------------------------------------------------------------ start / stop */

void ovf_prime(EventSet_t *es)
{
	struct ovf_set *os = ovf_of(es);
	if (os && !es->cset && !os->sw)
		ovf_kernel_restart(es);
}

int ovf_start(EventSet_t *es)
{
	struct ovf_set *os = ovf_of(es);
	if (!os)
		return PAPI_OK;
	if (es->cset) {
		int ret = ovf_cmp_start(es, os);
		if (ret == PAPI_OK)
			__atomic_store_n(&os->armed, 1, __ATOMIC_RELEASE);
		else
			ovf_cmp_stop(os);
		return ret;
	}
	for (int i = 0; i < os->n; i++) {
		struct ovf_ent *e = &os->ent[i];
		e->ev = es_event_index(es, e->code);
		e->bit = e->ev >= 0 ? es->ev[e->ev].hw[0] : 0;
		e->base = 0;
	}
	if (os->sw) {
		int ret = ovf_soft_arm(es, os);
		if (ret != PAPI_OK) {
			ovf_stop(es);
			return ret;
		}
	}
	__atomic_store_n(&os->armed, 1, __ATOMIC_RELEASE);
	return PAPI_OK;
}

void ovf_stop(EventSet_t *es)
{
	struct ovf_set *os = ovf_of(es);
	if (!os)
		return;
	__atomic_store_n(&os->armed, 0, __ATOMIC_RELEASE);
	ovf_cmp_stop(os);
	ovf_soft_disarm(os);
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
	struct ovf_set *os = ovf_of(es);
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
	struct ovf_set *os = ovf_of(es);
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
	struct ovf_set *os = ovf_of(es);
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
	if (threshold > 0 && !handler && !ovf_of(es)->handler)
		return PAPI_EINVAL;
	papi_clear_reason();
	if (es->cset)
		return cmp_configure(es, EventCode, threshold, flags, handler ? handler : ovf_of(es)->handler);
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
	const struct ovf_set *os = ovf_of(es);
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
	return ES_IN_FLIGHT(overflow_impl(EventSet, EventCode, threshold, flags, handler));
}

int PAPI_get_overflow_event_index(int EventSet, long long overflow_vector, int *array,
				  int *number)
{
	return ES_IN_FLIGHT(overflow_index_impl(EventSet, overflow_vector, array, number));
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

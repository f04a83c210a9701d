/* ovf_soft.c: software overflow (PAPI_OVERFLOW_FORCE_SW): a timer of the counting thread reads the counts and fires for each event past its threshold. */
#include <errno.h>
#include <string.h>
#include <stdlib.h>

#include "5-core/ovf.h"

/*
 * Software overflow (PAPI_OVERFLOW_FORCE_SW): at PAPI_start a POSIX timer
 * on the starting thread's CPU clock (CLOCK_MONOTONIC for attached sets)
 * sends OVF_SW_SIGNAL to that thread every SW_TICK_NS; the handler reads the
 * counts and calls the user's handler when an event went threshold past
 * the last point it fired. Derived events may overflow this way.
 */

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
				os->hwval[h] = es_scale(os->rbuf[3 + es->hw[h].slot],
						      es_cpu_only(es, &es->groups[g]) ? os->rbuf[2] : os->rbuf[1],
						      os->rbuf[2]);
	}
	long long vec = 0;
	void *pc = ovf_pc_of(uc);
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
		ovf_dispatch(es, os, pc, vec, uc);
}

static void soft_fire(struct slot *s, siginfo_t *si, void *uc)
{
	if (ovf_of(s->es))
		sw_tick(s->es, ovf_of(s->es), uc);
}

int ovf_soft_arm(EventSet_t *es, struct ovf_set *os)
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
	struct slot *s = ovf_slot_take(K_TIMER, soft_fire, tid, es);
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
		ovf_slot_release(s);
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

void ovf_soft_disarm(struct ovf_set *os)
{
	if (os->has_timer) {
		timer_delete(os->timer);
		os->has_timer = 0;
	}
	if (os->swslot) {
		ovf_slot_release(os->swslot);
		os->swslot = NULL;
	}
}

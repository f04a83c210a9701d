/* counting.c: start, stop, read, accum, reset and write: one group ioctl or read() per PMU group. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "5-core/core.h"

/* One ioctl per group leader. Members are opened enabled and the leader
 * alone is switched: a group counts only while its leader is enabled.
 * Switching the members too (PERF_IOC_FLAG_GROUP) loses counts: the kernel
 * enables the leader, schedules the group in without the still-disabled
 * members, and then, enabling each member, reschedules only that member's
 * own PMU context, which for a group of mixed software PMUs (task-clock
 * with page-faults, say) does not hold the group. The member stays idle
 * until the next context switch: seen on 6.18 as 0 to 16,000 of 16,384
 * page faults after a restart. RESET still takes the whole group. */
static int group_ioctl(EventSet_t *es, unsigned long req)
{
	unsigned long flag = req == PERF_EVENT_IOC_RESET ? PERF_IOC_FLAG_GROUP : 0;
	for (int g = 0; g < es->ngroups; g++)
		if (sys->ioctl(es->groups[g].leader, req, flag) < 0)
			return PAPI_ESYS;
	return PAPI_OK;
}

/* ---- llapi: exact scaling from deltas -------------------------------------
 * The kernel never zeroes time_enabled/time_running, and a multiplexed
 * counter's estimate count*enabled/running may shrink between two reads. So
 * every counter keeps the raw triple of its last start/reset/accum (its base)
 * and the value last returned: a read scales the deltas since the base and
 * never returns less than before. */

/* One read() per group, or every group from user space (rdpmc.c): the raw
 * count, enabled and running time per counter, each group's times kept
 * (read_en, read_run: es_last_times).
 * Each group lands at its own offset of one buffer: a single pass then maps
 * counters to values, linear even with one group per counter (multiplexing). */
static int read_raw(EventSet_t *es, uint64_t *cnt, uint64_t *en, uint64_t *run)
{
	if (mpx_sw_slice(es)) {
		/* each counter its own group: the group's times are the counter's */
		int ret = mpx_read_raw(es, cnt, en, run);
		for (int h = 0; ret == PAPI_OK && h < es->nhw; h++)
			if (es->hw[h].fd >= 0 && es->hw[h].group < es->ngroups) {
				/* on one CPU: scaled for its slice's share of
				 * the time, which rotation knows, not for the
				 * task's time elsewhere (es_cpu_only) */
				if (es_cpu_only(es, &es->groups[es->hw[h].group]))
					run[h] = en[h];
				es->groups[es->hw[h].group].read_en = en[h];
				es->groups[es->hw[h].group].read_run = run[h];
			}
		return ret;
	}
	int ng = es->ngroups > 0 ? es->ngroups : 1;
	size_t off[ng], total = 0;
	for (int g = 0; g < es->ngroups; g++) {
		off[g] = total;
		total += 3 + (size_t)es->groups[g].n;
	}
	uint64_t buf[total > 0 ? total : 1];
	int user = es->npages > 0 && rdpmc_read(es, buf, off);
	for (int g = 0; !user && g < es->ngroups; g++) {
		size_t want = (3 + (size_t)es->groups[g].n) * sizeof(uint64_t);
		ssize_t got = sys->read(es->groups[g].leader, buf + off[g], want);
		if (got != (ssize_t)want) {
			papi_set_reason("reading counters failed: %s",
					got < 0 ? strerror(errno) : "short read");
			return PAPI_ESYS;
		}
	}
	for (int g = 0; g < es->ngroups; g++) {
		if (es_cpu_only(es, &es->groups[g]))
			buf[off[g] + 1] = buf[off[g] + 2];
		es->groups[g].read_en = buf[off[g] + 1];
		es->groups[g].read_run = buf[off[g] + 2];
	}
	for (int h = 0; h < es->nhw; h++) {
		if (es->hw[h].fd < 0 || es->hw[h].group >= es->ngroups)
			continue;
		const uint64_t *b = buf + off[es->hw[h].group];
		cnt[h] = b[3 + es->hw[h].slot];
		en[h] = b[1];
		run[h] = b[2];
	}
	return PAPI_OK;
}

static uint64_t delta(uint64_t now, uint64_t base)
{
	return now > base ? now - base : 0;
}

/* Read every group into es->hwval. With rebase, the values read become the
 * zero of the next reads (PAPI_accum: not one event lost in between). */
/* The common case, one group and no software multiplexing: one read() (or
 * the user-space read of rdpmc.c, same layout) into
 * a stack buffer and one pass, the same arithmetic as below (a counter
 * without a descriptor reads as zero). */
#define FAST_MAX 32
PAPI_HOT static int read_one_group(EventSet_t *es, int rebase)
{
	uint64_t buf[3 + FAST_MAX];
	size_t want = (3 + (size_t)es->groups[0].n) * sizeof(uint64_t);
	ssize_t got = es->npages > 0 && rdpmc_read(es, buf, NULL) ? (ssize_t)want
						: sys->read(es->groups[0].leader, buf, want);
	if (got != (ssize_t)want) {
		papi_set_reason("reading counters failed: %s", got < 0 ? strerror(errno) : "short read");
		return PAPI_ESYS;
	}
	if (es_cpu_only(es, &es->groups[0]))
		buf[1] = buf[2];
	es->groups[0].read_en = buf[1];
	es->groups[0].read_run = buf[2];
	for (int h = 0; h < es->nhw; h++) {
		struct es_hw *hw = &es->hw[h];
		uint64_t c = 0, en = 0, run = 0;
		if (hw->fd >= 0 && hw->group == 0) {
			c = buf[3 + hw->slot];
			en = buf[1];
			run = buf[2];
		}
		long long v = es_scale(delta(c, hw->base_count), delta(en, hw->base_en),
				    delta(run, hw->base_run));
		if (v < hw->last)
			v = hw->last;
		es->hwval[h] = v;
		hw->last = v;
		if (rebase) {
			hw->base_count = c;
			hw->base_en = en;
			hw->base_run = run;
			hw->last = 0;
		}
	}
	return PAPI_OK;
}

/* Can a start after this stop skip the rebase read? A disabled group's
 * times stand still and RESET zeroes its counts, so the stop's read is the
 * base, of every group (a kernel-multiplexed set has one per counter). Not
 * for inherited counts (RESET leaves exited children's counts), attached
 * or CPU-wide sets, overflow, or software multiplexing (which keeps the
 * counts of its disabled slices instead: mpx_read_raw). */
static int can_freeze(const EventSet_t *es)
{
	return !mpx_sw_slice(es) && !es->overflow && !es->inherit && !es->attach && es->cpu < 0;
}

static void rebase_frozen(EventSet_t *es)
{
	for (int h = 0; h < es->nhw; h++) {
		struct es_hw *hw = &es->hw[h];
		const struct es_group *g = hw->fd >= 0 && hw->group < es->ngroups ? &es->groups[hw->group] : NULL;
		hw->base_count = 0;
		hw->base_en = g ? g->read_en : 0;
		hw->base_run = g ? g->read_run : 0;
		hw->last = 0;
	}
}

PAPI_HOT static int read_groups(EventSet_t *es, int rebase)
{
	if (es->ngroups == 1 && es->groups[0].n <= FAST_MAX && !mpx_sw_slice(es))
		return read_one_group(es, rebase);
	int n = es->nhw > 0 ? es->nhw : 1;
	uint64_t cnt[n], en[n], run[n];
	memset(cnt, 0, sizeof cnt);
	memset(en, 0, sizeof en);
	memset(run, 0, sizeof run);
	int ret = read_raw(es, cnt, en, run);
	if (ret != PAPI_OK)
		return ret;
	/* Software multiplexing: one slice counts at a time, so the set's
	 * time is the sum of the slices' enabled times. */
	int k = es->mpx ? mpx_sw_slice(es) : 0;
	uint64_t total = 0;
	for (int h = 0; k > 0 && h < es->nhw; h += k)
		total += delta(en[h], es->hw[h].base_en);
	for (int h = 0; h < es->nhw; h++) {
		struct es_hw *hw = &es->hw[h];
		uint64_t dc = delta(cnt[h], hw->base_count), de = delta(en[h], hw->base_en);
		uint64_t dr = delta(run[h], hw->base_run);
		long long v = k > 0 ? es_scale(dc, total, dr) : es_scale(dc, de, dr);
		if (v < hw->last)
			v = hw->last;
		es->hwval[h] = v;
		hw->last = v;
		if (rebase) {
			hw->base_count = cnt[h];
			hw->base_en = en[h];
			hw->base_run = run[h];
			hw->last = 0;
		}
	}
	return PAPI_OK;
}

int counting_rebase(EventSet_t *es)
{
	return read_groups(es, 1);
}

/* Take over a set started by another thread than its owner: it counts the
 * thread that starts it (unless attached to a task or a CPU). */
static int adopt(EventSet_t *es)
{
	pid_t me = papi_gettid();
	if (es->attach || es->cpu >= 0 || es->owner == me)
		return PAPI_OK;
	es->owner = me;
	return es_reopen(es);
}
/* ---- end llapi ---------------------------------------------------------- */

PAPI_HOT static void compute(EventSet_t *es, long long *values)
{
	for (int e = 0; e < es->nev; e++) {
		const struct es_event *ev = &es->ev[e];
		if (ev->def.nterms == 1 && ev->def.derived == NOT_DERIVED) {
			values[e] = es->hwval[ev->hw[0]];
		} else {
			long long in[PAPI_EVENTS_IN_DERIVED_EVENT];
			for (int t = 0; t < ev->def.nterms; t++)
				in[t] = es->hwval[ev->hw[t]];
			values[e] = derived_eval(&ev->def, in);
		}
	}
}

PAPI_HOT int es_read_values(EventSet_t *es, long long *values)
{
	if (__builtin_expect(es->cset != NULL, 0))
		return cmpset_read(es->cset, values);
	int ret = read_groups(es, 0);
	if (ret == PAPI_OK && values)
		compute(es, values);
	return ret;
}

/* Look up a set for counting. */
PAPI_HOT static int get(int id, EventSet_t **out)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	EventSet_t *es = es_lookup(id);
	if (!es)
		return PAPI_ENOEVST;
	*out = es;
	return PAPI_OK;
}

/* PAPI_start: zero and start every counter of the set. PAPI_ENOEVST,
 * PAPI_EISRUN (already counting), PAPI_ENOCMP (no event was ever added),
 * PAPI_EINVAL (empty set), PAPI_ESYS. */
static int start_impl(int EventSet)
{
	EventSet_t *es;
	int ret = get(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (es->state & PAPI_RUNNING)
		return PAPI_EISRUN;
	if (es->cidx < 0)
		return PAPI_ENOCMP;
	if (es->nev == 0)
		return PAPI_EINVAL;
	if (es->cset) {
		if ((ret = cmpset_start(es->cset)) != PAPI_OK)
			return ret;
		if (es->overflow && (ret = ovf_start(es)) != PAPI_OK) {
			cmpset_stop(es->cset, NULL);
			return ret;
		}
		es->state = (es->state & ~PAPI_STOPPED) | PAPI_RUNNING;
		return PAPI_OK;
	}
	int frozen = es->frozen;
	es->frozen = 0;
	pid_t owner = es->owner;
	if ((ret = adopt(es)) != PAPI_OK)
		return ret;
	frozen = frozen && es->owner == owner && can_freeze(es);
	/* Software multiplexing counts from the rebase read below, and keeps
	 * its disabled slices' counts (a RESET would void them). */
	if (!mpx_sw_slice(es) && (ret = group_ioctl(es, PERF_EVENT_IOC_RESET)) != PAPI_OK)
		return ret;
	if (frozen)
		rebase_frozen(es);
	else if ((ret = counting_rebase(es)) != PAPI_OK)
		return ret;
	if (es->overflow)
		ovf_prime(es);
	ret = mpx_sw_slice(es) ? mpx_start(es) : group_ioctl(es, PERF_EVENT_IOC_ENABLE);
	if (ret != PAPI_OK)
		return ret;
	/* overflow: arm after the counters run from zero */
	if (es->overflow && (ret = ovf_start(es)) != PAPI_OK) {
		group_ioctl(es, PERF_EVENT_IOC_DISABLE);
		return ret;
	}
	es->state = (es->state & ~PAPI_STOPPED) | PAPI_RUNNING;
	return PAPI_OK;
}

/* PAPI_stop: stop counting and store the counts in values (may be NULL).
 * PAPI_ENOTRUN when the set is not counting. */
static int stop_impl(int EventSet, long long *values)
{
	EventSet_t *es;
	int ret = get(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (!(es->state & PAPI_RUNNING))
		return PAPI_ENOTRUN;
	if (es->cset) {
		if (es->overflow)
			ovf_stop(es);
		es->state = (es->state & ~PAPI_RUNNING) | PAPI_STOPPED;
		return cmpset_stop(es->cset, values);
	}
	/* software multiplexing: the rotation ends and disables the one
	 * slice that counts; the others are disabled already */
	if (mpx_sw_slice(es))
		mpx_stop(es);
	else
		ret = group_ioctl(es, PERF_EVENT_IOC_DISABLE);
	if (es->overflow)
		ovf_stop(es);
	es->state = (es->state & ~PAPI_RUNNING) | PAPI_STOPPED;
	if (ret != PAPI_OK)
		return ret;
	ret = es_read_values(es, values);
	es->frozen = ret == PAPI_OK && can_freeze(es);
	return ret;
}

/* PAPI_read: copy the current counts into values, one per event in the
 * order they were added. A stopped set reads the counts it stopped with.
 * PAPI_EINVAL for NULL values. */
PAPI_HOT static int read_impl(int EventSet, long long *values)
{
	EventSet_t *es;
	int ret = get(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (!values)
		return PAPI_EINVAL;
	return es_read_values(es, values);
}

/* PAPI_read_ts: PAPI_read plus the real-time cycle count of the read. */
int PAPI_read_ts(int EventSet, long long *values, long long *cycles)
{
	if (!cycles)
		return lib_ready() ? PAPI_EINVAL : PAPI_ENOINIT;
	int ret = PAPI_read(EventSet, values);
	if (ret == PAPI_OK)
		*cycles = PAPI_get_real_cyc();
	return ret;
}

/* PAPI_accum: add the counts into values and zero the counters. */
PAPI_HOT static int accum_impl(int EventSet, long long *values)
{
	EventSet_t *es;
	int ret = get(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (!values)
		return PAPI_EINVAL;
	long long now[es->nev > 0 ? es->nev : 1];
	if (es->cset)
		ret = cmpset_accum(es->cset, now);
	/* read and rebase in one go: the counters are never reset */
	else if ((ret = read_groups(es, 1)) == PAPI_OK)
		compute(es, now);
	if (ret != PAPI_OK)
		return ret;
	for (int e = 0; e < es->nev; e++)
		values[e] += now[e];
	return PAPI_OK;
}

/* PAPI_reset: zero every counter of the set, running or not. */
static int reset_impl(int EventSet)
{
	EventSet_t *es;
	int ret = get(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (es->cset)
		return cmpset_reset(es->cset);
	/* A read that makes the counts and times of now the zero of the next
	 * reads is the whole reset: scaling is by deltas from that base, so
	 * the kernel's counts need not be zeroed (its RESET would not zero the
	 * times anyway, so a read was needed regardless). Overflow needs the
	 * kernel's count zeroed (its period counts from there). */
	if (es->overflow &&
	    (ret = group_ioctl(es, PERF_EVENT_IOC_RESET)) != PAPI_OK)
		return ret;
	return counting_rebase(es);
}

/* PAPI_write: perf_event counters cannot be written: PAPI_ENOSUPP, as
 * PAPI 7's perf_event component answers (after the usual checks); another
 * component's counts continue from values where it can (cmpset_write). */
static int write_impl(int EventSet, long long *values)
{
	EventSet_t *es;
	int ret = get(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (!values)
		return PAPI_EINVAL;
	if (es->cset)
		return cmpset_write(es->cset, values);
	return PAPI_ENOSUPP;
}

/* The public entry points: each runs its _impl in flight (es_enter/es_leave),
 * so that PAPI_shutdown never frees a set under a running call. */
int PAPI_start(int EventSet)
{
	return ES_IN_FLIGHT(start_impl(EventSet));
}

int PAPI_stop(int EventSet, long long *values)
{
	return ES_IN_FLIGHT(stop_impl(EventSet, values));
}

PAPI_HOT int PAPI_read(int EventSet, long long *values)
{
	return ES_IN_FLIGHT(read_impl(EventSet, values));
}

PAPI_HOT int PAPI_accum(int EventSet, long long *values)
{
	return ES_IN_FLIGHT(accum_impl(EventSet, values));
}

int PAPI_reset(int EventSet)
{
	return ES_IN_FLIGHT(reset_impl(EventSet));
}

int PAPI_write(int EventSet, long long *values)
{
	return ES_IN_FLIGHT(write_impl(EventSet, values));
}

/* ------------------------------------------------------------------ times (papi stat)
 * es_read_times: es_read_values plus, per event, the nanoseconds its
 * counters were enabled and really running (they differ when the kernel
 * multiplexed them; values are already scaled by enabled/running). An event
 * of several counters reports the group that ran the smallest share; a set
 * of another component has no such times (0). enabled and running may be
 * NULL. PAPI_ESYS when a read fails. */
int es_read_times(EventSet_t *es, long long *values, uint64_t *enabled, uint64_t *running)
{
	if (es->cset) {	/* no kernel times: es_last_times gives 0 */
		long long v[es->nev > 0 ? es->nev : 1];
		int ret = cmpset_read(es->cset, v);
		if (ret == PAPI_OK && values)
			memcpy(values, v, (size_t)es->nev * sizeof *v);
		es_last_times(es, enabled, running);
		return ret;
	}
	int n = es->nhw > 0 ? es->nhw : 1;
	uint64_t cnt[n], en[n], run[n];
	int ret = read_raw(es, cnt, en, run);
	if (ret != PAPI_OK)
		return ret;
	for (int h = 0; h < es->nhw; h++)
		if (es->hw[h].fd >= 0 && es->hw[h].group < es->ngroups)
			es->hwval[h] = es_scale(cnt[h], en[h], run[h]);
	if (values)
		compute(es, values);
	es_last_times(es, enabled, running);
	return PAPI_OK;
}

/* es_last_times: see core.h. */
PAPI_HOT void es_last_times(const EventSet_t *es, uint64_t *enabled, uint64_t *running)
{
	for (int e = 0; e < es->nev; e++) {
		uint64_t en = 0, run = 0;
		for (int t = 0; !es->cset && t < es->ev[e].def.nterms; t++) {
			const struct es_group *g = &es->groups[es->hw[es->ev[e].hw[t]].group];
			/* run/en < run_t/en_t, compared without division */
			if (t == 0 || (unsigned __int128)g->read_run * en <
					      (unsigned __int128)run * g->read_en) {
				en = g->read_en;
				run = g->read_run;
			}
		}
		if (enabled)
			enabled[e] = en;
		if (running)
			running[e] = run;
	}
}

/* es_disable: see core.h. */
int es_disable(EventSet_t *es)
{
	if (es->state & PAPI_RUNNING) {
		long long v[es->nev > 0 ? es->nev : 1];
		return stop_impl(es->id, v);
	}
	if (es->cset)
		return PAPI_OK;
	return group_ioctl(es, PERF_EVENT_IOC_DISABLE);
}

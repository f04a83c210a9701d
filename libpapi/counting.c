/* counting.c: start, stop, read, accum, reset and write: one group ioctl or read() per PMU group. */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "internal.h"

/* Hooks other modules set: called on start/stop of a set they manage
 * (overflow, software multiplexing). NULL when unused. */
int (*counting_start_hook)(EventSet_t *es);
int (*counting_stop_hook)(EventSet_t *es);

static int group_ioctl(EventSet_t *es, unsigned long req)
{
	for (int g = 0; g < es->ngroups; g++)
		if (sys->ioctl(es->groups[g].leader, req, PERF_IOC_FLAG_GROUP) < 0)
			return PAPI_ESYS;
	return PAPI_OK;
}

/* count * enabled / running without overflow; 0 when never scheduled. */
static long long scale(uint64_t count, uint64_t enabled, uint64_t running)
{
	if (running == 0)
		return 0;
	if (running >= enabled)
		return (long long)count;
	unsigned __int128 v = (unsigned __int128)count * enabled / running;
	return v > (unsigned __int128)INT64_MAX ? INT64_MAX : (long long)v;
}

/* Read every group into es->hwval. The fast path: one read() per group. */
static int read_groups(EventSet_t *es)
{
	for (int g = 0; g < es->ngroups; g++) {
		size_t want = (3 + (size_t)es->groups[g].n) * sizeof(uint64_t);
		ssize_t got = sys->read(es->groups[g].leader, es->rbuf, want);
		if (got != (ssize_t)want) {
			papi_set_reason("reading counters failed: %s",
					got < 0 ? strerror(errno) : "short read");
			return PAPI_ESYS;
		}
		uint64_t en = es->rbuf[1], run = es->rbuf[2];
		for (int h = 0; h < es->nhw; h++)
			if (es->hw[h].group == g)
				es->hwval[h] = scale(es->rbuf[3 + es->hw[h].slot], en, run);
	}
	return PAPI_OK;
}

static void compute(EventSet_t *es, long long *values)
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

int es_read_values(EventSet_t *es, long long *values)
{
	int ret = read_groups(es);
	if (ret == PAPI_OK && values)
		compute(es, values);
	return ret;
}

/* Look up a set for counting. */
static int get(int id, EventSet_t **out)
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
int PAPI_start(int EventSet)
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
	if (counting_start_hook && (ret = counting_start_hook(es)) != PAPI_OK)
		return ret;
	if ((ret = group_ioctl(es, PERF_EVENT_IOC_RESET)) != PAPI_OK ||
	    (ret = group_ioctl(es, PERF_EVENT_IOC_ENABLE)) != PAPI_OK)
		return ret;
	es->state = (es->state & ~PAPI_STOPPED) | PAPI_RUNNING;
	return PAPI_OK;
}

/* PAPI_stop: stop counting and store the counts in values (may be NULL).
 * PAPI_ENOTRUN when the set is not counting. */
int PAPI_stop(int EventSet, long long *values)
{
	EventSet_t *es;
	int ret = get(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (!(es->state & PAPI_RUNNING))
		return PAPI_ENOTRUN;
	ret = group_ioctl(es, PERF_EVENT_IOC_DISABLE);
	if (counting_stop_hook)
		counting_stop_hook(es);
	es->state = (es->state & ~PAPI_RUNNING) | PAPI_STOPPED;
	if (ret != PAPI_OK)
		return ret;
	return es_read_values(es, values);
}

/* PAPI_read: copy the current counts into values, one per event in the
 * order they were added. A stopped set reads the counts it stopped with.
 * PAPI_EINVAL for NULL values. */
int PAPI_read(int EventSet, long long *values)
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
int PAPI_accum(int EventSet, long long *values)
{
	EventSet_t *es;
	int ret = get(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (!values)
		return PAPI_EINVAL;
	long long now[es->nev > 0 ? es->nev : 1];
	if ((ret = es_read_values(es, now)) != PAPI_OK)
		return ret;
	for (int e = 0; e < es->nev; e++)
		values[e] += now[e];
	return group_ioctl(es, PERF_EVENT_IOC_RESET);
}

/* PAPI_reset: zero every counter of the set, running or not. */
int PAPI_reset(int EventSet)
{
	EventSet_t *es;
	int ret = get(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	return group_ioctl(es, PERF_EVENT_IOC_RESET);
}

/* PAPI_write: perf_event counters cannot be written: PAPI_ENOSUPP, as
 * PAPI 7's perf_event component answers (after the usual checks). */
int PAPI_write(int EventSet, long long *values)
{
	EventSet_t *es;
	int ret = get(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (!values)
		return PAPI_EINVAL;
	return PAPI_ENOSUPP;
}

/* ------------------------------------------------------------------ times (papi stat)
 * es_read_times: es_read_values plus, per event, the nanoseconds its
 * counters were enabled and really running (they differ when the kernel
 * multiplexed them; values are already scaled by enabled/running). An event
 * of several counters reports the group that ran the smallest share.
 * enabled and running may be NULL. PAPI_ESYS when a read fails. */
int es_read_times(EventSet_t *es, long long *values, uint64_t *enabled, uint64_t *running)
{
	int ng = es->ngroups > 0 ? es->ngroups : 1;
	uint64_t gen[ng], grun[ng];
	for (int g = 0; g < es->ngroups; g++) {
		size_t want = (3 + (size_t)es->groups[g].n) * sizeof(uint64_t);
		ssize_t got = sys->read(es->groups[g].leader, es->rbuf, want);
		if (got != (ssize_t)want) {
			papi_set_reason("reading counters failed: %s",
					got < 0 ? strerror(errno) : "short read");
			return PAPI_ESYS;
		}
		gen[g] = es->rbuf[1];
		grun[g] = es->rbuf[2];
		for (int h = 0; h < es->nhw; h++)
			if (es->hw[h].group == g)
				es->hwval[h] = scale(es->rbuf[3 + es->hw[h].slot], gen[g], grun[g]);
	}
	if (values)
		compute(es, values);
	for (int e = 0; e < es->nev; e++) {
		uint64_t en = 0, run = 0;
		for (int t = 0; t < es->ev[e].def.nterms; t++) {
			int g = es->hw[es->ev[e].hw[t]].group;
			/* run/en < run_t/en_t, compared without division */
			if (t == 0 || (unsigned __int128)grun[g] * en <
					      (unsigned __int128)run * gen[g]) {
				en = gen[g];
				run = grun[g];
			}
		}
		if (enabled)
			enabled[e] = en;
		if (running)
			running[e] = run;
	}
	return PAPI_OK;
}

/* rates.c: the legacy high level (PAPI_start_counters ... PAPI_stop_counters) and the rate calls (flips, flops, ipc, epc). */
#include <string.h>

#include "5-core/core.h"

/*
 * Each thread has one implicit EventSet for these calls, used either by the
 * counters calls or by one rate call at a time.  Nothing is made up: when
 * an event cannot be counted the call returns the error of adding it.
 */

enum { R_NONE, R_COUNTERS, R_FLIPS, R_FLOPS, R_IPC, R_EPC };

#define R_MAXEV 3

struct rate_state {
	int mode;
	int es;
	int nev;
	int event;		/* the rate call's chosen event */
	int has_ref;		/* PAPI_epc: PAPI_REF_CYC could be counted */
	long long t0, v0;	/* real and virtual usec at the first call */
	long long tlast;	/* real usec at the previous call */
	long long last[R_MAXEV];
};

static __thread struct rate_state rs = { .es = PAPI_NULL };

static int ensure_init(void)
{
	if (lib_ready())
		return PAPI_OK;
	int v = PAPI_library_init(PAPI_VER_CURRENT);
	return v == PAPI_VER_CURRENT ? PAPI_OK : (v < 0 ? v : PAPI_EINVAL);
}

static void release(void)
{
	if (rs.es != PAPI_NULL) {
		PAPI_stop(rs.es, NULL);
		PAPI_cleanup_eventset(rs.es);
		PAPI_destroy_eventset(&rs.es);
	}
	rs = (struct rate_state){ .mode = R_NONE, .es = PAPI_NULL };
}

/* Make and start the thread's set with events[n] (optional[i] set: may be
 * left out). On failure nothing stays and the error of the event is returned. */
static int open_set(int mode, const int *events, const int *optional, int n)
{
	int ret, added = 0;
	if ((ret = ensure_init()) != PAPI_OK)
		return ret;
	if ((ret = PAPI_create_eventset(&rs.es)) != PAPI_OK)
		return ret;
	for (int i = 0; i < n; i++) {
		ret = PAPI_add_event(rs.es, events[i]);
		if (ret == PAPI_OK)
			added |= 1 << i;
		else if (!optional || !optional[i])
			goto fail;
	}
	rs.nev = PAPI_num_events(rs.es);
	rs.has_ref = n == 3 && (added & 4);
	if ((ret = PAPI_start(rs.es)) != PAPI_OK)
		goto fail;
	rs.mode = mode;
	return PAPI_OK;
fail:
	release();
	return ret;
}

/* PAPI_num_counters: the number of hardware counters of the CPU (0 when the
 * kernel gives no access to them); initializes the library if needed.
 * Negative: the error of PAPI_library_init. */
int PAPI_num_counters(void)
{
	int ret = ensure_init();
	if (ret != PAPI_OK)
		return ret;
	ret = PAPI_num_hwctrs();
	return ret < 0 ? 0 : ret;
}

/* PAPI_start_counters: count events[0..array_len-1] in the calling thread.
 * PAPI_EINVAL (NULL or empty array), PAPI_EISRUN (already counting: stop
 * first), or the error of adding an event (PAPI_ENOEVNT, PAPI_ECNFLCT ...). */
int PAPI_start_counters(int *events, int array_len)
{
	if (!events || array_len <= 0 || array_len > PAPI_MAX_HWCTRS)
		return PAPI_EINVAL;
	if (rs.mode != R_NONE)
		return PAPI_EISRUN;
	return open_set(R_COUNTERS, events, NULL, array_len);
}

/* Copy the counts (first min(array_len, events) of them) into values; add
 * instead when accum. The counters are reset and keep counting. */
static int read_reset(long long *values, int array_len, int accum)
{
	if (!values || array_len <= 0)
		return PAPI_EINVAL;
	if (rs.mode != R_COUNTERS)
		return PAPI_ENOTRUN;
	long long now[PAPI_MAX_HWCTRS] = { 0 };
	int ret = PAPI_read(rs.es, now);
	if (ret != PAPI_OK)
		return ret;
	if ((ret = PAPI_reset(rs.es)) != PAPI_OK)
		return ret;
	for (int i = 0; i < array_len && i < rs.nev; i++)
		values[i] = accum ? values[i] + now[i] : now[i];
	return PAPI_OK;
}

/* PAPI_read_counters: copy the counts into values and reset the counters,
 * which keep counting. PAPI_EINVAL, PAPI_ENOTRUN (not started). */
int PAPI_read_counters(long long *values, int array_len)
{
	return read_reset(values, array_len, 0);
}

/* PAPI_accum_counters: add the counts into values and reset the counters.
 * PAPI_EINVAL, PAPI_ENOTRUN (not started). */
int PAPI_accum_counters(long long *values, int array_len)
{
	return read_reset(values, array_len, 1);
}

/* PAPI_stop_counters: stop the thread's counters (those of
 * PAPI_start_counters or of a rate call) and copy their counts into values.
 * PAPI_EINVAL (NULL values or array_len < 1), PAPI_ENOTRUN (not started). */
int PAPI_stop_counters(long long *values, int array_len)
{
	if (!values || array_len <= 0)
		return PAPI_EINVAL;
	if (rs.mode == R_NONE)
		return PAPI_ENOTRUN;
	long long now[PAPI_MAX_HWCTRS] = { 0 };
	int ret = PAPI_stop(rs.es, now);
	if (ret == PAPI_OK)
		for (int i = 0; i < array_len && i < rs.nev; i++)
			values[i] = now[i];
	release();
	return ret;
}

/* ------------------------------------------------------------------ rates */

/* The shared part of the rate calls: (re)start the set when another mode or
 * event was running, then read. On the first call every output is zero. */
static int rate_read(int mode, const int *events, const int *optional, int n, float *rtime,
		     float *ptime, long long *vals, int *first)
{
	int ret;
	if (rs.mode == R_COUNTERS)
		return PAPI_EINVAL;	/* started by PAPI_start_counters */
	*first = 0;
	if (rs.mode != mode || rs.event != events[0]) {
		release();
		if ((ret = open_set(mode, events, optional, n)) != PAPI_OK)
			return ret;
		rs.event = events[0];
		rs.t0 = rs.tlast = PAPI_get_real_usec();
		rs.v0 = PAPI_get_virt_usec();
		memset(rs.last, 0, sizeof rs.last);
		*first = 1;
	}
	long long raw[R_MAXEV] = { 0 };
	if ((ret = PAPI_read(rs.es, raw)) != PAPI_OK)
		return ret;
	/* PAPI_epc without PAPI_REF_CYC: keep the ref slot at zero. */
	for (int i = 0; i < n; i++)
		vals[i] = i < rs.nev ? raw[i] : 0;
	*rtime = (float)((double)(PAPI_get_real_usec() - rs.t0) / 1e6);
	*ptime = (float)((double)(PAPI_get_virt_usec() - rs.v0) / 1e6);
	return PAPI_OK;
}

static int is_one_of(int event, int a, int b, int c)
{
	return event == a || event == b || event == c;
}

/* Count events[0] and report its rate in millions per second of real time. */
static int per_second(int mode, int event, float *rtime, float *ptime, long long *count,
		      float *rate)
{
	long long v[1];
	int first, ret;
	if (!rtime || !ptime || !count || !rate)
		return PAPI_EINVAL;
	if ((ret = rate_read(mode, &event, NULL, 1, rtime, ptime, v, &first)) != PAPI_OK)
		return ret;
	long long now = PAPI_get_real_usec(), dt = now - rs.tlast;
	*count = v[0];
	*rate = first || dt <= 0 ? 0.0f : (float)((double)(v[0] - rs.last[0]) / (double)dt);
	if (first)
		*rtime = *ptime = 0.0f;
	rs.last[0] = v[0];
	rs.tlast = now;
	return PAPI_OK;
}

/* PAPI_flips_rate: floating point instructions (event: PAPI_FP_INS,
 * PAPI_VEC_SP or PAPI_VEC_DP) since the first call, the real and process
 * time since then (seconds) and the Mflip/s since the previous call. The
 * first call starts counting and reports zeros. PAPI_EINVAL (other event,
 * NULL pointer, counters of PAPI_start_counters running), or the error of
 * the event (PAPI_ENOEVNT where it cannot be counted). */
int PAPI_flips_rate(int event, float *rtime, float *ptime, long long *flpins, float *mflips)
{
	if (!is_one_of(event, PAPI_FP_INS, PAPI_VEC_SP, PAPI_VEC_DP))
		return PAPI_EINVAL;
	return per_second(R_FLIPS, event, rtime, ptime, flpins, mflips);
}

/* PAPI_flops_rate: as PAPI_flips_rate for floating point operations
 * (PAPI_FP_OPS, PAPI_SP_OPS or PAPI_DP_OPS) and Mflop/s. */
int PAPI_flops_rate(int event, float *rtime, float *ptime, long long *flpops, float *mflops)
{
	if (!is_one_of(event, PAPI_FP_OPS, PAPI_SP_OPS, PAPI_DP_OPS))
		return PAPI_EINVAL;
	return per_second(R_FLOPS, event, rtime, ptime, flpops, mflops);
}

/* PAPI_flips: PAPI 3.5's call, PAPI_flips_rate on PAPI_FP_INS. */
int PAPI_flips(float *rtime, float *ptime, long long *flpins, float *mflips)
{
	return PAPI_flips_rate(PAPI_FP_INS, rtime, ptime, flpins, mflips);
}

/* PAPI_flops: PAPI 3.5's call, PAPI_flops_rate on PAPI_FP_OPS. */
int PAPI_flops(float *rtime, float *ptime, long long *flpops, float *mflops)
{
	return PAPI_flops_rate(PAPI_FP_OPS, rtime, ptime, flpops, mflops);
}

/* Events per cycle: ev[0] counted against PAPI_TOT_CYC since the last call. */
static int per_cycle(int mode, const int *ev, const int *optional, int n, float *rtime,
		     float *ptime, long long *v, float *ratio)
{
	int first, ret;
	if ((ret = rate_read(mode, ev, optional, n, rtime, ptime, v, &first)) != PAPI_OK)
		return ret;
	long long dcyc = v[1] - rs.last[1];
	*ratio = first || dcyc <= 0 ? 0.0f : (float)((double)(v[0] - rs.last[0]) / (double)dcyc);
	if (first)
		*rtime = *ptime = 0.0f;
	for (int i = 0; i < n; i++)
		rs.last[i] = v[i];
	rs.tlast = PAPI_get_real_usec();
	return PAPI_OK;
}

/* PAPI_ipc: instructions (PAPI_TOT_INS) since the first call, the real and
 * process time since then, and the instructions per cycle (PAPI_TOT_CYC)
 * since the previous call. PAPI_EINVAL, or the error of an event that
 * cannot be counted (PAPI_ENOEVNT without a hardware PMU). */
int PAPI_ipc(float *rtime, float *ptime, long long *ins, float *ipc)
{
	static const int ev[2] = { PAPI_TOT_INS, PAPI_TOT_CYC };
	long long v[2];
	if (!rtime || !ptime || !ins || !ipc)
		return PAPI_EINVAL;
	int ret = per_cycle(R_IPC, ev, NULL, 2, rtime, ptime, v, ipc);
	if (ret == PAPI_OK)
		*ins = v[0];
	return ret;
}

/* PAPI_epc: event (0 means PAPI_TOT_INS) per core cycle (PAPI_TOT_CYC)
 * since the previous call; *ref gets the reference cycles (PAPI_REF_CYC,
 * 0 where they cannot be counted), *core the core cycles, *evt the event's
 * count, all since the first call. Errors as PAPI_ipc. */
int PAPI_epc(int event, float *rtime, float *ptime, long long *ref, long long *core,
	     long long *evt, float *epc)
{
	int ev[3] = { event ? event : PAPI_TOT_INS, PAPI_TOT_CYC, PAPI_REF_CYC };
	static const int optional[3] = { 0, 0, 1 };
	long long v[3];
	if (!rtime || !ptime || !ref || !core || !evt || !epc)
		return PAPI_EINVAL;
	int ret = per_cycle(R_EPC, ev, optional, 3, rtime, ptime, v, epc);
	if (ret == PAPI_OK) {
		*evt = v[0];
		*core = v[1];
		*ref = rs.has_ref ? v[2] : 0;
	}
	return ret;
}

/* PAPI_rate_stop: stop the counters of the rate calls. PAPI_ENOTRUN when
 * none runs (or PAPI_start_counters owns them). */
int PAPI_rate_stop(void)
{
	if (rs.mode == R_NONE || rs.mode == R_COUNTERS)
		return PAPI_ENOTRUN;
	release();
	return PAPI_OK;
}

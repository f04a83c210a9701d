/* t_rates.c: the legacy high level (PAPI_*_counters) and the rate calls: real counts where countable, PAPI errors where not. */
#include <string.h>

#include "hl_util.h"
#include "papi.h"
#include "tap.h"

static void counters(void)
{
	int ev[2];
	long long v[2] = { 0, 0 }, w[2] = { 0, 0 };

	ok(PAPI_num_counters() >= 0, "num_counters is a count (%d)", PAPI_num_counters());
	is_int(PAPI_is_initialized(), PAPI_LOW_LEVEL_INITED, "num_counters initialized the library");
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &ev[0]) != PAPI_OK ||
	    PAPI_event_name_to_code("perf::PAGE-FAULTS", &ev[1]) != PAPI_OK) {
		skip("software events cannot be named here", "legacy counters");
		return;
	}
	is_int(PAPI_read_counters(v, 2), PAPI_ENOTRUN, "read before start -> ENOTRUN");
	is_int(PAPI_stop_counters(v, 2), PAPI_ENOTRUN, "stop before start -> ENOTRUN");
	is_int(PAPI_start_counters(NULL, 2), PAPI_EINVAL, "start NULL -> EINVAL");
	is_int(PAPI_start_counters(ev, 0), PAPI_EINVAL, "start 0 events -> EINVAL");
	is_int(PAPI_start_counters(ev, 2), PAPI_OK, "start task-clock and page-faults");
	is_int(PAPI_start_counters(ev, 2), PAPI_EISRUN, "second start -> EISRUN");
	hlu_spin_ms(30);
	is_int(PAPI_read_counters(v, 2), PAPI_OK, "read_counters");
	ok(v[0] >= 25000000LL, "task-clock covers 30 ms of spinning (%lld)", v[0]);
	is_int(PAPI_read_counters(w, 2), PAPI_OK, "read again at once");
	ok(w[0] >= 0 && w[0] < v[0] / 2, "read_counters reset the counters (%lld then %lld)", v[0], w[0]);
	long long acc[2] = { 1000000000LL, 0 };
	hlu_spin_ms(10);
	is_int(PAPI_accum_counters(acc, 2), PAPI_OK, "accum_counters");
	ok(acc[0] >= 1000000000LL + 8000000LL, "accum added the count (%lld)", acc[0]);
	is_int(PAPI_accum_counters(NULL, 2), PAPI_EINVAL, "accum NULL -> EINVAL");
	is_int(PAPI_read_counters(v, 0), PAPI_EINVAL, "read 0 values -> EINVAL");
	float r, p, m;
	long long n;
	is_int(PAPI_flips(&r, &p, &n, &m), PAPI_EINVAL, "flips while start_counters owns the counters");
	hlu_spin_ms(10);
	is_int(PAPI_stop_counters(v, 2), PAPI_OK, "stop_counters");
	ok(v[0] >= 8000000LL, "stop returns the count since the last reset (%lld)", v[0]);
	is_int(PAPI_stop_counters(v, 2), PAPI_ENOTRUN, "stop again -> ENOTRUN");
	is_int(PAPI_start_counters(ev, 1), PAPI_OK, "start again after stop");
	is_int(PAPI_stop_counters(v, 1), PAPI_OK, "and stop");
	int bogus = PAPI_NATIVE_MASK | 0xfffff;
	ok(PAPI_start_counters(&bogus, 1) < 0, "an unknown code is a PAPI error");
	is_int(PAPI_read_counters(v, 1), PAPI_ENOTRUN, "nothing runs after a failed start");
}

/* Where an event of a rate call cannot be counted, the call fails and
 * leaves the outputs alone; where it can, the values are sane. */
static void rates(void)
{
	float r = -1, p = -1, m = -1;
	long long n = -1, ref = -1, core = -1;

	is_int(PAPI_flips_rate(PAPI_TOT_INS, &r, &p, &n, &m), PAPI_EINVAL, "flips_rate of a non-FP event -> EINVAL");
	is_int(PAPI_flops_rate(PAPI_FP_INS, &r, &p, &n, &m), PAPI_EINVAL, "flops_rate of PAPI_FP_INS -> EINVAL");
	is_int(PAPI_flips_rate(PAPI_FP_INS, NULL, &p, &n, &m), PAPI_EINVAL, "flips_rate NULL -> EINVAL");
	is_int(PAPI_rate_stop(), PAPI_ENOTRUN, "rate_stop with nothing running");

	struct {
		const char *what;
		int event;
	} cases[] = { { "PAPI_flips", PAPI_FP_INS }, { "PAPI_flops", PAPI_FP_OPS }, { "PAPI_ipc", PAPI_TOT_INS },
		      { "PAPI_epc", PAPI_TOT_CYC } };
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int ret;
		r = p = m = -1;
		n = ref = core = -1;
		if (i == 0)
			ret = PAPI_flips(&r, &p, &n, &m);
		else if (i == 1)
			ret = PAPI_flops(&r, &p, &n, &m);
		else if (i == 2)
			ret = PAPI_ipc(&r, &p, &n, &m);
		else
			ret = PAPI_epc(0, &r, &p, &ref, &core, &n, &m);
		if (PAPI_query_event(cases[i].event) != PAPI_OK || (i >= 2 && PAPI_query_event(PAPI_TOT_CYC) != PAPI_OK)) {
			ok(ret < 0 && PAPI_strerror(ret), "%s: uncountable here -> %s", cases[i].what,
			   PAPI_strerror(ret) ? PAPI_strerror(ret) : "?");
			ok(n == -1 && m == -1 && r == -1, "%s: no made-up numbers", cases[i].what);
		} else if (ret != PAPI_OK) {
			ok(ret == PAPI_ENOEVNT || ret == PAPI_ECNFLCT || ret == PAPI_EPERM,
			   "%s: event exists but the kernel refuses it -> %d", cases[i].what, ret);
			ok(n == -1 && m == -1, "%s: no made-up numbers", cases[i].what);
		} else {
			ok(r == 0 && n >= 0, "%s: first call starts counting", cases[i].what);
			hlu_spin_ms(10);
			ret = i == 0 ? PAPI_flips(&r, &p, &n, &m) : i == 1 ? PAPI_flops(&r, &p, &n, &m)
				: i == 2 ? PAPI_ipc(&r, &p, &n, &m) : PAPI_epc(0, &r, &p, &ref, &core, &n, &m);
			ok(ret == PAPI_OK && r > 0 && p > 0 && m >= 0, "%s: second call has times and a rate", cases[i].what);
		}
		PAPI_rate_stop();
	}
}

int main(void)
{
	counters();
	rates();
	PAPI_shutdown();
	return tap_done();
}

/* t_oracle_msr.c: msr::tsc counted per task by libpapi, against the tests' own perf_event_open counter on the kernel's msr PMU.
 *
 * The kernel's msr PMU counts per task: its TSC count is the ticks that
 * passed while the task ran, as task-clock is the time it ran. A set of
 * the calling thread with msr::tsc (alone, then with perf::TASK-CLOCK) spins for a known
 * CPU time and sleeps as long, bracketed by raw counters of both events
 * (oracle.h): libpapi's counts must lie in the bracket, TSC to 0.5% and
 * the ticks of 50 us (a thread that moves to another CPU reads that CPU's
 * TSC), and its ticks per nanosecond run must be the raw counters' to 1%.
 * Counted CPU-wide and summed over the CPUs, as perf_event_uncore did, the
 * sleep and every other CPU's time would count too.
 *
 * The msr PMU excludes no privilege level, so the kernel opens it only
 * for one who may count the kernel (root, CAP_PERFMON, or
 * perf_event_paranoid 1 or lower). Where the raw counter is refused,
 * libpapi must refuse too, with PAPI_EPERM and its reason. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "oracle.h"
#include "priv.h"

#define SPIN_NS 200000000LL

static const char *const names[] = { "msr::tsc", "perf::TASK-CLOCK" };

static void work(void)
{
	orc_spin(SPIN_NS);
	struct timespec ts = { 0, SPIN_NS };
	nanosleep(&ts, NULL);
}

static void refused(int err)
{
	ok(!priv_kernel_ok(), "the raw msr counter is refused (%s) only where the kernel's share is "
	   "(uid %d, perf_event_paranoid %d)", strerror(-err), (int)geteuid(), priv_paranoid());
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	int r = PAPI_add_named_event(es, "msr::tsc");
	if (r == PAPI_OK)
		r = PAPI_start(es);
	is_int(r, PAPI_EPERM, "libpapi refuses msr::tsc as the kernel does: %s", PAPI_strerror(r));
	/* per task, the kernel asks what it asks of counting the kernel's
	 * share, not what it asks of counting a whole CPU (paranoid 0) */
	ok(strstr(papi_last_reason(), "perf_event_paranoid 1 or lower") != NULL,
	   "and says why, as for counting the kernel's share: %s", papi_last_reason());
	orc_set_free(&es);
}

/* libpapi's set holds the first n of names (msr::tsc alone, or with
 * perf::TASK-CLOCK); the raw counters both. */
static void counted(struct orc *o, int n)
{
	int es;
	long long v[2] = { 0, 0 };
	if (!ok(orc_set(&es, names, n, 0) == PAPI_OK, "a set of %s%s", names[0],
		n > 1 ? " and perf::TASK-CLOCK" : ""))
		return;
	for (int round = 0; round < 2; round++) {	/* the first warms the code up */
		orc_outer_on(o);
		int r = PAPI_start(es);
		orc_inner_on(o);
		work();
		orc_inner_off(o);
		if (r == PAPI_OK)
			r = PAPI_stop(es, v);
		orc_outer_off(o);
		if (!round)
			continue;
		if (!ok(r == PAPI_OK, "start, spin %lld ms, sleep as long, stop: %s", SPIN_NS / 1000000,
			PAPI_strerror(r)))
			break;
		double rate = o->hi[1] > 0 ? (double)o->hi[0] / (double)o->hi[1] : 0;
		o->rel[0] = 0.005;
		o->abs[0] = (long long)(rate * 50000);
		char what[128];
		snprintf(what, sizeof what, "spin %lld ms of CPU time, sleep %lld ms",
			 SPIN_NS / 1000000, SPIN_NS / 1000000);
		orc_check(o, 0, v[0], what);
		ok(o->lo[1] >= SPIN_NS * 99 / 100, "the raw task-clock saw the spin (%lld ns, 99%% of it at least)",
		   o->lo[1]);
		if (n < 2)
			continue;
		orc_check(o, 1, v[1], what);
		double mine = v[1] > 0 ? (double)v[0] / (double)v[1] : 0;
		ok(rate > 0 && mine > rate * 0.99 && mine < rate * 1.01,
		   "TSC ticks per ns run: libpapi %.4f, raw %.4f (tolerance 1%%)", mine, rate);
	}
	orc_set_free(&es);
}

int main(void)
{
	if (!raw_by_name("msr::tsc")) {
		skip("the kernel has no msr PMU with a tsc event (/sys/bus/event_source/devices/msr)",
		     "msr::tsc");
		return tap_done();
	}
	if (!ok(PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT, "PAPI_library_init"))
		return tap_done();
	struct orc o;
	int r = orc_open(&o, names, 2, 0, 0);
	if (r == -EACCES || r == -EPERM)
		refused(r);
	else if (ok(r == 0, "raw counters of msr::tsc and task-clock")) {
		counted(&o, 1);
		counted(&o, 2);
	}
	orc_close(&o);
	PAPI_shutdown();
	return tap_done();
}

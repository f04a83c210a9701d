/* t_sim_counting.c: libpapi on a simulated skx PMU: exact counts, PAPI_ECNFLCT, multiplex scaling, 48-bit counts, errno advice. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sim/sim_pmu.h"
#include "tap.h"
#include "pmu_child.h"

static int add(int es, const char *name)
{
	return PAPI_add_named_event(es, name);
}

static void exact_and_conflict(void)
{
	int es = PAPI_NULL;
	long long v[4] = { 0 };
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create");
	is_int(add(es, "skx::UNHALTED_CORE_CYCLES"), PAPI_OK, "add cycles");
	is_int(add(es, "skx::INST_RETIRED:ANY_P"), PAPI_OK, "add instructions");
	is_int(add(es, "skx::CYCLE_ACTIVITY:STALLS_L1D_MISS"), PAPI_OK, "add a counter-2-only event");
	is_int(add(es, "skx::MEM_LOAD_RETIRED:L1_HIT"), PAPI_ECNFLCT,
	       "a second counter-2-only event: PAPI_ECNFLCT at add time");
	ok(strstr(papi_last_reason(), "skx::MEM_LOAD_RETIRED:L1_HIT") &&
	   strstr(papi_last_reason(), "conflicts"), "the reason names the event and the conflict: %s",
	   papi_last_reason());
	is_int(PAPI_num_events(es), 3, "the failed add left the set as it was");
	is_int(sim_open_count(), 3, "and no counter of the failed add stays open");

	is_int(PAPI_start(es), PAPI_OK, "start");
	sim_advance(1000000);
	is_int(PAPI_read(es, v), PAPI_OK, "read");
	ok(v[0] == 1000000 && v[1] == 2000000 && v[2] == 100000,
	   "exact counts: %lld %lld %lld", v[0], v[1], v[2]);
	sim_advance((1ull << 48) + 7);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[0] == (long long)((1ull << 48) + 1000007),
	   "cycles past the 48-bit counter width stay exact: %lld", v[0]);
	sim_advance(5000);
	long long w[4];
	PAPI_read(es, w);
	ok(memcmp(v, w, 3 * sizeof *v) == 0, "a stopped set does not count");

	is_int(PAPI_start(es), PAPI_OK, "start again");
	sim_advance(10);
	PAPI_stop(es, v);
	ok(v[0] == 10 && v[1] == 20, "restart begins from zero: %lld %lld", v[0], v[1]);

	PAPI_start(es);
	sim_advance(1000);
	uint64_t io = sim_ioctls(), rd = sim_reads(), pmc = sim_rdpmcs();
	is_int(PAPI_reset(es), PAPI_OK, "reset while counting");
	/* one look at the counters: a group read(), or rdpmc from user space */
	ok(sim_ioctls() == io && sim_reads() - rd + (sim_rdpmcs() > pmc) == 1,
	   "reset reads the counters once and makes no ioctl (%llu ioctls, %llu reads, %llu rdpmc)",
	   (unsigned long long)(sim_ioctls() - io), (unsigned long long)(sim_reads() - rd),
	   (unsigned long long)(sim_rdpmcs() - pmc));
	PAPI_read(es, v);
	ok(v[0] == 0 && v[1] == 0 && v[2] == 0, "right after reset: zero (%lld %lld %lld)", v[0], v[1], v[2]);
	sim_advance(500);
	PAPI_read(es, v);
	ok(v[0] == 500 && v[1] == 1000 && v[2] == 50, "counts since the reset: %lld %lld %lld", v[0], v[1], v[2]);
	PAPI_stop(es, v);
	is_int(PAPI_reset(es), PAPI_OK, "reset a stopped set");
	PAPI_read(es, v);
	ok(v[0] == 0 && v[1] == 0, "a stopped set reads zero after reset: %lld %lld", v[0], v[1]);
	PAPI_start(es);
	sim_advance(30);
	PAPI_stop(es, v);
	ok(v[0] == 30 && v[1] == 60, "and starts from zero again: %lld %lld", v[0], v[1]);

	is_int(PAPI_remove_named_event(es, "skx::CYCLE_ACTIVITY:STALLS_L1D_MISS"), PAPI_OK, "remove");
	is_int(add(es, "skx::MEM_LOAD_RETIRED:L1_HIT"), PAPI_OK, "now the other counter-2 event fits");
	is_int(PAPI_cleanup_eventset(es), PAPI_OK, "cleanup");
	is_int(sim_open_count(), 0, "cleanup closes every counter");
	is_int(PAPI_destroy_eventset(&es), PAPI_OK, "destroy");

	/* Another set holding the counters does not make an add fail: the
	 * kernel only checks the group itself (the sets then share by rotation). */
	int a = PAPI_NULL, b = PAPI_NULL;
	PAPI_create_eventset(&a);
	PAPI_create_eventset(&b);
	is_int(add(a, "skx::CYCLE_ACTIVITY:STALLS_L1D_MISS"), PAPI_OK, "set A takes counter 2");
	is_int(add(b, "skx::MEM_LOAD_RETIRED:L1_HIT"), PAPI_OK, "set B may still add its counter-2 event");
	PAPI_start(a);
	PAPI_start(b);
	sim_advance(4000000 * 10ull);
	PAPI_stop(a, v);
	PAPI_stop(b, w);
	ok(v[0] == 4000000 && w[0] > 0 && w[0] < 40000000 / 3,
	   "the two sets took turns on counter 2, values scaled: %lld %lld", v[0], w[0]);
	/* A restart takes its time base from the stop's read (the times of a
	 * disabled group stand still): the scaled counts stay exact, whether A
	 * shares counter 2 with B (round 0, 2) or has it alone (round 1). */
	for (int round = 0; round < 3; round++) {
		EventSet_t *sa = es_lookup(a);
		ok(sa && sa->frozen, "round %d: stopped set A may restart without a rebase read", round);
		PAPI_start(a);
		if (round != 1)
			PAPI_start(b);
		sim_advance(4000000 * 10ull);
		PAPI_stop(a, v);
		if (round != 1)
			PAPI_stop(b, w);
		ok(v[0] == 4000000, "round %d: the restarted set scales exactly: %lld", round, v[0]);
	}
	PAPI_cleanup_eventset(a);
	PAPI_cleanup_eventset(b);
	PAPI_destroy_eventset(&a);
	PAPI_destroy_eventset(&b);
}

static void multiplex(void)
{
	static const char *const names[] = {
		"skx::UNHALTED_CORE_CYCLES", "skx::INST_RETIRED:ANY_P",
		"skx::BR_INST_RETIRED:ALL_BRANCHES", "skx::CYCLE_ACTIVITY:STALLS_L1D_MISS",
		"skx::MEM_LOAD_RETIRED:L1_HIT", "skx::L2_RQSTS:MISS", "skx::UOPS_ISSUED:ANY",
	};
	static const long long rate_num[] = { 1, 2, 1, 1, 1, 1, 1 }, rate_den[] = { 1, 1, 5, 10, 3, 1, 1 };
	enum { N = sizeof names / sizeof names[0] };
	int es = PAPI_NULL;
	long long v[N];
	PAPI_create_eventset(&es);
	is_int(PAPI_set_multiplex(es), PAPI_ENOCMP, "PAPI_set_multiplex before a component is bound: PAPI_ENOCMP");
	is_int(PAPI_assign_eventset_component(es, 0), PAPI_OK, "bind the core component");
	is_int(PAPI_set_multiplex(es), PAPI_OK, "PAPI_set_multiplex");
	is_int(PAPI_get_multiplex(es), 1, "the set is multiplexed");
	is_int(PAPI_set_multiplex(es), PAPI_EINVAL, "twice: PAPI_EINVAL");
	int added = 0;
	for (int i = 0; i < N; i++)
		added += add(es, names[i]) == PAPI_OK;
	is_int(added, N, "7 events on 4+3 counters, two of them wanting counter 2: all added multiplexed");
	PAPI_start(es);
	uint64_t cycles = 4000000ull * 60;	/* 60 rotations */
	sim_advance(cycles);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	int exact = 0;
	for (int i = 0; i < N; i++) {
		long long want = (long long)cycles * rate_num[i] / rate_den[i];
		long long d = v[i] - want;
		/* count*enabled/running: exact up to the remainder of the rate */
		exact += d >= -rate_den[i] * 60 && d <= rate_den[i] * 60;
		if (d < -rate_den[i] * 60 || d > rate_den[i] * 60)
			diag("%s: %lld, want %lld", names[i], v[i], want);
	}
	is_int(exact, N, "every scaled count equals rate x time (time_running < time_enabled)");
	/* A reset in the middle of the rotation: the counts after it are scaled
	 * from the reset on, as exactly as from a start. */
	PAPI_start(es);
	sim_advance(4000000ull * 7 + 1234567);
	is_int(PAPI_reset(es), PAPI_OK, "reset while rotating");
	sim_advance(cycles);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop after the reset");
	exact = 0;
	for (int i = 0; i < N; i++) {
		long long want = (long long)cycles * rate_num[i] / rate_den[i];
		long long d = v[i] - want;
		/* a reset between ticks: the partial slices add a tick's worth of error at most */
		long long tol = rate_den[i] * 61 + want / 60;
		exact += d >= -tol && d <= tol;
		if (d < -tol || d > tol)
			diag("%s after reset: %lld, want %lld", names[i], v[i], want);
	}
	is_int(exact, N, "after a reset mid-rotation, every scaled count is the work since the reset");
	/* Without multiplexing the same 7 events cannot even be added together. */
	int plain = PAPI_NULL, fit = 0;
	PAPI_create_eventset(&plain);
	for (int i = 0; i < N; i++)
		fit += add(plain, names[i]) == PAPI_OK;
	ok(fit < N, "not multiplexed, only %d of the %d events fit the counters", fit, N);
	PAPI_cleanup_eventset(plain);
	PAPI_destroy_eventset(&plain);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static void advice(void)
{
	static const struct {
		int line, err, papi;
		const char *words;
	} rows[] = {
		{ __LINE__, EACCES, PAPI_EPERM, "although perf_event_paranoid=1 allows it" },
		{ __LINE__, EPERM, PAPI_EPERM, "a security policy forbids it" },
		{ __LINE__, ENOENT, PAPI_ENOEVNT, "does not know this event" },
		{ __LINE__, ENODEV, PAPI_ENOSUPP, "does not know this event" },
		{ __LINE__, EOPNOTSUPP, PAPI_ENOSUPP, "does not know this event" },
		{ __LINE__, ENOSPC, PAPI_ECNFLCT, "no free hardware counter" },
		{ __LINE__, EBUSY, PAPI_ECNFLCT, "in use by another tool" },
		{ __LINE__, EINVAL, PAPI_EINVAL, "refused its encoding" },
		{ __LINE__, EMFILE, PAPI_ESYS, "ulimit -n" },
		{ __LINE__, ENFILE, PAPI_ESYS, "file descriptors" },
		{ __LINE__, ESRCH, PAPI_ESYS, "no such process" },
		{ __LINE__, ENOSYS, PAPI_ESYS, "no perf_event support" },
		{ __LINE__, ENOMEM, PAPI_ENOMEM, "Cannot allocate memory" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int es = PAPI_NULL;
		PAPI_create_eventset(&es);
		sim_fail_next(rows[i].err, 1);
		is_int(add(es, "skx::UNHALTED_CORE_CYCLES"), rows[i].papi, "errno %d -> PAPI code (line %d)",
		       rows[i].err, rows[i].line);
		const char *why = papi_last_reason();
		ok(strstr(why, "skx::UNHALTED_CORE_CYCLES") && strstr(why, rows[i].words),
		   "advice for errno %d says '%s': %s (line %d)", rows[i].err, rows[i].words, why,
		   rows[i].line);
		sim_fail_next(0, 0);
		PAPI_destroy_eventset(&es);
	}
	/* The same through the simulated causes rather than injection. */
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	sim_set_busy(1);
	is_int(add(es, "skx::UNHALTED_CORE_CYCLES"), PAPI_ECNFLCT, "EBUSY from a PMU owned elsewhere");
	sim_set_busy(0);
	sim_event_refuse(PERF_TYPE_RAW, 0x3f24, ENOENT);
	is_int(add(es, "skx::UNHALTED_CORE_CYCLES"), PAPI_OK, "first event");
	is_int(add(es, "skx::L2_RQSTS:MISS"), PAPI_ENOEVNT,
	       "an event the PMU lacks is ENOEVNT in a group too, not a conflict");
	is_int(PAPI_num_events(es), 1, "set unchanged");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	if (pmu_tables_missing("skx", "counting on a simulated skx PMU"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	struct sim_config c = sim_default_config();
	sim_install(&c);
	sim_declare_skx();
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init on the simulated PMU");
	exact_and_conflict();
	multiplex();
	advice();
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	add(es, "skx::UNHALTED_CORE_CYCLES");
	PAPI_start(es);
	PAPI_shutdown();
	is_int(sim_open_count(), 0, "PAPI_shutdown closes the counters of a running set");
	sim_uninstall();
	return tap_done();
}

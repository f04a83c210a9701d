/* t_sim_rdpmc.c: user-space counter reads (perf user page + rdpmc) on the simulated PMU: same values as read(), width and wrap, seqlock retries, fallbacks, page lifetimes, multiplex scaling. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "sim/sim_pmu.h"
#include "tap.h"
#include "pmu_child.h"

#define TICK 4000000ull	/* the simulator's rotation interval */

/* Bring the library up on simulator config c, with PAPI_RDPMC=0 when !rdpmc. */
static void up(const struct sim_config *c, int rdpmc)
{
	if (rdpmc)
		unsetenv("PAPI_RDPMC");
	else
		setenv("PAPI_RDPMC", "0", 1);
	sim_install(c);
	sim_declare_skx();
	PAPI_library_init(PAPI_VER_CURRENT);
}

static void down(void)
{
	PAPI_shutdown();
	sim_uninstall();
}

static int new_set(const char *const *names, int n)
{
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	for (int i = 0; i < n; i++)
		if (PAPI_add_named_event(es, names[i]) != PAPI_OK)
			diag("could not add %s: %s", names[i], papi_last_reason());
	return es;
}

static const char *const three[] = { "skx::UNHALTED_CORE_CYCLES", "skx::INST_RETIRED:ANY_P",
				     "skx::BR_INST_RETIRED:ALL_BRANCHES" };

/* ------------------------------------------------------------------ scenarios run twice */

/* What one run of a scenario saw: every value it read, how many read()
 * calls the PAPI_read/PAPI_accum calls of interest made, rdpmc ops in all. */
struct run {
	long long v[64];
	int n, calls;
	uint64_t reads, rdpmcs;
	int maps_after;		/* user pages still mapped after PAPI_shutdown */
};

/* PAPI_read (accum: PAPI_accum) of es's n events, recorded in r. */
static void rec(struct run *r, int es, int n, int accum)
{
	long long v[8] = { 0 };
	uint64_t before = sim_reads();
	int ret = accum ? PAPI_accum(es, v) : PAPI_read(es, v);
	if (ret != PAPI_OK)
		diag("read failed: %d", ret);
	r->reads += sim_reads() - before;
	r->calls++;
	for (int i = 0; i < n && r->n < 64; i++)
		r->v[r->n++] = v[i];
}

/* Counting, reading, accumulating, resetting and restarting a 3-event set. */
static void sc_counting(struct run *r)
{
	int es = new_set(three, 3);
	long long v[3];
	PAPI_start(es);
	sim_advance(1000000);
	rec(r, es, 3, 0);
	sim_advance(3000000000ull);	/* past 2^31 ns: the TSC conversion's upper part */
	rec(r, es, 3, 0);
	sim_advance(777);
	rec(r, es, 3, 1);
	sim_advance(5000);
	rec(r, es, 3, 0);
	PAPI_reset(es);
	sim_advance(123);
	rec(r, es, 3, 0);
	PAPI_stop(es, v);
	for (int i = 0; i < 3; i++)
		r->v[r->n++] = v[i];
	PAPI_start(es);
	sim_advance(4242);
	rec(r, es, 3, 0);
	PAPI_stop(es, v);
}

/* Kernel multiplexing: STALL and L1HIT share counter 2; set A (multiplexed,
 * CYC + STALL) reads while B's L1HIT still rotates with it and after B has
 * stopped, when A's counters all sit on counters but ran only part of the time. */
static void sc_multiplex(struct run *r)
{
	static const char *const a_names[] = { "skx::UNHALTED_CORE_CYCLES",
					       "skx::CYCLE_ACTIVITY:STALLS_L1D_MISS" };
	static const char *const b_names[] = { "skx::MEM_LOAD_RETIRED:L1_HIT" };
	int a = new_set(a_names, 0), b = new_set(b_names, 1);
	PAPI_assign_eventset_component(a, 0);
	if (PAPI_set_multiplex(a) != PAPI_OK)
		diag("set_multiplex failed");
	for (int i = 0; i < 2; i++)
		PAPI_add_named_event(a, a_names[i]);
	long long v[2];
	PAPI_start(a);
	PAPI_start(b);
	sim_advance(TICK * 10);
	PAPI_stop(b, v);
	sim_advance(TICK * 3 + 1000);
	rec(r, a, 2, 0);
	sim_advance(TICK * 2);
	rec(r, a, 2, 1);
	sim_advance(TICK);
	rec(r, a, 2, 0);
	PAPI_stop(a, v);
}

static void run(const struct sim_config *c, int rdpmc, void (*sc)(struct run *), struct run *r)
{
	memset(r, 0, sizeof *r);
	up(c, rdpmc);
	sc(r);
	r->rdpmcs = sim_rdpmcs();
	PAPI_shutdown();
	r->maps_after = sim_maps_live();
	sim_uninstall();
}

static void same_values(const char *what, void (*sc)(struct run *), int lazy)
{
	struct sim_config c = sim_default_config();
	c.lazy_page = lazy;
	struct run fast, slow;
	run(&c, 1, sc, &fast);
	run(&c, 0, sc, &slow);
	const char *mode = lazy ? "pages rewritten only on reschedule" : "pages fresh";
	ok(fast.n > 0 && fast.n == slow.n && memcmp(fast.v, slow.v, sizeof fast.v) == 0,
	   "%s (%s): rdpmc reads give the values read() gives", what, mode);
	for (int i = 0; i < fast.n && i < slow.n; i++)
		if (fast.v[i] != slow.v[i])
			diag("value %d: rdpmc %lld, read() %lld", i, fast.v[i], slow.v[i]);
	ok(fast.rdpmcs > 0 && fast.reads == 0,
	   "%s (%s): the running reads took no read() call (%llu rdpmc ops, %llu reads)", what, mode,
	   (unsigned long long)fast.rdpmcs, (unsigned long long)fast.reads);
	ok(slow.rdpmcs == 0 && slow.reads >= (uint64_t)slow.calls && slow.calls > 0,
	   "%s (%s): PAPI_RDPMC=0: no rdpmc, read() at each call (%llu for %d)", what, mode,
	   (unsigned long long)slow.reads, slow.calls);
	ok(fast.maps_after == 0 && slow.maps_after == 0, "%s (%s): no user page left mapped", what,
	   mode);
}

/* Compare both ways with fresh and with lazily rewritten pages, then run the
 * scenario once more with rdpmc and lazy pages into truth. */
static void both_ways(const char *what, void (*sc)(struct run *), struct run *truth)
{
	same_values(what, sc, 0);
	same_values(what, sc, 1);
	struct sim_config c = sim_default_config();
	c.lazy_page = 1;
	run(&c, 1, sc, truth);
}

static void counting_values(void)
{
	struct run r;
	both_ways("counting", sc_counting, &r);
	ok(r.v[0] == 1000000 && r.v[1] == 2000000 && r.v[2] == 200000,
	   "rdpmc counts are exact: %lld %lld %lld", r.v[0], r.v[1], r.v[2]);
	ok(r.v[3] == 3001000000ll && r.v[4] == 6002000000ll && r.v[5] == 600200000,
	   "after 3e9 more cycles: %lld %lld %lld", r.v[3], r.v[4], r.v[5]);
	ok(r.v[9] == 5000 && r.v[12] == 123 && r.v[18] == 4242,
	   "accum zeroes, reset zeroes, a restart counts from zero: %lld %lld %lld", r.v[9],
	   r.v[12], r.v[18]);
}

static void multiplex_values(void)
{
	struct run r;
	both_ways("kernel multiplexing", sc_multiplex, &r);
	/* STALL ran about half of the first 10 ticks, then alone: scaled by
	 * enabled/running its estimate is close to enabled time / 10. */
	long long en = (long long)(TICK * 13 + 1000), est = r.v[1], want = en / 10;
	ok(r.v[0] == en, "cycles never left their fixed counter: %lld", r.v[0]);
	ok(est > want - want / 50 && est < want + want / 50,
	   "the multiplexed event is scaled by enabled/running: %lld ~ %lld", est, want);
}

/* ------------------------------------------------------------------ width and wrap */

static void wrap(int width)
{
	struct sim_config c = sim_default_config();
	c.pmu[0].width = width;
	c.pmc_start = (width == 64 ? 0 : (1ull << width)) - 500;	/* 500 below the top */
	c.lazy_page = 1;
	up(&c, 1);
	int es = new_set(three, 1);
	long long v[1];
	PAPI_start(es);
	sim_advance(100);
	EventSet_t *s = es_lookup(es);
	const struct perf_event_mmap_page *pg = s ? s->hw[0].page : NULL;
	ok(pg && pg->index > 0 && pg->pmc_width == width, "width %d: the counter's page is mapped",
	   width);
	int64_t raw = pg ? sim_rdpmc(s->hw[0].fd, pg->index - 1) : -1;
	uint64_t top = width == 64 ? ~0ull : (1ull << width) - 1;
	ok(raw >= 0 && (uint64_t)raw == top - 399, "width %d: raw counter near the top (%llx)",
	   width, (unsigned long long)raw);
	uint64_t r0 = sim_reads();
	PAPI_read(es, v);
	ok(v[0] == 100 && sim_reads() == r0,
	   "width %d: sign-extended from the top of the width: %lld, no read()", width, v[0]);
	sim_advance(1000);
	raw = pg ? sim_rdpmc(s->hw[0].fd, pg->index - 1) : -1;
	ok(raw == 600, "width %d: the raw counter wrapped (%lld)", width, (long long)raw);
	PAPI_read(es, v);
	ok(v[0] == 1100 && sim_reads() == r0, "width %d: count goes on across the wrap: %lld",
	   width, v[0]);
	PAPI_stop(es, v);
	ok(v[0] == 1100, "width %d: stop agrees: %lld", width, v[0]);
	down();
}

/* ------------------------------------------------------------------ seqlock */

static void seqlock(void)
{
	struct sim_config c = sim_default_config();
	c.lazy_page = 1;
	up(&c, 1);
	int es = new_set(three, 3);
	long long v[3];
	PAPI_start(es);
	sim_advance(10000);
	uint64_t r0 = sim_reads(), p0 = sim_rdpmcs();
	sim_rdpmc_interfere(1);
	PAPI_read(es, v);
	ok(v[0] == 10000 && v[1] == 20000 && v[2] == 2000,
	   "a counter reprogrammed under the reader: exact after a retry (%lld %lld %lld)", v[0],
	   v[1], v[2]);
	is_int(sim_rdpmcs() - p0, 4, "three counters, one read again after the page's lock moved");
	is_int(sim_reads() - r0, 0, "and no read() was needed");

	/* A page that never holds still: the reader gives up and read() answers. */
	sim_rdpmc_interfere(1000000);
	sim_advance(10);
	PAPI_read(es, v);
	ok(v[0] == 10010 && v[1] == 20020 && v[2] == 2002,
	   "a page that keeps changing: read() answers, exact (%lld %lld %lld)", v[0], v[1], v[2]);
	is_int(sim_reads() - r0, 1, "one read() after the bounded retries");
	sim_rdpmc_interfere(0);

	/* An odd lock is a write in progress: never trusted. */
	EventSet_t *s = es_lookup(es);
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)s->hw[1].page;
	__atomic_add_fetch(&pg->lock, 1, __ATOMIC_SEQ_CST);
	p0 = sim_rdpmcs();
	PAPI_read(es, v);
	is_int(sim_reads() - r0, 2, "a page whose lock stays odd: read() answers");
	ok(v[1] == 20020, "with the right value: %lld", v[1]);
	__atomic_add_fetch(&pg->lock, 1, __ATOMIC_SEQ_CST);
	sim_advance(5);
	PAPI_read(es, v);
	ok(v[1] == 20030 && sim_reads() - r0 == 2, "once the write completes, rdpmc again: %lld",
	   v[1]);
	PAPI_stop(es, v);
	down();
}

/* ------------------------------------------------------------------ fallbacks */

static void *read_other_thread(void *arg)
{
	int es = *(int *)arg;
	static long long v[3];
	PAPI_read(es, v);
	return v;
}

/* Start es, count, read it and say how many read() calls that read made. */
static uint64_t reads_of_one_read(int es, long long *v)
{
	PAPI_start(es);
	sim_advance(1000);
	uint64_t r0 = sim_reads();
	PAPI_read(es, v);
	uint64_t n = sim_reads() - r0;
	PAPI_stop(es, NULL);
	return n;
}

static void fallbacks(void)
{
	long long v[3];
	struct sim_config c = sim_default_config();
	c.rdpmc = 0;
	up(&c, 1);
	int es = new_set(three, 3);
	is_int(reads_of_one_read(es, v), 1, "page says cap_user_rdpmc=0: read()");
	ok(v[0] == 1000 && v[1] == 2000 && sim_rdpmcs() == 0, "and never rdpmc: %lld %lld", v[0], v[1]);
	down();

	c = sim_default_config();
	up(&c, 1);
	es = new_set(three, 3);
	is_int(sim_maps_live(), 3, "an eligible set maps one page per counter");
	is_int(reads_of_one_read(es, v), 0, "and reads them without read()");
	ok(v[0] == 1000, "%lld", v[0]);

	/* Another thread reading the set: rdpmc would read its own CPU. */
	PAPI_start(es);
	sim_advance(1000);
	uint64_t r0 = sim_reads();
	pthread_t t;
	void *res = NULL;
	pthread_create(&t, NULL, read_other_thread, &es);
	pthread_join(t, &res);
	is_int(sim_reads() - r0, 1, "a read from another thread than the counted one: read()");
	ok(res && ((long long *)res)[0] == 1000, "with the right value: %lld",
	   res ? ((long long *)res)[0] : -1);
	PAPI_stop(es, NULL);

	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.inherit.eventset = es;
	o.inherit.inherit = PAPI_INHERIT_ALL;
	is_int(PAPI_set_opt(PAPI_INHERIT, &o), PAPI_OK, "inherit");
	is_int(sim_maps_live(), 0, "an inherited set maps no page (its reopen unmapped them)");
	is_int(reads_of_one_read(es, v), 1, "and reads with read()");
	o.inherit.inherit = PAPI_INHERIT_NONE;
	PAPI_set_opt(PAPI_INHERIT, &o);
	is_int(sim_maps_live(), 3, "not inherited any more: pages again");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	es = new_set(three, 3);
	is_int(PAPI_attach(es, (unsigned long)getpid()), PAPI_OK, "attach");
	is_int(sim_maps_live(), 0, "an attached set maps no page");
	is_int(reads_of_one_read(es, v), 1, "and reads with read()");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	es = new_set(NULL, 0);
	PAPI_assign_eventset_component(es, 0);
	memset(&o, 0, sizeof o);
	o.multiplex.eventset = es;
	o.multiplex.flags = PAPI_MULTIPLEX_FORCE_SW;
	is_int(PAPI_set_opt(PAPI_MULTIPLEX, &o), PAPI_OK, "software multiplexing");
	for (int i = 0; i < 3; i++)
		PAPI_add_named_event(es, three[i]);
	is_int(sim_maps_live(), 0, "a software-multiplexed set maps no page");
	ok(reads_of_one_read(es, v) > 0, "and reads with read()");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	down();

	/* Software events (named without libpfm4: no forced PMU). */
	unsetenv("LIBPFM_FORCE_PMU");
	c = sim_default_config();
	up(&c, 1);
	static const char *const sw[] = { "perf::TASK-CLOCK" };
	es = new_set(sw, 1);
	is_int(sim_maps_live(), 0, "a software event maps no page");
	is_int(reads_of_one_read(es, v), 1, "and reads with read()");
	ok(v[0] == 1000, "%lld", v[0]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	down();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);

	c = sim_default_config();
	up(&c, 0);
	es = new_set(three, 3);
	is_int(sim_maps_live(), 0, "PAPI_RDPMC=0: no page mapped");
	is_int(reads_of_one_read(es, v), 1, "PAPI_RDPMC=0: read()");
	down();

}

/* ------------------------------------------------------------------ page lifetimes */

static void lifetimes(void)
{
	struct sim_config c = sim_default_config();
	up(&c, 1);
	int es = new_set(three, 3);
	is_int(sim_maps_live(), 3, "three counters, three pages");
	is_int(PAPI_remove_named_event(es, three[2]), PAPI_OK, "remove one event");
	is_int(sim_maps_live(), 2, "its page went with its counter");
	is_int(PAPI_add_named_event(es, "skx::CYCLE_ACTIVITY:STALLS_L1D_MISS"), PAPI_OK, "add a counter-2 event");
	is_int(PAPI_add_named_event(es, "skx::MEM_LOAD_RETIRED:L1_HIT"), PAPI_ECNFLCT,
	       "a conflicting add fails");
	is_int(sim_maps_live(), 3, "and leaves no page of its own behind");
	is_int(PAPI_set_domain(PAPI_DOM_ALL), PAPI_OK, "default domain");
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	o.domain.eventset = es;
	o.domain.domain = PAPI_DOM_USER;
	is_int(PAPI_set_opt(PAPI_DOMAIN, &o), PAPI_OK, "change the set's domain (reopens it)");
	is_int(sim_maps_live(), 3, "a reopen maps each counter's page once");
	sim_fail_next(EMFILE, 1);
	o.domain.domain = PAPI_DOM_USER | PAPI_DOM_KERNEL;
	ok(PAPI_set_opt(PAPI_DOMAIN, &o) != PAPI_OK, "a reopen that fails");
	ok(sim_maps_live() <= 3 && sim_maps_live() == sim_open_count(),
	   "keeps no page without its counter (%d pages, %d counters)", sim_maps_live(),
	   sim_open_count());
	is_int(PAPI_cleanup_eventset(es), PAPI_OK, "cleanup");
	is_int(sim_maps_live(), 0, "cleanup unmaps every page");
	is_int(PAPI_destroy_eventset(&es), PAPI_OK, "destroy");
	es = new_set(three, 2);
	PAPI_start(es);
	down();
	is_int(sim_maps_live(), 0, "shutdown with a running set unmaps its pages");
}

int main(void)
{
	if (pmu_tables_missing("skx", "rdpmc reads on a simulated skx PMU"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	counting_values();
	multiplex_values();
	wrap(48);
	wrap(32);
	seqlock();
	fallbacks();
	lifetimes();
	unsetenv("PAPI_RDPMC");
	return tap_done();
}

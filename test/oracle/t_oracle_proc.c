/* t_oracle_proc.c: libpapi's counts across processes and threads, and its overflow calls, against the tests' own counter.
 *
 * As in t_oracle_lib (oracle.h): a raw counter of each event, enabled
 * before PAPI_start and disabled after PAPI_stop, read after the start and
 * before the stop, brackets libpapi's count: exactly for page faults and
 * context switches, to 0.5% + 50 us for clocks. getrusage is the second
 * oracle: a child's minor faults, this process's context switches. Covered:
 * a pipe ping-pong (context switches), PAPI_attach to a child that touches
 * pages, PAPI_INHERIT over forked children that touch pages and one that
 * execs, threads that count themselves, and PAPI_overflow's handler calls
 * against the raw counter's total over the threshold. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "oracle.h"

#define KIDS 3
#define THREADS 3
#define PINGS 200

/* Whether this process may count the kernel's share (root, CAP_PERFMON,
 * or perf_event_paranoid 1 or lower): the component says so. */
static int kernel_ok(void)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	return ci && (ci->available_domains & PAPI_DOM_KERNEL);
}

/* A set counting user and kernel space (not the hypervisor: the raw
 * counter leaves it out too). */
static int kernel_set(int *es, const char *const *names, int n)
{
	int r;
	PAPI_option_t o;
	*es = PAPI_NULL;
	if ((r = PAPI_create_eventset(es)) != PAPI_OK || (r = PAPI_assign_eventset_component(*es, 0)) != PAPI_OK)
		return r;
	memset(&o, 0, sizeof o);
	o.domain.eventset = *es;
	o.domain.domain = PAPI_DOM_USER | PAPI_DOM_KERNEL;
	if ((r = PAPI_set_opt(PAPI_DOMAIN, &o)) != PAPI_OK)
		return r;
	for (int i = 0; i < n; i++)
		if ((r = PAPI_add_named_event(*es, names[i])) != PAPI_OK)
			return r;
	return PAPI_OK;
}

/* A child that echoes each byte of its input pipe back, PINGS times: each
 * round trip blocks this process in read() until the child has run. */
static void ping_pong(void)
{
	static const char *const names[] = { "perf::CONTEXT-SWITCHES", "perf::TASK-CLOCK" };
	int kern = kernel_ok(), es, to[2], from[2];
	struct orc o;
	long long v[2];
	int r = kern ? kernel_set(&es, names, 2) : orc_set(&es, names, 2, 0);
	if (!ok(r == PAPI_OK && orc_open_dom(&o, names, 2, 0, 0, kern) == 0, "a set counting context switches (%s)",
		kern ? "user and kernel" : "user space"))
		return;
	if (pipe(to) < 0 || pipe(from) < 0)
		return;
	pid_t c = fork();
	if (c == 0) {
		char b;
		close(to[1]);
		close(from[0]);
		while (read(to[0], &b, 1) == 1 && write(from[1], &b, 1) == 1)
			;
		_exit(0);
	}
	struct rusage r0, r1;
	orc_outer_on(&o);
	PAPI_start(es);
	orc_inner_on(&o);
	getrusage(RUSAGE_SELF, &r0);
	for (int i = 0; i < PINGS; i++) {
		char b = 'p';
		if (write(to[1], &b, 1) != 1 || read(from[0], &b, 1) != 1)
			break;
	}
	getrusage(RUSAGE_SELF, &r1);
	orc_inner_off(&o);
	PAPI_stop(es, v);
	orc_outer_off(&o);
	close(to[1]);
	waitpid(c, NULL, 0);
	close(to[0]), close(from[0]), close(from[1]);
	char what[96];
	snprintf(what, sizeof what, "%d round trips through a pipe to a child", PINGS);
	orc_check(&o, 0, v[0], what);
	orc_check(&o, 1, v[1], what);
	long ru = (r1.ru_nvcsw - r0.ru_nvcsw) + (r1.ru_nivcsw - r0.ru_nivcsw);
	if (!kern) {
		skip("counting the kernel's context switches needs root or perf_event_paranoid 1 or lower",
		     "getrusage's context switches against the raw counter's");
	} else {
		ok(ru >= 1 && ru <= o.lo[0], "getrusage's %ld context switches (within the raw counter's window) <= its %lld",
		   ru, o.lo[0]);
	}
	orc_close(&o);
	orc_set_free(&es);
}

/* A child that, once a byte arrives, touches n pages and writes back its
 * own count of minor faults over them (getrusage), then waits for EOF. */
static pid_t toucher(long n, int *go, int *done)
{
	int g[2], d[2];
	if (pipe(g) < 0 || pipe(d) < 0)
		return -1;
	pid_t p = fork();
	if (p == 0) {
		char b;
		close(g[1]);
		if (read(g[0], &b, 1) == 1) {
			long f0 = orc_minflt(RUSAGE_SELF);
			orc_touch(n);
			long f = orc_minflt(RUSAGE_SELF) - f0;
			if (write(d[1], &f, sizeof f) != sizeof f)
				_exit(1);
		}
		while (read(g[0], &b, 1) > 0)
			;
		_exit(0);
	}
	close(g[0]), close(d[1]);
	*go = g[1], *done = d[0];
	return p;
}

static void attach(void)
{
	static const char *const names[] = { "perf::PAGE-FAULTS", "perf::MINOR-FAULTS", "perf::TASK-CLOCK" };
	long n = orc_pages(16), f = -1;
	int go = -1, done = -1, es;
	struct orc o;
	long long v[3];
	pid_t c = toucher(n, &go, &done);
	if (!ok(c > 0, "a child to attach to"))
		return;
	int r = orc_set(&es, names, 3, 0);
	if (r == PAPI_OK)
		r = PAPI_attach(es, (unsigned long)c);
	if (ok(r == PAPI_OK && orc_open(&o, names, 3, c, 0) == 0, "PAPI_attach and the raw counters to child %d", (int)c)) {
		orc_outer_on(&o);
		PAPI_start(es);
		orc_inner_on(&o);
		if (write(go, "g", 1) != 1 || read(done, &f, sizeof f) != sizeof f)
			f = -1;
		orc_inner_off(&o);
		PAPI_stop(es, v);
		orc_outer_off(&o);
		char what[96];
		snprintf(what, sizeof what, "an attached child touching %ld fresh pages", n);
		for (int i = 0; i < 3; i++)
			orc_check(&o, i, v[i], what);
		ok(f >= n && f <= o.lo[0], "the child's getrusage: %ld minor faults, >= %ld pages and <= the raw %lld", f, n,
		   o.lo[0]);
		orc_close(&o);
	}
	orc_set_free(&es);
	close(go);
	close(done);
	waitpid(c, NULL, 0);
}

/* Children forked while the set runs, KIDS of them touching n pages and
 * one running /bin/true: an inherited count holds them all once they have
 * been waited for; so does the raw counter with inherit. */
static void inherit(void)
{
	static const char *const names[] = { "perf::PAGE-FAULTS", "perf::TASK-CLOCK" };
	long n = orc_pages(8);
	int es, r;
	struct orc o;
	long long v[2];
	PAPI_option_t opt;
	if ((r = orc_set(&es, names, 2, 0)) == PAPI_OK) {
		memset(&opt, 0, sizeof opt);
		opt.inherit.eventset = es;
		opt.inherit.inherit = PAPI_INHERIT_ALL;
		r = PAPI_set_opt(PAPI_INHERIT, &opt);
	}
	if (!ok(r == PAPI_OK && orc_open(&o, names, 2, 0, 1) == 0, "an inheriting set and inheriting raw counters")) {
		orc_set_free(&es);
		return;
	}
	long f0 = orc_minflt(RUSAGE_CHILDREN);
	orc_outer_on(&o);
	PAPI_start(es);
	orc_inner_on(&o);
	for (int k = 0; k <= KIDS; k++) {
		pid_t c = fork();
		if (c == 0) {
			if (k == KIDS) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			orc_touch(n);
			_exit(0);
		}
		if (c > 0)
			waitpid(c, NULL, 0);
	}
	orc_inner_off(&o);
	PAPI_stop(es, v);
	orc_outer_off(&o);
	long f = orc_minflt(RUSAGE_CHILDREN) - f0;
	char what[128];
	snprintf(what, sizeof what, "PAPI_INHERIT over %d children touching %ld pages each and one exec of /bin/true",
		 KIDS, n);
	orc_check(&o, 0, v[0], what);
	orc_check(&o, 1, v[1], what);
	ok(o.lo[0] >= KIDS * n, "the raw counter saw the children's %ld pages (%lld)", KIDS * n, o.lo[0]);
	ok(f >= KIDS * n, "getrusage saw the children's %ld pages (%ld minor faults)", KIDS * n, f);
	orc_close(&o);
	orc_set_free(&es);
}

/* Threads, each counting itself with its own set and raw counters; the
 * main thread's set meanwhile counts the main thread alone. */
struct job {
	long n;
	int err;
	struct orc o;
	long long v[2];
};

static const char *const tnames[] = { "perf::PAGE-FAULTS", "perf::TASK-CLOCK" };

static void *thread_main(void *arg)
{
	struct job *j = arg;
	int es;
	if ((j->err = PAPI_register_thread()) != PAPI_OK || (j->err = orc_set(&es, tnames, 2, 0)) != PAPI_OK)
		return NULL;
	if (orc_open(&j->o, tnames, 2, 0, 0) != 0) {
		j->err = PAPI_ESYS;
	} else {
		orc_outer_on(&j->o);
		PAPI_start(es);
		orc_inner_on(&j->o);
		orc_touch(j->n);
		orc_inner_off(&j->o);
		j->err = PAPI_stop(es, j->v);
		orc_outer_off(&j->o);
		orc_close(&j->o);
	}
	orc_set_free(&es);
	PAPI_unregister_thread();
	return NULL;
}

static unsigned long self_id(void)
{
	return (unsigned long)pthread_self();
}

static void threads(void)
{
	struct job jobs[THREADS];
	pthread_t th[THREADS];
	int es, started = 0;
	struct orc o;
	long long v[2];
	is_int(PAPI_thread_init(self_id), PAPI_OK, "PAPI_thread_init");
	if (!ok(orc_set(&es, tnames, 2, 0) == PAPI_OK && orc_open(&o, tnames, 2, 0, 0) == 0, "the main thread's set"))
		return;
	orc_outer_on(&o);
	PAPI_start(es);
	orc_inner_on(&o);
	for (int t = 0; t < THREADS; t++) {
		memset(&jobs[t], 0, sizeof jobs[t]);
		jobs[t].n = orc_pages(4 * (t + 1));
		if (pthread_create(&th[t], NULL, thread_main, &jobs[t]) == 0)
			started = t + 1;
		else
			break;
	}
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	orc_inner_off(&o);
	PAPI_stop(es, v);
	orc_outer_off(&o);
	is_int(started, THREADS, "threads started");
	char what[96];
	for (int t = 0; t < started; t++) {
		snprintf(what, sizeof what, "thread %d of %d touching %ld pages", t + 1, THREADS, jobs[t].n);
		if (!ok(jobs[t].err == PAPI_OK, "%s: its set counted (%s)", what, PAPI_strerror(jobs[t].err)))
			continue;
		orc_check(&jobs[t].o, 0, jobs[t].v[0], what);
		orc_check(&jobs[t].o, 1, jobs[t].v[1], what);
		ok(jobs[t].o.lo[0] >= jobs[t].n, "%s: the raw counter saw them (%lld)", what, jobs[t].o.lo[0]);
	}
	orc_check(&o, 0, v[0], "the main thread while its threads touch pages");
	orc_check(&o, 1, v[1], "the main thread while its threads touch pages");
	orc_close(&o);
	orc_set_free(&es);
}

/* PAPI_overflow on perf::PAGE-FAULTS: the kernel samples every threshold
 * user-mode faults, and libpapi calls the handler once a sample, so the
 * calls must be the raw counter's total over the threshold, rounded down
 * (between the inner and the outer count's). On perf::TASK-CLOCK a timer
 * takes the samples, and a timer that fires late (a busy hypervisor) drops
 * periods: there the calls are at least one and at most one more than the
 * outer count over the threshold. */
static volatile int calls;

static void on_overflow(int set, void *address, long long vec, void *context)
{
	calls++;
}

static void overflow(const char *event, long long thr, int clock)
{
	static const char *names[2] = { "perf::PAGE-FAULTS", "perf::TASK-CLOCK" };
	int es, code, i = clock ? 1 : 0;
	struct orc o;
	long long v[2];
	long n = orc_pages(64);
	int r = orc_set(&es, names, 2, 0);
	if (r == PAPI_OK && (r = PAPI_event_name_to_code(event, &code)) == PAPI_OK)
		r = PAPI_overflow(es, code, (int)thr, 0, on_overflow);
	if (!ok(r == PAPI_OK && orc_open(&o, names, 2, 0, 0) == 0, "PAPI_overflow on %s, threshold %lld", event, thr)) {
		orc_set_free(&es);
		return;
	}
	calls = 0;
	orc_outer_on(&o);
	PAPI_start(es);
	orc_inner_on(&o);
	if (clock)
		orc_spin(40000000);
	else
		orc_touch(n);
	orc_inner_off(&o);
	PAPI_stop(es, v);
	orc_outer_off(&o);
	int got = calls;
	char what[96];
	snprintf(what, sizeof what, "overflow on %s: %s", event, clock ? "40 ms on the CPU" : "touch 64 MiB");
	orc_check(&o, 0, v[0], what);
	orc_check(&o, 1, v[1], what);
	long long lo = o.lo[i] / thr, hi = o.hi[i] / thr;
	if (clock)
		lo = 1, hi++;
	/* A period set on a running counter samples a software event once
	 * more than its count over the period (a raw perf_event_open program:
	 * 4 samples of 3500 faults at a period of 1000 that way, 3 when the
	 * period is set before enabling): PAPI_start sets it before. */
	ok(got >= lo && got <= hi, "%s: %d handler calls in [%lld, %lld] (raw %lld to %lld over %lld)", what, got,
	   lo, hi, o.lo[i], o.hi[i], thr);
	PAPI_overflow(es, code, 0, 0, NULL);
	orc_close(&o);
	orc_set_free(&es);
}

int main(void)
{
	if (!ok(PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT, "PAPI_library_init"))
		return tap_done();
	int es;
	long long v[2];
	if (orc_set(&es, tnames, 2, 0) == PAPI_OK) {
		PAPI_start(es);
		orc_touch(1);
		PAPI_stop(es, v);
		orc_set_free(&es);
	}
	ping_pong();
	attach();
	inherit();
	overflow("perf::PAGE-FAULTS", 1000, 0);
	overflow("perf::TASK-CLOCK", 2000000, 1);
	threads();
	return tap_done();
}

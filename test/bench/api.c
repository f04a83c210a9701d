/* api.c (bench): what each public PAPI call costs, next to the raw perf_event syscalls it wraps.
 *
 * Uses only papi.h, so the same source builds against our libpapi.a and against
 * PAPI 7 (Debian's libpapi-dev); test/bench/run.sh builds and runs both. Not a
 * test: it prints "op median_ns" lines (raw_* are the kernel floor measured by
 * the same harness on a group of the same two software events).
 *   build/bench_api [BATCHES]
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "papi.h"

#define EV1 "perf::TASK-CLOCK"
#define EV2 "perf::PAGE-FAULTS"
#define MAXB 401

static int batches = 31;

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void report(const char *op, double *v, int n)
{
	printf("%-14s %10.0f\n", op, median(v, n));
	fflush(stdout);
}

static void die(const char *what, int r)
{
	fprintf(stderr, "bench_api: %s: %d\n", what, r);
	exit(1);
}

/* Time BODY over n iterations per batch; the median per-iteration cost. */
#define BENCH(op, n, BODY)                                                  \
	do {                                                                \
		double v_[MAXB];                                            \
		for (int b_ = 0; b_ < batches; b_++) {                      \
			long long t_ = now_ns();                            \
			for (int i_ = 0; i_ < (n); i_++) {                  \
				BODY;                                       \
			}                                                   \
			v_[b_] = (double)(now_ns() - t_) / (n);             \
		}                                                           \
		report(op, v_, batches);                                    \
	} while (0)

/* Time RAW and API alternately, batch by batch, so that both see the same
 * machine (other load comes and goes): the medians of each. */
#define PAIR(op, rop, n, RAW, API)                                           \
	do {                                                                 \
		double r_[MAXB], a_[MAXB];                                   \
		for (int b_ = 0; b_ < batches; b_++) {                       \
			long long t_ = now_ns();                             \
			for (int i_ = 0; i_ < (n); i_++) {                   \
				RAW;                                         \
			}                                                    \
			r_[b_] = (double)(now_ns() - t_) / (n);              \
			t_ = now_ns();                                       \
			for (int i_ = 0; i_ < (n); i_++) {                   \
				API;                                         \
			}                                                    \
			a_[b_] = (double)(now_ns() - t_) / (n);              \
		}                                                            \
		report(op, a_, batches);                                     \
		report(rop, r_, batches);                                    \
	} while (0)

static long faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt + ru.ru_majflt;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#define MADV_POPULATE_WRITE 23
#endif

/* Map every page of the process in before timing (Linux 5.14's
 * MADV_POPULATE_*): what is left is the calls' own work. 0 when the kernel
 * cannot. */
static int populate(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int ok = f != NULL;
	while (f && fgets(line, sizeof line, f)) {
		unsigned long a, e;
		char perm[5];
		if (sscanf(line, "%lx-%lx %4s", &a, &e, perm) != 3 || perm[0] != 'r' || strstr(line, "[v"))
			continue;
		if (madvise((void *)a, e - a, perm[1] == 'w' ? MADV_POPULATE_WRITE : MADV_POPULATE_READ) != 0)
			ok = 0;
	}
	if (f)
		fclose(f);
	return ok;
}

/* In a fresh process: library_init, the first native name, then a preset
 * name, each timed and with its page faults; written to fd as six doubles
 * (t[0] = -1 when a call failed). With pop, every page is mapped in first. */
static void child_measure(int fd, int pop)
{
	double t[6];
	if (pop && !populate())
		_exit(2);
	/* the clock's first call faults in the vDSO's pages: not the library's */
	(void)now_ns();
	long f0 = faults();
	long long t0 = now_ns();
	int r = PAPI_library_init(PAPI_VER_CURRENT);
	t[0] = (double)(now_ns() - t0);
	t[3] = (double)(faults() - f0);
	int code;
	f0 = faults();
	t0 = now_ns();
	int r2 = PAPI_event_name_to_code(EV1, &code);
	t[1] = (double)(now_ns() - t0);
	t[4] = (double)(faults() - f0);
	f0 = faults();
	t0 = now_ns();
	int r3 = PAPI_event_name_to_code("PAPI_TOT_INS", &code);
	t[2] = (double)(now_ns() - t0);
	t[5] = (double)(faults() - f0);
	if (r != PAPI_VER_CURRENT || r2 != PAPI_OK || r3 != PAPI_OK)
		t[0] = -1;
	_exit(write(fd, t, sizeof t) == sizeof t ? 0 : 1);
}

/* What one page fault costs here (a fresh anonymous page written): what
 * the first calls of a fresh process pay per page they touch. */
static void fault_cost(void)
{
	enum { PAGES = 256 };
	double v[MAXB];
	long page = sysconf(_SC_PAGESIZE);
	for (int b = 0; b < batches; b++) {
		char *p = mmap(NULL, PAGES * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (p == MAP_FAILED)
			die("mmap", -1);
		long long t = now_ns();
		for (int i = 0; i < PAGES; i++)
			p[(size_t)i * (size_t)page] = 1;
		v[b] = (double)(now_ns() - t) / PAGES;
		munmap(p, PAGES * (size_t)page);
	}
	report("fault_ns", v, batches);
}

enum { FORKED, POPULATED, EXECED };

/* library_init and the first lookups (a native event, then a preset), each
 * in a fresh process, with the page faults each took. FORKED: a forked
 * child, which faults again on every page it touches (on some VMs that
 * costs more than the work itself); POPULATED: the same with the child's
 * pages mapped in first, the calls' own work; EXECED: a new program (this
 * one run again), as a program that links the library starts. */
static void fresh(int how)
{
	static const char *const sfx[] = { "", "_pop", "_exec" };
	double init[MAXB], first[MAXB], preset[MAXB], fi = 0, ff = 0, fp = 0;
	for (int b = 0; b < batches; b++) {
		int fd[2];
		if (pipe(fd) < 0)
			die("pipe", -1);
		pid_t pid = fork();
		if (pid == 0) {
			close(fd[0]);
			if (how == EXECED) {
				char arg[16];
				snprintf(arg, sizeof arg, "%d", fd[1]);
				execl("/proc/self/exe", "bench_api", "--fresh-child", arg, (char *)NULL);
				_exit(127);
			}
			child_measure(fd[1], how == POPULATED);
		}
		close(fd[1]);
		double t[6] = { -1 };
		ssize_t got = read(fd[0], t, sizeof t);
		close(fd[0]);
		waitpid(pid, NULL, 0);
		if (got != (ssize_t)sizeof t || t[0] < 0) {
			if (how == POPULATED)
				return;	/* no MADV_POPULATE here: the row is left out */
			die("library_init in a fresh process", -1);
		}
		init[b] = t[0];
		first[b] = t[1];
		preset[b] = t[2];
		fi += t[3], ff += t[4], fp += t[5];
	}
	char op[6][32];
	snprintf(op[0], sizeof op[0], "library_init%s", sfx[how]);
	snprintf(op[1], sizeof op[1], "name_first%s", sfx[how]);
	snprintf(op[2], sizeof op[2], "preset_first%s", sfx[how]);
	report(op[0], init, batches);
	report(op[1], first, batches);
	report(op[2], preset, batches);
	if (how == POPULATED)
		return;
	snprintf(op[3], sizeof op[3], "faults_init%s", sfx[how]);
	snprintf(op[4], sizeof op[4], "faults_first%s", sfx[how]);
	snprintf(op[5], sizeof op[5], "faults_preset%s", sfx[how]);
	printf("%-14s %10.1f\n%-14s %10.1f\n%-14s %10.1f\n", op[3], fi / batches, op[4], ff / batches, op[5],
	       fp / batches);
}

static int open_sw(uint64_t config, int group)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.disabled = group < 0;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

/* The kernel floor: one group of the same two events, without a library. */
static int lead = -1, member = -1;
static uint64_t rbuf[8];

static void raw_open(void)
{
	lead = open_sw(PERF_COUNT_SW_TASK_CLOCK, -1);
	member = open_sw(PERF_COUNT_SW_PAGE_FAULTS, lead);
	if (lead < 0 || member < 0)
		die("perf_event_open", -1);
}

static void raw_read(void)
{
	if (read(lead, rbuf, sizeof rbuf) <= 0)
		die("read", -1);
}

/* start+stop: reset the group, enable and disable its leader (the member
 * counts while the leader does), and the read that returns the counts */
static void raw_startstop(void)
{
	ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(lead, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, 0);
	raw_read();
}

/* The least any library adds to the raw read: find the set by its number
 * in a table, read the group, and make each count relative to its base,
 * scaled when the kernel multiplexed it (PAPI_read's contract). */
struct least {
	int fd, n;
	uint64_t base[2], base_en, base_run;
};
static struct least *least_tab[4];

__attribute__((noinline)) static int least_read(int id, long long *v)
{
	if ((unsigned)id >= sizeof least_tab / sizeof *least_tab || !least_tab[id])
		return -1;
	struct least *l = least_tab[id];
	uint64_t b[8];
	ssize_t want = (ssize_t)((3 + l->n) * sizeof *b);
	if (read(l->fd, b, (size_t)want) != want)
		return -1;
	uint64_t en = b[1] - l->base_en, run = b[2] - l->base_run;
	for (int i = 0; i < l->n; i++) {
		uint64_t c = b[3 + i] - l->base[i];
		v[i] = (long long)(run < en && run ? (unsigned __int128)c * en / run : c);
	}
	return 0;
}

/* PAPI_read, the raw read() and least_read in turn, batch by batch: the
 * median of each, and the median of the per-batch ratios to the raw read
 * (x1000), which the machine's drift between batches moves less. */
static void read_three(int es, long long *v)
{
	static struct least l;
	l.fd = lead;
	l.n = 2;
	least_tab[1] = &l;
	enum { N = 500 };
	static double r[MAXB], a[MAXB], f[MAXB], ra[MAXB], rf[MAXB];
	int nb = 4 * batches < MAXB ? 4 * batches : MAXB;	/* a few percent: more batches */
	for (int b = 0; b < nb; b++) {
		long long t = now_ns();
		for (int i = 0; i < N; i++)
			raw_read();
		r[b] = (double)(now_ns() - t) / N;
		t = now_ns();
		for (int i = 0; i < N; i++)
			PAPI_read(es, v);
		a[b] = (double)(now_ns() - t) / N;
		t = now_ns();
		for (int i = 0; i < N; i++)
			least_read(1, v);
		f[b] = (double)(now_ns() - t) / N;
		ra[b] = 1000 * a[b] / r[b];
		rf[b] = 1000 * f[b] / r[b];
	}
	report("read", a, nb);
	report("raw_read", r, nb);
	report("least_read", f, nb);
	report("read_per_raw_x1000", ra, nb);
	report("least_per_raw_x1000", rf, nb);
}

static void api(void)
{
	int r, code, es = PAPI_NULL;
	long long v[2];
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		die("PAPI_library_init", r);
	BENCH("name_repeat", 2000, PAPI_event_name_to_code(EV1, &code));

	double add[MAXB];
	for (int b = 0; b < batches; b++) {
		int s = PAPI_NULL;
		if ((r = PAPI_create_eventset(&s)) != PAPI_OK)
			die("PAPI_create_eventset", r);
		long long t0 = now_ns();
		r = PAPI_add_named_event(s, EV1);
		add[b] = (double)(now_ns() - t0);
		if (r != PAPI_OK)
			die("PAPI_add_named_event", r);
		PAPI_cleanup_eventset(s);
		PAPI_destroy_eventset(&s);
	}
	report("add_event", add, batches);

	if ((r = PAPI_create_eventset(&es)) != PAPI_OK || (r = PAPI_add_named_event(es, EV1)) != PAPI_OK ||
	    (r = PAPI_add_named_event(es, EV2)) != PAPI_OK)
		die("building the set", r);
	raw_open();
	PAIR("start_stop", "raw_startstop", 500, raw_startstop(), {
		PAPI_start(es);
		PAPI_stop(es, v);
	});
	/* The same two events multiplexed in software (PAPI_MULTIPLEX_FORCE_SW):
	 * its start and stop beside the plain set's. */
	int mx = PAPI_NULL;
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	if ((r = PAPI_create_eventset(&mx)) != PAPI_OK || (r = PAPI_assign_eventset_component(mx, 0)) != PAPI_OK)
		die("building the multiplexed set", r);
	o.multiplex.eventset = mx;
	o.multiplex.flags = PAPI_MULTIPLEX_FORCE_SW;
	if ((r = PAPI_set_opt(PAPI_MULTIPLEX, &o)) != PAPI_OK || (r = PAPI_add_named_event(mx, EV1)) != PAPI_OK ||
	    (r = PAPI_add_named_event(mx, EV2)) != PAPI_OK || (r = PAPI_start(mx)) != PAPI_OK ||
	    (r = PAPI_stop(mx, v)) != PAPI_OK) {
		/* a library that cannot multiplex here says so (the error
		 * code) instead of a time */
		printf("mpx_refused %d\n", r);
	} else {
		PAIR("mpx_start_stop", "plain_start_stop", 500, {
			PAPI_start(es);
			PAPI_stop(es, v);
		}, {
			PAPI_start(mx);
			PAPI_stop(mx, v);
		});
	}
	PAPI_cleanup_eventset(mx);
	PAPI_destroy_eventset(&mx);
	if ((r = PAPI_start(es)) != PAPI_OK)
		die("PAPI_start", r);
	ioctl(lead, PERF_EVENT_IOC_ENABLE, 0);
	read_three(es, v);
	v[0] = v[1] = 0;
	PAIR("accum", "raw_read_a", 1000, raw_read(), PAPI_accum(es, v));
	PAIR("reset", "raw_reset", 1000, ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP),
	     PAPI_reset(es));
	PAPI_stop(es, v);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	if ((r = PAPI_hl_region_begin("warm")) != PAPI_OK || (r = PAPI_hl_region_end("warm")) != PAPI_OK)
		die("region API", r);
	PAIR("hl_region", "raw_2reads", 500, { raw_read(); raw_read(); }, {
		PAPI_hl_region_begin("timed");
		PAPI_hl_region_end("timed");
	});
	PAPI_hl_stop();
	close(member);
	close(lead);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--fresh-child"))
		child_measure(atoi(argv[2]), 0);
	if (argc > 1)
		batches = atoi(argv[1]);
	if (batches < 1 || batches > MAXB)
		batches = 31;
	setenv("PAPI_EVENTS", EV1 "," EV2, 1);
	fault_cost();
	fresh(FORKED);
	fresh(POPULATED);
	fresh(EXECED);
	api();
	return 0;
}

/* own.c (bench): the library's own share of each call, with the kernel taken
 * out: the sys seam's read() and ioctl() are replaced by ones that only fill
 * the buffer, so what remains is libpapi's work (locking, lookup, scaling,
 * the region bookkeeping and clocks). Built against our libpapi.a only (it
 * uses the internal seam). Not a test: it prints "op ns" lines.
 *   own [ITERATIONS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "papi.h"

static struct sys_ops quiet;

/* A group read as the kernel lays it out: nr, enabled, running, values. */
static ssize_t quiet_read(int fd, void *buf, size_t len)
{
	(void)fd;
	uint64_t *b = buf;
	memset(buf, 0, len);
	if (len >= 3 * sizeof *b) {
		b[0] = len / sizeof *b - 3;
		b[1] = b[2] = 1000;
	}
	return (ssize_t)len;
}

static int quiet_ioctl(int fd, unsigned long req, unsigned long arg)
{
	(void)fd, (void)req, (void)arg;
	return 0;
}

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void die(const char *what, int r)
{
	fprintf(stderr, "bench_own: %s: %d\n", what, r);
	exit(1);
}

#define OWN(op, BODY)                                                        \
	do {                                                                 \
		for (long i_ = 0; i_ < n / 10; i_++) { /* warm up */         \
			BODY;                                                \
		}                                                            \
		double t0_ = now_ns();                                       \
		for (long i_ = 0; i_ < n; i_++) {                             \
			BODY;                                                \
		}                                                            \
		printf("%-14s %10.1f\n", op, (now_ns() - t0_) / (double)n); \
	} while (0)

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	int es = PAPI_NULL, c, r;
	long long v[2];
	if (n < 1)
		n = 1000000;
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		die("PAPI_library_init", r);
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK)
		die("PAPI_create_eventset", r);
	const char *ev[] = { "perf::TASK-CLOCK", "perf::PAGE-FAULTS" };
	for (int i = 0; i < 2; i++)
		if ((r = PAPI_event_name_to_code(ev[i], &c)) != PAPI_OK ||
		    (r = PAPI_add_event(es, c)) != PAPI_OK)
			die(ev[i], r);
	if ((r = PAPI_hl_region_begin("warm")) != PAPI_OK || (r = PAPI_hl_region_end("warm")) != PAPI_OK)
		die("region API", r);
	if ((r = PAPI_start(es)) != PAPI_OK)
		die("PAPI_start", r);
	quiet = *sys;
	quiet.read = quiet_read;
	quiet.ioctl = quiet_ioctl;
	sys_set_ops(&quiet);
	OWN("own_read", PAPI_read(es, v));
	OWN("own_accum", PAPI_accum(es, v));
	OWN("own_reset", PAPI_reset(es));
	OWN("own_hl_region", {
		PAPI_hl_region_begin("timed");
		PAPI_hl_region_end("timed");
	});
	sys_set_ops(NULL);
	PAPI_hl_stop();
	PAPI_stop(es, v);
	return 0;
}

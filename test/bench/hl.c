/* hl.c (bench): what a region begin+end costs against two raw perf group reads of the same events, and memory over 1M pairs.
 *
 * Not a test: it prints numbers. Build and run from the top of the tree:
 *   cc -O2 -D_GNU_SOURCE -Ilibpapi -o build/bench_hl test/bench/hl.c build/libpapi.a -lpfm -lcsv -pthread -lm -lrt
 *   build/bench_hl [PAIRS]
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "papi.h"

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long rss_kib(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static int open_sw(uint64_t config, int group)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
}

int main(int argc, char **argv)
{
	long pairs = argc > 1 ? atol(argv[1]) : 1000000;
	const int rounds = 200000;
	uint64_t buf[8];

	/* The baseline: one group of the two software events, read twice. */
	int lead = open_sw(PERF_COUNT_SW_TASK_CLOCK, -1);
	int mem = open_sw(PERF_COUNT_SW_PAGE_FAULTS, lead);
	if (lead < 0 || mem < 0) {
		perror("perf_event_open");
		return 1;
	}
	long long t0 = now_ns();
	for (int i = 0; i < rounds; i++)
		if (read(lead, buf, sizeof buf) <= 0 || read(lead, buf, sizeof buf) <= 0)
			return 1;
	double raw = (double)(now_ns() - t0) / rounds;
	close(mem);
	close(lead);

	setenv("PAPI_EVENTS", "perf::TASK-CLOCK,perf::PAGE-FAULTS", 1);
	setenv("PAPI_OUTPUT_DIRECTORY", "/tmp", 1);
	if (PAPI_hl_region_begin("warm") != PAPI_OK || PAPI_hl_region_end("warm") != PAPI_OK) {
		fprintf(stderr, "region API cannot count here\n");
		return 1;
	}
	t0 = now_ns();
	for (int i = 0; i < rounds; i++) {
		PAPI_hl_region_begin("timed");
		PAPI_hl_region_end("timed");
	}
	double hl = (double)(now_ns() - t0) / rounds;

	long before = rss_kib();
	t0 = now_ns();
	for (long i = 0; i < pairs; i++) {
		PAPI_hl_region_begin("many");
		PAPI_hl_region_end("many");
	}
	double per = (double)(now_ns() - t0) / (double)pairs;
	long after = rss_kib();

	printf("two raw group reads:   %8.0f ns\n", raw);
	printf("region begin+end:      %8.0f ns  (%.2f x the raw reads)\n", hl, hl / raw);
	printf("%ld begin/end pairs: %.0f ns each; RSS %ld KiB before, %ld KiB after (%+ld KiB)\n", pairs, per,
	       before, after, after - before);
	PAPI_hl_finalize();
	return 0;
}

/* t_pmu_rdpmc.c: counters read in user space (the perf user page and the CPU's counter instruction) where the kernel allows it: no read() call, the same counts.
 *
 * The library's calls into the kernel go through the sys seam; this test
 * plugs in the real calls with read() counted, so it sees whether PAPI_read
 * of a running set stayed in user space. x86 allows it while
 * /sys/bus/event_source/devices/cpu/rdpmc is not 0, arm64 while
 * kernel.perf_user_access is 1 (make check-pmu's guest sets it). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "papi.h"
#include "tap.h"
#include "pmu_util.h"

#define N 1000000L

static atomic_int reads;
static struct sys_ops counted;

static ssize_t counted_read(int fd, void *buf, size_t len)
{
	atomic_fetch_add(&reads, 1);
	return sys_real.read(fd, buf, len);
}

/* Why the kernel lets no user-space read here, or NULL when it does. */
static const char *kernel_refuses(void)
{
	static const char *const knobs[][2] = {
		{ "/proc/sys/kernel/perf_user_access", "kernel.perf_user_access is 0" },
		{ "/sys/bus/event_source/devices/cpu/rdpmc", "/sys/bus/event_source/devices/cpu/rdpmc is 0" },
	};
	for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++) {
		FILE *f = fopen(knobs[i][0], "r");
		int v = 1;
		if (!f)
			continue;
		if (fscanf(f, "%d", &v) != 1)
			v = 1;
		fclose(f);
		if (v == 0)
			return knobs[i][1];
	}
	return NULL;
}

int main(void)
{
	counted = sys_real;
	counted.read = counted_read;
	sys_set_ops(&counted);
	if (!pmu_begin("user-space counter reads"))
		return tap_done();
	if (!sys_real.rdpmc) {
		skip("this library reads counters in user space on x86 and arm64 only (read() elsewhere)",
		     "user-space counter reads");
		return tap_done();
	}
	const char *why = kernel_refuses();
	if (why) {
		skip(why, "user-space counter reads");
		return tap_done();
	}

	int es;
	long long v[2], w[2];
	const char *names[] = { "PAPI_TOT_INS", "PAPI_TOT_CYC" };
	if (!ok(pmu_set(&es, names, 2) == PAPI_OK, "a set of instructions and cycles"))
		return tap_done();
	is_int(PAPI_start(es), PAPI_OK, "start");
	EventSet_t *e = es_lookup(es);
	int pages = 0;
	for (int h = 0; e && h < e->nhw; h++)
		pages += e->hw[h].page && e->hw[h].page->cap_user_rdpmc && e->hw[h].page->index;
	is_int(pages, e ? e->nhw : -1, "every counter's user page lets user space read it");
	pmu_loop(N);
	int before = atomic_load(&reads);
	is_int(PAPI_read(es, v), PAPI_OK, "read while running");
	pmu_loop(N);
	is_int(PAPI_read(es, w), PAPI_OK, "and again");
	is_int(atomic_load(&reads) - before, 0, "both reads stayed in user space (no read() call)");
	ok(pmu_near(v[0], PMU_LOOP_INS * N, 5000, 0.005), "the first read: %lld instructions", v[0]);
	ok(pmu_near(w[0] - v[0], PMU_LOOP_INS * N, 5000, 0.005), "the second: %lld more", w[0] - v[0]);
	ok(w[1] > v[1] && v[1] > 0, "cycles grow (%lld, %lld)", v[1], w[1]);
	is_int(PAPI_stop(es, w), PAPI_OK, "stop");
	ok(atomic_load(&reads) > before, "the stop reads with read()");
	ok(pmu_near(w[0], 2 * PMU_LOOP_INS * N, 10000, 0.005), "the stop's count agrees: %lld", w[0]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	sys_set_ops(NULL);
	return tap_done();
}

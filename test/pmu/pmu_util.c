/* pmu_util.c: the known loop and the PMU probe the hardware tests share (see pmu_util.h). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"
#include "pmu_util.h"

/* The loop's first and last instruction carry global labels so profiling
 * tests know where its samples must land; noinline and noclone keep the
 * labels unique. */
extern char pmu_loop_top[], pmu_loop_bottom[];

__attribute__((noinline, noclone)) void pmu_loop(unsigned long n)
{
#if defined(__aarch64__)
	__asm__ volatile(".globl pmu_loop_top\n"
			 "pmu_loop_top:\n"
			 "1:\tsubs %0, %0, #1\n"
			 "\tb.ne 1b\n"
			 ".globl pmu_loop_bottom\n"
			 "pmu_loop_bottom:\n"
			 : "+r"(n) : : "cc");
#elif defined(__x86_64__) || defined(__i386__)
	__asm__ volatile(".globl pmu_loop_top\n"
			 "pmu_loop_top:\n"
			 "1:\tdec %0\n"
			 "\tjnz 1b\n"
			 ".globl pmu_loop_bottom\n"
			 "pmu_loop_bottom:\n"
			 : "+r"(n) : : "cc");
#else
#error "pmu_loop: no loop written for this architecture"
#endif
}

void pmu_loop_range(void **begin, void **end)
{
	*begin = pmu_loop_top;
	*end = pmu_loop_bottom;
}

int pmu_kernel(void)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	return ci && (ci->available_domains & PAPI_DOM_KERNEL);
}

int pmu_set(int *es, const char *const *names, int n)
{
	int r;
	*es = PAPI_NULL;
	if ((r = PAPI_create_eventset(es)) != PAPI_OK)
		return r;
	for (int i = 0; i < n; i++)
		if ((r = PAPI_add_named_event(*es, names[i])) != PAPI_OK) {
			PAPI_cleanup_eventset(*es);
			PAPI_destroy_eventset(es);
			return r;
		}
	return PAPI_OK;
}

const char *pmu_event(const char *name, char *buf, size_t len)
{
	if (PAPI_query_named_event(name) == PAPI_OK)
		return name;
	char low[128], path[512];
	size_t i;
	for (i = 0; name[i] && i < sizeof low - 1; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	const char *top = "/sys/bus/event_source/devices";
	DIR *d = opendir(top);
	struct dirent *e;
	const char *r = name;
	while (d && r == name && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		/* a core PMU lists its CPUs in "cpus" (arm64) or is "cpu" (x86) */
		snprintf(path, sizeof path, "%s/%s/cpus", top, e->d_name);
		if (strcmp(e->d_name, "cpu") && access(path, R_OK) != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s/events/%s", top, e->d_name, low);
		if (access(path, R_OK) == 0 && (size_t)snprintf(buf, len, "%s/%s/", e->d_name, low) < len)
			r = buf;
	}
	if (d)
		closedir(d);
	return r;
}

int pmu_present(void)
{
	int es, r;
	long long v = 0;
	const char *ins = "PAPI_TOT_INS";
	if ((r = pmu_set(&es, &ins, 1)) != PAPI_OK) {
		printf("# PAPI_TOT_INS cannot be added: %s\n", PAPI_strerror(r));
		return 0;
	}
	if ((r = PAPI_start(es)) == PAPI_OK) {
		pmu_loop(1000);
		r = PAPI_stop(es, &v);
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	if (r != PAPI_OK || v <= 0) {
		printf("# PAPI_TOT_INS does not count here (%s, %lld)\n", PAPI_strerror(r), v);
		return 0;
	}
	return 1;
}

int pmu_qemu(void)
{
	const char *v = getenv("PMU_QEMU");
	return v && *v == '1';
}

int pmu_near(long long got, long long want, long long abs, double rel)
{
	long long d = got > want ? got - want : want - got;
	return (double)d <= (double)abs + rel * (double)want;
}

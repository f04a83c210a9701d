/* pfm_floor.c (bench): the floor under any tool that lists PAPI's presets:
 * a program that starts, initializes libpfm4, which asks the CPU who it is
 * (CPUID) for each PMU model it knows, and asks libpfm4 which of its PMUs
 * are present. In a virtual machine every CPUID traps to the hypervisor;
 * libpfm4 tells a PMU's presence only through pfm_get_pmu_info, which
 * counts the events of the PMU's table, present or not (PAPI 7 asks it
 * for every PMU too). `make bench` times this program next to `papi avail`
 * and papi_avail; with -v it prints the cost of one CPUID, of
 * pfm_initialize and of the PMU walk in this process.
 *   pfm_floor [-v]        exits 0 when libpfm4 initialized */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <perfmon/pfmlib.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	int verbose = argc > 1 && !strcmp(argv[1], "-v");
	long long cpuid_ns = -1;
#if defined(__x86_64__) || defined(__i386__)
	if (verbose) {
		unsigned a, b, c, d, sum = 0;
		long long t = now_ns();
		for (int i = 0; i < 100; i++) {
			__cpuid(0, a, b, c, d);
			sum += a;
		}
		cpuid_ns = (now_ns() - t) / 100 + (sum == 0xffffffffu);
	}
#endif
	long long t = now_ns();
	int r = pfm_initialize();
	long long init_ns = now_ns() - t;
	int present = 0;
	t = now_ns();
	for (int i = 0; r == PFM_SUCCESS && i < PFM_PMU_MAX; i++) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pfm_get_pmu_info(i, &pi) == PFM_SUCCESS && pi.is_present)
			present++;
	}
	long long walk_ns = now_ns() - t;
	if (verbose)
		printf("cpuid_ns %lld\npfm_initialize_ns %lld\npmu_walk_ns %lld\npmus_present %d\n", cpuid_ns,
		       init_ns, walk_ns, present);
	return r == PFM_SUCCESS && present > 0 ? 0 : 1;
}

/* pfm_floor.c (bench): the floor under any tool that lists PAPI's presets:
 * a program that starts and initializes libpfm4, which asks the CPU who it
 * is (CPUID) for each PMU model it knows. In a virtual machine every CPUID
 * traps to the hypervisor. `make bench` times this program next to
 * `papi avail` and papi_avail; with -v it prints the cost of one CPUID and
 * of pfm_initialize in this process.
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
	if (verbose)
		printf("cpuid_ns %lld\npfm_initialize_ns %lld\n", cpuid_ns, init_ns);
	return r == PFM_SUCCESS ? 0 : 1;
}

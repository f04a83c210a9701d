/* priv.h: what the user running a test may count, read as the kernel decides it (apart from the library's own reading), so a test can assert either answer. */
#ifndef PAPI_TEST_PRIV_H
#define PAPI_TEST_PRIV_H
#include <stdio.h>
#include <unistd.h>

/* /proc/sys/kernel/perf_event_paranoid, 2 when unreadable. */
static inline int priv_paranoid(void)
{
	int v = 2;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 2;
		fclose(f);
	}
	return v;
}

/* The tests run as root (holding CAP_SYS_ADMIN) or as an ordinary user. */
static inline int priv_root(void)
{
	return geteuid() == 0;
}

/* May this process count the kernel's share (exclude_kernel=0)? A whole CPU? */
static inline int priv_kernel_ok(void)
{
	return priv_root() || priv_paranoid() <= 1;
}

static inline int priv_cpu_ok(void)
{
	return priv_root() || priv_paranoid() <= 0;
}

#endif

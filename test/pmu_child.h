/* pmu_child.h: for the tests that check the preset tables PMU by PMU: which
 * architecture carries a PMU's tables, and a function run in a fresh forked
 * process (so each PMU starts from a fresh libpfm4) with its output collected. */
#ifndef PAPI_TEST_PMU_CHILD_H
#define PAPI_TEST_PMU_CHILD_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

#if defined(__x86_64__)
#define BUILD_ARCH "x86_64"
#elif defined(__aarch64__)
#define BUILD_ARCH "aarch64"
#elif defined(__i386__)
#define BUILD_ARCH "i386"
#else
#define BUILD_ARCH "this architecture"
#endif

/* pmu_arch: the architecture whose libpfm4 carries a PMU's tables, from
 * libpfm4's naming (its ARM core PMUs are all arm_*). */
static inline const char *pmu_arch(const char *pmu)
{
	return strncmp(pmu, "arm_", 4) ? "x86_64" : "aarch64";
}

/* pmu_tables_missing: 1 (after a TAP skip of what, with the reason) when
 * pmu's tables belong to another architecture than this build's, so this
 * build's libpfm4 cannot resolve its names (the tests that force an x86
 * PMU, run on aarch64 by make check-pmu); else 0. */
static inline int pmu_tables_missing(const char *pmu, const char *what)
{
	char why[160];
	if (!strcmp(pmu_arch(pmu), BUILD_ARCH))
		return 0;
	snprintf(why, sizeof(why), "%s is an %s PMU; libpfm4 on " BUILD_ARCH " has no tables for it", pmu,
		 pmu_arch(pmu));
	skip(why, what);
	return 1;
}

/* pmu_child_run: runs fn(ctx, fd) in a forked child, which must end with
 * _exit; what it writes to fd lands in buf (NUL-terminated, cut at size - 1)
 * and its wait status in *status. Returns 0, or -1 with errno when the pipe
 * or the fork fails. */
static inline int pmu_child_run(void (*fn)(const void *ctx, int fd), const void *ctx,
				char *buf, size_t size, int *status)
{
	int fds[2];
	size_t len = 0;
	ssize_t r;
	pid_t pid;

	fflush(stdout);
	if (pipe(fds) < 0)
		return -1;
	if ((pid = fork()) < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		fn(ctx, fds[1]);
		_exit(100);
	}
	close(fds[1]);
	while ((r = read(fds[0], buf + len, size - 1 - len)) > 0 || (r < 0 && errno == EINTR))
		if (r > 0)
			len += (size_t)r;
	buf[len] = '\0';
	close(fds[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return 0;
}

#endif

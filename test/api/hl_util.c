/* hl_util.c: helpers of the region API tests: run this test program again as a child, query its JSON with jq. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_util.h"

int hlu_have_jq(void)
{
	return system("command -v jq >/dev/null 2>&1") == 0;
}

char *hlu_tmpdir(void)
{
	static char tmpl[64];
	snprintf(tmpl, sizeof tmpl, "/tmp/papi-hl-XXXXXX");
	return mkdtemp(tmpl);
}

int hlu_run(const char *mode, const char *const *env, const char *out, const char *err)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		unsetenv("PAPI_EVENTS");
		unsetenv("PAPI_REPORT");
		unsetenv("PAPI_OUTPUT_DIRECTORY");
		/* the totals per region, unless env names a layout */
		setenv("PAPI_HL_LAYOUT", "aggregated", 1);
		for (int i = 0; env && env[i]; i += 2)
			setenv(env[i], env[i + 1], 1);
		int fo = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open(err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fo < 0 || fe < 0)
			_exit(126);
		dup2(fo, 1);
		dup2(fe, 2);
		execl("/proc/self/exe", "hl-child", mode, (char *)NULL);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Run jq -r expr on file; the first line of its output, or NULL. */
static char *jq_line(const char *file, const char *expr)
{
	char cmd[4096], *line = NULL;
	size_t cap = 0;
	snprintf(cmd, sizeof cmd, "jq -r '%s' '%s' 2>/dev/null", expr, file);
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	ssize_t n = getline(&line, &cap, p);
	if (pclose(p) != 0 || n <= 0) {
		free(line);
		return NULL;
	}
	if (line[n - 1] == '\n')
		line[n - 1] = 0;
	return line;
}

long long hlu_num(const char *file, const char *fmt, ...)
{
	char expr[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(expr, sizeof expr, fmt, ap);
	va_end(ap);
	char *s = jq_line(file, expr), *end;
	if (!s)
		return HLU_NONE;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	int good = *s && !*end && !errno;
	free(s);
	return good ? v : HLU_NONE;
}

int hlu_str(const char *file, char *buf, size_t len, const char *fmt, ...)
{
	char expr[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(expr, sizeof expr, fmt, ap);
	va_end(ap);
	char *s = jq_line(file, expr);
	if (!s)
		return -1;
	snprintf(buf, len, "%s", s);
	free(s);
	return 0;
}

int hlu_valid(const char *file)
{
	char cmd[PATH_MAX + 64];
	snprintf(cmd, sizeof cmd, "jq -e . '%s' >/dev/null 2>&1", file);
	return system(cmd) == 0;
}

int hlu_count(const char *dir, const char *glob)
{
	char cmd[PATH_MAX + 128], line[64] = "";
	snprintf(cmd, sizeof cmd, "cd '%s' 2>/dev/null && ls -d %s 2>/dev/null | wc -l", dir, glob);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(line, sizeof line, p))
		line[0] = 0;
	pclose(p);
	return atoi(line);
}

int hlu_rank_file(const char *dir, char *path, size_t len)
{
	char cmd[PATH_MAX + 128];
	snprintf(cmd, sizeof cmd, "ls '%s'/papi_hl_output/rank_*.json 2>/dev/null", dir);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	int n = 0;
	char line[PATH_MAX];
	while (fgets(line, sizeof line, p))
		if (n++ == 0) {
			line[strcspn(line, "\n")] = 0;
			snprintf(path, len, "%s", line);
		}
	pclose(p);
	return n;
}

int hlu_lines(const char *file, const char *needle)
{
	FILE *f = fopen(file, "r");
	char line[8192];
	int n = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (!needle || strstr(line, needle))
			n++;
	fclose(f);
	return n;
}

void hlu_rmrf(const char *dir)
{
	char cmd[PATH_MAX + 32];
	if (dir && !strncmp(dir, "/tmp/papi-hl-", 13)) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", dir);
	}
}

void hlu_spin_ms(int ms)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (volatile int i = 0; i < 10000; i++)
			;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

/* t_pmu_hl.c: the region API with its default events counts the hardware ones: a region around the loop reports its instructions and cycles.
 *
 * A child process runs one region around pmu_loop(N) with PAPI_EVENTS unset
 * and writes its report at exit into a fresh directory; the parent reads
 * the region's numbers from the JSON file. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "papi.h"
#include "tap.h"
#include "pmu_util.h"

#define N 1000000L

/* The number after "key": in text, or -1. PAPI 7.0's layout (the
 * default) writes numbers as strings: "key":"123". */
static long long json_num(const char *text, const char *key)
{
	char k[64];
	snprintf(k, sizeof k, "\"%s\":", key);
	const char *p = strstr(text, k);
	if (!p)
		return -1;
	p += strlen(k);
	p += strspn(p, " \"");
	return strtoll(p, NULL, 10);
}

static int slurp(const char *dir, char *buf, size_t len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/papi_hl_output", dir);
	DIR *d = opendir(path);
	struct dirent *e;
	FILE *f = NULL;
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "rank_", 5)) {
			snprintf(path, sizeof path, "%s/papi_hl_output/%s", dir, e->d_name);
			f = fopen(path, "r");
			break;
		}
	if (d)
		closedir(d);
	if (!f)
		return -1;
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return 0;
}

int main(void)
{
	if (!pmu_begin("the region API's default hardware events"))
		return tap_done();
	PAPI_shutdown();

	char dir[] = "/tmp/t_pmu_hl.XXXXXX", err[600], buf[8192];
	if (!ok(mkdtemp(dir) != NULL, "a fresh directory"))
		return tap_done();
	snprintf(err, sizeof err, "%s/stderr", dir);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		unsetenv("PAPI_EVENTS");
		setenv("PAPI_OUTPUT_DIRECTORY", dir, 1);
		if (!freopen(err, "w", stderr))
			_exit(2);
		PAPI_hl_region_begin("loop");
		pmu_loop(N);
		PAPI_hl_region_end("loop");
		exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the region program exited 0");
	if (ok(slurp(dir, buf, sizeof buf) == 0, "it wrote a rank file")) {
		/* the region's numbers, after the event definitions */
		const char *r = strstr(buf, "\"name\":\"loop\"");
		r = r ? r : "";
		long long ins = json_num(r, "PAPI_TOT_INS"), cyc = json_num(r, "PAPI_TOT_CYC");
		/* The region's begin and end run library code inside the window. */
		ok(pmu_near(ins, PMU_LOOP_INS * N, 50000, 0.005), "the region's PAPI_TOT_INS: %lld (want %ld)", ins,
		   PMU_LOOP_INS * N);
		if (pmu_qemu())
			ok(pmu_near(cyc, ins, 50000, 0.005), "its PAPI_TOT_CYC: %lld", cyc);
		else
			ok(cyc > 0, "its PAPI_TOT_CYC: %lld", cyc);
		ok(json_num(r, "perf::TASK-CLOCK") > 0, "and perf::TASK-CLOCK");
		ok(json_num(buf, "max_cpu_rate_mhz") > 0, "the report gives a clock rate (%lld MHz)",
		   json_num(buf, "max_cpu_rate_mhz"));
	}
	FILE *f = fopen(err, "r");
	char line[512];
	int warned = 0;
	while (f && fgets(line, sizeof line, f))
		if (strstr(line, "PAPI_TOT_INS") || strstr(line, "PAPI_TOT_CYC")) {
			warned = 1;
			diag("stderr: %s", line);
		}
	if (f)
		fclose(f);
	ok(!warned, "no warning about the hardware defaults");
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	return tap_done();
}

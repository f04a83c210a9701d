/* t_cmp_hl.c: the region API over events of several components at once (PAPI_EVENTS=perf::TASK-CLOCK,io:::rchar,appio:::...): each thread's EventSet per component, exact I/O counts per region and thread, and the report naming each event's component. */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hl_util.h"
#include "papi.h"
#include "tap.h"

static int failures;
#define CHECK(call, want) do { int r_ = (call); if (r_ != (want)) { \
	fprintf(stderr, "%s:%d: %s = %d, want %d\n", __FILE__, __LINE__, #call, r_, want); failures++; } } while (0)

/* Read n bytes of /dev/zero in one read() and write them to /dev/null. */
static void io(int n)
{
	static char buf[8192];
	int z = open("/dev/zero", O_RDONLY), d = open("/dev/null", O_WRONLY);
	if (z < 0 || d < 0 || read(z, buf, (size_t)n) != n || write(d, buf, (size_t)n) != n)
		failures++;
	close(z);
	close(d);
}

static void *worker(void *arg)
{
	CHECK(PAPI_hl_region_begin("work"), PAPI_OK);
	io((int)(long)arg);
	CHECK(PAPI_hl_region_end("work"), PAPI_OK);
	return NULL;
}

/* "io": 1000 bytes in the main thread's region, then 3000 in a thread's. */
static int child(const char *mode)
{
	if (strcmp(mode, "io"))
		return 99;
	CHECK(PAPI_hl_region_begin("main"), PAPI_OK);
	io(1000);
	CHECK(PAPI_hl_region_end("main"), PAPI_OK);
	pthread_t th;
	pthread_create(&th, NULL, worker, (void *)3000L);
	pthread_join(th, NULL);
	return failures ? 1 : 0;
}

#define EVENTS "perf::TASK-CLOCK,io:::rchar,appio:::READ_BYTES,appio:::READ_CALLS,appio:::WRITE_BYTES," \
	       "stealtime:::TOTAL"
#define R(t, name) ".threads[] | select(.id == " #t ") | .regions[] | select(has(\"" name "\")) | .\"" name "\""

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[0], "hl-child"))
		return child(argv[1]);
	if (!hlu_have_jq()) {
		skip("jq is not installed (make deps)", "region API reports");
		return tap_done();
	}
	int code;
	PAPI_library_init(PAPI_VER_CURRENT);
	int have = PAPI_event_name_to_code("io:::rchar", &code) == PAPI_OK &&
		   PAPI_event_name_to_code("appio:::READ_BYTES", &code) == PAPI_OK &&
		   PAPI_event_name_to_code("stealtime:::TOTAL", &code) == PAPI_OK;
	PAPI_shutdown();
	if (!have) {
		skip("io, appio or stealtime is disabled here (papi component says why)", "components in regions");
		return tap_done();
	}
	char *d = hlu_tmpdir(), file[PATH_MAX], err[PATH_MAX], s[256];
	snprintf(err, sizeof err, "%s/stderr", d);
	const char *env[] = { "PAPI_OUTPUT_DIRECTORY", d, "PAPI_EVENTS", EVENTS, NULL };
	is_int(hlu_run("io", env, NULL, err), 0, "the child measured its regions");
	is_int(hlu_rank_file(d, file, sizeof file), 1, "one rank file");
	is_int(hlu_lines(err, NULL), 0, "no warning: every event was counted");
	ok(!hlu_str(file, s, sizeof s, ".event_definitions.\"io:::rchar\".component") && !strcmp(s, "io"),
	   "io:::rchar is io's in the report (%s)", s);
	ok(!hlu_str(file, s, sizeof s, ".event_definitions.\"appio:::READ_BYTES\".component") &&
	   !strcmp(s, "appio"), "appio:::READ_BYTES is appio's");
	ok(!hlu_str(file, s, sizeof s, ".event_definitions.\"perf::TASK-CLOCK\".component") &&
	   !strcmp(s, "perf_event"), "perf::TASK-CLOCK is perf_event's");
	is_int(hlu_num(file, R(0, "main") ".\"appio:::READ_BYTES\""), 1000, "main: appio read 1000 bytes");
	is_int(hlu_num(file, R(0, "main") ".\"appio:::READ_CALLS\""), 1, "main: in one call");
	is_int(hlu_num(file, R(0, "main") ".\"appio:::WRITE_BYTES\""), 1000, "main: and wrote them");
	/* io counts the process, whose counter reads are reads too: at least */
	long long rc = hlu_num(file, R(0, "main") ".\"io:::rchar\"");
	ok(rc >= 1000 && rc < 1000 + 4096, "main: io:::rchar %lld, the 1000 and the counter reads", rc);
	ok(hlu_num(file, R(0, "main") ".\"perf::TASK-CLOCK\"") > 0, "main: task-clock counted too");
	is_int(hlu_num(file, R(1, "work") ".\"appio:::READ_BYTES\""), 3000,
	       "the thread's region: its own 3000 bytes, per thread");
	is_int(hlu_num(file, R(1, "work") ".\"appio:::WRITE_BYTES\""), 3000, "written too");
	ok(hlu_num(file, R(1, "work") ".\"stealtime:::TOTAL\"") >= 0, "stealtime: a number");
	hlu_rmrf(d);
	return tap_done();
}

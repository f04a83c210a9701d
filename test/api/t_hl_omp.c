/* t_hl_omp.c: the region API in an OpenMP program: each thread of a parallel region records its own regions. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "hl_util.h"
#include "papi.h"
#include "tap.h"

static int child(void)
{
	int bad = 0;
	omp_set_num_threads(2);
#pragma omp parallel reduction(+ : bad)
	{
		int me = omp_get_thread_num();
		for (int i = 0; i <= me; i++) {
			bad += PAPI_hl_region_begin("omp_work") != PAPI_OK;
			hlu_spin_ms(10);
			bad += PAPI_hl_region_end("omp_work") != PAPI_OK;
		}
	}
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	char file[PATH_MAX], err[256];
	if (argc > 1 && !strcmp(argv[0], "hl-child"))
		return child();
	if (!hlu_have_jq()) {
		skip("jq is not installed (make deps)", "OpenMP region reports");
		return tap_done();
	}
	int code;
	PAPI_library_init(PAPI_VER_CURRENT);
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &code) != PAPI_OK) {
		skip("perf::TASK-CLOCK cannot be named here", "OpenMP region reports");
		return tap_done();
	}
	PAPI_shutdown();
	char *dir = hlu_tmpdir();
	if (!dir)
		return 1;
	snprintf(err, sizeof err, "%s/stderr", dir);
	const char *env[] = { "PAPI_OUTPUT_DIRECTORY", dir, "PAPI_EVENTS", "perf::TASK-CLOCK,perf::PAGE-FAULTS",
			      "OMP_NUM_THREADS", "2", NULL };
	is_int(hlu_run("omp", env, NULL, err), 0, "OpenMP child ran, every call PAPI_OK");
	is_int(hlu_rank_file(dir, file, sizeof file), 1, "one rank file");
	ok(hlu_valid(file), "valid JSON");
	is_int(hlu_num(file, ".threads | length"), 2, "two threads reported");
	is_int(hlu_num(file, "[.threads[].regions[0].omp_work.region_count] | sort | .[0]"), 1,
	       "thread 0 recorded its region once");
	is_int(hlu_num(file, "[.threads[].regions[0].omp_work.region_count] | sort | .[1]"), 2,
	       "thread 1 recorded its region twice");
	long long lo = hlu_num(file, "[.threads[].regions[0].omp_work.\"perf::TASK-CLOCK\"] | min");
	long long hi = hlu_num(file, "[.threads[].regions[0].omp_work.\"perf::TASK-CLOCK\"] | max");
	ok(lo >= 8000000LL && hi >= 16000000LL, "each thread's own task-clock (%lld, %lld ns)", lo, hi);
	is_int(hlu_lines(err, NULL), 0, "nothing on stderr");
	hlu_rmrf(dir);
	return tap_done();
}

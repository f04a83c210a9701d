/* t_lookup_lazy.c: naming a preset or a software event loads no tables; the event-file variables count from PAPI_library_init. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

int main(void)
{
	int code = 0;
	unsetenv("PAPI_USER_EVENTS_FILE");
	unsetenv("PAPI_CSV_EVENT_FILE");
	is_int(PAPI_event_name_to_code("PAPI_TOT_INS", &code), PAPI_ENOINIT, "before init: PAPI_ENOINIT");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	is_int(presets_loaded(), 0, "init loads no preset tables");

	is_int(PAPI_event_name_to_code("PAPI_TOT_INS", &code), PAPI_OK, "PAPI_TOT_INS named");
	is_int(code, PAPI_TOT_INS, "its fixed code");
	is_int(PAPI_event_name_to_code("PAPI_L1_DCM", &code), PAPI_OK, "PAPI_L1_DCM named");
	is_int(code, PAPI_L1_DCM, "its fixed code");
	is_int(presets_loaded(), 0, "naming presets loaded no tables");
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK", &code), PAPI_OK, "perf::TASK-CLOCK named");
	is_int(presets_loaded(), 0, "nor did naming a software event");

	/* An event file named after init is not looked for by a pmu:: name
	 * until the next init (the variables are read by PAPI_library_init). */
	char path[] = "/tmp/t_lookup_lazy_XXXXXX";
	int fd = mkstemp(path);
	static const char ue[] = "EVENT,MY_TICKS,NOT_DERIVED,perf::TASK-CLOCK\n";
	ok(fd >= 0 && write(fd, ue, sizeof ue - 1) == (ssize_t)(sizeof ue - 1), "write an event file");
	close(fd);
	setenv("PAPI_USER_EVENTS_FILE", path, 1);
	is_int(PAPI_event_name_to_code("perf::CPU-CLOCK", &code), PAPI_OK, "a pmu:: name after setenv");
	is_int(presets_loaded(), 0, "still no tables: the variable counts from the next init");

	is_int(PAPI_event_name_to_code("PAPI_NO_SUCH_PRESET", &code), PAPI_ENOEVNT,
	       "an unknown PAPI_ name: PAPI_ENOEVNT");
	is_int(presets_loaded(), 1, "which had to ask the tables");
	is_int(PAPI_event_name_to_code("MY_TICKS", &code), PAPI_OK, "the file's event, loaded with them");

	PAPI_shutdown();
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init again with the variable set");
	is_int(PAPI_event_name_to_code("perf::CPU-CLOCK", &code), PAPI_OK, "a pmu:: name");
	is_int(presets_loaded(), 1, "now asks the tables (the file could define it)");
	PAPI_shutdown();
	unlink(path);
	return tap_done();
}

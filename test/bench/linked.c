/* linked.c (bench): the start-up cost of a program linked with libpapi: it
 * initializes the library and names one event, nothing else. run.sh builds it
 * with libpapi.a as a PIE and with -no-pie, with libpapi.so, and against PAPI 7,
 * and times each whole process with hyperfine.
 *   linked [EVENT]   exits 0 when the event was named */
#include "papi.h"

int main(int argc, char **argv)
{
	int code;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return 1;
	return PAPI_event_name_to_code(argc > 1 ? argv[1] : "perf::TASK-CLOCK", &code) == PAPI_OK ? 0 : 2;
}

/* t_native_range.c: a sampling period or frequency the kernel would refuse is refused while the name is looked up, as a bad qualifier with the reason; the largest ones it takes are named and open. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

/* The limit read here, apart from the library: the kernel's own file. */
static unsigned long long max_rate(void)
{
	unsigned long long v = 0;
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* One table row: the name, the code the lookup must return, and words the
 * reason must hold (NULL: the lookup succeeds, and the event opens). */
static void row(int line, const char *name, int want, const char *why)
{
	int code, r = PAPI_event_name_to_code(name, &code);
	if (!ok(r == want, "%s gives %d (line %d)", name, want, line))
		diag("got %d; reason: %s", r, papi_last_reason());
	if (why && !ok(strstr(papi_last_reason(), why) != NULL, "%s: the reason says '%s' (line %d)",
		       name, why, line))
		diag("reason: %s", papi_last_reason());
	if (r == PAPI_OK) {
		/* The kernel agrees: the event opens with that period. */
		int es = PAPI_NULL;
		PAPI_create_eventset(&es);
		int a = PAPI_add_event(es, code);
		if (!ok(a == PAPI_OK, "%s: PAPI_add_event takes it (line %d)", name, line))
			diag("got %d; reason: %s", a, papi_last_reason());
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
}
#define ROW(name, want, why) row(__LINE__, name, want, why)

int main(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	ROW("perf::TASK-CLOCK:period=9223372036854775807", PAPI_OK, NULL);
	ROW("perf::TASK-CLOCK:period=9223372036854775808", PAPI_EINVAL,
	    "bad qualifier period=9223372036854775808: a period is 1 to 9223372036854775807");
	ROW("perf::TASK-CLOCK:period=-1", PAPI_EINVAL, "bad qualifier period=-1");
	ROW("perf::TASK-CLOCK:u:period=99999999999999999999", PAPI_EINVAL,
	    "bad qualifier period=99999999999999999999");
	ROW("perf::PAGE-FAULTS:period=1000", PAPI_OK, NULL);
	unsigned long long max = max_rate();
	if (!max) {
		skip("/proc/sys/kernel/perf_event_max_sample_rate cannot be read",
		     "a frequency above the kernel's limit");
	} else {
		char at[96], above[96];
		snprintf(at, sizeof at, "perf::TASK-CLOCK:freq=%llu", max);
		snprintf(above, sizeof above, "perf::TASK-CLOCK:freq=%llu", max + 1);
		ROW(at, PAPI_OK, NULL);
		ROW(above, PAPI_EINVAL, "perf_event_max_sample_rate");
	}
	PAPI_shutdown();
	return tap_done();
}

/* fault_client.c: a libpapi client for test/tools/faults.sh: counts and samples software events through the calls a program makes, exit 0 when each succeeded, 1 after one line naming the call that failed and its PAPI code.
 * Under strace's fault injection the library must answer a failed system
 * call with PAPI_OK (it recovered) or a PAPI_E* code that PAPI_strerror
 * knows, never a crash, a hang or a message of its own. The line on
 * failure is "fault_client: CALL: CODE (TEXT)" on standard output, so that
 * the test reads the code back; standard error is the library's, which
 * must stay silent (a failed write of the client's own line is said there). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"

static volatile unsigned long spun;
static int overflows;

static void on_overflow(int set, void *pc, long long ovec, void *ctx)
{
	(void)set, (void)pc, (void)ovec, (void)ctx;
	overflows++;
}

/* fail CALL CODE: the line the test reads, and the exit status 1. */
static int fail(const char *call, int code)
{
	const char *text = PAPI_strerror(code);
	printf("fault_client: %s: %d (%s)\n", call, code, text ? text : "unknown code");
	return 1;
}

/* Some fresh pages and a few milliseconds of work, for the counters to see. */
static void work(void)
{
	size_t n = 64 * 4096;
	char *p = malloc(n);
	if (p) {
		memset(p, 1, n);
		spun += (unsigned long)p[n - 1];
		free(p);
	}
	for (unsigned long i = 0; i < 4000000; i++)
		spun += i;
}

#define TRY(call, expr)                                  \
	do {                                             \
		int r_ = (expr);                         \
		if (r_ != PAPI_OK)                       \
			return fail(call, r_);           \
	} while (0)

int main(void)
{
	int r = PAPI_library_init(PAPI_VER_CURRENT);
	if (r != PAPI_VER_CURRENT)
		return fail("PAPI_library_init", r < 0 ? r : PAPI_EBUG);

	/* counting: two events in one group, read while running */
	int set = PAPI_NULL;
	long long v[2];
	TRY("PAPI_create_eventset", PAPI_create_eventset(&set));
	TRY("PAPI_add_named_event", PAPI_add_named_event(set, "perf::TASK-CLOCK"));
	TRY("PAPI_add_named_event", PAPI_add_named_event(set, "perf::PAGE-FAULTS"));
	TRY("PAPI_start", PAPI_start(set));
	work();
	TRY("PAPI_read", PAPI_read(set, v));
	TRY("PAPI_stop", PAPI_stop(set, v));
	if (v[0] <= 0)
		return fail("PAPI_stop (perf::TASK-CLOCK counted nothing)", PAPI_EBUG);
	TRY("PAPI_cleanup_eventset", PAPI_cleanup_eventset(set));
	TRY("PAPI_destroy_eventset", PAPI_destroy_eventset(&set));

	/* sampling: overflow on the task clock, through the kernel's ring buffer */
	set = PAPI_NULL;
	int code;
	TRY("PAPI_create_eventset", PAPI_create_eventset(&set));
	TRY("PAPI_event_name_to_code", PAPI_event_name_to_code("perf::TASK-CLOCK", &code));
	TRY("PAPI_add_event", PAPI_add_event(set, code));
	TRY("PAPI_overflow", PAPI_overflow(set, code, 1000000, 0, on_overflow));
	TRY("PAPI_start", PAPI_start(set));
	work();
	TRY("PAPI_stop", PAPI_stop(set, v));
	TRY("PAPI_overflow", PAPI_overflow(set, code, 0, 0, NULL));
	TRY("PAPI_cleanup_eventset", PAPI_cleanup_eventset(set));
	TRY("PAPI_destroy_eventset", PAPI_destroy_eventset(&set));
	PAPI_shutdown();
	printf("fault_client: ok: %lld ns, %d overflows\n", v[0], overflows);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "fault_client: write error: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

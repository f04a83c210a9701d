/* t_noalloc.c: PAPI_read, PAPI_accum, PAPI_reset and a region's begin/end allocate nothing once set up (regions in the aggregated layout; PAPI 7.0's allocates one 64 KB chunk for every few hundred instances), the allocator wrapped and counted. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hl_util.h"
#include "papi.h"
#include "tap.h"

/* Linked with -Wl,--wrap= for each: every call the library or this test
 * makes to these lands here first. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
int __real_posix_memalign(void **p, size_t a, size_t n);

static int counting;
static long calls;

void *__wrap_malloc(size_t n)
{
	calls += counting;
	return __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t m)
{
	calls += counting;
	return __real_calloc(n, m);
}

void *__wrap_realloc(void *p, size_t n)
{
	calls += counting;
	return __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	calls += counting;
	return __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	calls += counting;
	return __real_strndup(s, n);
}

int __wrap_posix_memalign(void **p, size_t a, size_t n)
{
	calls += counting;
	return __real_posix_memalign(p, a, n);
}

#define N 1000

/* Set the region API up (first begin, a nested name), then count the
 * allocations of N nested pairs with a read: the number of failed calls. */
static int regions(int quiet)
{
	int bad = 0;
	bad += PAPI_hl_region_begin("outer") != PAPI_OK;
	bad += PAPI_hl_region_begin("inner") != PAPI_OK;
	bad += PAPI_hl_region_end("inner") != PAPI_OK;
	bad += PAPI_hl_region_end("outer") != PAPI_OK;
	if (bad && !quiet)
		diag("setting the regions up failed");
	calls = 0;
	counting = 1;
	for (int i = 0; i < N; i++) {
		bad += PAPI_hl_region_begin("outer") != PAPI_OK;
		bad += PAPI_hl_region_begin("inner") != PAPI_OK;
		bad += PAPI_hl_read("inner") != PAPI_OK;
		bad += PAPI_hl_region_end("inner") != PAPI_OK;
		bad += PAPI_hl_region_end("outer") != PAPI_OK;
	}
	counting = 0;
	return bad;
}

int main(void)
{
	setenv("PAPI_EVENTS", "perf::TASK-CLOCK,perf::PAGE-FAULTS", 1);
	unsetenv("PAPI_REPORT");
	char *dir = hlu_tmpdir();	/* the region report goes there, then away */
	ok(dir != NULL, "a temporary directory for the region report");
	if (!dir)
		return tap_done();
	setenv("PAPI_OUTPUT_DIRECTORY", dir, 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	int es = PAPI_NULL;
	long long v[2] = { 0, 0 };
	/* the check can fail: setting up a set allocates, and the wrappers see
	 * the library's calls */
	counting = 1;
	int r = PAPI_create_eventset(&es);
	if (r == PAPI_OK)
		r = PAPI_add_named_event(es, "perf::TASK-CLOCK");
	if (r == PAPI_OK)
		r = PAPI_add_named_event(es, "perf::PAGE-FAULTS");
	counting = 0;
	if (r != PAPI_OK || PAPI_start(es) != PAPI_OK) {
		skip("software events cannot be counted here", "allocation-free counting calls");
		hlu_rmrf(dir);
		return tap_done();
	}
	ok(calls > 0, "the wrappers see the library's allocations (%ld setting up the set)", calls);
	calls = 0;

	int bad = 0;
	counting = 1;
	for (int i = 0; i < N; i++)
		bad += PAPI_read(es, v) != PAPI_OK;
	counting = 0;
	is_int(calls + bad, 0, "%d PAPI_read: no allocation", N);
	counting = 1;
	for (int i = 0; i < N; i++)
		bad += PAPI_accum(es, v) != PAPI_OK;
	counting = 0;
	is_int(calls + bad, 0, "%d PAPI_accum: no allocation", N);
	counting = 1;
	for (int i = 0; i < N; i++)
		bad += PAPI_reset(es) != PAPI_OK;
	counting = 0;
	is_int(calls + bad, 0, "%d PAPI_reset: no allocation", N);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	is_int(PAPI_cleanup_eventset(es), PAPI_OK, "cleanup");
	is_int(PAPI_destroy_eventset(&es), PAPI_OK, "destroy");

	/* Regions: the first begin sets up the thread, a new name and a new
	 * depth allocate once; from then on nothing in the aggregated layout
	 * (a child runs it), and in PAPI 7.0's, which logs every instance, one
	 * 64 KB chunk now and then: 24 words per iteration here, 8192 a chunk. */
	pid_t pid = fork();
	if (pid == 0) {
		setenv("PAPI_HL_LAYOUT", "aggregated", 1);
		calls = 0;
		int b = regions(1);
		_exit(calls + b > 100 ? 100 : (int)(calls + b));
	}
	int st = -1;
	waitpid(pid, &st, 0);
	is_int(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0,
	       "aggregated layout: %d nested region pairs with a read: no allocation", N);
	calls = 0;
	bad = regions(0);
	long chunks = (N * 24 + 8191) / 8192;
	ok(bad == 0 && calls >= 1 && calls <= chunks + 1,
	   "PAPI 7.0's layout: %d nested region pairs with a read: %ld allocations (at most %ld chunks and a block)",
	   N, calls, chunks);
	is_int(PAPI_hl_finalize(), PAPI_OK, "the region report is written");
	PAPI_shutdown();
	hlu_rmrf(dir);
	return tap_done();
}

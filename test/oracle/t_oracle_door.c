/* t_oracle_door.c: the papi tool's door into the core (libpapi/5-core/door.h): its error codes, and counts of a child configured through it against the tests' raw counter on the same child.
 *
 * A child waits on a pipe, touches fresh pages when told, and reports back.
 * A raw page-fault counter of the child (rawpe.c) brackets the set's count
 * as oracle.h describes: enabled before PAPI_start (the outer count), read
 * after it and again before es_counts (the inner count); the child may
 * still take a fault or two of its own start-up around PAPI_start. After
 * es_pause the child touches more pages: the raw count grows, the paused
 * set's must not. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oracle.h"
#include "tool.h"

#define PAGES 512

static void errors(void)
{
	int id = PAPI_NULL;
	long long v[1];
	struct es_target t = { .tid = 0, .cpu = -1 };
	ok(es_configure(12345, &t) == PAPI_ENOEVST, "es_configure: no such set is PAPI_ENOEVST");
	ok(es_counts(12345, v, NULL, NULL) == PAPI_ENOEVST, "es_counts: no such set is PAPI_ENOEVST");
	ok(es_pause(12345) == PAPI_ENOEVST, "es_pause: no such set is PAPI_ENOEVST");
	if (!ok(PAPI_create_eventset(&id) == PAPI_OK, "a set"))
		return;
	ok(es_configure(id, NULL) == PAPI_EINVAL, "es_configure: no target is PAPI_EINVAL");
	struct es_target both = { .tid = getpid(), .cpu = 0 };
	ok(es_configure(id, &both) == PAPI_EINVAL, "es_configure: a CPU and a thread at once is PAPI_EINVAL");
	ok(es_counts(id, NULL, NULL, NULL) == PAPI_EINVAL, "es_counts: no values is PAPI_EINVAL");
	if (PAPI_add_named_event(id, "perf::TASK-CLOCK") == PAPI_OK && PAPI_start(id) == PAPI_OK) {
		ok(es_configure(id, &t) == PAPI_EISRUN, "es_configure: a counting set is PAPI_EISRUN");
		PAPI_stop(id, v);
	} else {
		ok(0, "perf::TASK-CLOCK counts");
	}
	/* a thread that does not exist: the reopen fails, no counter stays */
	struct es_target gone = { .tid = 0x3ffffff0, .cpu = -1 };
	int r = es_configure(id, &gone);
	ok(r != PAPI_OK, "es_configure: a thread that does not exist fails (%d)", r);
	ok(es_counts(id, v, NULL, NULL) == PAPI_ENOTRUN, "es_counts: a set left without counters is PAPI_ENOTRUN");
	PAPI_cleanup_eventset(id);
	PAPI_destroy_eventset(&id);
}

/* The child: for each byte read from go, touch PAGES pages and write a
 * byte to done; exit when go closes. */
static void child(int go, int done)
{
	char c;
	while (read(go, &c, 1) == 1) {
		orc_touch(PAGES);
		if (write(done, "d", 1) != 1)
			_exit(1);
	}
	_exit(0);
}

static void counts(void)
{
	int go[2], done[2];
	if (!ok(pipe(go) == 0 && pipe(done) == 0, "pipes"))
		return;
	pid_t pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(done[0]);
		child(go[0], done[1]);
	}
	close(go[0]);
	close(done[1]);
	const struct raw_event *pf = raw_by_name("perf::PAGE-FAULTS");
	int fd = pf ? raw_open(pf, pid, 0, 0) : -1;
	int id = PAPI_NULL;
	struct es_target t = { .tid = pid, .cpu = -1 };
	int r = PAPI_create_eventset(&id);
	if (r == PAPI_OK)
		r = PAPI_add_named_event(id, "perf::PAGE-FAULTS");
	if (r == PAPI_OK)
		r = es_configure(id, &t);
	char c;
	if (ok(fd >= 0 && r == PAPI_OK, "a raw counter and a set configured on the child (%d, %d)", fd, r)) {
		long long v[1] = { -1 }, paused[1] = { -1 };
		uint64_t en[1], run[1];
		raw_enable(fd);
		PAPI_start(id);
		long long in0 = raw_read(fd);
		int ran = write(go[1], "g", 1) == 1 && read(done[0], &c, 1) == 1;
		long long in1 = raw_read(fd);
		ok(ran && es_counts(id, v, en, run) == PAPI_OK, "es_counts while counting");
		long long raw = raw_read(fd);
		ok(in1 - in0 <= v[0] && v[0] <= raw && in1 - in0 >= PAGES,
		   "es_counts: %lld faults, the raw counter [%lld, %lld] (the child touched %d pages)", v[0],
		   in1 - in0, raw, PAGES);
		ok(en[0] > 0 && run[0] == en[0], "es_counts: enabled %llu ns, running %llu ns", (unsigned long long)en[0],
		   (unsigned long long)run[0]);
		ok(es_pause(id) == PAPI_OK, "es_pause");
		ran = write(go[1], "g", 1) == 1 && read(done[0], &c, 1) == 1;
		ok(ran && es_counts(id, paused, NULL, NULL) == PAPI_OK, "es_counts after es_pause");
		long long raw2 = raw_read(fd);
		/* (the child may fault once or twice on its way back to read()) */
		ok(paused[0] >= v[0] && paused[0] <= raw + 2 && raw2 - paused[0] >= PAGES,
		   "es_pause: the set stays at %lld (now %lld) while the raw counter goes from %lld to %lld",
		   v[0], paused[0], raw, raw2);
	}
	close(go[1]);
	waitpid(pid, NULL, 0);
	if (fd >= 0)
		raw_close(fd);
	if (id != PAPI_NULL) {
		PAPI_cleanup_eventset(id);
		PAPI_destroy_eventset(&id);
	}
}

int main(void)
{
	if (!ok(PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT, "PAPI_library_init"))
		return tap_done();
	errors();
	counts();
	return tap_done();
}

/* sde_overflow.c: a program whose own code registers software-defined events (through whichever libsde it links: ours or PAPI 7.0's) and asks PAPI to call a handler when they overflow.
 * Prints "created: calls=N set=ok vector=V" and "polled: calls=N set=ok vector=V" for sde.bats; exit 1 with a message when a call fails. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "papi.h"
#include "sde_lib.h"

static volatile int calls, last_set;
static volatile long long last_vec;

static void handler(int EventSet, void *pc, long long vec, void *ctx)
{
	(void)pc, (void)ctx;
	calls++;
	last_set = EventSet;
	last_vec = vec;
}

static void check(int r, const char *what)
{
	if (r != PAPI_OK) {
		fprintf(stderr, "sde_overflow: %s: %s\n", what, PAPI_strerror(r));
		exit(1);
	}
}

/* One set of LIB::other and LIB::name, overflowing on name every threshold. */
static int set_of(const char *name, int threshold)
{
	int es = PAPI_NULL, code;
	char full[64];
	snprintf(full, sizeof full, "sde:::Ovf::%s", name);
	check(PAPI_create_eventset(&es), "PAPI_create_eventset");
	check(PAPI_add_named_event(es, "sde:::Ovf::OTHER"), "add sde:::Ovf::OTHER");
	check(PAPI_add_named_event(es, full), full);
	check(PAPI_event_name_to_code(full, &code), full);
	check(PAPI_overflow(es, code, threshold, 0, handler), "PAPI_overflow");
	return es;
}

static void report(const char *what, int es)
{
	printf("%s: calls=%d set=%s vector=%lld\n", what, calls, last_set == es ? "ok" : "other", last_vec);
	calls = 0;
	last_set = -1;
	last_vec = 0;
}

int main(void)
{
	static long long other, polled;
	void *made;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		fprintf(stderr, "sde_overflow: PAPI_library_init failed\n");
		return 1;
	}
	papi_handle_t lib = papi_sde_init("Ovf");
	papi_sde_register_counter(lib, "OTHER", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &other);
	papi_sde_register_counter(lib, "POLLED", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &polled);
	papi_sde_create_counter(lib, "MADE", PAPI_SDE_RO | PAPI_SDE_DELTA, &made);

	/* a counter libsde keeps: 35 increments by one, every 10: 3 calls */
	int es = set_of("MADE", 10);
	check(PAPI_start(es), "PAPI_start");
	for (int i = 0; i < 35; i++)
		papi_sde_inc_counter(made, 1);
	check(PAPI_stop(es, NULL), "PAPI_stop");
	report("created", es);

	/* a variable of the library's, polled: 250 every 100: 1 call */
	es = set_of("POLLED", 100);
	check(PAPI_start(es), "PAPI_start");
	polled += 250;
	for (int i = 0; i < 10000 && calls < 1; i++)
		usleep(1000);
	usleep(20000);
	check(PAPI_stop(es, NULL), "PAPI_stop");
	report("polled", es);
	return 0;
}

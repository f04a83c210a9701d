/* sde_count.c: a program that counts a library's software-defined events (sde_sample.c) through PAPI, as PAPI 7.0's SDE tests do.
 * Prints one line per step, "what: EVENT=value ...", for sde.bats to compare; exit 1 with a message when a PAPI call fails.
 *   sde_count [STEPS]   the steps each phase runs (default 10) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "sde_lib.h"

void sample_init(void);
void sample_work(int n);
int sample_unregister(const char *name);

static const char *const names[] = {
	"ITER", "EVENTS", "ALL", "HALF", "LEVEL", "RATIO", "SIZES:CNT", "SIZES", "SIZES:MIN", "SIZES:MED",
	"SIZES:MAX", "KEYS",
};
#define N (int)(sizeof names / sizeof *names)

static void die(const char *what, int r)
{
	printf("%s: %d (%s)\n", what, r, PAPI_strerror(r));
	exit(1);
}

/* One line of the values v[] of names[]. Addresses (recorder, counting set,
 * reductions) are printed as what they point to, then freed. */
static void show(const char *what, long long *v)
{
	printf("%s:", what);
	for (int i = 0; i < N; i++) {
		const char *n = names[i];
		if (!strcmp(n, "HALF") || !strcmp(n, "RATIO"))
			printf(" %s=%g", n, GET_DOUBLE_SDE(v[i]));
		else if (!strcmp(n, "SIZES")) {
			long long *p = GET_SDE_RECORDER_ADDRESS(v[i], long long);
			printf(" %s=[", n);
			for (int k = 0; p && k < v[6]; k++)
				printf("%s%lld", k ? "," : "", p[k]);
			printf("]");
			free(p);
		} else if (!strncmp(n, "SIZES:M", 7)) {
			long long *p = (long long *)(intptr_t)v[i];
			printf(p ? " %s=%lld" : " %s=none", n, p ? *p : 0);
			free(p);
		} else if (!strcmp(n, "KEYS")) {
			/* the elements in key order, whatever the list's */
			unsigned c[3] = { 0, 0, 0 };
			cset_list_object_t *l = (cset_list_object_t *)(intptr_t)v[i];
			for (cset_list_object_t *o = l; o; o = o->next)
				c[*(int *)o->ptr % 3] += o->count;
			printf(" %s=%u,%u,%u", n, c[0], c[1], c[2]);
			free(l);
		} else
			printf(" %s=%lld", n, v[i]);
	}
	printf("\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 10, es = PAPI_NULL, r;
	long long v[N];
	char full[128];

	sample_init();
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		die("PAPI_library_init", r);
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK)
		die("PAPI_create_eventset", r);
	for (int i = 0; i < N; i++) {
		snprintf(full, sizeof full, "sde:::Sample::%s", names[i]);
		if ((r = PAPI_add_named_event(es, full)) != PAPI_OK)
			die(full, r);
	}
	sample_work(steps);	/* before the start: not in the DELTA counts */
	if ((r = PAPI_start(es)) != PAPI_OK)
		die("PAPI_start", r);
	sample_work(steps);
	if ((r = PAPI_read(es, v)) != PAPI_OK)
		die("PAPI_read", r);
	show("read", v);
	if ((r = PAPI_reset(es)) != PAPI_OK)
		die("PAPI_reset", r);
	sample_work(1);
	if ((r = PAPI_read(es, v)) != PAPI_OK)
		die("PAPI_read", r);
	show("reset", v);
	if ((r = sample_unregister("ITER")) != SDE_OK)
		die("sample_unregister", r);
	if ((r = PAPI_stop(es, v)) != PAPI_OK)
		die("PAPI_stop", r);
	show("unregistered", v);
	return 0;
}

/* namespace.c: a program that defines, as its own and with other types, names that libpapi uses inside; linked with libpapi.a or libpapi.so it still counts, and its names stay its own. */
#include <stdio.h>
#include <string.h>

#include "papi.h"

/* Internal names of the library's modules (the kernel door, the event set
 * table, formulas, the region API, presets, state): a program may use any of
 * them for itself. */
int sys = 7;
double es_lookup = 1.5;
char formula_eval[16] = "mine";
const char *hl_threads = "mine";
unsigned long papi_state = 11;
int presets_info[4] = { 1, 2, 3, 4 };

long derived_eval(long x)
{
	return x + 1;
}

int native_lookup(const char *name)
{
	return name ? (int)strlen(name) : -1;
}

void pe_advice(void)
{
}

int main(void)
{
	int es = PAPI_NULL, r;
	long long v = 0;
	volatile double x = 0;

	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) {
		fprintf(stderr, "PAPI_library_init: %d\n", r);
		return 1;
	}
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK ||
	    (r = PAPI_add_named_event(es, "perf::TASK-CLOCK")) != PAPI_OK || (r = PAPI_start(es)) != PAPI_OK) {
		fprintf(stderr, "setting up perf::TASK-CLOCK: %s\n", PAPI_strerror(r));
		return 1;
	}
	for (int i = 1; i < 2000000; i++)
		x += 1.0 / i;
	if ((r = PAPI_stop(es, &v)) != PAPI_OK || v <= 0) {
		fprintf(stderr, "PAPI_stop: %d, count %lld\n", r, v);
		return 1;
	}
	/* the library touched none of this program's objects */
	if (sys != 7 || es_lookup != 1.5 || strcmp(formula_eval, "mine") || strcmp(hl_threads, "mine") ||
	    papi_state != 11 || presets_info[3] != 4 || derived_eval(1) != 2 || native_lookup("ab") != 2) {
		fprintf(stderr, "the program's own names were changed\n");
		return 1;
	}
	pe_advice();
	printf("%lld\n", v);
	return 0;
}

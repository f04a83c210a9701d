/* sde_nopapi.c: a program that uses a library with software-defined events (sde_sample.c) and does not link libpapi: it must run all the same.
 * Prints "ran 10 steps" when the library's calls of libsde all worked. */
#include <stdio.h>

#include "sde_lib.h"

void sample_init(void);
void sample_work(int n);

int main(void)
{
	sample_init();
	sample_work(10);
	/* libsde keeps counting with nobody reading */
	papi_handle_t h = papi_sde_init("Sample");
	void *c = papi_sde_get_counter_handle(h, "EVENTS");
	if (!c || papi_sde_inc_counter(c, 0) != SDE_OK)
		return 1;
	printf("ran 10 steps\n");
	return 0;
}

/* regions.c: regions as programs mark them: "main" around two threads that each do "work" twice, with "inner" nested and read once. abi.bats gives its report to PAPI 7.0's papi_hl_output_writer. */
#include <pthread.h>

#include "papi.h"

static void spin(void)
{
	volatile double x = 0;
	for (int k = 1; k < 500000; k++)
		x += 1.0 / k;
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++) {
		if (PAPI_hl_region_begin("work") != PAPI_OK || PAPI_hl_region_begin("inner") != PAPI_OK)
			return (void *)1;
		spin();
		PAPI_hl_read("inner");
		spin();
		if (PAPI_hl_region_end("inner") != PAPI_OK || PAPI_hl_region_end("work") != PAPI_OK)
			return (void *)1;
	}
	return NULL;
}

int main(void)
{
	pthread_t th[2];
	void *r[2];
	if (PAPI_hl_region_begin("main") != PAPI_OK)
		return 1;
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], &r[i]);
	if (PAPI_hl_region_end("main") != PAPI_OK)
		return 1;
	return r[0] || r[1];
}

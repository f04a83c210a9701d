/* stat_threads.c: test workload for papi stat: N threads each burn about MS ms of CPU; prints the CPU ns all threads used. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long ms;

static long long thread_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *burn(void *arg)
{
	volatile unsigned long x = 0;
	while (thread_ns() < ms * 1000000LL)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
	*(long long *)arg = thread_ns();
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	ms = argc > 2 ? atol(argv[2]) : 50;
	if (n < 1 || n > 64 || ms < 0 || (argc > 3 && strcmp(argv[3], "wait"))) {
		fprintf(stderr, "usage: stat_threads [NTHREADS [MS [wait]]]\n");
		return 2;
	}
	/* "wait": burn only after a byte arrives on standard input, so that a
	 * test can attach first and see all the work. */
	char go;
	if (argc > 3 && read(0, &go, 1) != 1)
		return 1;
	pthread_t th[64];
	long long used[64], total = 0;
	for (int i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, burn, &used[i]) != 0)
			return 1;
	for (int i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		total += used[i];
	}
	printf("%lld\n", total);
	return 0;
}

/* workload.c: a small bundled program to count: some arithmetic, some fresh pages, a few threads' worth of branches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 30000000;
	double x = 1.0;
	long odd = 0;
	for (long i = 0; i < n; i++) {
		x = x * 1.0000001 + 0.25;
		if ((i * 2654435761u) & 0x100)
			odd++;
	}
	size_t sz = 16u << 20;
	char *p = malloc(sz);
	if (p)
		memset(p, 1, sz);
	printf("workload: %ld iterations, x=%.3f, %ld odd, %zu MiB touched\n", n, x, odd, sz >> 20);
	free(p);
	return 0;
}

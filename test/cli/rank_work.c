/* rank_work.c: a rank of a test MPI job: touches N fresh pages, twice as many on rank R, so each page fault count is known. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* rank_work N [R]: N pages (2N on MPI rank R, from the launcher's environment). */
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	const char *rk = getenv("OMPI_COMM_WORLD_RANK");
	if (!rk)
		rk = getenv("PMI_RANK");
	if (argc > 2 && rk && atol(rk) == atol(argv[2]))
		n *= 2;
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE);	/* one fault per page */
	for (long i = 0; i < n; i++)
		p[i * pg] = 1;
	return 0;
}

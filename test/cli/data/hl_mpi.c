/* hl_mpi.c: an MPI program marking regions with the high-level API (built by hl-report.bats with mpicc). */
#include <mpi.h>
#include <stdio.h>

#include "papi.h"

int main(int argc, char **argv)
{
	int rank, bad = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i <= rank; i++) {
		bad |= PAPI_hl_region_begin("compute") != PAPI_OK;
		volatile double x = 0;
		for (int k = 0; k < 2000000; k++)
			x += k;
		bad |= PAPI_hl_region_end("compute") != PAPI_OK;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return bad;
}

/* fault_work.c: the command papi stat counts in test/tools/faults.sh: built static, it makes none of the system calls the test fails (no file opened, read or written, no memory mapped), so that each injected fault lands in papi. Sleeps the milliseconds given. */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 0;
	struct timespec t = { ms / 1000, ms % 1000 * 1000000L };
	while (nanosleep(&t, &t) != 0)
		;
	return 0;
}

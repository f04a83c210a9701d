/* archive.c: what libpapi.a adds to the modules to carry libpfm4 in a position-independent archive: the C library's stdio streams as libpfm4 reads them. */
/*
 * libpapi.a holds its own copy of libpfm4 and libcsv (the Makefile links
 * them in and makes their names local), so that a program links it alone,
 * into an executable or a shared object. Debian's libpfm.a is compiled as
 * for an executable (-fPIE): pfm_initialize reads stderr and stdout
 * straight from the program's copies of the C library's variables, which
 * a shared object cannot reach so (the linker refuses "recompile with
 * -fPIC"). The Makefile points those two reads at the variables below,
 * which hold the same streams, read from the C library's variables at
 * load time, before any constructor of the program's could call
 * PAPI_library_init. libpfm4 reads them in pfm_initialize only, to pick
 * where LIBPFM_VERBOSE and LIBPFM_DEBUG write.
 */
#include <stdio.h>

#define HIDDEN __attribute__((visibility("hidden")))

HIDDEN FILE *archive_pfm_stderr;
HIDDEN FILE *archive_pfm_stdout;

/* 101: the first priority a program may use, so before the program's own */
__attribute__((constructor(101))) static void archive_stdio(void)
{
	archive_pfm_stderr = stderr;
	archive_pfm_stdout = stdout;
}

/* t_papi72_abi.c: papi.h by default has PAPI 7.2's ABI. papi72_abi.h (made from Debian sid's PAPI 7.2 papi.h by test/tools/header-values.sh -s) asserts every constant's value and every struct's size, member offsets and member sizes at compile time: this test does not build when one differs. */
#include "papi.h"
#include "papi72_abi.h"
#include "tap.h"

int main(void)
{
	ok(PAPI_ABI_ASSERTIONS > 800, "papi.h holds PAPI 7.2's %d compile-time ABI assertions", PAPI_ABI_ASSERTIONS);
	ok(PAPI_VER_CURRENT == 0x07020000, "PAPI_VER_CURRENT is 7.2's");
	ok(PAPI_ABI_LEVEL == 72, "the default level is 7.2");
	return tap_done();
}

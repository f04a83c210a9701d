/* t_papi71_abi.c: papi.h at -DPAPI_ABI_LEVEL=71 has PAPI 7.1's ABI. papi71_abi.h (made from Debian trixie's PAPI 7.1 papi.h by test/tools/header-values.sh -s) asserts every constant's value and every struct's size, member offsets and member sizes at compile time: this test does not build when one differs. */
#define PAPI_ABI_LEVEL 71
#include "papi.h"
#include "papi71_abi.h"
#include "tap.h"

int main(void)
{
	ok(PAPI_ABI_ASSERTIONS > 800, "papi.h holds PAPI 7.1's %d compile-time ABI assertions", PAPI_ABI_ASSERTIONS);
	ok(PAPI_VER_CURRENT == 0x07010000, "PAPI_VER_CURRENT is 7.1's");
	return tap_done();
}

/* t_papi70_abi.c: papi.h at -DPAPI_ABI_LEVEL=70 has PAPI 7.0's ABI. papi70_abi.h (made from Debian 12's PAPI 7.0 papi.h by test/tools/header-values.sh -s) asserts every constant's value and every struct's size, member offsets and member sizes at compile time: this test does not build when one differs. */
#define PAPI_ABI_LEVEL 70
#include "papi.h"
#include "papi70_abi.h"
#include "tap.h"

int main(void)
{
	ok(PAPI_ABI_ASSERTIONS > 800, "papi.h holds PAPI 7.0's %d compile-time ABI assertions", PAPI_ABI_ASSERTIONS);
	ok(PAPI_VER_CURRENT == 0x07000000, "PAPI_VER_CURRENT is 7.0's");
	return tap_done();
}

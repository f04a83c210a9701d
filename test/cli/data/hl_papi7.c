/* hl_papi7.c: regions measured by an installed PAPI 7, so hl-report can be tried on the files it writes. */
#include <papi.h>

int main(void)
{
	for (int i = 0; i < 3; i++) {
		if (PAPI_hl_region_begin("loop") != PAPI_OK)
			return 1;
		volatile double x = 0;
		for (int k = 0; k < 1000000; k++)
			x += k;
		PAPI_hl_read("loop");
		if (PAPI_hl_region_end("loop") != PAPI_OK)
			return 1;
	}
	return 0;
}

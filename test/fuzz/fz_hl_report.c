/* fz_hl_report.c: libFuzzer target for papi hl-report's JSON reader (hlr_load_buffer). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmd/hl_report.h"

/* Each input is loaded twice into one model: the second merge (same rank
 * or the next free one) walks the merge paths. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hlr r;
	char err[256];
	hlr_init(&r);
	if (hlr_load_buffer(&r, (const char *)data, size, -1, err, sizeof err) == 0) {
		hlr_load_buffer(&r, (const char *)data, size, -1, err, sizeof err);
		for (int i = 0; i < r.nmetric; i++)
			if (hlr_metric(&r, r.metric[i]) < 0)
				abort();
	}
	hlr_free(&r);
	return 0;
}

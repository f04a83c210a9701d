/* fz_hl_events.c: libFuzzer target for PAPI_EVENTS parsing (hl_events_parse). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = 0;
	static struct hl_spec out[HL_MAX_EVENTS];
	char err[256];
	int max = size ? data[0] % (HL_MAX_EVENTS + 1) : HL_MAX_EVENTS;
	int n = hl_events_parse(spec, out, max, err, sizeof err);
	if (n < 0 || n > max)
		abort();
	for (int i = 0; i < n; i++) {
		size_t len = strnlen(out[i].name, sizeof out[i].name);
		if (len == 0 || len == sizeof out[i].name)
			abort();	/* empty or unterminated */
		for (int j = 0; j < i; j++)
			if (!strcmp(out[i].name, out[j].name))
				abort();	/* kept twice */
	}
	free(spec);
	return 0;
}

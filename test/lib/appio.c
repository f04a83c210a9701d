/* appio.c: a program that counts its own writes with appio:::WRITE_BYTES and appio:::WRITE_CALLS; prints "BYTES CALLS", or "disabled: REASON" (exit 2). Built against libpapi.so, libpapi.a, or loaded (appio_count) from a plugin a host dlopens. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"

/* Write 123 and 77 bytes to /dev/null under appio: 0, or why not. */
int appio_count(long long *bytes, long long *calls, char *why, size_t len)
{
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return snprintf(why, len, "PAPI_library_init failed"), -1;
	const PAPI_component_info_t *ci = PAPI_get_component_info(PAPI_get_component_index("appio"));
	if (!ci || ci->disabled)
		return snprintf(why, len, "%s", ci ? ci->disabled_reason : "no appio"), -2;
	int es = PAPI_NULL, fd = open("/dev/null", O_WRONLY);
	long long v[2] = { -1, -1 };
	char buf[200] = { 0 };
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, "appio:::WRITE_BYTES") != PAPI_OK ||
	    PAPI_add_named_event(es, "appio:::WRITE_CALLS") != PAPI_OK || PAPI_start(es) != PAPI_OK)
		return snprintf(why, len, "cannot set appio up"), -1;
	if (write(fd, buf, 123) != 123 || write(fd, buf, 77) != 77)
		return snprintf(why, len, "cannot write"), -1;
	PAPI_stop(es, v);
	close(fd);
	*bytes = v[0];
	*calls = v[1];
	return 0;
}

#ifndef APPIO_PLUGIN
int main(void)
{
	long long b, c;
	char why[PAPI_MAX_STR_LEN];
	int r = appio_count(&b, &c, why, sizeof why);
	if (r == -2)
		printf("disabled: %s\n", why);
	else if (r == 0)
		printf("%lld %lld\n", b, c);
	else
		printf("error: %s\n", why);
	return -r;
}
#endif

/* t_cmp_fakeroot.c: the OS components on fake /proc and /sys trees (os_set_root, which only test binaries call): exact counts from values we write, and the reason when a file is missing or malformed. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

static char root[] = "/tmp/t_cmp_fakeroot.XXXXXX";

/* Write text to root/path (creating its folders), in place: a component
 * that keeps the file open sees the new text. */
static void put(const char *path, const char *fmt, ...)
{
	char full[1024], dir[1024];
	snprintf(full, sizeof full, "%s%s", root, path);
	for (char *p = full + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		snprintf(dir, sizeof dir, "%.*s", (int)(p - full), full);
		mkdir(dir, 0755);
	}
	FILE *f = fopen(full, "w");
	if (!f) {
		diag("cannot write %s: %s", full, strerror(errno));
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static void rm(const char *path)
{
	char full[1024];
	snprintf(full, sizeof full, "%s%s", root, path);
	unlink(full);
}

static const char *const io_fields[] = { "rchar", "wchar", "syscr", "syscw", "read_bytes",
					 "write_bytes", "cancelled_write_bytes" };

static void put_io(long long base)
{
	put("/proc/self/io",
	    "rchar: %lld\nwchar: %lld\nsyscr: %lld\nsyscw: %lld\nread_bytes: %lld\n"
	    "write_bytes: %lld\ncancelled_write_bytes: %lld\n",
	    base + 1, base + 2, base + 3, base + 4, base + 5, base + 6, base + 7);
}

static void test_io(void)
{
	put_io(1000);
	os_set_root(root);
	PAPI_library_init(PAPI_VER_CURRENT);
	int io = PAPI_get_component_index("io"), es = PAPI_NULL, codes[7];
	const PAPI_component_info_t *ci = PAPI_get_component_info(io);
	ok(ci && !ci->disabled, "io reads the fake /proc/self/io (%s)", ci ? ci->disabled_reason : "");
	PAPI_create_eventset(&es);
	for (int i = 0; i < 7; i++) {
		char name[64];
		snprintf(name, sizeof name, "io:::%s", io_fields[i]);
		is_int(PAPI_event_name_to_code(name, &codes[i]), PAPI_OK, "%s", name);
	}
	is_int(PAPI_add_events(es, codes, 7), PAPI_OK, "add all seven");
	is_int(PAPI_start(es), PAPI_OK, "start at the totals 1001..1007");
	put_io(5000);
	long long v[7];
	is_int(PAPI_read(es, v), PAPI_OK, "read at 5001..5007");
	for (int i = 0; i < 7; i++)
		is_int(v[i], 4000, "%s: the difference, exactly (no self-correction on a fake tree)",
		       io_fields[i]);
	put("/proc/self/io", "rchar: 1\nwchar: 2\n");
	is_int(PAPI_read(es, v), PAPI_ESYS, "a file that lost its fields: PAPI_ESYS");
	ok(strstr(papi_last_reason(), "syscr"), "naming the missing field: %s", papi_last_reason());
	put_io(9000);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop at 9001..9007");
	is_int(v[6], 8000, "cancelled_write_bytes 8000");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();

	rm("/proc/self/io");
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(io);
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "CONFIG_TASK_IO_ACCOUNTING"),
	   "without /proc/self/io, disabled and why: %s", ci ? ci->disabled_reason : "");
	int code;
	is_int(PAPI_event_name_to_code("io:::rchar", &code), PAPI_ENOEVNT, "its events do not resolve");
	PAPI_shutdown();

	put("/proc/self/io", "rchar: 1\nwchar: 2\nsyscr: 3\n");
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(io);
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "syscw"),
	   "a field missing: disabled, naming it: %s", ci ? ci->disabled_reason : "");
	PAPI_shutdown();
	os_set_root(NULL);
}

int main(void)
{
	if (!mkdtemp(root)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	test_io();
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		diag("could not remove %s", root);
	return tap_done();
}

/* t_cmp_fakeroot.c: the OS components on fake /proc and /sys trees (os_set_root, which only test binaries call): exact counts from values we write, the reason when a file is missing or malformed, and a file that is there but cannot be read noted. */
#include <errno.h>
#include <fcntl.h>
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

/* /proc/net/dev with lo and eth0 at totals from base (column c: base + c). */
static void put_net(long long base, const char *extra)
{
	char lines[2][256];
	for (int i = 0; i < 2; i++) {
		int n = snprintf(lines[i], sizeof lines[i], "%6s:", i ? "eth0" : "lo");
		for (int c = 0; c < 16; c++)
			n += snprintf(lines[i] + n, sizeof lines[i] - (size_t)n, " %lld",
				      base * (i + 1) + c);
	}
	put("/proc/net/dev",
	    "Inter-|   Receive                                                |  Transmit\n"
	    " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets "
	    "errs drop fifo colls carrier compressed\n%s\n%s\n%s", lines[0], lines[1], extra);
}

static void test_net(void)
{
	put_net(1000, "");
	os_set_root(root);
	PAPI_library_init(PAPI_VER_CURRENT);
	int net = PAPI_get_component_index("net"), es = PAPI_NULL, code;
	const PAPI_component_info_t *ci = PAPI_get_component_info(net);
	ok(ci && !ci->disabled, "net reads the fake /proc/net/dev (%s)", ci ? ci->disabled_reason : "");
	is_int(ci ? ci->num_native_events : 0, 32, "sixteen columns of two interfaces");
	is_int(ci ? ci->default_granularity : 0, PAPI_GRN_SYS, "the machine's");
	char name[PAPI_MAX_STR_LEN];
	code = PAPI_NATIVE_MASK;
	PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, net);
	PAPI_event_code_to_name(code, name);
	is_str(name, "net:::lo:rx:bytes", "the first event, named as PAPI 7 names it");
	PAPI_event_info_t in;
	PAPI_get_event_info(code, &in);
	is_str(in.units, "bytes", "in bytes");
	static const char *const evs[] = { "net:::lo:rx:bytes", "net:::eth0:tx:compressed",
					   "net:::eth0:rx:multicast", "net:::lo:tx:colls" };
	static const long long want[] = { 500, 1000, 1000, 500 };
	int codes[4];
	for (int i = 0; i < 4; i++)
		is_int(PAPI_event_name_to_code(evs[i], &codes[i]), PAPI_OK, "%s", evs[i]);
	is_int(PAPI_event_name_to_code("net:::eth1:rx:bytes", &code), PAPI_ENOEVNT, "no eth1");
	PAPI_create_eventset(&es);
	is_int(PAPI_add_events(es, codes, 4), PAPI_OK, "add four");
	is_int(PAPI_start(es), PAPI_OK, "start");
	put_net(1500, "");
	long long v[4];
	is_int(PAPI_read(es, v), PAPI_OK, "read");
	for (int i = 0; i < 4; i++)
		is_int(v[i], want[i], "%s: exactly the change", evs[i]);
	/* eth0 goes away, eth1 comes: eth0 keeps its last totals */
	put("/proc/net/dev", "Inter-|\n face |\n    lo: 1700 0 0 0 0 0 0 0 0 0 0 0 0 1113 0 0\n"
			     "  eth1: 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5\n");
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	is_int(v[0], 700, "lo: 1700 - 1000");
	is_int(v[1], 1000, "eth0, gone: its last change stays");
	is_int(v[3], 100, "lo's tx:colls: 1113 - 1013");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();

	put("/proc/net/dev", "Inter-|\n face |\n");
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(net);
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "no network interface"),
	   "no interface: disabled (%s)", ci ? ci->disabled_reason : "");
	PAPI_shutdown();
	rm("/proc/net/dev");
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(net);
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "cannot read /proc/net/dev"),
	   "no file: disabled (%s)", ci ? ci->disabled_reason : "");
	PAPI_shutdown();
	os_set_root(NULL);
}

static void test_stealtime(void)
{
	long hz = sysconf(_SC_CLK_TCK);
	long long us = hz > 0 && 1000000 % hz == 0 ? 1000000 / hz : 10000;
	put("/proc/stat", "cpu  1 2 3 4 5 6 7 100 0 0\ncpu0 1 2 3 4 5 6 7 60 0 0\n"
			  "cpu2 1 2 3 4 5 6 7 40 0 0\nintr 1 2 3\nctxt 5\n");
	os_set_root(root);
	PAPI_library_init(PAPI_VER_CURRENT);
	int st = PAPI_get_component_index("stealtime"), es = PAPI_NULL, codes[3];
	const PAPI_component_info_t *ci = PAPI_get_component_info(st);
	ok(ci && !ci->disabled, "stealtime reads the fake /proc/stat (%s)", ci ? ci->disabled_reason : "");
	is_int(ci ? ci->num_native_events : 0, 3, "TOTAL and two CPUs (cpu1 offline)");
	static const char *const evs[] = { "stealtime:::TOTAL", "stealtime:::CPU1", "stealtime:::CPU2" };
	for (int i = 0; i < 3; i++)
		is_int(PAPI_event_name_to_code(evs[i], &codes[i]), PAPI_OK, "%s", evs[i]);
	PAPI_event_info_t in;
	PAPI_get_event_info(codes[2], &in);
	ok(strstr(in.long_descr, "cpu2"), "CPU2 is the second CPU line, cpu2: %s", in.long_descr);
	is_str(in.units, "us", "in microseconds");
	PAPI_create_eventset(&es);
	is_int(PAPI_add_events(es, codes, 3), PAPI_OK, "add them");
	is_int(PAPI_start(es), PAPI_OK, "start");
	put("/proc/stat", "cpu  1 2 3 4 5 6 7 107 0 0\ncpu0 1 2 3 4 5 6 7 63 0 0\n"
			  "cpu2 1 2 3 4 5 6 7 44 0 0\nintr 1 2 3\n");
	long long v[3];
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	is_int(v[0], 7 * us, "TOTAL: 7 ticks in microseconds");
	is_int(v[1], 3 * us, "CPU1 (cpu0): 3 ticks");
	is_int(v[2], 4 * us, "CPU2 (cpu2): 4 ticks");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();

	put("/proc/stat", "cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\nintr 1\n");
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(st);
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "no steal column"),
	   "no steal column: disabled (%s)", ci ? ci->disabled_reason : "");
	PAPI_shutdown();
	rm("/proc/stat");
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(st);
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "cannot read /proc/stat"),
	   "no file: disabled (%s)", ci ? ci->disabled_reason : "");
	PAPI_shutdown();
	os_set_root(NULL);
}

/* A file that is absent is no fault; one that is there but cannot be read
 * (a directory read as a file: EISDIR) is noted, the first one kept. */
static void test_faults(void)
{
	char path[1024], dir[1024], buf[64];
	int n = -1, e = os_fault(path, sizeof path, &n);
	ok(e == 0 && n == 0 && !*path, "nothing noted before a read fails (%d: %s)", n, path);
	os_set_root(root);
	ok(os_read("/proc/absent", buf, sizeof buf) < 0 && errno == ENOENT, "an absent file: ENOENT");
	e = os_fault(path, sizeof path, &n);
	ok(e == 0 && n == 0, "an absent file is not noted (%d)", n);
	snprintf(dir, sizeof dir, "%s/proc", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof dir, "%s/proc/unreadable", root);
	ok(mkdir(dir, 0755) == 0, "mkdir %s", dir);
	ok(os_read("/proc/unreadable", buf, sizeof buf) < 0 && errno == EISDIR,
	   "a directory read as a file: EISDIR");
	e = os_fault(path, sizeof path, &n);
	ok(e == EISDIR && n == 1 && !strcmp(path, dir), "noted with its path (%d: %s)", n, path);
	ok(os_read_at(AT_FDCWD, dir, buf, sizeof buf) < 0 && errno == EISDIR, "again, by its path");
	e = os_fault(path, sizeof path, &n);
	ok(e == EISDIR && n == 2 && !strcmp(path, dir), "counted; the first one kept (%d: %s)", n, path);
	os_set_root(NULL);
}

int main(void)
{
	if (!mkdtemp(root)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return tap_done();
	}
	test_faults();
	test_io();
	test_net();
	test_stealtime();
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		diag("could not remove %s", root);
	return tap_done();
}

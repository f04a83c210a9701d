/* t_cmp_powercap.c: the powercap component on fake /sys/class/powercap trees (os_set_root, which only test binaries call): PAPI 7's event names, energy since start with the counter's wrap-around undone, the limits as levels, why it is disabled (no zones; energy_uj root-only); and on the real files where the machine has them. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "fake_sysfs.h"
#include "tap.h"

static char root[PATH_MAX];
#define RANGE 262143328850LL	/* a package's max_energy_range_uj */

static void put(const char *rel, const char *fmt, ...)
{
	char text[256], path[PATH_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	snprintf(path, sizeof path, "sys/class/powercap/%s", rel);
	if (fs_write(root, path, text) < 0)
		diag("cannot write %s: %s", path, strerror(errno));
}

/* package-0 with core and dram, package-1 without parts, and psys. */
static void tree(void)
{
	put("intel-rapl:0/name", "package-0");
	put("intel-rapl:0/energy_uj", "%lld", RANGE - 1000);
	put("intel-rapl:0/max_energy_range_uj", "%lld", RANGE);
	put("intel-rapl:0/constraint_0_power_limit_uw", "125000000");
	put("intel-rapl:0/constraint_0_max_power_uw", "150000000");
	put("intel-rapl:0/constraint_0_time_window_us", "27983872");
	put("intel-rapl:0/constraint_1_power_limit_uw", "200000000");
	put("intel-rapl:0/constraint_1_time_window_us", "2440");
	put("intel-rapl:0/enabled", "1");
	put("intel-rapl:0:0/name", "core");
	put("intel-rapl:0:0/energy_uj", "500");
	put("intel-rapl:0:0/max_energy_range_uj", "%lld", RANGE);
	put("intel-rapl:0:1/name", "dram");
	put("intel-rapl:0:1/energy_uj", "7000");
	put("intel-rapl:0:1/max_energy_range_uj", "65712999613");
	put("intel-rapl:1/name", "package-1");
	put("intel-rapl:1/energy_uj", "100");
	put("intel-rapl:1/max_energy_range_uj", "%lld", RANGE);
	put("intel-rapl:2/name", "psys");
	put("intel-rapl:2/energy_uj", "1");
	put("intel-rapl:2/max_energy_range_uj", "%lld", RANGE);
}

static int code(const char *name)
{
	int c = 0;
	if (PAPI_event_name_to_code(name, &c) != PAPI_OK)
		diag("%s: %s", name, papi_last_reason());
	return c;
}

static void test_fake(void)
{
	tree();
	os_set_root(root);
	PAPI_library_init(PAPI_VER_CURRENT);
	int cidx = PAPI_get_component_index("powercap");
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	ok(ci && !ci->disabled, "powercap reads the fake zones (%s)", ci ? ci->disabled_reason : "");
	static const struct {
		int line;
		const char *name, *units, *desc;
	} rows[] = {
		{ __LINE__, "powercap:::ENERGY_UJ:ZONE0", "uJ", "package-0 (intel-rapl:0)" },
		{ __LINE__, "powercap:::MAX_ENERGY_RANGE_UJ:ZONE0", "uJ", "wraps" },
		{ __LINE__, "powercap:::POWER_LIMIT_A_UW:ZONE0", "uW", "Power limit A" },
		{ __LINE__, "powercap:::MAX_POWER_A_UW:ZONE0", "uW", "limit A" },
		{ __LINE__, "powercap:::TIME_WINDOW_A_US:ZONE0", "us", "Time window" },
		{ __LINE__, "powercap:::POWER_LIMIT_B_UW:ZONE0", "uW", "limit B" },
		{ __LINE__, "powercap:::TIME_WINDOW_B:ZONE0", "us", "limit B" },
		{ __LINE__, "powercap:::ENABLED:ZONE0", "", "enforced" },
		{ __LINE__, "powercap:::ENERGY_UJ:ZONE0_SUBZONE0", "uJ", "package-0's core (intel-rapl:0:0)" },
		{ __LINE__, "powercap:::ENERGY_UJ:ZONE0_SUBZONE1", "uJ", "package-0's dram (intel-rapl:0:1)" },
		{ __LINE__, "powercap:::ENERGY_UJ:ZONE1", "uJ", "package-1" },
		{ __LINE__, "powercap:::ENERGY_UJ:PSYS", "uJ", "psys (intel-rapl:2)" },
		{ __LINE__, "ENERGY_UJ:ZONE0", "uJ", "package-0" },	/* without the prefix, as PAPI 7 */
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		PAPI_event_info_t in;
		int c = code(rows[i].name);
		ok(c && PAPI_get_event_info(c, &in) == PAPI_OK && in.component_index == cidx &&
		   !strcmp(in.units, rows[i].units) && strstr(in.long_descr, rows[i].desc),
		   "line %d: %s (%s): %s", rows[i].line, rows[i].name, rows[i].units, c ? in.long_descr : "");
	}
	int c;
	is_int(PAPI_event_name_to_code("powercap:::MAX_POWER_B_UW:ZONE0", &c), PAPI_ENOEVNT,
	       "a file the zone lacks is no event");
	is_int(PAPI_event_name_to_code("powercap:::ENERGY_UJ:ZONE1_SUBZONE0", &c), PAPI_ENOEVNT,
	       "nor a part the package lacks");

	int es = PAPI_NULL, codes[5] = { code("powercap:::ENERGY_UJ:ZONE0"),
					 code("powercap:::ENERGY_UJ:ZONE0_SUBZONE1"),
					 code("powercap:::POWER_LIMIT_A_UW:ZONE0"),
					 code("powercap:::ENERGY_UJ:ZONE1"), code("powercap:::ENERGY_UJ:PSYS") };
	long long v[5];
	PAPI_create_eventset(&es);
	is_int(PAPI_add_events(es, codes, 5), PAPI_OK, "add energies and a limit");
	is_int(PAPI_start(es), PAPI_OK, "start");
	/* package 0 wraps: 1000 uJ to the end of its range, 1 to 0, 3999 after */
	put("intel-rapl:0/energy_uj", "3999");
	put("intel-rapl:0:1/energy_uj", "9000");
	put("intel-rapl:1/energy_uj", "350");
	put("intel-rapl:0/constraint_0_power_limit_uw", "95000000");
	is_int(PAPI_read(es, v), PAPI_OK, "read");
	is_int(v[0], 5000, "package 0: 5000 uJ across the wrap at max_energy_range_uj");
	is_int(v[1], 2000, "its dram: 2000 uJ");
	is_int(v[2], 95000000, "the power limit: its level now, not a difference");
	is_int(v[3], 250, "package 1: 250 uJ");
	is_int(v[4], 0, "psys: nothing yet");
	/* the dram's own, smaller range wraps too, twice across reads */
	put("intel-rapl:0:1/energy_uj", "10");
	is_int(PAPI_read(es, v), PAPI_OK, "read after the dram's wrap");
	is_int(v[1], 2000 + (65712999613LL - 9000 + 1) + 10, "its dram: the wrap at its own range");
	put("intel-rapl:0:1/energy_uj", "65712999000");
	put("intel-rapl:0/energy_uj", "4000");
	is_int(PAPI_read(es, v), PAPI_OK, "read");
	put("intel-rapl:0:1/energy_uj", "5");
	put("intel-rapl:0/energy_uj", "4001");
	is_int(PAPI_stop(es, v), PAPI_OK, "stop after the dram wrapped a second time");
	is_int(v[0], 5002, "package 0: every microjoule since start");
	is_int(v[1], 2 * (65712999613LL + 1) + 5 - 7000, "the dram: two wraps, nothing lost");
	put("intel-rapl:0/energy_uj", "9");
	is_int(PAPI_start(es), PAPI_OK, "start again");
	put("intel-rapl:0/energy_uj", "19");
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	is_int(v[0], 10, "counts from the new start");
	put("intel-rapl:0/energy_uj", "garbage");
	is_int(PAPI_start(es), PAPI_ESYS, "a file that stopped holding a number: PAPI_ESYS");
	ok(strstr(papi_last_reason(), "ENERGY_UJ:ZONE0"), "naming the event: %s", papi_last_reason());
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	os_set_root(NULL);
}

static void test_disabled(void)
{
	char empty[PATH_MAX];
	fs_make(empty);
	os_set_root(empty);
	PAPI_library_init(PAPI_VER_CURRENT);
	const PAPI_component_info_t *ci = PAPI_get_component_info(PAPI_get_component_index("powercap"));
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "No RAPL zones") &&
	   strstr(ci->disabled_reason, "no software estimate"),
	   "no zones: disabled, and no estimate stands in: %s", ci ? ci->disabled_reason : "");
	int c;
	is_int(PAPI_event_name_to_code("powercap:::ENERGY_UJ:ZONE0", &c), PAPI_ENOEVNT,
	       "its events name nothing then");
	PAPI_shutdown();
	os_set_root(NULL);
	fs_remove(empty);

	/* energy_uj root-only, as Linux 5.10 made it (CVE-2020-8694) */
	char path[PATH_MAX + 64];
	tree();
	if (geteuid() == 0) {
		skip("root reads any file", "energy_uj readable only by root: the reason says so");
		return;
	}
	for (const char *z = "0\0" "0:0\0" "0:1\0" "1\0" "2\0"; *z; z += strlen(z) + 1) {
		snprintf(path, sizeof path, "%s/sys/class/powercap/intel-rapl:%s/energy_uj", root, z);
		chmod(path, 0);
	}
	os_set_root(root);
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(PAPI_get_component_index("powercap"));
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "readable only by root") &&
	   strstr(ci->disabled_reason, "CVE-2020-8694"),
	   "energy_uj unreadable: the reason names the privilege: %s", ci ? ci->disabled_reason : "");
	PAPI_shutdown();
	os_set_root(NULL);
}

/* The machine's own zones, where it has them. */
static void test_real(void)
{
	struct stat st;
	if (stat("/sys/class/powercap/intel-rapl:0", &st) != 0) {
		skip("no RAPL powercap zones on this machine (/sys/class/powercap/intel-rapl:0)",
		     "powercap on the real files");
		return;
	}
	PAPI_library_init(PAPI_VER_CURRENT);
	const PAPI_component_info_t *ci = PAPI_get_component_info(PAPI_get_component_index("powercap"));
	if (ci && ci->disabled) {
		ok(strstr(ci->disabled_reason, "root") != NULL,
		   "zones but no readable energy_uj: the reason says why: %s", ci->disabled_reason);
	} else {
		int es = PAPI_NULL, c = code("powercap:::ENERGY_UJ:ZONE0");
		long long v = -1;
		PAPI_create_eventset(&es);
		is_int(PAPI_add_event(es, c), PAPI_OK, "add ENERGY_UJ:ZONE0");
		PAPI_start(es);
		volatile double x = 0;
		for (int i = 0; i < 20000000; i++)
			x += i;
		is_int(PAPI_stop(es, &v), PAPI_OK, "stop");
		ok(v > 0, "the package used energy while this test computed: %lld uJ", v);
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	PAPI_shutdown();
}

int main(void)
{
	if (fs_make(root) < 0) {
		printf("Bail out! cannot make a directory: %s\n", strerror(errno));
		return 1;
	}
	test_fake();
	test_disabled();
	test_real();
	fs_remove(root);
	return tap_done();
}

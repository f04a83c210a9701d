/* t_native_sysfs.c: the kernel's generic events named on a core PMU (cpu/cycles/) encode as libpfm4 encodes the same names on its perf PMU. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fake_sysfs.h"
#include "internal.h"
#include "tap.h"

#define MAXN 128

static struct {
	char name[64];		/* EVENT of cpu/EVENT/ */
	struct perf_event_attr attr;
} ev[MAXN];
static int nev;

static struct sys_ops fake;

/* With libpfm4 knowing no PMU, the core PMU "cpu" (no named events) lists
 * every generic event once; the aliases resolve too. */
static void collect(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init, libpfm4 knowing nothing");
	int code = PAPI_NATIVE_MASK;
	int r = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, 0);
	while (r == PAPI_OK && nev < MAXN) {
		const struct native *n = native_get(code & PAPI_NATIVE_AND_MASK);
		if (n && !strncmp(n->name, "cpu/", 4)) {
			snprintf(ev[nev].name, sizeof ev[nev].name, "%.*s", (int)strlen(n->name) - 5, n->name + 4);
			ev[nev++].attr = n->attr;
		}
		r = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, 0);
	}
	is_int(nev, 10 + 7 * 3 * 2, "ten generic hardware events and 42 cache events listed");
	static const char *const aliases[] = { "cpu-cycles", "branch-instructions", "idle-cycles-frontend",
					       "idle-cycles-backend" };
	for (size_t i = 0; i < sizeof aliases / sizeof *aliases && nev < MAXN; i++) {
		char name[96];
		int idx;
		snprintf(name, sizeof name, "cpu/%s/", aliases[i]);
		if (!ok(native_lookup(name, &idx) == PAPI_OK, "alias %s resolves", name))
			continue;
		snprintf(ev[nev].name, sizeof ev[nev].name, "%s", aliases[i]);
		ev[nev++].attr = native_get(idx)->attr;
	}
	PAPI_shutdown();
}

/* libpfm4's perf PMU spells the same events in capitals. */
static void compare(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init, libpfm4 as it is");
	int compared = 0;
	for (int i = 0; i < nev; i++) {
		char name[96];
		int idx;
		snprintf(name, sizeof name, "perf::%.60s", ev[i].name);
		if (native_lookup(name, &idx) != PAPI_OK)
			continue;	/* libpfm4 lists only the usual cache combinations */
		const struct native *n = native_get(idx);
		ok(n->attr.type == ev[i].attr.type && n->attr.config == ev[i].attr.config,
		   "cpu/%s/ is libpfm4's %s: type %u config %#llx", ev[i].name, name, ev[i].attr.type,
		   (unsigned long long)ev[i].attr.config);
		compared++;
	}
	ok(compared >= 40, "%d of %d events compared with libpfm4", compared, nev);
	PAPI_shutdown();
}

int main(void)
{
	char root[PATH_MAX];
	if (fs_make(root) < 0) {
		ok(0, "make a temporary tree: %s", strerror(errno));
		return tap_done();
	}
	fs_write(root, "cpu/type", "4");
	fs_write(root, "cpu/format/event", "config:0-7");
	fs_write(root, "software/type", "1");
	fake = sys_real;
	fake.pmu_dir = root;
	sys_set_ops(&fake);
	setenv("LIBPFM_FORCE_PMU", "nowhere", 1);
	collect();
	unsetenv("LIBPFM_FORCE_PMU");
	compare();
	sys_set_ops(NULL);
	fs_remove(root);
	return tap_done();
}

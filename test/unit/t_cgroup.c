/* t_cgroup.c: finding the cgroup hierarchy perf_event counts in (cgroup.c) from fake mount tables, and opening a cgroup there, with each error. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_sysfs.h"
#include "internal.h"
#include "tap.h"

static char root[PATH_MAX];

/* Point the os root at a tree whose /proc/self/mounts is table. */
static void mounts(const char *table)
{
	fs_remove(root);
	if (fs_make(root) < 0 || fs_write(root, "proc/self/mounts", table) < 0)
		exit(tap_done());
	os_set_root(root);
}

static void finds(const char *table, const char *want, const char *what)
{
	char dir[512] = "";
	mounts(table);
	int r = pe_cgroup_mount(dir, sizeof dir);
	if (want)
		ok(r == 0 && !strcmp(dir, want), "%s: %s (got %d, \"%s\")", what, want, r, dir);
	else
		ok(r == -1 && errno == ENOENT, "%s: none (got %d, \"%s\")", what, r, dir);
}

int main(void)
{
	finds("sysfs /sys sysfs rw 0 0\n"
	      "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime,nsdelegate 0 0\n",
	      "/sys/fs/cgroup", "a unified layout");
	finds("tmpfs /sys/fs/cgroup tmpfs rw 0 0\n"
	      "cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0\n"
	      "cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0\n"
	      "cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0\n",
	      "/sys/fs/cgroup/unified", "a hybrid layout without a perf_event v1 mount");
	finds("cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0\n"
	      "cgroup /sys/fs/cgroup/perf_event cgroup rw,nosuid,perf_event 0 0\n",
	      "/sys/fs/cgroup/perf_event", "a v1 perf_event mount wins over cgroup2, as perf has it");
	finds("cgroup /sys/fs/cgroup/cpu,perf_event cgroup rw,cpu,perf_event,relatime 0 0\n",
	      "/sys/fs/cgroup/cpu,perf_event", "perf_event among other controllers");
	finds("cgroup /x cgroup rw,perf_event_no 0 0\n", NULL, "a lookalike option is not perf_event");
	finds("cgroup2 /my\\040cgroups cgroup2 rw 0 0\n", "/my cgroups", "a space written \\040");
	finds("proc /proc proc rw 0 0\n", NULL, "no cgroup mount");
	finds("", NULL, "an empty table");

	/* Opening one under the hierarchy of a fake tree. */
	char why[512];
	mounts("cgroup2 /cg cgroup2 rw 0 0\n");
	fs_write(root, "cg/box/inner/cgroup.procs", "");
	fs_write(root, "cg/file", "");
	int fd = pe_cgroup_open("box/inner", why, sizeof why);
	ok(fd >= 0, "open cgroup box/inner (%d)", fd);
	if (fd >= 0)
		close(fd);
	fd = pe_cgroup_open("/box", why, sizeof why);
	ok(fd >= 0, "a leading slash is the hierarchy's root");
	if (fd >= 0)
		close(fd);
	is_int(pe_cgroup_open("nope", why, sizeof why), PAPI_EINVAL, "no such cgroup");
	ok(strstr(why, "nope") && strstr(why, "no such cgroup"), "the reason names it: %s", why);
	is_int(pe_cgroup_open("file", why, sizeof why), PAPI_EINVAL, "a file is no cgroup");
	is_int(pe_cgroup_open("box/../..", why, sizeof why), PAPI_EINVAL, "leaving the hierarchy");
	ok(strstr(why, "..") != NULL, "the reason says why: %s", why);
	is_int(pe_cgroup_open("a..b", why, sizeof why) == PAPI_EINVAL && strstr(why, "no such"), 1,
	       "two dots inside a name are a name");
	is_int(pe_cgroup_open("", why, sizeof why), PAPI_EINVAL, "an empty name");
	is_int(pe_cgroup_open(NULL, why, sizeof why), PAPI_EINVAL, "no name");
	mounts("proc /proc proc rw 0 0\n");
	is_int(pe_cgroup_open("box", why, sizeof why), PAPI_ENOSUPP, "no hierarchy mounted");
	ok(strstr(why, "cgroup2") != NULL, "the reason says what is missing: %s", why);
	fs_remove(root);
	os_set_root(NULL);
	return tap_done();
}

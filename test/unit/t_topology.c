/* t_topology.c: CPU lists and the CPU topology papi stat reads from sysfs, on sysfs trees made up in a temporary directory, and on this machine. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../cmd/topology.c"
#include "tap.h"

static const struct {
	int line;
	const char *text;
	int n;			/* -1: refused */
	int first, last;
	const char *why;	/* part of the reason when refused */
} lists[] = {
	{ __LINE__, "0-3", 4, 0, 3, NULL },
	{ __LINE__, "0-1,8,10-11\n", 5, 0, 11, NULL },
	{ __LINE__, "5,1,3-4,1", 4, 1, 5, NULL },	/* sorted, each once */
	{ __LINE__, "", 0, 0, 0, NULL },
	{ __LINE__, "\n", 0, 0, 0, NULL },
	{ __LINE__, "7", 1, 7, 7, NULL },
	{ __LINE__, "3-1", -1, 0, 0, "runs backwards" },
	{ __LINE__, "1,", -1, 0, 0, "not a CPU list" },
	{ __LINE__, "a", -1, 0, 0, "not a CPU list" },
	{ __LINE__, "1--2", -1, 0, 0, "not a CPU list" },
	{ __LINE__, "0-99999999", -1, 0, 0, "too large" },
	{ __LINE__, "1 2", -1, 0, 0, "not a CPU list" },
};

static void test_lists(void)
{
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		int *v;
		char err[128] = "";
		int n = cpulist_parse(lists[i].text, &v, err, sizeof err);
		if (lists[i].n < 0) {
			ok(n == -1 && strstr(err, lists[i].why), "line %d: '%s' refused: %s", lists[i].line,
			   lists[i].text, err);
			continue;
		}
		is_int(n, lists[i].n, "line %d: '%s' has %d CPUs", lists[i].line, lists[i].text, lists[i].n);
		if (n > 0)
			ok(v[0] == lists[i].first && v[n - 1] == lists[i].last, "line %d: from %d to %d",
			   lists[i].line, lists[i].first, lists[i].last);
		free(v);
	}
}

static char root[64];

static void put(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(const char *rel, const char *fmt, ...)
{
	char path[512], cmd[600];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	snprintf(cmd, sizeof cmd, "%s", path);
	/* make each directory on the way */
	for (char *p = cmd + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(cmd, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	if (!f)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* Two sockets of two cores of two threads (CPUs 0-7; thread siblings
 * n and n+4), two NUMA nodes, CPU 6 offline; possible CPUs 0-15. */
static void two_sockets(void)
{
	put("cpu/online", "0-5,7\n");
	put("cpu/offline", "6\n");
	put("cpu/possible", "0-15\n");
	for (int c = 0; c < 8; c++) {
		char rel[128];
		snprintf(rel, sizeof rel, "cpu/cpu%d/topology/physical_package_id", c);
		put(rel, "%d\n", (c % 4) / 2);
		snprintf(rel, sizeof rel, "cpu/cpu%d/topology/core_id", c);
		put(rel, "%d\n", c % 2);
		snprintf(rel, sizeof rel, "cpu/cpu%d/topology/die_id", c);
		put(rel, "0\n");
	}
	put("node/node0/cpulist", "0-1,4-5\n");
	put("node/node1/cpulist", "2-3,6-7\n");
	put("node/possible", "0-1\n");	/* not a node directory */
}

static void test_tree(void)
{
	struct topo t;
	char err[256];
	snprintf(root, sizeof root, "%s/t_topo_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!ok(mkdtemp(root) != NULL, "temporary sysfs at %s", root))
		return;
	two_sockets();
	if (!ok(topo_read(root, &t, err, sizeof err) == 0, "read the made-up tree (%s)", err))
		return;
	is_int(t.n, 7, "seven CPUs online");
	is_int(t.max, 15, "possible CPUs up to 15");
	ok(t.noffline == 1 && topo_offline(&t, 6) && !topo_offline(&t, 5), "CPU 6 is offline");
	ok(topo_find(&t, 6) == NULL, "an offline CPU is not found online");
	const struct topo_cpu *c = topo_find(&t, 7);
	ok(c && c->socket == 1 && c->core == 1 && c->node == 1 && c->die == 0,
	   "CPU 7: socket 1, core 1, node 1 (%d %d %d)", c ? c->socket : -1, c ? c->core : -1,
	   c ? c->node : -1);
	c = topo_find(&t, 4);
	ok(c && c->socket == 0 && c->core == 0 && c->node == 0, "CPU 4: thread sibling of CPU 0");
	topo_free(&t);

	/* a kernel without die_id, without nodes, without cpu/online */
	char cmd[320];
	snprintf(cmd, sizeof cmd, "rm -rf %s/node %s/cpu/online %s/cpu/cpu*/topology/die_id", root, root, root);
	is_int(system(cmd), 0, "strip the tree");
	ok(topo_read(root, &t, err, sizeof err) == 0, "read it again (%s)", err);
	is_int(t.n, 8, "without cpu/online every cpuN directory is online");
	c = topo_find(&t, 7);
	ok(c && c->die == 0 && c->node == 0, "no die_id: die 0; no node directory: node 0");
	topo_free(&t);

	put("cpu/online", "0-x\n");
	ok(topo_read(root, &t, err, sizeof err) == -1 && strstr(err, "cpu/online: '0-x"),
	   "a broken cpu/online is named: %s", err);
	snprintf(cmd, sizeof cmd, "rm -rf %s/cpu", root);
	is_int(system(cmd), 0, "remove the cpu directory");
	ok(topo_read(root, &t, err, sizeof err) == -1 && strstr(err, "no online CPU"),
	   "no CPU at all: %s", err);
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	is_int(system(cmd), 0, "remove the made-up tree");
}

/* This machine: as many CPUs as the C library says are online. */
static void test_here(void)
{
	struct topo t;
	char err[256];
	if (!ok(topo_read("/sys/devices/system", &t, err, sizeof err) == 0, "this machine (%s)", err))
		return;
	is_int(t.n, sysconf(_SC_NPROCESSORS_ONLN), "online CPUs as sysconf counts them");
	topo_free(&t);
}

int main(void)
{
	test_lists();
	test_tree();
	test_here();
	return tap_done();
}

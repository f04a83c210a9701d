/* topology.h: the CPUs of this machine from sysfs: which are online, and the socket, die, core and NUMA node of each; CPU lists ("0-3,8"). */
#ifndef PAPI_CMD_TOPOLOGY_H
#define PAPI_CMD_TOPOLOGY_H

#include <stddef.h>

struct topo_cpu {
	int cpu;
	int socket;		/* physical_package_id */
	int die;		/* die_id, 0 where the kernel has none */
	int core;		/* core_id */
	int node;		/* NUMA node, 0 without NUMA */
};

struct topo {
	int n;			/* online CPUs, in increasing order */
	struct topo_cpu *cpu;
	int max;		/* highest CPU number the kernel knows (possible), or -1 */
	int *offline;		/* CPUs present but offline, in increasing order */
	int noffline;
};

/* Parse a CPU list ("0-3,5,7-8", as sysfs and perf write them; blanks and
 * a final newline allowed) into *out (sorted, each CPU once; free() it).
 * Returns the count, 0 for an empty list, or -1 with the reason in err. */
int cpulist_parse(const char *s, int **out, char *err, size_t len);

/* Read the CPUs under root (normally "/sys/devices/system": cpu/online,
 * cpu/offline, cpu/cpuN/topology/, node/nodeN/cpulist). A file that is
 * missing gives the value a machine without it has (one socket, one die,
 * one node; without cpu/online, every cpuN directory is online). 0, or -1
 * with the reason in err (no CPU at all, an unreadable list). */
int topo_read(const char *root, struct topo *t, char *err, size_t len);
void topo_free(struct topo *t);
/* The online CPU cpu of t, or NULL. */
const struct topo_cpu *topo_find(const struct topo *t, int cpu);
/* 1 when cpu is present but offline. */
int topo_offline(const struct topo *t, int cpu);

#endif

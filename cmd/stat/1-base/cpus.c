/* cpus.c: papi stat across whole CPUs: -a and -C LIST (the online CPUs from sysfs), and what each CPU's place is for --per-core, --per-socket and --per-node. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tool.h"
#include "base.h"
#include "topology.h"

CLI_FIRST_DATA static struct topo topo;	/* read once, for the CPUs and the rows */

int st_cpus_read(struct st *s)
{
	char err[256];
	if (topo.n)
		return 0;
	if (topo_read("/sys/devices/system", &topo, err, sizeof err) < 0)
		return cli_error("stat", "cannot list the CPUs: %s", err), -1;
	if (!s->o.cpus) {		/* -a: every online CPU */
		if (!(s->o.cpus = malloc((size_t)topo.n * sizeof *s->o.cpus)))
			return cli_error("stat", "out of memory"), -1;
		for (int i = 0; i < topo.n; i++)
			s->o.cpus[i] = topo.cpu[i].cpu;
		s->o.ncpus = topo.n;
		return 0;
	}
	for (int i = 0; i < s->o.ncpus; i++) {	/* -C: each one must be online */
		int c = s->o.cpus[i];
		if (topo_find(&topo, c))
			continue;
		if (topo_offline(&topo, c))
			return cli_error("stat", "-C: CPU %d is offline (bring it online, or leave it out)", c), -1;
		return cli_error("stat", "-C: this machine has no CPU %d (its CPUs: 0-%d)", c, topo.max), -1;
	}
	return 0;
}

int st_cpus_parse(struct st *s, const char *list)
{
	char err[160];
	free(s->o.cpus);
	s->o.cpus = NULL;
	int n = cpulist_parse(list, &s->o.cpus, err, sizeof err);
	if (n < 0)
		return cli_usage("stat", "-C: %s", err), -1;
	if (n == 0)
		return cli_usage("stat", "-C needs at least one CPU"), -1;
	s->o.ncpus = n;
	return 0;
}

int st_cpus_place(int cpu, int *socket, int *die, int *core, int *node)
{
	const struct topo_cpu *c = topo_find(&topo, cpu);
	if (!c)
		return -1;
	*socket = c->socket;
	*die = c->die;
	*core = c->core;
	*node = c->node;
	return 0;
}

void st_cpus_offline(char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < topo.noffline && k + 12 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? "," : "", topo.offline[i]);
}

void st_cpus_free(struct st *s)
{
	free(s->o.cpus);
	s->o.cpus = NULL;
	topo_free(&topo);
}

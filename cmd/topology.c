/* topology.c: the CPUs of this machine from sysfs (online, offline, socket, die, core, NUMA node) and CPU lists, for papi stat -a, -C and --per-*. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

/* The largest CPU number a list may hold: far above any machine. */
#define CPU_LIMIT 65535

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* A decimal number at *p (at most CPU_LIMIT); -1 when there is none. */
static long number(const char **p)
{
	long v = 0;
	if (!isdigit((unsigned char)**p))
		return -1;
	for (; isdigit((unsigned char)**p); (*p)++) {
		v = v * 10 + (**p - '0');
		if (v > CPU_LIMIT)
			return -2;
	}
	return v;
}

int cpulist_parse(const char *s, int **out, char *err, size_t len)
{
	int *v = NULL, n = 0, cap = 0;
	const char *p = s;
	long a = 0, b = 0;
	*out = NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n')
		return 0;
	for (;;) {
		if ((a = number(&p)) < 0)
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if ((b = number(&p)) < 0)
				goto bad;
			if (b < a) {
				snprintf(err, len, "'%ld-%ld' runs backwards", a, b);
				free(v);
				return -1;
			}
		}
		for (long c = a; c <= b; c++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				int *w = realloc(v, (size_t)cap * sizeof *w);
				if (!w) {
					snprintf(err, len, "out of memory");
					free(v);
					return -1;
				}
				v = w;
			}
			v[n++] = (int)c;
		}
		if (*p == ',') {
			p++;
			continue;
		}
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p)
			goto bad;
		break;
	}
	qsort(v, (size_t)n, sizeof *v, cmp_int);
	int k = 0;
	for (int i = 0; i < n; i++)
		if (i == 0 || v[i] != v[k - 1])
			v[k++] = v[i];
	*out = v;
	return k;
bad:
	if (a == -2 || b == -2)
		snprintf(err, len, "CPU number too large (at most %d)", CPU_LIMIT);
	else
		snprintf(err, len, "'%s' is not a CPU list (such as 0-3,8)", s);
	free(v);
	return -1;
}

/* The first line of root/rel (a sysfs file) into buf; 0, or -1 when it
 * cannot be read. */
static int read_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		buf[0] = '\0';
	return 0;
}

/* An integer sysfs file, or def when it is missing or not a number. */
static int read_int(const char *root, const char *rel, int def)
{
	char buf[64];
	char *end;
	if (read_line(root, rel, buf, sizeof buf) < 0)
		return def;
	long v = strtol(buf, &end, 10);
	return end == buf || v < 0 || v > CPU_LIMIT ? def : (int)v;
}

/* The cpuN directories under root/cpu, as a list. */
static int cpu_dirs(const char *root, int **out)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/cpu", root);
	DIR *d = opendir(path);
	int *v = NULL, n = 0;
	struct dirent *de;
	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		const char *p = de->d_name + 3;
		long c;
		if (strncmp(de->d_name, "cpu", 3) || (c = number(&p)) < 0 || *p)
			continue;
		int *w = realloc(v, (size_t)(n + 1) * sizeof *w);
		if (!w)
			break;
		v = w;
		v[n++] = (int)c;
	}
	closedir(d);
	qsort(v, (size_t)n, sizeof *v, cmp_int);
	*out = v;
	return n;
}

/* A list file under root (missing: 0 CPUs, or -1 with a message when it
 * is there but not a list). */
static int list_file(const char *root, const char *rel, int **out, char *err, size_t len)
{
	char buf[4096], why[128];
	*out = NULL;
	if (read_line(root, rel, buf, sizeof buf) < 0)
		return -2;
	int n = cpulist_parse(buf, out, why, sizeof why);
	if (n < 0)
		snprintf(err, len, "%s/%s: %s", root, rel, why);
	return n;
}

/* Each online CPU's node, from root/node/nodeN/cpulist. */
static void nodes(const char *root, struct topo *t)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/node", root);
	DIR *d = opendir(path);
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *p = de->d_name + 4;
		long node;
		char rel[512], err[8];
		int *cpus;
		if (strncmp(de->d_name, "node", 4) || (node = number(&p)) < 0 || *p)
			continue;
		snprintf(rel, sizeof rel, "node/%s/cpulist", de->d_name);
		int n = list_file(root, rel, &cpus, err, sizeof err);
		for (int i = 0; i < n; i++)
			for (int k = 0; k < t->n; k++)
				if (t->cpu[k].cpu == cpus[i])
					t->cpu[k].node = (int)node;
		free(cpus);
	}
	closedir(d);
}

int topo_read(const char *root, struct topo *t, char *err, size_t len)
{
	int *on = NULL, n;
	memset(t, 0, sizeof *t);
	t->max = -1;
	n = list_file(root, "cpu/online", &on, err, len);
	if (n == -1)
		return -1;
	if (n == -2)		/* no cpu/online: every cpuN directory counts */
		n = cpu_dirs(root, &on);
	if (n <= 0) {
		free(on);
		snprintf(err, len, "no online CPU under %s/cpu", root);
		return -1;
	}
	int *poss = NULL, np = list_file(root, "cpu/possible", &poss, err, len);
	t->max = np > 0 ? poss[np - 1] : on[n - 1];
	free(poss);
	int no = list_file(root, "cpu/offline", &t->offline, err, len);
	t->noffline = no > 0 ? no : 0;
	if (no < 0)
		t->offline = NULL;
	if (!(t->cpu = calloc((size_t)n, sizeof *t->cpu))) {
		free(on);
		snprintf(err, len, "out of memory");
		return -1;
	}
	t->n = n;
	for (int i = 0; i < n; i++) {
		char rel[128];
		struct topo_cpu *c = &t->cpu[i];
		c->cpu = on[i];
		snprintf(rel, sizeof rel, "cpu/cpu%d/topology/physical_package_id", on[i]);
		c->socket = read_int(root, rel, 0);
		snprintf(rel, sizeof rel, "cpu/cpu%d/topology/die_id", on[i]);
		c->die = read_int(root, rel, 0);
		snprintf(rel, sizeof rel, "cpu/cpu%d/topology/core_id", on[i]);
		c->core = read_int(root, rel, on[i]);
	}
	free(on);
	nodes(root, t);
	return 0;
}

void topo_free(struct topo *t)
{
	free(t->cpu);
	free(t->offline);
	memset(t, 0, sizeof *t);
}

const struct topo_cpu *topo_find(const struct topo *t, int cpu)
{
	for (int i = 0; i < t->n; i++)
		if (t->cpu[i].cpu == cpu)
			return &t->cpu[i];
	return NULL;
}

int topo_offline(const struct topo *t, int cpu)
{
	for (int i = 0; i < t->noffline; i++)
		if (t->offline[i] == cpu)
			return 1;
	return 0;
}

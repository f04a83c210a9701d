/* sysdetect.c: the sysdetect component: what the machine's CPU is (vendor, model, topology, caches, NUMA nodes with their memory and threads), gathered once for the device calls (devices.c); it names no events. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "4-components/components.h"

static struct sd_cpu cpu;
static int cpu_ready;

/* Parse a CPU list ("0-3,8,10-11") into mark[0..n-1]; the CPUs marked. */
static int cpulist(const char *s, unsigned char *mark, int n)
{
	int count = 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;
		if (end == s)
			break;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s)
				break;
		}
		for (long c = a; c <= b && c < n; c++)
			if (c >= 0 && !mark[c]) {
				mark[c] = 1;
				count++;
			}
		s = end + strspn(end, ",\n ");
	}
	return count;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The node directories under root/sys/devices/system/node, in number
 * order, into nums (at most max): how many. */
static int node_numbers(int *nums, int max)
{
	char dir[1024];
	if (os_path(dir, sizeof dir, "/sys/devices/system/node") < 0)
		return 0;
	DIR *d = os_dir_at(AT_FDCWD, dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < max) {
		char *end;
		if (strncmp(e->d_name, "node", 4) || e->d_name[4] < '0' || e->d_name[4] > '9')
			continue;
		long v = strtol(e->d_name + 4, &end, 10);
		if (!*end)
			nums[n++] = (int)v;
	}
	closedir(d);
	qsort(nums, (size_t)n, sizeof *nums, cmp_int);
	return n;
}

/* "MemTotal: N kB" in text, in kB; -1 when absent. */
static long long memtotal_kb(const char *text)
{
	const char *p = strstr(text, "MemTotal:");
	return p ? strtoll(p + 9, NULL, 10) : -1;
}

/* The NUMA nodes: each one's threads and memory (lock-free: init only). */
static int numa(void)
{
	int nums[1024], nn = node_numbers(nums, 1024);
	char path[128], buf[8192];
	free(cpu.thr_numa);
	free(cpu.numa_threads);
	free(cpu.numa_mem_mb);
	int nodes = nn > 0 ? nn : 1;
	cpu.thr_numa = malloc((size_t)cpu.threads * sizeof *cpu.thr_numa);
	cpu.numa_threads = calloc((size_t)nodes, sizeof *cpu.numa_threads);
	cpu.numa_mem_mb = calloc((size_t)nodes, sizeof *cpu.numa_mem_mb);
	unsigned char *mark = malloc((size_t)cpu.threads);
	if (!cpu.thr_numa || !cpu.numa_threads || !cpu.numa_mem_mb || !mark) {
		free(mark);
		return PAPI_ENOMEM;
	}
	for (int t = 0; t < cpu.threads; t++)
		cpu.thr_numa[t] = nn > 0 ? -1 : 0;	/* -1: a CPU no node lists (offline) */
	cpu.numas = nodes;
	if (nn == 0) {		/* a kernel without NUMA: one node, all memory */
		cpu.numa_threads[0] = (unsigned)cpu.threads;
		long long kb = os_read("/proc/meminfo", buf, sizeof buf) > 0 ? memtotal_kb(buf) : -1;
		cpu.numa_mem_mb[0] = kb > 0 ? (unsigned)(kb >> 10) : 0;
	}
	for (int i = 0; i < nn; i++) {
		memset(mark, 0, (size_t)cpu.threads);
		snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", nums[i]);
		if (os_read(path, buf, sizeof buf) > 0)
			cpu.numa_threads[i] = (unsigned)cpulist(buf, mark, cpu.threads);
		for (int t = 0; t < cpu.threads; t++)
			if (mark[t])
				cpu.thr_numa[t] = i;
		snprintf(path, sizeof path, "/sys/devices/system/node/node%d/meminfo", nums[i]);
		long long kb = os_read(path, buf, sizeof buf) > 0 ? memtotal_kb(buf) : -1;
		cpu.numa_mem_mb[i] = kb > 0 ? (unsigned)(kb >> 10) : 0;
	}
	free(mark);
	return PAPI_OK;
}

/* Caches from the one source mem-info uses (sysfs, CPUID on x86). */
static void caches(void)
{
	struct mh_entry e[MH_MAX_ENTRIES];
	int n = mh_scan(e, MH_MAX_ENTRIES);
	for (int i = 0; i < n && i < MH_MAX_ENTRIES; i++) {
		int k = -1;
		if (e[i].tlb)
			continue;
		if (e[i].level == 1 && e[i].type == PAPI_MH_TYPE_INST)
			k = SD_L1I;
		else if (e[i].level == 1 && e[i].type != PAPI_MH_TYPE_INST)
			k = SD_L1D;
		else if (e[i].level == 2 && e[i].type != PAPI_MH_TYPE_INST)
			k = SD_L2U;
		else if (e[i].level == 3 && e[i].type != PAPI_MH_TYPE_INST)
			k = SD_L3U;
		if (k < 0 || cpu.cache[k].size)
			continue;
		cpu.cache[k].size = (unsigned)e[i].size;
		cpu.cache[k].line = (unsigned)e[i].line_size;
		cpu.cache[k].lines = e[i].line_size > 0 ? (unsigned)(e[i].size / e[i].line_size) : 0;
		cpu.cache[k].assoc = e[i].assoc > 0 ? (unsigned)e[i].assoc : 0;
	}
}

static int sd_init(char *why, size_t len)
{
	const PAPI_hw_info_t *h = hwinfo_get();
	memset(&cpu, 0, sizeof cpu);
	snprintf(cpu.vendor, sizeof cpu.vendor, "%s", h->vendor_string);
	snprintf(cpu.name, sizeof cpu.name, "%s", h->model_string);
	cpu.vendor_id = h->vendor;
	cpu.family = h->cpuid_family;
	cpu.model = h->cpuid_model;
	cpu.stepping = h->cpuid_stepping;
	cpu.sockets = h->sockets > 0 ? h->sockets : 1;
	cpu.cores = h->cores > 0 ? h->cores : 1;
	cpu.threads = h->totalcpus > 0 ? h->totalcpus : 1;
	caches();
	int r = numa();
	if (r != PAPI_OK) {
		snprintf(why, len, "out of memory");
		return r;
	}
	cpu_ready = 1;
	return PAPI_OK;
}

static void sd_shutdown(void)
{
	free(cpu.thr_numa);
	free(cpu.numa_threads);
	free(cpu.numa_mem_mb);
	memset(&cpu, 0, sizeof cpu);
	cpu_ready = 0;
}

const struct sd_cpu *sysdetect_cpu(void)
{
	return cpu_ready ? &cpu : NULL;
}

static int sd_nevents(void)
{
	return 0;
}

static int sd_event(int ev, struct cmp_event *out)
{
	(void)ev, (void)out;
	return PAPI_ENOEVNT;
}

static int sd_sample(long long *raw)
{
	(void)raw;
	return PAPI_OK;
}

const struct component cmp_sysdetect = {
	.name = "sysdetect",
	.short_name = "sysdetect",
	.description = "System information: the CPU device (PAPI_enum_dev_type, PAPI_get_dev_attr); "
		       "no events",
	.granularity = PAPI_GRN_SYS,
	.init = sd_init,
	.shutdown = sd_shutdown,
	.nevents = sd_nevents,
	.event = sd_event,
	.sample = sd_sample,
	CMP_SAMPLED_OPS,
};

/* stealtime.c: the stealtime component: the time a hypervisor ran something else while a CPU of this machine wanted to run (steal in /proc/stat), in total and per CPU. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "4-components/components.h"

#define PATH "/proc/stat"
#define STEAL_COL 7		/* user nice system idle iowait irq softirq steal ... */

/* Event 0 is TOTAL (the "cpu" line), event i the i-th CPU line at
 * initialization, named CPU<i> as PAPI 7 names them (CPU1 is the first
 * CPU line, cpu0 where every CPU is online). */
struct cpu {
	int num;		/* the kernel's CPU number; -1 for TOTAL */
	char name[16];
	char desc[96];
};
static pthread_mutex_t st_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cpu *cpus;
static int ncpus;
static long long *last;		/* steal in microseconds per event, as last read */
static long long usec_per_tick;
static struct os_text text;	/* the file's text, reused */

/* Whether buf holds every CPU line: a line after them is whole. */
static int cpu_lines_whole(const char *buf)
{
	const char *p = buf;
	while (!strncmp(p, "cpu", 3) && strchr(p, '\n'))
		p = strchr(p, '\n') + 1;
	return strncmp(p, "cpu", 3) != 0;
}

/* Read the CPU lines (at the start of the file) into text (lock held):
 * PAPI_OK, PAPI_ENOMEM or PAPI_ESYS. */
static int st_read(void)
{
	return os_text_read(&text, "stealtime", PATH, cpu_lines_whole);
}

/* The CPU lines of the text: fn(cpu number or -1 for "cpu", steal ticks) for each
 * that has a steal column; the number of CPU lines, or -1 when one lacks it. */
static int st_lines(void (*fn)(int num, long long steal))
{
	int n = 0;
	for (const char *p = text.buf; !strncmp(p, "cpu", 3); n++) {
		int num = -1;
		char *end;
		const char *q = p + 3;
		if (*q >= '0' && *q <= '9') {
			num = (int)strtol(q, &end, 10);
			q = end;
		}
		long long v = 0;
		int c;
		for (c = 0; c <= STEAL_COL; c++) {
			q += strspn(q, " \t");
			if (*q < '0' || *q > '9')
				break;
			v = strtoll(q, &end, 10);
			q = end;
		}
		if (c <= STEAL_COL)
			return -1;
		if (fn)
			fn(num, v);
		const char *nl = strchr(p, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}

static int cpus_cap;
static void add_cpu(int num, long long steal)
{
	if (ncpus == cpus_cap)
		return;
	struct cpu *c = &cpus[ncpus];
	c->num = num;
	if (num < 0) {
		snprintf(c->name, sizeof c->name, "TOTAL");
		snprintf(c->desc, sizeof c->desc, "Steal time of every CPU, summed");
	} else {
		snprintf(c->name, sizeof c->name, "CPU%d", ncpus);
		snprintf(c->desc, sizeof c->desc, "Steal time of CPU %d (cpu%d in %s)", num, num, PATH);
	}
	last[ncpus++] = steal * usec_per_tick;
}

static void st_shutdown(void)
{
	pthread_mutex_lock(&st_lock);
	free(cpus);
	free(last);
	os_text_free(&text);
	cpus = NULL;
	last = NULL;
	ncpus = cpus_cap = 0;
	pthread_mutex_unlock(&st_lock);
}

static int st_init(char *why, size_t len)
{
	long hz = sysconf(_SC_CLK_TCK);
	usec_per_tick = hz > 0 && 1000000 % hz == 0 ? 1000000 / hz : 10000;
	pthread_mutex_lock(&st_lock);
	int ret = st_read(), n = 0;
	if (ret == PAPI_OK && (n = st_lines(NULL)) > 0) {
		cpus = calloc((size_t)n, sizeof *cpus);
		last = calloc((size_t)n, sizeof *last);
		cpus_cap = n;
		if (!cpus || !last)
			ret = PAPI_ENOMEM;
		else
			st_lines(add_cpu);
	}
	if (ret != PAPI_OK)
		snprintf(why, len, "%s", papi_last_reason());
	else if (n < 0)
		snprintf(why, len, "%s has no steal column (a kernel older than 2.6.11)", PATH);
	else if (ncpus == 0 || cpus[0].num != -1)
		snprintf(why, len, "%s has no \"cpu\" line", PATH);
	int ok = ret == PAPI_OK && n > 0 && ncpus > 0 && cpus[0].num == -1;
	pthread_mutex_unlock(&st_lock);
	if (!ok) {
		st_shutdown();
		return ret == PAPI_ENOMEM ? ret : PAPI_ECMP;
	}
	return PAPI_OK;
}

static int st_nevents(void)
{
	return ncpus;
}

static int st_event(int ev, struct cmp_event *out)
{
	if (ev < 0 || ev >= ncpus)
		return PAPI_ENOEVNT;
	*out = (struct cmp_event){ cpus[ev].name, cpus[ev].desc, "us", 0 };
	return PAPI_OK;
}

/* A line's steal into last[] under its CPU (lock held); a CPU that went
 * offline keeps its last value, one that came online later has no event. */
static void store_cpu(int num, long long steal)
{
	for (int i = 0; i < ncpus; i++)
		if (cpus[i].num == num) {
			last[i] = steal * usec_per_tick;
			return;
		}
}

static int st_sample(long long *raw)
{
	pthread_mutex_lock(&st_lock);
	int ret = st_read();
	if (ret == PAPI_OK && st_lines(store_cpu) < 0) {
		papi_set_reason("stealtime: %s lost its steal column", PATH);
		ret = PAPI_ESYS;
	}
	if (ret == PAPI_OK)
		memcpy(raw, last, (size_t)ncpus * sizeof *raw);
	pthread_mutex_unlock(&st_lock);
	return ret;
}

const struct component cmp_stealtime = {
	.name = "stealtime",
	.short_name = "stealtime",
	.description = "Time the hypervisor gave this machine's CPUs to others while they "
		       "wanted to run: steal in /proc/stat",
	.granularity = PAPI_GRN_SYS,
	.init = st_init,
	.shutdown = st_shutdown,
	.nevents = st_nevents,
	.event = st_event,
	.sample = st_sample,
	CMP_SAMPLED_OPS,
};

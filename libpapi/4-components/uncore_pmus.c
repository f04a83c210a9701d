/* uncore_pmus.c: perf_event_uncore's PMUs: the kernel's non-core PMUs it counts on, the CPUs each opens on, libpfm4's table for each, and their listed events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "4-components/uncore.h"

pthread_mutex_t unc_lock = PTHREAD_MUTEX_INITIALIZER;
struct upmu *unc_pmus;
int unc_npmus;
struct item *unc_items;
int unc_nitems;

/* ------------------------------------------------------------------ CPUs */

/* Parse a CPU list ("0-3,8,10-11") into a new array: its length, or -1. */
static int cpu_list(const char *s, int **out)
{
	int n = 0, cap = 8, *v = malloc((size_t)cap * sizeof *v);
	if (!v)
		return -1;
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;
		if (end == s || lo < 0)
			break;
		s = end;
		if (*s == '-') {
			hi = strtol(s + 1, &end, 10);
			if (end == s + 1 || hi < lo || hi - lo > 65536)
				break;
			s = end;
		}
		for (long c = lo; c <= hi; c++) {
			if (n == cap) {
				int *w = realloc(v, (size_t)(cap *= 2) * sizeof *v);
				if (!w) {
					free(v);
					return -1;
				}
				v = w;
			}
			v[n++] = (int)c;
		}
		if (*s == ',' || *s == '\n')
			s++;
		else
			break;
	}
	*out = v;
	return n;
}

/* The online CPUs, as the kernel lists them (every configured one when it
 * cannot be read). */
static int online_cpus(int **out, char *text, size_t len)
{
	char buf[512];
	if (os_read("/sys/devices/system/cpu/online", buf, sizeof buf) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(text, len, "%.*s", (int)(len ? len - 1 : 0), buf);
		int n = cpu_list(buf, out);
		if (n > 0)
			return n;
		free(*out);
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(text, len, "0-%ld", (n > 0 ? n : 1) - 1);
	return cpu_list(text, out);
}

/* ------------------------------------------------------------------ the PMUs */

/* Tests only (uncore_assume_family): libpfm4's uncore PMUs whose names
 * start with this prefix and '_' are taken as detected, so that their
 * tables name the PMUs of a fake sysfs tree. libpfm4 detects an uncore
 * PMU by the CPU's model; under LIBPFM_FORCE_PMU it sets up only the
 * forced PMU, and has no uncore table at all. */
static char assumed[64];

void uncore_assume_family(const char *prefix)
{
	snprintf(assumed, sizeof assumed, "%s", prefix ? prefix : "");
}

static int assumed_family(const char *pfm_name)
{
	size_t n = strlen(assumed);
	return n && !strncmp(pfm_name, assumed, n) && pfm_name[n] == '_';
}

/* Neither a core PMU, nor a software kind, nor one that counts per task
 * (msr: perf_event's, as the core's). */
static int is_ours(const struct kpmu *k)
{
	return !k->core && !kpmu_software(k) && !kpmu_per_task(k);
}

int unc_find_kernel(const char *name, size_t n)
{
	for (int i = 0; i < unc_npmus; i++)
		if (strlen(unc_pmus[i].k->name) == n && !strncmp(unc_pmus[i].k->name, name, n))
			return i;
	return -1;
}

/* Give each kernel PMU libpfm4's table for it, where libpfm4 has one. */
static void match_pfm(void)
{
	if (pmus_init() != PAPI_OK)
		return;		/* the kernel's own names still serve */
	for (int i = 0; i < PFM_PMU_MAX; i++) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pfm_get_pmu_info(i, &pi) != PFM_SUCCESS || pi.type != PFM_PMU_TYPE_UNCORE ||
		    !pi.name || pi.nevents <= 0 || (!pi.is_present && !assumed_family(pi.name)))
			continue;
		char kname[64];
		if (pmu_uncore_kernel(pi.name, kname, sizeof kname) < 0)
			continue;
		int p = unc_find_kernel(kname, strlen(kname));
		if (p < 0 || unc_pmus[p].pfm >= 0)
			continue;
		unc_pmus[p].pfm = i;
		unc_pmus[p].forced = !pi.is_present;
		snprintf(unc_pmus[p].pfm_name, sizeof unc_pmus[p].pfm_name, "%s", pi.name);
	}
}

static int add_item(int pmu, int pev, int sub, int *cap)
{
	if (unc_nitems == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		struct item *n = realloc(unc_items, (size_t)*cap * sizeof *n);
		if (!n)
			return PAPI_ENOMEM;
		unc_items = n;
	}
	unc_items[unc_nitems++] = (struct item){ pmu, pev, sub };
	return PAPI_OK;
}

/* The unit-mask attributes of libpfm4 event pev: fn(k) for each. */
static int umasks(int pev, int pmu, int *cap)
{
	pfm_event_info_t ei;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	if (pfm_get_event_info(pev, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return PAPI_OK;
	int n = 0, r = PAPI_OK;
	for (int k = 0; k < ei.nattrs && r == PAPI_OK; k++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(pev, k, PFM_OS_NONE, &ai) == PFM_SUCCESS &&
		    ai.type == PFM_ATTR_UMASK) {
			r = add_item(pmu, pev, k, cap);
			n++;
		}
	}
	return n || r != PAPI_OK ? r : add_item(pmu, pev, -1, cap);
}

/* The listed events: per PMU, libpfm4's (each unit mask its own), then the
 * kernel's event files. */
static int list_items(void)
{
	int cap = 0, r = PAPI_OK;
	for (int p = 0; p < unc_npmus && r == PAPI_OK; p++) {
		if (unc_pmus[p].pfm >= 0) {
			pfm_pmu_info_t pi;
			memset(&pi, 0, sizeof pi);
			pi.size = sizeof pi;
			if (pfm_get_pmu_info(unc_pmus[p].pfm, &pi) == PFM_SUCCESS)
				for (int e = pi.first_event; e >= 0 && r == PAPI_OK; e = pfm_get_event_next(e))
					r = umasks(e, p, &cap);
		}
		for (int a = 0; a < unc_pmus[p].k->nevents && r == PAPI_OK; a++)
			r = add_item(p, -1, a, &cap);
	}
	return r;
}

/* Why there is nothing to count: the PMUs the kernel has, none ours. */
static void none_why(char *why, size_t len)
{
	/* every name whole: a name that does not fit ends the list with "..." */
	size_t n = 0;
	char have[512] = "";
	for (int i = 0; i < kpmu_count(); i++) {
		const char *name = kpmu_get(i)->name;
		if (n + strlen(name) + 2 + 5 >= sizeof have) {
			snprintf(have + n, sizeof have - n, ", ...");
			break;
		}
		n += (size_t)snprintf(have + n, sizeof have - n, "%s%s", n ? ", " : "", name);
	}
	if (!kpmu_count())
		snprintf(why, len, "No uncore PMUs or events found: the kernel lists no PMUs "
			 "(no /sys/bus/event_source/devices)");
	else
		snprintf(why, len, "No uncore PMUs or events found, as in most VMs: the kernel has "
			 "only %s", have);
}

/* Keep of u's cpumask CPUs those online (on[0..non-1]); the others, which
 * perf_event_open refuses (ENODEV), are said in off (len bytes, at *used).
 * Its CPU count, u->cpulist then naming the kept ones. */
static int keep_online(struct upmu *u, const int *on, int non, char *off, size_t len, size_t *used)
{
	int kept = 0;
	size_t n = 0;
	for (int i = 0; i < u->ncpu; i++) {
		int online = 0;
		for (int k = 0; k < non && !online; k++)
			online = on[k] == u->cpus[i];
		if (online) {
			u->cpus[kept++] = u->cpus[i];
			continue;
		}
		if (*used < len)
			*used += (size_t)snprintf(off + *used, len - *used, "%s%s CPU %d",
						  *used ? ", " : "", u->k->name, u->cpus[i]);
	}
	if (kept < u->ncpu)
		for (int i = 0; i < kept && n < sizeof u->cpulist; i++)
			n += (size_t)snprintf(u->cpulist + n, sizeof u->cpulist - n, "%s%d",
					      i ? "," : "", u->cpus[i]);
	return kept;
}

void unc_pmus_free(void)
{
	for (int i = 0; i < unc_npmus; i++)
		free(unc_pmus[i].cpus);
	free(unc_items);
	free(unc_pmus);
	unc_items = NULL;
	unc_pmus = NULL;
	unc_nitems = unc_npmus = 0;
}

int unc_pmus_load(char *why, size_t len)
{
	int r = PAPI_OK;
	/* the online CPUs, when the kernel lists them: a cpumask CPU that is
	 * not among them cannot be opened, and the PMU counts without it */
	int *on = NULL, non = 0, noff = 0;
	char buf[512], off[400] = "";
	size_t offlen = 0;
	if (os_read("/sys/devices/system/cpu/online", buf, sizeof buf) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		non = cpu_list(buf, &on);
	}
	int n = kpmu_count();
	unc_pmus = calloc((size_t)(n ? n : 1), sizeof *unc_pmus);
	if (!unc_pmus)
		r = PAPI_ENOMEM;
	for (int i = 0; i < n && r == PAPI_OK; i++) {
		const struct kpmu *k = kpmu_get(i);
		if (!is_ours(k))
			continue;
		if ((r = kpmu_load(k)) != PAPI_OK)
			break;
		struct upmu *u = &unc_pmus[unc_npmus];
		u->k = k;
		u->pfm = -1;
		if (k->cpus[0]) {
			snprintf(u->cpulist, sizeof u->cpulist, "%.*s", (int)sizeof u->cpulist - 1, k->cpus);
			u->ncpu = cpu_list(k->cpus, &u->cpus);
			int all = u->ncpu;
			if (u->ncpu > 0 && non > 0)
				u->ncpu = keep_online(u, on, non, off, sizeof off, &offlen);
			noff += all - (u->ncpu > 0 ? u->ncpu : 0) > 0;
		} else {
			u->ncpu = online_cpus(&u->cpus, u->cpulist, sizeof u->cpulist);
		}
		if (u->ncpu < 0)
			r = PAPI_ENOMEM;
		else if (u->ncpu > 0)
			unc_npmus++;
		else
			free(u->cpus);
	}
	free(on);
	if (r == PAPI_OK && unc_npmus == 0 && noff) {
		snprintf(why, len, "No uncore PMU can be opened: every CPU of their cpumasks is "
			 "offline (%s)", off);
		r = PAPI_ECMP;
	} else if (r == PAPI_OK && unc_npmus == 0) {
		none_why(why, len);
		r = PAPI_ECMP;
	}
	if (r == PAPI_OK) {
		match_pfm();
		r = list_items();
	}
	if (r == PAPI_OK && noff) {
		/* PAPI 7.2's partially disabled: the rest counts */
		snprintf(why, len, "%d uncore PMU%s cannot be opened on every CPU of %s cpumask, "
			 "which the kernel lists as offline (%s%s): %s counts leave out those sockets or dies",
			 noff, noff > 1 ? "s" : "", noff > 1 ? "their" : "its", off,
			 offlen >= sizeof off - 1 ? ", ..." : "", noff > 1 ? "their" : "its");
		return PAPI_PARTIAL;
	}
	return r;
}

int uncore_pmu_describe(int i, struct uncore_pmu_desc *d)
{
	pthread_mutex_lock(&unc_lock);
	int n = unc_npmus, r = n;
	if (i != -1 && (!d || i < 0 || i >= n)) {
		r = PAPI_EINVAL;
	} else if (i >= 0) {
		const struct upmu *u = &unc_pmus[i];
		memset(d, 0, sizeof *d);
		snprintf(d->name, sizeof d->name, "%.*s", (int)sizeof d->name - 1, u->k->name);
		snprintf(d->pfm_name, sizeof d->pfm_name, "%s", u->pfm >= 0 ? u->pfm_name : "");
		snprintf(d->cpus, sizeof d->cpus, "%s", u->cpulist);
		d->cpumask = u->k->cpus[0] != '\0';
		for (int k = 0; k < unc_nitems; k++)
			d->nevents += unc_items[k].pmu == i;
	}
	pthread_mutex_unlock(&unc_lock);
	return r;
}
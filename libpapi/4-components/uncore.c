/* uncore.c: the perf_event_uncore component: the kernel's uncore and other non-core PMUs (memory controllers, caches, power), named through libpfm4's uncore tables and sysfs, counted CPU-wide on one CPU per socket or die. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "4-components/components.h"

/* components.h brought the kernel's <linux/perf_event.h>; libpfm4's copy
 * of the same definitions would clash, so only its encoding interface. */
#define __PERFMON_PERF_EVENT_H__
#include <perfmon/pfmlib_perf_event.h>

/*
 * Which PMUs: every one the kernel lists (kpmu.c) that is not a CPU core's
 * and not one of its software kinds (software, tracepoint, breakpoint,
 * kprobe, uprobe): uncore_imc_0, uncore_cha_3, amd_l3, amd_df, power,
 * msr, cstate_pkg, ...
 *
 * How they are named: where libpfm4 has the PMU's table and detected it, by
 * libpfm4's names as
 * PAPI 7 spells them, "skx_unc_imc0::UNC_M_CAS_COUNT:RD", counted raw; and
 * always by the kernel's own event files, "uncore_imc_0::cas_count_read",
 * with their .scale and .unit applied (MiB become bytes, Joules
 * microjoules: integers that lose nothing); and by terms through the
 * PMU's format, "amd_df/event=0x7,umask=0x38/", as perf spells them. A
 * qualifier ":cpu=N" counts only the socket or die of CPU N.
 *
 * How they count: an uncore PMU counts a whole socket or die, whoever runs
 * there. Its cpumask names one CPU of each; an event is opened there with
 * pid -1 (system-wide) and the counts are summed (a PMU without a cpumask
 * is opened on every online CPU). That needs perf_event_paranoid 0 or
 * lower, or CAP_PERFMON. Each event is its own group, so the kernel
 * multiplexes more events than counters; counts are scaled by the time
 * they ran, as perf does.
 */

/* The kernel's PMUs of its own software kinds: not this component's. */
static const char *const not_ours[] = { "software", "tracepoint", "breakpoint", "kprobe",
					"uprobe", NULL };

struct upmu {			/* a kernel PMU this component counts on */
	const struct kpmu *k;
	int pfm;		/* libpfm4 PMU naming its events, -1 none */
	int forced;		/* libpfm4 did not detect it (uncore_assume_family):
				 * encoded from its codes */
	char pfm_name[64];
	int ncpu;
	int *cpus;		/* its cpumask, or every online CPU */
	char cpulist[64];	/* as the kernel wrote it, for descriptions */
};

struct item {			/* a listed event */
	int pmu;		/* index into pmus */
	int pev;		/* libpfm4 event index, -1: the kernel's event file */
	int sub;		/* libpfm4 unit-mask attribute (-1 none), or the file's index */
};

struct uev {			/* an event described (and encoded once counted) */
	char *name, *desc;
	char units[48];
	int pmu;
	int pev;		/* libpfm4 event, -1 none */
	int alias;		/* the kernel's event file, -1 none */
	char *spec;		/* what to encode: libpfm4's name or the terms */
	int cpu;		/* -1: every CPU of the PMU; else that one's socket */
	long double mult;	/* value = count * mult */
	int enc;		/* 0 not yet, 1 encoded, else the error */
	char *enc_why;
	struct perf_event_attr attr;
};

static pthread_mutex_t un_lock = PTHREAD_MUTEX_INITIALIZER;
static struct upmu *pmus;
static int npmus;
static struct item *items;
static int nitems;
static struct uev **listed;	/* nitems, made on first use */
static struct uev **dyn;	/* events beyond the list: index nitems + i */
static int ndyn, capdyn;

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

/* ------------------------------------------------------------------ scale and unit */

/* A kernel unit, and the integer unit its counts are reported in. */
static const struct {
	const char *unit;
	long double per;	/* reported units per kernel unit */
	const char *as;
} unit_tbl[] = {
	{ "Joules", 1e6L, "uJ" },
	{ "MiB", 1048576.0L, "bytes" },
	{ "KiB", 1024.0L, "bytes" },
	{ "GiB", 1073741824.0L, "bytes" },
	{ "MB", 1e6L, "bytes" },
	{ "bytes", 1.0L, "bytes" },
};

/* e's multiplier and units from a kernel event file's scale and unit. */
static void set_scale(struct uev *e, const struct kpmu_event *a)
{
	e->mult = 1.0L;
	e->units[0] = '\0';
	if (!a->unit[0] && a->scale == 1.0)
		return;
	for (size_t i = 0; i < sizeof unit_tbl / sizeof *unit_tbl; i++)
		if (!strcasecmp(a->unit, unit_tbl[i].unit)) {
			e->mult = (long double)a->scale * unit_tbl[i].per;
			snprintf(e->units, sizeof e->units, "%s", unit_tbl[i].as);
			return;
		}
	if (a->scale >= 1.0) {
		e->mult = a->scale;
		snprintf(e->units, sizeof e->units, "%.40s", a->unit);
	} else {		/* a unit of its own, finer than one: the raw counts */
		snprintf(e->units, sizeof e->units, "%.12g %.24s", a->scale, a->unit);
	}
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

static int is_ours(const struct kpmu *k)
{
	if (k->core)
		return 0;
	for (int i = 0; not_ours[i]; i++)
		if (!strcmp(k->name, not_ours[i]))
			return 0;
	return 1;
}

static int find_kernel(const char *name, size_t n)
{
	for (int i = 0; i < npmus; i++)
		if (strlen(pmus[i].k->name) == n && !strncmp(pmus[i].k->name, name, n))
			return i;
	return -1;
}

static int find_pfm(const char *name, size_t n)
{
	for (int i = 0; i < npmus; i++)
		if (pmus[i].pfm >= 0 && strlen(pmus[i].pfm_name) == n &&
		    !strncasecmp(pmus[i].pfm_name, name, n))
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
		int p = find_kernel(kname, strlen(kname));
		if (p < 0 || pmus[p].pfm >= 0)
			continue;
		pmus[p].pfm = i;
		pmus[p].forced = !pi.is_present;
		snprintf(pmus[p].pfm_name, sizeof pmus[p].pfm_name, "%s", pi.name);
	}
}

static int add_item(int pmu, int pev, int sub, int *cap)
{
	if (nitems == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		struct item *n = realloc(items, (size_t)*cap * sizeof *n);
		if (!n)
			return PAPI_ENOMEM;
		items = n;
	}
	items[nitems++] = (struct item){ pmu, pev, sub };
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
	for (int p = 0; p < npmus && r == PAPI_OK; p++) {
		if (pmus[p].pfm >= 0) {
			pfm_pmu_info_t pi;
			memset(&pi, 0, sizeof pi);
			pi.size = sizeof pi;
			if (pfm_get_pmu_info(pmus[p].pfm, &pi) == PFM_SUCCESS)
				for (int e = pi.first_event; e >= 0 && r == PAPI_OK; e = pfm_get_event_next(e))
					r = umasks(e, p, &cap);
		}
		for (int a = 0; a < pmus[p].k->nevents && r == PAPI_OK; a++)
			r = add_item(p, -1, a, &cap);
	}
	return r;
}

static void free_uev(struct uev *e)
{
	if (!e)
		return;
	free(e->name);
	free(e->desc);
	free(e->spec);
	free(e->enc_why);
	free(e);
}

static void un_shutdown(void)
{
	pthread_mutex_lock(&un_lock);
	for (int i = 0; listed && i < nitems; i++)
		free_uev(listed[i]);
	for (int i = 0; i < ndyn; i++)
		free_uev(dyn[i]);
	for (int i = 0; i < npmus; i++)
		free(pmus[i].cpus);
	free(listed);
	free(dyn);
	free(items);
	free(pmus);
	listed = dyn = NULL;
	items = NULL;
	pmus = NULL;
	nitems = ndyn = capdyn = npmus = 0;
	pthread_mutex_unlock(&un_lock);
}

/* Why there is nothing to count: the PMUs the kernel has, none ours. */
static void none_why(char *why, size_t len)
{
	size_t n = 0;
	char have[200] = "";
	for (int i = 0; i < kpmu_count() && n < sizeof have; i++)
		n += (size_t)snprintf(have + n, sizeof have - n, "%s%s", n ? ", " : "", kpmu_get(i)->name);
	if (!kpmu_count())
		snprintf(why, len, "No uncore PMUs or events found: the kernel lists no PMUs "
			 "(no /sys/bus/event_source/devices)");
	else
		snprintf(why, len, "No uncore PMUs or events found: the kernel has only core and "
			 "software PMUs (%.36s), as most VMs", have);
}

static int un_init(char *why, size_t len)
{
	int r = PAPI_OK;
	pthread_mutex_lock(&un_lock);
	int n = kpmu_count();
	pmus = calloc((size_t)(n ? n : 1), sizeof *pmus);
	if (!pmus)
		r = PAPI_ENOMEM;
	for (int i = 0; i < n && r == PAPI_OK; i++) {
		const struct kpmu *k = kpmu_get(i);
		if (!is_ours(k))
			continue;
		if ((r = kpmu_load(k)) != PAPI_OK)
			break;
		struct upmu *u = &pmus[npmus];
		u->k = k;
		u->pfm = -1;
		if (k->cpus[0]) {
			snprintf(u->cpulist, sizeof u->cpulist, "%.*s", (int)sizeof u->cpulist - 1, k->cpus);
			u->ncpu = cpu_list(k->cpus, &u->cpus);
		} else {
			u->ncpu = online_cpus(&u->cpus, u->cpulist, sizeof u->cpulist);
		}
		if (u->ncpu < 0)
			r = PAPI_ENOMEM;
		else if (u->ncpu > 0)
			npmus++;
		else
			free(u->cpus);
	}
	if (r == PAPI_OK && npmus == 0) {
		none_why(why, len);
		r = PAPI_ECMP;
	}
	if (r == PAPI_OK) {
		match_pfm();
		r = list_items();
	}
	if (r == PAPI_OK && nitems && !(listed = calloc((size_t)nitems, sizeof *listed)))
		r = PAPI_ENOMEM;
	pthread_mutex_unlock(&un_lock);
	if (r != PAPI_OK)
		un_shutdown();
	return r;
}

static int un_nevents(void)
{
	return nitems;
}

int uncore_pmu_describe(int i, struct uncore_pmu_desc *d)
{
	pthread_mutex_lock(&un_lock);
	int n = npmus, r = n;
	if (i != -1 && (!d || i < 0 || i >= n)) {
		r = PAPI_EINVAL;
	} else if (i >= 0) {
		const struct upmu *u = &pmus[i];
		memset(d, 0, sizeof *d);
		snprintf(d->name, sizeof d->name, "%.*s", (int)sizeof d->name - 1, u->k->name);
		snprintf(d->pfm_name, sizeof d->pfm_name, "%s", u->pfm >= 0 ? u->pfm_name : "");
		snprintf(d->cpus, sizeof d->cpus, "%s", u->cpulist);
		d->cpumask = u->k->cpus[0] != '\0';
		for (int k = 0; k < nitems; k++)
			d->nevents += items[k].pmu == i;
	}
	pthread_mutex_unlock(&un_lock);
	return r;
}

/* ------------------------------------------------------------------ describing events */

/* "CPUs 0,36" or "CPU 5's socket or die" for a description. */
static void where(const struct uev *e, char *buf, size_t len)
{
	const struct upmu *u = &pmus[e->pmu];
	if (e->cpu >= 0)
		snprintf(buf, len, "the socket or die of CPU %d", e->cpu);
	else if (u->k->cpus[0] && u->ncpu == 1)
		snprintf(buf, len, "CPU-wide, counted on CPU %s (its cpumask: one socket or die)",
			 u->cpulist);
	else if (u->k->cpus[0])
		snprintf(buf, len, "CPU-wide, summed over CPUs %s (its cpumask: one per socket or die)",
			 u->cpulist);
	else
		snprintf(buf, len, "CPU-wide, summed over every online CPU (%s)", u->cpulist);
}

/* A new event of PMU pmu (lock held): the name, the description's first
 * part, what to encode; NULL when out of memory. */
static struct uev *new_uev(int pmu, const char *name, const char *what, const char *spec, int cpu)
{
	struct uev *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	e->pmu = pmu;
	e->pev = e->alias = -1;
	e->cpu = cpu;
	e->mult = 1.0L;
	char w[160], desc[PAPI_HUGE_STR_LEN];
	where(e, w, sizeof w);
	snprintf(desc, sizeof desc, "%s; %s", what, w);
	e->name = strdup(name);
	e->desc = strdup(desc);
	e->spec = strdup(spec);
	if (!e->name || !e->desc || !e->spec) {
		free_uev(e);
		return NULL;
	}
	return e;
}

/* libpfm4's name of event pev with unit mask attribute sub (-1 none), and
 * its description. */
static int pfm_names(int pmu, int pev, int sub, char *name, size_t nlen, char *desc, size_t dlen)
{
	pfm_event_info_t ei;
	pfm_event_attr_info_t ai;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	memset(&ai, 0, sizeof ai);
	ai.size = sizeof ai;
	if (pfm_get_event_info(pev, PFM_OS_NONE, &ei) != PFM_SUCCESS ||
	    (sub >= 0 && pfm_get_event_attr_info(pev, sub, PFM_OS_NONE, &ai) != PFM_SUCCESS))
		return PAPI_ENOEVNT;
	snprintf(name, nlen, "%s::%s%s%s", pmus[pmu].pfm_name, ei.name, sub >= 0 ? ":" : "",
		 sub >= 0 ? ai.name : "");
	snprintf(desc, dlen, "%s%s%s", ei.desc ? ei.desc : ei.name, sub >= 0 ? "; " : "",
		 sub >= 0 && ai.desc ? ai.desc : "");
	return PAPI_OK;
}

/* The kernel's event file a of PMU pmu as an event. */
static struct uev *alias_uev(int pmu, int a, int cpu, const char *qual)
{
	const struct kpmu *k = pmus[pmu].k;
	const struct kpmu_event *ka = &k->events[a];
	char name[PAPI_HUGE_STR_LEN], what[PAPI_HUGE_STR_LEN];
	snprintf(name, sizeof name, "%s::%s%s", k->name, ka->name, qual);
	struct uev tmp = { .mult = 1.0L };
	set_scale(&tmp, ka);
	if (tmp.units[0] && (tmp.mult != 1.0L || strcasecmp(tmp.units, ka->unit)))
		snprintf(what, sizeof what, "%s event %s (%s), scaled from the kernel's %.6g %s per "
			 "count into %s", k->name, ka->name, ka->terms, ka->scale, ka->unit, tmp.units);
	else
		snprintf(what, sizeof what, "%s event %s (%s)", k->name, ka->name, ka->terms);
	struct uev *e = new_uev(pmu, name, what, ka->name, cpu);
	if (e) {
		e->alias = a;
		e->mult = tmp.mult;
		memcpy(e->units, tmp.units, sizeof e->units);
	}
	return e;
}

/* Listed event i, made on first use (lock held). */
static struct uev *get_listed(int i)
{
	if (listed[i])
		return listed[i];
	const struct item *it = &items[i];
	if (it->pev < 0)
		return listed[i] = alias_uev(it->pmu, it->sub, -1, "");
	char name[PAPI_HUGE_STR_LEN], desc[PAPI_HUGE_STR_LEN];
	if (pfm_names(it->pmu, it->pev, it->sub, name, sizeof name, desc, sizeof desc) != PAPI_OK)
		return NULL;
	listed[i] = new_uev(it->pmu, name, desc, name, -1);
	if (listed[i])
		listed[i]->pev = it->pev;
	return listed[i];
}

/* Event ev (lock held), NULL when out of range or out of memory. */
static struct uev *get_uev(int ev)
{
	if (ev >= 0 && ev < nitems)
		return get_listed(ev);
	if (ev >= nitems && ev - nitems < ndyn)
		return dyn[ev - nitems];
	return NULL;
}

static int un_event(int ev, struct cmp_event *out)
{
	pthread_mutex_lock(&un_lock);
	struct uev *e = get_uev(ev);
	if (e)
		*out = (struct cmp_event){ e->name, e->desc, e->units, 0 };
	pthread_mutex_unlock(&un_lock);
	return e ? PAPI_OK : PAPI_ENOEVNT;
}

/* ------------------------------------------------------------------ names */

/* The listed index of (pmu, pev, sub), -1 when not listed: items are in
 * PMU order, and in libpfm4's order within one. */
static int listed_index(int pmu, int pev, int sub)
{
	for (int i = 0; i < nitems; i++)
		if (items[i].pmu == pmu && items[i].pev == pev && items[i].sub == sub)
			return i;
	return -1;
}

/* Keep e as a dynamic event (lock held): its index, or an error. */
static int add_dyn(struct uev *e, int *ev)
{
	if (!e)
		return PAPI_ENOMEM;
	for (int i = 0; i < ndyn; i++)
		if (!strcmp(dyn[i]->name, e->name)) {
			free_uev(e);
			*ev = nitems + i;
			return PAPI_OK;
		}
	if (ndyn == capdyn) {
		int cap = capdyn ? 2 * capdyn : 16;
		struct uev **n = realloc(dyn, (size_t)cap * sizeof *n);
		if (!n) {
			free_uev(e);
			return PAPI_ENOMEM;
		}
		dyn = n;
		capdyn = cap;
	}
	dyn[ndyn] = e;
	*ev = nitems + ndyn++;
	return PAPI_OK;
}

/* Take ":cpu=N" out of name into base; *cpu N, or -1 without one. */
static int take_cpu(const char *name, char *base, size_t len, int *cpu)
{
	*cpu = -1;
	snprintf(base, len, "%s", name);
	char *q = strstr(base, ":cpu=");
	if (!q)
		return PAPI_OK;
	char *end;
	errno = 0;
	long v = strtol(q + 5, &end, 10);
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (end == q + 5 || (*end && *end != ':') || v < 0 || errno) {
		papi_set_reason("%.200s: cpu=%.20s: not a CPU number", name, q + 5);
		return PAPI_EINVAL;
	}
	if (v >= (ncpu > 0 ? ncpu : 1)) {
		papi_set_reason("%.200s: cpu=%ld: there is no CPU %ld here (CPUs 0 to %ld)", name, v, v,
				(ncpu > 0 ? ncpu : 1) - 1);
		return PAPI_EINVAL;
	}
	memmove(q, end, strlen(end) + 1);
	*cpu = (int)v;
	return PAPI_OK;
}

/* A name whose PMU neither libpfm4 nor the kernel has: PAPI_ENOEVNT with
 * the reason (what is missing, what the kernel has, where such a PMU comes
 * from), else PAPI_ENOCMP (perf_event's: a core PMU, or one of libpfm4's). */
static int no_pmu(const char *name, const char *pmu, size_t n)
{
	struct pfm_pmu_brief pi;
	/* no PMU named ("/cycles/"), or libpfm4 made to see one PMU alone
	 * (LIBPFM_FORCE_PMU): perf_event's reason says more */
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	if (!n || (forced && *forced) || pmu_pfm_named(pmu, n, &pi))
		return PAPI_ENOCMP;
	char have[300] = "";
	size_t h = 0;
	int nk = kpmu_count();
	for (int i = 0; i < nk; i++) {
		const char *k = kpmu_get(i)->name;
		if (strlen(k) == n && !strncmp(k, pmu, n))
			return PAPI_ENOCMP;
		if (i < 12 && h < sizeof have)
			h += (size_t)snprintf(have + h, sizeof have - h, "%s%s", h ? ", " : "", k);
	}
	if (nk > 12 && h < sizeof have)
		snprintf(have + h, sizeof have - h, ", ... (%d in all)", nk);
	const char *from = "";
	if (n == 5 && !strncmp(pmu, "power", 5))
		from = "; power (RAPL energy: energy-pkg, energy-cores, ...) is the PMU of the "
		       "kernel's RAPL driver for Intel and AMD CPUs, absent in most VMs";
	else if (n > 7 && !strncmp(pmu, "uncore_", 7))
		from = "; uncore_* PMUs come with Intel's intel_uncore driver, absent in most VMs";
	else if (n > 4 && !strncmp(pmu, "amd_", 4))
		from = "; amd_* PMUs come with AMD's amd_uncore driver, absent in most VMs";
	if (nk)
		papi_set_reason("%.200s: no PMU called %.*s here: libpfm4 has no such table and the "
				"kernel's PMUs are %s (/sys/bus/event_source/devices)%s", name, (int)n,
				pmu, have, from);
	else
		papi_set_reason("%.200s: no PMU called %.*s here: libpfm4 has no such table and the "
				"kernel lists no PMUs (no /sys/bus/event_source/devices)%s", name,
				(int)n, pmu, from);
	return PAPI_ENOEVNT;
}

/* "PMU/terms/": an event by the PMU's format, as perf spells it. */
static int lookup_terms(const char *name, const char *base, int cpu, int *ev)
{
	const char *sl = strchr(base, '/'), *end = strrchr(base, '/');
	int p = find_kernel(base, (size_t)(sl - base));
	if (p < 0)
		return no_pmu(name, base, (size_t)(sl - base));
	if (end == sl || end[1]) {
		papi_set_reason("%.200s: write PMU/TERMS/ (an uncore event counts every privilege "
				"level: no modifiers after the last '/')", name);
		return PAPI_ENOEVNT;
	}
	char terms[512], why[300];
	snprintf(terms, sizeof terms, "%.*s", (int)(end - sl - 1), sl + 1);
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	int r = kpmu_encode(pmus[p].k, terms, &a, why, sizeof why);
	if (r != PAPI_OK) {
		papi_set_reason("%.200s: %s", name, why);
		return r == PAPI_ENOMEM ? r : PAPI_ENOEVNT;
	}
	char canon[PAPI_HUGE_STR_LEN], what[PAPI_HUGE_STR_LEN], q[32] = "";
	if (cpu >= 0)
		snprintf(q, sizeof q, ":cpu=%d", cpu);
	snprintf(canon, sizeof canon, "%s/%s/%s", pmus[p].k->name, terms, q);
	snprintf(what, sizeof what, "%s event by its format: %s", pmus[p].k->name, terms);
	return add_dyn(new_uev(p, canon, what, terms, cpu), ev);
}

/* A unit mask or modifier of libpfm4 event pev called q (n bytes): its
 * attribute index, -1 when none. */
static int pfm_attr(int pev, const char *q, size_t n, int *type)
{
	pfm_event_info_t ei;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	if (pfm_get_event_info(pev, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return -1;
	size_t qn = strcspn(q, "=");
	if (qn > n)
		qn = n;
	for (int k = 0; k < ei.nattrs; k++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(pev, k, PFM_OS_NONE, &ai) == PFM_SUCCESS &&
		    strlen(ai.name) == qn && !strncasecmp(ai.name, q, qn)) {
			*type = ai.type;
			return k;
		}
	}
	return -1;
}

/* "pmu::EVENT[:UMASK...]" by libpfm4's table of PMU p. */
static int lookup_pfm(const char *name, int p, const char *rest, int cpu, int *ev)
{
	pfm_pmu_info_t pi;
	memset(&pi, 0, sizeof pi);
	pi.size = sizeof pi;
	size_t evn = strcspn(rest, ":");
	int pev = -1;
	if (pfm_get_pmu_info(pmus[p].pfm, &pi) == PFM_SUCCESS)
		for (int e = pi.first_event; e >= 0 && pev < 0; e = pfm_get_event_next(e)) {
			pfm_event_info_t ei;
			memset(&ei, 0, sizeof ei);
			ei.size = sizeof ei;
			if (pfm_get_event_info(e, PFM_OS_NONE, &ei) == PFM_SUCCESS &&
			    strlen(ei.name) == evn && !strncasecmp(ei.name, rest, evn))
				pev = e;
		}
	if (pev < 0) {
		papi_set_reason("%.200s: libpfm4's %s has no event %.*s (see 'papi native -i %s::')",
				name, pmus[p].pfm_name, (int)evn, rest, pmus[p].pfm_name);
		return PAPI_ENOEVNT;
	}
	/* One unit mask alone is a listed event; anything else is its own. */
	int sub = -1, nq = 0, plain = 1;
	for (const char *q = rest + evn; *q == ':'; nq++) {
		q++;
		size_t n = strcspn(q, ":");
		int type = 0, k = pfm_attr(pev, q, n, &type);
		if (k < 0) {
			papi_set_reason("%.200s: %.*s is no unit mask or modifier of %.*s", name, (int)n, q,
					(int)evn, rest);
			return PAPI_ENOEVNT;
		}
		if (type == PFM_ATTR_UMASK)
			sub = k;
		else
			plain = 0;
		q += n;
	}
	if (cpu < 0 && plain && nq <= 1) {
		int i = listed_index(p, pev, nq ? sub : -1);
		if (i >= 0) {
			*ev = i;
			return PAPI_OK;
		}
	}
	char canon[PAPI_HUGE_STR_LEN], spec[PAPI_HUGE_STR_LEN], desc[PAPI_HUGE_STR_LEN], q[32] = "";
	if (pfm_names(p, pev, nq == 1 ? sub : -1, canon, sizeof canon, desc, sizeof desc) != PAPI_OK)
		return PAPI_ENOEVNT;
	/* libpfm4's spelling of the event, the qualifiers as given */
	snprintf(spec, sizeof spec, "%.*s%s", (int)(strstr(canon, "::") + 2 - canon) + (int)evn, canon,
		 rest + evn);
	if (cpu >= 0)
		snprintf(q, sizeof q, ":cpu=%d", cpu);
	if ((size_t)snprintf(canon, sizeof canon, "%s%s", spec, q) >= sizeof canon) {
		papi_set_reason("%.200s: the name is too long", name);
		return PAPI_ENOEVNT;
	}
	struct uev *e = new_uev(p, canon, desc, spec, cpu);
	if (e)
		e->pev = pev;
	return add_dyn(e, ev);
}

/* un_lookup: see struct component's lookup. */
static int un_lookup(const char *name, int *ev)
{
	char base[PAPI_HUGE_STR_LEN];
	int cpu, r = take_cpu(name, base, sizeof base, &cpu);
	if (r != PAPI_OK)
		return r;
	pthread_mutex_lock(&un_lock);
	const char *sep = strstr(base, "::");
	if (strchr(base, '/') && (!sep || strchr(base, '/') < sep)) {
		r = lookup_terms(name, base, cpu, ev);
	} else if (!sep) {
		r = PAPI_ENOCMP;
	} else {
		int p = find_kernel(base, (size_t)(sep - base));
		if (p >= 0) {
			const struct kpmu_event *a = kpmu_event(pmus[p].k, sep + 2);
			if (!a) {
				papi_set_reason("%.200s: the kernel's %s has no event %.100s (see 'papi "
						"native -i %s::'; or name it by terms: %s/event=...,umask=.../)",
						name, pmus[p].k->name, sep + 2, pmus[p].k->name, pmus[p].k->name);
				r = PAPI_ENOEVNT;
			} else if (cpu < 0) {
				r = PAPI_ENOEVNT;
				for (int i = 0; i < nitems; i++)
					if (items[i].pmu == p && items[i].pev < 0 &&
					    &pmus[p].k->events[items[i].sub] == a) {
						*ev = i;
						r = PAPI_OK;
					}
			} else {
				char q[32];
				snprintf(q, sizeof q, ":cpu=%d", cpu);
				r = add_dyn(alias_uev(p, (int)(a - pmus[p].k->events), cpu, q), ev);
			}
		} else if ((p = find_pfm(base, (size_t)(sep - base))) >= 0) {
			r = lookup_pfm(name, p, sep + 2, cpu, ev);
		} else {
			r = no_pmu(name, base, (size_t)(sep - base));
		}
	}
	pthread_mutex_unlock(&un_lock);
	return r;
}

/* ------------------------------------------------------------------ encoding */

/* Event pev of a libpfm4 table that libpfm4 did not detect (tests: a fake
 * tree), from its codes through the kernel's format: the event code into "event", the
 * unit masks' into "umask" (their defaults when none is named). What needs
 * libpfm4's own encoder (modifiers, filters) is refused. */
static int encode_codes(struct uev *e, char *why, size_t len)
{
	pfm_event_info_t ei;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	if (pfm_get_event_info(e->pev, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return PAPI_ENOEVNT;
	const char *q = strstr(e->spec, "::") + 2 + strlen(ei.name);
	unsigned long long umask = 0;
	int named = 0;
	for (; *q == ':';) {
		q++;
		size_t n = strcspn(q, ":");
		int type = 0, k = pfm_attr(e->pev, q, n, &type);
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (k < 0 || type != PFM_ATTR_UMASK ||
		    pfm_get_event_attr_info(e->pev, k, PFM_OS_NONE, &ai) != PFM_SUCCESS) {
			snprintf(why, len, "%s: modifier %.*s: only libpfm4's own encoder, on a machine "
				 "where it detects %s, can encode it", e->name, (int)n, q,
				 pmus[e->pmu].pfm_name);
			return PAPI_EINVAL;
		}
		umask |= ai.code;
		named = 1;
		q += n;
	}
	for (int k = 0; !named && k < ei.nattrs; k++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(e->pev, k, PFM_OS_NONE, &ai) == PFM_SUCCESS &&
		    ai.type == PFM_ATTR_UMASK && ai.is_dfl)
			umask |= ai.code;
	}
	char terms[128];
	snprintf(terms, sizeof terms, "event=0x%llx,umask=0x%llx", (unsigned long long)ei.code, umask);
	return kpmu_encode(pmus[e->pmu].k, terms, &e->attr, why, len);
}

/* Encode e once (lock held): PAPI_OK, or the error with the reason set. */
static int encode(struct uev *e)
{
	if (!e->enc) {
		char why[PAPI_HUGE_STR_LEN] = "";
		int r;
		memset(&e->attr, 0, sizeof e->attr);
		if (e->pev >= 0 && pmus[e->pmu].forced) {
			r = encode_codes(e, why, sizeof why);
		} else if (e->pev >= 0) {
			pfm_perf_encode_arg_t arg;
			memset(&arg, 0, sizeof arg);
			arg.attr = &e->attr;
			arg.size = sizeof arg;
			int pr = pfm_get_os_event_encoding(e->spec, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
			r = pr == PFM_SUCCESS ? PAPI_OK : pr == PFM_ERR_NOMEM ? PAPI_ENOMEM : PAPI_ENOEVNT;
			if (pr != PFM_SUCCESS)
				snprintf(why, sizeof why, "%s: libpfm4: %s", e->name, pfm_strerror(pr));
			e->attr.type = (uint32_t)pmus[e->pmu].k->type;
		} else {
			r = kpmu_encode(pmus[e->pmu].k, e->spec, &e->attr, why, sizeof why);
		}
		e->enc = r == PAPI_OK ? 1 : r;
		if (r != PAPI_OK)
			e->enc_why = strdup(why);
	}
	if (e->enc != 1)
		papi_set_reason("%s", e->enc_why ? e->enc_why : "out of memory");
	return e->enc == 1 ? PAPI_OK : e->enc;
}

/* ------------------------------------------------------------------ counting */

struct ucnt {			/* one event of a set: a counter on each CPU */
	int nfd;
	int *fd;		/* one per socket or die (or CPU) it opens on */
	uint64_t (*base)[3];	/* each one's count, time enabled, time running at start */
	long double mult;
};
struct uset {
	int n;
	struct ucnt *c;
	long long *stopped;
};

static void close_all(struct uset *u)
{
	for (int i = 0; u && i < u->n; i++) {
		for (int f = 0; f < u->c[i].nfd; f++)
			sys->close(u->c[i].fd[f]);
		u->c[i].nfd = 0;
		free(u->c[i].fd);
		free(u->c[i].base);
		u->c[i].fd = NULL;
		u->c[i].base = NULL;
	}
}

/* Open event e on each of its CPUs into c (lock held). */
static int open_one(struct uev *e, struct ucnt *c)
{
	int r = encode(e);
	if (r != PAPI_OK)
		return r;
	const struct upmu *u = &pmus[e->pmu];
	int one = e->cpu, n = one >= 0 ? 1 : u->ncpu;
	c->fd = calloc((size_t)n, sizeof *c->fd);
	c->base = calloc((size_t)n, sizeof *c->base);
	if (!c->fd || !c->base)
		return PAPI_ENOMEM;	/* close_all frees what was allocated */
	c->mult = e->mult;
	for (c->nfd = 0; c->nfd < n; c->nfd++) {
		int cpu = one >= 0 ? one : u->cpus[c->nfd];
		struct perf_event_attr a = e->attr;
		a.size = sizeof a;
		a.disabled = 1;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.inherit = 0;
		int fd = sys->perf_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			int err = errno;
			char why[PAPI_HUGE_STR_LEN];
			pe_advice(err, e->name, &a, -1, cpu, NULL, why, sizeof why);
			papi_set_reason("%s", why);
			return pe_errno_to_papi(err);
		}
		c->fd[c->nfd] = fd;
	}
	return PAPI_OK;
}

static int un_update(struct cmp_set *s)
{
	struct uset *u = s->priv;
	if (!u && !(u = s->priv = calloc(1, sizeof *u)))
		return PAPI_ENOMEM;
	close_all(u);
	free(u->c);
	free(u->stopped);
	u->n = 0;
	u->c = calloc((size_t)(s->n ? s->n : 1), sizeof *u->c);
	u->stopped = calloc((size_t)(s->n ? s->n : 1), sizeof *u->stopped);
	if (!u->c || !u->stopped)
		return PAPI_ENOMEM;
	int r = PAPI_OK;
	pthread_mutex_lock(&un_lock);
	for (int i = 0; i < s->n && r == PAPI_OK; i++) {
		struct uev *e = get_uev(s->ev[i]);
		u->n = i + 1;
		r = e ? open_one(e, &u->c[i]) : PAPI_ENOEVNT;
	}
	pthread_mutex_unlock(&un_lock);
	if (r != PAPI_OK) {
		close_all(u);
		u->n = 0;
	}
	return r;
}

/* Read counter f of event i: count, time enabled, time running. */
static int read_fd(const struct ucnt *c, int f, uint64_t v[3])
{
	ssize_t n = sys->read(c->fd[f], v, 3 * sizeof *v);
	if (n != (ssize_t)(3 * sizeof *v)) {
		papi_set_reason("perf_event_uncore: reading a counter failed: %s",
				n < 0 ? strerror(errno) : "short read");
		return PAPI_ESYS;
	}
	return PAPI_OK;
}

/* Each event's value since its base; with take, the reading becomes the
 * base (nothing falls between a read and a reset). */
static int values(struct uset *u, long long *v, int take)
{
	for (int i = 0; i < u->n; i++) {
		struct ucnt *c = &u->c[i];
		long double sum = 0;
		for (int f = 0; f < c->nfd; f++) {
			uint64_t now[3];
			int r = read_fd(c, f, now);
			if (r != PAPI_OK)
				return r;
			uint64_t d = now[0] - c->base[f][0], ena = now[1] - c->base[f][1],
				 run = now[2] - c->base[f][2];
			/* multiplexed: scaled by the time it ran, as perf does */
			sum += run && run < ena ? (long double)d * ena / run : run ? (long double)d : 0;
			if (take)
				memcpy(c->base[f], now, sizeof now);
		}
		v[i] = (long long)(sum * c->mult + 0.5L);	/* counts are never negative */
	}
	return PAPI_OK;
}

static int set_base(struct uset *u)
{
	for (int i = 0; i < u->n; i++)
		for (int f = 0; f < u->c[i].nfd; f++) {
			int r = read_fd(&u->c[i], f, u->c[i].base[f]);
			if (r != PAPI_OK)
				return r;
		}
	return PAPI_OK;
}

static int enable(struct uset *u, unsigned long req)
{
	for (int i = 0; i < u->n; i++)
		for (int f = 0; f < u->c[i].nfd; f++)
			if (sys->ioctl(u->c[i].fd[f], req, 0) < 0) {
				papi_set_reason("perf_event_uncore: ioctl on a counter failed: %s",
						strerror(errno));
				return PAPI_ESYS;
			}
	return PAPI_OK;
}

static int un_start(struct cmp_set *s)
{
	struct uset *u = s->priv;
	int r = enable(u, PERF_EVENT_IOC_ENABLE);
	if (r == PAPI_OK)
		r = set_base(u);
	if (r == PAPI_OK)
		memset(u->stopped, 0, (size_t)u->n * sizeof *u->stopped);
	return r;
}

static int un_stop(struct cmp_set *s, long long *v)
{
	struct uset *u = s->priv;
	int r = values(u, u->stopped, 0);
	int d = enable(u, PERF_EVENT_IOC_DISABLE);
	if (r == PAPI_OK && v)
		memcpy(v, u->stopped, (size_t)u->n * sizeof *v);
	return r != PAPI_OK ? r : d;
}

static int un_read(struct cmp_set *s, long long *v)
{
	struct uset *u = s->priv;
	if (!s->running) {
		memcpy(v, u->stopped, (size_t)u->n * sizeof *v);
		return PAPI_OK;
	}
	return values(u, v, 0);
}

static int un_reset(struct cmp_set *s)
{
	struct uset *u = s->priv;
	if (!s->running) {
		memset(u->stopped, 0, (size_t)u->n * sizeof *u->stopped);
		return PAPI_OK;
	}
	return set_base(u);
}

static int un_accum(struct cmp_set *s, long long *v)
{
	struct uset *u = s->priv;
	if (!s->running) {
		memcpy(v, u->stopped, (size_t)u->n * sizeof *v);
		memset(u->stopped, 0, (size_t)u->n * sizeof *u->stopped);
		return PAPI_OK;
	}
	return values(u, v, 1);
}

static void un_release(struct cmp_set *s)
{
	struct uset *u = s->priv;
	if (u) {
		close_all(u);
		free(u->c);
		free(u->stopped);
		free(u);
	}
	s->priv = NULL;
}

/* Uncore counting is CPU-wide: say so before anything is opened. */
static int un_access(char *why, size_t len)
{
	if (pe_cpu_allowed())
		return PAPI_OK;
	snprintf(why, len, "uncore PMUs count whole sockets (CPU-wide, pid -1): that needs "
		 "perf_event_paranoid 0 or lower (it is %d) or CAP_PERFMON: set "
		 "/proc/sys/kernel/perf_event_paranoid to 0, or run as root or with CAP_PERFMON",
		 sys->paranoid());
	return PAPI_EPERM;
}

const struct component cmp_uncore = {
	.name = "perf_event_uncore",
	.short_name = "peu",
	.description = "Linux perf_event CPU uncore and northbridge",
	.granularity = PAPI_GRN_SYS,
	.init = un_init,
	.shutdown = un_shutdown,
	.nevents = un_nevents,
	.event = un_event,
	.lookup = un_lookup,
	.bare_names = 1,
	.access = un_access,
	.update = un_update,
	.start = un_start,
	.stop = un_stop,
	.read = un_read,
	.reset = un_reset,
	.accum = un_accum,
	.release = un_release,
};

/* uncore_names.c: perf_event_uncore's events: described (scale, unit, where they count), looked up by name (libpfm4's, the kernel's event files, terms, ":cpu=N"), and encoded. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "4-components/uncore.h"

/* Under unc_lock, as the PMUs are. */
static struct uev **listed;	/* unc_nitems, made on first use */
static struct uev **dyn;	/* events beyond the list: index unc_nitems + i */
static int ndyn, capdyn;

/* The index in unc_pmus of the PMU whose libpfm4 table is named by the n
 * bytes at name, -1 when none. */
static int find_pfm(const char *name, size_t n)
{
	for (int i = 0; i < unc_npmus; i++)
		if (unc_pmus[i].pfm >= 0 && strlen(unc_pmus[i].pfm_name) == n &&
		    !strncasecmp(unc_pmus[i].pfm_name, name, n))
			return i;
	return -1;
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

void unc_shutdown(void)
{
	pthread_mutex_lock(&unc_lock);
	for (int i = 0; listed && i < unc_nitems; i++)
		free_uev(listed[i]);
	for (int i = 0; i < ndyn; i++)
		free_uev(dyn[i]);
	free(listed);
	free(dyn);
	listed = dyn = NULL;
	ndyn = capdyn = 0;
	unc_pmus_free();
	pthread_mutex_unlock(&unc_lock);
}

int unc_init(char *why, size_t len)
{
	pthread_mutex_lock(&unc_lock);
	int r = unc_pmus_load(why, len);	/* PAPI_PARTIAL: some CPUs offline */
	if ((r == PAPI_OK || r == PAPI_PARTIAL) && unc_nitems &&
	    !(listed = calloc((size_t)unc_nitems, sizeof *listed)))
		r = PAPI_ENOMEM;
	pthread_mutex_unlock(&unc_lock);
	if (r != PAPI_OK && r != PAPI_PARTIAL)
		unc_shutdown();
	return r;
}

int unc_nevents(void)
{
	return unc_nitems;
}

/* ------------------------------------------------------------------ describing events */

/* "CPUs 0,36" or "CPU 5's socket or die" for a description. */
static void where(const struct uev *e, char *buf, size_t len)
{
	const struct upmu *u = &unc_pmus[e->pmu];
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
	snprintf(name, nlen, "%s::%s%s%s", unc_pmus[pmu].pfm_name, ei.name, sub >= 0 ? ":" : "",
		 sub >= 0 ? ai.name : "");
	snprintf(desc, dlen, "%s%s%s", ei.desc ? ei.desc : ei.name, sub >= 0 ? "; " : "",
		 sub >= 0 && ai.desc ? ai.desc : "");
	return PAPI_OK;
}

/* The kernel's event file a of PMU pmu as an event. */
static struct uev *alias_uev(int pmu, int a, int cpu, const char *qual)
{
	const struct kpmu *k = unc_pmus[pmu].k;
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
	const struct item *it = &unc_items[i];
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
struct uev *unc_get(int ev)
{
	if (ev >= 0 && ev < unc_nitems)
		return get_listed(ev);
	if (ev >= unc_nitems && ev - unc_nitems < ndyn)
		return dyn[ev - unc_nitems];
	return NULL;
}

int unc_event(int ev, struct cmp_event *out)
{
	pthread_mutex_lock(&unc_lock);
	struct uev *e = unc_get(ev);
	if (e)
		*out = (struct cmp_event){ e->name, e->desc, e->units, 0 };
	pthread_mutex_unlock(&unc_lock);
	return e ? PAPI_OK : PAPI_ENOEVNT;
}

/* ------------------------------------------------------------------ names */

/* The listed index of (pmu, pev, sub), -1 when not listed: items are in
 * PMU order, and in libpfm4's order within one. */
static int listed_index(int pmu, int pev, int sub)
{
	for (int i = 0; i < unc_nitems; i++)
		if (unc_items[i].pmu == pmu && unc_items[i].pev == pev && unc_items[i].sub == sub)
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
			*ev = unc_nitems + i;
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
	*ev = unc_nitems + ndyn++;
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
	int p = unc_find_kernel(base, (size_t)(sl - base));
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
	int r = kpmu_encode(unc_pmus[p].k, terms, &a, why, sizeof why);
	if (r != PAPI_OK) {
		papi_set_reason("%.200s: %s", name, why);
		return r == PAPI_ENOMEM ? r : PAPI_ENOEVNT;
	}
	char canon[PAPI_HUGE_STR_LEN], what[PAPI_HUGE_STR_LEN], q[32] = "";
	if (cpu >= 0)
		snprintf(q, sizeof q, ":cpu=%d", cpu);
	snprintf(canon, sizeof canon, "%s/%s/%s", unc_pmus[p].k->name, terms, q);
	snprintf(what, sizeof what, "%s event by its format: %s", unc_pmus[p].k->name, terms);
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
	if (pfm_get_pmu_info(unc_pmus[p].pfm, &pi) == PFM_SUCCESS)
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
				name, unc_pmus[p].pfm_name, (int)evn, rest, unc_pmus[p].pfm_name);
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

/* unc_lookup: see struct component's lookup. */
int unc_lookup(const char *name, int *ev)
{
	char base[PAPI_HUGE_STR_LEN];
	int cpu, r = take_cpu(name, base, sizeof base, &cpu);
	if (r != PAPI_OK)
		return r;
	pthread_mutex_lock(&unc_lock);
	const char *sep = strstr(base, "::");
	if (strchr(base, '/') && (!sep || strchr(base, '/') < sep)) {
		r = lookup_terms(name, base, cpu, ev);
	} else if (!sep) {
		r = PAPI_ENOCMP;
	} else {
		int p = unc_find_kernel(base, (size_t)(sep - base));
		if (p >= 0) {
			const struct kpmu_event *a = kpmu_event(unc_pmus[p].k, sep + 2);
			if (!a) {
				papi_set_reason("%.200s: the kernel's %s has no event %.100s (see 'papi "
						"native -i %s::'; or name it by terms: %s/event=...,umask=.../)",
						name, unc_pmus[p].k->name, sep + 2, unc_pmus[p].k->name, unc_pmus[p].k->name);
				r = PAPI_ENOEVNT;
			} else if (cpu < 0) {
				r = PAPI_ENOEVNT;
				for (int i = 0; i < unc_nitems; i++)
					if (unc_items[i].pmu == p && unc_items[i].pev < 0 &&
					    &unc_pmus[p].k->events[unc_items[i].sub] == a) {
						*ev = i;
						r = PAPI_OK;
					}
			} else {
				char q[32];
				snprintf(q, sizeof q, ":cpu=%d", cpu);
				r = add_dyn(alias_uev(p, (int)(a - unc_pmus[p].k->events), cpu, q), ev);
			}
		} else if ((p = find_pfm(base, (size_t)(sep - base))) >= 0) {
			r = lookup_pfm(name, p, sep + 2, cpu, ev);
		} else {
			r = no_pmu(name, base, (size_t)(sep - base));
		}
	}
	pthread_mutex_unlock(&unc_lock);
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
				 unc_pmus[e->pmu].pfm_name);
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
	return kpmu_encode(unc_pmus[e->pmu].k, terms, &e->attr, why, len);
}

/* Encode e once (lock held): PAPI_OK, or the error with the reason set. */
int unc_encode(struct uev *e)
{
	if (!e->enc) {
		char why[PAPI_HUGE_STR_LEN] = "";
		int r;
		memset(&e->attr, 0, sizeof e->attr);
		if (e->pev >= 0 && unc_pmus[e->pmu].forced) {
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
			e->attr.type = (uint32_t)unc_pmus[e->pmu].k->type;
		} else {
			r = kpmu_encode(unc_pmus[e->pmu].k, e->spec, &e->attr, why, sizeof why);
		}
		e->enc = r == PAPI_OK ? 1 : r;
		if (r != PAPI_OK)
			e->enc_why = strdup(why);
	}
	if (e->enc != 1)
		papi_set_reason("%s", e->enc_why ? e->enc_why : "out of memory");
	return e->enc == 1 ? PAPI_OK : e->enc;
}
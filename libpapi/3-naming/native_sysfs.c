/* native_sysfs.c: events of a kernel core PMU named as perf spells them (cpu/instructions/, cpu/event=0x3c/): its sysfs events, raw terms through its format, and the kernel's generic events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "3-naming/naming.h"

/*
 * A name "PMU/TERMS/MODS" counts on the kernel core PMU called PMU (as in
 * /sys/bus/event_source/devices) whatever libpfm4 knows of it. TERMS is
 *   - one of the PMU's named events (its events/ directory), which wins;
 *   - else one of the kernel's generic events (below), opened as
 *     PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE; on a machine with several
 *     core PMUs (a hybrid) with the PMU's type in the config's upper half,
 *     which is how the kernel is told which core type counts it;
 *   - else terms encoded through the PMU's format files ("event=0x3c,
 *     umask=0x01", a named event followed by more terms), as kpmu_encode.
 * MODS are perf's u, k and h: count at user, kernel and hypervisor level
 * (those given; none: the EventSet's domain decides).
 *
 * A PMU that is no core's but counts per task (msr) is named the same way,
 * by its named events and its format, without generic events; its driver
 * excludes no privilege level, so it takes no MODS and counts every level
 * whatever the EventSet's domain.
 */

/* The kernel's generic hardware events (PERF_TYPE_HARDWARE), in perf's
 * spelling; the aliases perf accepts follow their event. */
static const struct hw_event {
	const char *name;
	unsigned config;
	const char *desc;
} hw_events[] = {
	{ "cycles", PERF_COUNT_HW_CPU_CYCLES, "CPU cycles (PERF_COUNT_HW_CPU_CYCLES)" },
	{ "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES, NULL },
	{ "instructions", PERF_COUNT_HW_INSTRUCTIONS, "instructions retired (PERF_COUNT_HW_INSTRUCTIONS)" },
	{ "cache-references", PERF_COUNT_HW_CACHE_REFERENCES,
	  "accesses to the cache the kernel chose, usually the last level (PERF_COUNT_HW_CACHE_REFERENCES)" },
	{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES,
	  "misses in the cache the kernel chose, usually the last level (PERF_COUNT_HW_CACHE_MISSES)" },
	{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  "branch instructions retired (PERF_COUNT_HW_BRANCH_INSTRUCTIONS)" },
	{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, NULL },
	{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES,
	  "mispredicted branch instructions (PERF_COUNT_HW_BRANCH_MISSES)" },
	{ "bus-cycles", PERF_COUNT_HW_BUS_CYCLES, "bus cycles (PERF_COUNT_HW_BUS_CYCLES)" },
	{ "stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	  "cycles the front end issued nothing (PERF_COUNT_HW_STALLED_CYCLES_FRONTEND)" },
	{ "idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, NULL },
	{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  "cycles the back end retired nothing (PERF_COUNT_HW_STALLED_CYCLES_BACKEND)" },
	{ "idle-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND, NULL },
	{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES,
	  "reference cycles, at a fixed rate whatever the clock (PERF_COUNT_HW_REF_CPU_CYCLES)" },
};
#define NHW (int)(sizeof hw_events / sizeof *hw_events)

/* The generic cache events (PERF_TYPE_HW_CACHE): every cache, operation and
 * result, spelled "L1-dcache-load-misses" as perf does. */
static const struct {
	const char *name, *desc;
} caches[] = {
	{ "L1-dcache", "level 1 data cache" },	/* PERF_COUNT_HW_CACHE_L1D ... in order */
	{ "L1-icache", "level 1 instruction cache" },
	{ "LLC", "last level cache" },
	{ "dTLB", "data TLB" },
	{ "iTLB", "instruction TLB" },
	{ "branch", "branch prediction unit" },
	{ "node", "local memory node" },
};
static const struct {
	const char *access, *miss, *desc;
} cache_ops[] = {
	{ "loads", "load-misses", "reads" },	/* PERF_COUNT_HW_CACHE_OP_READ ... */
	{ "stores", "store-misses", "writes" },
	{ "prefetches", "prefetch-misses", "prefetches" },
};
#define NCACHE (int)(sizeof caches / sizeof *caches)
#define NCOP (int)(sizeof cache_ops / sizeof *cache_ops)
#define NGENERIC (NHW + NCACHE * NCOP * 2)

/* Generic event g (0..NGENERIC-1): its name into buf, its type and config,
 * and a description (NULL for an alias). */
static void generic_event(int g, char *buf, size_t len, struct perf_event_attr *a, char *desc,
			  size_t dlen)
{
	if (g < NHW) {
		const struct hw_event *h = &hw_events[g];
		snprintf(buf, len, "%s", h->name);
		a->type = PERF_TYPE_HARDWARE;
		a->config = h->config;
		const char *d = h->desc;
		for (int k = g; !d && k > 0; k--)
			d = hw_events[k - 1].config == h->config ? hw_events[k - 1].desc : NULL;
		snprintf(desc, dlen, "the kernel's generic event: %s", d ? d : h->name);
		return;
	}
	g -= NHW;
	int c = g / (NCOP * 2), op = g / 2 % NCOP, miss = g % 2;
	snprintf(buf, len, "%s-%s", caches[c].name, miss ? cache_ops[op].miss : cache_ops[op].access);
	a->type = PERF_TYPE_HW_CACHE;
	a->config = (unsigned)c | (unsigned)op << 8 |
		    (unsigned)(miss ? PERF_COUNT_HW_CACHE_RESULT_MISS : PERF_COUNT_HW_CACHE_RESULT_ACCESS) << 16;
	snprintf(desc, dlen, "the kernel's generic cache event: %s of the %s%s (PERF_TYPE_HW_CACHE)",
		 cache_ops[op].desc, caches[c].desc, miss ? " that miss" : "");
}

/* The generic event called name (any case), -1 when none. */
static int generic_find(const char *name, size_t n)
{
	char buf[64];
	struct perf_event_attr a;
	char d[8];
	for (int g = 0; g < NGENERIC; g++) {
		generic_event(g, buf, sizeof buf, &a, d, sizeof d);
		if (strlen(buf) == n && !strncasecmp(buf, name, n))
			return g;
	}
	return -1;
}

/* Parse MODS ("", "u", "uk" ...) into the attr's exclude bits. */
static int parse_mods(const char *m, struct perf_event_attr *a, const char *name)
{
	int u = 0, k = 0, h = 0;
	for (const char *p = m; *p; p++) {
		int *f = *p == 'u' ? &u : *p == 'k' ? &k : *p == 'h' ? &h : NULL;
		if (!f || *f) {
			papi_set_reason("%.200s: '%c' is not a modifier here (u, k and h are, once each)",
					name, *p);
			return PAPI_ENOEVNT;
		}
		*f = 1;
	}
	if (!*m) {		/* user level, as libpfm4 encodes by default */
		u = 1;
	}
	a->exclude_user = !u;
	a->exclude_kernel = !k;
	a->exclude_hv = !h;
	a->exclude_guest = 1;	/* as libpfm4's encodings */
	return PAPI_OK;
}

/* native_sysfs_match: see naming.h. */
int native_sysfs_match(const char *name, struct native_sysfs *out)
{
	const char *s1 = strchr(name, '/');
	if (!s1)
		return 0;
	const char *s2 = strrchr(name, '/');
	if (s2 == s1) {
		papi_set_reason("%.200s: a kernel PMU's event is written PMU/EVENT/ (the closing / is missing)",
				name);
		return PAPI_ENOEVNT;
	}
	char pmu[64], terms[PAPI_HUGE_STR_LEN];
	size_t pl = (size_t)(s1 - name), tl = (size_t)(s2 - s1 - 1);
	if (!pl || pl >= sizeof pmu || tl >= sizeof terms) {
		papi_set_reason("%.200s: no such kernel PMU", name);
		return PAPI_ENOEVNT;
	}
	memcpy(pmu, name, pl);
	pmu[pl] = '\0';
	memcpy(terms, s1 + 1, tl);
	terms[tl] = '\0';
	int pi = pmu_of_kernel(pmu);
	const struct kpmu *k = kpmu_find(pmu);
	if (pi < 0 || !k) {
		papi_set_reason("%.200s: this kernel has no core PMU called %s%s", name, pmu,
				k ? " (only core PMUs and those counting per task are named so here)" : "");
		return PAPI_ENOEVNT;
	}
	if (!k->core && s2[1]) {
		papi_set_reason("%.200s: %s counts every privilege level, its driver excludes none: "
				"no modifiers after the last '/'", name, pmu);
		return PAPI_ENOEVNT;
	}
	memset(out, 0, sizeof *out);
	out->pmu = pi;
	struct perf_event_attr *a = &out->attr;
	const char *canon_terms = terms, *what = "raw event";
	char gname[64];
	const struct kpmu_event *ev = strchr(terms, ',') || strchr(terms, '=') ? NULL : kpmu_event(k, terms);
	int g = ev || !k->core || strchr(terms, ',') ? -1 : generic_find(terms, strlen(terms));
	if (ev) {
		canon_terms = ev->name;
		what = "event";
	}
	if (!ev && g >= 0) {
		generic_event(g, gname, sizeof gname, a, out->desc, sizeof out->desc);
		canon_terms = gname;
		/* Several core PMUs: the upper half of config names the one. */
		if (kpmu_core_count() > 1)
			a->config |= (uint64_t)k->type << 32;
	} else {
		char why[256];
		int r = kpmu_encode(k, ev ? ev->terms : terms, a, why, sizeof why);
		if (r != PAPI_OK) {	/* a name that cannot be encoded names no event */
			papi_set_reason("%.200s: %s", name, why);
			return r == PAPI_ENOMEM ? r : PAPI_ENOEVNT;
		}
		int n = snprintf(out->desc, sizeof out->desc, "%s of kernel PMU %.64s: %.900s", what, pmu,
				 ev ? ev->terms : terms);
		if (ev && ev->unit[0] && n > 0 && (size_t)n < sizeof out->desc)
			snprintf(out->desc + n, sizeof out->desc - (size_t)n,
				 " (%g %s per count)", ev->scale, ev->unit);
	}
	a->size = sizeof *a;
	if (k->core) {
		int r = parse_mods(s2 + 1, a, name);
		if (r != PAPI_OK)
			return r;
		out->has_domain_mod = s2[1] != '\0';
	} else {		/* counted per task at every level: the domain is fixed */
		out->has_domain_mod = 1;
		size_t n = strlen(out->desc);
		snprintf(out->desc + n, sizeof out->desc - n, "; counted per task at every "
			 "privilege level (the PMU excludes none)");
	}
	if ((size_t)snprintf(out->canon, sizeof out->canon, "%s/%s/%s", pmu, canon_terms, s2 + 1) >=
	    sizeof out->canon) {
		papi_set_reason("%.200s: the name is too long", name);
		return PAPI_ENOEVNT;
	}
	return 1;
}

/* The kernel PMU of sysfs entry pmu, NULL when it is none. */
static const struct kpmu *entry_kpmu(int pmu)
{
	const struct pmu *p = pmu_get(pmu);
	return p && p->sysfs ? kpmu_find(p->kernel_name) : NULL;
}

/* Is generic event g listed under k: not an alias, and no named event of
 * k spells it (that one is listed, and wins a lookup)? */
static int generic_listed(const struct kpmu *k, int g)
{
	char buf[64], d[8];
	struct perf_event_attr a;
	if (!k->core || (g < NHW && !hw_events[g].desc))
		return 0;
	generic_event(g, buf, sizeof buf, &a, d, sizeof d);
	return kpmu_event(k, buf) == NULL;
}

/* native_sysfs_count: see naming.h. */
int native_sysfs_count(int pmu)
{
	const struct kpmu *k = entry_kpmu(pmu);
	if (!k || kpmu_load(k) != PAPI_OK)
		return 0;
	int n = k->nevents;
	for (int g = 0; g < NGENERIC; g++)
		n += generic_listed(k, g);
	return n;
}

/* native_sysfs_nth: see naming.h. */
int native_sysfs_nth(int pmu, int i, char *name, size_t len)
{
	const struct kpmu *k = entry_kpmu(pmu);
	if (!k || i < 0 || kpmu_load(k) != PAPI_OK)
		return PAPI_ENOEVNT;
	if (i < k->nevents) {
		snprintf(name, len, "%s/%s/", k->name, k->events[i].name);
		return PAPI_OK;
	}
	i -= k->nevents;
	for (int g = 0; g < NGENERIC; g++) {
		if (!generic_listed(k, g) || i--)
			continue;
		char buf[64], d[8];
		struct perf_event_attr a;
		generic_event(g, buf, sizeof buf, &a, d, sizeof d);
		snprintf(name, len, "%s/%s/", k->name, buf);
		return PAPI_OK;
	}
	return PAPI_ENOEVNT;
}

/* native_sysfs_index: see naming.h. */
int native_sysfs_index(int pmu, const char *canon)
{
	const char *end = canon ? strrchr(canon, '/') : NULL;
	char name[PAPI_HUGE_STR_LEN];
	if (!end)
		return -1;
	size_t n = (size_t)(end - canon) + 1;
	for (int i = 0; native_sysfs_nth(pmu, i, name, sizeof name) == PAPI_OK; i++)
		if (strlen(name) == n && !strncmp(name, canon, n))
			return i;
	return -1;
}

/* native_list_end: see naming.h. */
const char *native_list_end(const char *p)
{
	int inside = 0;	/* between the first and the closing / of PMU/TERMS/ */
	for (; *p; p++)
		if (*p == '/')
			inside = !inside;
		else if (*p == ',' && !inside)
			return p;
	return p;
}

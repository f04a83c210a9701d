/* coretypes.c: the core types of a hybrid CPU (cpu_core and cpu_atom, ARM's big and LITTLE PMUs) that presets count on, the tables each is named from, and the one a tool may keep the presets to. */
#include <string.h>

#include <perfmon/pfmlib.h>

#include "3-naming/naming.h"
#include "3-naming/events_tbl.h"

/*
 * A hybrid CPU has one kernel core PMU per core type; a thread runs on one
 * type at a time, and the kernel counts an event opened on a core PMU only
 * while the thread runs on a CPU of that PMU (its cpus file). So a preset
 * counts on each core type: its definition on every core PMU, summed (the
 * presets module loads one pass of the tables per core type: coretype_passes).
 * Each core PMU is named from its own table when libpfm4 knows it and
 * events/ has one for it, else from the generic table over the kernel's
 * generic events (one pass for all such PMUs).
 */

PAPI_FIRST_DATA static char only[64];	/* the core PMU presets are kept to, "" every one */
PAPI_FIRST_DATA static int planned;	/* coretype_passes was asked: the tables are loaded by it */

/* Whether entry p is a core PMU the kernel has (one it can count on). */
static int kernel_core(const struct pmu *p)
{
	return p->pfm_type == PFM_PMU_TYPE_CORE && p->kernel_type >= 0;
}

/* The core PMU entry whose kernel device is name, or "cpu_" name (core,
 * atom: perf's --cputype words), -1 when the kernel has none. */
static int core_named(const char *name)
{
	char alt[80];
	snprintf(alt, sizeof alt, "cpu_%s", name);
	for (int i = 0; i < pmu_count(); i++) {
		const struct pmu *p = pmu_get(i);
		if (kernel_core(p) && (!strcmp(p->kernel_name, name) || !strcmp(p->kernel_name, alt)))
			return i;
	}
	return -1;
}

/* The kernel names of every core PMU the kernel has, "a, b", into buf:
 * how many. */
static int core_list(char *buf, size_t len)
{
	int n = 0;
	buf[0] = '\0';
	for (int i = 0; i < pmu_count(); i++) {
		const struct pmu *p = pmu_get(i);
		if (kernel_core(p)) {
			size_t l = strlen(buf);
			snprintf(buf + l, len - l, "%s%s", n++ ? ", " : "", p->kernel_name);
		}
	}
	return n;
}

/* Why a CPU whose n core PMUs are names is no hybrid: PAPI_ENOSUPP. */
static int no_hybrid(int n, const char *names, char *why, size_t len)
{
	if (n)
		snprintf(why, len, "this CPU has one core type (%s): it is no hybrid", names);
	else
		snprintf(why, len, "the kernel has no core PMU to count on (%s)",
			 pmu_core_unavailable_reason() ? pmu_core_unavailable_reason() : "none");
	return PAPI_ENOSUPP;
}

static void forget(void)
{
	only[0] = '\0';
	planned = 0;
}

/* coretype_select: see naming.h. */
int coretype_select(const char *type, char *why, size_t len)
{
	if (!type || !*type) {
		only[0] = '\0';
		return PAPI_OK;
	}
	if (planned) {
		snprintf(why, len, "the preset tables are loaded already");
		return PAPI_EISRUN;
	}
	char names[160];
	int i = core_named(type), n = core_list(names, sizeof names);
	if (n < 2)
		return no_hybrid(n, names, why, len);
	if (i < 0) {
		snprintf(why, len, "no core type '%s' here: the core PMUs are %s", type, names);
		return PAPI_EINVAL;
	}
	snprintf(only, sizeof only, "%s", pmu_get(i)->kernel_name);
	papi_on_shutdown(forget);
	return PAPI_OK;
}

/* coretype_selected: see naming.h. */
const char *coretype_selected(void)
{
	return only[0] ? only : NULL;
}

/* Whether entry p is a core PMU presets count on: in the kernel, and the
 * selected one when a tool chose one. */
static int counts_on(const struct pmu *p)
{
	return kernel_core(p) && (!only[0] || !strcmp(p->kernel_name, only));
}

/* Whether a table of events/ has a section for libpfm4's PMU name. */
static int has_table(const char *name)
{
	for (int i = 0; i < events_files_count; i++)
		for (int k = 0; events_files[i].cpus[k]; k++)
			if (!strcmp(events_files[i].cpus[k], name))
				return 1;
	return 0;
}

/* Whether entry p is named from its own table rather than the generic one. */
static int own_table(const struct pmu *p)
{
	return !p->sysfs && p->pfm_pmu >= 0 && has_table(p->name);
}

/* coretype_passes: see naming.h. */
int coretype_passes(const char *core_name, struct ct_pass *out, int max)
{
	int n = 0, rest = 0;
	planned = 1;
	papi_on_shutdown(forget);
	for (int i = 0; i < pmu_count() && n < max; i++) {
		const struct pmu *p = pmu_get(i);
		if (!counts_on(p))
			continue;
		if (!own_table(p)) {
			rest++;
			continue;
		}
		struct ct_pass c = { .pmu = i };
		snprintf(c.section, sizeof c.section, "%s", p->name);
		snprintf(c.label, sizeof c.label, "%s", p->kernel_name);
		/* libpfm4's first core PMU leads: its table was the only one before hybrids. */
		if (!strcmp(p->name, core_name) && n) {
			out[n++] = out[0];
			out[0] = c;
		} else {
			out[n++] = c;
		}
	}
	if (rest && n < max) {
		struct ct_pass c = { .pmu = -1 };
		snprintf(c.section, sizeof c.section, "generic");
		size_t l = 0;
		for (int i = 0, k = 0; i < pmu_count(); i++) {
			const struct pmu *p = pmu_get(i);
			if (counts_on(p) && !own_table(p) && l < sizeof c.label)
				l += (size_t)snprintf(c.label + l, sizeof c.label - l, "%s%s",
						      k++ ? (k == rest ? " and " : ", ") : "", p->kernel_name);
		}
		out[n++] = c;
	}
	if (!n) {	/* no core PMU counts: the table of libpfm4's, to name and show */
		out[0] = (struct ct_pass){ .pmu = -1 };
		snprintf(out[0].section, sizeof out[0].section, "%s", core_name);
		n = 1;
	}
	return n;
}

/* coretype_generic_natives: see naming.h. */
int coretype_generic_natives(const char *name, int *idx, int max)
{
	int n = 0;
	for (int i = 0; i < pmu_count(); i++) {
		const struct pmu *p = pmu_get(i);
		if (!counts_on(p) || own_table(p))
			continue;
		char q[PAPI_HUGE_STR_LEN];
		snprintf(q, sizeof q, "%s/%s/", p->kernel_name, name);
		int r = n < max ? native_lookup(q, &idx[n]) : PAPI_ENOEVNT;
		if (r != PAPI_OK)
			return r == PAPI_ENOMEM ? r : 0;
		n++;
	}
	return n;
}

/* The program of d over its own terms, renumbered by map: its formula, or
 * term 0 as is (a single native). */
static int program(const struct ct_def *d, const int *map, struct formula **out)
{
	struct formula *id = NULL;
	int r = d->f ? PAPI_OK : formula_compile(NOT_DERIVED, NULL, 1, &id, NULL, 0);
	if (r == PAPI_OK)
		r = formula_remap(d->f ? d->f : id, map, out);
	formula_free(id);
	return r;
}

/* coretype_sum: see naming.h. */
int coretype_sum(const struct ct_def *a, const struct ct_def *b, struct ct_def *out)
{
	if (a->nterms + b->nterms > PAPI_EVENTS_IN_DERIVED_EVENT)
		return PAPI_EINVAL;
	struct formula *sub[2] = { NULL, NULL }, *add = NULL;
	int ma[PAPI_EVENTS_IN_DERIVED_EVENT], mb[PAPI_EVENTS_IN_DERIVED_EVENT];
	memset(out, 0, sizeof *out);
	for (int t = 0; t < a->nterms; t++) {
		ma[t] = out->nterms;
		out->ntv[out->nterms++] = a->ntv[t];
	}
	for (int t = 0; t < b->nterms; t++) {
		mb[t] = out->nterms;
		out->ntv[out->nterms++] = b->ntv[t];
	}
	int r = program(a, ma, &sub[0]);
	if (r == PAPI_OK)
		r = program(b, mb, &sub[1]);
	if (r == PAPI_OK)
		r = formula_compile(DERIVED_ADD, NULL, 2, &add, NULL, 0);
	if (r == PAPI_OK)
		r = formula_substitute(add, (const struct formula *const *)sub, 2, &out->f);
	formula_free(sub[0]);
	formula_free(sub[1]);
	formula_free(add);
	return r;
}

/* coretype_cover: see naming.h. */
void coretype_cover(const struct ct_pass *pass, int n, unsigned types, char *out, size_t len)
{
	char on[256] = "", off[256] = "";
	size_t lo = 0, lf = 0;
	for (int p = 0; p < n; p++) {
		int in = (types >> p) & 1u;
		char *b = in ? on : off;
		size_t *l = in ? &lo : &lf;
		if (*l < sizeof on)
			*l += (size_t)snprintf(b + *l, sizeof on - *l, "%s%s", *l ? " and " : "", pass[p].label);
	}
	if (off[0])
		snprintf(out, len, "Counts on %s only, not on %s.", on[0] ? on : "none", off);
	else
		snprintf(out, len, "Counts on %s, summed.", on);
}

/* ------------------------------------------------------------------ one core type's part */

/* coretype_list: see naming.h. */
int coretype_list(const char **names, int max, char *why, size_t len)
{
	char list[160];
	int n = 0, all = core_list(list, sizeof list);
	for (int i = 0; i < pmu_count(); i++)
		if (counts_on(pmu_get(i)) && n < max)
			names[n++] = pmu_get(i)->kernel_name;
	if (all < 2)
		return no_hybrid(all, list, why, len);
	if (n < 2) {
		snprintf(why, len, "the presets count on %s alone (a core type was selected)", only);
		return PAPI_ENOSUPP;
	}
	return n;
}

/* The index, in coretype_list's order, of the core type native idx counts
 * on; -1 when it counts on none of them (a software event, another PMU's). */
static int type_of(int idx)
{
	const struct native *nv = native_get(idx);
	if (!nv || nv->pmu < 0 || nv->cidx)
		return -1;
	const char *kn = pmu_get(nv->pmu)->kernel_name;
	for (int i = 0, k = 0; i < pmu_count(); i++) {
		const struct pmu *p = pmu_get(i);
		if (!counts_on(p))
			continue;
		if (!strcmp(p->kernel_name, kn))
			return k;
		k++;
	}
	return -1;
}

/* coretype_types: see naming.h. */
unsigned coretype_types(const struct derived_def *d)
{
	unsigned m = 0;
	for (int t = 0; t < d->nterms; t++) {
		int k = type_of(d->ntv[t]);
		if (k < 0 || k >= 32)
			return 0;
		m |= 1u << k;
	}
	return m;
}

/* coretype_part: see naming.h. */
long long coretype_part(const struct derived_def *d, const long long *vals, int k)
{
	long long in[PAPI_EVENTS_IN_DERIVED_EVENT];
	for (int t = 0; t < d->nterms && t < PAPI_EVENTS_IN_DERIVED_EVENT; t++)
		in[t] = type_of(d->ntv[t]) == k ? vals[t] : 0;
	return derived_eval(d, in);
}

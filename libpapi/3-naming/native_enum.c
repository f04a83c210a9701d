/* native_enum.c: listing the native events (PAPI_enum_cmp_event for perf_event): every event of each PMU libpfm4 detected, their unit masks and modifiers, then the sysfs-named core PMUs' events; their info and number, and the name the API gives each (native_api_name). */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "3-naming/naming.h"

/* naming.h brought the kernel's <linux/perf_event.h>; libpfm4's copy of the
 * same definitions would clash, so only its encoding interface is taken. */
#define __PERFMON_PERF_EVENT_H__
#include <perfmon/pfmlib_perf_event.h>

/* Intern "pmu::EVENT[qual]" for libpfm4 event ev of our PMU pmu. */
static int nt_intern(int pmu, int ev, const char *qual, int hint, int *code)
{
	pfm_event_info_t ei;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	if (pfm_get_event_info(ev, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return PAPI_ENOEVNT;
	char name[NATIVE_NAME_MAX + 1];
	int n = snprintf(name, sizeof name, "%s::%s%s", pmu_get(pmu)->name, ei.name, qual);
	if (n < 0 || n >= (int)sizeof name)
		return PAPI_EINVAL;
	int idx, r = native_resolve(name, hint, &idx);
	if (r == PAPI_OK)
		*code = PAPI_NATIVE_MASK | idx;
	return r;
}

static int first_event_from(int pmu)
{
	for (; pmu < pmu_count(); pmu++) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pmu_get(pmu)->pfm_type != PFM_PMU_TYPE_UNCORE &&
		    pfm_get_pmu_info(pmu_get(pmu)->pfm_pmu, &pi) == PFM_SUCCESS && pi.nevents > 0)
			return pmu;
	}
	return -1;
}

static int pmu_first_event(int pmu)
{
	pfm_pmu_info_t pi;
	memset(&pi, 0, sizeof pi);
	pi.size = sizeof pi;
	return pfm_get_pmu_info(pmu_get(pmu)->pfm_pmu, &pi) == PFM_SUCCESS ? pi.first_event : -1;
}

/* The code of event ev of pmu, or of the next one libpfm4 can describe. */
/* The code of the i-th event listed under PMU pmu, or of the next one
 * that resolves, the sysfs entries' lists one after the other. */
static int enum_sysfs(int pmu, int i, int *code)
{
	char name[NATIVE_NAME_MAX + 1];
	for (; pmu < pmu_count(); pmu++, i = 0)
		for (; native_sysfs_nth(pmu, i, name, sizeof name) == PAPI_OK; i++) {
			int idx;
			if (native_resolve(name, -1, &idx) == PAPI_OK) {
				*code = PAPI_NATIVE_MASK | idx;
				return PAPI_OK;
			}
		}
	return PAPI_ENOEVNT;
}

/* The code of libpfm4 event ev of pmu, or of the next one libpfm4 can
 * describe, then of the sysfs entries' events. */
static int enum_event(int pmu, int ev, int *code)
{
	for (;;) {
		while (ev < 0) {
			pmu = first_event_from(pmu + 1);
			if (pmu < 0)
				return enum_sysfs(0, 0, code);
			ev = pmu_first_event(pmu);
		}
		if (nt_intern(pmu, ev, "", -1, code) == PAPI_OK)
			return PAPI_OK;
		ev = pfm_get_event_next(ev);
	}
}

static int enum_umask(const struct native *e, int *code)
{
	pfm_event_info_t ei;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	if (pfm_get_event_info(e->pfm_idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return PAPI_ENOEVNT;
	for (int k = e->umask_only ? e->attr_idx + 1 : 0; k < ei.nattrs; k++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(e->pfm_idx, k, PFM_OS_PERF_EVENT_EXT, &ai) != PFM_SUCCESS)
			continue;
		char q[PAPI_MAX_STR_LEN];
		if (ai.type == PFM_ATTR_UMASK)
			snprintf(q, sizeof q, ":%s", ai.name);
		else if (ai.type == PFM_ATTR_MOD_BOOL || ai.type == PFM_ATTR_MOD_INTEGER)
			snprintf(q, sizeof q, ":%s=0", ai.name);
		else
			continue;
		if (nt_intern(e->pmu, e->pfm_idx, q, k, code) == PAPI_OK)
			return PAPI_OK;
	}
	return PAPI_ENOEVNT;
}

/* native_enum: PAPI_enum_cmp_event for native codes of component cidx.
 * PAPI_ENUM_FIRST: the first event of the first detected PMU.
 * PAPI_ENUM_EVENTS: the event after *code (every event of every PMU libpfm4
 * detected, whether or not the kernel can count it; see native_usable).
 * PAPI_NTV_ENUM_UMASKS: the umasks then the modifiers (":mod=0") of *code's
 * event, each as its own code. Codes are table indexes, stable in a process.
 * Returns PAPI_OK, PAPI_ENOEVNT (no more), PAPI_ENOCMP (bad cidx or code),
 * PAPI_EINVAL (other modifiers, as PAPI 7). */
int native_enum(int *code, int modifier, int cidx)
{
	if (!code)
		return PAPI_EINVAL;
	if (cidx != 0)
		return PAPI_ENOCMP;
	int r = native_init();
	if (r != PAPI_OK)
		return r;
	if (modifier == PAPI_ENUM_FIRST) {
		int pmu = first_event_from(0);
		return pmu < 0 ? enum_sysfs(0, 0, code) : enum_event(pmu, pmu_first_event(pmu), code);
	}
	if (modifier != PAPI_ENUM_EVENTS && modifier != PAPI_NTV_ENUM_UMASKS)
		return PAPI_EINVAL;
	const struct native *e = native_get(*code & PAPI_NATIVE_AND_MASK);
	if (!(*code & PAPI_NATIVE_MASK) || !e || e->cidx != 0)
		return PAPI_ENOCMP;
	if (modifier == PAPI_NTV_ENUM_UMASKS)
		return e->sysfs ? PAPI_ENOEVNT : enum_umask(e, code);
	if (e->sysfs) {		/* an event not listed has no next one */
		int pos = native_sysfs_index(e->pmu, e->name);
		return pos < 0 ? PAPI_ENOEVNT : enum_sysfs(e->pmu, pos + 1, code);
	}
	return enum_event(e->pmu, pfm_get_event_next(e->pfm_idx), code);
}

PAPI_FIRST_DATA static atomic_int names_qualified;

/* native_names_qualified: see naming.h. */
void native_names_qualified(int on)
{
	atomic_store(&names_qualified, on != 0);
}

/* native_api_name: see naming.h. Only libpfm4's own names of its default
 * core PMU lose the PMU: not the sysfs-named ones, nor another
 * component's. */
const char *native_api_name(const struct native *e)
{
	if (!e->name || e->cidx != 0 || e->sysfs || e->pmu < 0 || e->pfm_idx < 0 ||
	    atomic_load_explicit(&names_qualified, memory_order_relaxed) ||
	    e->pmu != pmu_default_core())
		return e->name;
	const char *sep = strstr(e->name, "::");
	return sep ? sep + 2 : e->name;
}

/* native_info: fill info for native index idx as PAPI 7's perf_event component
 * does: symbol (native_api_name's), long description, component 0,
 * everything else zero. PAPI_OK or PAPI_ENOEVNT. */
int native_info(int idx, PAPI_event_info_t *info)
{
	const struct native *e = native_get(idx);
	if (!e || e->cidx != 0)
		return PAPI_ENOEVNT;
	memset(info, 0, sizeof *info);
	info->event_code = (unsigned)(PAPI_NATIVE_MASK | idx);
	snprintf(info->symbol, sizeof info->symbol, "%s", native_api_name(e));
	snprintf(info->long_descr, sizeof info->long_descr, "%s", e->desc);
	info->component_index = 0;
	return PAPI_OK;
}

/* native_count: see internal.h. */
int native_count(void)
{
	if (native_init() != PAPI_OK)
		return 0;
	int n = pmu_pfm_events();
	for (int i = 0; i < pmu_count(); i++)
		n += native_sysfs_count(i);
	return n;
}

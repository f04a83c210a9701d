/* components.c: the component list (one CPU component, "perf_event"), its description, and disabling it. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <perfmon/pfmlib.h>

#include "4-components/components.h"

#define NCMP 1
/* Events PAPI can multiplex in one EventSet (PAPI 7's PAPI_MAX_SW_MPX_EVENTS). */
#define MPX_MAX 384

static const char *const cmp_names[NCMP] = { "perf_event" };

PAPI_FIRST_DATA static pthread_mutex_t cmp_lock = PTHREAD_MUTEX_INITIALIZER;
PAPI_FIRST_DATA static int disabled_by_call[NCMP];	/* PAPI_disable_component*: kept across shutdown */
PAPI_FIRST_DATA static int disabled_by_env[NCMP];
PAPI_FIRST_DATA static int env_read;			/* PAPI_DISABLE_COMPONENTS read for this init */
static PAPI_component_info_t info[NCMP];
static int info_ready;
static char pmu_names[PAPI_PMU_MAX][64];

static void cmp_forget(void)
{
	pthread_mutex_lock(&cmp_lock);
	env_read = 0;
	info_ready = 0;
	pthread_mutex_unlock(&cmp_lock);
}

/* PAPI_DISABLE_COMPONENTS=name,name... is read once per initialization
 * (lock held). */
static void cmp_read_env(void)
{
	if (env_read || !lib_ready())
		return;
	env_read = 1;
	papi_on_shutdown(cmp_forget);
	const char *env = getenv("PAPI_DISABLE_COMPONENTS");
	for (int c = 0; c < NCMP; c++) {
		disabled_by_env[c] = 0;
		size_t n = strlen(cmp_names[c]);
		for (const char *p = env; p && *p; p += strcspn(p, ",:"), p += !!*p)
			if (strncmp(p, cmp_names[c], n) == 0 && (p[n] == ',' || p[n] == ':' || !p[n]))
				disabled_by_env[c] = 1;
	}
}

/* cmp_disabled: see internal.h. */
int cmp_disabled(int cidx)
{
	if (cidx < 0 || cidx >= NCMP)
		return -1;
	pthread_mutex_lock(&cmp_lock);
	cmp_read_env();
	int d = disabled_by_call[cidx] || disabled_by_env[cidx];
	pthread_mutex_unlock(&cmp_lock);
	return d;
}

/* PAPI_num_components: how many components this library has (1). */
int PAPI_num_components(void)
{
	return NCMP;
}

/* PAPI_get_component_index: the index of the component called name.
 * PAPI_EINVAL (NULL), PAPI_ENOCMP (no such component). */
int PAPI_get_component_index(const char *name)
{
	if (!name)
		return PAPI_EINVAL;
	for (int c = 0; c < NCMP; c++)
		if (strcmp(name, cmp_names[c]) == 0)
			return c;
	return PAPI_ENOCMP;
}

/* PAPI_disable_component: disable component cidx for the next
 * PAPI_library_init; its events then neither resolve nor enumerate.
 * PAPI_ENOCMP (bad cidx), PAPI_ENOINIT (already initialized: as PAPI 7, it
 * only works before PAPI_library_init). */
int PAPI_disable_component(int cidx)
{
	if (cidx < 0 || cidx >= NCMP)
		return PAPI_ENOCMP;
	if (lib_ready())
		return PAPI_ENOINIT;
	pthread_mutex_lock(&cmp_lock);
	disabled_by_call[cidx] = 1;
	info_ready = 0;
	pthread_mutex_unlock(&cmp_lock);
	return PAPI_OK;
}

/* PAPI_disable_component_by_name: as PAPI_disable_component.
 * PAPI_EINVAL (NULL), PAPI_ENOCMP, PAPI_ENOINIT. */
int PAPI_disable_component_by_name(const char *name)
{
	if (!name)
		return PAPI_EINVAL;
	int c = PAPI_get_component_index(name);
	return c < 0 ? c : PAPI_disable_component(c);
}

/* Fill info[0] (lock held). The component stays enabled without a hardware
 * PMU, since software events count; pmu_core_unavailable_reason() tells why
 * hardware events do not (PAPI 7's struct has no field for half-enabled). */
static void cmp_fill(void)
{
	PAPI_component_info_t *ci = &info[0];
	memset(ci, 0, sizeof *ci);
	snprintf(ci->name, sizeof ci->name, "%s", cmp_names[0]);
	snprintf(ci->short_name, sizeof ci->short_name, "perf");
	snprintf(ci->description, sizeof ci->description, "Linux perf_event CPU counters");
	snprintf(ci->version, sizeof ci->version, "%s", PAPI_TOOL_VERSION);
	int v = pfm_get_version();
	snprintf(ci->support_version, sizeof ci->support_version, "libpfm4 %d.%d",
		 PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(ci->kernel_version, sizeof ci->kernel_version, "%.*s",
			 (int)sizeof ci->kernel_version - 1, u.release);
	ci->CmpIdx = 0;
	if (disabled_by_call[0] || disabled_by_env[0]) {
		ci->disabled = PAPI_ECMP;
		snprintf(ci->disabled_reason, sizeof ci->disabled_reason, "Disabled by %s",
			 disabled_by_call[0] ? "PAPI_disable_component()" : "PAPI_DISABLE_COMPONENTS");
		return;
	}
	ci->initialized = 1;
	ci->num_native_events = native_count();
	int np = 0;
	for (int i = 0; i < pmu_count(); i++) {
		const struct pmu *p = pmu_get(i);
		if (p->pfm_type == PFM_PMU_TYPE_CORE && !pmu_core_unavailable_reason() && !ci->num_cntrs)
			ci->num_cntrs = p->num_cntrs + p->num_fixed;
		if (np < PAPI_PMU_MAX) {
			snprintf(pmu_names[np], sizeof pmu_names[np], "%s", p->name);
			ci->pmu_names[np] = pmu_names[np];
			np++;
		}
	}
	ci->num_mpx_cntrs = MPX_MAX;
	ci->default_domain = PAPI_DOM_USER;
	ci->available_domains = PAPI_DOM_USER | PAPI_DOM_KERNEL | PAPI_DOM_SUPERVISOR;
	ci->default_granularity = PAPI_GRN_THR;
	ci->available_granularities = PAPI_GRN_THR | PAPI_GRN_SYS;
	ci->hardware_intr_sig = SIGRTMIN + 2;
	ci->hardware_intr = 1;
	ci->kernel_profile = 1;
	ci->kernel_multiplex = 1;
	ci->fast_real_timer = 1;
	ci->attach = 1;
	ci->cntr_umasks = 1;
	ci->cpu = 1;
	ci->inherit = 1;
}

/* PAPI_get_component_info: the description of component cidx, NULL when
 * cidx is out of range. Valid until PAPI_shutdown. Before PAPI_library_init
 * (as PAPI 7 allows) the native event count triggers libpfm4's start-up. */
const PAPI_component_info_t *PAPI_get_component_info(int cidx)
{
	if (cidx < 0 || cidx >= NCMP)
		return NULL;
	pthread_mutex_lock(&cmp_lock);
	cmp_read_env();
	if (!info_ready) {
		cmp_fill();
		info_ready = lib_ready();
	}
	pthread_mutex_unlock(&cmp_lock);
	return &info[cidx];
}

/* PAPI_num_cmp_hwctrs: counters of component cidx (0 without a hardware PMU).
 * PAPI_ENOINIT, PAPI_ENOCMP. */
int PAPI_num_cmp_hwctrs(int cidx)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	return ci ? ci->num_cntrs : PAPI_ENOCMP;
}

/* PAPI_num_hwctrs: PAPI_num_cmp_hwctrs(0), for old programs. */
int PAPI_num_hwctrs(void)
{
	return PAPI_num_cmp_hwctrs(0);
}

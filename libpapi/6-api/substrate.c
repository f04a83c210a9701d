/* substrate.c: PAPI_get_substrate_info, PAPI 3.5's description of the CPU substrate, answered from component 0 (perf_event). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "6-api/hl.h"

static PAPI_substrate_info_t sub;
static pthread_mutex_t sub_lock = PTHREAD_MUTEX_INITIALIZER;

/* Presets this machine defines and can count (what PAPI 3.5 counted). */
static int presets_here(void)
{
	int code = PAPI_PRESET_MASK, n = 0;
	if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) != PAPI_OK)
		return 0;
	do
		n += PAPI_query_event(code) == PAPI_OK;
	while (PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL) == PAPI_OK);
	return n;
}

/* PAPI_get_substrate_info: the CPU substrate as PAPI 3.5 described it:
 * component 0's names, versions, counters, event counts, domains,
 * granularities and capabilities, the software multiplexing timer
 * (PAPI_DEF_ITIMER), and what the core PMU's events can qualify (edge
 * detection and inversion: x86 PMUs, when the kernel has one here). The
 * pointer stays valid; each call refreshes what it points to. NULL before
 * PAPI_library_init. (PAPI 3.5's PAPI_get_opt(PAPI_SUBSTRATEINFO) has PAPI
 * 7's number for PAPI_COMPONENTINFO, which answers with a
 * PAPI_component_info_t: this call is the way to the old struct.) */
const PAPI_substrate_info_t *PAPI_get_substrate_info(void)
{
	if (!lib_ready())
		return NULL;
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	if (!ci)
		return NULL;
	PAPI_option_t opt;
	memset(&opt, 0, sizeof opt);
	int have_timer = PAPI_get_opt(PAPI_DEF_ITIMER, &opt) == PAPI_OK;
	int npre = ci->disabled ? 0 : presets_here();
	int core_here = 0;
#if defined(__x86_64__) || defined(__i386__)
	for (int i = 0; !ci->disabled && i < pmu_count(); i++) {
		const struct pmu *p = pmu_get(i);
		if (p && p->pfm_type == 1 /* PFM_PMU_TYPE_CORE */ && p->kernel_type >= 0)
			core_here = 1;
	}
#endif
	pthread_mutex_lock(&sub_lock);
	memset(&sub, 0, sizeof sub);
	snprintf(sub.name, sizeof sub.name, "%s", ci->name);
	snprintf(sub.version, sizeof sub.version, "%s", ci->version);
	snprintf(sub.support_version, sizeof sub.support_version, "%s", ci->support_version);
	snprintf(sub.kernel_version, sizeof sub.kernel_version, "%s", ci->kernel_version);
	sub.num_cntrs = ci->num_cntrs;
	sub.num_mpx_cntrs = ci->num_mpx_cntrs;
	sub.num_preset_events = npre;
	sub.num_native_events = ci->num_native_events;
	sub.default_domain = ci->default_domain;
	sub.available_domains = ci->available_domains;
	sub.default_granularity = ci->default_granularity;
	sub.available_granularities = ci->available_granularities;
	if (have_timer) {
		sub.multiplex_timer_sig = opt.itimer.itimer_sig;
		sub.multiplex_timer_num = opt.itimer.itimer_num;
		sub.multiplex_timer_us = opt.itimer.ns / 1000;
	}
	sub.hardware_intr_sig = ci->hardware_intr_sig;
	sub.hardware_intr = ci->hardware_intr;
	sub.precise_intr = ci->precise_intr;
	sub.posix1b_timers = ci->posix1b_timers;
	sub.kernel_profile = ci->kernel_profile;
	sub.kernel_multiplex = ci->kernel_multiplex;
	sub.fast_counter_read = ci->fast_counter_read;
	sub.fast_real_timer = ci->fast_real_timer;
	sub.fast_virtual_timer = ci->fast_virtual_timer;
	sub.attach = ci->attach;
	sub.attach_must_ptrace = ci->attach_must_ptrace;
	sub.edge_detect = (unsigned)core_here;
	sub.invert = (unsigned)core_here;
	pthread_mutex_unlock(&sub_lock);
	return &sub;
}

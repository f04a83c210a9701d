/* t_substrate.c: PAPI_get_substrate_info, PAPI 3.5's struct filled from component 0 (perf_event). */
#include <string.h>

#include "internal.h"
#include "tap.h"

int main(void)
{
	ok(PAPI_get_substrate_info() == NULL, "NULL before PAPI_library_init");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	const PAPI_substrate_info_t *s = PAPI_get_substrate_info();
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	ok(s != NULL && ci != NULL, "the substrate and component 0");
	if (!s || !ci)
		return tap_done();
	is_str(s->name, "perf_event", "the substrate is perf_event");
	is_str(s->version, ci->version, "its version");
	is_str(s->support_version, ci->support_version, "libpfm4's version (%s)", s->support_version);
	is_str(s->kernel_version, ci->kernel_version, "the kernel's");
	is_int(s->num_cntrs, ci->num_cntrs, "counters");
	is_int(s->num_mpx_cntrs, ci->num_mpx_cntrs, "multiplexed counters");
	is_int(s->num_native_events, ci->num_native_events, "native events");
	ok(s->num_native_events > 0, "some native events (%d)", s->num_native_events);
	int code = PAPI_PRESET_MASK, npre = 0;
	if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK)
		do
			npre += PAPI_query_event(code) == PAPI_OK;
		while (PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL) == PAPI_OK);
	is_int(s->num_preset_events, npre, "presets counted here");
	is_int(s->default_domain, PAPI_DOM_USER, "default domain user");
	is_int(s->available_domains, ci->available_domains, "domains");
	is_int(s->default_granularity, PAPI_GRN_THR, "default granularity thread");
	is_int(s->available_granularities, ci->available_granularities, "granularities");
	is_int(s->hardware_intr_sig, ci->hardware_intr_sig, "overflow signal");
	ok(s->hardware_intr && s->kernel_multiplex && s->kernel_profile && s->attach,
	   "interrupts, kernel multiplexing and profiling, attach");
	ok(!s->data_address_range && !s->instr_address_range && !s->profile_ear && !s->opcode_match_width,
	   "no Itanium features");
	PAPI_option_t o;
	memset(&o, 0, sizeof o);
	is_int(PAPI_get_opt(PAPI_DEF_ITIMER, &o), PAPI_OK, "the multiplexing timer");
	is_int(s->multiplex_timer_sig, o.itimer.itimer_sig, "its signal");
	is_int(s->multiplex_timer_num, o.itimer.itimer_num, "its itimer");
	is_int(s->multiplex_timer_us, o.itimer.ns / 1000, "its interval in microseconds");
	o.itimer.ns = 2500000;
	is_int(PAPI_set_opt(PAPI_DEF_ITIMER, &o), PAPI_OK, "a 2.5 ms interval");
	s = PAPI_get_substrate_info();
	is_int(s->multiplex_timer_us, 2500, "the substrate says so at the next call");
	int core = 0;
	for (int i = 0; i < pmu_count(); i++)
		core |= pmu_get(i)->pfm_type == 1 && pmu_get(i)->kernel_type >= 0;
#if !defined(__x86_64__) && !defined(__i386__)
	core = 0;
#endif
	is_int(s->edge_detect, core, "edge detection: an x86 core PMU in this kernel");
	is_int(s->invert, core, "inversion too");
	PAPI_shutdown();
	ok(PAPI_get_substrate_info() == NULL, "NULL after PAPI_shutdown");
	return tap_done();
}

/* sizes.c: how the calls that callers size buffers with answer, printed one per line, for comparing this library with PAPI 7.0 (built against either papi.h, run on either libpapi.so.7.0).
 * Prints only what does not depend on the machine (return codes, counts the
 * program made, relations between answers); sizes.expected holds PAPI 7.0's
 * output. Exit 0, or 1 when the library cannot be initialized or cannot
 * count perf::TASK-CLOCK and perf::PAGE-FAULTS here (nothing printed then). */
#include <stdio.h>
#include <string.h>

#include "papi.h"

/* The Fortran calls, as gfortran calls them. */
void papif_list_events_(int *es, int *events, int *number, int *check);
void papif_num_events_(int *es, int *count);
void papif_create_eventset_(int *es, int *check);
void papif_add_named_event_(int *es, char *name, int *check, size_t len);

#define P(...) printf(__VA_ARGS__), putchar('\n'), fflush(stdout)

static const char *sign(long v)
{
	return v > 0 ? "positive" : v == 0 ? "zero" : "negative";
}

int main(void)
{
	int es = PAPI_NULL, empty = PAPI_NULL, r, n, codes[8], c1, c2;
	PAPI_option_t o;

	memset(&o, 0, sizeof o);
	P("before init: get_opt(DEBUG, &o) %d", PAPI_get_opt(PAPI_DEBUG, &o));
	P("before init: get_opt(MAX_HWCTRS, NULL) %d", PAPI_get_opt(PAPI_MAX_HWCTRS, NULL));
	/* (before init PAPI 7.0 says PAPI_ENOEVST, this library PAPI_ENOINIT) */
	P("before init: num_events(1) %s", sign(PAPI_num_events(1)));
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return 1;
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_create_eventset(&empty) != PAPI_OK ||
	    PAPI_event_name_to_code("perf::TASK-CLOCK", &c1) != PAPI_OK ||
	    PAPI_event_name_to_code("perf::PAGE-FAULTS", &c2) != PAPI_OK || PAPI_add_event(es, c1) != PAPI_OK ||
	    PAPI_add_event(es, c2) != PAPI_OK)
		return 1;

	/* ---- PAPI_list_events and PAPI_num_events */
	n = 0;
	r = PAPI_list_events(es, NULL, &n);
	P("list_events(es2, NULL, &0) %d n=%d", r, n);
	n = 0;
	codes[0] = -5;
	r = PAPI_list_events(es, codes, &n);
	P("list_events(es2, codes, &0) %d n=%d codes[0]-untouched=%d", r, n, codes[0] == -5);
	n = 1;
	r = PAPI_list_events(es, codes, &n);
	P("list_events(es2, codes, &1) %d n=%d codes[0]-is-first=%d", r, n, codes[0] == c1);
	n = 8;
	r = PAPI_list_events(es, codes, &n);
	P("list_events(es2, codes, &8) %d n=%d in-order=%d", r, n, codes[0] == c1 && codes[1] == c2);
	n = 3;
	r = PAPI_list_events(es, NULL, &n);
	P("list_events(es2, NULL, &3) %d n=%d", r, n);
	n = -1;
	r = PAPI_list_events(es, codes, &n);
	P("list_events(es2, codes, &-1) %d n=%d", r, n);
	n = 0;
	r = PAPI_list_events(empty, NULL, &n);
	P("list_events(empty, NULL, &0) %d n=%d", r, n);
	n = 4;
	r = PAPI_list_events(empty, codes, &n);
	P("list_events(empty, codes, &4) %d n=%d", r, n);
	n = 0;
	r = PAPI_list_events(12345, NULL, &n);
	P("list_events(bad, NULL, &0) %d n=%d", r, n);
	n = 4;
	r = PAPI_list_events(12345, codes, &n);
	P("list_events(bad, codes, &4) %d", r);
	P("num_events(es2) %d", PAPI_num_events(es));
	P("num_events(empty) %d", PAPI_num_events(empty));
	P("num_events(bad) %d", PAPI_num_events(12345));

	/* ---- the same from Fortran */
	int fes = PAPI_NULL, chk = 1, fn = 0, fcodes[4];
	papif_create_eventset_(&fes, &chk);
	char name[] = "perf::TASK-CLOCK        ";
	papif_add_named_event_(&fes, name, &chk, sizeof name - 1);
	P("PAPIF_add_named_event (blank-padded) %d", chk);
	papif_num_events_(&fes, &fn);
	P("PAPIF_num_events %d", fn);
	fn = 0;
	papif_list_events_(&fes, fcodes, &fn, &chk);
	P("PAPIF_list_events(&0) %d n=%d", chk, fn);
	fn = 4;
	papif_list_events_(&fes, fcodes, &fn, &chk);
	P("PAPIF_list_events(&4) %d n=%d code-is-task-clock=%d", chk, fn, fcodes[0] == c1);

	/* ---- PAPI_list_threads */
	unsigned long tids[4];
	n = 0;
	r = PAPI_list_threads(NULL, &n);
	P("list_threads(NULL, &0) %d n=%d", r, n);
	n = 0;
	r = PAPI_list_threads(tids, &n);
	P("list_threads(tids, &0) %d", r);
	r = PAPI_register_thread();
	n = 0;
	r = PAPI_list_threads(NULL, &n);
	P("registered: list_threads(NULL, &0) %d n=%d", r, n);
	n = 4;
	r = PAPI_list_threads(tids, &n);
	P("registered: list_threads(tids, &4) %d n=%d is-self=%d", r, n, n == 1 && tids[0] == PAPI_thread_id());
	r = PAPI_list_threads(tids, NULL);
	P("list_threads(tids, NULL) %d", r);

	/* ---- PAPI_get_opt: the options that answer with their return value */
	const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
	r = PAPI_get_opt(PAPI_MAX_HWCTRS, NULL);
	P("get_opt(MAX_HWCTRS, NULL) equals num_hwctrs: %d", r == PAPI_num_hwctrs());
	r = PAPI_get_opt(PAPI_MAX_HWCTRS, &o);
	P("get_opt(MAX_HWCTRS, &o) equals num_hwctrs: %d", r == PAPI_num_hwctrs());
	r = PAPI_get_opt(PAPI_MAX_MPX_CTRS, NULL);
	P("get_opt(MAX_MPX_CTRS, NULL) %s", sign(r));
	P("get_opt(DEFDOM, NULL) %d", PAPI_get_opt(PAPI_DEFDOM, NULL));
	P("get_opt(DEFGRN, NULL) %d", PAPI_get_opt(PAPI_DEFGRN, NULL));
	r = PAPI_get_opt(PAPI_CLOCKRATE, NULL);
	P("get_opt(CLOCKRATE, NULL) equals cpu_max_mhz: %d", r == hw->cpu_max_mhz);
	r = PAPI_get_opt(PAPI_MAX_CPUS, NULL);
	P("get_opt(MAX_CPUS, NULL) equals ncpu: %d", r == hw->ncpu);
	P("get_opt(LIB_VERSION, NULL) %#x", PAPI_get_opt(PAPI_LIB_VERSION, NULL));
	P("get_cmp_opt(MAX_HWCTRS, NULL, 0) equals num_cmp_hwctrs: %d",
	  PAPI_get_cmp_opt(PAPI_MAX_HWCTRS, NULL, 0) == PAPI_num_cmp_hwctrs(0));
	P("get_cmp_opt(DEFDOM, NULL, 0) %d", PAPI_get_cmp_opt(PAPI_DEFDOM, NULL, 0));
	P("get_cmp_opt(MAX_HWCTRS, NULL, 999) %d", PAPI_get_cmp_opt(PAPI_MAX_HWCTRS, NULL, 999));

	/* options that fill the structure */
	P("get_opt(HWINFO, NULL) %d", PAPI_get_opt(PAPI_HWINFO, NULL));
	memset(&o, 0, sizeof o);
	r = PAPI_get_opt(PAPI_HWINFO, &o);
	P("get_opt(HWINFO, &o) %d same-as-get_hardware_info=%d", r, o.hw_info == hw);
	P("get_opt(EXEINFO, NULL) %d", PAPI_get_opt(PAPI_EXEINFO, NULL));
	memset(&o, 0, sizeof o);
	r = PAPI_get_opt(PAPI_EXEINFO, &o);
	P("get_opt(EXEINFO, &o) %d same-as-get_executable_info=%d", r, o.exe_info == PAPI_get_executable_info());
	memset(&o, 0, sizeof o);
	r = PAPI_get_opt(PAPI_SHLIBINFO, &o);
	P("get_opt(SHLIBINFO, &o) %d set=%d", r, o.shlib_info != NULL);
	P("get_opt(COMPONENTINFO, NULL) %d", PAPI_get_opt(PAPI_COMPONENTINFO, NULL));
	memset(&o, 0, sizeof o);
	r = PAPI_get_opt(PAPI_COMPONENTINFO, &o);
	P("get_opt(COMPONENTINFO, &o) %d same-as-component-0=%d", r, o.cmp_info == PAPI_get_component_info(0));
	memset(&o, 0, sizeof o);
	r = PAPI_get_opt(PAPI_DEBUG, &o);
	P("get_opt(DEBUG, &o) %d level=%d", r, o.debug.level);
	P("get_opt(DEBUG, NULL) %d", PAPI_get_opt(PAPI_DEBUG, NULL));
	memset(&o, 0, sizeof o);
	r = PAPI_get_opt(PAPI_PRELOAD, &o);
	P("get_opt(PRELOAD, &o) %d", r);
	memset(&o, 0, sizeof o);
	r = PAPI_get_opt(PAPI_DEF_MPX_NS, &o);
	P("get_opt(DEF_MPX_NS, &o) %d ns %s", r, sign(o.multiplex.ns));
	memset(&o, 0, sizeof o);
	r = PAPI_get_opt(PAPI_DEF_ITIMER_NS, &o);
	P("get_opt(DEF_ITIMER_NS, &o) %d ns %s", r, sign(o.itimer.ns));
	memset(&o, 0, sizeof o);
	r = PAPI_get_opt(PAPI_DEF_ITIMER, &o);
	P("get_opt(DEF_ITIMER, &o) %d", r);

	/* per-set options: the set goes in, the answer comes back */
	memset(&o, 0, sizeof o);
	o.multiplex.eventset = es;
	P("get_opt(MULTIPLEX, es2) %d", PAPI_get_opt(PAPI_MULTIPLEX, &o));
	memset(&o, 0, sizeof o);
	o.inherit.eventset = es;
	r = PAPI_get_opt(PAPI_INHERIT, &o);
	P("get_opt(INHERIT, es2) %d inherit=%d", r, o.inherit.inherit);
	memset(&o, 0, sizeof o);
	o.domain.eventset = es;
	r = PAPI_get_opt(PAPI_DOMAIN, &o);
	P("get_opt(DOMAIN, es2) %d domain=%d", r, o.domain.domain);
	memset(&o, 0, sizeof o);
	o.granularity.eventset = es;
	r = PAPI_get_opt(PAPI_GRANUL, &o);
	P("get_opt(GRANUL, es2) %d granularity=%d", r, o.granularity.granularity);
	memset(&o, 0, sizeof o);
	o.attach.eventset = es;
	P("get_opt(ATTACH, es2) %d", PAPI_get_opt(PAPI_ATTACH, &o));
	memset(&o, 0, sizeof o);
	o.attach.eventset = es;
	P("get_opt(DETACH, es2) %d", PAPI_get_opt(PAPI_DETACH, &o));
	/* (PAPI 7.0 crashes on CPU_ATTACH for a set not attached to a CPU.) */
	memset(&o, 0, sizeof o);
	o.multiplex.eventset = 12345;
	P("get_opt(MULTIPLEX, bad) %d", PAPI_get_opt(PAPI_MULTIPLEX, &o));
	P("get_opt(MULTIPLEX, NULL) %d", PAPI_get_opt(PAPI_MULTIPLEX, NULL));
	P("get_opt(9999, &o) %d", PAPI_get_opt(9999, &o));

	/* ---- enumeration and event information */
	int code = PAPI_PRESET_MASK, k = 0;
	if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK)
		do
			k++;
		while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
	P("presets enumerated (PAPI_ENUM_EVENTS) %d", k);
	code = PAPI_PRESET_MASK;
	P("enum_event(PRESET_MASK, FIRST) %d code=%#x", PAPI_enum_event(&code, PAPI_ENUM_FIRST), code);
	code = PAPI_NATIVE_MASK;
	r = PAPI_enum_event(&code, PAPI_ENUM_FIRST);
	P("enum_event(NATIVE_MASK, FIRST) %d native=%d", r, IS_NATIVE(code));
	code = 0;
	P("enum_event(0, FIRST) %d", PAPI_enum_event(&code, PAPI_ENUM_FIRST));
	/* (an unknown modifier: PAPI 7.0 enumerates on, this library says
	 * PAPI_EINVAL) */

	PAPI_event_info_t in;
	memset(&in, 0, sizeof in);
	r = PAPI_get_event_info(c1, &in);
	P("get_event_info(perf::TASK-CLOCK) %d code-same=%d count=%d symbol-has-name=%d", r, (int)in.event_code == c1,
	  (int)in.count, strstr(in.symbol, "TASK-CLOCK") != NULL);
	memset(&in, 0, sizeof in);
	r = PAPI_get_event_info(PAPI_TOT_CYC, &in);
	P("get_event_info(PAPI_TOT_CYC) %d symbol=%s", r, in.symbol);
	P("get_event_info(PAPI_TOT_CYC, NULL) %d", PAPI_get_event_info(PAPI_TOT_CYC, NULL));
	P("get_event_info(0x4fffffff) %d", PAPI_get_event_info(0x4fffffff, &in));
	P("get_event_info(0) %d", PAPI_get_event_info(0, &in));
	return 0;
}

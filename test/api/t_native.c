/* t_native.c: native event names, codes, qualifiers, enumeration and info on the running kernel. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"
#include "ntv_walk.h"

static const char *const sw_events[] = { "perf::TASK-CLOCK", "perf::PAGE-FAULTS",
					  "perf::CONTEXT-SWITCHES" };

static void before_init(void)
{
	int code = 0;
	char name[PAPI_MAX_STR_LEN];
	PAPI_event_info_t info;
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK", &code), PAPI_ENOINIT, "name_to_code before init");
	is_int(PAPI_event_code_to_name(PAPI_NATIVE_MASK, name), PAPI_ENOINIT, "code_to_name before init");
	code = PAPI_NATIVE_MASK;
	is_int(PAPI_enum_event(&code, PAPI_ENUM_FIRST), PAPI_ENOINIT, "enum_event before init");
	is_int(PAPI_get_event_info(PAPI_NATIVE_MASK, &info), PAPI_ENOINIT, "get_event_info before init");
	is_int(PAPI_query_named_event("perf::TASK-CLOCK"), PAPI_ENOINIT, "query_named_event before init");
}

static void names(void)
{
	int code, again;
	char name[PAPI_MAX_STR_LEN];
	for (size_t i = 0; i < sizeof sw_events / sizeof *sw_events; i++) {
		is_int(PAPI_event_name_to_code(sw_events[i], &code), PAPI_OK, "%s resolves", sw_events[i]);
		ok((code & PAPI_NATIVE_MASK) && !(code & PAPI_PRESET_MASK), "%s is a native code", sw_events[i]);
		is_int(PAPI_event_code_to_name(code, name), PAPI_OK, "%s: code back to a name", sw_events[i]);
		is_str(name, sw_events[i], "%s: round trip", sw_events[i]);
		is_int(PAPI_event_name_to_code(name, &again), PAPI_OK, "%s: name resolves again", sw_events[i]);
		is_int(again, code, "%s: same code the second time", sw_events[i]);
		is_int(PAPI_query_event(code), PAPI_OK, "%s: query_event", sw_events[i]);
		is_int(PAPI_get_event_component(code), 0, "%s: component 0", sw_events[i]);
	}
	int a, b, c;
	PAPI_event_name_to_code("perf::TASK-CLOCK", &a);
	is_int(PAPI_event_name_to_code("TASK-CLOCK", &b), PAPI_OK, "name without PMU prefix resolves");
	is_int(b, a, "TASK-CLOCK and perf::TASK-CLOCK share one code");
	is_int(PAPI_event_name_to_code("perf::task-clock", &c), PAPI_OK, "case-insensitive spelling resolves");
	is_int(c, a, "perf::task-clock shares the code");
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK:u=1", &c), PAPI_OK, "qualifier :u=1 accepted");
	ok(c != a, "a qualified name has its own code");
	is_int(PAPI_event_code_to_name(c, name), PAPI_OK, "qualified code to name");
	is_str(name, "perf::TASK-CLOCK:u=1", "qualified name kept");
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK:bogus=1", &c), PAPI_ENOEVNT, "unknown qualifier -> ENOEVNT (as PAPI 7)");
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK:u=7", &c), PAPI_ENOEVNT, "bad qualifier value -> ENOEVNT (as PAPI 7)");
	is_int(PAPI_event_name_to_code("perf::NO_SUCH_EVENT", &c), PAPI_ENOEVNT, "unknown event -> ENOEVNT");
	is_int(PAPI_event_name_to_code("NO_SUCH_EVENT_AT_ALL", &c), PAPI_ENOEVNT, "unknown bare name -> ENOEVNT");
	is_int(PAPI_event_name_to_code("", &c), PAPI_ENOEVNT, "empty name -> ENOEVNT");
	/* PAPI 7's component prefix: natives of our one component resolve, other
	 * components are named in the reason, presets never take a prefix. */
	is_int(PAPI_event_name_to_code("perf_event:::perf::TASK-CLOCK", &c), PAPI_OK,
	       "perf_event:::perf::TASK-CLOCK resolves");
	is_int(c, a, "the prefixed name shares the code");
	is_int(PAPI_event_name_to_code("perf_event:::TASK-CLOCK", &c), PAPI_OK,
	       "perf_event:::TASK-CLOCK resolves");
	is_int(c, a, "prefix without PMU shares the code");
	is_int(PAPI_event_name_to_code("perf_event:::PAPI_TOT_CYC", &c), PAPI_ENOEVNT,
	       "a preset with a component prefix -> ENOEVNT (as PAPI 7)");
	is_int(PAPI_event_name_to_code("nosuchcmp:::READ_BYTES", &c), PAPI_ENOEVNT,
	       "event of a component this library lacks -> ENOEVNT");
	ok(strstr(papi_last_reason(), "no component \"nosuchcmp\"") != NULL, "reason names the component: '%s'",
	   papi_last_reason());
	is_int(PAPI_event_name_to_code(":::TASK-CLOCK", &c), PAPI_ENOEVNT, "empty component -> ENOEVNT");
	ok(strstr(papi_last_reason(), "nothing before ':::'") != NULL, "reason says so: '%s'",
	   papi_last_reason());
	/* ":::" after a pmu:: name is a qualifier typo, not a component: no
	 * reason about components. */
	static const char *const stray[] = { "perf::TASK-CLOCK:::", "perf::TASK-CLOCK:u:::",
					     "perf::TASK-CLOCK:::u" };
	for (size_t i = 0; i < sizeof stray / sizeof *stray; i++) {
		is_int(PAPI_event_name_to_code(stray[i], &c), PAPI_ENOEVNT, "%s -> ENOEVNT", stray[i]);
		ok(strstr(papi_last_reason(), "':::' after the event name") != NULL &&
		   !strstr(papi_last_reason(), "component \""), "%s: the reason is the qualifiers: '%s'",
		   stray[i], papi_last_reason());
	}
	/* A PMU libpfm4 knows but did not detect: said so, with the variable
	 * that names its events (skx, else zen3 on a Skylake-X; on arm64, whose
	 * libpfm4 has ARM tables only, a64fx, else n1 on an A64FX). */
#if defined(__aarch64__)
	const char *other = "arm_a64fx::CPU_CYCLES", *var = "LIBPFM_FORCE_PMU=arm_a64fx";
	for (int i = 0; i < pmu_count(); i++)
		if (!strcmp(pmu_get(i)->name, "arm_a64fx"))
			other = "arm_n1::CPU_CYCLES", var = "LIBPFM_FORCE_PMU=arm_n1";
#else
	const char *other = "skx::L1D:REPLACEMENT", *var = "LIBPFM_FORCE_PMU=skx";
	for (int i = 0; i < pmu_count(); i++)
		if (!strcmp(pmu_get(i)->name, "skx"))
			other = "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS", var = "LIBPFM_FORCE_PMU=amd64_fam19h_zen3";
#endif
	if (getenv("LIBPFM_FORCE_PMU")) {
		skip("LIBPFM_FORCE_PMU is set", "a PMU that is not this machine's");
	} else {
		is_int(PAPI_event_name_to_code(other, &c), PAPI_ENOEVNT, "%s -> ENOEVNT", other);
		ok(strstr(papi_last_reason(), "is not this machine's") && strstr(papi_last_reason(), var),
		   "%s: the reason says the PMU is another machine's and names %s: '%s'", other, var,
		   papi_last_reason());
		is_int(PAPI_event_name_to_code("nosuchpmu::X", &c), PAPI_ENOEVNT, "nosuchpmu::X -> ENOEVNT");
		ok(!strstr(papi_last_reason(), "LIBPFM_FORCE_PMU"), "an unknown PMU is not offered: '%s'",
		   papi_last_reason());
	}
	is_int(PAPI_event_name_to_code(NULL, &c), PAPI_EINVAL, "NULL name -> EINVAL");
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK", NULL), PAPI_EINVAL, "NULL out -> EINVAL");
	char *big = malloc(100001);
	memset(big, 'A', 100000);
	big[100000] = '\0';
	is_int(PAPI_event_name_to_code(big, &c), PAPI_ENOEVNT, "100000-char name -> ENOEVNT (as PAPI 7)");
	memcpy(big, "perf::", 6);
	is_int(PAPI_event_name_to_code(big, &c), PAPI_ENOEVNT, "100000-char perf:: name -> ENOEVNT");
	ok(strstr(papi_last_reason(), "longer than any event name"), "the reason says so: %s", papi_last_reason());
	free(big);
	is_int(PAPI_event_code_to_name(PAPI_NATIVE_MASK | 0xfffff, name), PAPI_ENOEVNT, "unknown native code -> ENOEVNT");
	is_int(PAPI_event_code_to_name(0, name), PAPI_ENOEVNT, "code 0 -> ENOEVNT");
	is_int(PAPI_event_code_to_name(a, NULL), PAPI_EINVAL, "NULL buffer -> EINVAL");
	is_int(PAPI_query_event(PAPI_NATIVE_MASK | 0xfffff), PAPI_ENOCMP, "query of unknown native code (PAPI 7: ENOCMP)");
	is_int(PAPI_get_event_component(PAPI_NATIVE_MASK | 0xfffff), PAPI_ENOEVNT, "component of unknown native code");
	is_int(PAPI_query_named_event("perf::PAGE-FAULTS"), PAPI_OK, "query_named_event finds a software event");
	is_int(PAPI_query_named_event("perf::NO_SUCH_EVENT"), PAPI_ENOEVNT, "query_named_event of unknown");
	is_int(PAPI_query_named_event(NULL), PAPI_EINVAL, "query_named_event(NULL)");
}

static void info(void)
{
	int code;
	PAPI_event_info_t in;
	PAPI_event_name_to_code("perf::TASK-CLOCK", &code);
	memset(&in, 0x5a, sizeof in);
	is_int(PAPI_get_event_info(code, &in), PAPI_OK, "get_event_info of perf::TASK-CLOCK");
	is_int((int)in.event_code, code, "info.event_code");
	is_str(in.symbol, "perf::TASK-CLOCK", "info.symbol");
	ok(strlen(in.long_descr) > 0, "info.long_descr filled (%s)", in.long_descr);
	is_int(in.component_index, 0, "info.component_index");
	is_str(in.derived, "", "info.derived empty for a native");
	is_str(in.postfix, "", "info.postfix empty for a native");
	is_int(in.count, 0, "info.count 0 for a native (PAPI 7)");
	is_int(in.data_type, PAPI_DATATYPE_INT64, "info.data_type");
	is_int(in.value_type, PAPI_VALUETYPE_RUNNING_SUM, "info.value_type");
	is_int(PAPI_get_event_info(code, NULL), PAPI_EINVAL, "get_event_info(NULL)");
	is_int(PAPI_get_event_info(PAPI_NATIVE_MASK | 0xfffff, &in), PAPI_ENOCMP, "info of unknown native (PAPI 7: ENOCMP)");
	PAPI_event_name_to_code("perf::TASK-CLOCK:u=1", &code);
	PAPI_get_event_info(code, &in);
	ok(strstr(in.long_descr, "masks:") != NULL, "qualifier described in long_descr (%s)", in.long_descr);
}

/* PAPI 7 names the events of libpfm4's default core PMU (the first core PMU
 * it detected) without their PMU, unit masks and qualifiers kept
 * ("RETIRED_SSE_AVX_FLOPS:ANY:u=1"); every other PMU's keep theirs
 * (perf::TASK-CLOCK). Either spelling resolves to the one code. */
static void default_pmu(void)
{
	const struct pmu *p = pmu_get(pmu_default_core());
	if (!p) {
		skip("libpfm4 knows no core PMU here", "default PMU names");
		return;
	}
	char pfx[80], name[PAPI_MAX_STR_LEN], full[2 * PAPI_MAX_STR_LEN];
	snprintf(pfx, sizeof pfx, "%s::", p->name);
	size_t pl = strlen(pfx);
	int code = PAPI_NATIVE_MASK, bare = 0, other = 0, bad = 0, umask = -1, plain = -1, back;
	for (int r = PAPI_enum_event(&code, PAPI_ENUM_FIRST); r == PAPI_OK;
	     r = PAPI_enum_event(&code, PAPI_ENUM_EVENTS)) {
		const struct native *n = native_get(code & PAPI_NATIVE_AND_MASK);
		PAPI_event_info_t in;
		if (!n || PAPI_event_code_to_name(code, name) != PAPI_OK ||
		    PAPI_get_event_info(code, &in) != PAPI_OK || strcmp(in.symbol, name)) {
			bad++;
			continue;
		}
		int ours = !strncmp(n->name, pfx, pl);
		if (ours && plain < 0)
			plain = code;
		bare += ours;
		other += !ours;
		if (strcmp(name, ours ? n->name + pl : n->name) ||
		    PAPI_event_name_to_code(n->name, &back) != PAPI_OK || back != code) {
			if (bad++ < 3)
				diag("%s is named %s", n->name, name);
		}
		int u = code;
		if (ours && umask < 0 && PAPI_enum_event(&u, PAPI_NTV_ENUM_UMASKS) == PAPI_OK &&
		    PAPI_event_code_to_name(u, name) == PAPI_OK && !strchr(name, '='))
			umask = u;
	}
	ok(bare > 0 && other > 0, "%s's events named without their PMU (%d), the others' with it (%d)",
	   p->name, bare, other);
	is_int(bad, 0, "each named so by code_to_name and info.symbol, its full name resolving to its code");
	/* an ARM core PMU's events have no unit masks, only qualifiers */
	if (!ok(umask >= 0 || plain >= 0, "an event of %s", p->name))
		return;
	PAPI_event_code_to_name(umask >= 0 ? umask : plain, name);
	if (umask >= 0)
		ok(!strstr(name, "::") && strchr(name, ':'), "unit mask entry named without the PMU (%s)", name);
	else
		skip("this PMU's events have no unit masks", "a unit mask entry named without the PMU");
	snprintf(full, sizeof full, "%s%s:u=1", pfx, name);
	int c1 = 0, c2 = -1;
	is_int(PAPI_event_name_to_code(full, &c1), PAPI_OK, "%s has a code", full);
	is_int(PAPI_event_code_to_name(c1, name), PAPI_OK, "and a name");
	is_str(name, full + pl, "the same without the PMU, qualifiers kept");
	is_int(PAPI_event_name_to_code(name, &c2), PAPI_OK, "which resolves");
	is_int(c2, c1, "to the same code");
}

static void enumeration(void)
{
	int code = PAPI_NATIVE_MASK, n = 0, bad = 0, found = 0, quals = 0;
	char name[PAPI_MAX_STR_LEN];
	int r = PAPI_enum_event(&code, PAPI_ENUM_FIRST);
	is_int(r, PAPI_OK, "enum FIRST");
	for (; r == PAPI_OK; r = PAPI_enum_event(&code, PAPI_ENUM_EVENTS)) {
		int back;
		n++;
		if (PAPI_event_code_to_name(code, name) != PAPI_OK ||
		    PAPI_event_name_to_code(name, &back) != PAPI_OK || back != code) {
			if (bad++ < 3)
				diag("round trip failed for %#x %s", code, name);
			continue;
		}
		for (size_t i = 0; i < sizeof sw_events / sizeof *sw_events; i++)
			found += strcmp(name, sw_events[i]) == 0;
		int u = code;
		while (PAPI_enum_event(&u, PAPI_NTV_ENUM_UMASKS) == PAPI_OK) {
			quals++;
			if (PAPI_event_code_to_name(u, name) != PAPI_OK)
				bad++;
			else if (PAPI_event_name_to_code(name, &back) != PAPI_OK)
				quals--;	/* listed, not encodable: walk() */
			else if (back != u)
				bad++;
		}
	}
	is_int(r, PAPI_ENOEVNT, "enumeration ends with ENOEVNT");
	ok(n > 20, "enumeration lists events (%d)", n);
	is_int(found, 3, "enumeration lists the three software events");
	is_int(bad, 0, "every enumerated code converts to a name and back");
	ok(quals > 0, "software events list their modifiers as qualifier codes (%d)", quals);
	code = PAPI_NATIVE_MASK;
	is_int(PAPI_enum_event(&code, 99), PAPI_EINVAL, "bad modifier -> EINVAL");
	is_int(PAPI_enum_event(&code, PAPI_NTV_ENUM_GROUPS), PAPI_EINVAL, "ENUM_GROUPS -> EINVAL (as PAPI 7)");
	code = PAPI_NATIVE_MASK | 0xfffff;
	is_int(PAPI_enum_event(&code, PAPI_ENUM_EVENTS), PAPI_ENOCMP, "enum from unknown code -> ENOCMP");
	code = 0;
	is_int(PAPI_enum_event(&code, PAPI_ENUM_FIRST), PAPI_EINVAL, "enum from code 0 -> EINVAL");
	is_int(PAPI_enum_event(NULL, PAPI_ENUM_FIRST), PAPI_EINVAL, "enum NULL -> EINVAL");
	code = PAPI_NATIVE_MASK;
	is_int(PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, 0), PAPI_OK, "enum_cmp_event component 0");
	is_int(PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, PAPI_num_components()), PAPI_ENOCMP,
	       "enum_cmp_event past the last component -> ENOCMP");
	is_int(PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, -1), PAPI_ENOCMP, "enum_cmp_event component -1 -> ENOCMP");
}

/* The unit-mask walk lists every unit mask and modifier libpfm4 gives an
 * event, as PAPI 7 lists them, ":period=0" and ":freq=0" (which libpfm4
 * will not encode alone) included: such a code has its name and
 * description, adding it fails, and the name is refused by a lookup before
 * the walk and after it alike. */
static void walk(void)
{
	int code, again;
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK:period=0", &code), PAPI_ENOEVNT,
	       "perf::TASK-CLOCK:period=0 is refused by name (libpfm4 encodes no period 0)");
	int c = PAPI_NATIVE_MASK, events = 0, walked = 0, bad = 0, colon = 0, n;
	for (int r = PAPI_enum_cmp_event(&c, PAPI_ENUM_FIRST, 0); r == PAPI_OK;
	     r = PAPI_enum_cmp_event(&c, PAPI_ENUM_EVENTS, 0)) {
		PAPI_event_info_t in;
		if (PAPI_get_event_info(c, &in) != PAPI_OK || strchr(in.symbol, '/'))
			continue;	/* sysfs's PMU/EVENT/ names: no walk */
		/* papi_event_chooser prints what follows a qualifier's first
		 * colon as its description: an event's own has none (perf::'s
		 * software events are described by this library) */
		if (!strncmp(in.symbol, "perf::", 6) && strchr(in.long_descr, ':') && colon++ < 3)
			diag("%s: a colon in \"%s\"", in.symbol, in.long_descr);
		int b = ntv_walk_check(c, in.symbol, &n);
		events++;
		walked += n;
		bad += b < 0 ? 1 : b;
		if (!strcmp(in.symbol, "perf::TASK-CLOCK"))
			code = c;
	}
	ok(events > 10 && walked > events, "%d events walked, %d qualifiers listed", events, walked);
	is_int(bad, 0, "each walk lists libpfm4's unit masks and modifiers, in its order");
	is_int(colon, 0, "no perf:: event's description has a colon");
	int u = code, es = PAPI_NULL, found = 0;
	char name[PAPI_MAX_STR_LEN];
	while (!found && PAPI_enum_event(&u, PAPI_NTV_ENUM_UMASKS) == PAPI_OK)
		found = PAPI_event_code_to_name(u, name) == PAPI_OK &&
			!strcmp(name, "perf::TASK-CLOCK:period=0");
	ok(found, "the walk of perf::TASK-CLOCK gives :period=0 a code");
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create");
	is_int(PAPI_add_event(es, u), PAPI_ENOEVNT, "adding that code: ENOEVNT");
	PAPI_destroy_eventset(&es);
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK:period=0", &again), PAPI_ENOEVNT,
	       "and the name is still refused");
}

static void presets(void)
{
	int code, n = 1;
	char name[PAPI_MAX_STR_LEN];
	is_int(PAPI_event_name_to_code("PAPI_TOT_CYC", &code), PAPI_OK, "PAPI_TOT_CYC resolves");
	is_int(code, PAPI_TOT_CYC, "PAPI_TOT_CYC code");
	is_int(PAPI_event_code_to_name(PAPI_L1_DCM, name), PAPI_OK, "preset code to name");
	is_str(name, "PAPI_L1_DCM", "PAPI_L1_DCM name");
	is_int(PAPI_event_name_to_code("PAPI_NO_SUCH", &code), PAPI_ENOEVNT, "unknown preset -> ENOEVNT");
	is_int(PAPI_event_code_to_name(PAPI_PRESET_MASK | 200, name), PAPI_ENOTPRESET, "preset out of range -> ENOTPRESET");
	code = PAPI_PRESET_MASK;
	is_int(PAPI_enum_event(&code, PAPI_ENUM_FIRST), PAPI_OK, "preset enum FIRST");
	while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK)
		n++;
	is_int(n, PAPI_END_idx, "preset enumeration walks every preset");
}

int main(void)
{
	before_init();
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	names();
	info();
	enumeration();
	default_pmu();
	walk();
	presets();
	PAPI_shutdown();
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init after shutdown");
	int code;
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK", &code), PAPI_OK, "lookup works after re-init");
	PAPI_shutdown();
	return tap_done();
}

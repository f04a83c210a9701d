/* avail.c: `papi avail`: the preset and user-defined events, whether each can be counted here, and why not. */
#include "cli.h"
#include "cmds.h"
#include "tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

enum { O_BR = CLI_LONG(0), O_CACHE, O_CND, O_FP, O_INS, O_IDL, O_L1, O_L2, O_L3, O_MEM, O_MSC,
       O_TLB, O_NAMES };

static const struct cli_opt opts[] = {
	{ "avail", 'a', no_argument, NULL, "list only the events that can be counted here" },
	{ "check", 'c', no_argument, NULL, "like -a, after adding and starting each event" },
	{ "detail", 'd', no_argument, NULL, "describe each event in full" },
	{ "event", 'e', required_argument, "EVENT", "describe one preset, user or native event" },
	{ "table", 't', no_argument, NULL, "tabular output (the default)" },
	{ "br", O_BR, no_argument, NULL, "branch presets" },
	{ "cache", O_CACHE, no_argument, NULL, "cache presets" },
	{ "cnd", O_CND, no_argument, NULL, "conditional presets" },
	{ "fp", O_FP, no_argument, NULL, "floating-point presets" },
	{ "ins", O_INS, no_argument, NULL, "instruction presets" },
	{ "idl", O_IDL, no_argument, NULL, "stalled or idle presets" },
	{ "l1", O_L1, no_argument, NULL, "level 1 cache presets" },
	{ "l2", O_L2, no_argument, NULL, "level 2 cache presets" },
	{ "l3", O_L3, no_argument, NULL, "level 3 cache presets" },
	{ "mem", O_MEM, no_argument, NULL, "memory presets" },
	{ "msc", O_MSC, no_argument, NULL, "miscellaneous presets" },
	{ "tlb", O_TLB, no_argument, NULL, "TLB presets" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ "names", O_NAMES, no_argument, NULL, "only the event names, one a line" },
	{ 0 },
};

static const struct cli_spec spec = {
	"avail", "[OPTION]...",
	"List PAPI's preset events and the user-defined events (PAPI_USER_EVENTS_FILE),\n"
	"whether each can be counted on this machine, and how it is derived.\n"
	"Category filters combine with OR.",
	opts, 0,
};

/* Category options, in the order of the enum, and their PAPI_PRESET_ENUM_*. */
static const int cat_enum[] = {
	PAPI_PRESET_ENUM_BR, PAPI_PRESET_ENUM_CACH, PAPI_PRESET_ENUM_CND, PAPI_PRESET_ENUM_FP,
	PAPI_PRESET_ENUM_INS, PAPI_PRESET_ENUM_IDL, PAPI_PRESET_ENUM_L1, PAPI_PRESET_ENUM_L2,
	PAPI_PRESET_ENUM_L3, PAPI_PRESET_ENUM_MEM, PAPI_PRESET_ENUM_MSC, PAPI_PRESET_ENUM_TLB,
};

struct av {
	int only_avail, check, detail, json, names;
	unsigned cats;
	int total, avail, derived;
	struct json j;
};

/* Can code be added and started here? (-c) */
static int countable(int code)
{
	int es = PAPI_NULL, ok = 0;
	long long v[1];
	if (PAPI_create_eventset(&es) != PAPI_OK)
		return 0;
	if (PAPI_add_event(es, code) == PAPI_OK && PAPI_start(es) == PAPI_OK)
		ok = PAPI_stop(es, v) == PAPI_OK;
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return ok;
}

/* PAPI_get_event_info, with the definition of a preset or user event shown
 * even when the kernel cannot count it (the public call leaves it empty). */
static int event_info(int code, PAPI_event_info_t *in)
{
	if (IS_NATIVE(code))
		return PAPI_get_event_info(code, in);
	return presets_info_full(code, in);
}

/* Whether code is listed as available. Under LIBPFM_FORCE_PMU a preset whose
 * natives resolve for the forced PMU is, though the kernel may lack that PMU
 * (PAPI_query_event says no then): the point of forcing is to see the table
 * that PMU gets, and the closing note says what availability means. */
static int listed_avail(int code)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	if (forced && *forced && !IS_NATIVE(code))
		return presets_resolves(code) == PAPI_OK;
	return PAPI_query_event(code) == PAPI_OK;
}

static int is_derived(const PAPI_event_info_t *in)
{
	return in->count > 1 || (in->derived[0] && strcmp(in->derived, "NOT_DERIVED") != 0);
}

static void detail(const PAPI_event_info_t *in, int avail)
{
	printf("Event name:                   %s\n", in->symbol);
	printf("Event Code:                   0x%08x\n", in->event_code);
	printf("Number of Native Events:      %u\n", in->count);
	printf("Short Description:            |%s|\n", in->short_descr);
	printf("Long Description:             |%s|\n", in->long_descr);
	printf("Developer's Notes:            |%s|\n", in->note);
	printf("Derived Type:                 |%s|\n", in->derived);
	printf("Postfix Processing String:    |%s|\n", in->postfix);
	for (unsigned i = 0; i < in->count && i < PAPI_MAX_INFO_TERMS; i++)
		printf(" Native Code[%u]: 0x%08x |%s|\n", i, in->code[i], in->name[i]);
	printf("Available here:               %s\n\n", avail ? "yes" : "no");
}

static void json_event(struct json *j, const PAPI_event_info_t *in, int avail)
{
	json_obj_begin(j);
	json_kstr(j, "name", in->symbol);
	json_kint(j, "code", in->event_code);
	json_kbool(j, "available", avail);
	json_kbool(j, "derived", is_derived(in));
	json_kstr(j, "derived_type", in->derived);
	json_kstr(j, "postfix", in->postfix);
	json_kstr(j, "description", in->long_descr);
	json_kstr(j, "short_description", in->short_descr);
	json_kstr(j, "note", in->note);
	json_key(j, "natives");
	json_arr_begin(j);
	for (unsigned i = 0; i < in->count && i < PAPI_MAX_INFO_TERMS; i++)
		json_str(j, in->name[i]);
	json_arr_end(j);
	json_obj_end(j);
}

/* One table: the walk from code (PAPI_PRESET_MASK or PAPI_UE_MASK) with
 * modifier start, then next: PAPI 7.2's papi_avail walks the CPU's presets
 * (PAPI_ENUM_FIRST, PAPI_PRESET_ENUM_CPU), then those of the components
 * (PAPI_PRESET_ENUM_FIRST_COMP, PAPI_ENUM_EVENTS); user events as before. */
static void list_walk(struct av *a, int code, int start, int next)
{
	int shown = 0;
	if (PAPI_enum_event(&code, start) != PAPI_OK)
		return;
	do {
		PAPI_event_info_t in;
		if (event_info(code, &in) != PAPI_OK)
			continue;
		if (a->cats && !(in.event_type & a->cats))
			continue;
		int avail = listed_avail(code);
		if (avail && a->check)
			avail = countable(code);
		a->total++;
		a->avail += avail;
		a->derived += avail && is_derived(&in);
		if ((a->only_avail || a->check) && !avail)
			continue;
		if (a->names) {
			printf("%s\n", in.symbol);
		} else if (a->json) {
			json_event(&a->j, &in, avail);
		} else if (a->detail) {
			detail(&in, avail);
		} else {
			if (!shown++)
				printf("    Name        Code    Avail Deriv Description (Note)\n");
			printf("%-13s0x%08x  %-4s  %-4s %s", in.symbol, in.event_code, avail ? "Yes" : "No",
			       is_derived(&in) ? "Yes" : "No", in.long_descr);
			printf(in.note[0] ? " (%s)\n" : "%s\n", in.note);
		}
	} while (PAPI_enum_event(&code, next) == PAPI_OK);
	if (!shown && !a->names && !a->json && !a->detail)
		printf("    (none)\n");
}

/* The CPU's presets (from PAPI_PRESET_MASK) or the user events (PAPI_UE_MASK). */
static void list(struct av *a, int first)
{
	list_walk(a, first, PAPI_ENUM_FIRST,
		  first == PAPI_PRESET_MASK ? PAPI_PRESET_ENUM_CPU : PAPI_ENUM_EVENTS);
}

/* Whether a component other than the CPU's has presets (PAPI 7.2). */
static int comp_presets(void)
{
	int code = PAPI_PRESET_MASK;
	return PAPI_enum_event(&code, PAPI_PRESET_ENUM_FIRST_COMP) == PAPI_OK;
}

/* The components' presets, PAPI 7.2's second walk. */
static void list_comp(struct av *a)
{
	list_walk(a, PAPI_PRESET_MASK, PAPI_PRESET_ENUM_FIRST_COMP, PAPI_ENUM_EVENTS);
}

static void header(void)
{
	const PAPI_hw_info_t *hw = PAPI_get_hardware_info();
	int core = -1;
	for (int i = 0; i < pmu_count(); i++)
		if (core < 0 && pmu_get(i)->pfm_type == PFM_PMU_TYPE_CORE && !pmu_get(i)->sysfs)
			core = i;
	printf("Available PAPI preset and user defined events plus hardware information.\n");
	printf("--------------------------------------------------------------------------------\n");
	printf("PAPI version             : %d.%d.%d.%d\n", PAPI_VERSION_MAJOR(PAPI_VERSION),
	       PAPI_VERSION_MINOR(PAPI_VERSION), PAPI_VERSION_REVISION(PAPI_VERSION),
	       PAPI_VERSION_INCREMENT(PAPI_VERSION));
	if (hw) {
		printf("Vendor string and code   : %s (%d)\n", hw->vendor_string, hw->vendor);
		printf("Model string and code    : %s (%d)\n", hw->model_string, hw->model);
		printf("CPU Max MHz              : %d\n", hw->cpu_max_mhz);
		printf("Total cores              : %d\n", hw->totalcpus);
		printf("Running in a VM          : %s\n", hw->virtualized ? "yes" : "no");
	}
	if (core >= 0)
		printf("Core PMU (libpfm4)       : %s (%s)\n", pmu_get(core)->name, pmu_get(core)->desc);
	for (int i = 0; i < pmu_count(); i++)
		if (pmu_get(i)->sysfs && pmu_get(i)->pfm_type == PFM_PMU_TYPE_CORE)
			printf("Core PMU (kernel, sysfs) : %s (%s)\n", pmu_get(i)->name, pmu_get(i)->desc);
	printf("Number Hardware Counters : %d\n", PAPI_num_cmp_hwctrs(0));
	printf("--------------------------------------------------------------------------------\n");
}

/* Why nothing (or only a table) can be counted here; NULL when hardware can. */
static const char *why_none(void)
{
	return pmu_core_unavailable_reason();
}

static int one_event(const char *name)
{
	int code;
	PAPI_event_info_t in;
	int r = PAPI_event_name_to_code(name, &code);
	char nwhy[PAPI_HUGE_STR_LEN];
	if (r != PAPI_OK) {
		cli_name_why(name, r, nwhy, sizeof nwhy);
		return *name ? cli_error(spec.name, "%s: %s", name, nwhy) : cli_error(spec.name, "%s", nwhy);
	}
	if ((r = event_info(code, &in)) != PAPI_OK)
		return cli_error(spec.name, "%s: %s", name, PAPI_strerror(r));
	if (IS_NATIVE(code)) {
		printf("Event name:                   %s\n", in.symbol);
		printf("Event Code:                   0x%08x\n", in.event_code);
		printf("Long Description:             |%s|\n", in.long_descr);
		return CLI_OK;
	}
	int avail = listed_avail(code);
	detail(&in, avail);
	if (!avail && in.count) {
		const char *why = why_none();
		if (!why)
			why = presets_why(code);
		printf("%s is not available here: %s\n", in.symbol,
		       why ? why : "its native events cannot be counted");
	} else if (!avail) {
		const char *why = presets_why_undefined(code);
		if (why)
			printf("%s is not available here: this CPU's preset table defines it, but %s\n",
			       in.symbol, why);
		else
			printf("%s is not available here: this CPU's preset table does not define it\n",
			       in.symbol);
	}
	return CLI_OK;
}

int cmd_avail(int argc, char **argv)
{
	struct cli_ctx c;
	struct av a = { 0 };
	const char *event = NULL;
	int o, n;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1) {
		switch (o) {
		case 'a': a.only_avail = 1; break;
		case 'c': a.check = 1; break;
		case 'd': a.detail = 1; break;
		case 'e': event = c.optarg; break;
		case 't': break;
		case 'j': a.json = 1; break;
		case O_NAMES: a.names = 1; break;
		default:
			if (o >= O_BR && o <= O_TLB)
				a.cats |= 1u << cat_enum[o - O_BR];
		}
	}
	cli_operands(&c, &n);
	if (n)
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);
	if (a.json && a.names)
		return cli_usage(spec.name, "--json and --names exclude each other");
	int r = PAPI_library_init(PAPI_VER_CURRENT);
	if (r != PAPI_VER_CURRENT)
		return cli_error(spec.name, "cannot initialize the library: %s", PAPI_strerror(r));
	event_env_report(spec.name);
	if ((a.only_avail || a.check) && cli_can_count(spec.name) != 0)
		return CLI_FAIL;
	if (event) {
		if (!a.json)
			header();
		return cli_finish(spec.name, cli_unread(spec.name, one_event(event)));
	}
	const char *why = why_none(), *forced = getenv("LIBPFM_FORCE_PMU");
	if (a.json) {
		json_init(&a.j, stdout, 1);
		json_obj_begin(&a.j);
		json_kstr(&a.j, "hardware_pmu_reason", why);
		json_kbool(&a.j, "generic_presets", presets_generic());
		json_kstr(&a.j, "generic_note", cli_generic_note());
		json_key(&a.j, "presets");
		json_arr_begin(&a.j);
		list(&a, PAPI_PRESET_MASK);
		json_arr_end(&a.j);
		json_key(&a.j, "component_presets");
		json_arr_begin(&a.j);
		list_comp(&a);
		json_arr_end(&a.j);
		json_key(&a.j, "user_events");
		json_arr_begin(&a.j);
		list(&a, PAPI_UE_MASK);
		json_arr_end(&a.j);
		json_kint(&a.j, "total", a.total);
		json_kint(&a.j, "available", a.avail);
		json_kint(&a.j, "derived", a.derived);
		json_obj_end(&a.j);
		json_end(&a.j);
		return cli_finish(spec.name, cli_unread(spec.name, CLI_OK));
	}
	if (a.names) {
		list(&a, PAPI_PRESET_MASK);
		list_comp(&a);
		list(&a, PAPI_UE_MASK);
		return cli_finish(spec.name, cli_unread(spec.name, CLI_OK));
	}
	header();
	printf("================================================================================\n");
	printf("  PAPI Preset Events\n");
	printf("================================================================================\n");
	list(&a, PAPI_PRESET_MASK);
	if (comp_presets()) {
		printf("================================================================================\n");
		printf("  PAPI Component Preset Events\n");
		printf("================================================================================\n");
		list_comp(&a);
	}
	int code = PAPI_UE_MASK;
	if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK) {
		printf("================================================================================\n");
		printf("  User Defined Events\n");
		printf("================================================================================\n");
		list(&a, PAPI_UE_MASK);
	}
	printf("--------------------------------------------------------------------------------\n");
	printf("Of %d possible events, %d are available, of which %d are derived.\n", a.total, a.avail,
	       a.derived);
	if (cli_generic_note())	/* the kernel's own events: counting is for real */
		printf("\n%s\n", cli_generic_note());
	else if (pmu_forced_unknown())	/* said on stderr: the table is empty for it */
		printf("\nNo preset can be available: %s.\n", pmu_forced_unknown());
	else if (forced && *forced)
		printf("\nLIBPFM_FORCE_PMU=%s: availability means the events resolve for that PMU;\n"
		       "counting them needs a machine that has it.\n", forced);
	else if (why)
		printf("\nNo hardware PMU is exposed to this system: %s.\n"
		       "Only software events (perf::TASK-CLOCK, perf::PAGE-FAULTS, ...) can be "
		       "counted;\nuser-defined events built on them work (PAPI_USER_EVENTS_FILE).\n", why);
	return cli_finish(spec.name, cli_unread(spec.name, CLI_OK));
}

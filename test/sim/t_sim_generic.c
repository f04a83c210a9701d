/* t_sim_generic.c: a CPU libpfm4 does not know, on the simulated PMU with a fake sysfs tree: the generic preset table, events named from sysfs and raw terms, a hybrid's two core PMUs, and no driver at all. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sim/sim_pmu.h"
#include "tap.h"
#include "pmu_child.h"

/* The sysfs files of an x86 core PMU the kernel knows and libpfm4 does
 * not (format as Intel's and AMD's drivers write it; events as the kernel
 * names its generic ones, so "instructions" and "branch-misses" are named
 * here and "cycles" is not), and of an msr PMU, which is no core PMU. */
static void x86_tree(const char *pmu)
{
	static const char *const files[][2] = {
		{ "format/event", "config:0-7,32-35" },
		{ "format/umask", "config:8-15" },
		{ "format/edge", "config:18" },
		{ "format/inv", "config:23" },
		{ "format/cmask", "config:24-31" },
		{ "events/cpu-cycles", "event=0x3c" },
		{ "events/instructions", "event=0xc0" },
		{ "events/branch-instructions", "event=0xc4" },
		{ "events/branch-misses", "event=0xc5" },
		{ "events/mem-stores", "event=0xd0,umask=0x82" },
		{ "events/mem-stores.scale", "64" },
		{ "events/mem-stores.unit", "Bytes" },
	};
	char rel[128];
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(rel, sizeof rel, "%s/%s", pmu, files[i][0]);
		if (sim_sysfs_write(rel, files[i][1]) < 0)
			ok(0, "write %s: %s", rel, strerror(errno));
	}
}

static void msr_tree(void)
{
	sim_sysfs_write("msr/type", "9");
	sim_sysfs_write("msr/format/event", "config:0-63");
	sim_sysfs_write("msr/events/tsc", "event=0x00");
}

/* The rates of the simulated CPU: generic events on PERF_TYPE_HARDWARE
 * and _HW_CACHE, named ones as raw codes of type 4. */
#define INS_RAW 3	/* instructions per cycle, raw 0xc0 */
static void declare(void)
{
	sim_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, SIM_FIXED(1) | SIM_ANY_GP, 1, 1);
	sim_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, SIM_FIXED(0) | SIM_ANY_GP, 7, 1);
	sim_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, SIM_ANY_GP, 1, 5);
	sim_event(PERF_TYPE_RAW, 0xc0, SIM_FIXED(0) | SIM_ANY_GP, INS_RAW, 1);
	sim_event(PERF_TYPE_RAW, 0xc5, SIM_ANY_GP, 1, 50);
	sim_event(PERF_TYPE_RAW, 0x3c, SIM_FIXED(1) | SIM_ANY_GP, 1, 1);
	sim_event(PERF_TYPE_RAW, 0x28001c4, SIM_ANY_GP, 1, 7);
	sim_event(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
		  PERF_COUNT_HW_CACHE_RESULT_MISS << 16, SIM_ANY_GP, 1, 100);
	/* An AMD-like driver: no reference cycles, no LLC events. */
	sim_event_refuse(PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, ENOENT);
	sim_event_refuse(PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_OP_READ << 8 |
			 PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16, ENOENT);
}

static int fd_of_type(uint32_t type, uint64_t config, int *found)
{
	for (int fd = 0; fd < 1024; fd++) {
		const struct perf_event_attr *a = sim_attr(fd);
		if (a && a->type == type && a->config == config) {
			*found = fd;
			return 1;
		}
	}
	return 0;
}

/* The unknown CPU's presets come from the generic table and count. */
static void generic_presets(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init");
	ok(pmu_core_unavailable_reason() == NULL, "hardware events can be counted: %s",
	   pmu_core_unavailable_reason() ? pmu_core_unavailable_reason() : "yes");
	const char *s = pmu_core_sysfs();
	ok(s && strstr(s, "cpu: LIBPFM_FORCE_PMU=nowhere names no core PMU libpfm4 knows, so its events are named from the kernel's sysfs"),
	   "the core PMU is named from sysfs, and why: %s",
	   s ? s : "(null)");
	is_int(presets_generic(), 1, "the generic table is in use");
	is_int(PAPI_num_cmp_hwctrs(0), 5, "counters: as many instruction counters as the kernel "
	       "accepts in a group (4 general and the fixed one)");
	is_int(PAPI_get_component_info(0)->num_cntrs, 5, "the component's info, asked after, agrees");
	static const int avail[] = { PAPI_TOT_CYC, PAPI_TOT_INS, PAPI_BR_INS, PAPI_BR_MSP, PAPI_L1_DCM };
	for (size_t i = 0; i < sizeof avail / sizeof *avail; i++) {
		char n[PAPI_MAX_STR_LEN];
		PAPI_event_code_to_name(avail[i], n);
		is_int(PAPI_query_event(avail[i]), PAPI_OK, "%s is available", n);
	}
	papi_clear_reason();
	is_int(PAPI_query_event(PAPI_REF_CYC), PAPI_ENOEVNT, "PAPI_REF_CYC: the driver refuses ref-cycles");
	ok(strstr(papi_last_reason(), "PAPI_REF_CYC: not available here: cpu/ref-cycles/") != NULL,
	   "the query's reason names the native: %s", papi_last_reason());
	const char *why = presets_why(PAPI_REF_CYC);
	ok(why && strstr(why, "cpu/ref-cycles/") && strstr(why, "does not know this event"),
	   "and says why: %s", why ? why : "(null)");
	is_int(PAPI_query_event(PAPI_L3_TCA), PAPI_ENOEVNT, "PAPI_L3_TCA: no LLC-loads either");
	is_int(PAPI_query_event(PAPI_L2_TCM), PAPI_ENOEVNT, "PAPI_L2_TCM: not in the generic table");

	PAPI_event_info_t in;
	is_int(PAPI_get_event_info(PAPI_TOT_CYC, &in), PAPI_OK, "PAPI_TOT_CYC's info");
	ok(in.count == 1 && !strcmp(in.name[0], "cpu/cycles/"), "one native: %s", in.name[0]);
	ok(strstr(in.note, "ARM CPU_CYCLES") != NULL, "its note says what it counts where");

	int es = PAPI_NULL;
	long long v[5] = { 0 };
	PAPI_create_eventset(&es);
	static const int ev[] = { PAPI_TOT_CYC, PAPI_TOT_INS, PAPI_BR_INS, PAPI_BR_MSP, PAPI_L1_DCM };
	for (int i = 0; i < 5; i++)
		is_int(PAPI_add_event(es, ev[i]), PAPI_OK, "add preset %d", i);
	is_int(PAPI_start(es), PAPI_OK, "start");
	int fd;
	ok(fd_of_type(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, &fd),
	   "cycles opened as the generic event, on no PMU in particular");
	ok(fd_of_type(PERF_TYPE_RAW, 0xc0, &fd), "instructions opened as the PMU's named event (raw 0xc0)");
	sim_advance(1000000);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[0] == 1000000 && v[1] == INS_RAW * 1000000 && v[2] == 200000 && v[3] == 20000 && v[4] == 10000,
	   "exact counts: %lld %lld %lld %lld %lld", v[0], v[1], v[2], v[3], v[4]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* Names written PMU/TERMS/: named events, raw terms, modifiers, errors. */
static void sysfs_names(void)
{
	static const struct {
		int line;
		const char *name;
		int ret;
		uint32_t type;
		unsigned long long config;
		int ek, eu;	/* exclude_kernel, exclude_user */
		const char *canon, *why;
	} rows[] = {
		{ __LINE__, "cpu/event=0x3c,umask=0x00/", PAPI_OK, 4, 0x3c, 1, 0, "cpu/event=0x3c,umask=0x00/", NULL },
		{ __LINE__, "cpu/event=0xc4,umask=1,cmask=2,inv/u", PAPI_OK, 4, 0x28001c4, 1, 0, NULL, NULL },
		{ __LINE__, "cpu/event=0x1c4/k", PAPI_OK, 4, 0x1000000c4ull, 0, 1, NULL, NULL },
		{ __LINE__, "cpu/INSTRUCTIONS/", PAPI_OK, 4, 0xc0, 1, 0, "cpu/instructions/", NULL },
		{ __LINE__, "cpu/cpu-cycles,cmask=1/", PAPI_OK, 4, 0x100003c, 1, 0, NULL, NULL },
		{ __LINE__, "cpu/cycles/", PAPI_OK, PERF_TYPE_HARDWARE, 0, 1, 0, "cpu/cycles/", NULL },
		{ __LINE__, "cpu/Branches/uk", PAPI_OK, PERF_TYPE_HARDWARE, 4, 0, 0, "cpu/branches/uk", NULL },
		{ __LINE__, "cpu/dTLB-load-misses/", PAPI_OK, PERF_TYPE_HW_CACHE, 0x10003, 1, 0, NULL, NULL },
		{ __LINE__, "cpu/mem-stores/", PAPI_OK, 4, 0x82d0, 1, 0, NULL, NULL },
		{ __LINE__, "cpu/nosuch/", PAPI_ENOEVNT, 0, 0, 0, 0, NULL, "no format field or event called 'nosuch'" },
		{ __LINE__, "cpu/event=0x1000/", PAPI_ENOEVNT, 0, 0, 0, 0, NULL, "does not fit its 12 bits" },
		{ __LINE__, "cpu/cycles", PAPI_ENOEVNT, 0, 0, 0, 0, NULL, "the closing / is missing" },
		{ __LINE__, "cpu/cycles/x", PAPI_ENOEVNT, 0, 0, 0, 0, NULL, "'x' is not a modifier" },
		{ __LINE__, "cpu/cycles/uu", PAPI_ENOEVNT, 0, 0, 0, 0, NULL, "'u' is not a modifier" },
		{ __LINE__, "nopmu/cycles/", PAPI_ENOEVNT, 0, 0, 0, 0, NULL, "no core PMU called nopmu" },
		{ __LINE__, "/cycles/", PAPI_ENOEVNT, 0, 0, 0, 0, NULL, "no such kernel PMU" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		int code = 0;
		papi_clear_reason();
		int r = PAPI_event_name_to_code(rows[i].name, &code);
		is_int(r, rows[i].ret, "line %d: %s", rows[i].line, rows[i].name);
		if (r != PAPI_OK) {
			ok(strstr(papi_last_reason(), rows[i].why) != NULL, "line %d: says why: %s",
			   rows[i].line, papi_last_reason());
			continue;
		}
		const struct native *n = native_get(code & PAPI_NATIVE_AND_MASK);
		ok(n && n->attr.type == rows[i].type && n->attr.config == rows[i].config,
		   "line %d: type %u config %#llx", rows[i].line, n ? n->attr.type : 0,
		   n ? (unsigned long long)n->attr.config : 0);
		if (rows[i].canon)
			is_str(n->name, rows[i].canon, "line %d: canonical name", rows[i].line);
		if (strrchr(rows[i].name, '/')[1])
			ok(n->has_domain_mod && n->attr.exclude_kernel == rows[i].ek &&
			   n->attr.exclude_user == rows[i].eu, "line %d: the modifiers set the domain",
			   rows[i].line);
	}
	/* A PMU that is not a core's but counts per task (no cpumask: msr)
	 * is perf_event's, as perf counts it: on the task, every privilege
	 * level (its driver excludes none), whatever the set's domain. */
	int mc = -1, mc2 = -1;
	ok(PAPI_event_name_to_code("msr/tsc/", &mc) == PAPI_OK && PAPI_get_event_component(mc) == 0,
	   "msr/tsc/ is perf_event's: %s", papi_last_reason());
	ok(PAPI_event_name_to_code("msr::tsc", &mc2) == PAPI_OK && mc2 == mc,
	   "msr::tsc names the same event: %s", papi_last_reason());
	const struct native *mn = native_get(mc & PAPI_NATIVE_AND_MASK);
	ok(mn && mn->attr.type == 9 && mn->attr.config == 0 && mn->has_domain_mod &&
	   !mn->attr.exclude_user && !mn->attr.exclude_kernel && !mn->attr.exclude_hv &&
	   !mn->attr.exclude_guest, "msr/tsc/: type 9 config 0, every level, the domain fixed");
	papi_clear_reason();
	is_int(PAPI_event_name_to_code("msr/tsc/u", &mc2), PAPI_ENOEVNT, "msr/tsc/u refused");
	ok(strstr(papi_last_reason(), "no modifiers") != NULL, "saying why: %s", papi_last_reason());
	is_int(PAPI_event_name_to_code("msr/cycles/", &mc2), PAPI_ENOEVNT,
	       "no generic events on msr");

	/* A raw encoding counts, at user level by default. */
	int es = PAPI_NULL, fd;
	long long v[2];
	PAPI_create_eventset(&es);
	is_int(PAPI_add_named_event(es, "cpu/event=0xc4,umask=1,cmask=2,inv/"), PAPI_OK, "add a raw encoding");
	is_int(PAPI_add_named_event(es, "cpu/instructions/"), PAPI_OK, "and a named event");
	is_int(PAPI_start(es), PAPI_OK, "start");
	ok(fd_of_type(PERF_TYPE_RAW, 0x28001c4, &fd) && sim_attr(fd)->exclude_kernel, "opened as written, user level");
	sim_advance(700000);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[0] == 100000 && v[1] == INS_RAW * 700000, "counted: %lld %lld", v[0], v[1]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	PAPI_event_info_t in;
	PAPI_event_name_to_code("cpu/mem-stores/", &fd);
	PAPI_get_event_info(fd, &in);
	ok(strstr(in.long_descr, "event=0xd0,umask=0x82") && strstr(in.long_descr, "64") &&
	   strstr(in.long_descr, "Bytes"), "the description has the terms, scale and unit: %s", in.long_descr);
}

/* Every event the sysfs PMU lists, once, and as many as the component says. */
static void enumeration(void)
{
	int code = PAPI_NATIVE_MASK, n = 0, seen_cycles = 0, seen_ins = 0, seen_l1 = 0, seen_tsc = 0, dup = 0;
	char prev[8][PAPI_MAX_STR_LEN] = { { 0 } };
	is_int(PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, 0), PAPI_OK, "a first native event");
	do {
		char name[PAPI_MAX_STR_LEN];
		if (PAPI_event_code_to_name(code, name) != PAPI_OK)
			break;
		n++;
		seen_cycles += !strcmp(name, "cpu/cycles/");
		seen_ins += !strcmp(name, "cpu/instructions/");
		seen_l1 += !strcmp(name, "cpu/L1-dcache-load-misses/");
		seen_tsc += !strcmp(name, "msr/tsc/");
		for (int k = 0; k < 8; k++)
			dup += !strcmp(prev[k], name);
		snprintf(prev[n % 8], sizeof prev[0], "%s", name);
		int umask = code;
		is_int(PAPI_enum_cmp_event(&umask, PAPI_NTV_ENUM_UMASKS, 0), PAPI_ENOEVNT,
		       "%s has no unit masks", name);
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, 0) == PAPI_OK && n < 1000);
	ok(seen_cycles == 1 && seen_ins == 1 && seen_l1 == 1 && !dup,
	   "named and generic events listed once each (%d %d %d, %d repeated)", seen_cycles, seen_ins,
	   seen_l1, dup);
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	is_int(n, ci->num_native_events, "as many as the component counts");
	/* 5 named events, the 10 generic hardware events but the two named so
	 * (instructions, branch-misses; aliases are not listed), 42 cache
	 * events; and msr's tsc (no generic events there). */
	is_int(n, 5 + 8 + 42 + 1, "sysfs events and the generic ones, and msr/tsc/");
	is_int(seen_tsc, 1, "msr/tsc/ listed once");
	int found = 0;
	for (int i = 0; i < PAPI_PMU_MAX && ci->pmu_names[i]; i++)
		found |= !strcmp(ci->pmu_names[i], "cpu");
	ok(found, "the component lists the PMU cpu");
}

/* perf_event disabled by the environment has no counters, asked before
 * its info is. */
static void disabled(void)
{
	PAPI_shutdown();
	setenv("PAPI_DISABLE_COMPONENTS", "perf_event", 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init, perf_event disabled");
	is_int(PAPI_num_cmp_hwctrs(0), 0, "disabled: no counters");
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	ok(ci && ci->disabled && ci->num_cntrs == 0, "and its info says disabled, no counters");
	unsetenv("PAPI_DISABLE_COMPONENTS");
}

/* A hybrid CPU libpfm4 does not know: each preset sums both core PMUs. */
static void hybrid(void)
{
	struct sim_config c = sim_hybrid_config();
	sim_install(&c);
	x86_tree("cpu_core");
	x86_tree("cpu_atom");
	sim_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, SIM_ANY_GP, 1, 1);
	sim_event(PERF_TYPE_RAW, 0xc0, SIM_ANY_GP, 3, 1);	/* cpu_core */
	sim_event(10, 0xc0, SIM_ANY_GP, 2, 1);			/* cpu_atom */
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init on a hybrid");
	const char *s = pmu_core_sysfs();
	ok(s && strstr(s, "cpu_atom and cpu_core"), "both core PMUs named from sysfs: %s", s ? s : "(null)");
	is_int(presets_generic(), 1, "the generic table");
	ok(pmu_get(0)->num_cntrs == 6 && pmu_get(1)->num_cntrs == 8,
	   "each core type's counters found apart: %d %d", pmu_get(0)->num_cntrs, pmu_get(1)->num_cntrs);
	is_int(PAPI_num_cmp_hwctrs(0), 6, "the component's counters: the first core PMU's (cpu_atom)");
	PAPI_event_info_t in;
	is_int(PAPI_get_event_info(PAPI_TOT_CYC, &in), PAPI_OK, "PAPI_TOT_CYC's info");
	ok(in.count == 2 && !strcmp(in.derived, "DERIVED_ADD") && !strcmp(in.name[0], "cpu_atom/cycles/") &&
	   !strcmp(in.name[1], "cpu_core/cycles/"), "the sum of both PMUs' cycles: %u %s %s %s", in.count,
	   in.derived, in.name[0], in.name[1]);
	int es = PAPI_NULL, fd;
	long long v[2];
	PAPI_create_eventset(&es);
	is_int(PAPI_add_event(es, PAPI_TOT_CYC), PAPI_OK, "add PAPI_TOT_CYC");
	is_int(PAPI_add_event(es, PAPI_TOT_INS), PAPI_OK, "add PAPI_TOT_INS");
	is_int(PAPI_start(es), PAPI_OK, "start");
	ok(fd_of_type(PERF_TYPE_HARDWARE, 10ull << 32, &fd) && fd_of_type(PERF_TYPE_HARDWARE, 4ull << 32, &fd),
	   "cycles opened on each PMU by its type in the config");
	ok(fd_of_type(10, 0xc0, &fd) && fd_of_type(PERF_TYPE_RAW, 0xc0, &fd),
	   "instructions as each PMU's named event");
	sim_advance(1000000);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[0] == 2000000 && v[1] == 5000000, "both PMUs counted, summed: %lld %lld", v[0], v[1]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	is_int(sim_open_count(), 0, "no counter left open");
	sim_uninstall();
}

/* libpfm4 knows the P-cores (skx, forced), not the E-cores: the skx table
 * wins, and cpu_atom's events are named from sysfs. */
static void half_known(void)
{
	if (pmu_tables_missing("skx", "a hybrid whose P-cores libpfm4 knows (skx)"))
		return;
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	struct sim_config c = sim_hybrid_config();
	sim_install(&c);
	x86_tree("cpu_atom");
	sim_event(10, 0xc0, SIM_ANY_GP, 2, 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init, skx forced");
	is_int(presets_generic(), 0, "the skx table wins");
	const char *s = pmu_core_sysfs();
	ok(s && strstr(s, "cpu_atom") && strstr(s, "this core type") && !strstr(s, "cpu_core"),
	   "cpu_atom is named from sysfs: %s", s ? s : "(null)");
	int es = PAPI_NULL;
	long long v;
	PAPI_create_eventset(&es);
	is_int(PAPI_add_named_event(es, "cpu_atom/instructions/"), PAPI_OK, "add an E-core event");
	PAPI_start(es);
	sim_advance(1000);
	PAPI_stop(es, &v);
	is_int(v, 2000, "it counts on cpu_atom");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	sim_uninstall();
	unsetenv("LIBPFM_FORCE_PMU");
}

/* No core PMU at all (this kind of VM): said so, and no generic table. */
static void no_driver(void)
{
	struct sim_config c = sim_default_config();
	c.npmus = 0;
	sim_install(&c);
	msr_tree();
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init without a core PMU");
	const char *r = pmu_core_unavailable_reason();
	ok(r && strstr(r, "no hardware PMU driver") &&
	   strstr(r, "LIBPFM_FORCE_PMU=nowhere: libpfm4 knows no PMU of that name"),
	   "the reason: %s", r ? r : "(null)");
	is_int(presets_generic(), 0, "no generic table");
	ok(pmu_core_sysfs() == NULL, "nothing named from sysfs");
	is_int(PAPI_query_event(PAPI_TOT_CYC), PAPI_ENOEVNT, "PAPI_TOT_CYC is not available");
	int code;
	is_int(PAPI_event_name_to_code("cpu/cycles/", &code), PAPI_ENOEVNT, "no cpu/cycles/");
	PAPI_shutdown();
	sim_uninstall();
}

int main(void)
{
	/* libpfm4 knows no PMU of that name: as on a CPU newer than libpfm4. */
	setenv("LIBPFM_FORCE_PMU", "nowhere", 1);
	struct sim_config c = sim_default_config();
	sim_install(&c);
	x86_tree("cpu");
	msr_tree();
	declare();
	generic_presets();
	sysfs_names();
	enumeration();
	disabled();
	PAPI_shutdown();
	is_int(sim_open_count(), 0, "no counter left open");
	sim_uninstall();
	hybrid();
	no_driver();
	half_known();
	return tap_done();
}

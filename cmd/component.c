/* component.c: `papi component`: the compiled-in components, their event counts and PMUs, and for what cannot count here the reason and the fix. */
#include "cli.h"
#include "cmds.h"
#include "tool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>


static const struct cli_opt opts[] = {
	{ "detail", 'd', no_argument, NULL, "also each component's version, domains, granularities and capabilities" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ 0 },
};

/* Bit names of the domain and granularity masks, in PAPI's order. */
static const char *const dom_names[] = { "user", "kernel", "other", "supervisor" };
static const char *const grn_names[] = { "thread", "process", "process group", "CPU", "every CPU" };

/* The names of the bits of mask, comma-separated, into buf. */
static const char *mask_str(int mask, const char *const *names, int n, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		if (mask & (1 << i))
			len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s",
						len ? ", " : "", names[i]);
	if (!len)
		snprintf(buf, size, "none");
	return buf;
}

/* -d: what PAPI 7's papi_component_avail -d shows (version, event counts,
 * fast counter read), and the rest a program can ask PAPI_get_opt. */
static void detail(struct json *j, const PAPI_component_info_t *ci)
{
	char dd[64], ad[64], dg[64], ag[64];
	const struct {
		const char *key, *text;
		int on;
	} caps[] = {
		{ "fast_counter_read", "fast counter read (rdpmc)", ci->fast_counter_read },
		{ "attach", "attach to other threads", ci->attach },
		{ "cpu", "count a CPU", ci->cpu },
		{ "inherit", "inherit to children", ci->inherit },
		{ "kernel_multiplex", "kernel multiplexing", ci->kernel_multiplex },
		{ "hardware_intr", "overflow interrupts", ci->hardware_intr },
		{ "precise_intr", "precise interrupts", ci->precise_intr },
		{ "kernel_profile", "kernel profiling", ci->kernel_profile },
	};
	mask_str(ci->default_domain, dom_names, 4, dd, sizeof dd);
	mask_str(ci->available_domains, dom_names, 4, ad, sizeof ad);
	mask_str(ci->default_granularity, grn_names, 5, dg, sizeof dg);
	mask_str(ci->available_granularities, grn_names, 5, ag, sizeof ag);
	if (j) {
		json_key(j, "detail");
		json_obj_begin(j);
		json_kstr(j, "version", ci->version);
		json_kint(j, "preset_events", ci->num_preset_events);
		json_kint(j, "multiplexed_counters", ci->num_mpx_cntrs);
		json_kstr(j, "default_domain", dd);
		json_kstr(j, "available_domains", ad);
		json_kstr(j, "default_granularity", dg);
		json_kstr(j, "available_granularities", ag);
		for (size_t i = 0; i < sizeof caps / sizeof *caps; i++)
			json_kbool(j, caps[i].key, caps[i].on);
		/* PAPI 7.2: it works, but only in part */
		json_kbool(j, "partially_disabled", ci->partially_disabled);
		json_kstr(j, "partially_disabled_reason",
			  ci->partially_disabled ? ci->partially_disabled_reason : NULL);
		json_obj_end(j);
		return;
	}
	printf("  version:  %s\n", ci->version);
	printf("  presets:  %d defined for this CPU\n", ci->num_preset_events);
	printf("  multiplexed counters: %d\n", ci->num_mpx_cntrs);
	printf("  domains:  %s (default %s)\n", ad, dd);
	printf("  granularities: %s (default %s)\n", ag, dg);
	for (int on = 1; on >= 0; on--) {
		int n = 0;
		printf("  %-9s", on ? "can:" : "cannot:");
		for (size_t i = 0; i < sizeof caps / sizeof *caps; i++)
			if (caps[i].on == on)
				printf("%s %s", n++ ? "," : "", caps[i].text);
		printf("%s\n", n ? "" : " nothing of these");
	}
}

static const struct cli_spec spec = {
	"component", "[OPTION]...",
	"List the components compiled into this papi, whether each is active, its\n"
	"native and preset event counts and its PMUs (and whether the running kernel\n"
	"has each). For whatever cannot count here, say why and what to do about it.",
	opts, 0,
};

/* The fix for a disabled component, from how it was disabled; NULL when
 * the reason is all there is to say (no RAPL zones here: nothing to fix). */
static const char *disabled_fix(const char *reason)
{
	if (strstr(reason, "PAPI_DISABLE_COMPONENTS"))
		return "unset PAPI_DISABLE_COMPONENTS, or leave this component out of it";
	if (strstr(reason, "PAPI_disable_component"))
		return "the program disabled it; do not call PAPI_disable_component for it";
	return NULL;
}

static int paranoid_level(void)
{
	int v = -99;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -99;
		fclose(f);
	}
	return v;
}

/* What perf_event_paranoid (or a security policy) keeps this user from
 * counting, with the fix, or NULL: nothing at all (the kernel refuses even
 * user space), or the kernel's share. */
static const char *paranoid_advice(void)
{
	static char buf[512];
	if (pe_probe(buf, sizeof buf) != PAPI_OK)
		return buf;
	if (pe_kernel_allowed())
		return NULL;
	char why[400];
	pe_kernel_advice(why, sizeof why);
	snprintf(buf, sizeof buf, "user space only: %s", why);
	return buf;
}

/* Presets that can be counted here. */
static int presets_available(void)
{
	int code = PAPI_PRESET_MASK, n = 0;
	if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) != PAPI_OK)
		return 0;
	do
		n += PAPI_query_event(code) == PAPI_OK;
	while (PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL) == PAPI_OK);
	return n;
}

/* Really open a software event: NULL when counting works at all, else why. */
static const char *probe(void)
{
	static char why[PAPI_HUGE_STR_LEN];
	int es = PAPI_NULL, r;
	long long v;
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK)
		goto fail;
	papi_clear_reason();
	if ((r = PAPI_add_named_event(es, "perf::TASK-CLOCK")) == PAPI_OK &&
	    (r = PAPI_start(es)) == PAPI_OK)
		r = PAPI_stop(es, &v);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	if (r == PAPI_OK)
		return NULL;
fail:
	snprintf(why, sizeof why, "%s", cli_reason(r));
	return why;
}

/* What keeps a PMU from counting here, or NULL. */
static const char *pmu_problem(const struct pmu *p)
{
	if (p->kernel_type >= 0)
		return NULL;
	if (p->pfm_type == PFM_PMU_TYPE_CORE && pmu_core_unavailable_reason())
		return pmu_core_unavailable_reason();
	return "the running kernel has no such PMU";
}

/* What a component other than perf_event counts, from its granularity. */
static const char *scope(int grn)
{
	switch (grn) {
	case PAPI_GRN_SYS:
		return "the whole machine";
	case PAPI_GRN_PROC:
		return "the process that reads it";
	default:
		return "the thread that reads it";
	}
}

/* perf_event_uncore's PMUs (j NULL: text): each with the table that names
 * its events, how many, and the CPUs they open on. Nothing for another
 * component, or when it is disabled (its reason says why). */
static void uncore_pmus(struct json *j, const PAPI_component_info_t *ci, const char *why)
{
	int n = why || strcmp(ci->name, "perf_event_uncore") ? 0 : uncore_pmu_describe(-1, NULL);
	if (n > 0 && !j)
		printf("  PMUs:\n");
	for (int i = 0; i < n; i++) {
		struct uncore_pmu_desc d;
		if (uncore_pmu_describe(i, &d) < 0)
			break;
		char where[96];
		snprintf(where, sizeof where, "%s %s%s", strchr(d.cpus, ',') || strchr(d.cpus, '-')
			 ? "CPUs" : "CPU", d.cpus, d.cpumask ? " (its cpumask)" : " (every online CPU)");
		if (j) {
			json_obj_begin(j);
			json_kstr(j, "name", d.name);
			json_kstr(j, "libpfm4_pmu", d.pfm_name[0] ? d.pfm_name : NULL);
			json_kint(j, "native_events", d.nevents);
			json_kstr(j, "cpus", d.cpus);
			json_kbool(j, "cpumask", d.cpumask);
			json_obj_end(j);
		} else {
			printf("    %-20s %4d event%s  named by %-24s %s\n", d.name, d.nevents,
			       d.nevents == 1 ? " " : "s", d.pfm_name[0] ? d.pfm_name : "its sysfs files",
			       where);
		}
	}
}

/* PAPI 7.2's partially disabled component, said as papi_component_avail
 * says it: under the active line, with the reason. */
static void partly(const PAPI_component_info_t *ci)
{
	if (ci->partially_disabled)
		printf("  partially disabled: %s\n", ci->partially_disabled_reason);
}

/* A component other than perf_event: its events and what it counts, or why
 * it is disabled (j NULL: text). */
static void other(struct json *j, const PAPI_component_info_t *ci, int details)
{
	const char *why = cli_disabled_reason(ci->CmpIdx);
	const char *fix = why ? disabled_fix(why) : NULL;
	char access[PAPI_HUGE_STR_LEN];
	const char *count_why = !why && cmp_access(ci->CmpIdx, access, sizeof access) != PAPI_OK
				? access : NULL;
	if (j) {
		json_obj_begin(j);
		json_kstr(j, "name", ci->name);
		json_kstr(j, "description", ci->description);
		json_kint(j, "index", ci->CmpIdx);
		json_kbool(j, "active", !why);
		json_kstr(j, "disabled_reason", why);
		json_kstr(j, "fix", fix);
		json_kstr(j, "counting_problem", count_why);
		json_kint(j, "native_events", ci->num_native_events);
		json_kint(j, "presets_available", 0);
		json_kint(j, "counters", ci->num_cntrs);
		json_kstr(j, "counts", why || !ci->num_native_events ? NULL : scope(ci->default_granularity));
		json_kstr(j, "core_pmu_sysfs", NULL);
		json_kbool(j, "generic_presets", 0);
		json_kstr(j, "generic_note", NULL);
		if (details)
			detail(j, ci);
		json_key(j, "pmus");
		json_arr_begin(j);
		uncore_pmus(j, ci, why);
		json_arr_end(j);
		json_kstr(j, "core_pmu_problem", NULL);
		json_obj_end(j);
		return;
	}
	printf("\n%s: %s\n", ci->name, ci->description);
	if (why) {
		printf("  disabled: %s\n", why);
		if (fix)
			printf("  fix:      %s\n", fix);
	} else {
		printf("  active:   yes\n");
		partly(ci);
		if (count_why)
			printf("  but counting fails: %s\n", count_why);
		if (ci->num_native_events <= 0 && !strcmp(ci->name, "sde")) {
			/* they exist only in a process whose libraries register them */
			printf("  events:   none registered in this process: a library registers its "
			       "own through libsde\n"
			       "            (sde_lib.h), and the program that loads it reads them as "
			       "sde:::LIBRARY::COUNTER\n");
		} else if (ci->num_native_events <= 0) {
			printf("  events:   none: it describes the machine (papi hardware --devices)\n");
		} else {
			/* perf_event_uncore's PMU::EVENT names too: papi native
			 * matches them with the component's prefix */
			printf("  events:   %d native (papi native -i %s:::)\n",
			       ci->num_native_events, ci->name);
			printf("  counts:   %s\n", scope(ci->default_granularity));
		}
	}
	if (details)
		detail(NULL, ci);
	uncore_pmus(NULL, ci, why);
}

int cmd_component(int argc, char **argv)
{
	struct cli_ctx c;
	struct json j;
	int o, n, r, json = 0, details = 0;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1)
		if (o == 'j')
			json = 1;
		else if (o == 'd')
			details = 1;
	cli_operands(&c, &n);
	if (n)
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		return cli_error(spec.name, "PAPI_library_init: %s", PAPI_strerror(r));
	event_files_report(spec.name);

	int ncmp = PAPI_num_components(), paranoid = paranoid_level();
	if (json) {
		json_init(&j, stdout, 1);
		json_obj_begin(&j);
		json_kint(&j, "perf_event_paranoid", paranoid);
		json_kstr(&j, "paranoid_advice", paranoid_advice());
		json_key(&j, "components");
		json_arr_begin(&j);
	} else {
		printf("Compiled-in components: %d\n", ncmp);
		if (paranoid != -99)
			printf("perf_event_paranoid:    %d%s\n", paranoid,
			       geteuid() == 0 ? " (running as root)" : "");
		if (paranoid_advice())
			printf("  %s\n", paranoid_advice());
	}
	for (int i = 0; i < ncmp; i++) {
		const PAPI_component_info_t *ci = PAPI_get_component_info(i);
		if (!ci)
			continue;
		if (i > 0) {
			other(json ? &j : NULL, ci, details);
			continue;
		}
		const char *why = cli_disabled_reason(ci->CmpIdx);
		const char *fix = why ? disabled_fix(why) : NULL;
		const char *count_why = why ? NULL : probe();
		int npre = why ? 0 : presets_available();
		if (json) {
			json_obj_begin(&j);
			json_kstr(&j, "name", ci->name);
			json_kstr(&j, "description", ci->description);
			json_kint(&j, "index", i);
			json_kbool(&j, "active", !ci->disabled);
			json_kstr(&j, "disabled_reason", why);
			json_kstr(&j, "fix", fix);
			json_kstr(&j, "counting_problem", count_why);
			json_kint(&j, "native_events", ci->num_native_events);
			json_kint(&j, "presets_available", npre);
			json_kint(&j, "counters", ci->num_cntrs);
			json_kstr(&j, "counts", why ? NULL : "the thread that created the EventSet, or "
							  "the task or CPU it is attached to");
			json_kstr(&j, "core_pmu_sysfs", pmu_core_sysfs());
			json_kbool(&j, "generic_presets", presets_generic());
			json_kstr(&j, "generic_note", cli_generic_note());
			if (details)
				detail(&j, ci);
			json_key(&j, "pmus");
			json_arr_begin(&j);
		} else {
			printf("\n%s: %s\n", ci->name, ci->description);
			if (why) {
				printf("  disabled: %s\n  fix:      %s\n", why, fix);
				if (details)
					detail(NULL, ci);
				continue;
			}
			printf("  active:   yes (%s, kernel %s)\n", ci->support_version, ci->kernel_version);
			partly(ci);
			if (count_why)
				printf("  but counting fails: %s\n", count_why);
			printf("  events:   %d native, %d presets available here\n", ci->num_native_events,
			       npre);
			printf("  counters: %d hardware%s\n", ci->num_cntrs,
			       pmu_core_sysfs() && ci->num_cntrs ? " (as many instructions counters as the kernel "
								   "accepted in one group)" : "");
			if (pmu_core_sysfs())
				printf("  core PMU: %s\n", pmu_core_sysfs());
			if (cli_generic_note())
				printf("  presets:  %s\n", cli_generic_note());
			if (details)
				detail(NULL, ci);
			printf("  PMUs:\n");
		}
		for (int k = 0; !why && k < pmu_count(); k++) {
			const struct pmu *p = pmu_get(k);
			const char *pp = pmu_problem(p);
			if (json) {
				json_obj_begin(&j);
				json_kstr(&j, "name", p->name);
				json_kstr(&j, "description", p->desc);
				json_kstr(&j, "kernel_name", p->kernel_name[0] ? p->kernel_name : NULL);
				json_kbool(&j, "in_kernel", p->kernel_type >= 0);
				json_kstr(&j, "reason", pp);
				json_obj_end(&j);
			} else {
				printf("    %-20s %-32s %s\n", p->name, p->desc,
				       pp ? "not in this kernel" : "in this kernel");
				if (pp)
					printf("      %s\n", pp);
			}
		}
		/* With no core PMU listed, the reason has no row of its own. */
		int have_core = 0;
		for (int k = 0; k < pmu_count(); k++)
			if (pmu_get(k)->pfm_type == PFM_PMU_TYPE_CORE)
				have_core = 1;
		const char *core_why = !why && !have_core ? pmu_core_unavailable_reason() : NULL;
		if (json) {
			json_arr_end(&j);
			json_kstr(&j, "core_pmu_problem", core_why);
			json_obj_end(&j);
		} else if (core_why) {
			printf("  core PMU: none: %s\n", core_why);
		}
	}
	if (json) {
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
	}
	PAPI_shutdown();
	return cli_finish(spec.name, CLI_OK);
}

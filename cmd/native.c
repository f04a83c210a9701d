/* native.c: `papi native`: the native events of every detected PMU, their unit masks and qualifiers, and whether this kernel can count them. */
#include "cli.h"
#include "cmds.h"
#include "tool.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>

#include "sde/sde_lib.h"

enum { O_NAMES = CLI_LONG(0), O_NOUMASKS, O_NOQUAL, O_DARR, O_DEAR, O_IARR, O_IEAR, O_OPCM,
       O_NOGROUPS, O_SDE, O_COUNTING };

static const struct cli_opt opts[] = {
	{ "event", 'e', required_argument, "EVENT", "describe one native event in full" },
	{ "include", 'i', required_argument, "STR", "only events whose name contains STR" },
	{ "exclude", 'x', required_argument, "STR", "leave out events whose name contains STR" },
	{ "check", 'c', no_argument, NULL, "add each event to an EventSet and say what cannot be counted here" },
	{ "names", O_NAMES, no_argument, NULL, "only names, one a line: EVENT and EVENT:UMASK\n"
	  "(with -e EVENT: EVENT:UMASK and EVENT:QUALIFIER, what may follow EVENT)" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ "noumasks", O_NOUMASKS, no_argument, NULL, "leave out unit masks" },
	{ "noqual", O_NOQUAL, no_argument, NULL, "leave out qualifiers (modifiers such as :u, :k)" },
	{ "counting", O_COUNTING, no_argument, NULL, "with --names -e EVENT: leave out the qualifiers that ask "
	  "for sampling (period=, freq=), which papi stat refuses" },
	/* papi_native_avail's: Itanium and POWER features no PMU here has. */
	{ "darr", O_DARR, no_argument | CLI_COMPAT, NULL, "only events supporting data address range restriction" },
	{ "dear", O_DEAR, no_argument | CLI_COMPAT, NULL, "only data event address register events" },
	{ "iarr", O_IARR, no_argument | CLI_COMPAT, NULL, "only events supporting instruction address range restriction" },
	{ "iear", O_IEAR, no_argument | CLI_COMPAT, NULL, "only instruction event address register events" },
	{ "opcm", O_OPCM, no_argument | CLI_COMPAT, NULL, "only events supporting opcode matching\n"
	  "(these five are Itanium features: no event here has them)" },
	{ "nogroups", O_NOGROUPS, no_argument | CLI_COMPAT, NULL, "leave out event groups (an IBM POWER feature: none here)" },
	{ "sde", O_SDE, required_argument | CLI_COMPAT, "FILE", "load the library FILE and list the software-defined\n"
	  "events it registers (its papi_sde_hook_list_events; -sde FILE works too)" },
	{ 0 },
};

/* What the feature filters ask for, for the message that none has it. */
static const struct {
	int opt;
	const char *what;
} features[] = {
	{ O_DARR, "data address range restriction" },
	{ O_DEAR, "a data event address register" },
	{ O_IARR, "instruction address range restriction" },
	{ O_IEAR, "an instruction event address register" },
	{ O_OPCM, "opcode matching" },
};

static const struct cli_spec spec = {
	"native", "[OPTION]...",
	"List the native events of every PMU libpfm4 detected, PMU by PMU, with their\n"
	"unit masks and qualifiers, and whether the running kernel can count them;\n"
	"then the events of the kernel's core PMUs libpfm4 does not know, named from\n"
	"sysfs, and those of every other component (io, ...) under its own heading.\n"	"With -c each event is really added to an EventSet; those that fail are marked\n"
	"with the reason.",
	opts, 0,
};

struct nv {
	const char *inc, *exc;
	int check, names, json, noumasks, noqual, classic, counting;
	const char *feature;	/* --darr ...: the feature asked for, NULL for none */
	int nevents, nbad;
	int cur_pmu;		/* PMU of the last event shown, -1 before the first */
	char disabled[PAPI_HUGE_STR_LEN];	/* a disabled component -i names, why */
	struct json j;
};

/* The attributes (unit masks, modifiers) of a native event, read straight
 * from libpfm4: listing them must not create (and encode) one table entry
 * per qualifier. */
struct attr {
	char name[64];
	const char *desc;
	int umask;		/* 1 unit mask, 0 modifier */
	int dflt;		/* default unit mask */
	int integer;		/* modifier takes an integer */
};

static int attrs_of(int pfm_idx, struct attr *out, int max)
{
	pfm_event_info_t ei;
	int n = 0;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	if (pfm_get_event_info(pfm_idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return 0;
	for (int k = 0; k < ei.nattrs && n < max; k++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(pfm_idx, k, PFM_OS_PERF_EVENT_EXT, &ai) != PFM_SUCCESS)
			continue;
		if (ai.type != PFM_ATTR_UMASK && ai.type != PFM_ATTR_MOD_BOOL &&
		    ai.type != PFM_ATTR_MOD_INTEGER)
			continue;
		struct attr *a = &out[n++];
		snprintf(a->name, sizeof a->name, "%s", ai.name);
		a->desc = ai.desc ? ai.desc : "";
		a->umask = ai.type == PFM_ATTR_UMASK;
		a->dflt = a->umask && ai.is_dfl;
		a->integer = ai.type == PFM_ATTR_MOD_INTEGER;
	}
	return n;
}

#define MAX_ATTRS 256

/* The event's own description: the table's text is the event's, unless the
 * entry names a unit mask. */
static const char *event_desc(const PAPI_event_info_t *in)
{
	return in->long_descr;
}

/* -c: can the event be added here?  NULL when yes, else the reason (static). */
static const char *check_event(int code)
{
	static char why[PAPI_HUGE_STR_LEN];
	int es = PAPI_NULL, r;
	if ((r = PAPI_create_eventset(&es)) != PAPI_OK) {
		snprintf(why, sizeof why, "%s", PAPI_strerror(r));
		return why;
	}
	papi_clear_reason();
	r = PAPI_add_event(es, code);
	if (r != PAPI_OK) {
		const char *d = papi_last_reason();
		snprintf(why, sizeof why, "%s", d && *d ? d : PAPI_strerror(r));
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return r == PAPI_OK ? NULL : why;
}

static const char *pmu_reason(const struct pmu *p)
{
	if (p->kernel_type >= 0)
		return NULL;
	if (p->pfm_type == PFM_PMU_TYPE_CORE) {
		const char *r = pmu_core_unavailable_reason();
		if (r)
			return r;
	}
	return "the running kernel has no such PMU";
}

static void pmu_header(struct nv *v, int pi)
{
	const struct pmu *p = pmu_get(pi);
	if (!p)
		return;
	const char *why = pmu_reason(p);
	if (v->json) {
		if (v->cur_pmu >= 0) {
			json_arr_end(&v->j);
			json_obj_end(&v->j);
		}
		json_obj_begin(&v->j);
		json_kstr(&v->j, "pmu", p->name);
		json_kstr(&v->j, "description", p->desc);
		json_kstr(&v->j, "kernel_name", p->kernel_name[0] ? p->kernel_name : NULL);
		json_kstr(&v->j, "source", p->sysfs ? "sysfs" : "libpfm4");
		json_kbool(&v->j, "countable", why == NULL);
		json_kstr(&v->j, "reason", why);
		json_kint(&v->j, "counters", p->num_cntrs);
		json_kint(&v->j, "fixed_counters", p->num_fixed);
		json_key(&v->j, "events");
		json_arr_begin(&v->j);
	} else if (!v->names) {
		printf("%s== PMU %s: %s\n", v->cur_pmu >= 0 ? "\n" : "", p->name, p->desc);
		if (why)
			printf("   not countable here: %s\n\n", why);
		else if (p->sysfs && p->pfm_type != PFM_PMU_TYPE_CORE)
			printf("   countable here (kernel PMU %s, per task, every privilege level);\n"
			       "   its named events come from sysfs\n\n", p->kernel_name);
		else if (p->sysfs)
			printf("   countable here (kernel PMU %s, %d counters); libpfm4 does not know it:\n"
			       "   its named events come from sysfs, then the kernel's generic events\n\n",
			       p->kernel_name, p->num_cntrs);
		else
			printf("   countable here (kernel PMU %s, %d counters, %d fixed)\n\n",
			       p->kernel_name[0] ? p->kernel_name : "?", p->num_cntrs, p->num_fixed);
	}
	v->cur_pmu = pi;
}

static int matches(const struct nv *v, const char *name)
{
	if (v->inc && !strstr(name, v->inc))
		return 0;
	if (v->exc && strstr(name, v->exc))
		return 0;
	return 1;
}

static void show_event(struct nv *v, const PAPI_event_info_t *in, const struct native *e)
{
	struct attr at[MAX_ATTRS];
	int na = attrs_of(e->pfm_idx, at, MAX_ATTRS);
	const char *why = v->check ? check_event((int)in->event_code) : NULL;

	v->nevents++;
	v->nbad += why != NULL;
	if (v->names) {
		printf("%s\n", in->symbol);
		for (int k = 0; k < na; k++)
			if (at[k].umask && !v->noumasks)
				printf("%s:%s\n", in->symbol, at[k].name);
		return;
	}
	if (v->json) {
		json_obj_begin(&v->j);
		json_kstr(&v->j, "name", in->symbol);
		json_kint(&v->j, "code", in->event_code);
		json_kstr(&v->j, "description", event_desc(in));
		if (v->check) {
			json_kbool(&v->j, "countable", why == NULL);
			json_kstr(&v->j, "reason", why);
		}
		if (!v->noumasks) {
			json_key(&v->j, "umasks");
			json_arr_begin(&v->j);
			for (int k = 0; k < na; k++)
				if (at[k].umask) {
					json_obj_begin(&v->j);
					json_kstr(&v->j, "name", at[k].name);
					json_kstr(&v->j, "description", at[k].desc);
					json_kbool(&v->j, "default", at[k].dflt);
					json_obj_end(&v->j);
				}
			json_arr_end(&v->j);
		}
		if (!v->noqual) {
			json_key(&v->j, "qualifiers");
			json_arr_begin(&v->j);
			for (int k = 0; k < na; k++)
				if (!at[k].umask) {
					json_obj_begin(&v->j);
					json_kstr(&v->j, "name", at[k].name);
					json_kstr(&v->j, "description", at[k].desc);
					json_kstr(&v->j, "type", at[k].integer ? "integer" : "boolean");
					json_obj_end(&v->j);
				}
			json_arr_end(&v->j);
		}
		json_obj_end(&v->j);
		return;
	}
	printf("%s%s\n", in->symbol, why ? "   [cannot count here]" : "");
	printf("    %s\n", event_desc(in));
	if (why)
		printf("    why: %s\n", why);
	for (int k = 0; k < na; k++)
		if (at[k].umask && !v->noumasks)
			printf("      :%-28s %s%s\n", at[k].name, at[k].desc, at[k].dflt ? " (default)" : "");
	if (!v->noqual) {
		int first = 1;
		for (int k = 0; k < na; k++)
			if (!at[k].umask) {
				printf("%s:%s%s", first ? "    qualifiers: " : " ", at[k].name,
				       at[k].integer ? "=N" : "");
				first = 0;
			}
		if (!first)
			printf("\n");
	}
}

/* Walk every native event of component 0. */
static void list_all(struct nv *v)
{
	int code = PAPI_NATIVE_MASK;
	if (v->feature)
		return;	/* no PMU that libpfm4 drives through perf_event has one */
	if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, 0) != PAPI_OK)
		return;
	do {
		PAPI_event_info_t in;
		const struct native *e = native_get(code & PAPI_NATIVE_AND_MASK);
		if (!e || PAPI_get_event_info(code, &in) != PAPI_OK)
			continue;
		if (!matches(v, in.symbol))
			continue;
		if (e->pmu != v->cur_pmu)
			pmu_header(v, e->pmu);
		show_event(v, &in, e);
	} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, 0) == PAPI_OK);
}

/* ------------------------------------------------------------------ other components
 * Their events have no unit masks or qualifiers: a name, a description and
 * units, under the component's own heading. */
static void show_cmp_event(struct nv *v, const PAPI_event_info_t *in)
{
	const char *why = v->check ? check_event((int)in->event_code) : NULL;
	v->nevents++;
	v->nbad += why != NULL;
	if (v->names) {
		printf("%s\n", in->symbol);
	} else if (v->json) {
		json_obj_begin(&v->j);
		json_kstr(&v->j, "name", in->symbol);
		json_kint(&v->j, "code", in->event_code);
		json_kstr(&v->j, "description", in->long_descr);
		json_kstr(&v->j, "units", in->units);
		if (v->check) {
			json_kbool(&v->j, "countable", why == NULL);
			json_kstr(&v->j, "reason", why);
		}
		json_obj_end(&v->j);
	} else {
		printf("%s%s\n", in->symbol, why ? "   [cannot count here]" : "");
		printf("    %s%s%s%s\n", in->long_descr, *in->units ? " (" : "", in->units,
		       *in->units ? ")" : "");
		if (why)
			printf("    why: %s\n", why);
	}
}

/* Component cidx (> 0): its heading (when something of it is shown or it
 * is disabled), then its events. */
static void list_component(struct nv *v, int cidx)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	if (!ci)
		return;
	const char *why = cli_disabled_reason(ci->CmpIdx);
	int shown = 0, code = PAPI_NATIVE_MASK;
	char prefix[PAPI_MAX_STR_LEN + 4];
	snprintf(prefix, sizeof prefix, "%s:::", ci->name);
	/* -i powercap, -i powercap:::ENERGY_UJ: finding nothing, say why */
	if (why && v->inc && !*v->disabled &&
	    (strstr(prefix, v->inc) || !strncmp(v->inc, prefix, strlen(prefix))))
		snprintf(v->disabled, sizeof v->disabled, "component %.127s is disabled: %.800s", ci->name,
			 why);
	int r = why || v->feature ? PAPI_ENOEVNT : PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx);
	if (v->json) {
		json_obj_begin(&v->j);
		json_kstr(&v->j, "component", ci->name);
		json_kstr(&v->j, "description", ci->description);
		json_kbool(&v->j, "active", why == NULL);
		json_kstr(&v->j, "reason", why);
		json_key(&v->j, "events");
		json_arr_begin(&v->j);
	}
	for (; r == PAPI_OK; r = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx)) {
		PAPI_event_info_t in;
		if (PAPI_get_event_info(code, &in) != PAPI_OK)
			continue;
		/* -i/-x see the name with its component's prefix, which
		 * perf_event_uncore's PMU::EVENT names leave out */
		char full[PAPI_HUGE_STR_LEN + PAPI_MAX_STR_LEN + 4];
		snprintf(full, sizeof full, "%s%s%s", strstr(in.symbol, ":::") ? "" : ci->name,
			 strstr(in.symbol, ":::") ? "" : ":::", in.symbol);
		if (!matches(v, full))
			continue;
		if (!shown++ && !v->json && !v->names)
			printf("%s== Component %s: %s\n\n", v->nevents ? "\n" : "", ci->name,
			       ci->description);
		show_cmp_event(v, &in);
	}
	if (v->json) {
		json_arr_end(&v->j);
		json_obj_end(&v->j);
	} else if (why && !v->names && !v->inc && !v->feature) {
		printf("%s== Component %s: %s\n   disabled: %s\n", v->nevents ? "\n" : "", ci->name,
		       ci->description, why);
	}
}

/* The PMU of native entry e. A software event that the library resolved
 * without libpfm4 has no PMU index yet: it is the PMU its name starts with. */
static const struct pmu *event_pmu(const struct native *e)
{
	const struct pmu *p = pmu_get(e->pmu);
	const char *sep = strstr(e->name, "::");
	size_t n = sep ? (size_t)(sep - e->name) : 0;
	for (int i = 0; !p && n && i < pmu_count(); i++)
		if (strlen(pmu_get(i)->name) == n && !strncmp(pmu_get(i)->name, e->name, n))
			p = pmu_get(i);
	return p;
}

/* -e EVENT of a component other than perf_event. */
static int one_cmp_event(struct nv *v, const PAPI_event_info_t *in)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(in->component_index);
	const char *why = check_event((int)in->event_code);
	if (v->json) {
		json_obj_begin(&v->j);
		json_kstr(&v->j, "name", in->symbol);
		json_kint(&v->j, "code", in->event_code);
		json_kstr(&v->j, "component", ci ? ci->name : NULL);
		json_kstr(&v->j, "description", in->long_descr);
		json_kstr(&v->j, "units", in->units);
		json_kbool(&v->j, "countable", why == NULL);
		json_kstr(&v->j, "reason", why);
		json_obj_end(&v->j);
		return json_end(&v->j) ? CLI_FAIL : CLI_OK;
	}
	printf("Event name:     %s\n", in->symbol);
	printf("Event code:     0x%08x\n", in->event_code);
	printf("Component:      %s (%s)\n", ci ? ci->name : "?", ci ? ci->description : "?");
	printf("Description:    %s\n", in->long_descr);
	if (*in->units)
		printf("Units:          %s\n", in->units);
	printf("Countable here: %s%s\n", why ? "no: " : "yes", why ? why : "");
	return CLI_OK;
}

/* -e EVENT: everything about one event. */
static int one_event(struct nv *v, const char *name)
{
	int code;
	PAPI_event_info_t in;
	papi_clear_reason();
	int r = PAPI_event_name_to_code(name, &code);
	if (r != PAPI_OK) {
		char why[PAPI_HUGE_STR_LEN];
		cli_name_why(name, r, why, sizeof why);
		return *name ? cli_error(spec.name, "%s: %s", name, why) : cli_error(spec.name, "%s", why);
	}
	if (!(code & PAPI_NATIVE_MASK) || (code & PAPI_PRESET_MASK) == PAPI_PRESET_MASK)
		return cli_error(spec.name, "%s: not a native event (see papi avail -e %s)", name, name);
	const struct native *e = native_get_full(code & PAPI_NATIVE_AND_MASK);
	if (!e || PAPI_get_event_info(code, &in) != PAPI_OK)
		return cli_error(spec.name, "%s: no information", name);
	if (e->cidx > 0)	/* another component's: no qualifiers to offer */
		return v->names ? CLI_OK : one_cmp_event(v, &in);
	const struct pmu *p = event_pmu(e);	/* (starts libpfm4: e->pfm_idx) */
	if (v->names) {
		/* What may follow the name as given: the completions offer these
		 * after "EVENT:". */
		struct attr at[MAX_ATTRS];
		int na = attrs_of(e->pfm_idx, at, MAX_ATTRS);
		for (int k = 0; k < na; k++)
			if (!v->counting || (strcmp(at[k].name, "period") && strcmp(at[k].name, "freq")))
				printf("%s:%s%s\n", name, at[k].name, at[k].integer ? "=" : "");
		return CLI_OK;
	}
	const char *pwhy = p ? pmu_reason(p) : NULL;
	const char *why = check_event(code);
	struct attr at[MAX_ATTRS];
	int na = attrs_of(e->pfm_idx, at, MAX_ATTRS);
	if (v->json) {
		json_obj_begin(&v->j);
		json_kstr(&v->j, "name", in.symbol);
		json_kint(&v->j, "code", in.event_code);
		json_kstr(&v->j, "pmu", p ? p->name : NULL);
		json_kstr(&v->j, "source", e->sysfs ? "sysfs" : "libpfm4");
		json_kstr(&v->j, "description", in.long_descr);
		json_kbool(&v->j, "countable", why == NULL);
		json_kstr(&v->j, "reason", why);
		json_key(&v->j, "attributes");
		json_arr_begin(&v->j);
		for (int k = 0; k < na; k++) {
			json_obj_begin(&v->j);
			json_kstr(&v->j, "name", at[k].name);
			json_kstr(&v->j, "kind", at[k].umask ? "umask" : "qualifier");
			json_kstr(&v->j, "description", at[k].desc);
			json_obj_end(&v->j);
		}
		json_arr_end(&v->j);
		json_obj_end(&v->j);
		return json_end(&v->j) ? CLI_FAIL : CLI_OK;
	}
	printf("Event name:     %s\n", in.symbol);
	printf("Event code:     0x%08x\n", in.event_code);
	printf("PMU:            %s (%s)%s%s\n", p ? p->name : "?", p ? p->desc : "?",
	       pwhy ? ", not in this kernel: " : "", pwhy ? pwhy : "");
	if (e->sysfs)
		printf("Named by:       the kernel (sysfs and its generic events), not libpfm4\n");
	printf("Description:    %s\n", in.long_descr);
	printf("Countable here: %s%s\n", why ? "no: " : "yes", why ? why : "");
	for (int k = 0; k < na; k++)
		if (at[k].umask)
			printf("  unit mask  :%-28s %s%s\n", at[k].name, at[k].desc, at[k].dflt ? " (default)" : "");
	for (int k = 0; k < na; k++)
		if (!at[k].umask)
			printf("  qualifier  :%-28s %s\n", at[k].integer ? strcat(at[k].name, "=N") : at[k].name,
			       at[k].desc);
	return CLI_OK;
}

#ifdef PAPI_CMD_DLOPEN
/* papi_native_avail -sde FILE: load the library FILE (which links libsde)
 * and have it register its software-defined events without running it,
 * through the hook PAPI 7.0 defines for this, papi_sde_hook_list_events;
 * the sde component then lists them. CLI_OK, or the error reported. */
static int load_sde(const char *file)
{
	char path[4096];
	/* a name without '/' is a file here, not one for the loader to search */
	snprintf(path, sizeof path, "%s%s", strchr(file, '/') ? "" : "./", file);
	void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	if (!h)
		return cli_error(spec.name, "--sde %s: cannot load it: %s", file, dlerror());
	papi_handle_t (*hook)(papi_sde_fptr_struct_t *);
	*(void **)&hook = dlsym(h, "papi_sde_hook_list_events");
	if (!hook)
		return cli_error(spec.name, "--sde %s: it defines no papi_sde_hook_list_events, the call by "
				 "which a library registers its software-defined events without running",
				 file);
	papi_sde_fptr_struct_t f;
	static const char *const names[] = {
		"papi_sde_init", "papi_sde_shutdown", "papi_sde_register_counter",
		"papi_sde_register_counter_cb", "papi_sde_unregister_counter", "papi_sde_describe_counter",
		"papi_sde_add_counter_to_group", "papi_sde_create_counter", "papi_sde_inc_counter",
		"papi_sde_create_recorder", "papi_sde_create_counting_set", "papi_sde_counting_set_insert",
		"papi_sde_counting_set_remove", "papi_sde_record", "papi_sde_reset_recorder",
		"papi_sde_reset_counter", "papi_sde_get_counter_handle",
	};
	_Static_assert(sizeof f == sizeof names / sizeof *names * sizeof(void *), "one name a call");
	void *fn[sizeof names / sizeof *names];
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!(fn[i] = dlsym(RTLD_DEFAULT, names[i])))
			return cli_error(spec.name, "--sde %s: libsde is not loaded with it (%s is missing): a "
					 "library with software-defined events links -lsde", file, names[i]);
	memcpy(&f, fn, sizeof f);
	if (!hook(&f))
		return cli_error(spec.name, "--sde %s: its papi_sde_hook_list_events registered nothing", file);
	return CLI_OK;
}

#else
/* The static papi (the Makefile's BIN_STATIC) cannot load a library: for
 * --sde it runs the dynamically linked papi that is built and installed
 * beside it, DIR/libexec/papi/papi in the build tree and DIR/../libexec/
 * papi/papi once installed (DIR: this program's folder), with the same
 * arguments. Returns only when it could not: CLI_FAIL, said why. */
static int sde_elsewhere(int argc, char **argv)
{
	char self[4096], path[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return cli_error(spec.name, "--sde: cannot find this program's folder (/proc/self/exe: %s)",
				 strerror(errno));
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	static const char *const where[] = { "%s/libexec/papi/papi", "%s/../libexec/papi/papi" };
	for (size_t i = 0; i < sizeof where / sizeof *where; i++) {
		snprintf(path, sizeof path, where[i], self);
		if (access(path, X_OK) != 0)
			continue;
		/* classic: papi_native_avail ARGS; else papi native ARGS */
		int classic = cli_is_classic(argv), k = 0;
		char **av = calloc((size_t)argc + 2, sizeof *av);
		if (!av)
			return cli_error(spec.name, "out of memory");
		if (!classic)
			av[k++] = "papi";
		for (int a = 0; a < argc; a++)
			av[k++] = argv[a];
		fflush(NULL);
		execv(path, av);
		int e = errno;
		free(av);
		return cli_error(spec.name, "--sde: cannot run %s: %s", path, strerror(e));
	}
	return cli_error(spec.name, "--sde: this papi is linked statically and cannot load a library; "
			 "the dynamically linked papi that does is missing (%s/libexec/papi/papi or "
			 "%s/../libexec/papi/papi): reinstall papi", self, self);
}
#endif

int cmd_native(int argc, char **argv)
{
	struct cli_ctx c;
	struct nv v = { .cur_pmu = -1 };
	const char *ev = NULL;
	int o, n, r, status = CLI_OK;

	const char *sde = NULL;
	v.classic = cli_is_classic(argv);
	if (v.classic)	/* PAPI 7's papi_native_avail exits 1 on a bad argument */
		cli_set_usage_status(CLI_FAIL);
	/* papi_native_avail spells it with one dash. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-sde"))
			argv[i] = "--sde";
	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1) {
		for (size_t i = 0; i < sizeof features / sizeof *features; i++)
			if (o == features[i].opt)
				v.feature = features[i].what;
		switch (o) {
		case O_NOGROUPS: break;	/* no PMU here has event groups to show */
		case O_SDE: sde = c.optarg; break;
		case 'e': ev = c.optarg; break;
		case 'i': v.inc = c.optarg; break;
		case 'x': v.exc = c.optarg; break;
		case 'c': v.check = 1; break;
		case O_NAMES: v.names = 1; break;
		case 'j': v.json = 1; break;
		case O_NOUMASKS: v.noumasks = 1; break;
		case O_NOQUAL: v.noqual = 1; break;
		case O_COUNTING: v.counting = 1; break;
		}
	}
	cli_operands(&c, &n);
	if (n)
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);
	if (v.names && v.json)
		return cli_usage(spec.name, "--names and --json do not go together");
	if (sde && access(sde, R_OK) != 0)
		return cli_error(spec.name, "%s: %s", sde, strerror(errno));
#ifdef PAPI_CMD_DLOPEN
	if (sde && load_sde(sde) != CLI_OK)
		return CLI_FAIL;
#else
	if (sde)	/* (the options, reordered by parsing, mean the same) */
		return sde_elsewhere(argc, argv);
#endif
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		return cli_error(spec.name, "PAPI_library_init: %s", PAPI_strerror(r));
	event_env_report(spec.name);
	if (v.check && cli_can_count(spec.name) != 0)
		return CLI_FAIL;
	if (v.json)
		json_init(&v.j, stdout, 1);
	if (ev) {
		status = one_event(&v, ev);
		PAPI_shutdown();
		return cli_finish(spec.name, cli_unread(spec.name, status));
	}
	if (v.json) {
		json_obj_begin(&v.j);
		json_key(&v.j, "pmus");
		json_arr_begin(&v.j);
	}
	list_all(&v);
	if (v.json) {
		if (v.cur_pmu >= 0) {
			json_arr_end(&v.j);
			json_obj_end(&v.j);
		}
		json_arr_end(&v.j);
		json_key(&v.j, "components");
		json_arr_begin(&v.j);
	}
	for (int k = 1; k < PAPI_num_components(); k++)
		list_component(&v, k);
	if (v.json) {
		json_arr_end(&v.j);
		json_kint(&v.j, "events", v.nevents);
		if (v.check)
			json_kint(&v.j, "not_countable", v.nbad);
		json_obj_end(&v.j);
		if (json_end(&v.j))
			status = CLI_FAIL;
	} else if (v.classic && !v.names) {
		printf("\nTotal events reported: %d\n", v.nevents);
		if (v.check)
			printf("Of these, %d cannot be counted here.\n", v.nbad);
	} else if (!v.names) {
		if (v.nevents)
			printf("\n");
		printf("%d native event%s", v.nevents, v.nevents == 1 ? "" : "s");
		if (v.check)
			printf(", %d cannot be counted here", v.nbad);
		printf("\n");
	}
	PAPI_shutdown();
	if (!v.nevents && (v.inc || v.exc || v.feature)) {
		/* Like grep: finding nothing is a failure a script can see. */
		if (v.feature)
			cli_error(spec.name, "no event here supports %s: an Itanium PMU feature, which "
				  "no PMU that Linux perf_event and libpfm4 drive has", v.feature);
		else if (v.inc && v.exc)
			cli_error(spec.name, "no event name contains '%s' without '%s'", v.inc, v.exc);
		else if (v.inc && *v.disabled)
			cli_error(spec.name, "no event name contains '%s': %s", v.inc, v.disabled);
		else if (v.inc)
			cli_error(spec.name, "no event name contains '%s'", v.inc);
		else
			cli_error(spec.name, "every event name contains '%s'", v.exc);
		/* PAPI 7's tool reports 0 events and passes */
		status = v.classic ? CLI_OK : CLI_FAIL;
	}
	return cli_finish(spec.name, cli_unread(spec.name, status));
}

/* events.c: papi stat's event list: parsing -e (with {...} groups), the default set, resolving names to codes, roles and units. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "tool.h"
#include "metrics.h"
#include "plan.h"

/* The default set: software events every Linux has, then the presets the
 * hardware may have. Uncountable ones are reported, not fatal. */
static const char *const default_set[] = {
	"perf::TASK-CLOCK", "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS", "perf::PAGE-FAULTS",
	"PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_BR_INS", "PAPI_BR_MSP",
};

int st_event_push(struct st *s, const char *name, int deflt)
{
	struct st_event *n = realloc(s->ev, (size_t)(s->nev + 1) * sizeof *n);
	if (!n)
		return -1;
	s->ev = n;
	n[s->nev] = (struct st_event){ .name = name, .deflt = deflt, .slot = -1 };
	return s->nev++;
}

/* -e LIST: names separated by commas; "{a,b}" makes a group of the names
 * in it. The names point into argv, which lives as long as the command.
 * shown: LIST as given, for messages. */
static int parse_list(struct st *s, char *list, const char *shown)
{
	char *p = list;
	int brace = 0;
	while (*p) {
		if (*p == '{') {
			if (brace)
				return cli_usage("stat", "'{' inside a group in '-e %s': groups do not nest",
						 shown), -1;
			brace = ++s->nbraces;
			p++;
		}
		char *name = p;
		/* the name ends at a comma outside PMU/TERMS/, or at a brace */
		char *comma = (char *)native_list_end(p);
		size_t k = strcspn(p, "{}");
		p = k < (size_t)(comma - p) ? p + k : comma;
		if (*p == '{')
			return cli_usage("stat", "'{' inside a name in '-e %s'", shown), -1;
		int close = *p == '}';
		if (close && !brace)
			return cli_usage("stat", "'}' without its '{' in '-e %s'", shown), -1;
		char end = *p;
		*p = '\0';
		if (!*name)
			return cli_usage("stat", "empty event name in '-e %s'", shown), -1;
		int at = st_event_push(s, name, 0);
		if (at < 0)
			return cli_error("stat", "out of memory"), -1;
		s->ev[at].brace = brace;
		if (close) {
			brace = 0;
			p++;
			if (*p && *p != ',')
				return cli_usage("stat", "'%c' after '}' in '-e %s': a group ends a name "
						 "(qualifiers go on each event inside)", *p, shown), -1;
			end = *p;
		}
		if (end == ',') {
			p++;
			if (!*p)
				return cli_usage("stat", "empty event name in '-e %s'", shown), -1;
		} else if (end == '\0' && !close) {
			break;
		}
	}
	if (brace)
		return cli_usage("stat", "'{' without its '}' in '-e %s'", shown), -1;
	return 0;
}

int st_events_parse(struct st *s, char *list)
{
	/* the names are cut out of list in place: messages quote it as given */
	char cut[80], shown[96];
	if (!*list)
		return cli_usage("stat", "empty event name in '-e %s'", list), -1;
	snprintf(shown, sizeof shown, "%s", cli_cut(list, cut, sizeof cut));
	return parse_list(s, list, shown);
}

int st_events_default(struct st *s)
{
	for (size_t i = 0; i < sizeof default_set / sizeof *default_set; i++) {
		const char *name = default_set[i];
		/* a whole CPU has no task clock of its own, as under perf stat -a */
		if (s->o.system_wide && i == 0)
			name = "perf::CPU-CLOCK";
		if (st_event_push(s, name, 1) < 0)
			return -1;
	}
	return 0;
}

/* Why perf_event's events cannot be counted in this run, or NULL: the
 * component is disabled (PAPI_DISABLE_COMPONENTS), so its events do not
 * even resolve. */
static char *component_off(void)
{
	/* Asked first, and cheaply: the component's full description counts
	 * its events, which starts libpfm4 (milliseconds on every run). */
	if (cmp_disabled(0) != 1)
		return NULL;
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	char buf[512];
	if (!ci || !ci->disabled)
		return NULL;
	snprintf(buf, sizeof buf, "component %.64s: %.200s; unset PAPI_DISABLE_COMPONENTS or leave "
		 "%.64s out of it", ci->name, ci->disabled_reason, ci->name);
	return strdup(buf);
}

/* Under LIBPFM_FORCE_PMU libpfm4 names only the forced PMU's events, so a
 * perf:: software event does not resolve though the kernel would count it:
 * not supported in this run, rather than unknown. */
static int hidden_by_force(const char *name)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	return forced && *forced && !strncasecmp(name, "perf::", 6);
}

/* Which role and unit an event has: from its perf encoding when it is a
 * native event, from its name when it is a preset. */
static void classify(struct st_event *e)
{
	static const struct {
		const char *preset;
		int role;
	} presets[] = {
		{ "PAPI_TOT_CYC", ROLE_CYC }, { "PAPI_TOT_INS", ROLE_INS },
		{ "PAPI_BR_INS", ROLE_BR_INS }, { "PAPI_BR_MSP", ROLE_BR_MSP },
	};
	e->role = ROLE_OTHER;
	if ((e->code & PAPI_NATIVE_MASK) && !(e->code & PAPI_PRESET_MASK)) {
		const struct native *n = native_get(e->code & PAPI_NATIVE_AND_MASK);
		if (!n || n->cidx > 0)
			return;
		if (n->attr.type == PERF_TYPE_SOFTWARE) {
			switch (n->attr.config) {
			case PERF_COUNT_SW_TASK_CLOCK: e->role = ROLE_TASK_CLOCK; break;
			case PERF_COUNT_SW_CPU_CLOCK: e->role = ROLE_CPU_CLOCK; break;
			case PERF_COUNT_SW_CONTEXT_SWITCHES: e->role = ROLE_CS; break;
			case PERF_COUNT_SW_CPU_MIGRATIONS: e->role = ROLE_MIGR; break;
			case PERF_COUNT_SW_PAGE_FAULTS: e->role = ROLE_PF; break;
			}
		} else if (n->attr.type == PERF_TYPE_HARDWARE) {
			switch (n->attr.config) {
			case PERF_COUNT_HW_CPU_CYCLES: e->role = ROLE_CYC; break;
			case PERF_COUNT_HW_INSTRUCTIONS: e->role = ROLE_INS; break;
			case PERF_COUNT_HW_BRANCH_INSTRUCTIONS: e->role = ROLE_BR_INS; break;
			case PERF_COUNT_HW_BRANCH_MISSES: e->role = ROLE_BR_MSP; break;
			}
		}
	} else {
		for (size_t i = 0; i < sizeof presets / sizeof *presets; i++)
			if (!strcasecmp(e->name, presets[i].preset))
				e->role = presets[i].role;
	}
	e->is_time = e->role == ROLE_TASK_CLOCK || e->role == ROLE_CPU_CLOCK;
}

/* period= and freq= ask the kernel to sample: an interrupt every N events
 * (or N times a second), which papi stat would pay for and never use (a
 * task clock sampled every microsecond slows a command down a
 * thousandfold). perf stat ignores them silently; papi stat refuses them,
 * so that what was asked for is never quietly something else. 0, or -1
 * after the message. */
static int sampling_qualifier(const struct st_event *e)
{
	if (!(e->code & PAPI_NATIVE_MASK) || (e->code & PAPI_PRESET_MASK))
		return 0;
	const struct native *n = native_get(e->code & PAPI_NATIVE_AND_MASK);
	if (!n || n->cidx > 0 || (!n->attr.sample_period && !n->attr.freq))
		return 0;
	const char *q = strcasestr(e->name, n->attr.freq ? ":freq=" : ":period=");
	char cut[80];
	cli_error("stat", "cannot count '%s': %.*s asks for sampling, which papi stat does not do "
		  "(it counts every event): leave the qualifier out", cli_cut(e->name, cut, sizeof cut),
		  q ? (int)strcspn(q + 1, ":") : 6, q ? q + 1 : "period");
	return -1;
}

int st_events_resolve(struct st *s)
{
	char *off = component_off();
	for (int i = 0; i < s->nev; i++) {
		struct st_event *e = &s->ev[i];
		papi_clear_reason();
		int ret = mg_resolve(e->name, &e->code);
		/* perf_event disabled: its names do not resolve (a preset's
		 * does), while other components' events count on */
		if (off && (ret != PAPI_OK || PAPI_get_event_component(e->code) == 0)) {
			e->reason = strdup(off);
			e->code = 0;
			continue;
		}
		if (ret != PAPI_OK) {
			if (e->deflt || hidden_by_force(e->name)) {
				st_not_available(e, ret);
				e->code = 0;
				continue;
			}
			/* as every command says it: "NAME: unknown event", "NAME:
			 * bad qualifier: ...", the name once, a suggestion after */
			char why[PAPI_HUGE_STR_LEN], cut[80];
			cli_error("stat", "%s: %s", cli_cut(e->name, cut, sizeof cut),
				  cli_name_why(e->name, ret, why, sizeof why));
			free(off);
			return -1;
		}
		if (sampling_qualifier(e) < 0) {
			free(off);
			return -1;
		}
		e->avail = 1;
		e->cidx = PAPI_get_event_component(e->code);
		if (e->cidx < 0)
			e->cidx = 0;
		classify(e);
	}
	free(off);
	return 0;
}

int st_cgroups_plan(struct st *s)
{
	int n = s->o.each_cgroup ? 0 : s->o.ncgroups;
	if (n > 1 && n != s->nev)
		return cli_usage("stat", "-G names %d cgroups for %d events: give one cgroup for every "
				 "event, one per event in order, or use --for-each-cgroup", n, s->nev), -1;
	for (int i = 0; i < s->nev; i++) {
		int k = n == 0 ? -1 : n == 1 ? 0 : i;
		s->ev[i].cg = k >= 0 && s->o.cgroups[k][0] ? k : -1;
	}
	return 0;
}

/* groups.c: papi stat's metric groups: the -g groups and their events, and the DEFAULT group's events among those counted. */
#include <math.h>
#include <perfmon/pfmlib.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "metrics.h"
#include "plan.h"

_Static_assert(ST_GROUP_EVENTS == MGROUP_MAX_EVENTS, "st_group.evi holds a group's events");

int st_groups_parse(struct st *s, char *list)
{
	char *save = NULL;
	if (!*list || list[strlen(list) - 1] == ',' || *list == ',' || strstr(list, ",,"))
		return cli_usage("stat", "empty group name in '-g %s'", list), -1;
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char **n = realloc(s->o.groups, (size_t)(s->o.ngroups + 1) * sizeof *n);
		if (!n)
			return cli_error("stat", "out of memory"), -1;
		s->o.groups = n;
		n[s->o.ngroups++] = t;
	}
	return 0;
}

static struct st_group *grp_push(struct st *s, const struct mgroup *g, int dflt)
{
	struct st_group *n = realloc(s->grp, (size_t)(s->ngrp + 1) * sizeof *n);
	if (!n)
		return NULL;
	s->grp = n;
	n = &s->grp[s->ngrp++];
	memset(n, 0, sizeof *n);
	n->g = g;
	n->dflt = dflt;
	for (int i = 0; i < ST_GROUP_EVENTS; i++)
		n->evi[i] = -1;
	return n;
}

/* The event of s->ev called name (any case), or -1. */
static int ev_named(const struct st *s, const char *name)
{
	for (int i = 0; i < s->nev; i++)
		if (!strcasecmp(s->ev[i].name, name))
			return i;
	return -1;
}

/* The core PMU for messages: libpfm4's name, else the kernel's. */
static const char *core_pmu(void)
{
	for (int i = 0; i < pmu_count(); i++)
		if (pmu_get(i)->pfm_type == PFM_PMU_TYPE_CORE)
			return pmu_get(i)->sysfs ? pmu_get(i)->kernel_name : pmu_get(i)->name;
	return NULL;
}

/* The PMUs that groups called name are written for, "a, b", into buf. */
static void written_for(const char *name, char *buf, size_t len)
{
	int n;
	size_t k = 0;
	const struct mgroup *const *all = mgroups_all(&n);
	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		for (int c = 0; !strcasecmp(all[i]->name, name) && all[i]->cpus && all[i]->cpus[c]; c++)
			if (k < len)
				k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "", all[i]->cpus[c]);
}

/* --topdown, --td-level: this CPU's TOPDOWN group (and TOPDOWN_L2 for
 * level 2) appended to the -g groups. 0, or -1 after a message. */
static int topdown_groups(struct st *s)
{
	static char *names[] = { "TOPDOWN", "TOPDOWN_L2" };
	const char *pmu = core_pmu();
	char cpus[512], here[96];
	if (pmu)
		snprintf(here, sizeof here, "core PMU %s", pmu);
	else
		snprintf(here, sizeof here, "no core PMU found");
	for (int l = 0; l < s->o.topdown; l++) {
		if (mgroups_find(names[l]))
			continue;
		written_for(names[l], cpus, sizeof cpus);
		if (l == 0)
			return cli_error("stat", "--topdown: no top-down metrics for this CPU (%s): "
					 "group %s is written for %s (papi groups --all %s)", here, names[l],
					 cpus[0] ? cpus : "no CPU", names[l]), -1;
		return cli_error("stat", "--td-level %d: this CPU (%s) has top-down level 1 only: "
				 "group %s is written for %s", l + 1, here, names[l],
				 cpus[0] ? cpus : "no CPU"), -1;
	}
	for (int l = 0; l < s->o.topdown; l++) {
		char **n = realloc(s->o.groups, (size_t)(s->o.ngroups + 1) * sizeof *n);
		if (!n)
			return cli_error("stat", "out of memory"), -1;
		s->o.groups = n;
		n[s->o.ngroups++] = names[l];
	}
	return 0;
}

int st_groups_add(struct st *s)
{
	if (s->o.topdown && topdown_groups(s) < 0)
		return -1;
	if (s->o.ngroups)
		group_files_report("stat");
	for (int k = 0; k < s->o.ngroups; k++) {
		const struct mgroup *g = mgroups_find(s->o.groups[k]);
		char cut[80];
		if (!g) {
			int n, elsewhere = 0;
			const struct mgroup *const *all = mgroups_all(&n);
			for (int i = 0; i < n; i++)
				elsewhere |= !strcasecmp(all[i]->name, s->o.groups[k]);
			return cli_error("stat", "unknown metric group '%s': %s",
					 cli_cut(s->o.groups[k], cut, sizeof cut),
					 elsewhere ? "it is written for other CPUs only (papi groups --all)"
						   : "see 'papi groups'"), -1;
		}
		int again = 0;
		for (int i = 0; i < s->ngrp; i++)
			again |= s->grp[i].g == g;
		if (again)
			continue;
		struct st_group *gr = grp_push(s, g, 0);
		struct mg_pick pick[MGROUP_MAX_EVENTS];
		if (!gr || mg_pick_all(g, pick) < 0)
			return cli_error("stat", "out of memory"), -1;
		for (int i = 0; i < g->nev; i++) {
			const char *name = g->ev[i].alt[pick[i].alt >= 0 ? pick[i].alt : 0];
			int at = ev_named(s, name);
			if (at < 0 && (at = st_event_push(s, name, 1)) < 0) {
				mg_picks_free(g, pick);
				return cli_error("stat", "out of memory"), -1;
			}
			if (!pick[i].ok && !s->ev[at].reason && pick[i].why)
				s->ev[at].reason = strdup(pick[i].why);
			gr->evi[i] = at;
		}
		mg_picks_free(g, pick);
	}
	return 0;
}

/* Are codes a and b the same count? The same code, or native events of the
 * same kernel encoding whatever their qualifiers (:u counts what the event
 * counts, in fewer places). */
static int same_event(int a, int b)
{
	if (a == b)
		return 1;
	if (!IS_NATIVE(a) || !IS_NATIVE(b))
		return 0;
	const struct native *x = native_get(a & PAPI_NATIVE_AND_MASK), *y = native_get(b & PAPI_NATIVE_AND_MASK);
	/* (another component's entry has no encoding: only its own code is it) */
	return x && y && x->cidx == 0 && y->cidx == 0 && x->attr.type == y->attr.type &&
	       x->attr.config == y->attr.config &&
	       x->attr.config1 == y->attr.config1 && x->attr.config2 == y->attr.config2;
}

/* Whether naming name may wake libpfm4 (1.5 ms or more in a VM): only
 * names the counted events made it start for anyway. */
static int cheap(const struct st *s, const char *name)
{
	struct native_sw sw;
	if (!strncasecmp(name, "PAPI_", 5) || native_sw_match(name, &sw))
		return 1;
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (!e->avail)
			continue;
		if (!IS_NATIVE(e->code))
			return 1;	/* a preset: its tables ask libpfm4 */
		const struct native *n = native_get(e->code & PAPI_NATIVE_AND_MASK);
		if (n && n->cidx == 0 && n->attr.type != PERF_TYPE_SOFTWARE)
			return 1;
	}
	return 0;
}

int st_groups_map(struct st *s)
{
	const struct mgroup *g = mgroups_find("DEFAULT");
	if (!g)
		return 0;
	struct st_group *gr = grp_push(s, g, 1);
	if (!gr)
		return -1;
	for (int i = 0; i < g->nev; i++)
		for (int k = 0; k < g->ev[i].nalt && gr->evi[i] < 0; k++) {
			const char *name = g->ev[i].alt[k];
			int code;
			if (!cheap(s, name) || mg_resolve(name, &code) != PAPI_OK)
				continue;
			for (int e = 0; e < s->nev && gr->evi[i] < 0; e++)
				if (s->ev[e].avail && same_event(s->ev[e].code, code))
					gr->evi[i] = e;
		}
	papi_clear_reason();
	return 0;
}

void st_plan_free(struct st *s)
{
	for (int i = 0; i < s->nev; i++)
		free(s->ev[i].reason);
	free(s->ev);
	free(s->grp);
	free(s->o.groups);
	free(s->dom_note);
	s->ev = NULL;
	s->nev = 0;
	s->grp = NULL;
	s->o.groups = NULL;
	s->dom_note = NULL;
}


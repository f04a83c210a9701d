/* tool.c: the papi tool's door into the core (tool.h): configure and read an EventSet by id, so that no code outside the core writes an EventSet_t. */
#include <string.h>

#include "core.h"
#include "door.h"

int es_configure(int id, const struct es_target *t)
{
	EventSet_t *es = es_lookup(id);
	if (!es)
		return PAPI_ENOEVST;
	if (!t || (t->cpu >= 0 && t->tid) || (t->cgroup && t->cpu < 0))
		return PAPI_EINVAL;
	if (es->state & PAPI_RUNNING)
		return PAPI_EISRUN;
	es->attach = t->tid;
	es->cpu = t->cpu;
	es->inherit = !!t->inherit;
	es->enable_on_exec = !!t->enable_on_exec;
	es->multiplex = !!t->multiplex;
	es->one_group = !!t->one_group;
	if (t->cgroup || es->cgroup_fd >= 0) {
		/* a binding to keep is not opened again */
		if (!(t->cgroup && es->cgroup && !strcmp(t->cgroup, es->cgroup)))
			return es_cgroup_bind(es, t->cgroup);
	}
	return es->nev ? es_reopen(es) : PAPI_OK;
}

int es_counts(int id, long long *values, uint64_t *enabled, uint64_t *running)
{
	EventSet_t *es = es_lookup(id);
	if (!es)
		return PAPI_ENOEVST;
	if (!values)
		return PAPI_EINVAL;
	if (es->nev > 0 && !es->cset && es->ngroups == 0)
		return PAPI_ENOTRUN;
	return es_read_times(es, values, enabled, running);
}

int es_counts_types(int id, int ntypes, long long *values, uint64_t *enabled, uint64_t *running,
		    long long *parts, unsigned *types)
{
	if (!parts || !types)
		return PAPI_EINVAL;
	int r = es_counts(id, values, enabled, running);
	if (r != PAPI_OK)
		return r;
	EventSet_t *es = es_lookup(id);
	for (int e = 0; e < es->nev; e++) {
		const struct es_event *ev = &es->ev[e];
		long long in[PAPI_EVENTS_IN_DERIVED_EVENT];
		types[e] = es->cset ? 0 : coretype_types(&ev->def);
		for (int t = 0; types[e] && t < ev->def.nterms; t++)
			in[t] = es->hwval[ev->hw[t]];
		for (int k = 0; k < ntypes; k++)
			parts[k * es->nev + e] = types[e] >> k & 1u ? coretype_part(&ev->def, in, k) : 0;
	}
	return PAPI_OK;
}

int es_pause(int id)
{
	EventSet_t *es = es_lookup(id);
	return es ? es_disable(es) : PAPI_ENOEVST;
}

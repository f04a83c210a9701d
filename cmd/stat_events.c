/* stat_events.c: papi stat's event list: parsing -e, the default set, resolving names and the EventSets per target. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "internal.h"
#include "metrics.h"
#include "stat.h"

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

int st_events_parse(struct st *s, char *list)
{
	/* The names point into argv, which lives as long as the command. */
	char *save = list;
	if (!*list || list[strlen(list) - 1] == ',' || *list == ',' || strstr(list, ",,"))
		return cli_usage("stat", "empty event name in '-e %s'", list), -1;
	for (char *t = cli_next_event(&save); t; t = cli_next_event(&save))
		if (st_event_push(s, t, 0) < 0)
			return -1;
	return 0;
}

int st_events_default(struct st *s)
{
	for (size_t i = 0; i < sizeof default_set / sizeof *default_set; i++)
		if (st_event_push(s, default_set[i], 1) < 0)
			return -1;
	return 0;
}

/* A reason a person can act on for an event that failed with ret. */
static char *reason_for(const char *name, int ret)
{
	const char *why = papi_last_reason();
	char buf[512];
	const char *core = NULL;
	if (!strncasecmp(name, "PAPI_", 5) || ret == PAPI_ECMP)
		core = pmu_core_unavailable_reason();
	if (core)
		return strdup(core);
	if (why && *why)
		return strdup(why);
	snprintf(buf, sizeof buf, "%s: %s", name,
		 ret == PAPI_ENOEVNT ? "no such event here (see 'papi avail' and 'papi native')"
				     : PAPI_strerror(ret));
	return strdup(buf);
}

/* A reason without the "NAME: " it may start with (the message names it);
 * the library may have cut a long name there. */
static const char *skip_name(const char *why, const char *name)
{
	const char *colon = strstr(why, ": ");
	size_t n = colon ? (size_t)(colon - why) : 0;
	return n && !strncmp(why, name, n) ? colon + 2 : why;
}

/* The reason is kept without the event's name, which the report shows
 * beside it, so that events sharing a reason are listed under it once. */
static void not_available(struct st_event *e, int ret)
{
	e->avail = 0;
	if (e->reason)
		return;
	char *why = reason_for(e->name, ret);
	const char *bare = why ? skip_name(why, e->name) : NULL;
	e->reason = bare && bare != why ? strdup(bare) : why;
	if (bare != why)
		free(why);
}

/* Why no event can be counted in this run, or NULL: the one component is
 * disabled (PAPI_DISABLE_COMPONENTS), so its events do not even resolve. */
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

int st_events_resolve(struct st *s)
{
	char *off = component_off();
	for (int i = 0; i < s->nev; i++) {
		struct st_event *e = &s->ev[i];
		if (off) {
			e->reason = strdup(off);
			continue;
		}
		papi_clear_reason();
		int ret = mg_resolve(e->name, &e->code);
		if (ret != PAPI_OK) {
			if (e->deflt || hidden_by_force(e->name)) {
				not_available(e, ret);
				e->code = 0;
				continue;
			}
			const char *why = papi_last_reason();
			char cut[80];
			const char *what = ret == PAPI_EINVAL ? "invalid" : "unknown";
			if (why && *why)
				cli_error("stat", "%s event '%s': %s", what, cli_cut(e->name, cut, sizeof cut),
					  skip_name(why, e->name));
			else
				cli_error("stat", "%s event '%s': %s (see 'papi avail' and "
					  "'papi native')", what, cli_cut(e->name, cut, sizeof cut), PAPI_strerror(ret));
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

/* Whether an event that failed to join a set with ret is merely not
 * supported here (reported, and the run goes on, as perf stat does) or
 * the setup failed (permission, the target, memory: papi stat stops). */
static int not_supported(int ret)
{
	switch (ret) {
	case PAPI_ENOEVNT: case PAPI_ENOSUPP: case PAPI_EINVAL: case PAPI_ECMP:
	case PAPI_ECNFLCT: case PAPI_ENOCMP: case PAPI_ECMP_DISABLED:
		return 1;
	default:
		return 0;
	}
}

/* The names of the events already added to a set, for a conflict message. */
static void added_names(struct st *s, int upto, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	char cut[80];
	for (int i = 0; i < upto && k + 1 < len; i++)
		if (s->ev[i].avail && s->ev[i].slot >= 0)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "",
					      cli_cut(s->ev[i].name, cut, sizeof cut));
}

static int add_all(struct st *s, int id, int first)
{
	EventSet_t *es = es_lookup(id);
	for (int i = 0; i < s->nev; i++) {
		struct st_event *e = &s->ev[i];
		if (!e->avail || e->cidx > 0)
			continue;	/* another component's: csets_add */
		if (!first) {		/* later sets take what the first one took */
			int ret = PAPI_add_event(id, e->code);
			if (ret != PAPI_OK && ret != PAPI_ECNFLCT)
				return ret;
			continue;
		}
		int dup = -1;
		for (int j = 0; j < i; j++)
			if (s->ev[j].avail && s->ev[j].code == e->code)
				dup = j;
		if (dup >= 0) {		/* the same event twice: one counter */
			e->slot = s->ev[dup].slot;
			continue;
		}
		int ret = PAPI_add_event(id, e->code);
		if (ret == PAPI_ECNFLCT && !s->o.no_multiplex && !es->multiplex) {
			/* Too many for the counters together: let the kernel
			 * rotate them, each in its own group, and scale. */
			es->multiplex = 1;
			s->multiplexed = 1;
			if ((ret = es_reopen(es)) == PAPI_OK)
				ret = PAPI_add_event(id, e->code);
		}
		if (ret == PAPI_ECNFLCT && s->o.no_multiplex) {
			char others[1024], cut[80];
			added_names(s, i, others, sizeof others);
			cli_error("stat", "cannot count %s together with %s: no counters can hold "
				  "them all at once (drop an event or allow multiplexing)",
				  cli_cut(e->name, cut, sizeof cut), others);
			return PAPI_ECNFLCT;
		}
		if (ret != PAPI_OK) {
			if (!not_supported(ret)) {
				char *why = reason_for(e->name, ret), cut[80];
				cli_error("stat", "cannot count %s: %s", cli_cut(e->name, cut, sizeof cut),
					  why ? skip_name(why, e->name) : PAPI_strerror(ret));
				free(why);
				return ret;
			}
			not_available(e, ret);
			continue;
		}
		e->slot = PAPI_num_events(id) - 1;
	}
	return PAPI_OK;
}

/* ------------------------------------------------------------------ other components
 * Their EventSets count on papi stat itself: what the whole machine does
 * (net, stealtime) while the command runs, and the command's own I/O (io),
 * which Linux adds to its parent's when papi reaps it. */

/* Why events of component cidx cannot count this run's targets, or NULL. */
static const char *cmp_unsuitable(const struct st *s, int cidx)
{
	static char why[300];
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	const char *name = ci ? ci->name : "?";
	if (!ci || ci->disabled)
		return NULL;	/* PAPI_add_event says why */
	if (ci->default_granularity == PAPI_GRN_THR)
		snprintf(why, sizeof why, "component %s counts the thread that reads it: papi stat "
			 "itself, not %s (it counts in a program that links libpapi)", name,
			 s->o.cmd ? "the command" : "the targets");
	else if (ci->default_granularity != PAPI_GRN_PROC)
		return NULL;
	else if (!s->o.cmd)
		snprintf(why, sizeof why, "component %s counts the process that reads it: papi stat "
			 "itself, not the processes attached to", name);
	else if (s->o.no_inherit)
		snprintf(why, sizeof why, "component %s sees the command's I/O with its children's, "
			 "once it has ended: not with --no-inherit", name);
	else if (s->o.interval_ms)
		snprintf(why, sizeof why, "component %s sees the command's I/O only once it has "
			 "ended: not with -I", name);
	else
		return NULL;
	return why;
}

/* Add the other components' events to their sets (once, with the first
 * target's). PAPI_OK, or an error after a message. */
static int csets_add(struct st *s)
{
	for (int i = 0; i < s->nev; i++) {
		struct st_event *e = &s->ev[i];
		if (!e->avail || e->cidx <= 0)
			continue;
		const char *why = cmp_unsuitable(s, e->cidx);
		if (why) {
			e->avail = 0;
			free(e->reason);
			e->reason = strdup(why);
			continue;
		}
		if (!s->csets) {
			s->ncsets = PAPI_num_components();
			if (!(s->csets = malloc((size_t)s->ncsets * sizeof *s->csets)))
				return cli_error("stat", "out of memory"), PAPI_ENOMEM;
			for (int k = 0; k < s->ncsets; k++)
				s->csets[k] = PAPI_NULL;
		}
		int dup = -1;
		for (int j = 0; j < i; j++)
			if (s->ev[j].avail && s->ev[j].code == e->code)
				dup = j;
		if (dup >= 0) {
			e->slot = s->ev[dup].slot;
			continue;
		}
		int *id = &s->csets[e->cidx], ret = PAPI_OK;
		if (*id == PAPI_NULL)
			ret = PAPI_create_eventset(id);
		if (ret == PAPI_OK)
			ret = PAPI_add_event(*id, e->code);
		if (ret != PAPI_OK) {
			if (!not_supported(ret)) {
				char *r = reason_for(e->name, ret), cut[80];
				cli_error("stat", "cannot count %s: %s", cli_cut(e->name, cut, sizeof cut),
					  r ? skip_name(r, e->name) : PAPI_strerror(ret));
				free(r);
				return ret;
			}
			not_available(e, ret);
			continue;
		}
		e->slot = PAPI_num_events(*id) - 1;
	}
	return PAPI_OK;
}

int st_csets_start(struct st *s)
{
	for (int k = 0; k < s->ncsets; k++) {
		int st = 0, ret;
		if (s->csets[k] == PAPI_NULL || PAPI_num_events(s->csets[k]) <= 0)
			continue;
		PAPI_state(s->csets[k], &st);
		ret = st & PAPI_RUNNING ? PAPI_reset(s->csets[k]) : PAPI_start(s->csets[k]);
		if (ret != PAPI_OK)
			return cli_error("stat", "cannot start counting: %s",
					 *papi_last_reason() ? papi_last_reason() : PAPI_strerror(ret)), -1;
	}
	return 0;
}

int st_csets_stop(struct st *s)
{
	int bad = 0;
	for (int k = 0; k < s->ncsets; k++) {
		int st = 0;
		if (s->csets[k] == PAPI_NULL || PAPI_state(s->csets[k], &st) != PAPI_OK ||
		    !(st & PAPI_RUNNING))
			continue;
		int ret = PAPI_stop(s->csets[k], NULL);
		if (ret != PAPI_OK)
			bad = cli_error("stat", "cannot stop counting: %s",
					*papi_last_reason() ? papi_last_reason() : PAPI_strerror(ret));
	}
	return bad ? -1 : 0;
}

/* --strict: an event that cannot be counted stops papi stat before the
 * command runs. 0, or -1 after naming each such event and why. */
static int refuse(const struct st *s)
{
	int bad = 0;
	char cut[80];
	for (int i = 0; i < s->nev; i++)
		if (!s->ev[i].avail) {
			cli_error("stat", "--strict: cannot count %s: %s", cli_cut(s->ev[i].name, cut, sizeof cut),
				  s->ev[i].reason ? skip_name(s->ev[i].reason, s->ev[i].name) : "not supported");
			bad = 1;
		}
	return bad ? -1 : 0;
}

int st_sets_add(struct st *s, pid_t tid, int enable_on_exec)
{
	int id = PAPI_NULL, ret = PAPI_create_eventset(&id);
	if (ret != PAPI_OK)
		return cli_error("stat", "cannot create an EventSet: %s", PAPI_strerror(ret)), -1;
	EventSet_t *es = es_lookup(id);
	es->attach = tid;
	es->inherit = !s->o.no_inherit;
	es->enable_on_exec = enable_on_exec;
	es->multiplex = s->multiplexed;
	int *n = realloc(s->sets, (size_t)(s->nsets + 1) * sizeof *n);
	pid_t *t = realloc(s->set_tid, (size_t)(s->nsets + 1) * sizeof *t);
	if (n)
		s->sets = n;
	if (t)
		s->set_tid = t;
	if (!n || !t)
		return cli_error("stat", "out of memory"), -1;
	s->sets[s->nsets] = id;
	s->set_tid[s->nsets] = tid;
	s->nsets++;
	ret = add_all(s, id, s->nsets == 1);
	if (ret == PAPI_OK && s->nsets == 1)
		ret = csets_add(s);
	if (ret == PAPI_OK && s->nsets == 1 && s->o.strict && refuse(s) < 0)
		return -1;
	if (ret != PAPI_OK && s->nsets > 1 && tid) {
		/* A thread of an attached process may end while we attach. */
		cli_error("stat", "cannot attach to thread %d: %s", (int)tid,
			  *papi_last_reason() ? papi_last_reason() : PAPI_strerror(ret));
		return -1;
	}
	return ret == PAPI_OK ? 0 : -1;
}

int st_sets_retarget(struct st *s, int i, pid_t tid)
{
	EventSet_t *es = es_lookup(s->sets[i]);
	es->attach = tid;
	s->set_tid[i] = tid;
	int ret = es_reopen(es);
	if (ret != PAPI_OK)
		return cli_error("stat", "cannot set the counters up again: %s",
				 *papi_last_reason() ? papi_last_reason() : PAPI_strerror(ret)), -1;
	return 0;
}

int st_sets_read(struct st *s, long long *val, uint64_t *en, uint64_t *run)
{
	for (int i = 0; i < s->nev; i++) {
		val[i] = 0;
		if (en)
			en[i] = run[i] = 0;
	}
	for (int k = 0; k < s->nsets; k++) {
		EventSet_t *es = es_lookup(s->sets[k]);
		int n = es->nev > 0 ? es->nev : 1;
		long long v[n];
		uint64_t e[n], r[n];
		if (es->nev == 0)
			continue;
		int ret = es_read_times(es, v, e, r);
		if (ret != PAPI_OK)
			return cli_error("stat", "%s", *papi_last_reason() ? papi_last_reason()
								 : PAPI_strerror(ret)), -1;
		for (int i = 0; i < s->nev; i++) {
			int sl = s->ev[i].slot;
			if (!s->ev[i].avail || s->ev[i].cidx > 0 || sl < 0 || sl >= es->nev)
				continue;
			val[i] += v[sl];
			if (en) {
				en[i] += e[sl];
				run[i] += r[sl];
			}
		}
	}
	/* the other components' counts (running: so far; stopped: the run's) */
	for (int k = 0; k < s->ncsets; k++) {
		int n = s->csets[k] == PAPI_NULL ? 0 : PAPI_num_events(s->csets[k]);
		if (n <= 0)
			continue;
		long long v[n];
		int ret = PAPI_read(s->csets[k], v);
		if (ret != PAPI_OK)
			return cli_error("stat", "%s", *papi_last_reason() ? papi_last_reason()
								 : PAPI_strerror(ret)), -1;
		for (int i = 0; i < s->nev; i++)
			if (s->ev[i].avail && s->ev[i].cidx == k && s->ev[i].slot >= 0 &&
			    s->ev[i].slot < n)
				val[i] = v[s->ev[i].slot];
	}
	return 0;
}

int st_sets_start(struct st *s)
{
	for (int k = 0; k < s->nsets; k++) {
		if (PAPI_num_events(s->sets[k]) == 0)
			continue;	/* none of the events is supported here */
		int ret = PAPI_start(s->sets[k]);
		if (ret != PAPI_OK)
			return cli_error("stat", "cannot start counting: %s", PAPI_strerror(ret)), -1;
	}
	return 0;
}

void st_free(struct st *s)
{
	for (int k = 0; k < s->nsets; k++) {
		PAPI_cleanup_eventset(s->sets[k]);
		PAPI_destroy_eventset(&s->sets[k]);
	}
	for (int k = 0; k < s->ncsets; k++)
		if (s->csets[k] != PAPI_NULL) {
			PAPI_stop(s->csets[k], NULL);
			PAPI_cleanup_eventset(s->csets[k]);
			PAPI_destroy_eventset(&s->csets[k]);
		}
	free(s->csets);
	for (int i = 0; i < s->nev; i++) {
		free(s->ev[i].reason);
		free(s->ev[i].val);
	}
	for (int i = 0; i < s->niv; i++)
		free(s->iv[i].val);
	free(s->iv);
	free(s->ivprev);
	free(s->ev);
	st_groups_free(s);
	free(s->sets);
	free(s->set_tid);
	free(s->runs);
	free(s->o.pids);
	free(s->o.tids);
}

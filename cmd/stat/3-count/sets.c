/* sets.c: papi stat's EventSets: one per target (a thread, a process, a CPU) and bundle ({a,b} groups apart), adding the events, reading them back. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "metrics.h"
#include "tool.h"
#include "count.h"

/*
 * Sets are kept target by target: with nb = 1 + nbraces bundles, set k
 * counts bundle k % nb of target k / nb. Bundle 0 holds the events given
 * alone (brace 0); bundle b > 0 the events of the b-th {...} group, opened as one kernel group so that
 * they are counted together or not at all. An event's slot is its index
 * in its bundle's set, the same for every target.
 */

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

/* Say that event e cannot be counted (ret: why), and return ret: papi
 * stat stops before the command runs. */
static int cannot_count(const struct st_event *e, int ret)
{
	char *why = mg_reason(e->name, ret), cut[80];
	cli_error("stat", "cannot count %s: %s", cli_cut(e->name, cut, sizeof cut),
		  why ? st_skip_name(why, e->name) : PAPI_strerror(ret));
	free(why);
	return ret;
}

/* Whether e, refused with ret, was refused for the domain its own
 * qualifiers name: one with the kernel's share (perf::TASK-CLOCK:k, :k=1)
 * refused this user insists, as a domain given with --domain does, alone
 * or with other events. That stops papi stat, as perf stat stops. (One
 * with no privilege level left, :u=0, is refused before it is added:
 * cli_no_level.) */
static int own_domain_refused(const struct st *s, const struct st_event *e, int ret)
{
	/* every level at once is no choice of the name's: msr's events
	 * count at every level whatever is asked */
	int named, dom = st_event_dom(s, e, &named);
	return named && ret == PAPI_EPERM && (dom & (PAPI_DOM_KERNEL | PAPI_DOM_SUPERVISOR)) &&
	       !st_dom_whole(dom);
}

/* The names of the events of bundle b already added to a set, for a
 * conflict message. */
static void added_names(struct st *s, int upto, int b, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	char cut[80];
	for (int i = 0; i < upto && k + 1 < len; i++)
		if (s->ev[i].avail && s->ev[i].slot >= 0 && s->ev[i].brace == b)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "",
					      cli_cut(s->ev[i].name, cut, sizeof cut));
}

/* "{a,b,c}" of brace group g, into buf. */
static void brace_names(const struct st *s, int g, char *buf, size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "{");
	for (int i = 0; i < s->nev && k + 2 < len; i++)
		if (s->ev[i].brace == g)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k > 1 ? "," : "", s->ev[i].name);
	if (k + 1 < len)
		snprintf(buf + k, len - k, "}");
}

/* A {...} group is counted whole or not at all: when one of its events
 * cannot be counted (here, or with the others), none is, each with the
 * reason. */
static void brace_fails(struct st *s, int g, const struct st_event *culprit, int ret)
{
	char names[512], why[768];
	char *r = mg_reason(culprit->name, ret);
	brace_names(s, g, names, sizeof names);
	snprintf(why, sizeof why, "%s: %s: %s", names, culprit->name,
		 ret == PAPI_ECNFLCT ? "no counters can hold the group's events all at once"
				     : r ? st_skip_name(r, culprit->name) : PAPI_strerror(ret));
	free(r);
	for (int i = 0; i < s->nev; i++)
		if (s->ev[i].brace == g && s->ev[i].avail) {
			s->ev[i].avail = 0;
			s->ev[i].slot = -1;
			free(s->ev[i].reason);
			s->ev[i].reason = strdup(why);
		}
}

/* How target t's set of bundle b counts: bundle 0 multiplexed once its
 * events did not fit, each {...} bundle one kernel group. */
static struct es_target set_target(const struct st *s, const struct st_target *t, int b)
{
	const char *cg = s->o.ncgroups && t->cg >= 0 ? s->o.cgroups[t->cg] : NULL;
	return (struct es_target){
		.cgroup = cg && *cg ? cg : NULL,
		.tid = t->tid, .cpu = t->cpu,
		/* a CPU is counted whole, whoever runs there: nothing to inherit */
		.inherit = t->cpu < 0 && !s->o.no_inherit && !st_trace_wanted(s),
		.enable_on_exec = t->enable_on_exec,
		.multiplex = b == 0 && s->multiplexed,
		.one_group = b > 0,
	};
}

/* Whether target t counts event e: with -G, only the targets of e's cgroup
 * (or of none) do. */
static int counts_event(const struct st *s, const struct st_target *t, const struct st_event *e)
{
	return !s->o.ncgroups || s->o.each_cgroup || e->cg == t->cg;
}

/* Add the events of bundle b to set id of target t. first: the first set
 * of its cgroup, which decides what can be counted; the later ones take the
 * same. */
static int add_bundle(struct st *s, const struct st_target *tg, int id, int b, int first)
{
	int refused = -1;	/* the first event the kernel refused this user */
	for (int i = 0; i < s->nev; i++) {
		struct st_event *e = &s->ev[i];
		if (!e->avail || e->brace != b || e->cidx > 0 || !counts_event(s, tg, e))
			continue;	/* another component's (csets_add), or cgroup's */
		if (!first) {
			int ret = PAPI_add_event(id, e->code);
			if (ret != PAPI_OK && ret != PAPI_ECNFLCT)
				return ret;
			continue;
		}
		int dup = -1;
		for (int j = 0; j < i; j++)
			if (s->ev[j].avail && s->ev[j].code == e->code && s->ev[j].brace == b &&
			    s->ev[j].cg == e->cg)
				dup = j;
		if (dup >= 0) {		/* the same event twice: one counter */
			e->slot = s->ev[dup].slot;
			continue;
		}
		const char *nolevel = cli_no_level(e->code);
		if (nolevel) {
			char cut[80];
			cli_error("stat", "cannot count %s: %s", cli_cut(e->name, cut, sizeof cut), nolevel);
			return PAPI_EINVAL;
		}
		int ret = PAPI_add_event(id, e->code);
		if (st_domain_refused(s, ret))
			return ret;	/* the caller counts user space instead */
		if (ret != PAPI_OK && own_domain_refused(s, e, ret))
			return cannot_count(e, ret);
		if (b > 0 && ret != PAPI_OK) {
			if (!not_supported(ret))
				return cannot_count(e, ret);
			brace_fails(s, e->brace, e, ret);
			PAPI_cleanup_eventset(id);
			return PAPI_OK;
		}
		if (ret == PAPI_ECNFLCT && !s->o.no_multiplex && !s->multiplexed) {
			/* Too many for the counters together: let the kernel
			 * rotate them, each in its own group, and scale. */
			s->multiplexed = 1;
			struct es_target t = set_target(s, &s->tg[s->ntargets - 1], b);
			if ((ret = es_configure(id, &t)) == PAPI_OK)
				ret = PAPI_add_event(id, e->code);
			if (st_domain_refused(s, ret))
				return ret;
		}
		if (ret == PAPI_ECNFLCT && s->o.no_multiplex) {
			char others[1024], cut[80];
			added_names(s, i, b, others, sizeof others);
			cli_error("stat", "cannot count %s together with %s: no counters can hold "
				  "them all at once (drop an event or allow multiplexing)",
				  cli_cut(e->name, cut, sizeof cut), others);
			return PAPI_ECNFLCT;
		}
		if (ret == PAPI_EPERM && b == 0) {
			/* This event only, or the target? Known once the others
			 * are added (msr's events need paranoid 1 where the
			 * software events are counted at 2, as under perf stat). */
			st_not_available(e, ret);
			if (refused < 0)
				refused = i;
			continue;
		}
		if (ret != PAPI_OK) {
			if (!not_supported(ret))
				return cannot_count(e, ret);
			st_not_available(e, ret);
			continue;
		}
		e->slot = PAPI_num_events(id) - 1;
	}
	if (refused >= 0 && PAPI_num_events(id) == 0) {
		/* nothing could be counted: the target itself is refused */
		char cut[80];
		cli_error("stat", "cannot count %s: %s", cli_cut(s->ev[refused].name, cut, sizeof cut),
			  s->ev[refused].reason);
		return PAPI_EPERM;
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
		if (why && e->brace) {
			papi_set_reason("%s", why);	/* the group: whole or not at all */
			brace_fails(s, e->brace, e, PAPI_ENOSUPP);
			continue;
		}
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
			if (!not_supported(ret))
				return cannot_count(e, ret);
			if (e->brace)
				brace_fails(s, e->brace, e, ret);
			else
				st_not_available(e, ret);
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
			return cli_error("stat", "cannot start counting: %s", cli_reason(ret)), -1;
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
			bad = cli_error("stat", "cannot stop counting: %s", cli_reason(ret));
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
				  s->ev[i].reason ? st_skip_name(s->ev[i].reason, s->ev[i].name) : "not supported");
			bad = 1;
		}
	return bad ? -1 : 0;
}

/* ------------------------------------------------------------------ domains
 * papi stat asks for the kernel's share where the capabilities say this
 * user may count it (2-plan/domain.c); the kernel has the last word. */
int st_domain_refused(const struct st *s, int ret)
{
	return ret == PAPI_EPERM && s->dom_auto && (s->dom & PAPI_DOM_KERNEL);
}

int st_domain_fallback(struct st *s)
{
	/* The capabilities said yes, the kernel no: a root or CAP_PERFMON
	 * of a user namespace counts nothing of the kernel; so do a security
	 * policy and a kernel closed harder than its perf_event_paranoid says. */
	return st_domain_user(s, strdup("the kernel refused to count its own share although this user "
				   "holds CAP_PERFMON or CAP_SYS_ADMIN (in a user namespace, or a "
				   "security policy forbids it)"));
}

void st_domain_labels(struct st *s)
{
	for (int i = 0; i < s->nev; i++) {
		struct st_event *e = &s->ev[i];
		int named, dom = st_event_dom(s, e, &named);
		free(e->label);
		e->label = NULL;
		/* perf's modifiers, as perf stat writes page-faults:u; a name
		 * that carries its own says it already */
		char mod[8] = "";
		if (dom && !named && !st_dom_whole(dom))
			snprintf(mod, sizeof mod, ":%s%s%s", dom & PAPI_DOM_USER ? "u" : "",
				 dom & PAPI_DOM_KERNEL ? "k" : "", dom & PAPI_DOM_SUPERVISOR ? "h" : "");
		/* -G: the cgroup it counts in, as perf prints it beside the name */
		const char *cg = e->cg >= 0 ? s->o.cgroups[e->cg] : NULL;
		if (!mod[0] && !cg)
			continue;
		size_t n = strlen(e->name) + sizeof mod + (cg ? strlen(cg) + 12 : 0);
		if ((e->label = malloc(n)))
			snprintf(e->label, n, "%s%s%s%s%s", e->name, mod, cg ? " (cgroup " : "", cg ? cg : "",
				 cg ? ")" : "");
	}
}


/* ------------------------------------------------------------------ targets */
/* One set of target t for bundle b, configured for it. Its id, or -1. */
static int new_set(struct st *s, const struct st_target *t, int b)
{
	int id = PAPI_NULL, ret = PAPI_create_eventset(&id);
	if (ret != PAPI_OK)
		return cli_error("stat", "cannot create an EventSet: %s", PAPI_strerror(ret)), -1;
	struct es_target how = set_target(s, t, b);
	if ((ret = es_configure(id, &how)) != PAPI_OK) {
		PAPI_destroy_eventset(&id);
		return cli_error("stat", "cannot set an EventSet up: %s", cli_reason(ret)), -1;
	}
	return id;
}

int st_sets_add_target(struct st *s, const struct st_target *t)
{
	int nb = 1 + s->nbraces;	/* bundle 0, and one per {...} */
	int *n = realloc(s->sets, (size_t)(s->nsets + nb) * sizeof *n);
	if (n)
		s->sets = n;
	struct st_target *tg = realloc(s->tg, (size_t)(s->ntargets + 1) * sizeof *tg);
	if (tg)
		s->tg = tg;
	if (!n || !tg)
		return cli_error("stat", "out of memory"), -1;
	int first = s->ntargets == 0, ret = PAPI_OK, first_cg = 1;
	for (int k = 0; k < s->ntargets; k++)
		if (s->tg[k].cg == t->cg)
			first_cg = 0;	/* -G: each cgroup's first target decides its events */
	s->tg[s->ntargets++] = *t;
	for (int b = 0; b < nb && ret == PAPI_OK; b++) {
		int id = new_set(s, t, b);
		if (id < 0)
			return -1;
		s->sets[s->nsets++] = id;
		ret = add_bundle(s, t, id, b, first || (first_cg && !s->o.each_cgroup));
	}
	if (first && st_domain_refused(s, ret)) {
		/* the kernel's share refused: this target again, in user space */
		while (s->nsets > 0) {	/* the first target's are all there are */
			PAPI_cleanup_eventset(s->sets[s->nsets - 1]);
			PAPI_destroy_eventset(&s->sets[--s->nsets]);
		}
		s->ntargets--;
		s->multiplexed = 0;
		for (int i = 0; i < s->nev; i++)
			s->ev[i].slot = -1;
		if (st_domain_fallback(s) < 0)
			return -1;
		return st_sets_add_target(s, t);
	}
	if (ret == PAPI_OK && first)
		ret = csets_add(s);
	if (ret == PAPI_OK && first)
		st_domain_labels(s);
	if (ret == PAPI_OK && first && s->o.strict && refuse(s) < 0)
		return -1;
	if (ret != PAPI_OK && !first && t->tid) {
		/* A thread of an attached process may end while we attach. */
		cli_error("stat", "cannot attach to thread %d: %s", (int)t->tid, cli_reason(ret));
		return -1;
	}
	return ret == PAPI_OK ? 0 : -1;
}

/* Whether some event counts in cgroup k (-1: the whole system). */
static int cg_used(const struct st *s, int k)
{
	for (int i = 0; i < s->nev; i++)
		if (s->ev[i].cg == k)
			return 1;
	return 0;
}

int st_cpus_targets(struct st *s)
{
	if (st_cpus_read(s) < 0)
		return -1;
	/* each cgroup counted (-1: every task), and in it every CPU */
	for (int k = s->o.ncgroups && !s->o.each_cgroup ? -1 : 0; k < (s->o.ncgroups ? s->o.ncgroups : 1); k++) {
		if (s->o.ncgroups && !s->o.each_cgroup && !cg_used(s, k))
			continue;
		for (int i = 0; i < s->o.ncpus; i++) {
			struct st_target t = { .tid = 0, .cpu = s->o.cpus[i], .cg = s->o.ncgroups ? k : -1 };
			if (st_sets_add_target(s, &t) < 0)
				return -1;
		}
	}
	return 0;
}

int st_sets_add(struct st *s, pid_t tid, int enable_on_exec)
{
	struct st_target t = { .tid = tid, .cpu = -1, .cg = -1, .enable_on_exec = enable_on_exec };
	return st_sets_add_target(s, &t);
}

int st_sets_retarget(struct st *s, int target, pid_t tid)
{
	int nb = 1 + s->nbraces;	/* bundle 0, and one per {...} */
	s->tg[target].tid = tid;
	for (int k = target * nb; k < (target + 1) * nb; k++) {
		struct es_target t = set_target(s, &s->tg[target], k - target * nb);
		int ret = es_configure(s->sets[k], &t);
		if (ret != PAPI_OK)
			return cli_error("stat", "cannot set the counters up again: %s", cli_reason(ret)), -1;
	}
	return 0;
}

/* Add target t's counts into val[nev] (and en/run when not NULL), and with
 * parts each event's part on each core type (row) into parts[nrows][nev]. */
static int read_target(struct st *s, int t, long long *val, uint64_t *en, uint64_t *run, long long *parts)
{
	int nb = 1 + s->nbraces;	/* bundle 0, and one per {...} */
	for (int b = 0; b < nb; b++) {
		int nev = PAPI_num_events(s->sets[t * nb + b]);
		int n = nev > 0 ? nev : 1, nw = parts ? s->nrows : 1;
		long long v[n], p[nw * n];
		uint64_t e[n], r[n];
		unsigned ty[n];
		if (nev <= 0)
			continue;
		int set = s->sets[t * nb + b];
		int ret = parts ? es_counts_types(set, nw, v, e, r, p, ty) : es_counts(set, v, e, r);
		if (ret != PAPI_OK)
			return cli_error("stat", "%s", cli_reason(ret)), -1;
		for (int i = 0; i < s->nev; i++) {
			int sl = s->ev[i].slot;
			if (!s->ev[i].avail || s->ev[i].brace != b || s->ev[i].cidx > 0 || sl < 0 ||
			    sl >= nev || !counts_event(s, &s->tg[t], &s->ev[i]))
				continue;
			val[i] += v[sl];
			for (int w = 0; parts && w < nw; w++)
				parts[w * s->nev + i] += p[w * n + sl];
			if (parts)
				s->ev[i].types = ty[sl];
			if (en) {
				en[i] += e[sl];
				run[i] += r[sl];
			}
		}
	}
	return 0;
}

int st_sets_read_target(struct st *s, int t, long long *val, uint64_t *en, uint64_t *run, long long *parts)
{
	for (int i = 0; i < s->nev; i++) {
		val[i] = 0;
		if (en)
			en[i] = run[i] = 0;
	}
	return read_target(s, t, val, en, run, parts);
}

int st_sets_read(struct st *s, long long *val, uint64_t *en, uint64_t *run)
{
	for (int i = 0; i < s->nev; i++) {
		val[i] = 0;
		if (en)
			en[i] = run[i] = 0;
	}
	for (int t = 0; t < s->ntargets; t++)
		if (read_target(s, t, val, en, run, NULL) < 0)
			return -1;
	return st_csets_read(s, val);
}

int st_csets_read(struct st *s, long long *val)
{
	/* the other components' counts (running: so far; stopped: the run's) */
	for (int k = 0; k < s->ncsets; k++) {
		int n = s->csets[k] == PAPI_NULL ? 0 : PAPI_num_events(s->csets[k]);
		if (n <= 0)
			continue;
		long long v[n];
		int ret = PAPI_read(s->csets[k], v);
		if (ret != PAPI_OK)
			return cli_error("stat", "%s", cli_reason(ret)), -1;
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

void st_sets_stop(struct st *s)
{
	for (int k = 0; k < s->nsets; k++)
		if (PAPI_num_events(s->sets[k]) > 0)
			es_pause(s->sets[k]);
}

void st_sets_free(struct st *s)
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
	free(s->sets);
	s->csets = s->sets = NULL;
	s->ncsets = s->nsets = 0;
}

/* options.c: PAPI_set_opt / PAPI_get_opt / PAPI_get_cmp_opt, domains, granularities, attach, CPU binding, inheritance. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "5-core/core.h"

/* What the perf_event component can honour (as PAPI 7 reports it): a
 * thread or a whole CPU. Its domains are the kernel's exclude_user, _kernel
 * and _hv bits, as far as this process may count them (pe_domains_allowed). */
#define GRNS_AVAILABLE (PAPI_GRN_THR | PAPI_GRN_SYS)
/* The multiplexed counters a set may hold (PAPI 7's perf_event limit). */
#define MAX_MPX_CTRS 384

PAPI_itimer_option_t papi_itimer = { ITIMER_PROF, SIGPROF, 10000000, 0 };
static PAPI_debug_handler_t debug_handler;
static char *user_events_file;

static void options_shutdown(void)
{
	free(user_events_file);
	user_events_file = NULL;
}

static int ncomponents(void)
{
	int n = PAPI_num_components();
	return n > 0 ? n : 1;
}

static int cmp_valid(int cidx)
{
	return cidx >= 0 && cidx < ncomponents();
}

/* Counters of component cidx: its info when the component module answers,
 * else the first core PMU the kernel has (libpfm4's count, as PAPI 7). */
static int cmp_counters(int cidx, int mpx)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	if (ci)
		return ci->disabled ? 0 : mpx ? ci->num_mpx_cntrs : ci->num_cntrs;
	if (cidx != 0)
		return 0;
	if (mpx)
		return MAX_MPX_CTRS;
	for (int i = 0; i < pmu_count(); i++) {
		const struct pmu *p = pmu_get(i);
		if (p && p->pfm_type == 1 /* PFM_PMU_TYPE_CORE */)
			return p->num_cntrs + p->num_fixed;
	}
	return 0;
}

/* A domain as this process may count it, as PAPI 7 checks it: PAPI_DOM_ALL
 * is every domain the kernel allows (user and hypervisor only, without the
 * privilege to count the kernel); other bits outside those (PAPI_DOM_OTHER,
 * which perf_event cannot separate, or a kernel refused) are `refused`, with
 * the reason; 0 or bits PAPI does not define are `invalid`. */
static int domain_fix(int dom, int invalid, int refused, int *out)
{
	if (dom <= 0 || (dom & ~PAPI_DOM_ALL))
		return invalid;
	int allowed = pe_domains_allowed();
	if (dom == PAPI_DOM_ALL)
		dom = allowed;
	if (dom & ~allowed) {
		if (dom & PAPI_DOM_KERNEL & ~allowed) {
			char why[300];
			pe_kernel_advice(why, sizeof why);
			papi_set_reason("PAPI_DOM_KERNEL: %s", why);
		} else {
			papi_set_reason("PAPI_DOM_OTHER: perf_event counts only the user, kernel "
					"and hypervisor domains");
		}
		return refused;
	}
	*out = dom;
	return PAPI_OK;
}

/* Look up a set whose counting parameters will change: PAPI_ENOEVST,
 * PAPI_ENOCMP (not bound to a component yet), PAPI_EISRUN. */
static int es_for_change(int id, EventSet_t **out)
{
	EventSet_t *es = es_lookup(id);
	if (!es)
		return PAPI_ENOEVST;
	if (es->cidx < 0)
		return PAPI_ENOCMP;
	if (es->state & PAPI_RUNNING)
		return PAPI_EISRUN;
	*out = es;
	return PAPI_OK;
}

/* Attach, CPU binding and inheritance choose what perf_event's counters
 * count; a set of another component counts what that component counts.
 * PAPI_OK for perf_event's sets, else PAPI_ECMP with the reason. */
static int perf_only(const EventSet_t *es, const char *what)
{
	if (es->cidx <= 0)
		return PAPI_OK;
	const PAPI_component_info_t *ci = PAPI_get_component_info(es->cidx);
	papi_set_reason("%s: not for an EventSet of component %s, which counts %s", what,
			ci ? ci->name : "?",
			ci && ci->default_granularity == PAPI_GRN_SYS    ? "the whole machine"
			: ci && ci->default_granularity == PAPI_GRN_PROC ? "the process that reads it"
									 : "the thread that reads it");
	return PAPI_ECMP;
}

/* Apply a change already written into es by reopening its counters; on
 * failure restore the saved parameters (and their counters). */
struct params {
	pid_t attach;
	int cpu, inherit, domain, state;
};

static void params_save(const EventSet_t *es, struct params *p)
{
	*p = (struct params){ es->attach, es->cpu, es->inherit, es->domain, es->state };
}

static int params_apply(EventSet_t *es, const struct params *old)
{
	if (es->nhw == 0)
		return PAPI_OK;
	int ret = es_reopen(es);
	if (ret != PAPI_OK) {
		es->attach = old->attach;
		es->cpu = old->cpu;
		es->inherit = old->inherit;
		es->domain = old->domain;
		es->state = old->state;
		es_reopen(es);
	}
	return ret;
}

static int set_attach_impl(int id, unsigned long tid, int on)
{
	EventSet_t *es;
	int ret = es_for_change(id, &es);
	if (ret != PAPI_OK)
		return ret;
	if ((ret = perf_only(es, on ? "PAPI_attach" : "PAPI_detach")) != PAPI_OK)
		return ret;
	struct params old;
	params_save(es, &old);
	if (on) {
		if ((es->state & PAPI_ATTACHED) || tid == 0 || tid > (unsigned long)INT32_MAX ||
		    es->cgroup_fd >= 0)	/* a cgroup's set counts no one thread */
			return PAPI_EINVAL;
		es->attach = (pid_t)tid;
		es->state |= PAPI_ATTACHED;
	} else {
		if (!(es->state & PAPI_ATTACHED))
			return PAPI_EINVAL;
		es->attach = 0;
		es->state &= ~PAPI_ATTACHED;
	}
	return params_apply(es, &old);
}

/* In flight (es_enter/es_leave): a concurrent PAPI_shutdown waits for it. */
static int set_attach(int id, unsigned long tid, int on)
{
	return ES_IN_FLIGHT(set_attach_impl(id, tid, on));
}

/* PAPI_attach: count the thread or process tid instead of the owner.
 * PAPI_ENOEVST, PAPI_ENOCMP (no event or component yet), PAPI_EISRUN,
 * PAPI_EINVAL (already attached, tid 0, bound to a cgroup), PAPI_ESYS (no such task),
 * PAPI_EPERM (not allowed to watch it). */
int PAPI_attach(int EventSet, unsigned long tid)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	return set_attach(EventSet, tid, 1);
}

/* PAPI_detach: count the owner thread again. PAPI_EINVAL when the set is
 * not attached; otherwise as PAPI_attach. */
int PAPI_detach(int EventSet)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	return set_attach(EventSet, 0, 0);
}

static int set_cpu(const PAPI_cpu_option_t *c)
{
	EventSet_t *es;
	int ret = es_for_change(c->eventset, &es);
	if (ret != PAPI_OK)
		return ret;
	if ((ret = perf_only(es, "PAPI_CPU_ATTACH")) != PAPI_OK)
		return ret;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (c->cpu_num >= (unsigned)(ncpu > 0 ? ncpu : 1))
		return PAPI_EINVAL;
	if (!pe_cpu_allowed()) {
		char why[400];
		struct perf_event_attr a = { .exclude_kernel = !(es->domain & PAPI_DOM_KERNEL) };
		pe_advice(EACCES, "PAPI_CPU_ATTACH", &a, -1, (int)c->cpu_num, NULL, why, sizeof why);
		papi_set_reason("%s", why);
		return PAPI_EPERM;
	}
	struct params old;
	params_save(es, &old);
	es->cpu = (int)c->cpu_num;
	es->state |= PAPI_CPU_ATTACHED;
	return params_apply(es, &old);
}

/* es_cgroup_bind (core.h): on an error the set keeps its old binding. */
int es_cgroup_bind(EventSet_t *es, const char *path)
{
	int fd = -1;
	char *copy = NULL;
	if (path) {
		char why[1400];
		if (es->cpu < 0 || es->attach) {
			papi_set_reason("cgroup %s: a cgroup is counted on one CPU: bind the EventSet "
					"to a CPU with PAPI_CPU_ATTACH first%s", path,
					es->attach ? " (and not to a thread)" : "");
			return PAPI_EINVAL;
		}
		if ((fd = pe_cgroup_open(path, why, sizeof why)) < 0) {
			papi_set_reason("%s", why);
			return fd;
		}
		if (!(copy = strdup(path))) {
			close(fd);
			return PAPI_ENOMEM;
		}
	}
	int old_fd = es->cgroup_fd;
	char *old_path = es->cgroup;
	es->cgroup_fd = fd;
	es->cgroup = copy;
	int ret = es->nhw ? es_reopen(es) : PAPI_OK;
	if (ret != PAPI_OK) {
		es->cgroup_fd = old_fd;
		es->cgroup = old_path;
		es_reopen(es);
		if (fd >= 0)
			close(fd);
		free(copy);
		return ret;
	}
	if (old_fd >= 0)
		close(old_fd);
	free(old_path);
	return PAPI_OK;
}

static int set_cgroup(const PAPI_cgroup_option_t *c)
{
	EventSet_t *es;
	int ret = es_for_change(c->eventset, &es);
	if (ret != PAPI_OK)
		return ret;
	if ((ret = perf_only(es, "PAPI_CGROUP_ATTACH")) != PAPI_OK)
		return ret;
	if (!c->path && es->cgroup_fd < 0)
		return PAPI_EINVAL;
	return es_cgroup_bind(es, c->path);
}

static int set_es_domain(int id, int dom)
{
	EventSet_t *es;
	int ret = es_for_change(id, &es);
	if (ret != PAPI_OK)
		return ret;
	int d;
	if ((ret = domain_fix(dom, PAPI_EINVAL_DOM, PAPI_EINVAL_DOM, &d)) != PAPI_OK)
		return ret;
	struct params old;
	params_save(es, &old);
	es->domain = d;
	return params_apply(es, &old);
}

static int set_inherit(const PAPI_inherit_option_t *o)
{
	EventSet_t *es;
	int ret = es_for_change(o->eventset, &es);
	if (ret != PAPI_OK)
		return ret;
	if ((ret = perf_only(es, "PAPI_INHERIT")) != PAPI_OK)
		return ret;
	if (o->inherit != PAPI_INHERIT_ALL && o->inherit != PAPI_INHERIT_NONE)
		return PAPI_EINVAL;
	struct params old;
	params_save(es, &old);
	es->inherit = o->inherit;
	return params_apply(es, &old);
}

static int set_default_domain(int dom, int cidx)
{
	if (!cmp_valid(cidx))
		return PAPI_ENOCMP;
	int d, ret = domain_fix(dom, PAPI_EINVAL, PAPI_ENOSUPP, &d);
	if (ret != PAPI_OK)
		return ret;
	papi_default_domain = d;
	return PAPI_OK;
}

static int granularity_ok(int g)
{
	return g == PAPI_GRN_THR || g == PAPI_GRN_SYS;
}

/* PAPI_set_opt: change a library default or one EventSet's option; ptr
 * says which set and what value (the union member named after the option).
 * PAPI_EINVAL for a NULL ptr, an option that cannot be set (the read-only
 * information options) or a bad value; PAPI_ENOEVST, PAPI_ENOCMP,
 * PAPI_EISRUN for the set options; PAPI_EINVAL_DOM for a domain the set
 * cannot count (the kernel without the privilege for it: the reason says
 * so); PAPI_ENOSUPP for a default domain this process cannot count and for
 * address ranges (perf_event has none); PAPI_EPERM for PAPI_CPU_ATTACH
 * without the privilege to count a whole CPU. PAPI_CGROUP_ATTACH (an
 * extension) counts only the tasks of cgroup ptr->cgroup.path on the CPU
 * the set is bound to: PAPI_EINVAL when the set is bound to no CPU or to a
 * thread, for a path naming no cgroup (or leaving the hierarchy with ..),
 * and for a NULL path when the set is bound to none; PAPI_ENOSUPP when no
 * cgroup hierarchy perf_event counts in is mounted; PAPI_EPERM when the
 * cgroup cannot be opened. Any error reopening the counters (the set then
 * keeps its old options). */
static int set_opt_impl(int option, PAPI_option_t *ptr)
{
	if (option == PAPI_DEBUG) {
		if (!ptr)
			return PAPI_EINVAL;
		int ret = PAPI_set_debug(ptr->debug.level);
		if (ret == PAPI_OK)
			debug_handler = ptr->debug.handler;
		return ret;
	}
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!ptr)
		return PAPI_EINVAL;
	switch (option) {
	case PAPI_MULTIPLEX:
		return mpx_convert(ptr->multiplex.eventset, ptr->multiplex.ns, ptr->multiplex.flags);
	case PAPI_DEF_MPX_NS:
		if (ptr->multiplex.ns <= 0)
			return PAPI_EINVAL;
		papi_mpx_ns = ptr->multiplex.ns;
		return PAPI_OK;
	case PAPI_DEF_ITIMER: {
		const PAPI_itimer_option_t *t = &ptr->itimer;
		if ((t->itimer_num != ITIMER_REAL && t->itimer_num != ITIMER_VIRTUAL &&
		     t->itimer_num != ITIMER_PROF) || t->itimer_sig <= 0 || t->itimer_sig >= NSIG ||
		    t->ns < 0)
			return PAPI_EINVAL;
		int ns = t->ns ? t->ns : papi_itimer.ns;
		papi_itimer = *t;
		papi_itimer.ns = ns;
		return PAPI_OK;
	}
	case PAPI_DEF_ITIMER_NS:
		if (ptr->itimer.ns <= 0)
			return PAPI_EINVAL;
		papi_itimer.ns = ptr->itimer.ns;
		return PAPI_OK;
	case PAPI_DEFDOM:
		return set_default_domain(ptr->defdomain.domain, ptr->defdomain.def_cidx);
	case PAPI_DOMAIN:
		return set_es_domain(ptr->domain.eventset, ptr->domain.domain);
	case PAPI_DEFGRN:
		if (!cmp_valid(ptr->defgranularity.def_cidx))
			return PAPI_ENOCMP;
		if (!granularity_ok(ptr->defgranularity.granularity))
			return PAPI_EINVAL;
		papi_default_granularity = ptr->defgranularity.granularity;
		return PAPI_OK;
	case PAPI_GRANUL: {
		EventSet_t *es;
		int ret = es_for_change(ptr->granularity.eventset, &es);
		if (ret != PAPI_OK)
			return ret;
		if (!granularity_ok(ptr->granularity.granularity))
			return PAPI_EINVAL;
		es->granularity = ptr->granularity.granularity;
		return PAPI_OK;
	}
	case PAPI_ATTACH:
		return set_attach(ptr->attach.eventset, ptr->attach.tid, 1);
	case PAPI_DETACH:
		return set_attach(ptr->attach.eventset, 0, 0);
	case PAPI_CPU_ATTACH:
		return set_cpu(&ptr->cpu);
	case PAPI_INHERIT:
		return set_inherit(&ptr->inherit);
	case PAPI_CGROUP_ATTACH:
		return set_cgroup(&ptr->cgroup);
	case PAPI_DATA_ADDRESS:
	case PAPI_INSTR_ADDRESS: {
		EventSet_t *es;
		int ret = es_for_change(ptr->addr.eventset, &es);
		return ret != PAPI_OK ? ret : PAPI_ENOSUPP;
	}
	case PAPI_USER_EVENTS_FILE: {
		if (!ptr->events_file)
			return PAPI_EINVAL;
		char *f = strdup(ptr->events_file);
		if (!f)
			return PAPI_ENOMEM;
		free(user_events_file);
		user_events_file = f;
		papi_on_shutdown(options_shutdown);
		return PAPI_OK;
	}
	default:
		return PAPI_EINVAL;
	}
}

/* The user events file PAPI_USER_EVENTS_FILE named, or NULL. */
const char *options_user_events_file(void)
{
	return user_events_file;
}

static int get_es_opt(int option, PAPI_option_t *ptr)
{
	EventSet_t *es;
	int id = option == PAPI_DOMAIN ? ptr->domain.eventset
		 : option == PAPI_GRANUL ? ptr->granularity.eventset
		 : option == PAPI_CPU_ATTACH ? ptr->cpu.eventset
		 : option == PAPI_INHERIT ? ptr->inherit.eventset
		 : option == PAPI_CGROUP_ATTACH ? ptr->cgroup.eventset
		 : ptr->attach.eventset;
	if (!(es = es_lookup(id)))
		return PAPI_ENOEVST;
	switch (option) {
	case PAPI_DOMAIN:
		ptr->domain.domain = es->domain;
		return PAPI_OK;
	case PAPI_GRANUL:
		ptr->granularity.granularity = es->granularity;
		return PAPI_OK;
	case PAPI_ATTACH:
	case PAPI_DETACH: {
		int on = (es->state & PAPI_ATTACHED) != 0;
		ptr->attach.tid = on ? (unsigned long)es->attach : 0;
		return option == PAPI_ATTACH ? on : !on;
	}
	case PAPI_CPU_ATTACH: {
		int on = (es->state & PAPI_CPU_ATTACHED) != 0;
		ptr->cpu.cpu_num = on ? (unsigned)es->cpu : 0;
		return on;
	}
	case PAPI_CGROUP_ATTACH:
		ptr->cgroup.path = es->cgroup;
		return es->cgroup_fd >= 0;
	default:	/* PAPI_INHERIT */
		ptr->inherit.inherit = es->inherit ? PAPI_INHERIT_ALL : PAPI_INHERIT_NONE;
		return PAPI_OK;
	}
}

/* PAPI_get_opt: read an option. Options that are numbers return them
 * (PAPI_MAX_HWCTRS, PAPI_MAX_MPX_CTRS, PAPI_CLOCKRATE, PAPI_MAX_CPUS,
 * PAPI_DEFDOM, PAPI_DEFGRN, PAPI_LIB_VERSION; PAPI_ATTACH/PAPI_CPU_ATTACH
 * 1 when attached, PAPI_DETACH 1 when not; PAPI_CGROUP_ATTACH 1 when bound
 * to a cgroup, with ptr->cgroup.path the path given, valid while the set
 * keeps it, else 0 and NULL); the others fill ptr and return
 * PAPI_OK (PAPI_EINVAL when ptr is NULL). PAPI_ENOEVST for a set option
 * naming no set; PAPI_EINVAL for an option that cannot be read. */
static int get_opt_impl(int option, PAPI_option_t *ptr)
{
	if (option == PAPI_DEBUG) {
		if (!ptr)
			return PAPI_EINVAL;
		ptr->debug.level = papi_debug_level;
		ptr->debug.handler = debug_handler;
		return PAPI_OK;
	}
	if (!lib_ready())
		return PAPI_ENOINIT;
	switch (option) {
	case PAPI_MAX_HWCTRS:
	case PAPI_MAX_MPX_CTRS:
	case PAPI_DEFDOM:
	case PAPI_DEFGRN:
		return PAPI_get_cmp_opt(option, ptr, 0);
	case PAPI_CLOCKRATE:
		return hwinfo_get()->cpu_max_mhz > 0 ? hwinfo_get()->cpu_max_mhz : (int)hwinfo_mhz();
	case PAPI_MAX_CPUS:
		return hwinfo_get()->totalcpus;
	case PAPI_LIB_VERSION:
		return PAPI_VERSION;
	}
	if (!ptr)
		return PAPI_EINVAL;
	switch (option) {
	case PAPI_MULTIPLEX: {
		int r = mpx_query(ptr->multiplex.eventset, &ptr->multiplex.ns, &ptr->multiplex.flags);
		return r < 0 ? r : PAPI_OK;
	}
	case PAPI_DEF_MPX_NS:
		ptr->multiplex.ns = papi_mpx_ns;
		return PAPI_OK;
	case PAPI_DEF_ITIMER:
		ptr->itimer = papi_itimer;
		return PAPI_OK;
	case PAPI_DEF_ITIMER_NS:
		ptr->itimer.ns = papi_itimer.ns;
		return PAPI_OK;
	case PAPI_DOMAIN:
	case PAPI_GRANUL:
	case PAPI_ATTACH:
	case PAPI_DETACH:
	case PAPI_CPU_ATTACH:
	case PAPI_INHERIT:
	case PAPI_CGROUP_ATTACH:
		return get_es_opt(option, ptr);
	case PAPI_PRELOAD:
		memset(&ptr->preload, 0, sizeof ptr->preload);
		strcpy(ptr->preload.lib_preload_env, "LD_PRELOAD");
		ptr->preload.lib_preload_sep = ' ';
		strcpy(ptr->preload.lib_dir_env, "LD_LIBRARY_PATH");
		ptr->preload.lib_dir_sep = ':';
		return PAPI_OK;
	case PAPI_HWINFO:
		ptr->hw_info = (PAPI_hw_info_t *)hwinfo_get();
		return PAPI_OK;
	case PAPI_EXEINFO:
		ptr->exe_info = (PAPI_exe_info_t *)PAPI_get_executable_info();
		return ptr->exe_info ? PAPI_OK : PAPI_ESYS;
	case PAPI_SHLIBINFO:
		ptr->shlib_info = (PAPI_shlib_info_t *)PAPI_get_shared_lib_info();
		return ptr->shlib_info ? PAPI_OK : PAPI_ESYS;
	case PAPI_COMPONENTINFO:
		return PAPI_get_cmp_opt(option, ptr, 0);
	default:
		return PAPI_EINVAL;
	}
}

/* PAPI_get_cmp_opt: the component options of component cidx:
 * PAPI_MAX_HWCTRS, PAPI_MAX_MPX_CTRS, PAPI_DEFDOM, PAPI_DEFGRN (returned),
 * PAPI_COMPONENTINFO (ptr->cmp_info). PAPI_ECMP for a component that does
 * not exist (as PAPI 7), PAPI_EINVAL for any other option or a NULL ptr. */
int PAPI_get_cmp_opt(int option, PAPI_option_t *ptr, int cidx)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!cmp_valid(cidx))
		return PAPI_ECMP;
	switch (option) {
	case PAPI_MAX_HWCTRS:
		return cmp_counters(cidx, 0);
	case PAPI_MAX_MPX_CTRS:
		return cmp_counters(cidx, 1);
	case PAPI_DEFDOM:
		return papi_default_domain;
	case PAPI_DEFGRN:
		return papi_default_granularity;
	case PAPI_COMPONENTINFO:
		if (!ptr)
			return PAPI_EINVAL;
		ptr->cmp_info = (PAPI_component_info_t *)PAPI_get_component_info(cidx);
		return ptr->cmp_info ? PAPI_OK : PAPI_ENOCMP;
	default:
		return PAPI_EINVAL;
	}
}

/* PAPI_set_domain: the domain new EventSets get (PAPI_DOM_* bits).
 * PAPI_DOM_ALL is every domain this process may count (without
 * CAP_PERFMON at perf_event_paranoid 2, user and hypervisor: the kernel's
 * share is left out). PAPI_ENOSUPP for a domain it may not count (the
 * kernel without the privilege; PAPI_DOM_OTHER, which perf_event cannot
 * separate), PAPI_EINVAL for 0 or unknown bits, PAPI_ENOINIT. */
int PAPI_set_domain(int domain)
{
	return PAPI_set_cmp_domain(domain, 0);
}

/* PAPI_set_cmp_domain: PAPI_set_domain for component cidx; PAPI_ENOCMP. */
int PAPI_set_cmp_domain(int domain, int cidx)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	return set_default_domain(domain, cidx);
}

/* PAPI_set_granularity: the granularity new EventSets get: PAPI_GRN_THR or
 * PAPI_GRN_SYS (what perf_event offers); PAPI_EINVAL for others. */
int PAPI_set_granularity(int granularity)
{
	return PAPI_set_cmp_granularity(granularity, 0);
}

/* PAPI_set_cmp_granularity: PAPI_set_granularity for component cidx;
 * PAPI_ENOCMP. */
int PAPI_set_cmp_granularity(int granularity, int cidx)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!cmp_valid(cidx))
		return PAPI_ENOCMP;
	if (!granularity_ok(granularity))
		return PAPI_EINVAL;
	papi_default_granularity = granularity;
	return PAPI_OK;
}

/* PAPI_set_opt runs in flight (es_enter/es_leave) once the library is
 * initialized, so a concurrent PAPI_shutdown cannot free a set under it;
 * PAPI_DEBUG works before PAPI_library_init. */
int PAPI_set_opt(int option, PAPI_option_t *ptr)
{
	if (option == PAPI_DEBUG || !lib_ready())
		return set_opt_impl(option, ptr);
	return ES_IN_FLIGHT(set_opt_impl(option, ptr));
}

/* PAPI_get_opt runs in flight (es_enter/es_leave) once the library is
 * initialized, so a concurrent PAPI_shutdown cannot free a set under it;
 * PAPI_DEBUG works before PAPI_library_init. */
int PAPI_get_opt(int option, PAPI_option_t *ptr)
{
	if (option == PAPI_DEBUG || !lib_ready())
		return get_opt_impl(option, ptr);
	return ES_IN_FLIGHT(get_opt_impl(option, ptr));
}

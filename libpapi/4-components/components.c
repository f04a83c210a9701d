/* components.c: the table of components, their initialization and description, and disabling them. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <perfmon/pfmlib.h>

#include "4-components/components.h"

/* The components, in index order. Component 0 is perf_event, the CPU's
 * (NULL here: the naming layer names its events and the core counts them).
 * A new component is its own file in this folder plus one line here. */
static const struct component *const table[] = {
	NULL,			/* perf_event */
	&cmp_uncore,		/* perf_event_uncore, PAPI 7's second component */
	&cmp_powercap,
	&cmp_io,
	&cmp_net,
	&cmp_stealtime,
	&cmp_appio,
	&cmp_sysdetect,
	&cmp_sde,
};
#define NCMP ((int)(sizeof table / sizeof *table))

/* Events PAPI can multiplex in one EventSet (PAPI 7's PAPI_MAX_SW_MPX_EVENTS). */
#define MPX_MAX 384

static const char *cmp_name(int c)
{
	return c == 0 ? "perf_event" : table[c]->name;
}

PAPI_FIRST_DATA static pthread_mutex_t cmp_lock = PTHREAD_MUTEX_INITIALIZER;
PAPI_FIRST_DATA static int disabled_by_call[NCMP];	/* PAPI_disable_component*: kept across shutdown */
PAPI_FIRST_DATA static int disabled_by_env[NCMP];
PAPI_FIRST_DATA static int env_read;			/* PAPI_DISABLE_COMPONENTS read for this init */
/* Per component, for this initialization: 0 not tried, 1 ready, else the
 * error its init returned (the reason in init_why). */
PAPI_FIRST_DATA static int init_state[NCMP];
static char init_why[NCMP][PAPI_HUGE_STR_LEN];	/* as disabled_reason */
PAPI_FIRST_DATA static int init_partial[NCMP];	/* ready, but in part: init_why says what not */
static PAPI_component_info_t info[NCMP];
PAPI_FIRST_DATA static int info_ready[NCMP];
static char pmu_names[PAPI_PMU_MAX][64];

/* PAPI_shutdown: every component forgets what it learned. */
static void cmp_forget(void)
{
	pthread_mutex_lock(&cmp_lock);
	for (int c = 1; c < NCMP; c++)
		if (init_state[c] == 1 && table[c]->shutdown)
			table[c]->shutdown();
	memset(init_state, 0, sizeof init_state);
	memset(init_partial, 0, sizeof init_partial);
	memset(info_ready, 0, sizeof info_ready);
	env_read = 0;
	pthread_mutex_unlock(&cmp_lock);
}

/* PAPI_DISABLE_COMPONENTS=name,name... is read once per initialization
 * (lock held). */
static void cmp_read_env(void)
{
	if (env_read || !lib_ready())
		return;
	env_read = 1;
	papi_on_shutdown(cmp_forget);
	const char *env = getenv("PAPI_DISABLE_COMPONENTS");
	for (int c = 0; c < NCMP; c++) {
		disabled_by_env[c] = 0;
		size_t n = strlen(cmp_name(c));
		for (const char *p = env; p && *p; p += strcspn(p, ",:"), p += !!*p)
			if (strncmp(p, cmp_name(c), n) == 0 && (p[n] == ',' || p[n] == ':' || !p[n]))
				disabled_by_env[c] = 1;
	}
}

/* cmp_disabled: see components.h. */
int cmp_disabled(int cidx)
{
	if (cidx < 0 || cidx >= NCMP)
		return -1;
	pthread_mutex_lock(&cmp_lock);
	cmp_read_env();
	int d = disabled_by_call[cidx] || disabled_by_env[cidx];
	pthread_mutex_unlock(&cmp_lock);
	return d;
}

/* Why component c is disabled by request, or NULL (lock held). */
static const char *disabled_why(int c)
{
	if (disabled_by_call[c])
		return "Disabled by PAPI_disable_component()";
	if (disabled_by_env[c])
		return "Disabled by PAPI_DISABLE_COMPONENTS";
	return NULL;
}

/* Initialize component c (> 0) once per library initialization (lock
 * held): PAPI_OK, or why not in init_why[c]. */
static int cmp_init(int c)
{
	cmp_read_env();
	const char *why = disabled_why(c);
	if (why) {
		snprintf(init_why[c], sizeof init_why[c], "%s", why);
		return PAPI_ECMP;
	}
	if (!lib_ready()) {
		snprintf(init_why[c], sizeof init_why[c], "PAPI is not initialized");
		return PAPI_ENOINIT;
	}
	if (init_state[c] == 0) {
		init_why[c][0] = '\0';
		int r = table[c]->init(init_why[c], sizeof init_why[c]);
		init_partial[c] = r == PAPI_PARTIAL;
		if (r == PAPI_PARTIAL)
			r = PAPI_OK;
		if (r == PAPI_OK && table[c]->nevents() < 0)
			r = PAPI_ECMP;
		if (r != PAPI_OK && !init_why[c][0])
			snprintf(init_why[c], sizeof init_why[c], "%s", PAPI_strerror(r));
		init_state[c] = r == PAPI_OK ? 1 : r;
	}
	return init_state[c] == 1 ? PAPI_OK : init_state[c];
}

/* cmp_disabled_reason: see components.h. init_why[c] is written once a
 * library initialization, under the lock. */
const char *cmp_disabled_reason(int cidx)
{
	if (cidx < 0 || cidx >= NCMP)
		return NULL;
	pthread_mutex_lock(&cmp_lock);
	const char *why = disabled_why(cidx);
	if (!why && cidx > 0 && cmp_init(cidx) != PAPI_OK)
		why = init_why[cidx];
	pthread_mutex_unlock(&cmp_lock);
	return why;
}

/* cmp_get: see components.h. */
int cmp_get(int cidx, const struct component **out)
{
	if (cidx <= 0 || cidx >= NCMP)
		return PAPI_ENOCMP;
	pthread_mutex_lock(&cmp_lock);
	int r = cmp_init(cidx);
	if (r != PAPI_OK) {
		/* kept for the caller, not printed under PAPI_DEBUG: a name
		 * lookup asks it of every component on its way */
		int was = papi_reason_mute(1);
		papi_set_reason("component %s: %s", table[cidx]->name, init_why[cidx]);
		papi_reason_mute(was);
	}
	pthread_mutex_unlock(&cmp_lock);
	if (r != PAPI_OK)
		return r == PAPI_ENOINIT ? PAPI_ENOINIT : PAPI_ECMP;
	*out = table[cidx];
	return PAPI_OK;
}

/* cmp_index: see components.h. */
int cmp_index(const struct component *c)
{
	for (int i = 1; i < NCMP; i++)
		if (table[i] == c)
			return i;
	return -1;
}

/* cmp_event_lookup: see components.h. Components have few events (tens,
 * a few hundred for net on a large machine): a scan, once per name, since
 * codes.c then finds the full name in the naming layer's hash. */
int cmp_event_lookup(int cidx, const char *name, int *ev)
{
	const struct component *c;
	int r = cmp_get(cidx, &c);
	if (r != PAPI_OK)
		return r;
	if (c->lookup)
		return c->lookup(name, ev);
	int n = c->nevents();
	for (int i = 0; i < n; i++) {
		struct cmp_event e;
		if (c->event(i, &e) == PAPI_OK && strcmp(e.name, name) == 0) {
			*ev = i;
			return PAPI_OK;
		}
	}
	return PAPI_ENOEVNT;
}

/* cmp_access: see components.h. */
int cmp_access(int cidx, char *why, size_t len)
{
	const struct component *c;
	if (len)
		why[0] = '\0';
	int was = papi_reason_mute(1);
	int r = cmp_get(cidx, &c);
	papi_reason_mute(was);
	if (r != PAPI_OK || !c->access)
		return PAPI_OK;
	return c->access(why, len);
}

/* PAPI_num_components: how many components this library has. */
int PAPI_num_components(void)
{
	return NCMP;
}

/* PAPI_get_component_index: the index of the component called name.
 * PAPI_EINVAL (NULL), PAPI_ENOCMP (no such component). */
int PAPI_get_component_index(const char *name)
{
	if (!name)
		return PAPI_EINVAL;
	for (int c = 0; c < NCMP; c++)
		if (strcmp(name, cmp_name(c)) == 0)
			return c;
	return PAPI_ENOCMP;
}

/* PAPI_disable_component: disable component cidx for the next
 * PAPI_library_init; its events then neither resolve nor enumerate.
 * PAPI_ENOCMP (bad cidx), PAPI_ENOINIT (already initialized: as PAPI 7, it
 * only works before PAPI_library_init). */
int PAPI_disable_component(int cidx)
{
	if (cidx < 0 || cidx >= NCMP)
		return PAPI_ENOCMP;
	if (lib_ready())
		return PAPI_ENOINIT;
	pthread_mutex_lock(&cmp_lock);
	disabled_by_call[cidx] = 1;
	info_ready[cidx] = 0;
	pthread_mutex_unlock(&cmp_lock);
	return PAPI_OK;
}

/* PAPI_disable_component_by_name: as PAPI_disable_component.
 * PAPI_EINVAL (NULL), PAPI_ENOCMP, PAPI_ENOINIT. */
int PAPI_disable_component_by_name(const char *name)
{
	if (!name)
		return PAPI_EINVAL;
	int c = PAPI_get_component_index(name);
	return c < 0 ? c : PAPI_disable_component(c);
}

/* Copy a reason into disabled_reason, within
 * PAPI_MAX_STR_LEN (128) bytes although the field holds 1024: programs
 * built with PAPI 6's header (pypapi bundles one) read a 128-byte
 * disabled_reason. A longer one is cut at a word, with "...". */
static void reason_copy(char *dst, const char *src)
{
	size_t n = strlen(src);
	if (n < PAPI_MAX_STR_LEN) {
		memcpy(dst, src, n + 1);
		return;
	}
	n = PAPI_MAX_STR_LEN - 4;
	while (n > PAPI_MAX_STR_LEN / 2 && src[n] != ' ')
		n--;
	memcpy(dst, src, n);
	memcpy(dst + n, "...", 4);
}

/* What every component's description shares (lock held). */
static void fill_common(PAPI_component_info_t *ci, int c)
{
	memset(ci, 0, sizeof *ci);
	snprintf(ci->name, sizeof ci->name, "%s", cmp_name(c));
	snprintf(ci->version, sizeof ci->version, "%s", PAPI_TOOL_VERSION);
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(ci->kernel_version, sizeof ci->kernel_version, "%.*s",
			 (int)sizeof ci->kernel_version - 1, u.release);
	ci->CmpIdx = c;
	const char *why = disabled_why(c);
	if (why) {
		ci->disabled = PAPI_ECMP;
		reason_copy(ci->disabled_reason, why);
	}
}

/* perf_event's counters: the first core PMU's, general and fixed; 0
 * without a hardware PMU. */
static int perf_cntrs(void)
{
	if (pmu_core_unavailable_reason())
		return 0;
	for (int i = 0; i < pmu_count(); i++) {
		const struct pmu *p = pmu_get(i);
		if (p->pfm_type == PFM_PMU_TYPE_CORE && p->num_cntrs + p->num_fixed)
			return p->num_cntrs + p->num_fixed;
	}
	return 0;
}

/* Fill info[0], perf_event's (lock held). The component stays enabled
 * without a hardware PMU, since software events count: it is partially
 * disabled (PAPI 7.2's partially_disabled), and
 * pmu_core_unavailable_reason() tells why hardware events do not. */
static void fill_perf(void)
{
	PAPI_component_info_t *ci = &info[0];
	fill_common(ci, 0);
	snprintf(ci->short_name, sizeof ci->short_name, "perf");
	snprintf(ci->description, sizeof ci->description, "Linux perf_event CPU counters");
	int v = pfm_get_version();
	snprintf(ci->support_version, sizeof ci->support_version, "libpfm4 %d.%d",
		 PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
	if (ci->disabled)
		return;
	ci->initialized = 1;
	const char *part = pmu_core_unavailable_reason();
	if (part) {
		ci->partially_disabled = 1;
		snprintf(ci->partially_disabled_reason, sizeof ci->partially_disabled_reason, "%s", part);
	}
	ci->num_native_events = native_count();
	ci->num_cntrs = perf_cntrs();
	int np = 0;
	for (int i = 0; i < pmu_count(); i++) {
		const struct pmu *p = pmu_get(i);
		if (np < PAPI_PMU_MAX) {
			snprintf(pmu_names[np], sizeof pmu_names[np], "%s", p->name);
			ci->pmu_names[np] = pmu_names[np];
			np++;
		}
	}
	ci->num_mpx_cntrs = MPX_MAX;
	ci->default_domain = PAPI_DOM_USER;
	ci->available_domains = pe_domains_allowed();
	ci->default_granularity = PAPI_GRN_THR;
	ci->available_granularities = PAPI_GRN_THR | PAPI_GRN_SYS;
	ci->hardware_intr_sig = SIGRTMIN + 2;
	ci->hardware_intr = 1;
	ci->kernel_profile = 1;
	ci->kernel_multiplex = 1;
	ci->fast_real_timer = 1;
	ci->attach = 1;
	/* As PAPI 7.0's perf_event says: a program attaching to a child it
	 * started stopped should stop and resume it with ptrace. PAPI's own
	 * attach tests (zero_attach, multiattach) follow this flag; without it
	 * they wait forever for a child that stopped itself with SIGSTOP. */
	ci->attach_must_ptrace = 1;
	ci->cntr_umasks = 1;
	ci->cpu = 1;
	ci->inherit = 1;
}

/* Fill info[c] of another component (lock held): as PAPI 7 describes its
 * software components, every event a counter, counted in any domain. */
static void fill_other(int c)
{
	PAPI_component_info_t *ci = &info[c];
	const struct component *k = table[c];
	fill_common(ci, c);
	snprintf(ci->short_name, sizeof ci->short_name, "%s", k->short_name);
	snprintf(ci->description, sizeof ci->description, "%s", k->description);
	snprintf(ci->support_version, sizeof ci->support_version, "%s", PAPI_TOOL_VERSION);
	if (ci->disabled)
		return;
	int r = cmp_init(c);
	if (r != PAPI_OK) {
		ci->disabled = r;
		reason_copy(ci->disabled_reason, init_why[c]);
		return;
	}
	ci->initialized = 1;
	if (init_partial[c]) {
		ci->partially_disabled = 1;
		snprintf(ci->partially_disabled_reason, sizeof ci->partially_disabled_reason, "%s",
			 init_why[c]);
	}
	ci->num_native_events = k->nevents();
	ci->num_cntrs = ci->num_native_events;
	ci->num_mpx_cntrs = ci->num_native_events;
	ci->default_domain = PAPI_DOM_USER;
	ci->available_domains = PAPI_DOM_ALL;
	ci->default_granularity = k->granularity;
	ci->available_granularities = k->granularity;
}

/* PAPI_get_component_info: the description of component cidx, NULL when
 * cidx is out of range. Valid until PAPI_shutdown. Before PAPI_library_init
 * (as PAPI 7 allows) perf_event's native event count triggers libpfm4's
 * start-up; the other components say that they are not initialized. */
const PAPI_component_info_t *PAPI_get_component_info(int cidx)
{
	if (cidx < 0 || cidx >= NCMP)
		return NULL;
	pthread_mutex_lock(&cmp_lock);
	cmp_read_env();
	if (!info_ready[cidx]) {
		if (cidx == 0)
			fill_perf();
		else
			fill_other(cidx);
		info_ready[cidx] = lib_ready();
	} else if (cidx > 0 && info[cidx].initialized) {
		/* events come and go (sde: as libraries register them) */
		int n = table[cidx]->nevents();
		info[cidx].num_native_events = info[cidx].num_cntrs = info[cidx].num_mpx_cntrs = n;
	}
	pthread_mutex_unlock(&cmp_lock);
	return &info[cidx];
}

/* PAPI_num_cmp_hwctrs: counters of component cidx (perf_event: 0 without a
 * hardware PMU; another component: its events). PAPI_ENOINIT, PAPI_ENOCMP. */
int PAPI_num_cmp_hwctrs(int cidx)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (cidx == 0) {
		/* what fill_perf puts in the info, without the native event
		 * count it also makes: papi avail's header asks this, and a
		 * kernel PMU's events are read from sysfs to be counted */
		pthread_mutex_lock(&cmp_lock);
		cmp_read_env();
		int n = disabled_why(0) ? 0 : perf_cntrs();
		pthread_mutex_unlock(&cmp_lock);
		return n;
	}
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	return ci ? ci->num_cntrs : PAPI_ENOCMP;
}

/* PAPI_num_hwctrs: PAPI_num_cmp_hwctrs(0), for old programs. */
int PAPI_num_hwctrs(void)
{
	return PAPI_num_cmp_hwctrs(0);
}

/* eventset.c: the EventSet table, add/remove/list and the state machine (es_open.c opens the counters). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "5-core/core.h"

/* The table is two-level and never moves: a lookup reads two pointers and
 * takes no lock. Chunks are added with a compare-and-swap and freed at shutdown. */
#define CHUNK 256
#define NCHUNKS 256
PAPI_FIRST_DATA static EventSet_t **chunks[NCHUNKS];	/* 2 KB: read by every start and exit */
PAPI_FIRST_DATA static pthread_mutex_t tbl_lock = PTHREAD_MUTEX_INITIALIZER;

PAPI_HOT EventSet_t *es_lookup(int id)
{
	if (id < 0 || id >= CHUNK * NCHUNKS)
		return NULL;
	EventSet_t **c = __atomic_load_n(&chunks[id / CHUNK], __ATOMIC_ACQUIRE);
	return c ? __atomic_load_n(&c[id % CHUNK], __ATOMIC_ACQUIRE) : NULL;
}

/* Insert and remove take no lock: threads that create and destroy sets at
 * the same moment (OpenMP regions, PAPI's omptough) claim free slots with a
 * compare-and-swap; tbl_lock only guards freeing the table at shutdown,
 * when no call is in flight (es_destroy_all). */
static int tbl_insert(EventSet_t *es)
{
	for (int c = 0; c < NCHUNKS; c++) {
		EventSet_t **ch = __atomic_load_n(&chunks[c], __ATOMIC_ACQUIRE);
		if (!ch) {
			EventSet_t **nc = calloc(CHUNK, sizeof *nc), **none = NULL;
			if (!nc)
				return PAPI_ENOMEM;
			if (__atomic_compare_exchange_n(&chunks[c], &none, nc, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				ch = nc;
			} else {	/* another thread added it first */
				free(nc);
				ch = none;
			}
		}
		for (int i = 0; i < CHUNK; i++) {
			EventSet_t *none = NULL;
			if (__atomic_load_n(&ch[i], __ATOMIC_RELAXED))
				continue;
			es->id = c * CHUNK + i;
			if (__atomic_compare_exchange_n(&ch[i], &none, es, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
				return PAPI_OK;
		}
	}
	return PAPI_ENOMEM;
}

static void tbl_remove(int id)
{
	EventSet_t **ch = __atomic_load_n(&chunks[id / CHUNK], __ATOMIC_ACQUIRE);
	__atomic_store_n(&ch[id % CHUNK], NULL, __ATOMIC_RELEASE);
}

/* The domain new EventSets get (PAPI_DEFDOM); options.c may change it. */
int papi_default_domain = PAPI_DOM_USER;
int papi_default_granularity = PAPI_GRN_THR;

/* PAPI_create_eventset: *EventSet must be PAPI_NULL on entry and gets the new
 * id. PAPI_EINVAL (NULL or not PAPI_NULL), PAPI_ENOMEM, PAPI_ENOINIT. */
static int create_eventset_impl(int *EventSet)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!EventSet || *EventSet != PAPI_NULL)
		return PAPI_EINVAL;
	EventSet_t *es = calloc(1, sizeof *es);
	if (!es)
		return PAPI_ENOMEM;
	es->state = PAPI_STOPPED;
	es->cidx = -1;
	es->domain = papi_default_domain;
	es->granularity = papi_default_granularity;
	es->owner = papi_gettid();
	es->cpu = -1;
	es->cgroup_fd = -1;
	ES_EACH_HOOK(created, es);
	int ret = tbl_insert(es);
	if (ret != PAPI_OK) {
		free(es);
		return ret;
	}
	*EventSet = es->id;
	return PAPI_OK;
}

static void es_free(EventSet_t *es)
{
	ES_EACH_HOOK(halt, es);
	es_close_all(es);
	ES_EACH_HOOK(release, es);
	cmpset_free(es->cset);
	if (es->cgroup_fd >= 0)
		close(es->cgroup_fd);
	free(es->cgroup);
	free(es->ev);
	free(es->hw);
	free(es->groups);
	free(es->rbuf);
	free(es->hwval);
	free(es->acc);
	free(es);
}

/* Look up a set the caller may change: PAPI_ENOEVST when id is no set,
 * PAPI_EISRUN when it is counting. */
static int es_get_stopped(int id, EventSet_t **out)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	EventSet_t *es = es_lookup(id);
	if (!es)
		return PAPI_ENOEVST;
	if (es->state & PAPI_RUNNING)
		return PAPI_EISRUN;
	*out = es;
	return PAPI_OK;
}

/* Drop counters no event uses any more, renumbering the events' indexes. */
static void hw_compact(EventSet_t *es)
{
	es->frozen = 0;
	int map[es->nhw > 0 ? es->nhw : 1], k = 0;
	for (int h = 0; h < es->nhw; h++) {
		if (es->hw[h].refs > 0) {
			map[h] = k;
			es->hw[k++] = es->hw[h];
		} else {
			if (es->hw[h].fd >= 0)
				es_hw_close(es, h);
			map[h] = -1;
		}
	}
	es->nhw = k;
	for (int e = 0; e < es->nev; e++)
		for (int t = 0; t < es->ev[e].def.nterms; t++)
			es->ev[e].hw[t] = map[es->ev[e].hw[t]];
}

/* Resolve an event code into native terms. */
static int resolve(int code, struct derived_def *d)
{
	memset(d, 0, sizeof *d);
	if ((code & PAPI_UE_MASK) == PAPI_UE_MASK || (code & PAPI_PRESET_MASK))
		return presets_resolve(code, d);
	if (code & PAPI_NATIVE_MASK) {
		int idx = code & PAPI_NATIVE_AND_MASK;
		/* Refuse before the kernel is asked: an event that needs a unit
		 * mask, or a PMU this kernel lacks (PAPI 7 says ENOEVNT then). */
		int u = native_usable(idx);
		if (u != PAPI_OK)
			return u == PAPI_ECMP ? PAPI_ENOEVNT : u;
		d->nterms = 1;
		d->ntv[0] = idx;
		d->derived = NOT_DERIVED;
		return PAPI_OK;
	}
	return PAPI_ENOEVNT;
}

/* Add event cev of component cidx (> 0) to es: the component counts it. */
static int add_cmp(EventSet_t *es, int code, int cidx, int cev)
{
	const struct component *c;
	int ret = cmp_get(cidx, &c);
	if (ret != PAPI_OK)
		return ret;
	if (!es->cset && (ret = cmpset_new(c, &es->cset)) != PAPI_OK)
		return ret;
	if (es_grow((void **)&es->ev, &es->cap_ev, es->nev + 1, sizeof *es->ev))
		return PAPI_ENOMEM;
	long long *acc = realloc(es->acc, (size_t)(es->nev + 1) * sizeof *acc);
	if (!acc)
		return PAPI_ENOMEM;
	es->acc = acc;
	if ((ret = cmpset_add(es->cset, cev)) != PAPI_OK)
		return ret;
	memset(&es->ev[es->nev], 0, sizeof *es->ev);
	es->ev[es->nev++].code = code;
	es->cidx = cidx;
	return PAPI_OK;
}

/* The name of component cidx, for a message. */
static const char *cmp_name_of(int cidx)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	return ci ? ci->name : "?";
}

static int add_one(EventSet_t *es, int code)
{
	for (int e = 0; e < es->nev; e++)
		if (es->ev[e].code == code)
			return PAPI_ECNFLCT;	/* PAPI 7 refuses duplicates so */
	int cev, cidx = codes_component(code, &cev);
	if (cidx < 0)
		return PAPI_ENOEVNT;
	if (es->cidx >= 0 && es->cidx != cidx) {
		char name[PAPI_MAX_STR_LEN];
		if (PAPI_event_code_to_name(code, name) != PAPI_OK)
			snprintf(name, sizeof name, "event 0x%x", (unsigned)code);
		papi_set_reason("%s: an event of component %s, and this EventSet counts component %s's: "
				"one EventSet counts one component (use another EventSet)", name,
				cmp_name_of(cidx), cmp_name_of(es->cidx));
		return PAPI_EINVAL;	/* as PAPI 7 */
	}
	if (cidx > 0)
		return add_cmp(es, code, cidx, cev);
	struct derived_def d;
	int ret = resolve(code, &d);
	if (ret != PAPI_OK) {
		codes_explain_unavailable(code, ret);	/* presets only */
		return ret;
	}
	if (d.nterms < 1 || d.nterms > PAPI_EVENTS_IN_DERIVED_EVENT)
		return PAPI_EBUG;
	if (es_grow((void **)&es->ev, &es->cap_ev, es->nev + 1, sizeof *es->ev) ||
	    es_grow((void **)&es->hw, &es->cap_hw, es->nhw + d.nterms, sizeof *es->hw))
		return PAPI_ENOMEM;
	if (es->cidx < 0)
		es->cidx = 0;
	struct es_event *ev = &es->ev[es->nev];
	memset(ev, 0, sizeof *ev);
	ev->code = code;
	ev->def = d;
	int first_new = es->nhw, ngroups0 = es->ngroups;
	for (int t = 0; t < d.nterms; t++) {
		int h;
		for (h = 0; h < es->nhw; h++)
			if (es->hw[h].ntv == d.ntv[t])
				break;
		if (h == es->nhw) {
			es->hw[h] = (struct es_hw){ .ntv = d.ntv[t], .fd = -1 };
			es->nhw++;
			ret = es_hw_open(es, h);
			if (ret != PAPI_OK)
				goto undo;
		}
		ev->hw[t] = h;
	}
	for (int t = 0; t < d.nterms; t++)
		es->hw[ev->hw[t]].refs++;
	es->nev++;
	size_t nhwv = (size_t)es->nhw, nev = (size_t)es->nev;
	long long *hv = realloc(es->hwval, nhwv * sizeof *hv);
	if (hv)
		es->hwval = hv;
	long long *acc = realloc(es->acc, nev * sizeof *acc);
	if (acc)
		es->acc = acc;
	if (!hv || !acc)
		return PAPI_ENOMEM;
	memset(es->hwval, 0, nhwv * sizeof *hv);
	return PAPI_OK;
undo:
	/* Close what this call opened, newest first, and restore the groups. */
	for (int h = es->nhw - 1; h >= first_new; h--)
		if (es->hw[h].fd >= 0) {
			es->groups[es->hw[h].group].n--;
			es_hw_close(es, h);
		}
	es->nhw = first_new;
	es->ngroups = ngroups0;
	return ret;
}

/* PAPI_add_event: add one preset, native or user event. The first event
 * binds the set to its component (presets and user events are perf_event's).
 * PAPI_ENOEVST, PAPI_EISRUN, PAPI_ENOEVNT (unknown or not countable here),
 * PAPI_ECNFLCT (already in the set, or no counter can hold it with the
 * others), PAPI_EINVAL (an event of another component than the set's, as
 * PAPI 7), PAPI_ECMP (its component is disabled), PAPI_EPERM, PAPI_ENOMEM.
 * papi_last_reason() says why in words. */
static int add_event_impl(int EventSet, int EventCode)
{
	EventSet_t *es;
	int ret = es_get_stopped(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	papi_clear_reason();
	return add_one(es, EventCode);
}

/* PAPI_add_named_event: PAPI_add_event by name; PAPI_EINVAL for NULL. */
int PAPI_add_named_event(int EventSet, const char *EventName)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!EventName)
		return PAPI_EINVAL;
	int code, ret = PAPI_event_name_to_code(EventName, &code);
	if (ret != PAPI_OK)
		return ret;
	return PAPI_add_event(EventSet, code);
}

/* PAPI_add_events: add number events in order. PAPI_OK when all were
 * added; otherwise a negative error code when the first failed, or the
 * count of events added before the failure. PAPI_EINVAL for NULL/number<=0. */
int PAPI_add_events(int EventSet, int *EventCodes, int number)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!EventCodes || number <= 0)
		return PAPI_EINVAL;
	for (int i = 0; i < number; i++) {
		int ret = PAPI_add_event(EventSet, EventCodes[i]);
		if (ret != PAPI_OK)
			return i > 0 ? i : ret;
	}
	return PAPI_OK;
}

/* PAPI_remove_event: PAPI_ENOEVST, PAPI_EISRUN, PAPI_EINVAL when the event
 * is not in the set. The remaining counters are reopened. */
static int remove_event_impl(int EventSet, int EventCode)
{
	EventSet_t *es;
	int ret = es_get_stopped(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	int e;
	for (e = 0; e < es->nev; e++)
		if (es->ev[e].code == EventCode)
			break;
	if (e == es->nev)
		return PAPI_EINVAL;
	if (es->cset) {
		if ((ret = cmpset_remove(es->cset, e)) != PAPI_OK)
			return ret;
		memmove(&es->ev[e], &es->ev[e + 1], (size_t)(es->nev - e - 1) * sizeof *es->ev);
		es->nev--;
		return PAPI_OK;
	}
	/* An event leaves the set with its profile and overflow turned off. */
	ES_EACH_HOOK(forget, es, EventCode);
	for (int t = 0; t < es->ev[e].def.nterms; t++)
		es->hw[es->ev[e].hw[t]].refs--;
	memmove(&es->ev[e], &es->ev[e + 1], (size_t)(es->nev - e - 1) * sizeof *es->ev);
	es->nev--;
	es_close_all(es);
	hw_compact(es);
	return es_reopen(es);
}

int PAPI_remove_named_event(int EventSet, const char *EventName)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!EventName)
		return PAPI_EINVAL;
	int code, ret = PAPI_event_name_to_code(EventName, &code);
	if (ret != PAPI_OK)
		return ret;
	return PAPI_remove_event(EventSet, code);
}

/* PAPI_remove_events: as PAPI_add_events, for removal. */
int PAPI_remove_events(int EventSet, int *EventCodes, int number)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!EventCodes || number <= 0)
		return PAPI_EINVAL;
	for (int i = 0; i < number; i++) {
		int ret = PAPI_remove_event(EventSet, EventCodes[i]);
		if (ret != PAPI_OK)
			return i > 0 ? i : ret;
	}
	return PAPI_OK;
}

/* PAPI_list_events: copies up to *number codes; *number becomes the count
 * copied. With *number == 0 it copies nothing and *number becomes the number
 * of events in the set (PAPI 7.0's size query: callers size their arrays
 * with it). PAPI_EINVAL for a NULL number, *number < 0, or a NULL Events
 * with *number > 0. */
static int list_events_impl(int EventSet, int *Events, int *number)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!number || *number < 0 || (!Events && *number > 0))
		return PAPI_EINVAL;
	EventSet_t *es = es_lookup(EventSet);
	if (!es)
		return PAPI_ENOEVST;
	if (*number == 0) {
		*number = es->nev;
		return PAPI_OK;
	}
	int n = *number < es->nev ? *number : es->nev;
	for (int i = 0; i < n; i++)
		Events[i] = es->ev[i].code;
	*number = n;
	return PAPI_OK;
}

/* PAPI_num_events: the number of events, or PAPI_ENOEVST. */
static int num_events_impl(int EventSet)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	EventSet_t *es = es_lookup(EventSet);
	return es ? es->nev : PAPI_ENOEVST;
}

/* PAPI_state: PAPI_STOPPED or PAPI_RUNNING and the other state bits. */
static int state_impl(int EventSet, int *status)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!status)
		return PAPI_EINVAL;
	EventSet_t *es = es_lookup(EventSet);
	if (!es)
		return PAPI_ENOEVST;
	*status = es->state;
	return PAPI_OK;
}

/* PAPI_cleanup_eventset: remove every event; the set stays, bound to its
 * component. PAPI_EISRUN while counting. */
static int cleanup_eventset_impl(int EventSet)
{
	EventSet_t *es;
	int ret = es_get_stopped(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	es_close_all(es);
	ES_EACH_HOOK(release, es);
	if (es->cset)
		cmpset_clear(es->cset);
	es->nev = 0;
	es->nhw = 0;
	es->ngroups = 0;
	es->multiplex = 0;
	es->state = PAPI_STOPPED;
	return PAPI_OK;
}

/* PAPI_destroy_eventset: only an empty, stopped set; *EventSet becomes
 * PAPI_NULL. PAPI_EINVAL (NULL, or events still in it), PAPI_EISRUN. */
static int destroy_eventset_impl(int *EventSet)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	if (!EventSet)
		return PAPI_EINVAL;
	EventSet_t *es;
	int ret = es_get_stopped(*EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (es->nev > 0)
		return PAPI_EINVAL;
	tbl_remove(es->id);
	es_free(es);
	*EventSet = PAPI_NULL;
	return PAPI_OK;
}

/* PAPI_assign_eventset_component: bind an empty set to component cidx.
 * PAPI_ENOCMP for a component that does not exist, PAPI_ECMP for one that
 * is disabled, PAPI_EINVAL when the set holds another component's events. */
static int assign_eventset_component_impl(int EventSet, int cidx)
{
	EventSet_t *es;
	int ret = es_get_stopped(EventSet, &es);
	if (ret != PAPI_OK)
		return ret;
	if (cidx < 0 || cidx >= PAPI_num_components())
		return PAPI_ENOCMP;
	if (es->nev > 0 && es->cidx != cidx)
		return PAPI_EINVAL;
	const struct component *c;
	if (cidx > 0 && (ret = cmp_get(cidx, &c)) != PAPI_OK)
		return ret;
	if (es->cset && es->cidx != cidx) {
		cmpset_free(es->cset);	/* empty: bound before, to another */
		es->cset = NULL;
	}
	es->cidx = cidx;
	return PAPI_OK;
}

/* PAPI_get_eventset_component: the component index, or PAPI_ENOCMP when
 * the set is not bound yet, PAPI_ENOEVST for no set. */
static int get_eventset_component_impl(int EventSet)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	EventSet_t *es = es_lookup(EventSet);
	if (!es)
		return PAPI_ENOEVST;
	return es->cidx < 0 ? PAPI_ENOCMP : es->cidx;
}

/* Shutdown while other threads still use their sets. PAPI_shutdown first
 * marks the library uninitialized, then calls es_destroy_all. A call that
 * uses a set counts itself in es_inflight.n and only then checks that the
 * library is initialized; es_destroy_all checks es_inflight.n only after the
 * state changed. Both sides are sequentially consistent, so either the call
 * sees PAPI_NOT_INITED (and returns PAPI_ENOINIT without touching a set) or
 * es_destroy_all sees it in flight and waits for it to finish. One shared
 * counter costs an atomic add per call, far less than the read() it guards. */
/* A cache line of its own: every counting call of every thread writes it. */
PAPI_FIRST_DATA static struct {
	int n;
	char pad[60];
} es_inflight __attribute__((aligned(64)));

PAPI_HOT int es_enter(void)
{
	__atomic_add_fetch(&es_inflight.n, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&papi_state, __ATOMIC_SEQ_CST) == PAPI_NOT_INITED) {
		__atomic_sub_fetch(&es_inflight.n, 1, __ATOMIC_SEQ_CST);
		return PAPI_ENOINIT;
	}
	return PAPI_OK;
}

PAPI_HOT void es_leave(void)
{
	__atomic_sub_fetch(&es_inflight.n, 1, __ATOMIC_SEQ_CST);
}

/* Wait (at most ~5 s) for the calls in flight; 0 when some never finished,
 * e.g. PAPI_shutdown called from a signal handler inside a PAPI call. */
static int inflight_drain(void)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (__atomic_load_n(&es_inflight.n, __ATOMIC_SEQ_CST) > 0) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 5)
			return 0;
		sched_yield();
	}
	return 1;
}

/* es_foreach: call fn on every live set (no lock: the table never moves). */
void es_foreach(void (*fn)(EventSet_t *es, void *arg), void *arg)
{
	for (int c = 0; c < NCHUNKS; c++) {
		EventSet_t **ch = __atomic_load_n(&chunks[c], __ATOMIC_ACQUIRE);
		for (int i = 0; ch && i < CHUNK; i++) {
			EventSet_t *es = __atomic_load_n(&ch[i], __ATOMIC_ACQUIRE);
			if (es)
				fn(es, arg);
		}
	}
}

/* es_code_in_use: is code part of any EventSet? presets.c asks through
 * presets_set_in_use before it redefines an event. */
int es_code_in_use(int code)
{
	if (es_enter() != PAPI_OK)	/* not initialized: no sets */
		return 0;
	int used = 0;
	for (int c = 0; c < NCHUNKS && !used; c++) {
		EventSet_t **ch = __atomic_load_n(&chunks[c], __ATOMIC_ACQUIRE);
		for (int i = 0; ch && i < CHUNK && !used; i++) {
			EventSet_t *es = __atomic_load_n(&ch[i], __ATOMIC_ACQUIRE);
			for (int e = 0; es && e < es->nev; e++)
				if (es->ev[e].code == code)
					used = 1;
		}
	}
	es_leave();
	return used;
}

/* At shutdown: stop and free every set, once no call uses them. When some
 * call never leaves, the sets are unlinked but not freed (a leak, not a
 * crash). */
void es_destroy_all(void)
{
	int can_free = inflight_drain();
	pthread_mutex_lock(&tbl_lock);
	for (int c = 0; c < NCHUNKS; c++) {
		EventSet_t **ch = __atomic_load_n(&chunks[c], __ATOMIC_ACQUIRE);
		if (!ch)
			continue;
		for (int i = 0; i < CHUNK; i++) {
			EventSet_t *es = __atomic_load_n(&ch[i], __ATOMIC_ACQUIRE);
			if (es && can_free)
				es_free(es);
			__atomic_store_n(&ch[i], NULL, __ATOMIC_RELEASE);
		}
		__atomic_store_n(&chunks[c], NULL, __ATOMIC_RELEASE);
		if (can_free)
			free(ch);
	}
	pthread_mutex_unlock(&tbl_lock);
}

/* The public entry points: each runs its _impl in flight (es_enter/es_leave),
 * so that PAPI_shutdown never frees a set under a running call. */
int PAPI_create_eventset(int *EventSet)
{
	return ES_IN_FLIGHT(create_eventset_impl(EventSet));
}

int PAPI_add_event(int EventSet, int EventCode)
{
	return ES_IN_FLIGHT(add_event_impl(EventSet, EventCode));
}

int PAPI_remove_event(int EventSet, int EventCode)
{
	return ES_IN_FLIGHT(remove_event_impl(EventSet, EventCode));
}

int PAPI_list_events(int EventSet, int *Events, int *number)
{
	return ES_IN_FLIGHT(list_events_impl(EventSet, Events, number));
}

int PAPI_num_events(int EventSet)
{
	return ES_IN_FLIGHT(num_events_impl(EventSet));
}

int PAPI_state(int EventSet, int *status)
{
	return ES_IN_FLIGHT(state_impl(EventSet, status));
}

int PAPI_cleanup_eventset(int EventSet)
{
	return ES_IN_FLIGHT(cleanup_eventset_impl(EventSet));
}

int PAPI_destroy_eventset(int *EventSet)
{
	return ES_IN_FLIGHT(destroy_eventset_impl(EventSet));
}

int PAPI_assign_eventset_component(int EventSet, int cidx)
{
	return ES_IN_FLIGHT(assign_eventset_component_impl(EventSet, cidx));
}

int PAPI_get_eventset_component(int EventSet)
{
	return ES_IN_FLIGHT(get_eventset_component_impl(EventSet));
}

/* hl.c: the region API (PAPI_hl_*): PAPI_EVENTS, per-thread EventSets and regions aggregated in place. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "6-api/hl.h"


/*
 * Each thread that begins a region gets its own EventSet and its own table
 * of regions, reached through a thread-local pointer: the hot path takes no
 * lock and allocates nothing once a region name and nesting depth have been
 * seen.  A begin reads the counters once and keeps the values on the
 * thread's stack of open regions; the matching end reads them once more and
 * adds the differences into the region's totals.  The global lock guards
 * only the one-time setup and the list of threads.
 */

enum { HL_OFF, HL_ON, HL_DISABLED, HL_FINISHED };

static pthread_mutex_t hl_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int hl_mode = HL_OFF;
/* Bumped when every EventSet goes away (PAPI_shutdown, fork): a thread whose
 * gen differs makes its counters anew before it measures again. */
static atomic_uint hl_gen = 1;
static char *hl_user_events;	/* PAPI_hl_set_events, overrides PAPI_EVENTS */

static __thread struct hl_thread *me;
static pthread_key_t hl_key;

/* The default events (seed 004, Table 3): each row is one event, the first
 * of its alternatives that can be counted. perf::TASK-CLOCK comes first so
 * that a machine without a hardware PMU still gets data. */
static const char *const hl_defaults[][3] = {
	{ "perf::TASK-CLOCK" },
	{ "PAPI_TOT_INS" },
	{ "PAPI_TOT_CYC" },
	{ "PAPI_FP_INS", "PAPI_VEC_SP", "PAPI_VEC_DP" },
	{ "PAPI_FP_OPS", "PAPI_SP_OPS", "PAPI_DP_OPS" },
};
#define HL_NDEFAULTS (int)(sizeof hl_defaults / sizeof hl_defaults[0])

/* ------------------------------------------------------------------ setup */

static void hl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void hl_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("PAPI high-level: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Why the last add failed, for the warning. */
static const char *add_reason(int ret)
{
	const char *why = papi_last_reason();
	return *why ? why : PAPI_strerror(ret);
}

/* The components measured, in the order of their sets in each thread's
 * es[]: fixed by the first thread's setup (under hl_lock), read after. */
static int hl_set_cidx[HL_MAX_SETS], hl_nsets;

/* Add the event called name to the set of its component among sets[]
 * (made when it is the first of its component). PAPI_OK and *code, or the
 * error (reason kept, not printed as debug output: the one warning of
 * choose_events says it). */
static int try_add(int *sets, const char *name, int *code)
{
	int c, ret;
	int was = papi_reason_mute(1);
	papi_clear_reason();
	if ((ret = PAPI_event_name_to_code(name, &c)) == PAPI_OK) {
		int cidx = PAPI_get_event_component(c), k = 0;
		while (k < hl_nsets && hl_set_cidx[k] != cidx)
			k++;
		if (cidx < 0) {
			ret = cidx;
		} else if (k == HL_MAX_SETS) {
			papi_set_reason("%s: more than %d components at once", name, HL_MAX_SETS);
			ret = PAPI_ECMP;
		} else {
			if (k == hl_nsets)
				hl_set_cidx[hl_nsets++] = cidx;
			if (sets[k] == PAPI_NULL)
				ret = PAPI_create_eventset(&sets[k]);
			if (ret == PAPI_OK && (ret = PAPI_add_event(sets[k], c)) == PAPI_OK)
				*code = c;
		}
	}
	papi_reason_mute(was);
	return ret;
}

static int push_event(const char *name, int code, int instant)
{
	struct hl_event *v = realloc(hl_ev, (size_t)(hl_nev + 1) * sizeof *v);
	if (!v)
		return PAPI_ENOMEM;
	hl_ev = v;
	char *dup = strdup(name);
	if (!dup)
		return PAPI_ENOMEM;
	const PAPI_component_info_t *ci = PAPI_get_component_info(PAPI_get_event_component(code));
	hl_ev[hl_nev] = (struct hl_event){ dup, code, instant, "" };
	snprintf(hl_ev[hl_nev].cmp, sizeof hl_ev[hl_nev].cmp, "%s", ci ? ci->name : "perf_event");
	hl_nev++;
	return PAPI_OK;
}

/* Decide the events once, by adding them to es[] (the first thread's
 * sets). Returns PAPI_OK, PAPI_ENOMEM; events that cannot be counted are
 * left out and named in one warning. */
static int choose_events(int *es, const char *spec)
{
	char skipped[1024] = "", problems[512] = "";
	int ret = PAPI_OK, code;

	if (!spec) {
		/* Defaults skipped for one same reason are named together. */
		char why[HL_NDEFAULTS][300];
		int nskip = 0, skip_of[HL_NDEFAULTS];
		for (int r = 0; r < HL_NDEFAULTS && ret == PAPI_OK; r++) {
			int got = 0, err = PAPI_ENOEVNT;
			for (int a = 0; a < 3 && hl_defaults[r][a] && !got; a++) {
				if ((err = try_add(es, hl_defaults[r][a], &code)) == PAPI_OK) {
					got = 1;
					ret = push_event(hl_defaults[r][a], code, 0);
				} else {
					const char *w = add_reason(err), *n = hl_defaults[r][a];
					size_t nl = strlen(n);
					if (!strncmp(w, n, nl) && !strncmp(w + nl, ": ", 2))
						w += nl + 2;	/* the name is said already */
					snprintf(why[nskip], sizeof why[nskip], "%s", w);
				}
			}
			if (!got)
				skip_of[nskip++] = r;
		}
		for (int i = 0; i < nskip; i++) {
			int first = 1;
			for (int k = 0; k < i && first; k++)
				first = strcmp(why[k], why[i]) != 0;
			if (!first)
				continue;	/* named with the first of its reason */
			char names[256] = "";
			for (int k = i; k < nskip; k++)
				if (!strcmp(why[k], why[i])) {
					const char *const *d = hl_defaults[skip_of[k]];
					size_t u = strlen(names);
					snprintf(names + u, sizeof names - u, "%s%s%s", u ? ", " : "",
						 d[0], d[1] ? " (and alternatives)" : "");
				}
			hl_add_problem(skipped, sizeof skipped, "%s: %s", names, why[i]);
		}
	} else {
		struct hl_spec *sp = calloc(HL_MAX_EVENTS, sizeof *sp);
		if (!sp)
			return PAPI_ENOMEM;
		int n = hl_events_parse(spec, sp, HL_MAX_EVENTS, problems, sizeof problems);
		for (int i = 0; i < n && ret == PAPI_OK; i++) {
			int err = try_add(es, sp[i].name, &code);
			if (err == PAPI_OK)
				ret = push_event(sp[i].name, code, sp[i].instant);
			else
				hl_add_problem(skipped, sizeof skipped, "%s (%s)", sp[i].name, add_reason(err));
		}
		free(sp);
		if (*problems)
			hl_warn("PAPI_EVENTS is malformed: %s", problems);
	}
	if (*skipped)
		hl_warn("skipping events that cannot be counted here: %s", skipped);
	hl_nval = HL_FIRST_EVENT + 3 * hl_nev;
	return ret;
}

static void hl_atexit(void)
{
	int m = atomic_load(&hl_mode);
	if (m == HL_ON)
		hl_output_write();
}

/* PAPI_shutdown closes every EventSet before this runs: the report is made
 * from the stored totals. HL calls after it are ignored, as after
 * PAPI_hl_finalize. */
static void hl_on_shutdown(void)
{
	int m = HL_ON;
	atomic_fetch_add(&hl_gen, 1);
	if (atomic_compare_exchange_strong(&hl_mode, &m, HL_FINISHED))
		hl_output_write();
}

/* The child of a fork has the parent's regions but none of its counters:
 * it neither measures nor writes the parent's report. */
static void hl_child_after_fork(void)
{
	atomic_fetch_add(&hl_gen, 1);
	if (atomic_load(&hl_mode) == HL_ON)
		atomic_store(&hl_mode, HL_DISABLED);
}

static void close_counters(struct hl_thread *t)
{
	for (int k = 0; k < t->nsets; k++) {
		if (t->es[k] != PAPI_NULL && t->gen == atomic_load(&hl_gen)) {
			PAPI_stop(t->es[k], NULL);
			PAPI_cleanup_eventset(t->es[k]);
			PAPI_destroy_eventset(&t->es[k]);
		}
		t->es[k] = PAPI_NULL;
		t->nes[k] = 0;
	}
	t->nsets = 0;
	t->depth = 0;
}

/* A thread that ends stops its counters; its regions stay for the report. */
static void hl_thread_exit(void *arg)
{
	close_counters(arg);
}

/* Global setup, once: the events go into es[] (all PAPI_NULL), which
 * become the caller's sets. */
static int hl_setup(int *es)
{
	int ret = PAPI_OK;

	pthread_mutex_lock(&hl_lock);
	if (atomic_load(&hl_mode) != HL_OFF)
		goto out;
	if (!lib_ready() && PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ret = PAPI_ENOINIT;
		goto out;
	}
	const char *spec = hl_user_events ? hl_user_events : getenv("PAPI_EVENTS");
	if (spec && *spec == 0)
		spec = NULL;
	if (spec) {
		const char *s = spec;
		size_t len = strlen(s);
		while (len && hl_is_space(*s))
			s++, len--;
		while (len && hl_is_space(s[len - 1]))
			len--;
		if (len == 4 && !memcmp(s, "NONE", 4)) {
			atomic_store(&hl_mode, HL_DISABLED);
			goto out;
		}
	}
	if ((ret = choose_events(es, spec)) != PAPI_OK)
		goto out;
	const char *lay = getenv("PAPI_HL_LAYOUT");
	hl_layout = HL_LAYOUT_PAPI7;
	if (lay && !strcmp(lay, "aggregated"))
		hl_layout = HL_LAYOUT_AGGREGATED;
	else if (lay && *lay && strcmp(lay, "papi7"))
		hl_warn("PAPI_HL_LAYOUT=%s is neither papi7 nor aggregated: writing PAPI 7.0's layout", lay);
	if (pthread_key_create(&hl_key, hl_thread_exit) != 0) {
		ret = PAPI_ESYS;
		goto out;
	}
	hl_clock_start();
	atexit(hl_atexit);
	papi_on_shutdown(hl_on_shutdown);
	pthread_atfork(NULL, NULL, hl_child_after_fork);
	atomic_store(&hl_mode, HL_ON);
out:
	pthread_mutex_unlock(&hl_lock);
	return ret;
}

/* ------------------------------------------------------------------ threads */

/* (Re)make the calling thread's EventSets with the chosen events. es[]
 * holds sets already holding them (the first thread's), or none. */
static int thread_counters(struct hl_thread *t, int *es)
{
	int ret = PAPI_OK, code, mine[HL_MAX_SETS], any = 0;

	t->gen = atomic_load(&hl_gen);
	t->depth = 0;
	if (hl_nev == 0)
		return PAPI_OK;
	for (int k = 0; k < hl_nsets; k++)
		any |= es[k] != PAPI_NULL;
	if (!any) {
		for (int k = 0; k < HL_MAX_SETS; k++)
			mine[k] = PAPI_NULL;
		for (int e = 0; e < hl_nev; e++)
			try_add(mine, hl_ev[e].name, &code);
		es = mine;
	}
	for (int e = 0; e < hl_nev; e++)
		t->pos[e] = -1;
	t->nsets = hl_nsets;
	for (int k = 0, off = 0; k < hl_nsets; off += t->nes[k], k++) {
		int n = hl_nev, codes[HL_MAX_EVENTS];
		t->es[k] = es[k];
		t->nes[k] = 0;
		if (es[k] == PAPI_NULL || (ret = PAPI_list_events(es[k], codes, &n)) != PAPI_OK)
			continue;
		for (int e = 0; e < hl_nev; e++)
			for (int j = 0; j < n; j++)
				if (codes[j] == hl_ev[e].code)
					t->pos[e] = off + j;
		t->nes[k] = n;
	}
	for (int k = 0; ret == PAPI_OK && k < hl_nsets; k++)
		if (t->nes[k] > 0)
			ret = PAPI_start(t->es[k]);
	if (ret != PAPI_OK)
		close_counters(t);
	return ret;
}

static struct hl_thread *thread_new(void)
{
	struct hl_thread *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	for (int k = 0; k < HL_MAX_SETS; k++)
		t->es[k] = PAPI_NULL;
	t->tid = papi_gettid();
	t->nslot = 64;
	t->cap = 16;
	t->slot = calloc(t->nslot, sizeof *t->slot);
	t->pos = calloc((size_t)hl_nev + 1, sizeof *t->pos);
	t->esv = calloc((size_t)hl_nev + 1, sizeof *t->esv);
	t->esen = calloc((size_t)hl_nev + 1, sizeof *t->esen);
	t->esrun = calloc((size_t)hl_nev + 1, sizeof *t->esrun);
	t->cur = calloc((size_t)hl_nval, sizeof *t->cur);
	t->stk = calloc((size_t)t->cap, sizeof *t->stk);
	t->stkv = calloc((size_t)t->cap * (size_t)hl_nval, sizeof *t->stkv);
	t->stkrec = calloc((size_t)t->cap * 3, sizeof *t->stkrec);
	if (!t->slot || !t->pos || !t->esv || !t->esen || !t->esrun || !t->cur || !t->stk || !t->stkv ||
	    !t->stkrec) {
		free(t->slot), free(t->pos), free(t->esv), free(t->cur), free(t->stk), free(t->stkv);
		free(t->stkrec), free(t->esen), free(t->esrun);
		free(t);
		return NULL;
	}
	return t;
}

/* The caller's state, made on its first region call. NULL when the region
 * API does not measure (disabled, finished) or setup failed (*err). */
PAPI_HOT static struct hl_thread *thread_get(int *err)
{
	struct hl_thread *t = me;
	*err = PAPI_OK;
	if (t && t->gen == atomic_load(&hl_gen) && atomic_load(&hl_mode) == HL_ON)
		return t;
	int es[HL_MAX_SETS];
	for (int k = 0; k < HL_MAX_SETS; k++)
		es[k] = PAPI_NULL;
	if (atomic_load(&hl_mode) == HL_OFF && (*err = hl_setup(es)) != PAPI_OK)
		return NULL;
	if (atomic_load(&hl_mode) != HL_ON)
		return NULL;
	if (!t) {
		if (!(t = thread_new())) {
			*err = PAPI_ENOMEM;
			return NULL;
		}
		pthread_mutex_lock(&hl_lock);
		t->id = atomic_fetch_add(&hl_nthreads, 1);
		t->next = atomic_load(&hl_threads);
		atomic_store(&hl_threads, t);
		pthread_mutex_unlock(&hl_lock);
		me = t;
		pthread_setspecific(hl_key, t);
	} else {
		for (int k = 0; k < HL_MAX_SETS; k++)
			t->es[k] = PAPI_NULL;	/* its sets were closed by PAPI_shutdown */
		t->nsets = 0;
	}
	if ((*err = thread_counters(t, es)) != PAPI_OK) {
		t->gen = 0;
		return NULL;
	}
	return t;
}

/* ------------------------------------------------------------------ the hot path */

PAPI_HOT static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The index of region name, or -1. */
PAPI_HOT static int region_find(struct hl_thread *t, const char *name, uint64_t h)
{
	for (unsigned i = (unsigned)h & (t->nslot - 1);; i = (i + 1) & (t->nslot - 1)) {
		int r = t->slot[i] - 1;
		if (r < 0)
			return -1;
		struct hl_region *g = hl_region_at(t, r);
		if (g->hash == h && !strcmp(g->name, name))
			return r;
	}
}

static void slot_put(int *slot, unsigned nslot, uint64_t h, int r)
{
	unsigned i = (unsigned)h & (nslot - 1);
	while (slot[i])
		i = (i + 1) & (nslot - 1);
	slot[i] = r + 1;
}

/* A new region (the only allocation, once per name and thread). */
static int region_add(struct hl_thread *t, const char *name, uint64_t h)
{
	int n = atomic_load_explicit(&t->nreg, memory_order_relaxed);
	if (n >= HL_CHUNK * HL_MAX_CHUNKS)
		return -1;
	if ((unsigned)(n + 1) * 2 > t->nslot) {
		unsigned ns = t->nslot * 2;
		int *s = calloc(ns, sizeof *s);
		if (!s)
			return -1;
		for (int r = 0; r < n; r++)
			slot_put(s, ns, hl_region_at(t, r)->hash, r);
		free(t->slot);
		t->slot = s;
		t->nslot = ns;
	}
	if (!t->chunk[n >> HL_CHUNK_BITS] &&
	    !(t->chunk[n >> HL_CHUNK_BITS] = calloc(HL_CHUNK, sizeof(struct hl_region))))
		return -1;
	struct hl_region *g = hl_region_at(t, n);
	g->name = strdup(name);
	g->val = calloc(2 * (size_t)hl_nval, sizeof *g->val);
	if (!g->name || !g->val) {
		free(g->name), free(g->val);
		g->name = NULL, g->val = NULL;
		return -1;
	}
	g->rd = g->val + hl_nval;
	g->hash = h;
	g->parent = t->depth ? t->stk[t->depth - 1] : -1;
	slot_put(t->slot, t->nslot, h, n);
	atomic_store_explicit(&t->nreg, n + 1, memory_order_release);
	return n;
}

/* Read the clocks and every counter into t->cur, with the times the
 * kernel gave with the counts. */
PAPI_HOT static int sample(struct hl_thread *t)
{
	if (t->nsets > 0) {
		for (int k = 0, off = 0; k < t->nsets; off += t->nes[k], k++) {
			if (t->nes[k] == 0)
				continue;
			int ret = PAPI_read(t->es[k], t->esv + off);
			if (ret != PAPI_OK)
				return ret;
			es_last_times(es_lookup(t->es[k]), t->esen + off, t->esrun + off);
		}
		for (int e = 0; e < hl_nev; e++) {
			int p = t->pos[e];
			t->cur[HL_FIRST_EVENT + e] = p >= 0 ? t->esv[p] : 0;
			t->cur[hl_en(e)] = p >= 0 ? (long long)t->esen[p] : 0;
			t->cur[hl_run(e)] = p >= 0 ? (long long)t->esrun[p] : 0;
		}
	}
	if (!hl_tsc_time)
		t->cur[HL_REALNS] = PAPI_get_real_nsec();
	t->cur[HL_CYCLES] = PAPI_get_real_cyc();
	return PAPI_OK;
}

/* The innermost open frame of region name, or -1 (and PAPI_EINVAL). */
PAPI_HOT static int frame_find(struct hl_thread *t, const char *name)
{
	if (!name)
		return -1;
	int r = region_find(t, name, name_hash(name));
	for (int d = t->depth - 1; r >= 0 && d >= 0; d--)
		if (t->stk[d] == r)
			return d;
	return -1;
}

/* ------------------------------------------------------------------ the instance log */

PAPI_HOT static void diff(struct hl_thread *t, int d, long long *out, int add);

/* Room for n words at the end of t's log: their position, or -1 when no
 * memory is left or the log is full (instances are then left out). */
static long long log_reserve(struct hl_thread *t, int n)
{
	long long pos = atomic_load_explicit(&t->nlog, memory_order_relaxed);
	long long off = pos % HL_LOG_CHUNK;
	if (t->log_full)
		return -1;
	if (off && off + n > HL_LOG_CHUNK) {
		*hl_log_at(t->log, pos) = HL_REC_PAD;
		pos += HL_LOG_CHUNK - off;
		atomic_store_explicit(&t->nlog, pos, memory_order_release);
	}
	long long c = pos / HL_LOG_CHUNK;
	if (pos % HL_LOG_CHUNK == 0) {
		long long ***blk = &t->log[c / HL_LOG_BLOCK];
		if (c / HL_LOG_BLOCK >= HL_LOG_BLOCKS ||
		    (!*blk && !(*blk = calloc(HL_LOG_BLOCK, sizeof **blk))) ||
		    (!(*blk)[c % HL_LOG_BLOCK] &&
		     !((*blk)[c % HL_LOG_BLOCK] = malloc(HL_LOG_CHUNK * sizeof(long long))))) {
			t->log_full = 1;
			hl_warn("thread %d: no room left for its region instances; the report keeps the ones so far",
				t->id);
			return -1;
		}
	}
	return pos;
}

/* Log the instance of region r that begins; fr: its frame's record (its
 * position, number and last read). */
PAPI_HOT static void log_instance(struct hl_thread *t, int r, long long *fr)
{
	long long pos = log_reserve(t, HL_INST_HEAD + hl_nval);
	long long parent = t->depth ? t->stkrec[3 * (t->depth - 1) + 1] : -1;
	fr[1] = t->ninst++;
	fr[2] = -1;
	if (pos < 0)
		return;
	long long *rec = hl_log_at(t->log, pos);
	rec[0] = HL_REC_INST;
	rec[1] = r;
	rec[2] = parent;
	rec[3] = HL_OPEN;
	rec[4] = -1;
	fr[0] = pos;
	atomic_store_explicit(&t->nlog, pos + HL_INST_HEAD + hl_nval, memory_order_release);
}

/* Log a read of frame d's instance: the values since its begin. */
static void log_read(struct hl_thread *t, int d)
{
	long long *fr = t->stkrec + 3 * d;
	if (fr[0] < 0)
		return;
	long long pos = log_reserve(t, HL_READ_HEAD + hl_nval);
	if (pos < 0)
		return;
	long long *rec = hl_log_at(t->log, pos);
	rec[0] = HL_REC_READ;
	rec[1] = -1;
	diff(t, d, rec + HL_READ_HEAD, 0);
	atomic_store_explicit(&t->nlog, pos + HL_READ_HEAD + hl_nval, memory_order_release);
	long long *link = fr[2] < 0 ? hl_log_at(t->log, fr[0]) + 4 : hl_log_at(t->log, fr[2]) + 1;
	__atomic_store_n(link, pos, __ATOMIC_RELEASE);
	fr[2] = pos;
}

/* Log the end of frame d's instance: its values, then its state. */
PAPI_HOT static void log_end(struct hl_thread *t, int d)
{
	long long *fr = t->stkrec + 3 * d;
	if (fr[0] < 0)
		return;
	long long *rec = hl_log_at(t->log, fr[0]);
	diff(t, d, rec + HL_INST_HEAD, 0);
	__atomic_store_n(&rec[3], HL_ENDED, __ATOMIC_RELEASE);
}

/* PAPI_hl_region_begin: start a region called region in the calling thread.
 * The first call sets up the library and the events (PAPI_EVENTS). Regions
 * nest; a name used again adds to the same totals. PAPI_OK (also when
 * measuring is disabled by PAPI_EVENTS=NONE or after PAPI_hl_finalize),
 * PAPI_EINVAL (NULL name), PAPI_ENOMEM, or the error of reading the
 * counters. */
PAPI_HOT int PAPI_hl_region_begin(const char *region)
{
	int err;
	if (!region)
		return PAPI_EINVAL;
	struct hl_thread *t = thread_get(&err);
	if (!t)
		return err;
	uint64_t h = name_hash(region);
	int r = region_find(t, region, h);
	if (r < 0 && (r = region_add(t, region, h)) < 0)
		return PAPI_ENOMEM;
	if (t->depth == t->cap) {
		int nc = t->cap * 2;
		int *s = realloc(t->stk, (size_t)nc * sizeof *s);
		if (!s)
			return PAPI_ENOMEM;
		t->stk = s;
		long long *v = realloc(t->stkv, (size_t)nc * (size_t)hl_nval * sizeof *v);
		if (!v)
			return PAPI_ENOMEM;
		t->stkv = v;
		long long *rec = realloc(t->stkrec, (size_t)nc * 3 * sizeof *rec);
		if (!rec)
			return PAPI_ENOMEM;
		t->stkrec = rec;
		t->cap = nc;
	}
	long long *fr = t->stkrec + 3 * t->depth;
	fr[0] = -1;
	if (hl_layout == HL_LAYOUT_PAPI7)
		log_instance(t, r, fr);
	/* Read last, so the bookkeeping above is not part of the region. */
	if ((err = sample(t)) != PAPI_OK)
		return err;
	t->stk[t->depth] = r;
	memcpy(t->stkv + (size_t)t->depth * (size_t)hl_nval, t->cur, (size_t)hl_nval * sizeof *t->cur);
	t->depth++;
	return PAPI_OK;
}

/* Store the values since frame d began into out (instant events: as read). */
PAPI_HOT static void diff(struct hl_thread *t, int d, long long *out, int add)
{
	const long long *b = t->stkv + (size_t)d * (size_t)hl_nval;
	for (int i = 0; i < hl_nval; i++) {
		int inst = i >= HL_FIRST_EVENT && i < hl_en(0) && hl_ev[i - HL_FIRST_EVENT].instant;
		long long v = inst ? t->cur[i] : t->cur[i] - b[i];
		out[i] = add && !inst ? out[i] + v : v;
	}
}

/* PAPI_hl_read: record the values since the matching begin without ending
 * or resetting the region. PAPI_OK, PAPI_EINVAL when region is not open in
 * this thread, or the error of reading the counters. */
int PAPI_hl_read(const char *region)
{
	int err;
	struct hl_thread *t = thread_get(&err);
	if (!t)
		return region ? err : PAPI_EINVAL;
	if ((err = sample(t)) != PAPI_OK)
		return err;
	int d = frame_find(t, region);
	if (d < 0)
		return PAPI_EINVAL;
	struct hl_region *g = hl_region_at(t, t->stk[d]);
	if (hl_layout == HL_LAYOUT_AGGREGATED) {	/* the totals are that layout's */
		diff(t, d, g->rd, 0);
		g->reads++;
	} else {
		log_read(t, d);
	}
	return PAPI_OK;
}

/* PAPI_hl_region_end: end the innermost open region called region and add
 * its values to the region's totals (counting goes on). Regions begun
 * inside it and never ended are dropped. PAPI_OK, PAPI_EINVAL when region
 * is not open in this thread, or the error of reading the counters. */
PAPI_HOT int PAPI_hl_region_end(const char *region)
{
	int err;
	struct hl_thread *t = thread_get(&err);
	if (!t)
		return region ? err : PAPI_EINVAL;
	/* Read first, so the bookkeeping below is not part of the region. */
	if ((err = sample(t)) != PAPI_OK)
		return err;
	int d = frame_find(t, region);
	if (d < 0) {
		if (!t->warned++ && getenv("PAPI_HL_VERBOSE"))
			hl_warn("region \"%s\" ended but not begun in this thread", region);
		return PAPI_EINVAL;
	}
	if (hl_layout == HL_LAYOUT_AGGREGATED) {	/* the totals are that layout's */
		struct hl_region *g = hl_region_at(t, t->stk[d]);
		diff(t, d, g->val, 1);
		g->count++;
	} else {
		log_end(t, d);
	}
	t->depth = d;
	return PAPI_OK;
}

/* PAPI_hl_stop: stop and release the calling thread's high-level counters
 * so that the low-level API can use them; open regions are dropped. A
 * later begin starts counting afresh. PAPI_OK, or PAPI_ENOTRUN when this
 * thread has no high-level counters. */
int PAPI_hl_stop(void)
{
	struct hl_thread *t = me;
	if (!t || t->gen != atomic_load(&hl_gen))
		return atomic_load(&hl_mode) == HL_ON ? PAPI_ENOTRUN : PAPI_OK;
	close_counters(t);
	t->gen = 0;
	return PAPI_OK;
}

/* ------------------------------------------------------------------ the optional calls */

/* PAPI_hl_init: set up the library and the events now rather than at the
 * first begin. PAPI_OK, or the error of PAPI_library_init or of making the
 * calling thread's counters. */
int PAPI_hl_init(void)
{
	int err;
	thread_get(&err);
	return err;
}

/* PAPI_hl_cleanup_thread: stop and release the calling thread's counters;
 * its regions stay in the report. PAPI_OK, or PAPI_ENOTRUN. */
int PAPI_hl_cleanup_thread(void)
{
	return PAPI_hl_stop();
}

/* PAPI_hl_finalize: write the report now, release the calling thread's
 * counters and end the region API: later calls do nothing. PAPI_OK, or the
 * error of writing the report. Other threads should have ended first. */
int PAPI_hl_finalize(void)
{
	int m = HL_ON, ret = PAPI_OK;
	if (atomic_compare_exchange_strong(&hl_mode, &m, HL_FINISHED)) {
		ret = hl_output_write();
		if (me)
			close_counters(me);
	} else if (m == HL_OFF || m == HL_DISABLED) {
		atomic_store(&hl_mode, HL_FINISHED);
	}
	return ret;
}

/* PAPI_hl_set_events: measure events (PAPI_EVENTS syntax) instead of what
 * PAPI_EVENTS says. Only before the first region begins: PAPI_EISRUN
 * afterwards; PAPI_EINVAL for NULL or an empty list; PAPI_ENOMEM. */
int PAPI_hl_set_events(const char *events)
{
	if (!events || !*events)
		return PAPI_EINVAL;
	int ret = PAPI_OK;
	pthread_mutex_lock(&hl_lock);
	if (atomic_load(&hl_mode) != HL_OFF) {
		ret = PAPI_EISRUN;
	} else {
		char *dup = strdup(events);
		if (!dup) {
			ret = PAPI_ENOMEM;
		} else {
			free(hl_user_events);
			hl_user_events = dup;
		}
	}
	pthread_mutex_unlock(&hl_lock);
	return ret;
}

/* PAPI_hl_print_output: write the report now (the rank file, and stdout
 * under PAPI_REPORT=1); at exit it is written again with what came later.
 * PAPI_OK (nothing to do when nothing was measured), or PAPI_ESYS. */
int PAPI_hl_print_output(void)
{
	if (atomic_load(&hl_mode) != HL_ON)
		return PAPI_OK;
	return hl_output_write();
}

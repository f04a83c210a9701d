/* presets.c: the preset and user-event tables: lazy loading of the definition files, resolution into native terms, availability, event info. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "3-naming/naming.h"
#include "3-naming/events_tbl.h"
#include "3-naming/preset_catalog.h"
#include "3-naming/presets_int.h"

/*
 * Nothing is parsed until the first preset or user-event call after
 * PAPI_library_init. Then only the built-in files whose CPU lines name the
 * running PMU are parsed (PAPI_CSV_EVENT_FILE replaces them all), then
 * PAPI_USER_EVENTS_FILE. Names starting with "PAPI_" go to the preset table
 * (codes PAPI_PRESET_MASK|i, the catalogue first, then up to
 * PAPI_MAX_PRESET_EVENTS new ones), other names to the user-event table
 * (codes PAPI_UE_MASK|i). A later definition of a name replaces an earlier
 * one, so the user file can redefine presets.
 *
 * A preset is available when each of its natives resolves for this CPU and
 * the kernel has the PMU that counts it. Under LIBPFM_FORCE_PMU=<pmu> a forced
 * PMU the kernel lacks still lets a preset resolve, so a table can be checked
 * on any machine (PAPI_get_event_info names its natives, papi avail lists it),
 * but such a preset is not available: PAPI_query_event says PAPI_ENOEVNT, as
 * PAPI_add_event would, without opening a counter to learn it.
 */

#define MAX_USER 1024


PAPI_FIRST_DATA static pthread_mutex_t pr_lock = PTHREAD_MUTEX_INITIALIZER;
PAPI_FIRST_DATA static atomic_int pr_loaded;
static struct pev pre[PAPI_MAX_PRESET_EVENTS];
PAPI_FIRST_DATA static int npre;
static struct pev *ue[MAX_USER];
PAPI_FIRST_DATA static int nue;
static struct msgs pr_errs;
PAPI_FIRST_DATA static char core_name[64];
PAPI_FIRST_DATA static const char *forced_pmu;
/* The generic table (CPU,generic) applies: no table names libpfm4's core
 * PMU, and the kernel has a core PMU to count on. */
PAPI_FIRST_DATA static int generic_on;
/* The tables' passes, one per core type (coretypes.c); the one loading. */
static struct ct_pass passes[8];
PAPI_FIRST_DATA static int npasses, cur_pass;

static int is_user(int code)
{
	return (code & PAPI_UE_MASK) == PAPI_UE_MASK;
}

/* The entry of a preset or user code, NULL when out of range. */
static struct pev *code_entry(int code)
{
	int i = code & ~PAPI_UE_MASK;
	if (is_user(code))
		return i < nue ? ue[i] : NULL;
	if ((code & PAPI_UE_MASK) != PAPI_PRESET_MASK)
		return NULL;
	return i < npre ? &pre[i] : NULL;
}

/* Whether PAPI_add_event could take e: defined, resolved, and on PMUs the
 * kernel has. */
static int countable(const struct pev *e)
{
	return e->defined && e->avail && !e->elsewhere;
}

/* Code of the entry called name (defined or a catalogue name), or 0. */
static int name_code(const char *name)
{
	int i = preset_catalog_find(name);
	if (i >= 0)
		return PAPI_PRESET_MASK | i;
	for (i = PRESET_COUNT; i < npre; i++)
		if (!strcmp(pre[i].name, name))
			return PAPI_PRESET_MASK | i;
	for (i = 0; i < nue; i++)
		if (!strcmp(ue[i]->name, name))
			return PAPI_UE_MASK | i;
	return 0;
}

static void pev_clear_def(struct pev *e)
{
	free(e->formula);
	for (int i = 0; i < e->nbase; i++)
		free(e->base[i]);
	formula_free(e->f);
	free(e->postfix);
	free(e->why);
	free(e->cover);
	e->formula = e->postfix = e->why = e->cover = NULL;
	e->f = NULL;
	e->nbase = e->nterms = e->types = 0;
	e->defined = e->avail = e->elsewhere = 0;
}

static void pev_free(struct pev *e)
{
	pev_clear_def(e);
	free(e->name);
	free(e->sdesc);
	free(e->ldesc);
	free(e->note);
	free(e->failed);
	memset(e, 0, sizeof *e);
}

/* ------------------------------------------------------------------ resolution */

/* Can the kernel count native idx? 1 when it can, 2 when idx is an event of
 * the forced PMU and the kernel lacks that PMU (it resolves, but cannot be
 * counted here), 0 otherwise; why says why not. A native named from sysfs is
 * opened once to see whether the kernel's driver knows it: generic events
 * are optional for a driver. */
static int native_avail(int idx, char *why, size_t len)
{
	/* A question asked while loading: no debug line, and the caller's last
	 * reason stays as it was. */
	char saved[512];
	snprintf(saved, sizeof saved, "%s", papi_last_reason());
	int was = papi_reason_mute(1);
	int r = native_usable(idx);
	snprintf(why, len, "%s", papi_last_reason());
	papi_set_reason("%s", saved);
	papi_reason_mute(was);
	const struct native *n = native_get(idx);
	if (r == PAPI_OK && n && n->sysfs)
		r = native_probe(idx, why, len);
	if (r == PAPI_ECMP && forced_pmu) {
		const struct pmu *p = n ? pmu_get(n->pmu) : NULL;
		return p && !strcmp(p->name, forced_pmu) ? 2 : 0;
	}
	return r == PAPI_OK;
}

/* Index of native idx in terms[], added when new; -1 when full. */
static int term_slot(int *terms, int *n, int idx)
{
	for (int i = 0; i < *n; i++)
		if (terms[i] == idx)
			return i;
	if (*n == PAPI_EVENTS_IN_DERIVED_EVENT)
		return -1;
	terms[*n] = idx;
	return (*n)++;
}

static int why(char *buf, size_t len, int ret, const char *fmt, const char *arg)
{
	snprintf(buf, len, fmt, arg);
	return ret;
}

/* Resolve ev into e's resolved fields (nterms, ntv, f, eff, avail, postfix). */
static int resolve_def(const struct def_event *ev, struct pev *e, char *msg, size_t len)
{
	struct formula *sub[PAPI_EVENTS_IN_DERIVED_EVENT] = { 0 }, *outer = NULL, *fin = NULL;
	int composed = 0, ret = PAPI_OK;
	e->nterms = 0;
	for (int b = 0; b < ev->nbase && ret == PAPI_OK; b++) {
		const char *name = ev->base[b];
		int code = name_code(name);
		const struct pev *be = code && !cur_pass ? code_entry(code) : NULL;
		int map[PAPI_EVENTS_IN_DERIVED_EVENT], k = 1;
		struct formula *id = NULL;
		if (be) {
			if (!be->defined) {
				ret = why(msg, len, PAPI_ENOEVNT, "base event %s is not defined here", name);
				break;
			}
			for (int t = 0; t < be->nterms; t++)
				if ((map[t] = term_slot(e->ntv, &e->nterms, be->ntv[t])) < 0)
					ret = PAPI_EINVAL;
			composed = 1;
		} else if (ev->pmu && !strcmp(ev->pmu, "generic") && !strstr(name, "::") &&
			   !strchr(name, '/')) {
			int idx[PAPI_EVENTS_IN_DERIVED_EVENT];
			k = coretype_generic_natives(name, idx, PAPI_EVENTS_IN_DERIVED_EVENT);
			if (k <= 0) {
				ret = why(msg, len, k < 0 ? k : PAPI_ENOEVNT,
					  "no generic event %s on this kernel's core PMUs", name);
				break;
			}
			for (int t = 0; t < k; t++)
				if ((map[t] = term_slot(e->ntv, &e->nterms, idx[t])) < 0)
					ret = PAPI_EINVAL;
			composed |= k > 1;
		} else {
			char q[PAPI_HUGE_STR_LEN];
			int idx, r = PAPI_ENOEVNT;
			if (ev->pmu && !strstr(name, "::")) {
				snprintf(q, sizeof q, "%s::%s", ev->pmu, name);
				r = native_lookup(q, &idx);
			}
			if (r == PAPI_ENOEVNT)
				r = native_lookup(name, &idx);
			if (r != PAPI_OK) {
				ret = why(msg, len, r == PAPI_ENOMEM ? r : PAPI_ENOEVNT,
					  "no native event %s on this CPU", name);
				break;
			}
			if ((map[0] = term_slot(e->ntv, &e->nterms, idx)) < 0)
				ret = PAPI_EINVAL;
		}
		if (ret == PAPI_EINVAL) {
			why(msg, len, ret, "more than %s native events in all", "8");
			break;
		}
		/* A native alone, or the sum of one event on several core PMUs. */
		if (be && be->f)
			ret = formula_remap(be->f, map, &sub[b]);
		else if ((ret = formula_compile(k > 1 ? DERIVED_ADD : NOT_DERIVED, NULL, k, &id, NULL,
						0)) == PAPI_OK)
			ret = formula_remap(id, map, &sub[b]);
		formula_free(id);
	}
	if (ret == PAPI_OK)
		ret = formula_compile(ev->derived, ev->formula, ev->nbase, &outer, msg, len);
	if (ret == PAPI_OK)
		ret = formula_substitute(outer, (const struct formula *const *)sub, ev->nbase, &fin);
	formula_free(outer);
	for (int b = 0; b < ev->nbase; b++)
		formula_free(sub[b]);
	if (ret != PAPI_OK)
		return ret;

	/* An infix formula is reported as the postfix it compiles to (as PAPI 7
	 * does); a definition over presets or user events as the simplest type of
	 * its expansion. */
	e->eff = composed ? formula_shape(fin, e->nterms) : ev->derived;
	if (e->eff == DERIVED_INFIX)
		e->eff = DERIVED_POSTFIX;
	if (e->eff == NOT_DERIVED && e->nterms == 1) {
		formula_free(fin);
		fin = NULL;
	}
	e->f = fin;
	e->postfix = NULL;
	char pf[PAPI_2MAX_STR_LEN];
	if (fin && e->eff == DERIVED_POSTFIX && formula_to_postfix(fin, pf, sizeof pf) == PAPI_OK)
		e->postfix = strdup(pf);
	e->avail = 1;
	e->elsewhere = 0;
	e->why = NULL;
	for (int t = 0; t < e->nterms && e->avail; t++) {
		char w[PAPI_HUGE_STR_LEN] = "";
		int a = native_avail(e->ntv[t], w, sizeof w);
		if (a == 1)
			continue;
		if (a == 0)
			e->avail = 0;
		else if (e->elsewhere++)
			continue;	/* the first term's reason is enough */
		free(e->why);
		e->why = w[0] ? strdup(w) : NULL;
	}
	return PAPI_OK;
}

/* The core layer's answer to "is code part of an EventSet?" (init.c
 * registers it); none before, when no set can exist. */
PAPI_FIRST_DATA int (*presets_in_use_fn)(int code);

static int code_in_use(int code)
{
	int (*fn)(int) = __atomic_load_n(&presets_in_use_fn, __ATOMIC_ACQUIRE);
	return fn ? fn(code) : 0;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Add pass cur_pass's core type to preset ev of the first pass: the sum of
 * both. A user event, a preset the first pass lacks or this type cannot
 * count stays as is (see its note). PAPI_OK or PAPI_ENOMEM. */
static int add_type(const struct def_event *ev, char *msg, size_t len)
{
	int c = name_code(ev->name);
	struct pev *e = c && !is_user(c) ? code_entry(c) : NULL, tmp = { 0 };
	if (!e || !e->defined || !e->avail || e->elsewhere || (e->types & 1u << cur_pass))
		return PAPI_OK;
	int r = resolve_def(ev, &tmp, msg, len);
	struct ct_def a = { e->nterms, { 0 }, e->f }, b = { tmp.nterms, { 0 }, tmp.f }, sum;
	memcpy(a.ntv, e->ntv, sizeof a.ntv);
	memcpy(b.ntv, tmp.ntv, sizeof b.ntv);
	char pf[PAPI_2MAX_STR_LEN];
	if (r == PAPI_OK && tmp.avail && !tmp.elsewhere && (r = coretype_sum(&a, &b, &sum)) == PAPI_OK) {
		formula_free(e->f);
		free(e->postfix);
		e->nterms = sum.nterms;
		memcpy(e->ntv, sum.ntv, sizeof e->ntv);
		e->f = sum.f;
		e->eff = formula_shape(sum.f, sum.nterms);
		int spelt = e->eff == DERIVED_POSTFIX && formula_to_postfix(sum.f, pf, sizeof pf) == PAPI_OK;
		e->postfix = spelt ? strdup(pf) : NULL;
		e->types |= 1u << cur_pass;
	}
	formula_free(tmp.f);
	free(tmp.postfix);
	free(tmp.why);
	return r == PAPI_ENOMEM ? r : PAPI_OK;
}

/* Define (or redefine, when replace) the event ev; *code receives its code.
 * PAPI_EPERM, PAPI_EISRUN, PAPI_EINVAL/PAPI_ENOEVNT (bad definition),
 * PAPI_ENOTPRESET (table full), PAPI_ENOMEM; msg says why. */
static int define(const struct def_event *ev, int replace, int *code, char *msg, size_t len)
{
	if (cur_pass > 0)
		return add_type(ev, msg, len);
	int c = name_code(ev->name), is_preset = !strncmp(ev->name, "PAPI_", 5);
	struct pev *e = c ? code_entry(c) : NULL, tmp = { 0 };
	if (e && e->defined && !replace)
		return why(msg, len, PAPI_EPERM, "%s is already defined", ev->name);
	if (c && code_in_use(c))
		return why(msg, len, PAPI_EISRUN, "%s is in an EventSet", ev->name);
	if (!e && (is_preset ? npre == PAPI_MAX_PRESET_EVENTS : nue == MAX_USER))
		return why(msg, len, PAPI_ENOTPRESET, "no room for %s: the table is full", ev->name);
	int ret = resolve_def(ev, &tmp, msg, len);
	if (e) {
		free(e->failed);
		e->failed = ret != PAPI_OK ? strdup(msg) : NULL;
	}
	if (ret != PAPI_OK)
		return ret;
	if (!e) {
		if (is_preset) {
			c = PAPI_PRESET_MASK | npre;
			e = &pre[npre++];
		} else {
			if (!(ue[nue] = calloc(1, sizeof **ue))) {
				formula_free(tmp.f);
				free(tmp.postfix);
				return PAPI_ENOMEM;
			}
			c = PAPI_UE_MASK | nue;
			e = ue[nue++];
		}
		e->name = strdup(ev->name);
	}
	pev_clear_def(e);
	e->defined = 1;
	e->declared = ev->derived;
	e->formula = dup_or_null(ev->formula);
	e->nbase = ev->nbase;
	for (int i = 0; i < ev->nbase; i++)
		e->base[i] = strdup(ev->base[i]);
	e->nterms = tmp.nterms;
	memcpy(e->ntv, tmp.ntv, sizeof e->ntv);
	e->f = tmp.f;
	e->eff = tmp.eff;
	e->avail = tmp.avail;
	e->elsewhere = tmp.elsewhere;
	e->why = tmp.why;
	e->postfix = tmp.postfix;
	if (ev->sdesc) {
		free(e->sdesc);
		e->sdesc = strdup(ev->sdesc);
	}
	if (ev->ldesc) {
		free(e->ldesc);
		e->ldesc = strdup(ev->ldesc);
	}
	free(e->note);
	e->note = dup_or_null(ev->note);
	if (code)
		*code = c;
	return PAPI_OK;
}

/* ------------------------------------------------------------------ loading */

static int cpu_match(void *ctx, const char *name)
{
	(void)ctx;
	if (passes[cur_pass].section[0] && !strcmp(name, passes[cur_pass].section))
		return 1;
	for (int i = 0; i < pmu_count() && !cur_pass; i++) {
		const struct pmu *p = pmu_get(i);
		if (p->pfm_type != PFM_PMU_TYPE_CORE && !strcmp(p->name, name))
			return 1;
	}
	return 0;
}

struct load_ctx {
	int replace;
	int first_err;
};

static int load_event(void *ctx, const struct def_event *ev, char *msg, size_t len)
{
	struct load_ctx *l = ctx;
	int r = define(ev, l->replace, NULL, msg, len);
	if (r != PAPI_OK && l->first_err == PAPI_OK)
		l->first_err = r;
	return r;
}

static int load_file(const char *what, const char *path, struct load_ctx *l)
{
	char *text;
	size_t len;
	int r = deffile_read(path, &text, &len);
	if (r != PAPI_OK) {
		msgs_add(&pr_errs, "%s=%s: cannot read: %s", what, path,
			 r == PAPI_ESYS ? strerror(errno) : PAPI_strerror(r));
		return r;
	}
	struct deffile_sink s = { cpu_match, load_event, l };
	int n = deffile_parse(path, text, len, &s, &pr_errs);
	free(text);
	return n < 0 ? n : n > 0 ? PAPI_EINVAL : PAPI_OK;
}

static void presets_shutdown(void)
{
	pthread_mutex_lock(&pr_lock);
	for (int i = 0; i < npre; i++)
		pev_free(&pre[i]);
	for (int i = 0; i < nue; i++) {
		pev_free(ue[i]);
		free(ue[i]);
		ue[i] = NULL;
	}
	npre = nue = 0;
	msgs_free(&pr_errs);
	atomic_store(&pr_loaded, 0);
	pthread_mutex_unlock(&pr_lock);
}

static void load_all(void)
{
	for (int i = 0; i < PRESET_COUNT; i++) {
		pre[i].name = strdup(preset_catalog[i].name);
		pre[i].sdesc = strdup(preset_catalog[i].sdesc);
		pre[i].ldesc = strdup(preset_catalog[i].ldesc);
		pre[i].cat = preset_catalog[i].cat;
	}
	npre = PRESET_COUNT;
	core_name[0] = '\0';
	for (int i = 0; i < pmu_count(); i++)
		if (pmu_get(i)->pfm_type == PFM_PMU_TYPE_CORE && !pmu_get(i)->sysfs) {
			snprintf(core_name, sizeof core_name, "%s", pmu_get(i)->name);
			break;
		}
	forced_pmu = getenv("LIBPFM_FORCE_PMU");
	forced_pmu = forced_pmu && *forced_pmu ? forced_pmu : NULL;
	/* A CPU-specific table always wins over the generic one; on a hybrid
	 * each core type adds its own (one pass each). */
	npasses = coretype_passes(core_name, passes, (int)(sizeof passes / sizeof *passes));
	generic_on = !strcmp(passes[0].section, "generic");

	struct load_ctx l = { 1, PAPI_OK };
	const char *csv = getenv("PAPI_CSV_EVENT_FILE");
	for (cur_pass = 0; cur_pass < npasses; cur_pass++) {
		struct deffile_sink s = { cpu_match, load_event, &l };
		if (csv && *csv)
			load_file("PAPI_CSV_EVENT_FILE", csv, &l);
		for (int i = 0; i < events_files_count && !(csv && *csv); i++) {
			const struct events_file *f = &events_files[i];
			int hit = !f->cpus[0] && !cur_pass;
			for (int k = 0; f->cpus[k] && !hit; k++)
				hit = cpu_match(NULL, f->cpus[k]);
			if (hit)
				deffile_parse(f->path, f->text, strlen(f->text), &s, &pr_errs);
		}
	}
	cur_pass = 0;
	for (int i = 0; i < npre && npasses > 1; i++) {
		char text[PAPI_HUGE_STR_LEN];
		coretype_cover(passes, npasses, pre[i].types | 1u, text, sizeof text);
		pre[i].cover = pre[i].defined ? strdup(text) : NULL;
	}
	const char *user = getenv("PAPI_USER_EVENTS_FILE");
	if (user && *user)
		load_file("PAPI_USER_EVENTS_FILE", user, &l);
	for (int i = 0; i < pr_errs.n; i++)
		DBG("presets: %s", pr_errs.v[i]);
}

/* Load the tables once per library lifetime. */
static void pr_load(void)
{
	if (atomic_load_explicit(&pr_loaded, memory_order_acquire))
		return;
	pthread_mutex_lock(&pr_lock);
	if (!atomic_load_explicit(&pr_loaded, memory_order_relaxed)) {
		load_all();
		papi_on_shutdown(presets_shutdown);
		atomic_store_explicit(&pr_loaded, 1, memory_order_release);
	}
	pthread_mutex_unlock(&pr_lock);
}

/* presets_entry: see presets_int.h. */
const struct pev *presets_entry(int code, int *err)
{
	pr_load();
	const struct pev *e = code_entry(code);
	if (!e)
		*err = is_user(code) ? PAPI_ENOEVNT : PAPI_ENOTPRESET;
	return e;
}

/* ------------------------------------------------------------------ codes.c's calls */

/* presets_loaded: see naming.h. */
int presets_loaded(void)
{
	return atomic_load_explicit(&pr_loaded, memory_order_acquire);
}

PAPI_FIRST_DATA static atomic_int pr_env_files;

/* presets_read_env: see internal.h. */
void presets_read_env(const char *user, const char *csv)
{
	atomic_store_explicit(&pr_env_files, (user && *user) || (csv && *csv), memory_order_relaxed);
}

/* presets_may_name: see naming.h. The built-in tables define only PAPI_*
 * presets; a "pmu::" name can only come from an event file the environment
 * names, so without one a native lookup need not load the tables. */
int presets_may_name(const char *name)
{
	const char *p = name;	/* a "::" in name? (a loop: no libc page to fault in) */
	while (*p && !(p[0] == ':' && p[1] == ':'))
		p++;
	if (atomic_load_explicit(&pr_loaded, memory_order_acquire) || !*p)
		return 1;
	return atomic_load_explicit(&pr_env_files, memory_order_relaxed);
}

/* presets_name_to_code: see internal.h. Every catalogue name has a code,
 * defined here or not, so naming one loads nothing (loading asks libpfm4
 * about the CPU: ~3 ms on a VM where each CPUID traps); other names only
 * when an event file defined them. */
int presets_name_to_code(const char *name, int *code)
{
	int i = preset_catalog_find(name);
	if (i >= 0) {
		*code = PAPI_PRESET_MASK | i;
		return PAPI_OK;
	}
	pr_load();
	int c = name_code(name);
	if (!c)
		return PAPI_ENOEVNT;
	*code = c;
	return PAPI_OK;
}

/* presets_code_to_name: see internal.h (PAPI_ENOTPRESET: preset code out of
 * range; PAPI_ENOEVNT: no such user event). */
int presets_code_to_name(int code, char *name)
{
	pr_load();
	const struct pev *e = code_entry(code);
	if (!e)
		return is_user(code) ? PAPI_ENOEVNT : PAPI_ENOTPRESET;
	snprintf(name, PAPI_MAX_STR_LEN, "%s", e->name);
	return PAPI_OK;
}

/* Fill info for entry e; the definition (count, terms, type, postfix) only
 * when def is set. */
static void pev_info(const struct pev *e, int code, PAPI_event_info_t *info, int def)
{
	memset(info, 0, sizeof *info);
	info->event_code = (unsigned)code;
	snprintf(info->symbol, sizeof info->symbol, "%s", e->name);
	snprintf(info->short_descr, sizeof info->short_descr, "%s", e->sdesc ? e->sdesc : "");
	snprintf(info->long_descr, sizeof info->long_descr, "%s", e->ldesc ? e->ldesc : "");
	snprintf(info->note, sizeof info->note, "%s%s%s", e->note ? e->note : "",
		 e->note && e->note[0] && e->cover ? " " : "", e->cover ? e->cover : "");
	info->event_type = e->cat;
	/* PAPI 7 names the type of an event it cannot count NOT_DERIVED */
	snprintf(info->derived, sizeof info->derived, "%s",
		 formula_type_name(def ? e->eff : NOT_DERIVED));
	if (!def)
		return;
	info->count = (unsigned)e->nterms;
	snprintf(info->postfix, sizeof info->postfix, "%s", e->postfix ? e->postfix : "");
	for (int t = 0; t < e->nterms; t++) {
		const struct native *n = native_get(e->ntv[t]);
		info->code[t] = (unsigned)(PAPI_NATIVE_MASK | e->ntv[t]);
		snprintf(info->name[t], sizeof info->name[t], "%s", n ? native_api_name(n) : "");
	}
}

/* presets_info: see internal.h. As PAPI 7, count > 0 means available: count,
 * code[] and name[] list the natives of the definition, derived the
 * effective type, postfix the formula over them when the type is a postfix;
 * all of them stay empty (count 0, derived NOT_DERIVED) when the event
 * cannot be counted here,
 * a forced PMU the kernel lacks included (PAPI_query_event says so too). */
int presets_info(int code, PAPI_event_info_t *info)
{
	pr_load();
	const struct pev *e = code_entry(code);
	if (!e)
		return is_user(code) ? PAPI_ENOEVNT : PAPI_ENOTPRESET;
	pev_info(e, code, info, countable(e));
	return PAPI_OK;
}

/* presets_info_full: see internal.h. */
int presets_info_full(int code, PAPI_event_info_t *info)
{
	pr_load();
	const struct pev *e = code_entry(code);
	if (!e)
		return is_user(code) ? PAPI_ENOEVNT : PAPI_ENOTPRESET;
	pev_info(e, code, info, e->defined);
	return PAPI_OK;
}

/* presets_enum: see internal.h. Presets: PAPI_ENUM_FIRST, PAPI_ENUM_EVENTS
 * (every entry), PAPI_PRESET_ENUM_AVAIL (available ones), the category
 * modifiers PAPI_PRESET_ENUM_MSC..FP, and 7.2's PAPI_PRESET_ENUM_CPU and
 * _CPU_AVAIL (the same walks: every preset is the CPU's) and
 * PAPI_PRESET_ENUM_FIRST_COMP (PAPI_ENOEVNT: no component has presets);
 * user events: FIRST and EVENTS. */
int presets_enum(int *code, int modifier)
{
	pr_load();
	int user = is_user(*code), n = user ? nue : npre;
	int base = user ? PAPI_UE_MASK : PAPI_PRESET_MASK;
	if (modifier == PAPI_ENUM_FIRST) {
		if (!n)
			return PAPI_ENOEVNT;
		*code = base;
		return PAPI_OK;
	}
	/* PAPI 7.2: every preset here is the CPU's (no component has presets of
	 * its own), so the first component preset is none */
	if (modifier == PAPI_PRESET_ENUM_FIRST_COMP)
		return PAPI_ENOEVNT;
	if (!code_entry(*code))
		return PAPI_EINVAL;
	if (modifier == PAPI_PRESET_ENUM_CPU)
		modifier = PAPI_ENUM_EVENTS;
	else if (modifier == PAPI_PRESET_ENUM_CPU_AVAIL)
		modifier = PAPI_PRESET_ENUM_AVAIL;
	int cat = modifier >= PAPI_PRESET_ENUM_MSC && modifier <= PAPI_PRESET_ENUM_FP;
	if (modifier != PAPI_ENUM_EVENTS && modifier != PAPI_PRESET_ENUM_AVAIL && !cat)
		return PAPI_EINVAL;
	for (int i = (*code & ~PAPI_UE_MASK) + 1; i < n; i++) {
		const struct pev *e = code_entry(base | i);
		if (modifier == PAPI_PRESET_ENUM_AVAIL && !countable(e))
			continue;
		if (cat && !(e->cat & (1u << modifier)))
			continue;
		*code = base | i;
		return PAPI_OK;
	}
	return PAPI_ENOEVNT;
}

/* presets_query: see internal.h. */
int presets_query(int code)
{
	pr_load();
	const struct pev *e = code_entry(code);
	if (!e)
		return is_user(code) ? PAPI_ENOEVNT : PAPI_ENOTPRESET;
	return countable(e) ? PAPI_OK : PAPI_ENOEVNT;
}

/* presets_resolves: see naming.h. */
int presets_resolves(int code)
{
	pr_load();
	const struct pev *e = code_entry(code);
	if (!e)
		return is_user(code) ? PAPI_ENOEVNT : PAPI_ENOTPRESET;
	return e->defined && e->avail ? PAPI_OK : PAPI_ENOEVNT;
}

/* presets_resolve: see internal.h. */
int presets_resolve(int code, struct derived_def *out)
{
	int r = presets_query(code);
	if (r != PAPI_OK)
		return r;
	const struct pev *e = code_entry(code);
	memset(out, 0, sizeof *out);
	out->nterms = e->nterms;
	memcpy(out->ntv, e->ntv, sizeof out->ntv);
	out->derived = e->eff;
	out->f = e->f;
	return PAPI_OK;
}

/* presets_generic: see naming.h. */
int presets_generic(void)
{
	pr_load();
	return generic_on;
}

/* presets_why_undefined: see naming.h. */
const char *presets_why_undefined(int code)
{
	pr_load();
	pthread_mutex_lock(&pr_lock);
	const struct pev *e = code_entry(code);
	const char *why = e && !e->defined ? e->failed : NULL;
	pthread_mutex_unlock(&pr_lock);
	return why;
}

/* presets_why: see naming.h. */
const char *presets_why(int code)
{
	pr_load();
	const struct pev *e = code_entry(code);
	return e && e->defined && !countable(e) ? e->why : NULL;
}

/* presets_errors: see internal.h. */
const char *const *presets_errors(int *n)
{
	pr_load();
	*n = pr_errs.n;
	return (const char *const *)pr_errs.v;
}

/* ------------------------------------------------------------------ definitions at run time */

/* presets_define_file: see naming.h. */
int presets_define_file(const char *what, const char *path, int replace)
{
	pr_load();
	pthread_mutex_lock(&pr_lock);
	struct load_ctx l = { replace, PAPI_OK };
	int r = load_file(what, path, &l);
	pthread_mutex_unlock(&pr_lock);
	if (l.first_err != PAPI_OK)
		return l.first_err;
	return r == PAPI_OK ? PAPI_OK : PAPI_EINVAL;
}

/* presets_define: see naming.h. */
int presets_define(const struct def_event *ev, int replace, int *code)
{
	pr_load();
	char msg[256];
	pthread_mutex_lock(&pr_lock);
	int r = define(ev, replace, code, msg, sizeof msg);
	pthread_mutex_unlock(&pr_lock);
	if (r != PAPI_OK)
		papi_set_reason("%s", msg);
	return r;
}

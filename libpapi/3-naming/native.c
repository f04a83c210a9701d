/* native.c: the per-process native event table: names resolved through libpfm4, the software-event fast path and sysfs, encoded into perf_event_attr (native_enum.c lists them). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "3-naming/naming.h"

/* internal.h brought the kernel's <linux/perf_event.h>; libpfm4's copy of the
 * same definitions would clash, so only its encoding interface is taken. */
#define __PERFMON_PERF_EVENT_H__
#include <perfmon/pfmlib_perf_event.h>

/* Entries live in fixed chunks that never move, so native_get() needs no lock.
 * A chunk is malloc'ed, not calloc'ed: each entry is cleared when it is made,
 * and untouched pages cost a first lookup nothing. */
#define CHUNK_BITS 8
#define CHUNK_LEN (1 << CHUNK_BITS)
#define MAX_CHUNKS 4096

PAPI_FIRST_DATA static pthread_mutex_t nt_lock = PTHREAD_MUTEX_INITIALIZER;
/* Not pthread_once: native_shutdown() must be able to start everything afresh. */
PAPI_FIRST_DATA static atomic_int nt_ready;
PAPI_FIRST_DATA static int nt_init_err;

static struct native *chunks[MAX_CHUNKS];
PAPI_FIRST_DATA static atomic_int nnative;

/* Open-addressing hash: name (as given or canonical) -> entry index. */
struct slot {
	char *key;
	unsigned hash;
	int idx;
};
PAPI_FIRST_DATA static struct slot *ht;
PAPI_FIRST_DATA static unsigned ht_cap, ht_used;

static unsigned str_hash(const char *s)
{
	unsigned h = 2166136261u;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int ht_find(const char *key, unsigned h)
{
	if (!ht_cap)
		return -1;
	for (unsigned i = h & (ht_cap - 1);; i = (i + 1) & (ht_cap - 1)) {
		if (!ht[i].key)
			return -1;
		if (ht[i].hash == h && strcmp(ht[i].key, key) == 0)
			return ht[i].idx;
	}
}

static void ht_place(struct slot *tab, unsigned cap, struct slot s)
{
	unsigned i = s.hash & (cap - 1);
	while (tab[i].key)
		i = (i + 1) & (cap - 1);
	tab[i] = s;
}

static int ht_insert(const char *key, unsigned h, int idx)
{
	if (2 * (ht_used + 1) > ht_cap) {
		unsigned cap = ht_cap ? 2 * ht_cap : 64;	/* small: a first lookup touches few pages */
		struct slot *tab = calloc(cap, sizeof *tab);
		if (!tab)
			return PAPI_ENOMEM;
		for (unsigned i = 0; i < ht_cap; i++)
			if (ht[i].key)
				ht_place(tab, cap, ht[i]);
		free(ht);
		ht = tab;
		ht_cap = cap;
	}
	struct slot s = { strdup(key), h, idx };
	if (!s.key)
		return PAPI_ENOMEM;
	ht_place(ht, ht_cap, s);
	ht_used++;
	return PAPI_OK;
}

static struct native *nt_slot(int idx);
PAPI_FIRST_DATA static atomic_int sw_kernel_type = -2;	/* sysfs "software" type, -2 not asked yet */

/* Entries the fast path made before libpfm4 was initialized learn their
 * libpfm4 event (the spelling's own index, as enumeration has it) and PMU. */
static void sw_fixup(void)
{
	int n = atomic_load_explicit(&nnative, memory_order_relaxed);
	int perf = pmu_of_pfm(PFM_PMU_PERF_EVENT);
	pfm_pmu_info_t pi;
	memset(&pi, 0, sizeof pi);
	pi.size = sizeof pi;
	if (perf < 0 || pfm_get_pmu_info(PFM_PMU_PERF_EVENT, &pi) != PFM_SUCCESS)
		return;
	for (int i = 0; i < n; i++) {
		struct native *e = nt_slot(i);
		if (e->pmu >= 0 || e->cidx != 0)
			continue;
		const char *ev = e->name + 6;	/* past "perf::" */
		size_t len = strcspn(ev, ":");
		for (int x = pi.first_event; x >= 0; x = pfm_get_event_next(x)) {
			pfm_event_info_t ei;
			memset(&ei, 0, sizeof ei);
			ei.size = sizeof ei;
			if (pfm_get_event_info(x, PFM_OS_PERF_EVENT_EXT, &ei) == PFM_SUCCESS &&
			    strlen(ei.name) == len && strncmp(ei.name, ev, len) == 0) {
				e->pfm_idx = x;
				e->pmu = perf;
				break;
			}
		}
	}
}

static void nt_do_init(void)
{
	nt_init_err = pmus_init();
	if (nt_init_err == PAPI_OK)
		sw_fixup();
}

/* native_init: see naming.h. pfm_initialize costs ~1.5 ms in a VM, where
 * each PMU's cpuid probe traps, so it waits for the first event call. */
int native_init(void)
{
	if (atomic_load_explicit(&nt_ready, memory_order_acquire))
		return nt_init_err;
	pthread_mutex_lock(&nt_lock);
	if (!atomic_load_explicit(&nt_ready, memory_order_relaxed)) {
		nt_init_err = PAPI_OK;
		nt_do_init();
		atomic_store_explicit(&nt_ready, 1, memory_order_release);
	}
	pthread_mutex_unlock(&nt_lock);
	return nt_init_err;
}

/* ------------------------------------------------------------------ the table */

/* For a name that libpfm4 did not find: when its "pmu::" is a PMU libpfm4
 * knows but did not detect here, say so (the usual case: a table or a
 * command line written on another machine) and how to name its events
 * anyway. 1 when the reason was set. */
static int reason_pmu_elsewhere(const char *name)
{
	const char *sep = strstr(name, "::");
	struct pfm_pmu_brief pi;
	if (!sep || !pmu_pfm_named(name, (size_t)(sep - name), &pi) || pi.present)
		return 0;
	const char *here = NULL;
	for (int i = 0; !here && i < pmu_count(); i++)
		if (pmu_get(i)->pfm_type == PFM_PMU_TYPE_CORE && !pmu_get(i)->sysfs)
			here = pmu_get(i)->name;
	papi_set_reason("%.200s: PMU %s (%s) is not this machine's%s%s%s; LIBPFM_FORCE_PMU=%s names "
			"and encodes its events (counting them needs such a CPU)", name, pi.name,
			pi.desc, here ? " (libpfm4 detected " : "", here ? here : "",
			here ? ")" : "", pi.name);
	return 1;
}

/* A name libpfm4 cannot encode names no event, whatever the cause (an
 * unknown event, unit mask or qualifier, a bad value, a combination): PAPI
 * 7 answers PAPI_ENOEVNT for each, and the reason says which. */
static int pfm_to_papi(int r)
{
	return r == PFM_ERR_NOMEM ? PAPI_ENOMEM : PAPI_ENOEVNT;
}

/* The qualifiers of name: what follows the event name ("" or ":u=1:c=2"). */
static const char *name_quals(const char *name)
{
	const char *p = strstr(name, "::");
	p = p ? p + 2 : name;
	const char *q = strchr(p, ':');
	return q ? q : p + strlen(p);
}

/* Does the name set its own domain (:u, :k, :h, as libpfm4 reads them:
 * in either case)? Then the EventSet's domain does not override it. */
static int quals_have_domain(const char *q)
{
	while (*q == ':') {
		q++;
		int c = tolower((unsigned char)*q);
		if ((c == 'u' || c == 'k' || c == 'h') && (q[1] == ':' || q[1] == '=' || !q[1]))
			return 1;
		q += strcspn(q, ":");
	}
	return 0;
}

/* Which attribute of event ev the single qualifier q (":NAME" or ":MOD=0") is,
 * or -1. Sets *desc to its description. */
static int quals_attr(int ev, int nattrs, const char *q, const char **desc)
{
	if (*q != ':' || strchr(q + 1, ':'))
		return -1;
	q++;
	size_t n = strcspn(q, "=");
	for (int k = 0; k < nattrs; k++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(ev, k, PFM_OS_PERF_EVENT_EXT, &ai) != PFM_SUCCESS)
			continue;
		if (strlen(ai.name) != n || strncasecmp(ai.name, q, n) != 0)
			continue;
		*desc = ai.desc;
		if (ai.type == PFM_ATTR_UMASK ? q[n] == '\0' : strcmp(q + n, "=0") == 0)
			return k;
		return -1;
	}
	return -1;
}

static struct native *nt_slot(int idx)
{
	return &chunks[idx >> CHUNK_BITS][idx & (CHUNK_LEN - 1)];
}

/* A new entry (lock held): a cleared slot at index nnative, not yet
 * published; NULL when the table is full or out of memory. */
static struct native *nt_new(void)
{
	int n = atomic_load_explicit(&nnative, memory_order_relaxed);
	if (n >= MAX_CHUNKS * CHUNK_LEN)
		return NULL;
	if (!chunks[n >> CHUNK_BITS]) {
		chunks[n >> CHUNK_BITS] = malloc(CHUNK_LEN * sizeof(struct native));
		if (!chunks[n >> CHUNK_BITS])
			return NULL;
	}
	struct native *e = nt_slot(n);
	memset(e, 0, sizeof *e);
	return e;
}

/* Create the entry for canonical name canon (lock held). */
static int nt_create(const char *canon, int pidx, int pmu, const pfm_event_info_t *ei,
		     const struct perf_event_attr *attr, int cpu, int enc_err, int enc_pfm, int hint,
		     int *idx)
{
	int n = atomic_load_explicit(&nnative, memory_order_relaxed);
	struct native *e = nt_new();
	if (!e)
		return PAPI_ENOMEM;
	const char *q = name_quals(canon), *qdesc = NULL;
	if (hint == -2) {
		e->attr_idx = quals_attr(pidx, ei->nattrs, q, &qdesc);
	} else {		/* enumeration knows which attribute it named */
		e->attr_idx = hint;
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (hint >= 0 && pfm_get_event_attr_info(pidx, hint, PFM_OS_PERF_EVENT_EXT, &ai) == PFM_SUCCESS)
			qdesc = ai.desc;
	}
	e->umask_only = e->attr_idx >= 0;
	e->name = strdup(canon);
	/* a software event in plain words, as the fast path names it */
	const char *plain = attr->type == PERF_TYPE_SOFTWARE ? native_sw_plain(attr->config) : NULL;
	const char *d = plain ? plain : ei->desc ? ei->desc : "";
	size_t dl = strlen(d) + (qdesc ? strlen(qdesc) + 16 : 1);
	e->desc = malloc(dl);
	if (!e->name || !e->desc) {
		free(e->name);
		free(e->desc);
		return PAPI_ENOMEM;
	}
	snprintf(e->desc, dl, "%s%s%s", d, qdesc ? ", masks:" : "", qdesc ? qdesc : "");
	e->pfm_idx = pidx;
	e->pmu = pmu;
	e->encode_err = enc_err;
	e->encode_pfm = enc_pfm;
	e->attr = *attr;
	e->has_domain_mod = quals_have_domain(q);
	e->on_cpu = cpu + 1;
	int r = ht_insert(canon, str_hash(canon), n);
	if (r != PAPI_OK) {
		free(e->name);
		free(e->desc);
		return r;
	}
	atomic_store_explicit(&nnative, n + 1, memory_order_release);
	*idx = n;
	return PAPI_OK;
}

/* The event of pmu whose name is the event part of name, when libpfm4
 * resolved an alias to its primary event ev ("TASK-CLOCK" is an alias of
 * PERF_COUNT_SW_TASK_CLOCK): each spelling libpfm4 lists keeps its own entry,
 * as enumeration lists both. */
static int alias_event(const char *name, int ev, const pfm_event_info_t *ei)
{
	const char *p = strstr(name, "::");
	p = p ? p + 2 : name;
	size_t n = strcspn(p, ":");
	if (strlen(ei->name) == n && strncasecmp(ei->name, p, n) == 0)
		return ev;
	pfm_pmu_info_t pi;
	memset(&pi, 0, sizeof pi);
	pi.size = sizeof pi;
	if (pfm_get_pmu_info(ei->pmu, &pi) != PFM_SUCCESS)
		return ev;
	for (int e = pi.first_event; e >= 0; e = pfm_get_event_next(e)) {
		pfm_event_info_t x;
		memset(&x, 0, sizeof x);
		x.size = sizeof x;
		if (pfm_get_event_info(e, PFM_OS_PERF_EVENT_EXT, &x) == PFM_SUCCESS &&
		    strlen(x.name) == n && strncasecmp(x.name, p, n) == 0)
			return e;
	}
	return ev;
}

/* libpfm4's refusal of a name in the words every command uses: an unknown
 * event, a bad qualifier (a unit mask or modifier it lacks, a bad value). */
static const char *pfm_words(int r)
{
	switch (r) {
	case PFM_ERR_NOTFOUND:
		return "unknown event";
	case PFM_ERR_ATTR:
		return "bad qualifier: the event has no unit mask or modifier of that name";
	case PFM_ERR_ATTR_VAL:
		return "bad qualifier: a value the modifier does not take";
	case PFM_ERR_ATTR_SET:
		return "bad qualifier: given twice, or with one it excludes";
	default:
		return pfm_strerror(r);
	}
}

/* The value of qualifier key ("period") as name writes it, for a message. */
static void qual_value(const char *name, const char *key, char *out, size_t size)
{
	size_t kl = strlen(key);
	snprintf(out, size, "?");
	for (const char *p = strchr(name, ':'); p; p = strchr(p + 1, ':'))
		if (!strncasecmp(p + 1, key, kl) && p[1 + kl] == '=') {
			snprintf(out, size, "%.*s", (int)strcspn(p + 2 + kl, ":"), p + 2 + kl);
			return;
		}
}

/* A sampling period or frequency the kernel refuses, caught while naming
 * rather than when the event opens: libpfm4 takes any number for period=
 * (a negative or overflowing one becomes 2^64-1), the kernel no period with
 * bit 63 set and no frequency above perf_event_max_sample_rate.
 * PAPI_OK, or PAPI_EINVAL with the reason. */
static int sample_range(const char *name, const struct perf_event_attr *a)
{
	char v[64];
	if (!a->freq && (a->sample_period >> 63)) {
		qual_value(name, "period", v, sizeof v);
		papi_set_reason("%.200s: bad qualifier period=%s: a period is 1 to %llu (2^63 - 1)", name,
				v, (1ULL << 63) - 1);
		return PAPI_EINVAL;
	}
	unsigned long long max = a->freq ? pe_max_sample_rate() : 0;
	if (max && a->sample_freq > max) {
		qual_value(name, "freq", v, sizeof v);
		papi_set_reason("%.200s: bad qualifier freq=%s: this kernel samples at most %llu times a "
				"second (perf_event_max_sample_rate)", name, v, max);
		return PAPI_EINVAL;
	}
	return PAPI_OK;
}

/* The libpfm4 event of name "pmu::EVENT:Q" when Q is one unit mask or one
 * modifier spelled "=0" of that event, as the unit-mask walk spells them
 * (q points at ":Q"); else -1. */
static int listed_qual(const char *name, const char *q)
{
	char base[NATIVE_NAME_MAX + 1];
	if (!*q || (size_t)(q - name) >= sizeof base)
		return -1;
	snprintf(base, sizeof base, "%.*s", (int)(q - name), name);
	int ev = pfm_find_event(base);
	pfm_event_info_t ei;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	const char *d;
	if (ev < 0 || pfm_get_event_info(ev, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return -1;
	return quals_attr(ev, ei.nattrs, q, &d) >= 0 ? ev : -1;
}

/* Look name up, encoding it the first time (lock held). hint: the attribute
 * index enumeration named (-1 none), or -2 to find it from the name. */
static int nt_resolve(const char *name, int hint, int *idx)
{
	unsigned h = str_hash(name);
	int i = ht_find(name, h);
	if (i >= 0 && hint < 0 && nt_slot(i)->encode_pfm != PFM_SUCCESS) {
		/* listed by a walk, refused by name as before the walk */
		papi_set_reason("%.200s: %s", name, pfm_words(nt_slot(i)->encode_pfm));
		return pfm_to_papi(nt_slot(i)->encode_pfm);
	}
	if (i >= 0) {
		*idx = i;
		return PAPI_OK;
	}

	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	memset(&attr, 0, sizeof attr);
	memset(&arg, 0, sizeof arg);
	arg.attr = &attr;
	arg.size = sizeof arg;
	arg.cpu = -1;
	/* Default domain: user only, as PAPI_DOM_USER; :u/:k/:h in the name win. */
	int r = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	int pidx = arg.idx, enc_err = PAPI_OK, enc_pfm = PFM_SUCCESS;
	const char *q = name_quals(name);
	if (r == PFM_ERR_UMASK && !*q) {
		/* An event that needs a unit mask: it exists (and is listed), but is
		 * not countable without one. */
		pidx = pfm_find_event(name);
		if (pidx < 0)
			return pfm_to_papi(pidx);
		memset(&attr, 0, sizeof attr);
		enc_err = PAPI_EINVAL;
	} else if (r != PFM_SUCCESS && hint >= 0 && (pidx = listed_qual(name, q)) >= 0) {
		/* One qualifier the event lists that libpfm4 will not encode
		 * alone (":period=0", a modifier of an event that needs a unit
		 * mask): PAPI 7's unit-mask walk lists it, so the walk gives it
		 * a code and a description; adding that code fails, and the
		 * name is refused as it always was (libpfm4's reason). */
		memset(&attr, 0, sizeof attr);
		enc_err = r == PFM_ERR_UMASK ? PAPI_EINVAL : pfm_to_papi(r);
		enc_pfm = r;
	} else if (r != PFM_SUCCESS) {
		const char *forced = getenv("LIBPFM_FORCE_PMU");
		if (r == PFM_ERR_NOTFOUND && forced && *forced && !strncasecmp(name, "perf::", 6))
			papi_set_reason("%.200s: LIBPFM_FORCE_PMU=%.40s makes libpfm4 name only that PMU's "
					"events, not the kernel's software events (perf::); unset it to "
					"count them", name, forced);
		else if (r != PFM_ERR_NOTFOUND || !reason_pmu_elsewhere(name))
			papi_set_reason("%.200s: %s", name, pfm_words(r));
		return pfm_to_papi(r);
	}
	/* :cpu=N: libpfm4 takes any N; the kernel would refuse a CPU that
	 * does not exist only when the event is opened. */
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (arg.cpu >= (ncpu > 0 ? ncpu : 1)) {
		papi_set_reason("%.200s: cpu=%d: there is no CPU %d here (CPUs 0 to %ld)", name, arg.cpu,
				arg.cpu, (ncpu > 0 ? ncpu : 1) - 1);
		return PAPI_EINVAL;
	}

	if ((r = sample_range(name, &attr)) != PAPI_OK)
		return r;

	pfm_event_info_t ei;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	if (pfm_get_event_info(pidx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return PAPI_ENOEVNT;
	int alias = alias_event(name, pidx, &ei);
	if (alias != pidx) {
		pidx = alias;
		memset(&ei, 0, sizeof ei);
		ei.size = sizeof ei;
		if (pfm_get_event_info(pidx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
			return PAPI_ENOEVNT;
	}
	int pmu = pmu_of_pfm(ei.pmu);
	if (pmu < 0)
		return PAPI_ENOEVNT;
	if (pmu_get(pmu)->pfm_type == PFM_PMU_TYPE_UNCORE) {
		/* As PAPI 7: counted CPU-wide by perf_event_uncore, not here. */
		papi_set_reason("%.200s: an uncore event (PMU %s): component perf_event_uncore "
				"counts it", name, pmu_get(pmu)->name);
		return PAPI_ENOEVNT;
	}

	/* Canonical: "pmu::EVENT" as libpfm4 spells it, then the qualifiers as given. */
	const char *pname = pmu_get(pmu)->name;
	size_t cl = strlen(pname) + strlen(ei.name) + strlen(q) + 3;
	char *canon = malloc(cl);
	if (!canon)
		return PAPI_ENOMEM;
	snprintf(canon, cl, "%s::%s%s", pname, ei.name, q);
	int ret = PAPI_OK;
	if (strcmp(canon, name) == 0) {
		ret = nt_create(canon, pidx, pmu, &ei, &attr, arg.cpu, enc_err, enc_pfm, hint, idx);
	} else {
		i = ht_find(canon, str_hash(canon));
		if (i < 0)
			ret = nt_create(canon, pidx, pmu, &ei, &attr, arg.cpu, enc_err, enc_pfm, hint, &i);
		if (ret == PAPI_OK)
			ret = ht_insert(name, h, i);	/* the spelling given, as an alias */
		if (ret == PAPI_OK)
			*idx = i;
	}
	free(canon);
	return ret;
}

/* A new entry that libpfm4 did not make (lock held): pfm_idx and attr_idx
 * -1, the rest as given. */
static int nt_add(const char *canon, const char *desc, const struct perf_event_attr *attr, int pmu,
		  int has_domain_mod, int *idx)
{
	int n = atomic_load_explicit(&nnative, memory_order_relaxed);
	struct native *e = nt_new();
	if (!e)
		return PAPI_ENOMEM;
	e->name = strdup(canon);
	e->desc = strdup(desc);
	int r = e->name && e->desc ? ht_insert(canon, str_hash(canon), n) : PAPI_ENOMEM;
	if (r != PAPI_OK) {
		free(e->name);
		free(e->desc);
		return r;
	}
	e->pfm_idx = -1;
	e->pmu = pmu;
	e->attr_idx = -1;
	e->attr = *attr;
	e->has_domain_mod = (unsigned char)has_domain_mod;
	atomic_store_explicit(&nnative, n + 1, memory_order_release);
	*idx = n;
	return PAPI_OK;
}

/* The entry of canon, made by nt_add when new; name (hash h) becomes an
 * alias of it when it is another spelling (lock held). */
static int nt_add_alias(const char *name, unsigned h, const char *canon, const char *desc,
			const struct perf_event_attr *attr, int pmu, int has_domain_mod, int *idx)
{
	int i = ht_find(canon, str_hash(canon));
	if (i < 0) {
		int r = nt_add(canon, desc, attr, pmu, has_domain_mod, &i);
		if (r != PAPI_OK)
			return r;
	}
	if (strcmp(canon, name) != 0) {
		int r = ht_insert(name, h, i);
		if (r != PAPI_OK)
			return r;
	}
	*idx = i;
	return PAPI_OK;
}

/* The fast path before libpfm4 is initialized (lock held): a software event
 * from native_sw's table gets the entry libpfm4 would make, except pfm_idx
 * and pmu, which sw_fixup fills when libpfm4 starts. *done says whether name
 * was answered here. */
static int sw_resolve(const char *name, int *idx, int *done)
{
	unsigned h = str_hash(name);
	int i = ht_find(name, h);
	if (i >= 0) {
		*done = 1;
		*idx = i;
		return PAPI_OK;
	}
	struct native_sw sw;
	if (!native_sw_match(name, &sw))
		return PAPI_OK;
	*done = 1;
	return nt_add_alias(name, h, sw.canon, sw.desc, &sw.attr, -1, sw.has_domain_mod, idx);
}

/* A name spelled PMU/TERMS/MODS, named from sysfs (lock held); spelled is
 * that spelling of name when name is written otherwise, else NULL. */
static int sysfs_resolve(const char *name, const char *spelled, int *idx)
{
	unsigned h = str_hash(name);
	int i = ht_find(name, h);
	if (i >= 0) {
		*idx = i;
		return PAPI_OK;
	}
	struct native_sysfs ns;
	int r = native_sysfs_match(spelled ? spelled : name, &ns);
	if (r <= 0)
		return r < 0 ? r : PAPI_ENOEVNT;
	r = nt_add_alias(name, h, ns.canon, ns.desc, &ns.attr, ns.pmu, ns.has_domain_mod, idx);
	if (r == PAPI_OK)
		nt_slot(*idx)->sysfs = 1;
	return r;
}

/* "PMU::EVENT[:MODS]" of a PMU that counts per task and is no core's
 * (msr::tsc, as perf_event_uncore named them before): 1 and its spelling
 * "PMU/EVENT/MODS" in buf, else 0. */
static int task_spelling(const char *name, char *buf, size_t len)
{
	const char *sep = strstr(name, "::");
	char pmu[64];
	if (!sep || sep == name || (size_t)(sep - name) >= sizeof pmu || strchr(name, '/'))
		return 0;
	snprintf(pmu, sizeof pmu, "%.*s", (int)(sep - name), name);
	int p = pmu_of_kernel(pmu);
	if (p < 0 || pmu_get(p)->pfm_type == PFM_PMU_TYPE_CORE)
		return 0;
	const char *ev = sep + 2, *q = strchr(ev, ':');
	size_t n = q ? (size_t)(q - ev) : strlen(ev);
	return (size_t)snprintf(buf, len, "%s/%.*s/%s", pmu, (int)n, ev, q ? q + 1 : "") < len;
}

/* native_resolve: see naming.h. */
int native_resolve(const char *name, int hint, int *idx)
{
	if (!name || !idx)
		return PAPI_EINVAL;
	if (strnlen(name, NATIVE_NAME_MAX + 1) > NATIVE_NAME_MAX) {
		papi_set_reason("%.40s...: longer than any event name (%d characters)", name,
				NATIVE_NAME_MAX);
		return PAPI_ENOEVNT;
	}
	if (!*name)
		return PAPI_ENOEVNT;
	if (!atomic_load_explicit(&nt_ready, memory_order_acquire)) {
		int done = 0, r = PAPI_OK;
		pthread_mutex_lock(&nt_lock);
		if (!atomic_load_explicit(&nt_ready, memory_order_relaxed))
			r = sw_resolve(name, idx, &done);
		pthread_mutex_unlock(&nt_lock);
		if (done)
			return r;
	}
	int r = native_init();
	if (r != PAPI_OK)
		return r;
	char spelled[NATIVE_NAME_MAX + 1];
	pthread_mutex_lock(&nt_lock);
	if (strchr(name, '/'))
		r = sysfs_resolve(name, NULL, idx);
	else if (task_spelling(name, spelled, sizeof spelled))
		r = sysfs_resolve(name, spelled, idx);
	else
		r = nt_resolve(name, hint, idx);
	pthread_mutex_unlock(&nt_lock);
	return r;
}

/* native_lookup: see internal.h. A component's name ("io:::rchar") is no
 * libpfm4 name: its entry is native_intern's. */
int native_lookup(const char *name, int *idx)
{
	if (name && strstr(name, ":::"))
		return PAPI_ENOEVNT;
	return native_resolve(name, -2, idx);
}

/* native_find: see naming.h. */
int native_find(const char *name, int *idx)
{
	if (!name || !idx)
		return PAPI_ENOEVNT;
	pthread_mutex_lock(&nt_lock);
	int i = ht_find(name, str_hash(name));
	pthread_mutex_unlock(&nt_lock);
	if (i < 0)
		return PAPI_ENOEVNT;
	*idx = i;
	return PAPI_OK;
}

/* native_intern: see naming.h. */
int native_intern(int cidx, int cev, const char *name, int *idx)
{
	if (cidx <= 0 || cev < 0 || !name || !idx || (!strstr(name, "::") && !strchr(name, '/')) ||
	    strnlen(name, NATIVE_NAME_MAX + 1) > NATIVE_NAME_MAX)
		return PAPI_EINVAL;
	unsigned h = str_hash(name);
	int ret = PAPI_OK;
	pthread_mutex_lock(&nt_lock);
	int i = ht_find(name, h);
	if (i >= 0) {
		const struct native *e = nt_slot(i);
		if (e->cidx == cidx && e->cev == cev)
			*idx = i;
		else
			ret = PAPI_EINVAL;
		goto out;
	}
	struct native *e = nt_new();
	if (!e) {
		ret = PAPI_ENOMEM;
		goto out;
	}
	int n = atomic_load_explicit(&nnative, memory_order_relaxed);
	e->name = strdup(name);
	e->pfm_idx = e->pmu = e->attr_idx = -1;
	e->cidx = cidx;
	e->cev = cev;
	ret = e->name ? ht_insert(name, h, n) : PAPI_ENOMEM;
	if (ret != PAPI_OK) {
		free(e->name);
		goto out;
	}
	atomic_store_explicit(&nnative, n + 1, memory_order_release);
	*idx = n;
out:
	pthread_mutex_unlock(&nt_lock);
	return ret;
}

/* native_get: see internal.h (lock-free: entries never move). */
const struct native *native_get(int idx)
{
	if (idx < 0 || idx >= atomic_load_explicit(&nnative, memory_order_acquire))
		return NULL;
	return nt_slot(idx);
}

/* native_get_full: see naming.h. */
const struct native *native_get_full(int idx)
{
	native_init();
	return native_get(idx);
}

/* native_usable: see internal.h. */
int native_usable(int idx)
{
	const struct native *e = native_get(idx);
	if (!e || e->cidx != 0)
		return PAPI_ENOEVNT;
	if (e->encode_err != PAPI_OK) {
		if (e->encode_pfm != PFM_SUCCESS && e->encode_pfm != PFM_ERR_UMASK)
			papi_set_reason("%s: %s", e->name, pfm_words(e->encode_pfm));
		else
			papi_set_reason("%s: needs a unit mask", e->name);
		return e->encode_err;
	}
	if (e->pmu < 0) {	/* a fast-path software event, libpfm4 not started */
		int t = atomic_load(&sw_kernel_type);
		if (t == -2) {
			t = sys->pmu_type("software");
			atomic_store(&sw_kernel_type, t);
		}
		if (t < 0) {
			papi_set_reason("%s: the kernel has no PMU \"software\"", e->name);
			return PAPI_ECMP;
		}
		return PAPI_OK;
	}
	const struct pmu *p = pmu_get(e->pmu);
	int generic = e->attr.type == PERF_TYPE_HARDWARE || e->attr.type == PERF_TYPE_HW_CACHE;
	const char *core_why = generic ? pmu_generic_unavailable_reason()
			       : e->attr.type == PERF_TYPE_RAW ? pmu_core_unavailable_reason() : NULL;
	if (core_why) {
		papi_set_reason("%s: %s", e->name, core_why);
		return PAPI_ECMP;
	}
	if (!p || p->kernel_type < 0) {
		papi_set_reason("%s: the kernel has no PMU \"%s\"", e->name, p ? p->kernel_name : "?");
		return PAPI_ECMP;
	}
	return PAPI_OK;
}

/* native_shutdown: see internal.h. Not safe against concurrent native_get(). */
void native_shutdown(void)
{
	pthread_mutex_lock(&nt_lock);
	int n = atomic_load(&nnative);
	for (int i = 0; i < n; i++) {
		free(nt_slot(i)->name);
		free(nt_slot(i)->desc);
	}
	for (int c = 0; c < MAX_CHUNKS && chunks[c]; c++) {
		free(chunks[c]);
		chunks[c] = NULL;
	}
	atomic_store(&nnative, 0);
	for (unsigned i = 0; i < ht_cap; i++)
		free(ht[i].key);
	free(ht);
	ht = NULL;
	ht_cap = ht_used = 0;
	atomic_store(&sw_kernel_type, -2);
	pmus_shutdown();
	atomic_store(&nt_ready, 0);
	pthread_mutex_unlock(&nt_lock);
}

/* kpmu.c: the kernel's PMUs as sysfs lists them (type, CPUs, format fields, named events), and event terms encoded through a PMU's format. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "2-kernel/kernel.h"

/*
 * The list is read once per PAPI_shutdown cycle and per directory: every
 * PMU's name and type, whether it is a core PMU, and a core PMU's CPUs (one
 * small read or two each). A PMU's format fields and named events are read
 * the first time someone asks for them (kpmu_load): a server lists a hundred
 * uncore PMUs with dozens of event files each, which a `papi stat` of the
 * core events never needs. Entries never move once the list is made, so the
 * pointers handed out stay valid until PAPI_shutdown.
 */

static pthread_mutex_t kp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kpmu *kp;
static int nkp;
static int kp_ready;
static char kp_dir[PATH_MAX];	/* the directory kp was read from */

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct kpmu *)a)->name, ((const struct kpmu *)b)->name);
}

static void kp_free_pmu(struct kpmu *p)
{
	for (int i = 0; i < p->nevents; i++) {
		free(p->events[i].name);
		free(p->events[i].terms);
		free(p->events[i].unit);
	}
	free(p->events);
	free(p->fields);
	p->events = NULL;
	p->fields = NULL;
	p->nevents = p->nfields = 0;
}

static void kp_forget(void)
{
	pthread_mutex_lock(&kp_lock);
	for (int i = 0; i < nkp; i++)
		kp_free_pmu(&kp[i]);
	free(kp);
	kp = NULL;
	nkp = 0;
	kp_dir[0] = '\0';
	__atomic_store_n(&kp_ready, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&kp_lock);
}

/* Read the list of dir (lock held). A missing directory is an empty list:
 * a kernel without perf_event, or without sysfs mounted (one that is there
 * but cannot be read is noted by osfile.c, as is any file below it). */
static void kp_scan(const char *dir)
{
	int cap = 0;
	DIR *d = os_dir_at(AT_FDCWD, dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof kp->name)
			continue;
		/* The entries are links to the devices: follow them. */
		int fd = os_open_at(dirfd(d), de->d_name, O_DIRECTORY);
		if (fd < 0)
			continue;
		char buf[sizeof kp->cpus];
		char *end;
		long type = -1;
		if (os_read_at(fd, "type", buf, sizeof buf) > 0) {
			type = strtol(buf, &end, 10);
			if (*end || type < 0 || type > INT_MAX)
				type = -1;
		}
		if (type < 0) {
			close(fd);
			continue;
		}
		if (nkp == cap) {
			int ncap = cap ? 2 * cap : 16;
			struct kpmu *n = realloc(kp, (size_t)ncap * sizeof *kp);
			if (!n) {
				close(fd);
				break;
			}
			kp = n;
			cap = ncap;
		}
		struct kpmu *p = &kp[nkp];
		memset(p, 0, sizeof *p);
		memcpy(p->name, de->d_name, strlen(de->d_name) + 1);	/* length checked above */
		p->type = (int)type;
		/* The kernel's marks of a CPU's own PMU, as its perf tool reads
		 * them: the x86 and POWER "cpu" PMU (type PERF_TYPE_RAW, as is
		 * cpu_core on a hybrid), s390's cpum_cf, and a "cpus" file, which
		 * the core PMUs of hybrid x86 and of ARM have and uncore PMUs
		 * (which have "cpumask") do not. */
		int has_cpus = faccessat(fd, "cpus", F_OK, 0) == 0;
		p->core = has_cpus || type == PERF_TYPE_RAW || !strcmp(p->name, "cpu") ||
			  !strcmp(p->name, "cpum_cf");
		if (p->core && os_read_at(fd, has_cpus ? "cpus" : "cpumask", buf, sizeof buf) > 0)
			snprintf(p->cpus, sizeof p->cpus, "%s", buf);
		p->mask_read = p->core;	/* an uncore PMU's waits for kp_cpumask */
		close(fd);
		nkp++;
	}
	closedir(d);
	if (nkp > 1)
		qsort(kp, (size_t)nkp, sizeof *kp, by_name);
}

/* The list for the directory the sys seam names now (a test may point it
 * elsewhere between two shutdowns: the list follows it). */
static void kp_init(void)
{
	const char *dir = sys->pmu_dir ? sys->pmu_dir : "";
	if (__atomic_load_n(&kp_ready, __ATOMIC_ACQUIRE) && !strcmp(dir, kp_dir))
		return;
	if (__atomic_load_n(&kp_ready, __ATOMIC_ACQUIRE))
		kp_forget();
	pthread_mutex_lock(&kp_lock);
	if (!kp_ready) {
		snprintf(kp_dir, sizeof kp_dir, "%s", dir);
		if (*dir)
			kp_scan(dir);
		papi_on_shutdown(kp_forget);
		__atomic_store_n(&kp_ready, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&kp_lock);
}

/* kpmu_count: see kernel.h. */
int kpmu_count(void)
{
	kp_init();
	return nkp;
}

/* kpmu_get: see kernel.h. */
const struct kpmu *kpmu_get(int i)
{
	kp_init();
	return i >= 0 && i < nkp ? &kp[i] : NULL;
}

/* kpmu_find: see kernel.h (binary search: the list is sorted by name). */
const struct kpmu *kpmu_find(const char *name)
{
	if (!name)
		return NULL;
	kp_init();
	int lo = 0, hi = nkp - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(name, kp[mid].name);
		if (!c)
			return &kp[mid];
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* kpmu_core_count: see kernel.h. */
int kpmu_core_count(void)
{
	int n = 0;
	for (int i = 0; i < kpmu_count(); i++)
		n += kp[i].core;
	return n;
}

/* The kernel's PMUs of its own software kinds, which libpfm4's perf::
 * names or which are no counters (probes, breakpoints). */
static const char *const sw_kinds[] = { "software", "tracepoint", "breakpoint", "kprobe",
					"uprobe", NULL };

/* kpmu_software: see kernel.h. */
int kpmu_software(const struct kpmu *p)
{
	for (int i = 0; p && sw_kinds[i]; i++)
		if (!strcmp(p->name, sw_kinds[i]))
			return 1;
	return 0;
}

/* Read p's cpumask from its directory fd once (kp_lock held): an uncore
 * PMU's, which the scan leaves for later (a core PMU's came with the
 * scan). */
static void kp_cpumask(struct kpmu *p, int fd)
{
	if (p->mask_read)
		return;
	char buf[sizeof p->cpus];
	if (os_read_at(fd, "cpumask", buf, sizeof buf) > 0)
		snprintf(p->cpus, sizeof p->cpus, "%s", buf);
	__atomic_store_n(&p->mask_read, 1, __ATOMIC_RELEASE);
}

/* p's entry in the list, writable; NULL when p is not from it. */
static struct kpmu *kp_own(const struct kpmu *cp)
{
	kp_init();
	return cp >= kp && cp < kp + nkp ? &kp[cp - kp] : NULL;
}

/* The directory of p, opened; -1 when it cannot be. */
static int kp_open_dir(const struct kpmu *p)
{
	char path[PATH_MAX + 80];
	snprintf(path, sizeof path, "%s/%s", kp_dir, p->name);
	return os_open_at(AT_FDCWD, path, O_DIRECTORY);
}

/* kpmu_per_task: see kernel.h. perf's rule: a PMU with a cpumask is opened
 * CPU-wide on the CPUs it names, any other per task. Only the cpumask is
 * read: the naming layer asks this of every PMU at its start, and a
 * server's hundred uncore PMUs have dozens of format and event files each. */
int kpmu_per_task(const struct kpmu *cp)
{
	if (!cp || cp->core || kpmu_software(cp))
		return 0;
	struct kpmu *p = kp_own(cp);
	if (!p)
		return 0;
	if (!__atomic_load_n(&p->mask_read, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&kp_lock);
		if (!p->mask_read) {
			int fd = kp_open_dir(p);
			if (fd >= 0) {
				kp_cpumask(p, fd);
				close(fd);
			}
		}
		pthread_mutex_unlock(&kp_lock);
	}
	return p->cpus[0] == '\0';
}

/* ------------------------------------------------------------------ format and events */

/* Parse a format file ("config:0-7,21", "config1:0-63") into *f. */
static int parse_field(const char *name, const char *text, struct kpmu_field *f)
{
	memset(f, 0, sizeof *f);
	size_t nl = strlen(name);
	if (nl >= sizeof f->name)
		return -1;
	memcpy(f->name, name, nl + 1);
	size_t w = strcspn(text, ":");
	if (!text[w])
		return -1;
	if (w == 6 && !strncmp(text, "config", 6))
		f->word = KPMU_CONFIG;
	else if (w == 7 && !strncmp(text, "config", 6) && text[6] >= '1' && text[6] <= '3')
		f->word = text[6] - '0';
	else
		return -1;
	const char *p = text + w + 1;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p || lo > 63)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			if (end == p + 1 || hi > 63 || hi < lo)
				return -1;
			p = end;
		}
		for (unsigned long b = lo; b <= hi; b++)
			f->mask |= 1ull << b;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return f->mask ? 0 : -1;
}

static int by_event_name(const void *a, const void *b)
{
	return strcmp(((const struct kpmu_event *)a)->name, ((const struct kpmu_event *)b)->name);
}

/* The suffixes of an event's companion files, which are no events. */
static const char *const companions[] = { ".scale", ".unit", ".per-pkg", ".snapshot", NULL };

static int is_companion(const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; companions[i]; i++) {
		size_t s = strlen(companions[i]);
		if (n > s && !strcmp(name + n - s, companions[i]))
			return 1;
	}
	return 0;
}

/* The subdirectory name of the PMU directory pfd, NULL when it has none. */
static DIR *open_subdir(int pfd, const char *name)
{
	return os_dir_at(pfd, name);
}

/* Read p's format/ directory (lock held). */
static int load_fields(int pfd, struct kpmu *p)
{
	DIR *d = open_subdir(pfd, "format");
	if (!d)
		return PAPI_OK;
	int cap = 0, ret = PAPI_OK;
	struct dirent *de;
	while ((de = readdir(d))) {
		char text[256];
		struct kpmu_field f;
		if (de->d_name[0] == '.' || os_read_at(dirfd(d), de->d_name, text, sizeof text) <= 0 ||
		    parse_field(de->d_name, text, &f) < 0)
			continue;
		if (p->nfields == cap) {
			cap = cap ? 2 * cap : 16;
			struct kpmu_field *n = realloc(p->fields, (size_t)cap * sizeof *n);
			if (!n) {
				ret = PAPI_ENOMEM;
				break;
			}
			p->fields = n;
		}
		p->fields[p->nfields++] = f;
	}
	closedir(d);
	return ret;
}

/* Read p's events/ directory (lock held). */
static int load_events(int pfd, struct kpmu *p)
{
	DIR *d = open_subdir(pfd, "events");
	if (!d)
		return PAPI_OK;
	int cap = 0, ret = PAPI_OK;
	struct dirent *de;
	while ((de = readdir(d)) && ret == PAPI_OK) {
		char text[512], extra[PATH_MAX];
		if (de->d_name[0] == '.' || is_companion(de->d_name) ||
		    os_read_at(dirfd(d), de->d_name, text, sizeof text) <= 0)
			continue;
		if (p->nevents == cap) {
			cap = cap ? 2 * cap : 32;
			struct kpmu_event *n = realloc(p->events, (size_t)cap * sizeof *n);
			if (!n) {
				ret = PAPI_ENOMEM;
				break;
			}
			p->events = n;
		}
		struct kpmu_event *e = &p->events[p->nevents];
		memset(e, 0, sizeof *e);
		e->scale = 1.0;
		char val[64];
		snprintf(extra, sizeof extra, "%s.scale", de->d_name);
		if (os_read_at(dirfd(d), extra, val, sizeof val) > 0) {
			char *end;
			double s = strtod(val, &end);
			if (!*end && s > 0)
				e->scale = s;
		}
		snprintf(extra, sizeof extra, "%s.unit", de->d_name);
		if (os_read_at(dirfd(d), extra, val, sizeof val) < 0)
			val[0] = '\0';
		e->name = strdup(de->d_name);
		e->terms = strdup(text);
		e->unit = strdup(val);
		if (!e->name || !e->terms || !e->unit) {
			free(e->name);
			free(e->terms);
			free(e->unit);
			ret = PAPI_ENOMEM;
			break;
		}
		p->nevents++;
	}
	closedir(d);
	if (p->nevents > 1)
		qsort(p->events, (size_t)p->nevents, sizeof *p->events, by_event_name);
	return ret;
}

/* kpmu_load: see kernel.h. */
int kpmu_load(const struct kpmu *cp)
{
	struct kpmu *p = cp ? kp_own(cp) : NULL;
	if (!p)
		return PAPI_EINVAL;
	if (__atomic_load_n(&p->loaded, __ATOMIC_ACQUIRE))
		return PAPI_OK;
	int ret = PAPI_OK;
	pthread_mutex_lock(&kp_lock);
	if (!p->loaded) {
		int fd = kp_open_dir(p);
		if (fd >= 0) {
			kp_cpumask(p, fd);
			ret = load_fields(fd, p);
			if (ret == PAPI_OK)
				ret = load_events(fd, p);
			close(fd);
		}
		if (ret == PAPI_OK)
			__atomic_store_n(&p->loaded, 1, __ATOMIC_RELEASE);
		else
			kp_free_pmu(p);
	}
	pthread_mutex_unlock(&kp_lock);
	return ret;
}

/* kpmu_event: see kernel.h. */
const struct kpmu_event *kpmu_event(const struct kpmu *p, const char *name)
{
	if (!p || !name || kpmu_load(p) != PAPI_OK)
		return NULL;
	for (int i = 0; i < p->nevents; i++)
		if (!strcasecmp(p->events[i].name, name))
			return &p->events[i];
	return NULL;
}

/* kpmu_field: see kernel.h. */
const struct kpmu_field *kpmu_field(const struct kpmu *p, const char *name)
{
	if (!p || !name || kpmu_load(p) != PAPI_OK)
		return NULL;
	for (int i = 0; i < p->nfields; i++)
		if (!strcmp(p->fields[i].name, name))
			return &p->fields[i];
	return NULL;
}

/* ------------------------------------------------------------------ encoding */

static __u64 *word_of(struct perf_event_attr *a, int word)
{
	switch (word) {
	case KPMU_CONFIG:
		return &a->config;
	case KPMU_CONFIG1:
		return &a->config1;
	case KPMU_CONFIG2:
		return &a->config2;
	default:
		return NULL;	/* config3: newer than this build's kernel headers */
	}
}

/* Spread the low bits of v over the set bits of mask, lowest first (the
 * kernel's fields may be split, "config:0-7,32-35"). 0 when v does not fit. */
static int deposit(uint64_t v, uint64_t mask, uint64_t *out)
{
	uint64_t r = 0;
	for (int b = 0; b < 64; b++)
		if (mask & (1ull << b)) {
			if (v & 1)
				r |= 1ull << b;
			v >>= 1;
		}
	*out = r;
	return v == 0;
}

static int encode_terms(const struct kpmu *p, const char *terms, struct perf_event_attr *a,
			int depth, char *why, size_t len)
{
	char buf[512];
	if (strlen(terms) >= sizeof buf) {
		snprintf(why, len, "%s: the terms are too long", p->name);
		return PAPI_EINVAL;
	}
	snprintf(buf, sizeof buf, "%s", terms);
	char *save = NULL;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		while (*t == ' ' || *t == '\t' || *t == '\n')
			t++;
		size_t tl = strlen(t);
		while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\t' || t[tl - 1] == '\n'))
			t[--tl] = '\0';
		if (!*t)
			continue;
		char *eq = strchr(t, '=');
		if (eq)
			*eq = '\0';
		const struct kpmu_field *f = kpmu_field(p, t);
		const struct kpmu_event *ev = f || eq ? NULL : kpmu_event(p, t);
		if (ev) {
			if (depth > 0) {
				snprintf(why, len, "%s: event %s is defined by another event", p->name, t);
				return PAPI_EINVAL;
			}
			int r = encode_terms(p, ev->terms, a, depth + 1, why, len);
			if (r != PAPI_OK)
				return r;
			continue;
		}
		int word = -1;
		uint64_t mask = ~0ull;
		if (f) {
			word = f->word;
			mask = f->mask;
		} else if (!strcmp(t, "config")) {
			word = KPMU_CONFIG;
		} else if (!strcmp(t, "config1")) {
			word = KPMU_CONFIG1;
		} else if (!strcmp(t, "config2")) {
			word = KPMU_CONFIG2;
		} else {
			snprintf(why, len, "%s has no format field or event called '%s'", p->name, t);
			return PAPI_ENOEVNT;
		}
		uint64_t v = 1, bits;	/* a bare field is a flag: 1 */
		if (eq) {
			const char *s = eq + 1;
			char *end;
			if (!strcmp(s, "?")) {
				snprintf(why, len, "%s: term '%s' needs a value (%s=N)", p->name, t, t);
				return PAPI_EINVAL;
			}
			errno = 0;
			v = strtoull(s, &end, 0);
			if (!*s || *end || *s == '-' || errno) {
				snprintf(why, len, "%s: '%s' is no number for term '%s'", p->name, s, t);
				return PAPI_EINVAL;
			}
		}
		__u64 *w = word_of(a, word);
		if (!w) {
			snprintf(why, len, "%s: term '%s' fills config%d, which this build cannot set",
				 p->name, t, word);
			return PAPI_EINVAL;
		}
		if (!deposit(v, mask, &bits)) {
			snprintf(why, len, "%s: %s=0x%llx does not fit its %d bits", p->name, t,
				 (unsigned long long)v, __builtin_popcountll(mask));
			return PAPI_EINVAL;
		}
		*w = (*w & ~mask) | bits;
	}
	return PAPI_OK;
}

/* kpmu_encode: see kernel.h. */
int kpmu_encode(const struct kpmu *p, const char *terms, struct perf_event_attr *attr, char *why,
		size_t len)
{
	char dummy[8];
	if (!why || !len) {
		why = dummy;
		len = sizeof dummy;
	}
	why[0] = '\0';
	if (!p || !terms || !attr) {
		snprintf(why, len, "no PMU or no terms");
		return PAPI_EINVAL;
	}
	int r = kpmu_load(p);
	if (r != PAPI_OK) {
		snprintf(why, len, "%s: out of memory reading its events", p->name);
		return r;
	}
	struct perf_event_attr a = *attr;
	a.type = (uint32_t)p->type;
	a.config = a.config1 = a.config2 = 0;
	r = encode_terms(p, terms, &a, 0, why, len);
	if (r == PAPI_OK)
		*attr = a;
	return r;
}

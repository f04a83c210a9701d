/* groups_find.c: the metric groups of this machine: the group files of events/ (embedded) and PAPI_USER_GROUPS_FILE loaded, and a group looked up by name, reading only that group's lines until every group is asked for. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "3-naming/naming.h"
#include "3-naming/events_tbl.h"

/* A list of groups as they load; the user's flag is set on each it takes. */
struct glist {
	struct mgroup **v;
	int n, cap;
	int user;		/* the groups now loading come from PAPI_USER_GROUPS_FILE */
};

static int keep(void *ctx, struct mgroup *g, char *why, size_t len)
{
	struct glist *l = ctx;
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		struct mgroup **n = realloc(l->v, (size_t)cap * sizeof *n);
		if (!n) {
			snprintf(why, len, "out of memory");
			return PAPI_ENOMEM;
		}
		l->v = n;
		l->cap = cap;
	}
	g->user = l->user;
	l->v[l->n++] = g;
	return PAPI_OK;
}

static void glist_free(struct glist *l)
{
	for (int i = 0; i < l->n; i++)
		mgroup_free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Is line (of a group file) a GROUP line whose name is plainly another
 * than name? Unquoted, trimmed as CSV trims it. */
static int other_group(const char *line, size_t len, const char *name)
{
	if (len < 6 || strncmp(line, "GROUP,", 6))
		return 0;
	const char *b = line + 6, *end = line + len;
	const char *e = memchr(b, ',', (size_t)(end - b));
	if (!e)
		e = end;
	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	if (memchr(b, '"', (size_t)(e - b)))
		return 0;
	return (size_t)(e - b) != strlen(name) || strncasecmp(b, name, (size_t)(e - b)) != 0;
}

/* A copy of a built-in group file without the EVENT, METRIC and comment
 * lines of the groups not called name (each leaves its newline, so that
 * the lines keep their numbers): reading one group parses a third of the
 * file. *found: whether a GROUP line may name it. NULL when out of memory. */
static char *only_lines(const char *text, const char *name, int *found)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	if (!out)
		return NULL;
	int other = 0;
	*found = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int drop = 0;
		if (!strncmp(p, "GROUP,", 6) || !strncmp(p, "CPU", 3)) {
			other = other_group(p, len, name);
			*found |= !other && p[0] == 'G';
		} else {
			drop = other && (!strncmp(p, "EVENT,", 6) || !strncmp(p, "METRIC,", 7) || *p == '#');
		}
		if (!drop) {
			memcpy(o, p, len);
			o += len;
		}
		if (nl)
			*o++ = '\n';
		p += len + (nl != NULL);
	}
	*o = '\0';
	return out;
}

/* The built-in group files, then PAPI_USER_GROUPS_FILE, into l; with only,
 * just the groups of that name. Problems go to errs. */
static void load_into(struct glist *l, struct msgs *errs, const char *only)
{
	struct mgroup_sink s = { keep, l };
	for (int i = 0; i < groups_files_count; i++) {
		const struct events_file *f = &groups_files[i];
		if (!only) {
			mgroups_parse_named(f->path, f->text, strlen(f->text), &s, errs, NULL);
		} else {
			int found = 1;
			char *t = only_lines(f->text, only, &found);
			if (found)
				mgroups_parse_named(f->path, t ? t : f->text, strlen(t ? t : f->text), &s, errs, only);
			free(t);
		}
	}
	const char *user = getenv("PAPI_USER_GROUPS_FILE");
	if (!user || !*user)
		return;
	char *text;
	size_t len;
	int r = deffile_read(user, &text, &len);
	if (r != PAPI_OK) {
		msgs_add(errs, "PAPI_USER_GROUPS_FILE=%s: cannot read: %s", user,
			 r == PAPI_ESYS ? strerror(errno) : PAPI_strerror(r));
		return;
	}
	l->user = 1;
	mgroups_parse_named(user, text, len, &s, errs, only);
	l->user = 0;
	free(text);
}

PAPI_FIRST_DATA static pthread_mutex_t mg_lock = PTHREAD_MUTEX_INITIALIZER;
PAPI_FIRST_DATA static atomic_int mg_loaded;
static struct glist all;	/* every group, once mg_load has run */
static struct msgs mg_errs;
/* Before every group is loaded, mgroups_find reads only the groups of the
 * name asked for (papi stat looks up DEFAULT at every start; reading all
 * of them costs a few hundred allocations): the one it found for each name
 * asked, kept until shutdown. */
struct named {
	char *name;
	struct mgroup *g;	/* NULL when none applies */
};
PAPI_FIRST_DATA static struct named *named;
PAPI_FIRST_DATA static int nnamed;

static void mg_shutdown(void)
{
	pthread_mutex_lock(&mg_lock);
	glist_free(&all);
	msgs_free(&mg_errs);
	for (int i = 0; i < nnamed; i++) {
		free(named[i].name);
		mgroup_free(named[i].g);
	}
	free(named);
	named = NULL;
	nnamed = 0;
	atomic_store(&mg_loaded, 0);
	pthread_mutex_unlock(&mg_lock);
}

static void mg_load(void)
{
	if (atomic_load_explicit(&mg_loaded, memory_order_acquire))
		return;
	pthread_mutex_lock(&mg_lock);
	if (!atomic_load_explicit(&mg_loaded, memory_order_relaxed)) {
		load_into(&all, &mg_errs, NULL);
		for (int i = 0; i < mg_errs.n; i++)
			DBG("groups: %s", mg_errs.v[i]);
		papi_on_shutdown(mg_shutdown);
		atomic_store_explicit(&mg_loaded, 1, memory_order_release);
	}
	pthread_mutex_unlock(&mg_lock);
}

/* Does PMU name concern this machine? Its core PMU, or another PMU libpfm4
 * detected (as the preset tables' CPU lines). */
static int pmu_here(const char *name)
{
	for (int i = 0; i < pmu_count(); i++)
		if (!strcmp(pmu_get(i)->name, name))
			return 1;
	return 0;
}

/* mgroup_applies: see naming.h. */
int mgroup_applies(const struct mgroup *g)
{
	if (!g->cpus)
		return 1;
	for (int i = 0; g->cpus[i]; i++)
		if (pmu_here(g->cpus[i]))
			return 1;
	return 0;
}

/* The rank of a group among those of its name: the user's file first, then
 * groups for this machine's PMU, then generic ones; 0 when it does not apply. */
static int rank(const struct mgroup *g)
{
	if (!mgroup_applies(g))
		return 0;
	return g->user ? 3 : g->cpus ? 2 : 1;
}

/* The index in l of the group called name that applies here: the last of
 * the best rank; -1 when none. */
static int best_of(const struct glist *l, const char *name)
{
	int best = -1, br = 0;
	for (int i = 0; i < l->n; i++) {
		if (strcasecmp(l->v[i]->name, name))
			continue;
		int r = rank(l->v[i]);
		if (r && r >= br) {
			best = i;
			br = r;
		}
	}
	return best;
}

/* mgroups_find before every group is loaded: the groups of that name read
 * alone, the best kept (lock held). */
static const struct mgroup *find_alone(const char *name)
{
	for (int i = 0; i < nnamed; i++)
		if (!strcasecmp(named[i].name, name))
			return named[i].g;
	struct named *n = realloc(named, (size_t)(nnamed + 1) * sizeof *n);
	if (!n)
		return NULL;
	named = n;
	struct glist l = { 0 };
	struct msgs errs = { 0 };	/* told when every group loads */
	load_into(&l, &errs, name);
	msgs_free(&errs);
	int b = best_of(&l, name);
	struct mgroup *g = b >= 0 ? l.v[b] : NULL;
	if (b >= 0)
		l.v[b] = l.v[--l.n];
	glist_free(&l);
	if (!(named[nnamed].name = strdup(name))) {
		mgroup_free(g);
		return NULL;
	}
	named[nnamed++].g = g;
	papi_on_shutdown(mg_shutdown);
	return g;
}

/* mgroups_find: see naming.h. The last of the best rank wins. */
const struct mgroup *mgroups_find(const char *name)
{
	if (!atomic_load_explicit(&mg_loaded, memory_order_acquire)) {
		pthread_mutex_lock(&mg_lock);
		if (!atomic_load_explicit(&mg_loaded, memory_order_relaxed)) {
			const struct mgroup *g = find_alone(name);
			pthread_mutex_unlock(&mg_lock);
			return g;
		}
		pthread_mutex_unlock(&mg_lock);
	}
	int b = best_of(&all, name);
	return b >= 0 ? all.v[b] : NULL;
}

/* mgroups_all: see naming.h. */
const struct mgroup *const *mgroups_all(int *n)
{
	mg_load();
	*n = all.n;
	return (const struct mgroup *const *)all.v;
}

/* mgroup_is_user: see naming.h. */
int mgroup_is_user(const struct mgroup *g)
{
	return g->user;
}

/* mgroups_errors: see naming.h. */
const char *const *mgroups_errors(int *n)
{
	mg_load();
	*n = mg_errs.n;
	return (const char *const *)mg_errs.v;
}

/* cli_suggest.c: "did you mean" for a mistyped event name or qualifier: the nearest known names by edit distance, looked for only once a name has failed. */
#include "cli.h"
#include "tool.h"

#include <perfmon/pfmlib.h>

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define NBEST 3			/* suggestions offered at most */
#define MAXLEN 128		/* longer words are not compared */

/* The nearest candidates seen so far. */
struct best {
	const char *word;	/* what is compared (case-insensitively) */
	size_t wlen;
	int limit;		/* the largest distance still worth offering */
	int dist;		/* distance of the entries below */
	int n;
	char name[NBEST][PAPI_HUGE_STR_LEN];
};

/* Edit distance of a[0..n) and b[0..m) ignoring case, an adjacent swap
 * counting as one edit (the usual typo); above limit it stops early and
 * says limit + 1. */
static int distance(const char *a, size_t n, const char *b, size_t m, int limit)
{
	if (n > MAXLEN || m > MAXLEN || (size_t)abs((int)n - (int)m) > (size_t)limit)
		return limit + 1;
	int row[3][MAXLEN + 1];	/* i-2, i-1, i */
	for (size_t j = 0; j <= m; j++)
		row[0][j] = (int)j;
	for (size_t i = 1; i <= n; i++) {
		int *cur = row[i % 3], *prev = row[(i + 2) % 3], *pp = row[(i + 1) % 3];
		int low = cur[0] = (int)i;
		for (size_t j = 1; j <= m; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			int d = prev[j - 1] + (ca != cb);
			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < d)
				d = pp[j - 2] + 1;
			cur[j] = d;
			if (d < low)
				low = d;
		}
		if (low > limit)
			return limit + 1;
	}
	return row[n % 3][m];
}

/* Offer name, whose part cmp[0..len) is compared with the word. */
static void consider(struct best *b, const char *name, const char *cmp, size_t len)
{
	int d = distance(b->word, b->wlen, cmp, len, b->limit);
	if (d > b->limit || d == 0 || d > b->dist)
		return;
	if (d < b->dist) {
		b->dist = d;
		b->n = 0;
	}
	for (int i = 0; i < b->n; i++)
		if (!strcasecmp(b->name[i], name))
			return;
	if (b->n < NBEST)
		snprintf(b->name[b->n++], sizeof b->name[0], "%s", name);
}

static void best_init(struct best *b, const char *word, size_t len)
{
	memset(b, 0, sizeof *b);
	b->word = word;
	b->wlen = len;
	/* One typo in a short word, more in a long one; never so many that
	 * any name of the same length would do. */
	b->limit = len < 8 ? 1 : len < 16 ? 2 : 3;
	b->dist = b->limit + 1;
}

/* "did you mean A, B or C?" (each name prefixed with pre) into buf. */
static const char *best_say(const struct best *b, const char *pre, char *buf, size_t size)
{
	if (!b->n)
		return NULL;
	size_t len = (size_t)snprintf(buf, size, "did you mean ");
	for (int i = 0; i < b->n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s%s",
					i == 0 ? "" : i == b->n - 1 ? " or " : ", ", pre, b->name[i]);
	if (len < size)
		snprintf(buf + len, size - len, "?");
	return buf;
}

/* Where the event part of name starts: after "pmu::" or "cmp:::". */
static const char *after_prefix(const char *name)
{
	const char *p = strstr(name, ":::");
	if (p)
		return p + 3;
	p = strstr(name, "::");
	return p ? p + 2 : name;
}

/* Every event name of every component, and the presets and user events,
 * compared whole with a word that names its PMU or component and by their
 * event part with one that does not. */
static void every_event(struct best *b, int bare)
{
	char name[PAPI_HUGE_STR_LEN];
	int firsts[] = { PAPI_PRESET_MASK, PAPI_UE_MASK };
	for (size_t k = 0; k < sizeof firsts / sizeof *firsts; k++) {
		int code = firsts[k];
		if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) != PAPI_OK)
			continue;
		do
			if (PAPI_event_code_to_name(code, name) == PAPI_OK)
				consider(b, name, name, strlen(name));
		while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
	}
	for (int c = 0; c < PAPI_num_components(); c++) {
		int code = PAPI_NATIVE_MASK;
		if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, c) != PAPI_OK)
			continue;
		do {
			if (PAPI_event_code_to_name(code, name) != PAPI_OK)
				continue;
			const char *part = bare ? after_prefix(name) : name;
			consider(b, name, part, strlen(part));
		} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, c) == PAPI_OK);
	}
}

/* The unit masks and modifiers of the event coded base, as libpfm4 lists
 * them ("ANY_P", "u", "period="), each compared with the word; 1 when the
 * word is one of them. */
static int every_qualifier(struct best *b, int base)
{
	const struct native *e = native_get_full(base & PAPI_NATIVE_AND_MASK);
	int known = 0;
	pfm_event_info_t ei;
	memset(&ei, 0, sizeof ei);
	ei.size = sizeof ei;
	if (!(base & PAPI_NATIVE_MASK) || !e || e->cidx != 0 || e->pfm_idx < 0 ||
	    pfm_get_event_info(e->pfm_idx, PFM_OS_PERF_EVENT_EXT, &ei) != PFM_SUCCESS)
		return 1;	/* no qualifiers known: nothing to say */
	for (int k = 0; k < ei.nattrs; k++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(e->pfm_idx, k, PFM_OS_PERF_EVENT_EXT, &ai) != PFM_SUCCESS ||
		    (ai.type != PFM_ATTR_UMASK && ai.type != PFM_ATTR_MOD_BOOL &&
		     ai.type != PFM_ATTR_MOD_INTEGER))
			continue;
		size_t len = strlen(ai.name);
		if (len == b->wlen && !strncasecmp(ai.name, b->word, len))
			known = 1;
		char q[PAPI_MIN_STR_LEN];
		snprintf(q, sizeof q, "%s%s", ai.name, ai.type == PFM_ATTR_MOD_INTEGER ? "=" : "");
		consider(b, q, ai.name, len);
	}
	return known;
}

const char *cli_suggest(const char *name, char *buf, size_t size)
{
	if (!name || !*name || size < 16)
		return NULL;
	struct best b;
	const char *ev = after_prefix(name);
	size_t evlen = strstr(name, ":::") ? strlen(ev) : strcspn(ev, ":");
	if (ev[evlen] == ':') {
		/* Qualifiers follow: when the event itself is known, a qualifier
		 * is what is wrong; the first unknown one is suggested for. */
		char base[PAPI_HUGE_STR_LEN];
		int code;
		snprintf(base, sizeof base, "%.*s", (int)(ev - name + (ptrdiff_t)evlen), name);
		if (PAPI_event_name_to_code(base, &code) == PAPI_OK) {
			for (const char *q = ev + evlen; *q == ':'; q += 1 + strcspn(q + 1, ":")) {
				size_t n = strcspn(q + 1, ":=");
				best_init(&b, q + 1, n);
				if (!every_qualifier(&b, code))
					return best_say(&b, ":", buf, size);
			}
			return NULL;
		}
	}
	/* The name without its qualifiers, against every event's name. */
	best_init(&b, name, (size_t)(ev - name) + evlen);
	every_event(&b, ev == name);
	return best_say(&b, "", buf, size);
}

const char *cli_name_why(const char *name, int err, char *buf, size_t size)
{
	const char *why = papi_last_reason();
	size_t nl = strlen(name);
	if (!why || !*why)
		why = PAPI_strerror(err);
	else if (!strncmp(why, name, nl) && !strncmp(why + nl, ": ", 2))
		why += nl + 2;	/* the reason starts with the name: say it once */
	size_t len = (size_t)snprintf(buf, size, "%s", why);
	int code;
	char dym[PAPI_HUGE_STR_LEN];
	/* Suggestions only for a name that does not resolve; the lookup and
	 * the walk may leave reasons of their own, which are not the caller's. */
	if (len + 3 < size && (err == PAPI_ENOEVNT || err == PAPI_EINVAL) &&
	    PAPI_event_name_to_code(name, &code) != PAPI_OK && cli_suggest(name, dym, sizeof dym))
		snprintf(buf + len, size - len, "; %s", dym);
	papi_clear_reason();
	return buf;
}

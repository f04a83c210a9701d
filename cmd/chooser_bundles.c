/* chooser_bundles.c: which events count together: EventSets built for real, events split first-fit into bundles, conflict reasons. */
#include "chooser.h"
#include "tool.h"
#include "papi.h"

#include <stdio.h>
#include <stdlib.h>

/* chooser_set: a new EventSet holding codes[0..n-1], or a PAPI error code
 * (negative) with *bad set to the index of the event that failed. */
int chooser_set(const int *codes, int n, int *bad)
{
	int es = PAPI_NULL, rv = PAPI_create_eventset(&es);
	if (rv != PAPI_OK)
		return rv;
	for (int i = 0; i < n; i++) {
		rv = PAPI_add_event(es, codes[i]);
		if (rv != PAPI_OK) {
			if (bad)
				*bad = i;
			PAPI_cleanup_eventset(es);
			PAPI_destroy_eventset(&es);
			return rv;
		}
	}
	return es;
}

void chooser_drop(int es)
{
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* One bundle: an EventSet for each component its events are of (an
 * EventSet holds one component's events; papi stat counts a group of
 * several components, each component's events together). */
#define CHOOSER_MAX_CMP 16	/* components in one bundle; more start a new one */
struct bundle {
	int n;
	int cidx[CHOOSER_MAX_CMP], es[CHOOSER_MAX_CMP];
};

/* Does bundle b take code (of component cidx)?  Into that component's
 * EventSet if b has one, else into a new EventSet of its own. */
static int bundle_take(struct bundle *b, int cidx, int code)
{
	for (int k = 0; k < b->n; k++)
		if (b->cidx[k] == cidx)
			return PAPI_add_event(b->es[k], code) == PAPI_OK;
	if (b->n == CHOOSER_MAX_CMP)
		return 0;
	int es = chooser_set(&code, 1, NULL);
	if (es < 0)
		return 0;
	b->cidx[b->n] = cidx;
	b->es[b->n++] = es;
	return 1;
}

/* chooser_bundles: greedy first-fit: each event goes into the first set that
 * accepts it (the kernel decides for its component's events), else opens a
 * new set.  bundle[i] receives the set of codes[i].  Returns the number of
 * sets, or a negative PAPI error with *bad the index of an event that no
 * set, not even an empty one, takes. */
int chooser_bundles(const int *codes, int n, int *bundle, int *bad)
{
	struct bundle *sets = calloc((size_t)n + 1, sizeof *sets);
	int ns = 0, ret = 0;
	if (!sets)
		return PAPI_ENOMEM;
	for (int i = 0; i < n; i++) {
		int g, cidx = PAPI_get_event_component(codes[i]);
		for (g = 0; g < ns; g++)
			if (cidx >= 0 && bundle_take(&sets[g], cidx, codes[i]))
				break;
		if (g == ns) {
			int es = chooser_set(&codes[i], 1, NULL);
			if (es < 0) {
				*bad = i;
				ret = es;
				goto out;
			}
			sets[ns].cidx[0] = cidx;
			sets[ns].es[0] = es;
			sets[ns++].n = 1;
		}
		bundle[i] = g;
	}
	ret = ns;
out:
	for (int g = 0; g < ns; g++)
		for (int k = 0; k < sets[g].n; k++)
			chooser_drop(sets[g].es[k]);
	free(sets);
	return ret;
}

/* chooser_why: words for a failure to add code to base: for a conflict,
 * which given event it conflicts with (the first one it cannot be paired
 * with alone). */
void chooser_why(int rv, int code, const int *given, int ng, char *buf, size_t len)
{
	const char *r = papi_last_reason();
	char nm[PAPI_MAX_STR_LEN];
	if (rv == PAPI_ECNFLCT) {
		for (int i = 0; i < ng; i++) {
			if (given[i] == code) {
				snprintf(buf, len, "already given");
				return;
			}
			int pair[2] = { given[i], code }, es = chooser_set(pair, 2, NULL);
			if (es >= 0) {
				chooser_drop(es);
				continue;
			}
			if (PAPI_event_code_to_name(given[i], nm) != PAPI_OK)
				snprintf(nm, sizeof nm, "%#x", given[i]);
			snprintf(buf, len, "counter conflict with %s", nm);
			return;
		}
		snprintf(buf, len, "counter conflict with the given events together");
		return;
	}
	if (r && *r)
		snprintf(buf, len, "%s", r);
	else
		snprintf(buf, len, "%s", PAPI_strerror(rv));
}

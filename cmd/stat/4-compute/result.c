/* result.c: papi stat's result: each event's count over the runs, the times, why an event has no count, how a {...} group was counted, the exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "papi.h"
#include "compute.h"

static int time_stats(const struct st *s, int which, struct st_stats *o)
{
	double v[s->nruns > 0 ? s->nruns : 1];
	for (int r = 0; r < s->nruns; r++)
		if ((v[r] = st_run_time(&s->runs[r], which)) < 0)
			return 0;
	st_stats(v, s->nruns, o);
	return s->nruns > 0;
}

static void event_stats(const struct st *s, const struct st_event *e, struct st_stats *o)
{
	double v[s->nruns > 0 ? s->nruns : 1];
	for (int r = 0; r < s->nruns; r++)
		v[r] = (double)e->val[r];
	st_stats(v, s->nruns, o);
}

static const char *not_counted(const struct st *s, const struct st_event *e)
{
	int r = 0;
	while (r < s->nruns && s->runs[r].uncounted)
		r++;
	if (s->nruns > 0 && r == s->nruns) {
		static char why[128];	/* one papi stat, one delay */
		snprintf(why, sizeof why, "%s before --delay's %ld ms: counting never started",
			 s->o.cmd ? "the command ended" : "counting was stopped", s->o.delay_ms);
		return why;
	}
	if (e->run == 0 && e->en > 0)
		return "it never got a counter";
	return NULL;
}

/* A {...} group may hold any component's events: perf_event's go into
 * the group's kernel group (its bundle), the others into their
 * component's set (csets_add), read together with one call of that
 * component; the report says so. */
static const char *brace_how(const struct st *s, int g)
{
	static char how[400];
	int kernel = 0, ncmp = 0, cmps[8];
	for (int i = 0; i < s->nev; i++) {
		const struct st_event *e = &s->ev[i];
		if (e->brace != g || !e->avail)
			continue;
		if (e->cidx <= 0) {
			kernel++;
			continue;
		}
		int seen = 0;
		for (int k = 0; k < ncmp; k++)
			seen |= cmps[k] == e->cidx;
		if (!seen && ncmp < 8)
			cmps[ncmp++] = e->cidx;
	}
	if (ncmp == 0)
		return NULL;	/* a kernel group, as the braces say */
	size_t k = (size_t)snprintf(how, sizeof how, "not a kernel group: ");
	if (kernel)
		k += (size_t)snprintf(how + k, sizeof how - k, "perf_event's events are one kernel group; ");
	for (int c = 0; c < ncmp && k < sizeof how; c++) {
		const PAPI_component_info_t *ci = PAPI_get_component_info(cmps[c]);
		k += (size_t)snprintf(how + k, sizeof how - k, "%s%s's are read together, in one call%s",
				      c ? "; " : "", ci ? ci->name : "?", kernel ? ", apart from them" : "");
	}
	return how;
}


int st_compute(struct st *s)
{
	for (int i = 0; i < s->nev; i++) {
		struct st_event *e = &s->ev[i];
		e->nc = e->avail ? not_counted(s, e) : NULL;
		if (e->avail)
			event_stats(s, e, &e->t);
		if (e->avail && e->is_time)
			st_stats_whole(&e->t);
	}
	for (int w = 0; w < T_COUNT; w++)
		s->has_time[w] = time_stats(s, w, &s->times[w]);
	if (!(s->brace_how = calloc((size_t)s->nbraces + 1, sizeof *s->brace_how)))
		return cli_error("stat", "out of memory"), -1;
	for (int g = 1; g <= s->nbraces; g++) {
		const char *how = brace_how(s, g);
		if (how && !(s->brace_how[g] = strdup(how)))
			return cli_error("stat", "out of memory"), -1;
	}
	s->status_run = st_status_run(s);
	s->exit_code = s->o.cmd && s->status_run >= 0 ? st_run_code(&s->runs[s->status_run]) : 0;
	if (st_metrics_compute(s) < 0 || st_rows_compute(s) < 0)
		return cli_error("stat", "out of memory"), -1;
	return 0;
}

void st_compute_free(struct st *s)
{
	for (int g = 0; s->brace_how && g <= s->nbraces; g++)
		free(s->brace_how[g]);
	free(s->brace_how);
	s->brace_how = NULL;
	for (int w = 0; w < s->nrows; w++) {
		free(s->rows[w].ivprev);
		free(s->rows[w].t);
		free(s->rows[w].mt);
		s->rows[w].ivprev = NULL;
		s->rows[w].t = s->rows[w].mt = NULL;
	}
	st_intervals_free(s);
	free(s->met);
	s->met = NULL;
	s->nmet = 0;
}

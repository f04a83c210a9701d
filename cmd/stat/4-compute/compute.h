/* compute.h: papi stat's arithmetic on what was counted: statistics over runs, metrics, interval deltas, the notes and the exit status. */
#ifndef PAPI_CMD_STAT_COMPUTE_H
#define PAPI_CMD_STAT_COMPUTE_H

#include "base.h"

/* ---- result.c: the doors of this stage */
/* After counting: each event's statistics and why it has no count
 * (ev[].t, ev[].nc), the times, the metrics (s->met), each row's
 * statistics, how each {...} group was counted, the run papi stat takes
 * its exit status from and that status. 0, or -1 after a message. */
int st_compute(struct st *s);
void st_compute_free(struct st *s);

/* ---- intervals.c */
/* The interval that ends t_ns after counting began, from the totals read
 * at_ns after counting began (and, with --per-*, s->rowcur): its deltas,
 * per row too, and its metrics (a rate takes the time between two reads).
 * Kept in s->iv for JSON and --plot, else valid until the next call.
 * NULL when out of memory. */
const struct st_interval *st_compute_interval(struct st *s, int64_t t_ns, int64_t at_ns,
					      const long long *total);
void st_intervals_free(struct st *s);

/* ---- metrics.c: what the modules of this stage share */
/* s->met and s->nmet from the runs' counts. 0, or -1 out of memory. */
int st_metrics_compute(struct st *s);
/* Each row's event and metric statistics. 0, or -1 out of memory. */
int st_rows_compute(struct st *s);
/* The metrics interval iv shows: each whose events were all counted (a
 * name once), from its deltas over secs seconds. 0, or -1 out of memory. */
int st_interval_metrics_compute(const struct st *s, struct st_interval *iv, double secs);

#endif

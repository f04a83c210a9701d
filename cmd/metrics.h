/* metrics.h: metric groups as the commands use them: which alternative of each event counts here, and metric values from counts. */
#ifndef PAPI_CMD_METRICS_H
#define PAPI_CMD_METRICS_H

#include "tool.h"

/* One event of a group as this machine resolves it. */
struct mg_pick {
	int alt;		/* the alternative chosen, -1 when none resolves */
	int code;		/* its PAPI code (valid when alt >= 0) */
	int ok;			/* it can be counted here */
	char *why;		/* why not (owned), NULL when ok */
};

/* Resolve the event names of g here: for each event, the first alternative
 * that can be counted (added to an EventSet of this process), else the
 * first that resolves, with the reason it cannot be counted, else none.
 * pick[g->nev]. 0, or -1 when out of memory. Free with mg_picks_free. */
int mg_pick_all(const struct mgroup *g, struct mg_pick *pick);
void mg_picks_free(const struct mgroup *g, struct mg_pick *pick);

/* Name to code the way papi stat takes names ("pmu::" names straight to the
 * native table). PAPI_OK or the error. */
int mg_resolve(const char *name, int *code);

/* A reason a person can act on for event name that failed with ret (just
 * after the failing call, whose reason the library keeps). Owned. */
char *mg_reason(const char *name, int ret);

/* Value of metric m of g given each event's value (NAN when not counted)
 * and the seconds measured: NAN when an input is missing or a division by
 * zero leaves it without a value. */
double mg_value(const struct mgroup *g, const struct mgroup_metric *m, const double *vals,
		double seconds);

/* The first event metric m needs that pick says cannot be counted, or -1
 * when it can be computed here. */
int mg_missing(const struct mgroup *g, const struct mgroup_metric *m, const struct mg_pick *pick);

/* After PAPI_library_init, in the commands that read metric groups: each
 * problem met reading the group files ("PAPI_USER_GROUPS_FILE=FILE:LINE:
 * what", the group skipped) as "papi cmd: ..." on stderr, the first ten.
 * Returns how many there were. */
int group_files_report(const char *cmd);

/* Value v with its unit the way a person reads it, into buf: "1.174 K/s"
 * for a rate (a unit "1/s": K, M, G prefixes), "3.210 %", "0.987 CPUs". */
void mg_format(char *buf, size_t len, double v, const char *unit);

#endif

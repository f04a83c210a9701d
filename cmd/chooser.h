/* chooser.h: how papi chooser splits events into bundles (cmd/chooser_bundles.c), apart so tests can drive it on a simulated PMU. */
#ifndef PAPI_CMD_CHOOSER_H
#define PAPI_CMD_CHOOSER_H

#include <stddef.h>

/* chooser_set: a new EventSet holding codes[0..n-1]; on failure a negative
 * PAPI error code, with *bad (if not NULL) the index of the event that
 * could not be added (papi_last_reason() says why). */
int chooser_set(const int *codes, int n, int *bad);

/* chooser_drop: clean up and destroy an EventSet from chooser_set. */
void chooser_drop(int es);

/* chooser_bundles: greedy first fit: each event joins the first set that
 * accepts it (the kernel decides; events of other components join the set
 * too, as papi stat counts such a group), else starts a new one; bundle[i]
 * receives the set of codes[i] (0-based).  Returns the number of sets, or a
 * negative PAPI error (PAPI_ENOMEM, or why codes[*bad] cannot be counted
 * even alone). */
int chooser_bundles(const int *codes, int n, int *bundle, int *bad);

/* chooser_why: words (into buf) for PAPI_add_event's failure rv on code:
 * for PAPI_ECNFLCT, the first given event that code cannot be paired with
 * alone ("counter conflict with X"); else papi_last_reason() or
 * PAPI_strerror. */
void chooser_why(int rv, int code, const int *given, int ng, char *buf, size_t len);

#endif

/* reasons.c: why an event cannot be counted, in words a person can act on, without its name said twice. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "metrics.h"
#include "tool.h"
#include "base.h"

/* A reason without the "NAME: " it may start with (the message names it);
 * the library may have cut a long name there. */
const char *st_skip_name(const char *why, const char *name)
{
	const char *colon = strstr(why, ": ");
	size_t n = colon ? (size_t)(colon - why) : 0;
	if (n && !strncmp(why, name, n))
		return colon + 2;
	/* or the event's own spelling of it (msr/tsc/ for msr::tsc): one
	 * word that names an event of a PMU */
	if (n && !memchr(why, ' ', n) && (memmem(why, n, "::", 2) || memchr(why, '/', n)))
		return colon + 2;
	return why;
}

/* The reason is kept without the event's name, which the report shows
 * beside it, so that events sharing a reason are listed under it once. */
void st_not_available(struct st_event *e, int ret)
{
	e->avail = 0;
	if (e->reason)
		return;
	char *why = mg_reason(e->name, ret);
	const char *bare = why ? st_skip_name(why, e->name) : NULL;
	e->reason = bare && bare != why ? strdup(bare) : why;
	if (bare != why)
		free(why);
}


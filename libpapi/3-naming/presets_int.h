/* presets_int.h: the preset and user-event tables' entry, shared by presets.c (the tables) and preset_define.c (definitions in and out); nothing else includes it. */
#ifndef PAPI_PRESETS_INT_H
#define PAPI_PRESETS_INT_H

#include "3-naming/naming.h"

struct pev {
	char *name, *sdesc, *ldesc, *note;
	unsigned cat;
	int defined;
	int declared;		/* DERIVED_* as written */
	char *formula;		/* as written */
	int nbase;
	char *base[PAPI_EVENTS_IN_DERIVED_EVENT];
	int nterms;
	int ntv[PAPI_EVENTS_IN_DERIVED_EVENT];
	struct formula *f;	/* NULL for a single native as is */
	int eff;		/* effective DERIVED_* */
	int avail;		/* each native resolves (a forced PMU counts as present) */
	int elsewhere;		/* ... but some only on a forced PMU the kernel lacks */
	char *why;		/* defined but not countable: why (the first term's reason) */
	char *postfix;		/* effective postfix text, NULL when none */
	char *failed;		/* why the last definition given for this CPU failed
				 * (its native events missing, ...), NULL when it did not */
	unsigned types;		/* hybrid: the passes (core types) it counts on, by bit, */
	char *cover;		/* and its note saying so (coretype_cover) */
};

/* presets_entry: the entry of a preset or user code, the tables loaded
 * first; NULL with *err PAPI_ENOEVNT (a user code) or PAPI_ENOTPRESET (a
 * preset code) when there is none. The entry is presets.c's: read it only. */
const struct pev *presets_entry(int code, int *err);

#endif

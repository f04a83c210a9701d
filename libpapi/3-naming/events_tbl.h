/* events_tbl.h: the built-in event definition and metric group files, embedded at build time. */
#ifndef PAPI_EVENTS_TBL_H
#define PAPI_EVENTS_TBL_H

/* One file of events/ as it was at build time. gen_events.sh writes the
 * table (build/gen/events_tbl.c); the definition-file parser reads it. The
 * CPU list lets the parser pick the files that concern the running PMU
 * without parsing the others; within a file it still has to select the
 * sections whose CPU lines name that PMU. */
struct events_file {
	const char *path;		/* "events/intel_skx.csv", for messages */
	const char *text;		/* the whole file, NUL-terminated */
	const char *const *cpus;	/* every name on a CPU line, NULL-terminated */
};

extern const struct events_file events_files[];
extern const int events_files_count;
/* The metric group files (events/NAME.groups), the same way (groups_tbl.c). */
extern const struct events_file groups_files[];
extern const int groups_files_count;

#endif

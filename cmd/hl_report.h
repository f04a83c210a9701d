/* hl_report.h: the model `papi hl-report` builds from the region API's rank files (hl_read.c fills it). */
#ifndef PAPI_CMD_HL_REPORT_H
#define PAPI_CMD_HL_REPORT_H

#include <stddef.h>

/* Metric 0 and 1 are the clocks every report has; events follow. */
#define HLR_CYCLES 0
#define HLR_REALNS 1

struct hlr_cell {		/* one region in one thread of one rank */
	int rank;		/* index into hlr.ranks */
	long long thread;	/* the thread's id in its file */
	long long count;
	double *v;		/* [hlr.nmetric] (NaN: not measured) */
	/* [hlr.nmetric] each event's time enabled and time running summed
	 * over the instances, ns, as the file's "event_times" gives them
	 * (NaN: not given, as in older files and PAPI 7.0's): they differ
	 * when the kernel multiplexed the event's counter */
	double *en, *run;
};

struct hlr_region {
	char *name;
	int ncell, cap;
	struct hlr_cell *cell;
};

struct hlr {
	int nmetric, cap_metric;
	char **metric;		/* names */
	unsigned char *instant;	/* per metric: 1 for instant events */
	int nregion, cap_region;
	struct hlr_region *region;
	int nrank, cap_rank;
	long long *ranks;	/* the rank number of each file read */
	long long nthreads;	/* thread entries read */
};

/* hlr_init / hlr_free: an empty model; everything it owns released. */
void hlr_init(struct hlr *r);
void hlr_free(struct hlr *r);

/* hlr_load_buffer: parse one rank file held in buf[len] (our format or
 * PAPI 7.0's) and merge it into r under the rank the document states, else
 * under rank (-1, or a number already read: the next free number).
 * Returns 0, or -1 with a reason in err (the model keeps what was merged
 * before). Any bytes are safe input: the fuzz target's entry point. */
int hlr_load_buffer(struct hlr *r, const char *buf, size_t len, long long rank, char *err, size_t errlen);

/* hlr_load_path: a rank file, or a directory of rank_*.json files (or one
 * holding papi_hl_output/). Returns the files read (>= 1), or -1 with err. */
int hlr_load_path(struct hlr *r, const char *path, char *err, size_t errlen);

/* Index of metric name, or -1. */
int hlr_metric(const struct hlr *r, const char *name);

#endif

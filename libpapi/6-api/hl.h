/* hl.h: the region API's private types and state (hl_state.c), shared by hl.c (recording), hl_parse.c (PAPI_EVENTS) and hl_output.c (the report). */
#ifndef PAPI_HL_H
#define PAPI_HL_H

#include <stdatomic.h>
#include <stdio.h>

#include "5-core/core.h"

/* hl_parse.c: one item of PAPI_EVENTS ("NAME" or "NAME=instant" / "NAME=delta").
 * hl_events_parse splits spec at commas into at most max items (spaces
 * around an item are ignored; a name listed twice is kept once). Items that
 * are empty, hold a space or control character, or are too long are left
 * out and described in err ("; "-separated, may be NULL). Returns the number
 * of items stored, or PAPI_EINVAL for a NULL spec/out or negative max.
 * Never reads past spec's terminating NUL (a fuzz target's entry point). */
#define HL_MAX_EVENTS 64
struct hl_spec {
	char name[PAPI_HUGE_STR_LEN];
	int instant;
};
int hl_events_parse(const char *spec, struct hl_spec *out, int max, char *err, size_t errlen);
/* hl_is_space: 1 for the white space PAPI_EVENTS may hold around an item
 * (space, tab, newline, carriage return), else 0. */
int hl_is_space(char c);
/* hl_add_problem: append a problem, printf's fmt, to err ("; "-separated),
 * keeping it NUL-terminated within errlen bytes (what does not fit is cut);
 * nothing when err is NULL or errlen 0. */
void hl_add_problem(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A region's values: the two clocks first, then one per measured event,
 * then per event the kernel's time enabled (hl_en) and time running
 * (hl_run) in ns: equal unless the kernel multiplexed the event's counter,
 * 0 for a component without such times. Summed like counts (an instant
 * event's times too: they say how its counter was scheduled). */
#define HL_CYCLES 0		/* PAPI_get_real_cyc() */
#define HL_REALNS 1		/* PAPI_get_real_nsec(); 0 when hl_tsc_time */
#define HL_FIRST_EVENT 2
#define hl_en(e) (HL_FIRST_EVENT + hl_nev + (e))
#define hl_run(e) (HL_FIRST_EVENT + 2 * hl_nev + (e))

/* Regions of one thread live in chunks that never move, so the report can
 * walk them while their thread keeps recording. */
#define HL_CHUNK_BITS 6
#define HL_CHUNK (1 << HL_CHUNK_BITS)
#define HL_MAX_CHUNKS 1024	/* 65536 distinct region names per thread */

/* Components the region API measures at once (one EventSet each). */
#define HL_MAX_SETS 8

struct hl_event {		/* one event the region API measures */
	char *name;		/* as the user spelled it */
	int code;
	int instant;		/* 1: store the value, not the difference */
	char cmp[PAPI_MAX_STR_LEN];	/* its component's name, for the report */
};

/* The report's layout, from PAPI_HL_LAYOUT at setup. PAPI 7.0's, the
 * default: every region instance (each begin/end pair) on its own, with its
 * reads, as papi_hl_output_writer and PAPI 7.0's other readers expect, so
 * each thread keeps a log of its instances. "aggregated": a region's totals
 * per thread, with its own version: constant memory, and no allocation
 * once a region name is known. */
enum { HL_LAYOUT_PAPI7, HL_LAYOUT_AGGREGATED };
extern int hl_layout;

/* The instance log: words in chunks of HL_LOG_CHUNK that never move (the
 * report may walk them while the thread records), reached through blocks
 * of HL_LOG_BLOCK chunk pointers, made as needed. A record:
 *   instance  HL_REC_INST, region index, parent instance number (-1 at top),
 *             state (HL_OPEN until its end, then HL_ENDED), position of its
 *             first read (-1: none), then the hl_nval values at its end
 *   read      HL_REC_READ, position of the next read of the same instance
 *             (-1: none), then the hl_nval values since the begin
 *   pad       HL_REC_PAD: the rest of the chunk is empty
 * Instances are numbered in the order they began, per thread, as PAPI 7.0
 * numbers its regions. A full log (HL_LOG_BLOCKS blocks: 8 GiB) stops
 * logging; the totals go on. */
#define HL_LOG_CHUNK 8192
#define HL_LOG_BLOCK 512
#define HL_LOG_BLOCKS 256
enum { HL_REC_PAD, HL_REC_INST, HL_REC_READ };
enum { HL_OPEN, HL_ENDED };
#define HL_INST_HEAD 5
#define HL_READ_HEAD 2

static inline long long *hl_log_at(long long ***log, long long pos)
{
	long long c = pos / HL_LOG_CHUNK;
	return &log[c / HL_LOG_BLOCK][c % HL_LOG_BLOCK][pos % HL_LOG_CHUNK];
}

struct hl_region {
	char *name;
	uint64_t hash;
	int parent;		/* region index enclosing the first begin, -1 at top */
	long long count;	/* completed begin/end pairs */
	long long reads;	/* PAPI_hl_read calls */
	long long *val;		/* [hl_nval] summed differences (instant: last value) */
	long long *rd;		/* [hl_nval] the latest read */
};

struct hl_thread {
	struct hl_thread *next;	/* the global list, newest first */
	int id;			/* 0, 1, ... in order of the first begin */
	pid_t tid;
	unsigned gen;		/* hl_gen when this thread's counters were made */
	/* One EventSet per component measured (an EventSet counts one
	 * component), in hl_set_cidx's order; PAPI_NULL when none. */
	int nsets;
	int es[HL_MAX_SETS];
	int nes[HL_MAX_SETS];	/* events in each */
	int *pos;		/* [hl_nev]: index into esv, -1 if missing */
	long long *esv;		/* [hl_nev] scratch for PAPI_read: the sets' values in turn */
	uint64_t *esen, *esrun;	/* [hl_nev] and their times (es_last_times) */
	long long *cur;		/* [hl_nval] the values just read */
	struct hl_region *chunk[HL_MAX_CHUNKS];
	atomic_int nreg;	/* regions published for the report */
	int *slot;		/* open-addressing table of region index + 1 */
	unsigned nslot;		/* power of two */
	int depth, cap;		/* open regions */
	int *stk;		/* [cap] region index of each open region */
	long long *stkv;	/* [cap * hl_nval] values at each begin */
	long long *stkrec;	/* [cap * 3] its instance record's position (-1:
				 * not logged), its number, its last read's
				 * position (-1: none) */
	int warned;
	/* the instance log (PAPI 7.0's layout) */
	long long **log[HL_LOG_BLOCKS];
	_Atomic long long nlog;	/* words published for the report */
	long long ninst;	/* instances begun */
	int log_full;
};

/* Process-wide state, fixed once the first region begins. */
extern struct hl_event *hl_ev;
extern int hl_nev, hl_nval;
extern _Atomic(struct hl_thread *) hl_threads;
extern atomic_int hl_nthreads;

static inline struct hl_region *hl_region_at(struct hl_thread *t, int i)
{
	return &t->chunk[i >> HL_CHUNK_BITS][i & (HL_CHUNK - 1)];
}

/* 1 when regions keep TSC cycles only and the report derives their real
 * time (hl_ns_per_cycle); fixed at setup. hl_tsc_allowed = 0 before the
 * first region keeps a clock_gettime per sample (tests compare the two). */
extern int hl_tsc_time, hl_tsc_allowed;
/* Decide how regions keep real time and take the starting clock pair
 * (setup of the first region). */
void hl_clock_start(void);
/* Nanoseconds per TSC cycle from setup to now; 0 when no time passed. */
double hl_ns_per_cycle(void);

/* hl_output.c: write the report of every thread (the rank file, and stdout
 * when PAPI_REPORT is set). Returns PAPI_OK or a PAPI error; on failure one
 * line on stderr says what failed. */
int hl_output_write(void);
/* The report as one JSON document on f (the rank file's contents). */
int hl_output_json(FILE *f);

#endif

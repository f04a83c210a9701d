/* uncore.h: what the perf_event_uncore modules share: the PMUs counted on, their listed events, an event described and encoded, and the lock over them. */
#ifndef PAPI_UNCORE_H
#define PAPI_UNCORE_H

#include <pthread.h>

#include "4-components/components.h"

/* components.h brought the kernel's <linux/perf_event.h>; libpfm4's copy
 * of the same definitions would clash, so only its encoding interface. */
#define __PERFMON_PERF_EVENT_H__
#include <perfmon/pfmlib_perf_event.h>

/*
 * The perf_event_uncore component, in three modules called one way:
 *   uncore.c        the component's table; each event opened on its CPUs,
 *                   counted and read; calls the two below
 *   uncore_names.c  the events: described, looked up by name, encoded
 *   uncore_pmus.c   the PMUs: which, on which CPUs, libpfm4's table for
 *                   each, the listed events; the lock, under all of them
 *
 * Which PMUs: every one the kernel lists (kpmu.c) that is not a CPU core's,
 * not one of its software kinds (software, tracepoint, breakpoint, kprobe,
 * uprobe) and not one that counts per task (no cpumask, as msr: perf_event
 * counts those with the core's events): uncore_imc_0, uncore_cha_3, amd_l3,
 * amd_df, power, cstate_pkg, ...
 *
 * How they are named: where libpfm4 has the PMU's table and detected it, by
 * libpfm4's names as
 * PAPI 7 spells them, "skx_unc_imc0::UNC_M_CAS_COUNT:RD", counted raw; and
 * always by the kernel's own event files, "uncore_imc_0::cas_count_read",
 * with their .scale and .unit applied (MiB become bytes, Joules
 * microjoules: integers that lose nothing); and by terms through the
 * PMU's format, "amd_df/event=0x7,umask=0x38/", as perf spells them. A
 * qualifier ":cpu=N" counts only the socket or die of CPU N.
 *
 * How they count: an uncore PMU counts a whole socket or die, whoever runs
 * there. Its cpumask names one CPU of each; an event is opened there with
 * pid -1 (system-wide) and the counts are summed. That needs perf_event_paranoid 0 or
 * lower, or CAP_PERFMON. Each event is its own group, so the kernel
 * multiplexes more events than counters; counts are scaled by the time
 * they ran, as perf does.
 */

struct upmu {			/* a kernel PMU this component counts on */
	const struct kpmu *k;
	int pfm;		/* libpfm4 PMU naming its events, -1 none */
	int forced;		/* libpfm4 did not detect it (uncore_assume_family):
				 * encoded from its codes */
	char pfm_name[64];
	int ncpu;
	int *cpus;		/* its cpumask's online CPUs, or every online CPU */
	char cpulist[64];	/* as the kernel wrote it (the online ones when some
				 * are not), for descriptions */
};

struct item {			/* a listed event */
	int pmu;		/* index into unc_pmus */
	int pev;		/* libpfm4 event index, -1: the kernel's event file */
	int sub;		/* libpfm4 unit-mask attribute (-1 none), or the file's index */
};

struct uev {			/* an event described (and encoded once counted) */
	char *name, *desc;
	char units[48];
	int pmu;
	int pev;		/* libpfm4 event, -1 none */
	int alias;		/* the kernel's event file, -1 none */
	char *spec;		/* what to encode: libpfm4's name or the terms */
	int cpu;		/* -1: every CPU of the PMU; else that one's socket */
	long double mult;	/* value = count * mult */
	int enc;		/* 0 not yet, 1 encoded, else the error */
	char *enc_why;
	struct perf_event_attr attr;
};

/* ------------------------------------------------------------------ the PMUs (uncore_pmus.c) */
/* Held over every use of what follows and of uncore_names.c's events. */
extern pthread_mutex_t unc_lock;
/* The PMUs counted on and the listed events, in PMU order (libpfm4's
 * events, each unit mask its own, then the kernel's event files): set by
 * unc_pmus_load, emptied by unc_pmus_free. */
extern struct upmu *unc_pmus;
extern int unc_npmus;
extern struct item *unc_items;
extern int unc_nitems;
/* unc_pmus_load (lock held): find the PMUs this component counts on, their
 * CPUs and libpfm4's tables, and list their events. Returns PAPI_OK;
 * PAPI_PARTIAL with why set when some cpumask CPUs are offline (the PMUs
 * count on the others); PAPI_ENOMEM, a kernel PMU's load error, or
 * PAPI_ECMP with why set when there is no PMU to count on. The caller frees what it made on failure
 * (unc_pmus_free). */
int unc_pmus_load(char *why, size_t len);
/* unc_pmus_free (lock held): free the PMUs and the listed events. */
void unc_pmus_free(void);
/* unc_find_kernel: the index in unc_pmus of the kernel PMU named by the n
 * bytes at name, -1 when none (lock held). */
int unc_find_kernel(const char *name, size_t n);

/* ------------------------------------------------------------------ the events (uncore_names.c) */
/* The component's init, shutdown, nevents, event and lookup hooks (see
 * struct component); they take the lock. */
int unc_init(char *why, size_t len);
void unc_shutdown(void);
int unc_nevents(void);
int unc_event(int ev, struct cmp_event *out);
int unc_lookup(const char *name, int *ev);
/* unc_get (lock held): event ev, listed or looked up, made on first use;
 * NULL when out of range or out of memory. */
struct uev *unc_get(int ev);
/* unc_encode (lock held): encode e once into e->attr. Returns PAPI_OK, or
 * the error (the same on every later call) with the reason set. */
int unc_encode(struct uev *e);

#endif

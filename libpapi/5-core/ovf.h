/* ovf.h: what the overflow modules share: an EventSet's overflow state and the slots the signal handlers find their work in. */
#ifndef PAPI_OVF_H
#define PAPI_OVF_H

#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "5-core/core.h"

/*
 * Four modules, called one way:
 *   overflow.c    PAPI_overflow, the configuration, start and stop, the
 *                 EventSet hooks; it calls the three below
 *   ovf_kernel.c  kernel sampling: a ring buffer and a signal per counter
 *   ovf_soft.c    software overflow: a timer reads the counts
 *   ovf_cmp.c     a component's events: pushed by it, or polled by a thread
 *   ovf_signal.c  the slot table, the signal handlers and the call of the
 *                 user's handler, under all of them: a slot carries the
 *                 function (fire) of the module that took it, so the
 *                 handlers never call up.
 */

#define SW_TICK_NS 1000000L		/* software overflow and poller period */
#define MAX_SLOTS 1024

enum { S_FREE, S_LIVE, S_BUSY, S_DEAD, S_HELD };
enum { K_RING, K_TIMER, K_CMP };

struct slot;
/* What a slot's signal does, in the signal handler of its thread, with the
 * slot held (S_BUSY). si is NULL for a component's slot. */
typedef void (*ovf_fire_fn)(struct slot *s, siginfo_t *si, void *uc);

struct slot {
	int use;			/* S_*, atomic */
	int kind;			/* K_RING, K_TIMER or K_CMP */
	ovf_fire_fn fire;
	pid_t tid;			/* thread the signal goes to */
	int fd;				/* K_RING: the sampled counter */
	int bit;			/* K_RING: its index in es->hw */
	EventSet_t *es;
	struct perf_event_mmap_page *pg;	/* K_RING: the mapping, unmapped at release */
	size_t len;
	long long pending;		/* K_CMP: overflow bits the poller found, atomic */
};

struct ovf_ent {
	int code;
	int threshold;
	int bit;			/* es->hw index of the event's first term */
	int ev;				/* index in es->ev, fixed while running */
	long long base;			/* software: count where it last fired */
	long long deadline;		/* component: the value it fires at next */
	int poll;			/* component: polled (1) or pushed (0), atomic */
};

struct ovf_set {
	PAPI_overflow_handler_t handler;
	int sw;				/* PAPI_OVERFLOW_FORCE_SW for the whole set */
	int n, cap;
	struct ovf_ent *ent;
	int armed;			/* atomic: deliver samples (set running) */
	/* software overflow while running */
	timer_t timer;
	int has_timer;
	struct slot *swslot;
	uint64_t *rbuf;
	size_t rbuf_len;
	long long *hwval;
	int nhwval;
	/* a component's events */
	struct slot *cslot;		/* K_CMP, while running */
	pthread_t poller;
	int has_poller;			/* a poller thread to join */
	int poll_stop;			/* atomic: the poller ends */
	long long *pval;		/* the poller's read of the set */
};

static inline struct ovf_set *ovf_of(const EventSet_t *es)
{
	return (struct ovf_set *)es->overflow;
}

/* ---- ovf_signal.c */
/* The slot table: slots below ovf_slots_hi() were used at some time. */
extern struct slot ovf_slots[MAX_SLOTS];
int ovf_slots_hi(void);
/* Set while this thread runs a signal handler's work (or a component's
 * report), when a slot may not be waited for. */
extern __thread int ovf_in_signal;
/* A free slot of kind for thread tid, held (S_HELD) until its taker
 * publishes it (S_LIVE); installs the signal handlers first. NULL: none
 * left or the handlers could not be installed. */
struct slot *ovf_slot_take(int kind, ovf_fire_fn fire, pid_t tid, EventSet_t *es);
/* Take s away from the signal handlers and unmap its ring. */
void ovf_slot_release(struct slot *s);
/* Call the user's handler of es. */
void ovf_dispatch(EventSet_t *es, struct ovf_set *os, void *pc, long long vec, void *uc);
/* The interrupted PC in a signal's ucontext, or NULL. */
void *ovf_pc_of(void *uc);

/* ---- ovf_kernel.c */
/* Forget the samples of an earlier run and restart each period (start). */
void ovf_kernel_restart(EventSet_t *es);

/* ---- ovf_soft.c */
/* Start es's software overflow timer (ovf_stop undoes it). PAPI_OK,
 * PAPI_ENOMEM, PAPI_ESYS. */
int ovf_soft_arm(EventSet_t *es, struct ovf_set *os);
/* Stop the timer and release its slot. */
void ovf_soft_disarm(struct ovf_set *os);

/* ---- ovf_cmp.c */
/* Take the component's slot of a starting set and start its poller when an
 * event is polled. PAPI_OK, PAPI_ENOMEM, PAPI_ESYS. */
int ovf_cmp_start(EventSet_t *es, struct ovf_set *os);
/* End the poller and release the slot. */
void ovf_cmp_stop(struct ovf_set *os);
/* End the poller (from a handler: only tell it to). */
void ovf_cmp_poll_stop(struct ovf_set *os);

#endif

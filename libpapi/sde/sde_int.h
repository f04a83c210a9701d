/* sde_int.h: libsde's own declarations: the registry of events that registry.c keeps and record.c and ti.c use. */
#ifndef PAPI_SDE_INT_H
#define PAPI_SDE_INT_H

#include <pthread.h>
#include <stdint.h>

#include "sde/sde_lib.h"
#include "sde/sde_ti.h"

/* A library's handle and an event's handle both start with a magic number,
 * so that a handle of one kind passed for the other is refused, not used. */
#define SDE_LIB_MAGIC	0x5344454cu	/* "SDEL" */
#define SDE_EV_MAGIC	0x53444545u	/* "SDEE" */

struct sde_lib {
	uint32_t magic;
	char *name;
	struct sde_lib *next;
};

/* What an event is. SK_NONE: a name with an id that no library registers
 * (named by a tool before the library registered it, or unregistered). */
enum sde_kind { SK_NONE, SK_VAR, SK_CB, SK_CREATED, SK_GROUP, SK_RECORDER, SK_REC_AUX, SK_CSET };

/* The reductions of a recorder's events, in the order of their suffixes. */
enum sde_aux { AUX_CNT, AUX_MIN, AUX_Q1, AUX_MED, AUX_Q3, AUX_MAX, AUX_N };
extern const char *const sde_aux_suffix[AUX_N];

struct sde_member {
	struct sde_ev *ev;
	struct sde_member *next;
};

struct sde_rec;
struct sde_cset;

struct sde_ev {
	uint32_t magic;
	uint32_t id;
	int kind;		/* enum sde_kind; changed under the lock, read atomically by inc */
	int mode;		/* PAPI_SDE_RO/RW | DELTA/INSTANT */
	int type;		/* PAPI_SDE_long_long ... float */
	int overflow;		/* a tool asked for overflow on it */
	char *name;		/* "LIBRARY::EVENT" */
	char *desc;		/* NULL: the name */
	struct sde_lib *lib;
	struct sde_ev *hnext;	/* the name hash's chain */
	long long base;		/* the raw value at the last reset (a double's bits for fp types) */
	long long created;	/* SK_CREATED's value */
	union {
		void *var;
		struct { papi_sde_fptr_t fn; void *param; } cb;
		struct { uint32_t flags; int fp; struct sde_member *members; } group;
		struct sde_rec *rec;
		struct { struct sde_ev *rec_ev; int which; } aux;
		struct sde_cset *cset;
	} u;
};

/* ---- registry.c */
/* The lock every call takes (recursive: a counter's callback may call libsde). */
void sde_lock(void);
void sde_unlock(void);
/* The library of handle h, or NULL when h is not one. */
struct sde_lib *sde_lib_of(papi_handle_t h);
/* The library called name, registered when new (lock held). NULL: no memory. */
struct sde_lib *sde_lib_get(const char *name);
/* The event called full ("LIBRARY::EVENT"), or NULL (lock held). */
struct sde_ev *sde_find(const char *full);
/* The event event_name of lib, or NULL (lock held). */
struct sde_ev *sde_lookup(struct sde_lib *lib, const char *event_name);
/* The event event_name of lib, made (as SK_NONE) when new (lock held). NULL
 * and *err when the name is bad (SDE_EINVAL) or memory runs out. */
struct sde_ev *sde_get(struct sde_lib *lib, const char *event_name, int *err);
/* The event of id, or NULL (lock held). */
struct sde_ev *sde_by_id(uint32_t id);
uint32_t sde_count(void);
/* The event of handle h when it is of kind k (with the lock held or not),
 * else NULL. */
struct sde_ev *sde_ev_of(void *h, int k);
/* Make e a name nobody registers, freeing what its kind holds (lock held). */
void sde_clear(struct sde_ev *e);
/* e's value as a tool reads it (lock held): see sde_ti_read_counter. */
int sde_read(struct sde_ev *e, long long *v);
/* Start e over (lock held): see sde_ti_reset_counter. */
void sde_reset(struct sde_ev *e);
/* A registration filled placeholder e: start libpapi's overflow timer if a
 * tool asked for overflow on it (lock held). */
void sde_registered(struct sde_ev *e);
/* Call libpapi's overflow check for created counter e (not under the lock). */
void sde_overflow_check(struct sde_ev *e, long long value);

/* How sde_read and sde_clear read and free an event of a kind that a module
 * above the registry keeps (record.c's recorders, their reductions and
 * counting sets). That module registers them (lock held) before it makes
 * its first event of the kind, so the registry never calls it. */
struct sde_kind_ops {
	int (*read)(struct sde_ev *e, long long *v);	/* e's value (lock held) */
	void (*clear)(struct sde_ev *e);	/* free what e->u holds; NULL: nothing */
};
void sde_set_kind_ops(enum sde_kind k, const struct sde_kind_ops *ops);

#endif

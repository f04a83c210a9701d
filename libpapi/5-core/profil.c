/* profil.c: PAPI_profil and PAPI_sprofil: PC histograms of overflows, built on overflow.c. */
#include <stdlib.h>
#include <string.h>

#include "5-core/core.h"

/*
 * A profiled event owns a copy of its PAPI_sprofil_t regions (the caller's
 * buffers are written, the array itself is not kept). On every overflow of
 * the event overflow.c calls profil_hit() from its signal handler with the
 * sample's PC; the bucket is
 *
 *	index = (pc - pr_off) * pr_scale / 0x20000
 *
 * so 0x20000 gives one address per bucket, 0x10000 two, 0x8000 four, and
 * a region holds pr_size / bucket_size buckets: bufsiz = (end - start) *
 * (bucket_size / 2) * (scale / 65536). A region of scale 2 is the catch-all
 * bucket: it takes (in its bucket 0) every pc >= pr_off that no other region
 * covers. Buckets saturate at their largest value instead of wrapping.
 * PAPI_PROFIL_RANDOM drops a random quarter of the samples;
 * PAPI_PROFIL_WEIGHTED adds the number of thresholds the event crossed
 * (always 1 for kernel sampling, possibly more for a software tick);
 * PAPI_PROFIL_COMPRESS ignores samples for a bucket that has reached half
 * its range, so the big buckets stop growing while the small ones catch up.
 */

#define SCALE_ONE_ADDR 0x20000u
#define SCALE_CATCH_ALL 2u
#define KNOWN_FLAGS (PAPI_PROFIL_POSIX | PAPI_PROFIL_RANDOM | PAPI_PROFIL_WEIGHTED | \
		     PAPI_PROFIL_COMPRESS | PAPI_PROFIL_BUCKETS | PAPI_PROFIL_FORCE_SW)

struct prof_ent {
	int code;
	int flags;
	int nreg;
	PAPI_sprofil_t *reg;	/* owned copy */
	unsigned rng;		/* PAPI_PROFIL_RANDOM state (signal handler only) */
};

struct prof_set {
	int n, cap;
	struct prof_ent *ent;
};

static size_t bucket_bytes(int flags)
{
	if (flags & PAPI_PROFIL_BUCKET_64)
		return 8;
	if (flags & PAPI_PROFIL_BUCKET_32)
		return 4;
	return 2;
}

/* Add w to the bucket, saturating; COMPRESS leaves half-full buckets alone. */
static int bucket_add(void *base, size_t idx, int flags, unsigned long long w)
{
	unsigned long long max, cur;
	switch (bucket_bytes(flags)) {
	case 8:
		max = UINT64_MAX;
		cur = ((uint64_t *)base)[idx];
		break;
	case 4:
		max = UINT32_MAX;
		cur = ((uint32_t *)base)[idx];
		break;
	default:
		max = UINT16_MAX;
		cur = ((uint16_t *)base)[idx];
		break;
	}
	if ((flags & PAPI_PROFIL_COMPRESS) && cur >= max / 2)
		return 0;
	cur = w > max - cur ? max : cur + w;
	switch (bucket_bytes(flags)) {
	case 8:
		((uint64_t *)base)[idx] = cur;
		break;
	case 4:
		((uint32_t *)base)[idx] = (uint32_t)cur;
		break;
	default:
		((uint16_t *)base)[idx] = (uint16_t)cur;
		break;
	}
	return 1;
}

int profil_record(const PAPI_sprofil_t *reg, int nreg, int flags, uintptr_t pc,
		  unsigned long long weight)
{
	size_t bsz = bucket_bytes(flags);
	unsigned long long w = (flags & PAPI_PROFIL_WEIGHTED) && weight > 0 ? weight : 1;
	int catch_all = -1;
	for (int r = 0; r < nreg; r++) {
		uintptr_t off = (uintptr_t)reg[r].pr_off;
		if (pc < off)
			continue;
		if (reg[r].pr_scale == SCALE_CATCH_ALL) {
			if (catch_all < 0)
				catch_all = r;
			continue;
		}
		unsigned __int128 idx = (unsigned __int128)(pc - off) * reg[r].pr_scale / SCALE_ONE_ADDR;
		if (idx < reg[r].pr_size / bsz)
			return bucket_add(reg[r].pr_base, (size_t)idx, flags, w);
	}
	if (catch_all >= 0)
		return bucket_add(reg[catch_all].pr_base, 0, flags, w);
	return 0;
}

void profil_hit(EventSet_t *es, void *pc, long long vector, unsigned long long weight)
{
	struct prof_set *ps = es->profil;
	if (!ps)
		return;
	for (int i = 0; i < ps->n; i++) {
		struct prof_ent *p = &ps->ent[i];
		int e = es_event_index(es, p->code);
		if (e < 0 || es->ev[e].hw[0] >= 64 || !(vector & (1LL << es->ev[e].hw[0])))
			continue;
		if (p->flags & PAPI_PROFIL_RANDOM) {
			/* xorshift32: async-signal-safe, one state per event */
			unsigned x = p->rng ? p->rng : 0x9e3779b9u;
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			p->rng = x;
			if ((x & 3) == 0)
				continue;
		}
		profil_record(p->reg, p->nreg, p->flags, (uintptr_t)pc, weight);
	}
}

static int find(const struct prof_set *ps, int code)
{
	for (int i = 0; ps && i < ps->n; i++)
		if (ps->ent[i].code == code)
			return i;
	return -1;
}

static void set_state(EventSet_t *es)
{
	if (es->profil)
		es->state |= PAPI_PROFILING;
	else
		es->state &= ~PAPI_PROFILING;
}

void profil_forget(EventSet_t *es, int code)
{
	struct prof_set *ps = es->profil;
	int i = find(ps, code);
	if (i < 0)
		return;
	free(ps->ent[i].reg);
	memmove(&ps->ent[i], &ps->ent[i + 1], (size_t)(ps->n - i - 1) * sizeof *ps->ent);
	if (--ps->n == 0)
		profil_free(es);
	set_state(es);
}

void profil_free(EventSet_t *es)
{
	struct prof_set *ps = es->profil;
	if (!ps)
		return;
	es->profil = NULL;
	for (int i = 0; i < ps->n; i++)
		free(ps->ent[i].reg);
	free(ps->ent);
	free(ps);
	es->state &= ~PAPI_PROFILING;
}

/* Are the regions and flags usable? */
static int check_args(const PAPI_sprofil_t *prof, int profcnt, int flags)
{
	if (!prof || profcnt < 1)
		return PAPI_EINVAL;
	if (flags & ~KNOWN_FLAGS)
		return PAPI_EINVAL;	/* includes the EAR flags: no such hardware here */
	int b = flags & PAPI_PROFIL_BUCKETS;
	if (b && b != PAPI_PROFIL_BUCKET_16 && b != PAPI_PROFIL_BUCKET_32 &&
	    b != PAPI_PROFIL_BUCKET_64)
		return PAPI_EINVAL;
	for (int r = 0; r < profcnt; r++) {
		unsigned s = prof[r].pr_scale;
		if (!(s == SCALE_ONE_ADDR || (s > 1 && s <= 0x10000)))
			return PAPI_EINVAL;
		if (!prof[r].pr_base || prof[r].pr_size == 0)
			return PAPI_EINVAL;
	}
	return PAPI_OK;
}

/* PAPI_sprofil: histogram the PCs of EventCode's overflows (every threshold
 * events) over the profcnt regions of prof once the set starts; threshold 0
 * turns the profile of EventCode off. Regions are tried in order; a region
 * of scale 2 catches what the others miss. Calling it again for the same
 * event replaces its regions and flags. prof is copied; its buffers must
 * stay valid while profiling. flags: PAPI_PROFIL_POSIX/RANDOM/WEIGHTED/
 * COMPRESS, one of PAPI_PROFIL_BUCKET_16 (default), _32, _64, and
 * PAPI_PROFIL_FORCE_SW (software overflow).
 * PAPI_ENOINIT, PAPI_ENOEVST, PAPI_EISRUN, PAPI_ENOEVNT (event not in the
 * set), PAPI_EINVAL (threshold < 0; NULL prof or profcnt < 1; unknown flag
 * or several bucket sizes; a scale other than 2..0x10000 or 0x20000; NULL
 * or empty buffer; threshold 0 for an event not profiled), PAPI_ECNFLCT
 * (software and kernel overflow mixed in one set), PAPI_ENOMEM, and the
 * errors of PAPI_overflow. */
static int sprofil_impl(PAPI_sprofil_t *prof, int profcnt, int EventSet, int EventCode,
			int threshold, int flags)
{
	if (!lib_ready())
		return PAPI_ENOINIT;
	EventSet_t *es = es_lookup(EventSet);
	if (!es)
		return PAPI_ENOEVST;
	if (es->state & PAPI_RUNNING)
		return PAPI_EISRUN;
	if (es_event_index(es, EventCode) < 0)
		return PAPI_ENOEVNT;
	if (threshold < 0)
		return PAPI_EINVAL;
	if (es->cset) {
		papi_set_reason("PAPI_profil: only perf_event's counters interrupt on overflow");
		return PAPI_ECMP;
	}
	struct prof_set *ps = es->profil;
	int i = find(ps, EventCode);
	if (threshold == 0) {
		if (i < 0)
			return PAPI_EINVAL;
		profil_forget(es, EventCode);
		if (es->overflow)
			ovf_configure(es, EventCode, 0, 0, NULL);
		return PAPI_OK;
	}
	int ret = check_args(prof, profcnt, flags);
	if (ret != PAPI_OK)
		return ret;
	PAPI_sprofil_t *copy = malloc((size_t)profcnt * sizeof *copy);
	if (!copy)
		return PAPI_ENOMEM;
	memcpy(copy, prof, (size_t)profcnt * sizeof *copy);
	if (!ps) {
		ps = calloc(1, sizeof *ps);
		if (!ps) {
			free(copy);
			return PAPI_ENOMEM;
		}
	}
	if (i < 0 && ps->n == ps->cap) {
		int cap = ps->cap ? ps->cap * 2 : 4;
		struct prof_ent *n = realloc(ps->ent, (size_t)cap * sizeof *n);
		if (!n) {
			free(copy);
			if (!es->profil)
				free(ps);
			return PAPI_ENOMEM;
		}
		ps->ent = n;
		ps->cap = cap;
	}
	papi_clear_reason();
	ret = ovf_configure(es, EventCode, threshold, flags & PAPI_PROFIL_FORCE_SW, NULL);
	if (ret != PAPI_OK) {
		free(copy);
		if (!es->profil) {
			free(ps->ent);
			free(ps);
		}
		return ret;
	}
	if (i < 0) {
		i = ps->n++;
	} else {
		free(ps->ent[i].reg);
	}
	ps->ent[i] = (struct prof_ent){ .code = EventCode, .flags = flags, .nreg = profcnt,
					.reg = copy, .rng = 0x2545f491u ^ (unsigned)i };
	es->profil = ps;
	set_state(es);
	return PAPI_OK;
}

/* PAPI_profil: PAPI_sprofil with the one region buf[bufsiz bytes] starting
 * at text address offset with scale (a 16-bit fixed-point fraction: 0x10000
 * = one bucket per two addresses, 0x20000 = one per address, 2 = one bucket
 * for all). Same flags and errors as PAPI_sprofil; threshold 0 turns the
 * profile of EventCode off (the other arguments are then ignored). */
int PAPI_profil(void *buf, unsigned bufsiz, vptr_t offset, unsigned scale, int EventSet,
		int EventCode, int threshold, int flags)
{
	PAPI_sprofil_t one = { .pr_base = buf, .pr_size = bufsiz, .pr_off = offset,
			       .pr_scale = scale };
	return PAPI_sprofil(threshold > 0 ? &one : NULL, threshold > 0 ? 1 : 0, EventSet,
			    EventCode, threshold, flags);
}

/* PAPI_sprofil runs in flight (es_enter/es_leave) so a concurrent
 * PAPI_shutdown cannot free the set under it. */
int PAPI_sprofil(PAPI_sprofil_t *prof, int profcnt, int EventSet, int EventCode,
		 int threshold, int flags)
{
	return ES_IN_FLIGHT(sprofil_impl(prof, profcnt, EventSet, EventCode, threshold, flags));
}

static void hook_forget(EventSet_t *es, int code)
{
	if (es->profil)
		profil_forget(es, code);
}

const struct es_hooks profil_es_hooks = {
	.forget = hook_forget,
	.release = profil_free,
};

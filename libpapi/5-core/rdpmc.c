/* rdpmc.c: counter reads from user space through the perf user page (rdpmc), and the pages' lifetimes. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "5-core/core.h"

int papi_rdpmc = 1;

/* rdpmc_init: PAPI_RDPMC=0 turns user-space reads off; unset or any other
 * value leaves them on. Read once per PAPI_library_init. */
void rdpmc_init(const char *env)
{
	papi_rdpmc = !(env && env[0] == '0' && !env[1]);	/* no strcmp: see core.h */
}

/* Counters the kernel may let user space read: core PMU events (generic
 * hardware, cache, raw, or a dynamic PMU type such as cpu_core/cpu_atom).
 * Software, tracepoint and breakpoint events never qualify. The page has
 * the last word (cap_user_rdpmc, index) at every read. */
static int hardware_event(int ntv)
{
	const struct native *n = native_get(ntv);
	if (!n)
		return 0;
	uint32_t t = n->attr.type;
	if (n->on_cpu)		/* counts only while the thread is on that CPU: read() knows */
		return 0;
	return t == PERF_TYPE_HARDWARE || t == PERF_TYPE_HW_CACHE || t == PERF_TYPE_RAW ||
	       t >= PERF_TYPE_MAX;
}

/* The set-wide conditions: rdpmc reads the counters of the CPU the caller
 * runs on, so only a set counting its own thread qualifies; an inherited
 * count includes children the page does not see; software multiplexing and
 * overflow keep read() (their own bookkeeping runs around it). */
static int set_eligible(const EventSet_t *es)
{
	return papi_rdpmc && sys->rdpmc && sys->tsc && !es->attach && es->cpu < 0 && !es->inherit &&
	       !mpx_sw_slice(es) && !es->overflow;
}

void rdpmc_map(EventSet_t *es, int h)
{
	struct es_hw *hw = &es->hw[h];
	hw->page = NULL;
	if (!set_eligible(es) || hw->fd < 0 || !hardware_event(hw->ntv))
		return;
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	void *p = sys->mmap(NULL, len, PROT_READ, MAP_SHARED, hw->fd, 0);
	if (p == MAP_FAILED) {
		DBG("rdpmc: no user page for fd %d: read() is used", hw->fd);
		return;
	}
	hw->page = p;
	es->npages++;
}

void rdpmc_unmap(EventSet_t *es, int h)
{
	struct es_hw *hw = &es->hw[h];
	if (!hw->page)
		return;
	sys->munmap((void *)hw->page, (size_t)sysconf(_SC_PAGESIZE));
	hw->page = NULL;
	es->npages--;
}

/* Capability bits of perf_event_mmap_page.capabilities (linux/perf_event.h:
 * cap_bit0, cap_bit0_is_deprecated, cap_user_rdpmc, cap_user_time, ...). */
#define CAP_USER_RDPMC (1ull << 2)
#define CAP_USER_TIME (1ull << 3)
#define CAP_USER_TIME_SHORT (1ull << 5)

/* Attempts at one page before giving up on user space for this read: the
 * kernel rewrites a page only when it reschedules the counter, so a second
 * attempt nearly always succeeds; the bound keeps a read from spinning. */
#define PAGE_TRIES 64

#define LOAD(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)

/* The page's fields are read before the lock is read again. x86 never
 * reorders loads with loads, so only the compiler must be kept from doing
 * it (and ThreadSanitizer refuses fences); elsewhere an acquire fence. */
#if defined(__x86_64__) || defined(__i386__)
#define LOADS_BEFORE_LOCK() __asm__ __volatile__("" ::: "memory")
#else
#define LOADS_BEFORE_LOCK() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#endif

/* Read one counter's page under its seqlock: *count = offset + the raw
 * counter sign-extended to pmc_width; with times, *en and *run are the
 * page's time_enabled/time_running brought up to now through the TSC
 * (cap_user_time). 1 on success, 0 when the page says user space cannot
 * read (no rdpmc, not on a counter, no user time) or never held still. */
static int page_read(const struct perf_event_mmap_page *pg, int times, uint64_t *count,
		     uint64_t *en, uint64_t *run)
{
	for (int tries = 0; tries < PAGE_TRIES; tries++) {
		uint32_t seq = __atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE);
		if (seq & 1)
			continue;	/* the kernel is writing it */
		uint64_t caps = LOAD(pg->capabilities);
		uint32_t idx = LOAD(pg->index);
		if (!idx || !(caps & CAP_USER_RDPMC) || (times && !(caps & CAP_USER_TIME)))
			return 0;
		int64_t off = LOAD(pg->offset);
		unsigned width = LOAD(pg->pmc_width);
		uint64_t te = 0, tr = 0, toff = 0, cyc = 0, tcyc = 0, tmask = 0;
		uint32_t mult = 0;
		unsigned shift = 0;
		if (times) {
			te = LOAD(pg->time_enabled);
			tr = LOAD(pg->time_running);
			toff = LOAD(pg->time_offset);
			mult = LOAD(pg->time_mult);
			shift = LOAD(pg->time_shift);
			if (caps & CAP_USER_TIME_SHORT) {
				tcyc = LOAD(pg->time_cycles);
				tmask = LOAD(pg->time_mask);
			}
			cyc = sys->tsc();
		}
		uint64_t pmc = sys->rdpmc(idx - 1);
		LOADS_BEFORE_LOCK();
		if (__atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE) != seq)
			continue;
		if (width == 0 || width > 64 || shift >= 64)
			return 0;
		if (width < 64)	/* sign-extend the width-bit raw value */
			pmc = (uint64_t)((int64_t)(pmc << (64 - width)) >> (64 - width));
		*count = (uint64_t)off + pmc;
		if (times) {
			if (caps & CAP_USER_TIME_SHORT)
				cyc = tcyc + ((cyc - tcyc) & tmask);
			uint64_t quot = cyc >> shift, rem = cyc & ((1ull << shift) - 1);
			uint64_t delta = toff + quot * mult + ((rem * mult) >> shift);
			*en = te + delta;
			*run = tr + delta;	/* index != 0: running since the page was written */
		}
		return 1;
	}
	return 0;
}

int rdpmc_read(EventSet_t *es, uint64_t *buf, const size_t *off)
{
	if (!(es->state & PAPI_RUNNING) || !set_eligible(es) || es->nhw == 0 ||
	    es->owner != papi_gettid())
		return 0;
	for (int h = 0; h < es->nhw; h++) {
		const struct es_hw *hw = &es->hw[h];
		if (hw->fd < 0 || hw->group >= es->ngroups)
			continue;
		if (!hw->page)
			return 0;
		const struct es_group *g = &es->groups[hw->group];
		uint64_t *b = buf + (off ? off[hw->group] : 0);
		int leader = hw->fd == g->leader;
		if (!page_read(hw->page, leader, &b[3 + hw->slot], &b[1], &b[2]))
			return 0;
		if (leader)
			b[0] = (uint64_t)g->n;
	}
	return 1;
}

/* A core PMU whose events ask for user-space reads through a format term
 * "rdpmc" (arm64: config1 bit 1; the kernel then lets user space read the
 * counter while kernel.perf_user_access is 1, and only for a counter of one
 * task). x86 needs no term: /sys/.../cpu/rdpmc decides for every event. */
static const struct kpmu_field *rdpmc_term(uint32_t type)
{
	for (int i = 0; i < kpmu_count(); i++) {
		const struct kpmu *p = kpmu_get(i);
		if (!p->core || (type != (uint32_t)p->type && type != PERF_TYPE_HARDWARE &&
				 type != PERF_TYPE_HW_CACHE && type != PERF_TYPE_RAW))
			continue;
		const struct kpmu_field *f = kpmu_field(p, "rdpmc");
		if (f)
			return f;
	}
	return NULL;
}

static void hook_attr(const EventSet_t *es, int h, struct perf_event_attr *a)
{
	if (!set_eligible(es) || !hardware_event(es->hw[h].ntv))
		return;
	const struct kpmu_field *f = rdpmc_term(a->type);
	if (!f)
		return;
	__u64 *w[] = { &a->config, &a->config1, &a->config2 };
	if (f->word >= KPMU_CONFIG && f->word <= KPMU_CONFIG2)
		*w[f->word - KPMU_CONFIG] |= f->mask;
}

static int hook_opened(EventSet_t *es, int h)
{
	rdpmc_map(es, h);	/* never fails: without a page, read() */
	return PAPI_OK;
}

const struct es_hooks rdpmc_es_hooks = {
	.attr = hook_attr,
	.opened = hook_opened,
	.closing = rdpmc_unmap,
};

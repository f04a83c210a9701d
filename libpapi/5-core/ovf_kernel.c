/* ovf_kernel.c: kernel overflow: a counter sampled by the kernel into a ring buffer, its signal routed to the thread that counts it. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "5-core/ovf.h"

/*
 * Hardware (kernel) overflow: an overflowing counter stays where eventset.c
 * put it, leader or member of its PMU's group (the kernel samples group
 * members as well as leaders, and one read() of the group still returns
 * every count, exact, while sampling). It is opened with sample_period =
 * threshold, sample_type = PERF_SAMPLE_IP and wakeup_events = 1, gets a ring
 * buffer of 1 + RING_PAGES pages (sys->mmap), and its fd signals
 * OVF_HW_SIGNAL (F_SETSIG) to the thread that counts it (F_SETOWN_EX,
 * F_OWNER_TID; the EventSet's owner for attached sets), O_ASYNC on.
 * The counter runs free: no event_limit, so a count never stops between an
 * overflow and its handler, and inherited counters (where the kernel refuses
 * PERF_EVENT_IOC_REFRESH) work too. The signal handler drains every ring of
 * its thread and calls the user's handler once per PERF_RECORD_SAMPLE with
 * that sample's IP, so signals that merge or arrive late lose no overflow.
 * Should the kernel ever disable a counter after an overflow (POLL_HUP,
 * an event_limit ran out) the handler re-enables it with
 * PERF_EVENT_IOC_REFRESH.
 */

#define RING_PAGES 2			/* data pages per ring: a power of two */

static void ring_copy(void *dst, const unsigned char *data, uint64_t size, uint64_t pos,
		      size_t n)
{
	unsigned char *d = dst;
	for (size_t i = 0; i < n; i++)
		d[i] = data[(pos + i) & (size - 1)];
}

/* Hand every sample in s's ring to the handler (or drop them when the set
 * is not running) and give the space back to the kernel. */
static void ring_drain(struct slot *s, void *uc)
{
	struct perf_event_mmap_page *pg = s->pg;
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t size = pg->data_size ? pg->data_size : s->len - (size_t)psz;
	uint64_t off = pg->data_offset ? pg->data_offset : (uint64_t)psz;
	const unsigned char *data = (const unsigned char *)pg + off;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	EventSet_t *es = s->es;
	struct ovf_set *os = ovf_of(es);

	if (size == 0 || (size & (size - 1)))
		return;
	while (head - tail >= sizeof(struct perf_event_header)) {
		struct perf_event_header hdr;
		ring_copy(&hdr, data, size, tail, sizeof hdr);
		if (hdr.size < sizeof hdr || hdr.size > head - tail) {
			tail = head;	/* not a record: drop the rest */
			break;
		}
		if (hdr.type == PERF_RECORD_SAMPLE && hdr.size >= sizeof hdr + sizeof(uint64_t) &&
		    os && __atomic_load_n(&os->armed, __ATOMIC_ACQUIRE)) {
			uint64_t ip;
			ring_copy(&ip, data, size, tail + sizeof hdr, sizeof ip);
			ovf_sample_fn take = __atomic_load_n(&ovf_sample_hook, __ATOMIC_ACQUIRE);
			if (es->profil && take)
				take(es, (void *)(uintptr_t)ip, 1LL << s->bit, 1);
			ovf_dispatch(es, os, (void *)(uintptr_t)ip, 1LL << s->bit, uc);
			/* the handler may have turned this overflow off */
			if (__atomic_load_n(&s->use, __ATOMIC_ACQUIRE) != S_BUSY) {
				tail += hdr.size;
				break;
			}
		}
		tail += hdr.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* A ring's signal: drain it; when it is still ours (the handler did not
 * release it) and the kernel stopped the counter, switch it back on. */
static void ring_fire(struct slot *s, siginfo_t *si, void *uc)
{
	ring_drain(s, uc);
	struct ovf_set *os = __atomic_load_n(&s->use, __ATOMIC_ACQUIRE) == S_BUSY ?
			ovf_of(s->es) : NULL;
	if (si && si->si_code == POLL_HUP && si->si_fd == s->fd && os &&
	    __atomic_load_n(&os->armed, __ATOMIC_ACQUIRE))
		sys->ioctl(s->fd, PERF_EVENT_IOC_REFRESH, 0);
}

/* The entry sampling counter h, or NULL. */
static const struct ovf_ent *ent_for_hw(const EventSet_t *es, int h)
{
	const struct ovf_set *os = ovf_of(es);
	if (!os || os->sw)
		return NULL;
	for (int i = 0; i < os->n; i++) {
		int e = es_event_index(es, os->ent[i].code);
		if (e >= 0 && es->ev[e].hw[0] == h)
			return &os->ent[i];
	}
	return NULL;
}

void ovf_attr(const EventSet_t *es, int h, struct perf_event_attr *a)
{
	const struct ovf_ent *e = ent_for_hw(es, h);
	if (!e)
		return;
	a->sample_period = (uint64_t)e->threshold;
	a->sample_type = PERF_SAMPLE_IP;
	a->wakeup_events = 1;
	a->watermark = 0;
}

int ovf_fd_open(EventSet_t *es, int h)
{
	if (!ent_for_hw(es, h))
		return PAPI_OK;
	int fd = es->hw[h].fd;
	size_t len = (size_t)(1 + RING_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
	void *pg = sys->mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		int err = errno;
		papi_set_reason("mapping the sample buffer of counter %d failed: %s", h,
				strerror(err));
		return err == ENOMEM || err == EPERM ? PAPI_ENOMEM : PAPI_ESYS;
	}
	pid_t tid = es->attach || es->cpu >= 0 ? es->owner : papi_gettid();
	struct slot *s = ovf_slot_take(K_RING, ring_fire, tid, es);
	if (!s) {
		sys->munmap(pg, len);
		papi_set_reason("too many overflowing counters in this process (at most %d)",
				MAX_SLOTS);
		return PAPI_ENOMEM;
	}
	s->fd = fd;
	s->bit = h;
	s->pg = pg;
	s->len = len;
	__atomic_store_n(&s->use, S_LIVE, __ATOMIC_RELEASE);
	struct f_owner_ex own = { .type = F_OWNER_TID, .pid = tid };
	int fl = sys->fcntl(fd, F_GETFL, 0);
	if (fl < 0 || sys->fcntl(fd, F_SETSIG, OVF_HW_SIGNAL) < 0 ||
	    sys->fcntl(fd, F_SETOWN_EX, (long)(uintptr_t)&own) < 0 ||
	    sys->fcntl(fd, F_SETFL, fl | O_ASYNC) < 0) {
		papi_set_reason("routing the overflow signal of counter %d failed: %s", h,
				strerror(errno));
		ovf_slot_release(s);
		return PAPI_ESYS;
	}
	return PAPI_OK;
}

void ovf_fd_close_all(EventSet_t *es)
{
	int hi = ovf_slots_hi();
	for (int i = 0; i < hi; i++) {
		struct slot *s = &ovf_slots[i];
		int u = __atomic_load_n(&s->use, __ATOMIC_ACQUIRE);
		if (u != S_FREE && u != S_DEAD && s->es == es && s->kind == K_RING)
			ovf_slot_release(s);
	}
}

/* Forget the samples of an earlier run; restart each period. */
void ovf_kernel_restart(EventSet_t *es)
{
	int hi = ovf_slots_hi();
	for (int i = 0; i < hi; i++) {
		struct slot *s = &ovf_slots[i];
		if (__atomic_load_n(&s->use, __ATOMIC_ACQUIRE) != S_LIVE || s->es != es ||
		    s->kind != K_RING)
			continue;
		const struct ovf_ent *e = ent_for_hw(es, s->bit);
		uint64_t period = e ? (uint64_t)e->threshold : 0;
		if (period)
			sys->ioctl(s->fd, PERF_EVENT_IOC_PERIOD, (unsigned long)(uintptr_t)&period);
		__atomic_store_n(&s->pg->data_tail,
				 __atomic_load_n(&s->pg->data_head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
	}
}

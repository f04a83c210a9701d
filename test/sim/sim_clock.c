/* sim_clock.c: the simulated PMU's time: scheduling and rotation, counting, overflow samples and signals, the user page. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "sim/sim_priv.h"

/* ------------------------------------------------------------------ user page and ring */

static uint32_t rdpmc_index(int p, int c)
{
	/* x86 encoding: fixed counter n is rdpmc ecx (1 << 30) | n. */
	return c >= FIXED_BASE ? (1u << 30) | (uint32_t)(c - FIXED_BASE) : (uint32_t)c;
}

void sim_page_update(struct sev *e)
{
	struct perf_event_mmap_page *pg = e->page;
	if (!pg)
		return;
	__atomic_add_fetch(&pg->lock, 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* The test runs on a CPU of the first PMU's kind: the other PMUs'
	 * counters are not this CPU's, so their pages say index 0. */
	int on = e->counter >= 0 && e->pmu == 0;
	pg->index = on ? rdpmc_index(e->pmu, e->counter) + 1 : 0;
	pg->offset = on ? (int64_t)(e->count - (uint64_t)sim_sext(sim_raw[e->pmu][e->counter],
							       sim_cfg.pmu[e->pmu].width))
			: (int64_t)e->count;
	pg->time_enabled = e->tenabled;
	pg->time_running = e->trunning;
	pg->cap_bit0_is_deprecated = 1;
	pg->cap_user_rdpmc = sim_cfg.rdpmc && e->pmu >= 0;
	pg->pmc_width = e->pmu >= 0 ? (uint16_t)sim_cfg.pmu[e->pmu].width : 0;
	/* The TSC runs at 2 ticks per ns: ns = tsc * 2^31 >> 32, and the
	 * offset makes the time since this update come out of a later TSC. */
	pg->cap_user_time = 1;
	pg->time_mult = 1u << 31;
	pg->time_shift = 32;
	pg->time_offset = -sim_now_ns;
	e->pg_stale = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_add_fetch(&pg->lock, 1, __ATOMIC_RELEASE);
}

int sim_counter_of(uint32_t idx)
{
	int c = (idx & (1u << 30)) ? FIXED_BASE + (int)(idx & 0xff) : (int)idx;
	return c >= 0 && c < SIM_MAX_CNTRS ? c : -1;
}

/* Give counter c of PMU p a new raw value and rewrite the pages of the
 * events on it (their counts stay: the offsets absorb the change). */
static void reprogram(int p, int c)
{
	sim_raw[p][c] = (sim_raw[p][c] + 0x123456789ull) & sim_wmask(p);
	for (int i = 0; i < MAXEV; i++)
		if (sim_evs[i].used && sim_evs[i].pmu == p && sim_evs[i].counter == c)
			sim_page_update(&sim_evs[i]);
}

uint64_t sim_rdpmc_op(uint32_t idx)
{
	uint64_t r = 0;
	pthread_mutex_lock(&sim_lock);
	sim_nrdpmcs++;
	int c = sim_counter_of(idx);
	if (c >= 0 && sim_cfg.npmus > 0) {
		if (sim_interfere_n > 0) {
			sim_interfere_n--;
			reprogram(0, c);
		}
		r = sim_raw[0][c];
	}
	pthread_mutex_unlock(&sim_lock);
	return r;
}

uint64_t sim_tsc_op(void)
{
	pthread_mutex_lock(&sim_lock);
	uint64_t t = 2 * sim_now_ns;
	pthread_mutex_unlock(&sim_lock);
	return t;
}

void *sim_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = sim_ev_of(fd);
	if (!e) {
		pthread_mutex_unlock(&sim_lock);
		return mmap(addr, len, prot, flags, fd, off);
	}
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), data = len >= pg ? len - pg : 0;
	void *r = MAP_FAILED;
	int err = EINVAL;
	if (off != 0 || len < pg || len % pg || (data & (data - 1)) || !(flags & MAP_SHARED))
		goto out;
	if (e->page) {
		if (e->maplen != len)
			goto out;
		for (int i = 0; i < MAXMAP; i++)
			if (sim_maps[i].addr == e->page)
				sim_maps[i].refs++;
		r = e->page;
		goto out;
	}
	int m;
	for (m = 0; m < MAXMAP && sim_maps[m].addr; m++)
		;
	err = ENOMEM;
	if (m == MAXMAP)
		goto out;
	r = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		goto out;
	sim_maps[m] = (struct smap){ r, len, 1 };
	e->page = r;
	e->maplen = len;
	e->page->data_offset = pg;
	e->page->data_size = data;
	sim_page_update(e);
out:
	pthread_mutex_unlock(&sim_lock);
	if (r == MAP_FAILED)
		errno = err;
	return r;
}

int sim_munmap(void *addr, size_t len)
{
	pthread_mutex_lock(&sim_lock);
	for (int i = 0; i < MAXMAP; i++) {
		if (sim_maps[i].addr != addr)
			continue;
		if (--sim_maps[i].refs > 0) {
			pthread_mutex_unlock(&sim_lock);
			return 0;
		}
		for (int s = 0; s < MAXEV; s++)
			if (sim_evs[s].page == addr)
				sim_evs[s].page = NULL;
		sim_maps[i].addr = NULL;
		pthread_mutex_unlock(&sim_lock);
		return munmap(addr, sim_maps[i].len);
	}
	pthread_mutex_unlock(&sim_lock);
	return munmap(addr, len);
}

/* Append bytes to e's ring buffer; 0 when it does not fit (lost). */
static int ring_put(struct sev *e, const void *rec, size_t n)
{
	struct perf_event_mmap_page *pg = e->page;
	if (!pg || !pg->data_size)
		return 0;
	uint64_t head = pg->data_head, tail = __atomic_load_n(&pg->data_tail, __ATOMIC_ACQUIRE);
	uint64_t size = pg->data_size;
	if (size - (head - tail) < n)
		return 0;
	unsigned char *data = (unsigned char *)pg + pg->data_offset;
	for (size_t i = 0; i < n; i++)
		data[(head + i) & (size - 1)] = ((const unsigned char *)rec)[i];
	__atomic_store_n(&pg->data_head, head + n, __ATOMIC_RELEASE);
	return 1;
}

static void sample_write(struct sev *e)
{
	uint64_t rec[16];
	int n = 1;
	uint64_t st = e->attr.sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER)
		rec[n++] = e->id;
	if (st & PERF_SAMPLE_IP)
		rec[n++] = sim_ip;
	if (st & PERF_SAMPLE_TID)
		rec[n++] = (uint64_t)getpid() | (uint64_t)e->owner << 32;
	if (st & PERF_SAMPLE_TIME)
		rec[n++] = sim_now_ns;
	if (st & PERF_SAMPLE_ADDR)
		rec[n++] = 0;
	if (st & PERF_SAMPLE_ID)
		rec[n++] = e->id;
	if (st & PERF_SAMPLE_STREAM_ID)
		rec[n++] = sim_evs[e->leader].id;
	if (st & PERF_SAMPLE_CPU)
		rec[n++] = 0;
	if (st & PERF_SAMPLE_PERIOD)
		rec[n++] = e->period;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				       (uint16_t)(n * 8) };
	memcpy(&rec[0], &h, sizeof h);
	if (ring_put(e, rec, (size_t)n * 8))
		e->samples++;
	else if (e->page && e->page->data_size)
		e->lost++;
}

static void signal_queue(struct sev *e, int code)
{
	if (!e->async || sim_npend == MAXSIG)
		return;
	sim_pend[sim_npend++] = (struct sigq){ e->sig, e->fd, code, e->owner, e->owner_is_tid };
}

/* ------------------------------------------------------------------ the clock */

/* An event counts when it and its leader are enabled. */
static int active(const struct sev *e)
{
	return e->enabled && sim_evs[e->leader].enabled && !sim_evs[e->leader].error;
}

/* Schedule PMU p's enabled groups for one slice, the kernel's way: pinned
 * groups first, then the flexible ones in rotation order while they fit.
 * Returns 1 when some flexible group was left out (rotation needed). */
static int schedule(int p)
{
	unsigned taken = 0;
	int left_out = 0, nplaced = 0;
	/* Start from nothing; keep counters where possible (prev hints). */
	int prevc[MAXEV];
	for (int i = 0; i < MAXEV; i++) {
		prevc[i] = sim_evs[i].used ? sim_evs[i].counter : -1;
		if (sim_evs[i].used && sim_evs[i].pmu == p)
			sim_evs[i].counter = -1;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int o = 0; o < sim_norder; o++) {
			int l = sim_order[o];
			if (!active(&sim_evs[l]) || (int)sim_evs[l].attr.pinned != (pass == 0))
				continue;
			int idx[MAXEV], n = sim_group_hw(l, 1, idx);
			if (n == 0 || sim_evs[idx[0]].pmu != p)
				continue;
			unsigned gm[SIM_MAX_CNTRS + 1];
			int prev[SIM_MAX_CNTRS + 1], as[SIM_MAX_CNTRS + 1];
			int ok = n <= SIM_MAX_CNTRS && nplaced + n <= SIM_MAX_CNTRS;
			if (ok) {
				for (int k = 0; k < n; k++) {
					gm[k] = sim_evs[idx[k]].mask;
					prev[k] = prevc[idx[k]];
				}
				ok = sim_fit(gm, prev, n, taken, as);
			}
			if (!ok) {
				if (pass == 0)
					sim_evs[l].error = 1;
				else
					left_out = 1;
				continue;
			}
			for (int k = 0; k < n; k++) {
				struct sev *e = &sim_evs[idx[k]];
				if (as[k] != prevc[idx[k]]) {
					/* Programmed afresh: the kernel writes -max_period. */
					int w = sim_cfg.pmu[p].width;
					sim_raw[p][as[k]] = sim_cfg.pmc_start ? sim_cfg.pmc_start & sim_wmask(p)
						: (-((1ull << (w - 1)) - 1)) & sim_wmask(p);
				}
				e->counter = as[k];
				taken |= 1u << as[k];
				nplaced++;
			}
		}
	}
	for (int i = 0; i < MAXEV; i++)
		if (sim_evs[i].used && sim_evs[i].pmu == p && sim_evs[i].counter != prevc[i])
			sim_evs[i].pg_stale = 1;
	return left_out;
}

static void overflow(struct sev *e)
{
	e->overflows++;
	sample_write(e);
	if (e->attr.wakeup_events <= 1 || e->attr.watermark ||
	    ++e->wake >= e->attr.wakeup_events) {
		e->wake = 0;
		signal_queue(e, POLL_IN);
	}
	if (e->limit > 0 && --e->limit == 0) {
		e->enabled = 0;
		signal_queue(e, POLL_HUP);
	}
}

/* Count dt cycles on e (which is running). */
static void count(struct sev *e, uint64_t dt)
{
	unsigned __int128 t = (unsigned __int128)dt * e->num + e->rem;
	uint64_t inc = (uint64_t)(t / e->den);
	e->rem = (uint64_t)(t % e->den);
	if (e->pmu >= 0 && e->counter >= 0) {
		uint64_t *raw = &sim_raw[e->pmu][e->counter], was = *raw;
		*raw = (was + inc) & sim_wmask(e->pmu);
		/* The kernel's overflow interrupt at the wrap folds the count
		 * and rewrites the page (offset and raw stay in step). */
		if (*raw < was || inc > sim_wmask(e->pmu))
			e->pg_stale = 1;
	}
	e->count += inc;
	if (!e->period)
		return;
	while (inc >= e->left && e->enabled) {
		inc -= e->left;
		e->left = e->period;
		overflow(e);
	}
	if (inc < e->left)
		e->left -= inc;
}

/* Run up to max cycles: to the next tick when groups must rotate, else all
 * of them at once (nothing changes at a tick then). Returns cycles run. */
static uint64_t slice(uint64_t max)
{
	int rotate[SIM_MAX_PMUS], any = 0;
	for (int p = 0; p < sim_cfg.npmus; p++)
		any |= rotate[p] = schedule(p);
	uint64_t to_tick = sim_cfg.tick - sim_now_ns % sim_cfg.tick;
	uint64_t dt = any && to_tick < max ? to_tick : max;
	sim_now_ns += dt;
	for (int i = 0; i < MAXEV; i++) {
		struct sev *e = &sim_evs[i];
		if (!e->used || !active(e))
			continue;
		e->tenabled += dt;
		/* Software events always run; hardware ones when on a counter
		 * (a software member runs when its group does). */
		int idx[MAXEV], grp_hw = sim_group_hw(e->leader, 1, idx);
		int runs = e->pmu >= 0 ? e->counter >= 0
				       : (grp_hw == 0 || sim_evs[idx[0]].counter >= 0);
		if (runs) {
			e->trunning += dt;
			count(e, dt);
		}
	}
	for (int p = 0; p < sim_cfg.npmus; p++) {
		if (!rotate[p])
			continue;
		for (int o = 0; o < sim_norder; o++) {
			int l = sim_order[o];
			int idx[MAXEV];
			if (active(&sim_evs[l]) && !sim_evs[l].attr.pinned && sim_group_hw(l, 1, idx) > 0 &&
			    sim_evs[idx[0]].pmu == p) {
				memmove(&sim_order[o], &sim_order[o + 1], (size_t)(sim_norder - o - 1) * sizeof *sim_order);
				sim_order[sim_norder - 1] = l;
				break;
			}
		}
	}
	return dt;
}

static void signals_deliver(struct sigq *q, int n)
{
	for (int i = 0; i < n; i++) {
		int sig = q[i].sig ? q[i].sig : SIGIO;
		siginfo_t si;
		memset(&si, 0, sizeof si);
		si.si_signo = sig;
		si.si_code = q[i].code;
		si.si_fd = q[i].fd;
		si.si_band = q[i].code == POLL_HUP ? POLLHUP | POLLERR : POLLIN | POLLRDNORM | POLLMSG;
		if (q[i].to_thread)
			syscall(SYS_rt_tgsigqueueinfo, getpid(), q[i].tid, sig, &si);
		else
			syscall(SYS_rt_sigqueueinfo, getpid(), sig, &si);
	}
}

void sim_advance(uint64_t cycles)
{
	struct sigq q[MAXSIG];
	int n;
	pthread_mutex_lock(&sim_lock);
	while (cycles > 0)
		cycles -= slice(cycles);
	for (int i = 0; i < MAXEV; i++)
		if (sim_evs[i].used && (!sim_cfg.lazy_page || sim_evs[i].pg_stale))
			sim_page_update(&sim_evs[i]);
	n = sim_npend;
	memcpy(q, sim_pend, (size_t)n * sizeof *q);
	sim_npend = 0;
	sim_nsignals += (uint64_t)n;
	pthread_mutex_unlock(&sim_lock);
	signals_deliver(q, n);
}

int64_t sim_user_read(int fd, const struct perf_event_mmap_page *pg, uint64_t *enabled,
		      uint64_t *running)
{
	uint32_t seq, idx;
	int64_t count;
	do {
		seq = __atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE);
		idx = pg->index;
		count = pg->offset;
		if (enabled)
			*enabled = pg->time_enabled;
		if (running)
			*running = pg->time_running;
		if (!pg->cap_user_rdpmc)
			return -1;
		if (idx) {
			int64_t r = sim_rdpmc(fd, idx - 1);
			if (r < 0)
				return -1;
			count += sim_sext((uint64_t)r, pg->pmc_width);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE) != seq || (seq & 1));
	return count;
}

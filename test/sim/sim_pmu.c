/* sim_pmu.c: the simulated perf_event PMU test binaries plug into libpapi's sys seam (see sim_pmu.h). */
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
#include "sim/sim_pmu.h"

#define MAXEV 1024
#define MAXDECL 256
#define MAXSIG 256
#define MAXMAP 256
#define FIXED_BASE 8

struct sev {			/* one open counter */
	int used, fd, pmu;	/* pmu: index into cfg.pmu, -1 for software */
	int leader;		/* slot of the group leader (itself for a leader) */
	int seq;		/* open order, for the group read layout */
	struct perf_event_attr attr;
	int enabled, error;
	unsigned mask;
	uint64_t num, den, rem;
	uint64_t count, tenabled, trunning, id;
	int counter;		/* counter while scheduled, -1 otherwise */
	uint64_t period, left;	/* sampling */
	long long limit;	/* REFRESH overflows left; 0 = unlimited */
	uint64_t overflows, samples, lost, wake;
	int async, sig, owner, owner_is_tid;
	struct perf_event_mmap_page *page;
	size_t maplen;
};

struct decl {
	uint32_t type;
	uint64_t config;
	unsigned mask;
	uint64_t num, den;
	int err;
};

struct sigq {
	int sig, fd, code, tid, to_thread;
};

struct smap {
	void *addr;
	size_t len;
	int refs;
};

static pthread_mutex_t sim_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_config cfg;
static struct sev ev[MAXEV];
static struct decl decls[MAXDECL];
static int ndecls;
static int order[MAXEV], norder;	/* group leaders in rotation order */
static uint64_t raw[SIM_MAX_PMUS][SIM_MAX_CNTRS];
static uint64_t now_ns, ip = 0x400000, next_id = 1, nsignals;
static int seqno, opens_total, fail_err, fail_n, busy;
static struct sigq pend[MAXSIG];
static int npend;
static struct smap maps[MAXMAP];

static uint64_t wmask(int pmu)
{
	int w = pmu >= 0 ? cfg.pmu[pmu].width : 64;
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

static int64_t sext(uint64_t v, int w)
{
	return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

static struct sev *ev_of(int fd)
{
	if (fd < 0)
		return NULL;
	for (int i = 0; i < MAXEV; i++)
		if (ev[i].used && ev[i].fd == fd)
			return &ev[i];
	return NULL;
}

static int slot(const struct sev *e)
{
	return (int)(e - ev);
}

/* ------------------------------------------------------------------ events and PMUs */

static const struct decl *decl_find(uint32_t type, uint64_t config)
{
	for (int i = 0; i < ndecls; i++)
		if (decls[i].type == type && decls[i].config == config)
			return &decls[i];
	return NULL;
}

static struct decl *decl_slot(uint32_t type, uint64_t config)
{
	struct decl *d = (struct decl *)decl_find(type, config);
	if (!d && ndecls < MAXDECL) {
		d = &decls[ndecls++];
		*d = (struct decl){ .type = type, .config = config, .num = 1, .den = 1 };
	}
	return d;
}

void sim_event(uint32_t type, uint64_t config, unsigned mask, uint64_t num, uint64_t den)
{
	pthread_mutex_lock(&sim_lock);
	struct decl *d = decl_slot(type, config);
	if (d) {
		d->mask = mask;
		d->num = num;
		d->den = den ? den : 1;
	}
	pthread_mutex_unlock(&sim_lock);
}

void sim_event_refuse(uint32_t type, uint64_t config, int err)
{
	pthread_mutex_lock(&sim_lock);
	struct decl *d = decl_slot(type, config);
	if (d)
		d->err = err;
	pthread_mutex_unlock(&sim_lock);
}

/* Which PMU attr a opens on: -1 software, -2 none (ENOENT), else cfg index. */
static int pmu_of(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_SOFTWARE)
		return -1;
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) {
		uint32_t ext = (uint32_t)(a->config >> 32);
		if (!ext)
			return cfg.npmus > 0 ? 0 : -2;
		for (int p = 0; p < cfg.npmus; p++)
			if ((uint32_t)cfg.pmu[p].type == ext)
				return p;
		return -2;
	}
	for (int p = 0; p < cfg.npmus; p++)
		if ((uint32_t)cfg.pmu[p].type == a->type)
			return p;
	return -2;
}

static const struct decl *decl_of(const struct perf_event_attr *a)
{
	uint64_t c = a->config;
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE)
		c &= 0xffffffffull;
	return decl_find(a->type, c);
}

/* Counters of PMU p that mask allows. */
static unsigned usable(int p, unsigned mask)
{
	unsigned all = 0;
	for (int i = 0; i < cfg.pmu[p].ngeneral; i++)
		all |= SIM_GP(i);
	for (int i = 0; i < cfg.pmu[p].nfixed; i++)
		all |= SIM_FIXED(i);
	return (mask ? mask : SIM_ANY_GP) & all;
}

/* Place events masks[0..n) on distinct counters not in taken (backtracking;
 * tries each event's previous counter first). assign[] gets the counters. */
static int fit(const unsigned *masks, const int *prev, int n, unsigned taken, int *assign)
{
	if (n == 0)
		return 1;
	unsigned m = masks[0] & ~taken;
	if (prev && prev[0] >= 0 && (m & (1u << prev[0]))) {
		assign[0] = prev[0];
		if (fit(masks + 1, prev + 1, n - 1, taken | (1u << prev[0]), assign + 1))
			return 1;
	}
	for (int c = 0; c < SIM_MAX_CNTRS; c++) {
		if (!(m & (1u << c)) || (prev && c == prev[0]))
			continue;
		assign[0] = c;
		if (fit(masks + 1, prev ? prev + 1 : NULL, n - 1, taken | (1u << c), assign + 1))
			return 1;
	}
	return 0;
}

/* The hardware members of the group led by slot l (enabled ones only when
 * live), into idx[]; returns how many. */
static int group_hw(int l, int live, int *idx)
{
	int n = 0;
	for (int i = 0; i < MAXEV; i++)
		if (ev[i].used && ev[i].leader == l && ev[i].pmu >= 0 && (!live || ev[i].enabled))
			idx[n++] = i;
	return n;
}

/* ------------------------------------------------------------------ the seam */

static int sim_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	int err = 0, fd = -1;
	pthread_mutex_lock(&sim_lock);
	const uint64_t ok_sample = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				   PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
				   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (fail_n > 0) {
		fail_n--;
		err = fail_err;
		goto out;
	}
	if (!a || (a->size && a->size < PERF_ATTR_SIZE_VER0) ||
	    (flags & ~(unsigned long)(PERF_FLAG_FD_CLOEXEC | PERF_FLAG_FD_NO_GROUP |
				      PERF_FLAG_FD_OUTPUT | PERF_FLAG_PID_CGROUP)) ||
	    (a->read_format & ~(uint64_t)(PERF_FORMAT_GROUP | PERF_FORMAT_ID |
					  PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_LOST)) ||
	    (a->sample_type & ~ok_sample) || (pid == -1 && cpu == -1)) {
		err = EINVAL;
		goto out;
	}
	if (a->size > sizeof *a) {
		err = E2BIG;
		goto out;
	}
	int p = pmu_of(a);
	if (p == -2 || (a->type == PERF_TYPE_SOFTWARE && a->config >= PERF_COUNT_SW_MAX)) {
		err = ENOENT;
		goto out;
	}
	if (a->type == PERF_TYPE_HARDWARE && (a->config & 0xffffffffull) >= PERF_COUNT_HW_MAX) {
		err = EINVAL;
		goto out;
	}
	const struct decl *d = decl_of(a);
	if (d && d->err) {
		err = d->err;
		goto out;
	}
	if (cfg.paranoid >= 3 || (cfg.paranoid >= 2 && !a->exclude_kernel)) {
		err = EACCES;
		goto out;
	}
	if (busy && p >= 0) {
		err = EBUSY;
		goto out;
	}
	unsigned mask = p >= 0 ? usable(p, d ? d->mask : 0) : 0;
	int leader = -1;
	if (group_fd >= 0) {
		struct sev *g = ev_of(group_fd);
		if (!g) {
			err = EBADF;
			goto out;
		}
		leader = slot(g);
		if (g->leader != leader) {
			err = EINVAL;	/* group_fd is a member, not a leader */
			goto out;
		}
		/* One hardware PMU per group. */
		int idx[MAXEV], n = group_hw(leader, 0, idx);
		if (p >= 0 && n > 0 && ev[idx[0]].pmu != p) {
			err = EINVAL;
			goto out;
		}
		if (p >= 0) {
			unsigned masks[SIM_MAX_CNTRS + 1];
			int as[SIM_MAX_CNTRS + 1];
			if (n + 1 > SIM_MAX_CNTRS) {
				err = (cfg.group_err ? cfg.group_err : ENOSPC);
				goto out;
			}
			for (int i = 0; i < n; i++)
				masks[i] = ev[idx[i]].mask;
			masks[n] = mask;
			if (!fit(masks, NULL, n + 1, 0, as)) {
				err = (cfg.group_err ? cfg.group_err : ENOSPC);
				goto out;
			}
		}
	} else if (p >= 0 && !mask) {
		err = EINVAL;	/* x86: no counter can ever hold it */
		goto out;
	}
	int s;
	for (s = 0; s < MAXEV && ev[s].used; s++)
		;
	if (s == MAXEV) {
		err = EMFILE;
		goto out;
	}
	fd = open("/dev/null", O_RDONLY | ((flags & PERF_FLAG_FD_CLOEXEC) ? O_CLOEXEC : 0));
	if (fd < 0) {
		err = errno;
		goto out;
	}
	struct sev *e = &ev[s];
	memset(e, 0, sizeof *e);
	e->used = 1;
	e->fd = fd;
	e->pmu = p;
	e->attr = *a;
	e->leader = leader >= 0 ? leader : s;
	e->seq = seqno++;
	e->enabled = !a->disabled && !a->enable_on_exec;
	e->mask = mask;
	e->num = d ? d->num : 1;
	e->den = d ? d->den : 1;
	e->counter = -1;
	e->id = next_id++;
	if (a->sample_period) {
		e->period = a->freq ? (a->sample_freq ? 1000000000ull / a->sample_freq : 1)
				    : a->sample_period;
		if (!e->period)
			e->period = 1;
		e->left = e->period;
	}
	if (leader < 0)
		order[norder++] = s;
	opens_total++;
out:
	pthread_mutex_unlock(&sim_lock);
	if (err) {
		errno = err;
		return -1;
	}
	return fd;
}

static void order_remove(int s)
{
	for (int i = 0; i < norder; i++)
		if (order[i] == s) {
			memmove(&order[i], &order[i + 1], (size_t)(norder - i - 1) * sizeof *order);
			norder--;
			return;
		}
}

/* Close slot s; a closed leader's members become singleton groups. */
static void ev_close(int s)
{
	if (ev[s].leader == s) {
		order_remove(s);
		for (int i = 0; i < MAXEV; i++)
			if (ev[i].used && i != s && ev[i].leader == s) {
				ev[i].leader = i;
				order[norder++] = i;
			}
	}
	ev[s].used = 0;
	ev[s].fd = -1;
}

static int sim_close(int fd)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = ev_of(fd);
	if (e)
		ev_close(slot(e));
	pthread_mutex_unlock(&sim_lock);
	return close(fd);
}

/* The members of the group led by l in open order (leader first). */
static int group_members(int l, int *idx)
{
	int n = 0;
	idx[n++] = l;
	for (int i = 0; i < MAXEV; i++)
		if (ev[i].used && i != l && ev[i].leader == l)
			idx[n++] = i;
	for (int i = 2; i < n; i++)	/* insertion sort by seq, leader stays first */
		for (int j = i; j > 1 && ev[idx[j]].seq < ev[idx[j - 1]].seq; j--) {
			int t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	return n;
}

static ssize_t sim_read(int fd, void *buf, size_t len)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = ev_of(fd);
	if (!e) {
		pthread_mutex_unlock(&sim_lock);
		return read(fd, buf, len);
	}
	uint64_t out[3 + 3 * MAXEV];
	size_t n = 0;
	uint64_t rf = e->attr.read_format;
	const struct sev *l = &ev[e->leader];
	if (l->error) {
		pthread_mutex_unlock(&sim_lock);
		return 0;	/* a pinned group that could not be scheduled */
	}
	if (rf & PERF_FORMAT_GROUP) {
		int idx[MAXEV], m = group_members(e->leader, idx);
		out[n++] = (uint64_t)m;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out[n++] = l->tenabled;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out[n++] = l->trunning;
		for (int i = 0; i < m; i++) {
			out[n++] = ev[idx[i]].count;
			if (rf & PERF_FORMAT_ID)
				out[n++] = ev[idx[i]].id;
			if (rf & PERF_FORMAT_LOST)
				out[n++] = ev[idx[i]].lost;
		}
	} else {
		out[n++] = e->count;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			out[n++] = e->tenabled;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			out[n++] = e->trunning;
		if (rf & PERF_FORMAT_ID)
			out[n++] = e->id;
		if (rf & PERF_FORMAT_LOST)
			out[n++] = e->lost;
	}
	pthread_mutex_unlock(&sim_lock);
	if (len < n * sizeof *out) {
		errno = ENOSPC;
		return -1;
	}
	memcpy(buf, out, n * sizeof *out);
	return (ssize_t)(n * sizeof *out);
}

static void page_update(struct sev *e);

/* Apply op to e, or to its whole group with PERF_IOC_FLAG_GROUP. */
static void for_group(struct sev *e, int group, void (*op)(struct sev *, uint64_t), uint64_t arg)
{
	if (!group) {
		op(e, arg);
		return;
	}
	int idx[MAXEV], m = group_members(e->leader, idx);
	for (int i = 0; i < m; i++)
		op(&ev[idx[i]], arg);
}

static void op_enable(struct sev *e, uint64_t arg)
{
	e->enabled = 1;
	e->error = 0;
	page_update(e);
}

static void op_disable(struct sev *e, uint64_t arg)
{
	e->enabled = 0;
	page_update(e);
}

static void op_reset(struct sev *e, uint64_t arg)
{
	/* The kernel zeroes the count only; enabled/running times go on. */
	e->count = 0;
	if (e->period)
		e->left = e->period;
	page_update(e);
}

static int sim_ioctl(int fd, unsigned long req, unsigned long arg)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = ev_of(fd);
	int err = 0;
	if (!e) {
		pthread_mutex_unlock(&sim_lock);
		return ioctl(fd, req, arg);
	}
	int group = (arg & PERF_IOC_FLAG_GROUP) != 0;
	switch (req) {
	case PERF_EVENT_IOC_ENABLE:
		for_group(e, group, op_enable, 0);
		break;
	case PERF_EVENT_IOC_DISABLE:
		for_group(e, group, op_disable, 0);
		break;
	case PERF_EVENT_IOC_RESET:
		for_group(e, group, op_reset, 0);
		break;
	case PERF_EVENT_IOC_REFRESH:
		if (!e->period || e->attr.inherit || (long)arg <= 0) {
			err = EINVAL;
			break;
		}
		e->limit += (long)arg;
		op_enable(e, 0);
		break;
	case PERF_EVENT_IOC_PERIOD: {
		uint64_t v;
		if (!arg || !e->period) {
			err = EINVAL;
			break;
		}
		memcpy(&v, (const void *)arg, sizeof v);
		if (!v || (v & (1ull << 63))) {
			err = EINVAL;
			break;
		}
		e->period = v;
		if (e->left > v)
			e->left = v;
		break;
	}
	case PERF_EVENT_IOC_ID:
		if (!arg) {
			err = EFAULT;
			break;
		}
		memcpy((void *)arg, &e->id, sizeof e->id);
		break;
	default:
		err = ENOTTY;
		break;
	}
	pthread_mutex_unlock(&sim_lock);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ user page and ring */

static uint32_t rdpmc_index(int p, int c)
{
	/* x86 encoding: fixed counter n is rdpmc ecx (1 << 30) | n. */
	return c >= FIXED_BASE ? (1u << 30) | (uint32_t)(c - FIXED_BASE) : (uint32_t)c;
}

static void page_update(struct sev *e)
{
	struct perf_event_mmap_page *pg = e->page;
	if (!pg)
		return;
	__atomic_add_fetch(&pg->lock, 1, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	int on = e->counter >= 0 && e->pmu >= 0;
	pg->index = on ? rdpmc_index(e->pmu, e->counter) + 1 : 0;
	pg->offset = on ? (int64_t)(e->count - (uint64_t)sext(raw[e->pmu][e->counter],
							       cfg.pmu[e->pmu].width))
			: (int64_t)e->count;
	pg->time_enabled = e->tenabled;
	pg->time_running = e->trunning;
	pg->cap_bit0_is_deprecated = 1;
	pg->cap_user_rdpmc = cfg.rdpmc && e->pmu >= 0;
	pg->pmc_width = e->pmu >= 0 ? (uint16_t)cfg.pmu[e->pmu].width : 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_add_fetch(&pg->lock, 1, __ATOMIC_RELEASE);
}

static void *sim_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = ev_of(fd);
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
			if (maps[i].addr == e->page)
				maps[i].refs++;
		r = e->page;
		goto out;
	}
	int m;
	for (m = 0; m < MAXMAP && maps[m].addr; m++)
		;
	err = ENOMEM;
	if (m == MAXMAP)
		goto out;
	r = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		goto out;
	maps[m] = (struct smap){ r, len, 1 };
	e->page = r;
	e->maplen = len;
	e->page->data_offset = pg;
	e->page->data_size = data;
	page_update(e);
out:
	pthread_mutex_unlock(&sim_lock);
	if (r == MAP_FAILED)
		errno = err;
	return r;
}

static int sim_munmap(void *addr, size_t len)
{
	pthread_mutex_lock(&sim_lock);
	for (int i = 0; i < MAXMAP; i++) {
		if (maps[i].addr != addr)
			continue;
		if (--maps[i].refs > 0) {
			pthread_mutex_unlock(&sim_lock);
			return 0;
		}
		for (int s = 0; s < MAXEV; s++)
			if (ev[s].page == addr)
				ev[s].page = NULL;
		maps[i].addr = NULL;
		pthread_mutex_unlock(&sim_lock);
		return munmap(addr, maps[i].len);
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
		rec[n++] = ip;
	if (st & PERF_SAMPLE_TID)
		rec[n++] = (uint64_t)getpid() | (uint64_t)e->owner << 32;
	if (st & PERF_SAMPLE_TIME)
		rec[n++] = now_ns;
	if (st & PERF_SAMPLE_ADDR)
		rec[n++] = 0;
	if (st & PERF_SAMPLE_ID)
		rec[n++] = e->id;
	if (st & PERF_SAMPLE_STREAM_ID)
		rec[n++] = ev[e->leader].id;
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
	if (!e->async || npend == MAXSIG)
		return;
	pend[npend++] = (struct sigq){ e->sig, e->fd, code, e->owner, e->owner_is_tid };
}

static int sim_fcntl(int fd, int cmd, long arg)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = ev_of(fd);
	pthread_mutex_unlock(&sim_lock);
	if (!e)
		return fcntl(fd, cmd, arg);
	/* The flags and owner live on the real descriptor too, so F_GET* work. */
	int r = fcntl(fd, cmd, arg);
	if (r < 0)
		return r;
	pthread_mutex_lock(&sim_lock);
	switch (cmd) {
	case F_SETFL:
		e->async = (arg & O_ASYNC) != 0;
		break;
	case F_SETSIG:
		e->sig = (int)arg;
		break;
	case F_SETOWN:
		e->owner = (int)arg;
		e->owner_is_tid = 0;
		break;
	case F_SETOWN_EX: {
		const struct f_owner_ex *o = (const struct f_owner_ex *)arg;
		e->owner = o->pid;
		e->owner_is_tid = o->type == F_OWNER_TID;
		break;
	}
	}
	pthread_mutex_unlock(&sim_lock);
	return r;
}

static int sim_pmu_type(const char *name)
{
	if (!name)
		return -1;
	if (strcmp(name, "software") == 0)
		return PERF_TYPE_SOFTWARE;
	pthread_mutex_lock(&sim_lock);
	int t = -1;
	for (int p = 0; p < cfg.npmus; p++)
		if (strcmp(cfg.pmu[p].name, name) == 0)
			t = cfg.pmu[p].type;
	pthread_mutex_unlock(&sim_lock);
	return t;
}

static const struct sys_ops sim_ops = {
	.perf_open = sim_open,
	.read = sim_read,
	.ioctl = sim_ioctl,
	.mmap = sim_mmap,
	.munmap = sim_munmap,
	.close = sim_close,
	.fcntl = sim_fcntl,
	.pmu_type = sim_pmu_type,
};

/* ------------------------------------------------------------------ the clock */

/* An event counts when it and its leader are enabled. */
static int active(const struct sev *e)
{
	return e->enabled && ev[e->leader].enabled && !ev[e->leader].error;
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
		prevc[i] = ev[i].used ? ev[i].counter : -1;
		if (ev[i].used && ev[i].pmu == p)
			ev[i].counter = -1;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int o = 0; o < norder; o++) {
			int l = order[o];
			if (!active(&ev[l]) || (int)ev[l].attr.pinned != (pass == 0))
				continue;
			int idx[MAXEV], n = group_hw(l, 1, idx);
			if (n == 0 || ev[idx[0]].pmu != p)
				continue;
			unsigned gm[SIM_MAX_CNTRS + 1];
			int prev[SIM_MAX_CNTRS + 1], as[SIM_MAX_CNTRS + 1];
			int ok = n <= SIM_MAX_CNTRS && nplaced + n <= SIM_MAX_CNTRS;
			if (ok) {
				for (int k = 0; k < n; k++) {
					gm[k] = ev[idx[k]].mask;
					prev[k] = prevc[idx[k]];
				}
				ok = fit(gm, prev, n, taken, as);
			}
			if (!ok) {
				if (pass == 0)
					ev[l].error = 1;
				else
					left_out = 1;
				continue;
			}
			for (int k = 0; k < n; k++) {
				struct sev *e = &ev[idx[k]];
				if (as[k] != prevc[idx[k]]) {
					/* Programmed afresh: the kernel writes -max_period. */
					int w = cfg.pmu[p].width;
					raw[p][as[k]] = cfg.pmc_start ? cfg.pmc_start & wmask(p)
						: (-((1ull << (w - 1)) - 1)) & wmask(p);
				}
				e->counter = as[k];
				taken |= 1u << as[k];
				nplaced++;
			}
		}
	}
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
	if (e->pmu >= 0 && e->counter >= 0)
		raw[e->pmu][e->counter] = (raw[e->pmu][e->counter] + inc) & wmask(e->pmu);
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

static void slice(uint64_t dt)
{
	int rotate[SIM_MAX_PMUS];
	for (int p = 0; p < cfg.npmus; p++)
		rotate[p] = schedule(p);
	now_ns += dt;
	for (int i = 0; i < MAXEV; i++) {
		struct sev *e = &ev[i];
		if (!e->used || !active(e))
			continue;
		e->tenabled += dt;
		/* Software events always run; hardware ones when on a counter
		 * (a software member runs when its group does). */
		int idx[MAXEV], grp_hw = group_hw(e->leader, 1, idx);
		int runs = e->pmu >= 0 ? e->counter >= 0
				       : (grp_hw == 0 || ev[idx[0]].counter >= 0);
		if (runs) {
			e->trunning += dt;
			count(e, dt);
		}
	}
	for (int p = 0; p < cfg.npmus; p++) {
		if (!rotate[p])
			continue;
		for (int o = 0; o < norder; o++) {
			int l = order[o];
			int idx[MAXEV];
			if (active(&ev[l]) && !ev[l].attr.pinned && group_hw(l, 1, idx) > 0 &&
			    ev[idx[0]].pmu == p) {
				memmove(&order[o], &order[o + 1], (size_t)(norder - o - 1) * sizeof *order);
				order[norder - 1] = l;
				break;
			}
		}
	}
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
	while (cycles > 0) {
		uint64_t to_tick = cfg.tick - now_ns % cfg.tick;
		uint64_t dt = cycles < to_tick ? cycles : to_tick;
		slice(dt);
		cycles -= dt;
	}
	for (int i = 0; i < MAXEV; i++)
		if (ev[i].used)
			page_update(&ev[i]);
	n = npend;
	memcpy(q, pend, (size_t)n * sizeof *q);
	npend = 0;
	nsignals += (uint64_t)n;
	pthread_mutex_unlock(&sim_lock);
	signals_deliver(q, n);
}

/* ------------------------------------------------------------------ setup and introspection */

struct sim_config sim_default_config(void)
{
	struct sim_config c = { .npmus = 1, .paranoid = 1, .tick = 4000000, .rdpmc = 1 };
	c.pmu[0] = (struct sim_pmu_desc){ "cpu", PERF_TYPE_RAW, 4, 3, 48 };
	return c;
}

struct sim_config sim_hybrid_config(void)
{
	struct sim_config c = sim_default_config();
	c.npmus = 2;
	c.pmu[0] = (struct sim_pmu_desc){ "cpu_core", PERF_TYPE_RAW, 8, 4, 48 };
	c.pmu[1] = (struct sim_pmu_desc){ "cpu_atom", 10, 6, 3, 48 };
	return c;
}

static void closeall(void)
{
	for (int i = 0; i < MAXEV; i++)
		if (ev[i].used) {
			close(ev[i].fd);
			ev[i].used = 0;
		}
	for (int i = 0; i < MAXMAP; i++)
		if (maps[i].addr) {
			munmap(maps[i].addr, maps[i].len);
			maps[i].addr = NULL;
		}
}

void sim_install(const struct sim_config *c)
{
	pthread_mutex_lock(&sim_lock);
	closeall();
	cfg = *c;
	if (!cfg.tick)
		cfg.tick = 4000000;
	if (cfg.npmus > SIM_MAX_PMUS)
		cfg.npmus = SIM_MAX_PMUS;
	for (int p = 0; p < cfg.npmus; p++) {
		if (cfg.pmu[p].width <= 0 || cfg.pmu[p].width > 64)
			cfg.pmu[p].width = 48;
		if (cfg.pmu[p].ngeneral > 8)
			cfg.pmu[p].ngeneral = 8;
		if (cfg.pmu[p].nfixed > 8)
			cfg.pmu[p].nfixed = 8;
	}
	memset(raw, 0, sizeof raw);
	ndecls = norder = npend = seqno = opens_total = fail_n = busy = 0;
	now_ns = 0;
	ip = 0x400000;
	next_id = 1;
	nsignals = 0;
	pthread_mutex_unlock(&sim_lock);
	sys_set_ops(&sim_ops);
}

void sim_uninstall(void)
{
	sys_set_ops(NULL);
	pthread_mutex_lock(&sim_lock);
	closeall();
	pthread_mutex_unlock(&sim_lock);
}

void sim_set_ip(uint64_t v)
{
	pthread_mutex_lock(&sim_lock);
	ip = v;
	pthread_mutex_unlock(&sim_lock);
}

void sim_fail_next(int err, int n)
{
	pthread_mutex_lock(&sim_lock);
	fail_err = err;
	fail_n = n;
	pthread_mutex_unlock(&sim_lock);
}

void sim_set_busy(int on)
{
	pthread_mutex_lock(&sim_lock);
	busy = on;
	pthread_mutex_unlock(&sim_lock);
}

int sim_open_count(void)
{
	int n = 0;
	pthread_mutex_lock(&sim_lock);
	for (int i = 0; i < MAXEV; i++)
		n += ev[i].used;
	pthread_mutex_unlock(&sim_lock);
	return n;
}

int sim_opens_total(void)
{
	return __atomic_load_n(&opens_total, __ATOMIC_RELAXED);
}

const struct perf_event_attr *sim_attr(int fd)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = ev_of(fd);
	pthread_mutex_unlock(&sim_lock);
	return e ? &e->attr : NULL;
}

int64_t sim_rdpmc(int fd, uint32_t idx)
{
	int64_t r = -1;
	pthread_mutex_lock(&sim_lock);
	struct sev *e = ev_of(fd);
	if (e && e->pmu >= 0) {
		int c = (idx & (1u << 30)) ? FIXED_BASE + (int)(idx & 0xff) : (int)idx;
		if (c >= 0 && c < SIM_MAX_CNTRS)
			r = (int64_t)raw[e->pmu][c];
	}
	pthread_mutex_unlock(&sim_lock);
	return r;
}

static uint64_t ev_stat(int fd, int what)
{
	uint64_t v = 0;
	pthread_mutex_lock(&sim_lock);
	struct sev *e = ev_of(fd);
	if (e)
		v = what ? e->samples : e->overflows;
	pthread_mutex_unlock(&sim_lock);
	return v;
}

uint64_t sim_overflows(int fd)
{
	return ev_stat(fd, 0);
}

uint64_t sim_samples(int fd)
{
	return ev_stat(fd, 1);
}

uint64_t sim_signals(void)
{
	return __atomic_load_n(&nsignals, __ATOMIC_RELAXED);
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
			count += sext((uint64_t)r, pg->pmc_width);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&pg->lock, __ATOMIC_ACQUIRE) != seq || (seq & 1));
	return count;
}

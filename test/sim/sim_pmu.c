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

#include "fake_sysfs.h"
#include "internal.h"
#include "sim/sim_priv.h"

pthread_mutex_t sim_lock = PTHREAD_MUTEX_INITIALIZER;
struct sim_config sim_cfg;
struct sev sim_evs[MAXEV];
struct decl sim_decls[MAXDECL];
int sim_ndecls;
int sim_order[MAXEV], sim_norder;	/* group leaders in rotation order */
uint64_t sim_raw[SIM_MAX_PMUS][SIM_MAX_CNTRS];
uint64_t sim_now_ns, sim_ip = 0x400000, sim_next_id = 1, sim_nsignals;
int sim_seqno, sim_nopens, sim_fail_err, sim_fail_n, sim_busy;
struct sigq sim_pend[MAXSIG];
int sim_npend;
struct smap sim_maps[MAXMAP];
uint64_t sim_nreads, sim_nrdpmcs, sim_nioctls;
int sim_interfere_n;

uint64_t sim_wmask(int pmu)
{
	int w = pmu >= 0 ? sim_cfg.pmu[pmu].width : 64;
	return w >= 64 ? ~0ull : (1ull << w) - 1;
}

int64_t sim_sext(uint64_t v, int w)
{
	return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

struct sev *sim_ev_of(int fd)
{
	if (fd < 0)
		return NULL;
	for (int i = 0; i < MAXEV; i++)
		if (sim_evs[i].used && sim_evs[i].fd == fd)
			return &sim_evs[i];
	return NULL;
}

static int slot(const struct sev *e)
{
	return (int)(e - sim_evs);
}

/* ------------------------------------------------------------------ events and PMUs */

static const struct decl *decl_find(uint32_t type, uint64_t config)
{
	for (int i = 0; i < sim_ndecls; i++)
		if (sim_decls[i].type == type && sim_decls[i].config == config)
			return &sim_decls[i];
	return NULL;
}

static struct decl *decl_slot(uint32_t type, uint64_t config)
{
	struct decl *d = (struct decl *)decl_find(type, config);
	if (!d && sim_ndecls < MAXDECL) {
		d = &sim_decls[sim_ndecls++];
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

void sim_declare_skx(void)
{
	sim_event(PERF_TYPE_RAW, SKX_CYC, SIM_FIXED(1) | SIM_ANY_GP, 1, 1);
	sim_event(PERF_TYPE_RAW, SKX_INS, SIM_FIXED(0) | SIM_ANY_GP, 2, 1);
	sim_event(PERF_TYPE_RAW, SKX_BR, SIM_ANY_GP, 1, 5);
	sim_event(PERF_TYPE_RAW, SKX_STALL, SIM_GP(2), 1, 10);
	sim_event(PERF_TYPE_RAW, SKX_L1HIT, SIM_GP(2), 1, 3);
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
			return sim_cfg.npmus > 0 ? 0 : -2;
		for (int p = 0; p < sim_cfg.npmus; p++)
			if ((uint32_t)sim_cfg.pmu[p].type == ext)
				return p;
		return -2;
	}
	for (int p = 0; p < sim_cfg.npmus; p++)
		if ((uint32_t)sim_cfg.pmu[p].type == a->type)
			return p;
	return -2;
}

/* A generic event declared with its PMU's extended type (one core type's
 * rate) before the one declared for every core PMU. */
static const struct decl *decl_of(const struct perf_event_attr *a)
{
	const struct decl *d = decl_find(a->type, a->config);
	if (!d && (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE))
		d = decl_find(a->type, a->config & 0xffffffffull);
	return d;
}

/* Counters of PMU p that mask allows. */
static unsigned usable(int p, unsigned mask)
{
	unsigned all = 0;
	for (int i = 0; i < sim_cfg.pmu[p].ngeneral; i++)
		all |= SIM_GP(i);
	for (int i = 0; i < sim_cfg.pmu[p].nfixed; i++)
		all |= SIM_FIXED(i);
	return (mask ? mask : SIM_ANY_GP) & all;
}

/* Place events masks[0..n) on distinct counters not in taken (backtracking;
 * tries each event's previous counter first). assign[] gets the counters. */
int sim_fit(const unsigned *masks, const int *prev, int n, unsigned taken, int *assign)
{
	if (n == 0)
		return 1;
	unsigned m = masks[0] & ~taken;
	if (prev && prev[0] >= 0 && (m & (1u << prev[0]))) {
		assign[0] = prev[0];
		if (sim_fit(masks + 1, prev + 1, n - 1, taken | (1u << prev[0]), assign + 1))
			return 1;
	}
	for (int c = 0; c < SIM_MAX_CNTRS; c++) {
		if (!(m & (1u << c)) || (prev && c == prev[0]))
			continue;
		assign[0] = c;
		if (sim_fit(masks + 1, prev ? prev + 1 : NULL, n - 1, taken | (1u << c), assign + 1))
			return 1;
	}
	return 0;
}

/* The hardware members of the group led by slot l (enabled ones only when
 * live), into idx[]; returns how many. */
int sim_group_hw(int l, int live, int *idx)
{
	int n = 0;
	for (int i = 0; i < MAXEV; i++)
		if (sim_evs[i].used && sim_evs[i].leader == l && sim_evs[i].pmu >= 0 && (!live || sim_evs[i].enabled))
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
	if (sim_fail_n > 0) {
		sim_fail_n--;
		err = sim_fail_err;
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
	if (!sim_cfg.privileged && (sim_cfg.paranoid >= 3 || (sim_cfg.paranoid >= 2 && !a->exclude_kernel) ||
				    (sim_cfg.paranoid >= 1 && pid == -1))) {
		err = EACCES;
		goto out;
	}
	if (sim_busy && p >= 0) {
		err = EBUSY;
		goto out;
	}
	unsigned mask = p >= 0 ? usable(p, d ? d->mask : 0) : 0;
	int leader = -1;
	if (group_fd >= 0) {
		struct sev *g = sim_ev_of(group_fd);
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
		int idx[MAXEV], n = sim_group_hw(leader, 0, idx);
		if (p >= 0 && n > 0 && sim_evs[idx[0]].pmu != p) {
			err = EINVAL;
			goto out;
		}
		if (p >= 0) {
			unsigned masks[SIM_MAX_CNTRS + 1];
			int as[SIM_MAX_CNTRS + 1];
			if (n + 1 > SIM_MAX_CNTRS) {
				err = (sim_cfg.group_err ? sim_cfg.group_err : ENOSPC);
				goto out;
			}
			for (int i = 0; i < n; i++)
				masks[i] = sim_evs[idx[i]].mask;
			masks[n] = mask;
			if (!sim_fit(masks, NULL, n + 1, 0, as)) {
				err = (sim_cfg.group_err ? sim_cfg.group_err : ENOSPC);
				goto out;
			}
		}
	} else if (p >= 0 && !mask) {
		err = EINVAL;	/* x86: no counter can ever hold it */
		goto out;
	}
	int s;
	for (s = 0; s < MAXEV && sim_evs[s].used; s++)
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
	struct sev *e = &sim_evs[s];
	memset(e, 0, sizeof *e);
	e->used = 1;
	e->fd = fd;
	e->pmu = p;
	e->attr = *a;
	e->leader = leader >= 0 ? leader : s;
	e->seq = sim_seqno++;
	e->enabled = !a->disabled && !a->enable_on_exec;
	e->mask = mask;
	e->num = d ? d->num : 1;
	e->den = d ? d->den : 1;
	e->counter = -1;
	e->id = sim_next_id++;
	if (a->sample_period) {
		e->period = a->freq ? (a->sample_freq ? 1000000000ull / a->sample_freq : 1)
				    : a->sample_period;
		if (!e->period)
			e->period = 1;
		e->left = e->period;
	}
	if (leader < 0)
		sim_order[sim_norder++] = s;
	sim_nopens++;
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
	for (int i = 0; i < sim_norder; i++)
		if (sim_order[i] == s) {
			memmove(&sim_order[i], &sim_order[i + 1], (size_t)(sim_norder - i - 1) * sizeof *sim_order);
			sim_norder--;
			return;
		}
}

/* Close slot s; a closed leader's members become singleton groups. */
static void ev_close(int s)
{
	if (sim_evs[s].leader == s) {
		order_remove(s);
		for (int i = 0; i < MAXEV; i++)
			if (sim_evs[i].used && i != s && sim_evs[i].leader == s) {
				sim_evs[i].leader = i;
				sim_order[sim_norder++] = i;
			}
	}
	sim_evs[s].used = 0;
	sim_evs[s].fd = -1;
}

static int sim_close(int fd)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = sim_ev_of(fd);
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
		if (sim_evs[i].used && i != l && sim_evs[i].leader == l)
			idx[n++] = i;
	for (int i = 2; i < n; i++)	/* insertion sort by seq, leader stays first */
		for (int j = i; j > 1 && sim_evs[idx[j]].seq < sim_evs[idx[j - 1]].seq; j--) {
			int t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	return n;
}

static ssize_t sim_read(int fd, void *buf, size_t len)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = sim_ev_of(fd);
	if (!e) {
		pthread_mutex_unlock(&sim_lock);
		return read(fd, buf, len);
	}
	uint64_t out[3 + 3 * MAXEV];
	size_t n = 0;
	sim_nreads++;
	uint64_t rf = e->attr.read_format;
	const struct sev *l = &sim_evs[e->leader];
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
			out[n++] = sim_evs[idx[i]].count;
			if (rf & PERF_FORMAT_ID)
				out[n++] = sim_evs[idx[i]].id;
			if (rf & PERF_FORMAT_LOST)
				out[n++] = sim_evs[idx[i]].lost;
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


/* Apply op to e, or to its whole group with PERF_IOC_FLAG_GROUP. */
static void for_group(struct sev *e, int group, void (*op)(struct sev *, uint64_t), uint64_t arg)
{
	if (!group) {
		op(e, arg);
		return;
	}
	int idx[MAXEV], m = group_members(e->leader, idx);
	for (int i = 0; i < m; i++)
		op(&sim_evs[idx[i]], arg);
}

static void op_enable(struct sev *e, uint64_t arg)
{
	e->enabled = 1;
	e->error = 0;
	sim_page_update(e);
}

static void op_disable(struct sev *e, uint64_t arg)
{
	e->enabled = 0;
	sim_page_update(e);
}

static void op_reset(struct sev *e, uint64_t arg)
{
	/* The kernel zeroes the count only; enabled/running times go on. */
	e->count = 0;
	if (e->period)
		e->left = e->period;
	sim_page_update(e);
}

static int sim_ioctl(int fd, unsigned long req, unsigned long arg)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = sim_ev_of(fd);
	int err = 0;
	if (!e) {
		pthread_mutex_unlock(&sim_lock);
		return ioctl(fd, req, arg);
	}
	int group = (arg & PERF_IOC_FLAG_GROUP) != 0;
	sim_nioctls++;
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
		/* As the kernel: 0 enables without a limit (PAPI re-arms so). */
		if (!e->period || e->attr.inherit) {
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

static int sim_fcntl(int fd, int cmd, long arg)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = sim_ev_of(fd);
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
	for (int p = 0; p < sim_cfg.npmus; p++)
		if (strcmp(sim_cfg.pmu[p].name, name) == 0)
			t = sim_cfg.pmu[p].type;
	pthread_mutex_unlock(&sim_lock);
	return t;
}

static int sim_paranoid(void)
{
	return sim_cfg.paranoid;
}

static int sim_privileged(void)
{
	return sim_cfg.privileged;
}

static struct sys_ops sim_ops = {
	.perf_open = sim_open,
	.read = sim_read,
	.ioctl = sim_ioctl,
	.mmap = sim_mmap,
	.munmap = sim_munmap,
	.close = sim_close,
	.fcntl = sim_fcntl,
	.pmu_type = sim_pmu_type,
	.rdpmc = sim_rdpmc_op,
	.tsc = sim_tsc_op,
	.paranoid = sim_paranoid,
	.privileged = sim_privileged,
};

/* ------------------------------------------------------------------ setup and introspection */

struct sim_config sim_default_config(void)
{
	struct sim_config c = { .npmus = 1, .paranoid = 1, .tick = 4000000, .rdpmc = 1 };
	c.pmu[0] = (struct sim_pmu_desc){ "cpu", PERF_TYPE_RAW, 4, 3, 48, "" };
	return c;
}

struct sim_config sim_hybrid_config(void)
{
	struct sim_config c = sim_default_config();
	c.npmus = 2;
	c.pmu[0] = (struct sim_pmu_desc){ "cpu_core", PERF_TYPE_RAW, 8, 4, 48, "" };
	c.pmu[1] = (struct sim_pmu_desc){ "cpu_atom", 10, 6, 3, 48, "" };
	return c;
}

static void closeall(void)
{
	for (int i = 0; i < MAXEV; i++)
		if (sim_evs[i].used) {
			close(sim_evs[i].fd);
			sim_evs[i].used = 0;
		}
	for (int i = 0; i < MAXMAP; i++)
		if (sim_maps[i].addr) {
			munmap(sim_maps[i].addr, sim_maps[i].len);
			sim_maps[i].addr = NULL;
		}
}

/* The simulated kernel's PMU directory (see sim_pmu.h), and the process
 * that made it: a forked child's exit must not remove its parent's tree. */
static char sim_dir[PATH_MAX];
static pid_t sim_dir_owner;

static void sysfs_remove(void)
{
	if (sim_dir[0] && getpid() == sim_dir_owner)
		fs_remove(sim_dir);
	sim_dir[0] = '\0';
}

/* A fresh tree for sim_cfg: NAME/type of each PMU and of "software", and
 * NAME/cpus for the PMUs the kernel marks so (all but a plain "cpu"). */
static void sysfs_make(void)
{
	static int registered;
	char buf[64], rel[96];
	sysfs_remove();
	if (fs_make(sim_dir) < 0) {
		sim_dir[0] = '\0';
		return;
	}
	sim_dir_owner = getpid();
	if (!registered++)
		atexit(sysfs_remove);
	fs_write(sim_dir, "software/type", "1");
	for (int p = 0; p < sim_cfg.npmus; p++) {
		snprintf(rel, sizeof rel, "%s/type", sim_cfg.pmu[p].name);
		snprintf(buf, sizeof buf, "%d", sim_cfg.pmu[p].type);
		fs_write(sim_dir, rel, buf);
		if (sim_cfg.pmu[p].cpumask[0]) {
			snprintf(rel, sizeof rel, "%s/cpumask", sim_cfg.pmu[p].name);
			fs_write(sim_dir, rel, sim_cfg.pmu[p].cpumask);
		} else if (strcmp(sim_cfg.pmu[p].name, "cpu") != 0) {
			snprintf(rel, sizeof rel, "%s/cpus", sim_cfg.pmu[p].name);
			snprintf(buf, sizeof buf, "%d", p);
			fs_write(sim_dir, rel, buf);
		}
	}
}

const char *sim_sysfs_dir(void)
{
	return sim_dir;
}

int sim_sysfs_write(const char *rel, const char *text)
{
	if (!sim_dir[0]) {
		errno = ENOENT;
		return -1;
	}
	return fs_write(sim_dir, rel, text);
}

void sim_install(const struct sim_config *c)
{
	pthread_mutex_lock(&sim_lock);
	closeall();
	sim_cfg = *c;
	if (!sim_cfg.tick)
		sim_cfg.tick = 4000000;
	if (sim_cfg.npmus > SIM_MAX_PMUS)
		sim_cfg.npmus = SIM_MAX_PMUS;
	for (int p = 0; p < sim_cfg.npmus; p++) {
		if (sim_cfg.pmu[p].width <= 0 || sim_cfg.pmu[p].width > 64)
			sim_cfg.pmu[p].width = 48;
		if (sim_cfg.pmu[p].ngeneral > 8)
			sim_cfg.pmu[p].ngeneral = 8;
		if (sim_cfg.pmu[p].nfixed > 8)
			sim_cfg.pmu[p].nfixed = 8;
	}
	memset(sim_raw, 0, sizeof sim_raw);
	sim_ndecls = sim_norder = sim_npend = sim_seqno = sim_nopens = sim_fail_n = sim_busy = 0;
	sim_now_ns = 0;
	sim_ip = 0x400000;
	sim_next_id = 1;
	sim_nsignals = sim_nreads = sim_nrdpmcs = sim_nioctls = 0;
	sim_interfere_n = 0;
	sysfs_make();
	sim_ops.pmu_dir = sim_dir[0] ? sim_dir : NULL;
	pthread_mutex_unlock(&sim_lock);
	sys_set_ops(&sim_ops);
}

void sim_uninstall(void)
{
	sys_set_ops(NULL);
	pthread_mutex_lock(&sim_lock);
	closeall();
	sysfs_remove();
	pthread_mutex_unlock(&sim_lock);
}

void sim_set_ip(uint64_t v)
{
	pthread_mutex_lock(&sim_lock);
	sim_ip = v;
	pthread_mutex_unlock(&sim_lock);
}

void sim_fail_next(int err, int n)
{
	pthread_mutex_lock(&sim_lock);
	sim_fail_err = err;
	sim_fail_n = n;
	pthread_mutex_unlock(&sim_lock);
}

void sim_set_busy(int on)
{
	pthread_mutex_lock(&sim_lock);
	sim_busy = on;
	pthread_mutex_unlock(&sim_lock);
}

int sim_open_count(void)
{
	int n = 0;
	pthread_mutex_lock(&sim_lock);
	for (int i = 0; i < MAXEV; i++)
		n += sim_evs[i].used;
	pthread_mutex_unlock(&sim_lock);
	return n;
}

int sim_opens_total(void)
{
	return __atomic_load_n(&sim_nopens, __ATOMIC_RELAXED);
}

const struct perf_event_attr *sim_attr(int fd)
{
	pthread_mutex_lock(&sim_lock);
	struct sev *e = sim_ev_of(fd);
	pthread_mutex_unlock(&sim_lock);
	return e ? &e->attr : NULL;
}

int64_t sim_rdpmc(int fd, uint32_t idx)
{
	int64_t r = -1;
	pthread_mutex_lock(&sim_lock);
	struct sev *e = sim_ev_of(fd);
	int c = sim_counter_of(idx);
	if (e && e->pmu >= 0 && c >= 0)
		r = (int64_t)sim_raw[e->pmu][c];
	pthread_mutex_unlock(&sim_lock);
	return r;
}

static uint64_t ev_stat(int fd, int what)
{
	uint64_t v = 0;
	pthread_mutex_lock(&sim_lock);
	struct sev *e = sim_ev_of(fd);
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
	return __atomic_load_n(&sim_nsignals, __ATOMIC_RELAXED);
}

void sim_rdpmc_interfere(int n)
{
	pthread_mutex_lock(&sim_lock);
	sim_interfere_n = n;
	pthread_mutex_unlock(&sim_lock);
}

/* One of the simulator's call counters, read under its lock. */
static uint64_t counter_get(const uint64_t *c)
{
	pthread_mutex_lock(&sim_lock);
	uint64_t n = *c;
	pthread_mutex_unlock(&sim_lock);
	return n;
}

uint64_t sim_rdpmcs(void)
{
	return counter_get(&sim_nrdpmcs);
}

uint64_t sim_ioctls(void)
{
	return counter_get(&sim_nioctls);
}

uint64_t sim_reads(void)
{
	return counter_get(&sim_nreads);
}

int sim_maps_live(void)
{
	int n = 0;
	pthread_mutex_lock(&sim_lock);
	for (int i = 0; i < MAXMAP; i++)
		n += sim_maps[i].addr != NULL;
	pthread_mutex_unlock(&sim_lock);
	return n;
}

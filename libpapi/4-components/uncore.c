/* uncore.c: the perf_event_uncore component: the kernel's uncore and other non-core PMUs (memory controllers, caches, power), each event opened CPU-wide on one CPU per socket or die and counted (uncore.h: the modules it calls). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "4-components/uncore.h"

struct ucnt {			/* one event of a set: a counter on each CPU */
	int nfd;
	int *fd;		/* one per socket or die (or CPU) it opens on */
	uint64_t (*base)[3];	/* each one's count, time enabled, time running at start */
	long double mult;
};
struct uset {
	int n;
	struct ucnt *c;
	long long *stopped;
};

static void close_all(struct uset *u)
{
	for (int i = 0; u && i < u->n; i++) {
		for (int f = 0; f < u->c[i].nfd; f++)
			sys->close(u->c[i].fd[f]);
		u->c[i].nfd = 0;
		free(u->c[i].fd);
		free(u->c[i].base);
		u->c[i].fd = NULL;
		u->c[i].base = NULL;
	}
}

/* Open event e on each of its CPUs into c (lock held). */
static int open_one(struct uev *e, struct ucnt *c)
{
	int r = unc_encode(e);
	if (r != PAPI_OK)
		return r;
	const struct upmu *u = &unc_pmus[e->pmu];
	int one = e->cpu, n = one >= 0 ? 1 : u->ncpu;
	c->fd = calloc((size_t)n, sizeof *c->fd);
	c->base = calloc((size_t)n, sizeof *c->base);
	if (!c->fd || !c->base)
		return PAPI_ENOMEM;	/* close_all frees what was allocated */
	c->mult = e->mult;
	for (c->nfd = 0; c->nfd < n; c->nfd++) {
		int cpu = one >= 0 ? one : u->cpus[c->nfd];
		struct perf_event_attr a = e->attr;
		a.size = sizeof a;
		a.disabled = 1;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.inherit = 0;
		int fd = sys->perf_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			int err = errno;
			char why[PAPI_HUGE_STR_LEN];
			pe_advice(err, e->name, &a, -1, cpu, NULL, why, sizeof why);
			papi_set_reason("%s", why);
			return pe_errno_to_papi(err);
		}
		c->fd[c->nfd] = fd;
	}
	return PAPI_OK;
}

static int un_update(struct cmp_set *s)
{
	struct uset *u = s->priv;
	if (!u && !(u = s->priv = calloc(1, sizeof *u)))
		return PAPI_ENOMEM;
	close_all(u);
	free(u->c);
	free(u->stopped);
	u->n = 0;
	u->c = calloc((size_t)(s->n ? s->n : 1), sizeof *u->c);
	u->stopped = calloc((size_t)(s->n ? s->n : 1), sizeof *u->stopped);
	if (!u->c || !u->stopped)
		return PAPI_ENOMEM;
	int r = PAPI_OK;
	pthread_mutex_lock(&unc_lock);
	for (int i = 0; i < s->n && r == PAPI_OK; i++) {
		struct uev *e = unc_get(s->ev[i]);
		u->n = i + 1;
		r = e ? open_one(e, &u->c[i]) : PAPI_ENOEVNT;
	}
	pthread_mutex_unlock(&unc_lock);
	if (r != PAPI_OK) {
		close_all(u);
		u->n = 0;
	}
	return r;
}

/* Read counter f of event i: count, time enabled, time running. */
static int read_fd(const struct ucnt *c, int f, uint64_t v[3])
{
	ssize_t n = sys->read(c->fd[f], v, 3 * sizeof *v);
	if (n != (ssize_t)(3 * sizeof *v)) {
		papi_set_reason("perf_event_uncore: reading a counter failed: %s",
				n < 0 ? strerror(errno) : "short read");
		return PAPI_ESYS;
	}
	return PAPI_OK;
}

/* Each event's value since its base; with take, the reading becomes the
 * base (nothing falls between a read and a reset). */
static int values(struct uset *u, long long *v, int take)
{
	for (int i = 0; i < u->n; i++) {
		struct ucnt *c = &u->c[i];
		long double sum = 0;
		for (int f = 0; f < c->nfd; f++) {
			uint64_t now[3];
			int r = read_fd(c, f, now);
			if (r != PAPI_OK)
				return r;
			uint64_t d = now[0] - c->base[f][0], ena = now[1] - c->base[f][1],
				 run = now[2] - c->base[f][2];
			/* multiplexed: scaled by the time it ran, as perf does */
			sum += run && run < ena ? (long double)d * ena / run : run ? (long double)d : 0;
			if (take)
				memcpy(c->base[f], now, sizeof now);
		}
		v[i] = (long long)(sum * c->mult + 0.5L);	/* counts are never negative */
	}
	return PAPI_OK;
}

static int set_base(struct uset *u)
{
	for (int i = 0; i < u->n; i++)
		for (int f = 0; f < u->c[i].nfd; f++) {
			int r = read_fd(&u->c[i], f, u->c[i].base[f]);
			if (r != PAPI_OK)
				return r;
		}
	return PAPI_OK;
}

static int enable(struct uset *u, unsigned long req)
{
	for (int i = 0; i < u->n; i++)
		for (int f = 0; f < u->c[i].nfd; f++)
			if (sys->ioctl(u->c[i].fd[f], req, 0) < 0) {
				papi_set_reason("perf_event_uncore: ioctl on a counter failed: %s",
						strerror(errno));
				return PAPI_ESYS;
			}
	return PAPI_OK;
}

static int un_start(struct cmp_set *s)
{
	struct uset *u = s->priv;
	int r = enable(u, PERF_EVENT_IOC_ENABLE);
	if (r == PAPI_OK)
		r = set_base(u);
	if (r == PAPI_OK)
		memset(u->stopped, 0, (size_t)u->n * sizeof *u->stopped);
	return r;
}

static int un_stop(struct cmp_set *s, long long *v)
{
	struct uset *u = s->priv;
	int r = values(u, u->stopped, 0);
	int d = enable(u, PERF_EVENT_IOC_DISABLE);
	if (r == PAPI_OK && v)
		memcpy(v, u->stopped, (size_t)u->n * sizeof *v);
	return r != PAPI_OK ? r : d;
}

static int un_read(struct cmp_set *s, long long *v)
{
	struct uset *u = s->priv;
	if (!s->running) {
		memcpy(v, u->stopped, (size_t)u->n * sizeof *v);
		return PAPI_OK;
	}
	return values(u, v, 0);
}

static int un_reset(struct cmp_set *s)
{
	struct uset *u = s->priv;
	if (!s->running) {
		memset(u->stopped, 0, (size_t)u->n * sizeof *u->stopped);
		return PAPI_OK;
	}
	return set_base(u);
}

static int un_accum(struct cmp_set *s, long long *v)
{
	struct uset *u = s->priv;
	if (!s->running) {
		memcpy(v, u->stopped, (size_t)u->n * sizeof *v);
		memset(u->stopped, 0, (size_t)u->n * sizeof *u->stopped);
		return PAPI_OK;
	}
	return values(u, v, 1);
}

static void un_release(struct cmp_set *s)
{
	struct uset *u = s->priv;
	if (u) {
		close_all(u);
		free(u->c);
		free(u->stopped);
		free(u);
	}
	s->priv = NULL;
}

/* Uncore counting is CPU-wide: say so before anything is opened. */
static int un_access(char *why, size_t len)
{
	if (pe_cpu_allowed())
		return PAPI_OK;
	snprintf(why, len, "uncore PMUs count whole sockets (CPU-wide, pid -1): that needs "
		 "perf_event_paranoid 0 or lower (it is %d) or CAP_PERFMON: set "
		 "/proc/sys/kernel/perf_event_paranoid to 0, or run as root or with CAP_PERFMON",
		 sys->paranoid());
	return PAPI_EPERM;
}

const struct component cmp_uncore = {
	.name = "perf_event_uncore",
	.short_name = "peu",
	.description = "Linux perf_event CPU uncore and northbridge",
	.granularity = PAPI_GRN_SYS,
	.init = unc_init,
	.shutdown = unc_shutdown,
	.nevents = unc_nevents,
	.event = unc_event,
	.lookup = unc_lookup,
	.bare_names = 1,
	.access = un_access,
	.update = un_update,
	.start = un_start,
	.stop = un_stop,
	.read = un_read,
	.reset = un_reset,
	.accum = un_accum,
	.release = un_release,
};

/* es_open.c: an EventSet's counters opened as perf groups (one per kernel PMU, or each alone when multiplexing), checked to be schedulable, and closed, with the hooks of the modules that keep state per counter. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "5-core/core.h"

/* The hooks of the modules that keep state per set (core.h). */
PAPI_FIRST_DATA const struct es_hooks *es_hook_tbl[ES_MAX_HOOKS];
PAPI_FIRST_DATA int es_nhooks;

/* Close counter h of es: its user page first, then its descriptor. */
void es_hw_close(EventSet_t *es, int h)
{
	ES_EACH_HOOK(closing, es, h);
	sys->close(es->hw[h].fd);
	es->hw[h].fd = -1;
}

void es_close_all(EventSet_t *es)
{
	es->frozen = 0;
	ES_EACH_HOOK(closing_all, es);	/* ring buffers go before their fds */
	for (int i = 0; i < es->nhw; i++) {
		/* members first, leaders last: closing a leader first would
		 * promote its members to singleton groups for nothing. */
		if (es->hw[i].fd >= 0 && es->groups[es->hw[i].group].leader != es->hw[i].fd)
			es_hw_close(es, i);
	}
	for (int i = 0; i < es->nhw; i++)
		if (es->hw[i].fd >= 0)
			es_hw_close(es, i);
	es->ngroups = 0;
}

/* Which group a counter joins: one group per kernel PMU; the generic
 * hardware types live on the core PMU. */
static int group_key(const struct perf_event_attr *a)
{
	/* A generic event goes to the core PMU whose type the upper half of
	 * its config names (a hybrid's cpu_atom), else to the first. */
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) {
		uint32_t ext = (uint32_t)(a->config >> 32);
		return ext ? (int)ext : PERF_TYPE_RAW;
	}
	/* The only core PMU may have a type of its own (ARM's), which its raw
	 * events name: they share the group of the core's other events. */
	if (a->type >= PERF_TYPE_MAX && kpmu_core_count() == 1)
		for (int i = 0; i < kpmu_count(); i++)
			if (kpmu_get(i)->core && kpmu_get(i)->type == (int)a->type)
				return PERF_TYPE_RAW;
	return (int)a->type;
}

int es_grow(void **p, int *cap, int need, size_t sz)
{
	if (need <= *cap)
		return PAPI_OK;
	int n = *cap ? *cap * 2 : 8;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, (size_t)n * sz);
	if (!q)
		return PAPI_ENOMEM;
	memset((char *)q + (size_t)*cap * sz, 0, (size_t)(n - *cap) * sz);
	*p = q;
	*cap = n;
	return PAPI_OK;
}

/* The attribute a counter is opened with: the native encoding plus this
 * set's domain, inheritance and read format. */
static void hw_attr(const EventSet_t *es, const struct native *n, int leader,
		    struct perf_event_attr *a)
{
	*a = n->attr;
	a->size = sizeof *a;
	if (!n->has_domain_mod) {
		a->exclude_user = !(es->domain & PAPI_DOM_USER);
		a->exclude_kernel = !(es->domain & PAPI_DOM_KERNEL);
		a->exclude_hv = !(es->domain & PAPI_DOM_SUPERVISOR);
	}
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->disabled = leader;
	a->inherit = es->inherit ? 1 : 0;
	a->enable_on_exec = leader && es->enable_on_exec;
}

/* Whether the group g of es could get its counters: the kernel checks a new
 * member against the group's, but on arm64 it leaves the disabled leader
 * out of that count, so a group one event too large is accepted and then
 * never counts. Enabling the group once, on the calling thread, shows it:
 * its enabled time grows, its running time does not. (The next start
 * resets the counts and takes its own time base.)
 * Returns 0 only when the group was seen not to run. */
static int group_runs(EventSet_t *es, int g)
{
	int fd = es->groups[g].leader;
	size_t want = (3 + (size_t)es->groups[g].n) * sizeof(uint64_t);
	if (sys->read(fd, es->rbuf, want) != (ssize_t)want)
		return 1;
	uint64_t en = es->rbuf[1], run = es->rbuf[2];
	if (sys->ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		return 1;
	sys->ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (sys->read(fd, es->rbuf, want) != (ssize_t)want)
		return 1;
	return !(es->rbuf[1] > en && es->rbuf[2] == run);
}

/* The trial of group_runs is made where it can tell: a hardware PMU's
 * counters, counting the calling thread itself (an attached or CPU-wide
 * target need not run meanwhile), neither multiplexed (the kernel rotates
 * those) nor sampling (the trial would eat into the first period). */
static int group_trial(const EventSet_t *es, int key)
{
	return key != PERF_TYPE_SOFTWARE && key != PERF_TYPE_TRACEPOINT && !es->multiplex &&
	       !es->overflow && !es->attach && es->cpu < 0 && es->owner == papi_gettid();
}

/* Open counter h of es, into its PMU's group (or alone when multiplexing).
 * Kernel multiplexing still groups the software events: the kernel never
 * rotates them (no counter limit), so apart they would only cost one
 * ioctl and one read() each per start, stop and read. Software
 * multiplexing rotates each counter alone, software events included.
 * On failure nothing stays open; a failure caused only by the other
 * members of the group is PAPI_ECNFLCT. */
int es_hw_open(EventSet_t *es, int h)
{
	es->frozen = 0;
	struct es_hw *hw = &es->hw[h];
	const struct native *n = native_get(hw->ntv);
	if (!n)
		return PAPI_EBUG;
	int key = es->one_group ? -1 : group_key(&n->attr), g = -1;
	/* :cpu=N in the name counts the set's task (or CPU) on CPU N only; the
	 * kernel groups only events of one CPU. */
	int cpu = n->on_cpu ? n->on_cpu - 1 : es->cpu;
	if (!es->multiplex || (key == PERF_TYPE_SOFTWARE && es->multiplex == 1))
		for (int i = 0; i < es->ngroups; i++)
			if (es->groups[i].kernel_type == key && es->groups[i].cpu == cpu)
				g = i;
	struct perf_event_attr a;
	hw_attr(es, n, g < 0, &a);
	ES_EACH_HOOK(attr, es, h, &a);
	/* The owner's tid, not 0: a set counts its owner whichever thread
	 * adds the events; CPU-wide (pid -1) when bound to a CPU only. */
	pid_t pid = es->attach ? es->attach : es->cpu >= 0 ? -1 : es->owner;
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	if (es->cgroup_fd >= 0) {	/* the cgroup's tasks on that CPU */
		pid = es->cgroup_fd;
		flags |= PERF_FLAG_PID_CGROUP;
	}
	int fd = sys->perf_open(&a, pid, cpu, g < 0 ? -1 : es->groups[g].leader, flags);
	if (fd < 0) {
		int err = errno, ret = pe_errno_to_papi(err);
		char why[512];
		if (g >= 0) {
			/* Does it open alone? Then the group is the obstacle. */
			struct perf_event_attr solo;
			hw_attr(es, n, 1, &solo);
			ES_EACH_HOOK(attr, es, h, &solo);
			int sfd = sys->perf_open(&solo, pid, cpu, -1, flags);
			if (sfd >= 0) {
				sys->close(sfd);
				papi_set_reason("%s: conflicts with the events already in this EventSet "
						"(no counter can hold them all together)", n->name);
				return PAPI_ECNFLCT;
			}
			err = errno;
			ret = pe_errno_to_papi(err);
		}
		int generic = a.type == PERF_TYPE_HARDWARE || a.type == PERF_TYPE_HW_CACHE;
		const char *core_why = generic ? pmu_generic_unavailable_reason()
				       : a.type == PERF_TYPE_RAW || a.type >= PERF_TYPE_MAX
				       ? pmu_core_unavailable_reason() : NULL;
		/* a cgroup is counted as a CPU is, and the kernel checks it so */
		pe_advice(err, n->name, &a, es->cgroup_fd >= 0 ? -1 : pid, cpu, core_why, why, sizeof why);
		papi_set_reason("%s", why);
		/* A PMU the kernel does not have makes the event uncountable
		 * here: PAPI reports such an event as not existing. */
		if (ret == PAPI_EINVAL && pmu_get(n->pmu) && pmu_get(n->pmu)->kernel_type < 0)
			ret = PAPI_ENOEVNT;
		return ret;
	}
	if (g < 0) {
		if (es_grow((void **)&es->groups, &es->cap_groups, es->ngroups + 1, sizeof *es->groups)) {
			sys->close(fd);
			return PAPI_ENOMEM;
		}
		g = es->ngroups++;
		es->groups[g] = (struct es_group){ .leader = fd, .n = 0, .kernel_type = key, .cpu = cpu };
	}
	hw->fd = fd;
	hw->group = g;
	hw->slot = es->groups[g].n++;
	size_t need = 3 + (size_t)es->groups[g].n;
	if (need > es->rbuf_len) {
		uint64_t *b = realloc(es->rbuf, need * sizeof *b);
		if (!b)
			return PAPI_ENOMEM;	/* fd stays: es_close_all reaps it */
		es->rbuf = b;
		es->rbuf_len = need;
	}
	if (group_trial(es, key) && !group_runs(es, g)) {
		sys->close(fd);
		hw->fd = -1;
		if (--es->groups[g].n == 0)
			es->ngroups--;	/* it was this counter's own, the last one */
		papi_set_reason("%s: the kernel took it but cannot schedule it%s (no counters free "
				"for them all)", n->name,
				es->groups[g].n ? " with the events already in this EventSet" : "");
		return PAPI_ECNFLCT;
	}
	for (int i = 0; i < es_nhooks; i++) {
		int ret = es_hook_tbl[i]->opened ? es_hook_tbl[i]->opened(es, h) : PAPI_OK;
		if (ret != PAPI_OK)
			return ret;
	}
	return PAPI_OK;
}

int es_reopen(EventSet_t *es)
{
	es_close_all(es);
	for (int h = 0; h < es->nhw; h++) {
		/* new descriptors count from zero */
		es->hw[h].base_count = es->hw[h].base_en = es->hw[h].base_run = 0;
		es->hw[h].last = 0;
	}
	for (int h = 0; h < es->nhw; h++) {
		int ret = es_hw_open(es, h);
		if (ret != PAPI_OK) {
			es_close_all(es);
			return ret;
		}
	}
	return PAPI_OK;
}


/* pmus.c: the PMUs events are named on: libpfm4's, each matched to its kernel PMU, and the kernel's core PMUs libpfm4 does not know. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "3-naming/naming.h"

#include <perfmon/pfmlib.h>

/*
 * libpfm4 names the events of the PMUs it recognizes (from CPUID or
 * /proc/cpuinfo); the kernel counts on the PMUs its drivers registered
 * (kpmu.c). Each libpfm4 PMU is matched to its kernel PMU by name. A kernel
 * core PMU that no libpfm4 PMU matches (a CPU newer than libpfm4, or the
 * second core type of a hybrid) gets an entry of its own, whose events are
 * named from sysfs (native_sysfs.c), and so does each kernel PMU that is no
 * core's but counts per task (msr, kpmu_per_task). Hardware events can be
 * counted when some core PMU of the list is in the kernel.
 */

PAPI_FIRST_DATA static pthread_mutex_t pm_lock = PTHREAD_MUTEX_INITIALIZER;
PAPI_FIRST_DATA static atomic_int pm_ready;
PAPI_FIRST_DATA static int pm_err;
PAPI_FIRST_DATA static int pfm_up;	/* pfm_initialize succeeded: pfm_terminate at shutdown */
PAPI_FIRST_DATA static struct pmu *pmus;
PAPI_FIRST_DATA static int npmus;
PAPI_FIRST_DATA static int core_pmu = -1;	/* index of libpfm4's first core PMU, -1 none */
PAPI_FIRST_DATA static int nevents_pfm;
PAPI_FIRST_DATA static const char *core_reason;
static char core_reason_buf[400];
static char generic_buf[320];
static char forced_buf[160];

#define NO_DRIVER "no hardware PMU driver: this kernel exposes only software events (in a VM, enable the virtual PMU)"

/* Is the kernel core PMU called name claimed by an entry already? */
static int claimed(const char *name)
{
	for (int i = 0; i < npmus; i++)
		if (pmus[i].kernel_type >= 0 && !strcmp(pmus[i].kernel_name, name))
			return 1;
	return 0;
}

/* The sysfs device of libpfm4 PMU p (its type, -1 when the kernel lacks
 * it). The core PMU is "cpu" on x86, "cpu_core"/"cpu_atom" on hybrids,
 * "armv8_pmuv3_0" or "armv8_cortex_a72" on ARM: a core PMU none of the
 * usual names fits takes the first kernel core PMU no other entry took. */
static int pmu_kernel_lookup(struct pmu *p, const char *core_name)
{
	static const char *const x86_core[] = { "cpu", "cpu_core", NULL };
	static const char *const x86_atom[] = { "cpu_atom", "cpu", NULL };
	static const char *const arm_core[] = { "armv8_pmuv3", "armv8_pmuv3_0", "armv8_pmuv3_1",
						"cpu", NULL };
	const char *const *cand = NULL;
	const char *single[2] = { NULL, NULL };
	char buf[64];

	if (strcmp(p->name, "perf") == 0) {
		single[0] = "software";
	} else if (strcmp(p->name, "perf_raw") == 0) {
		single[0] = core_name;
	} else if (p->pfm_type == PFM_PMU_TYPE_CORE) {
		if (strncmp(p->name, "arm_", 4) == 0)
			cand = arm_core;
		else if (strstr(p->name, "_grt") || strstr(p->name, "_cmt"))
			cand = x86_atom;
		else
			cand = x86_core;
	} else {
		int t = pmu_uncore_kernel(p->name, buf, sizeof buf);
		snprintf(p->kernel_name, sizeof p->kernel_name, "%s", buf);
		return t;
	}
	if (!cand)
		cand = single;
	for (; *cand; cand++) {
		int t = sys->pmu_type(*cand);
		if (t >= 0) {
			snprintf(p->kernel_name, sizeof p->kernel_name, "%s", *cand);
			return t;
		}
	}
	snprintf(p->kernel_name, sizeof p->kernel_name, "%s", cand[-1] ? cand[-1] : "");
	if (p->pfm_type == PFM_PMU_TYPE_CORE)
		for (int i = 0; i < kpmu_count(); i++) {
			const struct kpmu *k = kpmu_get(i);
			if (k->core && !claimed(k->name)) {
				snprintf(p->kernel_name, sizeof p->kernel_name, "%s", k->name);
				return k->type;
			}
		}
	return -1;
}

static struct pmu *pm_append(void)
{
	if (!(npmus & (npmus - 1)) && npmus >= 8) {	/* full at 8, 16, 32 ... */
		struct pmu *n = realloc(pmus, 2 * (size_t)npmus * sizeof *pmus);
		if (!n)
			return NULL;
		pmus = n;
	}
	memset(&pmus[npmus], 0, sizeof *pmus);
	return &pmus[npmus++];
}

/* How many counters core PMU k can use at once, as far as the kernel says:
 * a group of its generic instruction events grows until the kernel refuses
 * it (both x86 and ARM drivers check at open that a group fits, but only
 * its enabled members: these count, for the moment they are open). That
 * is its general counters, plus the fixed one for instructions on Intel;
 * 0 when not even one opens (no permission, no such event). */
static int probe_counters(const struct kpmu *k)
{
	int fds[32], n = 0;
	for (; n < 32; n++) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof a);
		a.size = sizeof a;
		a.type = PERF_TYPE_HARDWARE;
		a.config = PERF_COUNT_HW_INSTRUCTIONS;
		if (kpmu_core_count() > 1)	/* which core type: see native_sysfs.c */
			a.config |= (uint64_t)k->type << 32;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fds[n] = sys->perf_open(&a, 0, -1, n ? fds[0] : -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[n] < 0)
			break;
	}
	for (int i = n - 1; i >= 0; i--)
		sys->close(fds[i]);
	return n;
}

/* Entries named from sysfs for the kernel's PMUs no libpfm4 PMU took: its
 * core PMUs (cores), or else those that count per task without being a
 * core's (msr), which perf counts as it counts the core's events. */
static int add_sysfs(int cores)
{
	for (int i = 0; i < kpmu_count(); i++) {
		const struct kpmu *k = kpmu_get(i);
		if ((cores ? !k->core : !kpmu_per_task(k)) || claimed(k->name))
			continue;
		struct pmu *p = pm_append();
		if (!p)
			return PAPI_ENOMEM;
		p->pfm_pmu = -1;
		p->pfm_type = cores ? PFM_PMU_TYPE_CORE : PFM_PMU_TYPE_OS_GENERIC;
		p->sysfs = 1;
		p->kernel_type = k->type;
		p->num_cntrs = cores ? probe_counters(k) : 0;
		snprintf(p->name, sizeof p->name, "%s", k->name);
		snprintf(p->kernel_name, sizeof p->kernel_name, "%s", k->name);
		if (cores)
			snprintf(p->desc, sizeof p->desc, "%s%.60s (kernel driver, events from sysfs)",
				 k->cpus[0] ? "core PMU of CPUs " : "core PMU", k->cpus);
		else
			snprintf(p->desc, sizeof p->desc, "kernel PMU counting per task, every "
				 "privilege level (events from sysfs)");
	}
	return PAPI_OK;
}

/* The kernel's names of libpfm4's uncore PMUs that the pattern below does
 * not give (libpfm4 keeps them as each PMU's perf_name, not in its API). */
static const struct {
	const char *pfm, *kernel;
} unc_names[] = {
	{ "rapl", "power" },
	{ "amd64_rapl", "power" },
	{ "amd64_fam19h_zen3_l3", "amd_l3" },
	{ "amd64_fam15h_nb", "amd_nb" },
};
/* The kernel's names of the uncore units libpfm4 abbreviates. */
static const struct {
	const char *pfm, *kernel;
} unc_units[] = {
	{ "ubo", "ubox" },
	{ "cbo", "cbox" },
	{ "sbo", "sbox" },
};

/* pmu_uncore_kernel: see naming.h. libpfm4's "<cpu>_unc_<unit><n>" is the
 * kernel's "uncore_<unit>_<n>" (skx_unc_imc0: uncore_imc_0), or
 * "uncore_<unit><n>", or "uncore_<unit>" for a unit without a number. */
int pmu_uncore_kernel(const char *pfm_name, char *out, size_t len)
{
	char cand[3][80];	/* "uncore_" + a 47-byte unit + "_" + 15 digits */
	int n = 0;
	for (size_t i = 0; i < sizeof unc_names / sizeof *unc_names; i++)
		if (!strcmp(pfm_name, unc_names[i].pfm))
			snprintf(cand[n++], sizeof cand[0], "%s", unc_names[i].kernel);
	const char *u = strstr(pfm_name, "_unc_");
	if (!n && u) {
		char unit[48];
		snprintf(unit, sizeof unit, "%s", u + 5);
		size_t d = strlen(unit);
		while (d > 0 && unit[d - 1] >= '0' && unit[d - 1] <= '9')
			d--;
		char num[16];
		snprintf(num, sizeof num, "%.15s", unit + d);
		unit[d] = '\0';
		for (size_t i = 0; i < sizeof unc_units / sizeof *unc_units; i++)
			if (!strcmp(unit, unc_units[i].pfm))
				snprintf(unit, sizeof unit, "%s", unc_units[i].kernel);
		if (*num) {
			snprintf(cand[n++], sizeof cand[0], "uncore_%s_%s", unit, num);
			snprintf(cand[n++], sizeof cand[0], "uncore_%s%s", unit, num);
		} else {
			snprintf(cand[n++], sizeof cand[0], "uncore_%s", unit);
			snprintf(cand[n++], sizeof cand[0], "uncore_%s_0", unit);
		}
	}
	if (!n)
		snprintf(cand[n++], sizeof cand[0], "%s", pfm_name);
	for (int i = 0; i < n; i++) {
		const struct kpmu *k = kpmu_find(cand[i]);
		if (k && !k->core) {
			snprintf(out, len, "%s", k->name);
			return k->type;
		}
	}
	snprintf(out, len, "%s", cand[0]);
	return -1;
}

/* pmu_pfm_named: see naming.h. */
int pmu_pfm_named(const char *name, size_t n, struct pfm_pmu_brief *out)
{
	for (int i = 0; i < PFM_PMU_MAX; i++) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pfm_get_pmu_info(i, &pi) == PFM_SUCCESS && pi.name && strlen(pi.name) == n &&
		    !strncmp(pi.name, name, n)) {
			out->name = pi.name;
			out->desc = pi.desc ? pi.desc : "";
			out->core = pi.type == PFM_PMU_TYPE_CORE;
			out->present = pi.is_present;
			return 1;
		}
	}
	return 0;
}

/* Whether libpfm4 has a PMU called forced (LIBPFM_FORCE_PMU's value, up to
 * a ','), present or not: 1 a core PMU, -1 another kind, 0 none. */
static int forced_pmu_known(const char *forced)
{
	struct pfm_pmu_brief pi;
	if (!pmu_pfm_named(forced, strcspn(forced, ","), &pi))
		return 0;
	return pi.core ? 1 : -1;
}

/* core_reason and generic_buf from the list (see the accessors). */
static void pm_reasons(void)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	if (forced && !*forced)
		forced = NULL;
	int counting = 0, nsys = 0, known = forced ? forced_pmu_known(forced) : 0;
	char who[96];
	size_t len = 0;
	for (int i = 0; i < npmus; i++) {
		if (pmus[i].pfm_type != PFM_PMU_TYPE_CORE || pmus[i].kernel_type < 0)
			continue;
		counting = 1;
		if (pmus[i].sysfs)
			len += (size_t)snprintf(generic_buf + len, len < sizeof generic_buf ? sizeof generic_buf - len : 0,
						"%s%s", nsys++ ? " and " : "", pmus[i].name);
	}
	forced_buf[0] = '\0';
	if (forced && known <= 0)
		snprintf(forced_buf, sizeof forced_buf, "LIBPFM_FORCE_PMU=%.40s: %s", forced,
			 known < 0 ? "that PMU is not a CPU core's" : "libpfm4 knows no PMU of that name");
	if (forced && known <= 0 && core_pmu < 0)	/* not the CPU's fault */
		snprintf(who, sizeof who, "LIBPFM_FORCE_PMU=%.40s names no core PMU libpfm4 knows", forced);
	else
		snprintf(who, sizeof who, "libpfm4 does not know %s", core_pmu >= 0 ? "this core type"
										 : "this CPU's PMU");
	if (nsys && len < sizeof generic_buf)
		snprintf(generic_buf + len, sizeof generic_buf - len,
			 ": %s, so %s events are named from the kernel's sysfs (%s/EVENT/) and "
			 "the kernel's generic events", who, nsys > 1 ? "their" : "its", pmus[npmus - nsys].name);
	if (counting) {
		core_reason = NULL;
	} else if (forced && known <= 0 && core_pmu < 0) {
		snprintf(core_reason_buf, sizeof core_reason_buf,
			 "LIBPFM_FORCE_PMU=%.40s: %s, so no event can be named; unset it, or name "
			 "a core PMU libpfm4 knows (skx, icx, spr, amd64_fam19h_zen3, arm_n1, ...); "
			 "and " NO_DRIVER, forced,
			 known < 0 ? "that PMU is not a CPU core's" : "libpfm4 knows no PMU of that name");
		core_reason = core_reason_buf;
	} else if (core_pmu >= 0 && forced) {
		snprintf(core_reason_buf, sizeof core_reason_buf,
			 "LIBPFM_FORCE_PMU=%s: events of %s can be named and encoded, but "
			 "this kernel has no such PMU to count them", forced, pmus[core_pmu].name);
		core_reason = core_reason_buf;
	} else if (core_pmu >= 0) {
		core_reason = NO_DRIVER;
	} else {
		/* Say both halves: the encoder and the kernel each lack it. */
		core_reason = "libpfm4 does not know this CPU's PMU, so only the kernel's generic "
			      "(perf::) events can be named; and " NO_DRIVER;
	}
}

static int pm_detect(void)
{
	pmus = calloc(8, sizeof *pmus);
	if (!pmus)
		return PAPI_ENOMEM;
	for (int i = 0; i < PFM_PMU_MAX; i++) {
		pfm_pmu_info_t pi;
		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pfm_get_pmu_info(i, &pi) != PFM_SUCCESS || !pi.is_present)
			continue;
		struct pmu *p = pm_append();
		if (!p)
			return PAPI_ENOMEM;
		p->pfm_pmu = i;
		p->pfm_type = pi.type;
		p->kernel_type = -1;
		p->num_cntrs = pi.num_cntrs;
		p->num_fixed = pi.num_fixed_cntrs;
		snprintf(p->name, sizeof p->name, "%s", pi.name);
		snprintf(p->desc, sizeof p->desc, "%s", pi.desc ? pi.desc : "");
		if (pi.type == PFM_PMU_TYPE_CORE && core_pmu < 0)
			core_pmu = npmus - 1;
		if (pi.type != PFM_PMU_TYPE_UNCORE)
			nevents_pfm += pi.nevents;
	}
	/* Core PMUs first, so perf_raw follows the core's kernel device. */
	const char *core_name = "cpu";
	for (int i = 0; i < npmus; i++)
		if (pmus[i].pfm_type == PFM_PMU_TYPE_CORE)
			pmus[i].kernel_type = pmu_kernel_lookup(&pmus[i], NULL);
	int r = add_sysfs(1);
	if (r != PAPI_OK)
		return r;
	for (int i = 0; i < npmus; i++)
		if (pmus[i].pfm_type == PFM_PMU_TYPE_CORE && pmus[i].kernel_type >= 0) {
			core_name = pmus[i].kernel_name;
			break;
		}
	for (int i = 0; i < npmus; i++)
		if (pmus[i].pfm_type != PFM_PMU_TYPE_CORE && pmus[i].pfm_pmu >= 0)
			pmus[i].kernel_type = pmu_kernel_lookup(&pmus[i], core_name);
	if ((r = add_sysfs(0)) != PAPI_OK)
		return r;
	pm_reasons();
	return PAPI_OK;
}

/* pmus_init: see naming.h. Not pthread_once: pmus_shutdown() must be able
 * to start everything afresh. */
int pmus_init(void)
{
	if (atomic_load_explicit(&pm_ready, memory_order_acquire))
		return pm_err;
	pthread_mutex_lock(&pm_lock);
	if (!atomic_load_explicit(&pm_ready, memory_order_relaxed)) {
		int r = pfm_initialize();
		if (r != PFM_SUCCESS) {
			pm_err = PAPI_ECMP;
			papi_set_reason("libpfm4 initialization failed: %s", pfm_strerror(r));
		} else {
			pfm_up = 1;
			pm_err = pm_detect();
		}
		atomic_store_explicit(&pm_ready, 1, memory_order_release);
	}
	pthread_mutex_unlock(&pm_lock);
	return pm_err;
}

/* pmus_shutdown: see naming.h. */
void pmus_shutdown(void)
{
	pthread_mutex_lock(&pm_lock);
	free(pmus);
	pmus = NULL;
	npmus = nevents_pfm = 0;
	core_pmu = -1;
	core_reason = NULL;
	generic_buf[0] = '\0';
	pm_err = PAPI_OK;
	atomic_store(&pm_ready, 0);
	if (pfm_up)
		pfm_terminate();
	pfm_up = 0;
	pthread_mutex_unlock(&pm_lock);
}

/* pmu_count: number of PMUs in the list (0 when libpfm4 failed). */
int pmu_count(void)
{
	return pmus_init() == PAPI_OK ? npmus : 0;
}

/* pmu_get: PMU i of the list, or NULL when i is out of range. */
const struct pmu *pmu_get(int i)
{
	if (pmus_init() != PAPI_OK || i < 0 || i >= npmus)
		return NULL;
	return &pmus[i];
}

/* pmu_core_unavailable_reason: why hardware events cannot be counted here
 * (no core PMU in the kernel, or none libpfm4 or sysfs can name), NULL when
 * they can. */
const char *pmu_core_unavailable_reason(void)
{
	if (pmus_init() != PAPI_OK)
		return "libpfm4 initialization failed";
	return core_reason;
}

/* pmu_generic_unavailable_reason: see naming.h. Whatever keeps the core
 * PMU from counting, the kernel lacks its driver: that half alone is true
 * of the kernel's generic events, which libpfm4 names on any CPU. */
const char *pmu_generic_unavailable_reason(void)
{
	if (pmus_init() != PAPI_OK)
		return "libpfm4 initialization failed";
	return core_reason ? NO_DRIVER : NULL;
}

/* pmu_forced_unknown: see naming.h. */
const char *pmu_forced_unknown(void)
{
	if (pmus_init() != PAPI_OK || !forced_buf[0])
		return NULL;
	return forced_buf;
}

/* pmu_core_sysfs: see naming.h. */
const char *pmu_core_sysfs(void)
{
	if (pmus_init() != PAPI_OK || !generic_buf[0])
		return NULL;
	return generic_buf;
}

/* pmu_of_pfm: see naming.h. */
int pmu_of_pfm(int pfm_pmu)
{
	for (int i = 0; pfm_pmu >= 0 && i < npmus; i++)
		if (pmus[i].pfm_pmu == pfm_pmu)
			return i;
	return -1;
}

/* pmu_default_core: see naming.h. */
int pmu_default_core(void)
{
	return pmus_init() == PAPI_OK ? core_pmu : -1;
}

/* pmu_of_kernel: see naming.h. */
int pmu_of_kernel(const char *kernel_name)
{
	if (pmus_init() != PAPI_OK || !kernel_name)
		return -1;
	for (int i = 0; i < npmus; i++)
		if ((pmus[i].pfm_type == PFM_PMU_TYPE_CORE || pmus[i].sysfs) &&
		    pmus[i].kernel_type >= 0 && !strcmp(pmus[i].kernel_name, kernel_name))
			return i;
	return -1;
}

/* pmu_pfm_events: see naming.h. */
int pmu_pfm_events(void)
{
	return pmus_init() == PAPI_OK ? nevents_pfm : 0;
}

/* t_native_sw.c: software events named without libpfm4 get exactly the entries libpfm4 would make. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

#define __PERFMON_PERF_EVENT_H__
#include <perfmon/pfmlib_perf_event.h>

static const char *const events[] = {
	"PERF_COUNT_SW_CPU_CLOCK", "CPU-CLOCK", "PERF_COUNT_SW_TASK_CLOCK", "TASK-CLOCK",
	"PERF_COUNT_SW_PAGE_FAULTS", "PAGE-FAULTS", "FAULTS", "PERF_COUNT_SW_CONTEXT_SWITCHES",
	"CONTEXT-SWITCHES", "CS", "PERF_COUNT_SW_CPU_MIGRATIONS", "CPU-MIGRATIONS", "MIGRATIONS",
	"PERF_COUNT_SW_PAGE_FAULTS_MIN", "MINOR-FAULTS", "PERF_COUNT_SW_PAGE_FAULTS_MAJ",
	"MAJOR-FAULTS", "PERF_COUNT_SW_CGROUP_SWITCHES", "CGROUP-SWITCHES",
};
static const char *const quals[] = { "", ":u", ":k" };
#define NEV (sizeof events / sizeof events[0])
#define NQ (sizeof quals / sizeof quals[0])

struct seen {
	char name[96], desc[128];
	int idx, has_domain_mod;
	struct perf_event_attr attr;
};
static struct seen fast[NEV][NQ];

static void lowercase(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s += 'a' - 'A';
}

/* Before libpfm4 starts: every spelling resolves from the built-in table. */
static void fast_lookups(void)
{
	for (size_t i = 0; i < NEV; i++)
		for (size_t q = 0; q < NQ; q++) {
			char name[128];
			snprintf(name, sizeof name, "perf::%s%s", events[i], quals[q]);
			struct seen *s = &fast[i][q];
			is_int(native_lookup(name, &s->idx), PAPI_OK, "%s resolves", name);
			const struct native *e = native_get(s->idx);
			if (!e) {
				ok(0, "%s: entry", name);
				continue;
			}
			is_int(e->pmu, -1, "%s: made without libpfm4", name);
			is_int(native_usable(s->idx), PAPI_OK, "%s: usable before libpfm4 starts", name);
			snprintf(s->name, sizeof s->name, "%s", e->name);
			snprintf(s->desc, sizeof s->desc, "%s", e->desc);
			s->attr = e->attr;
			s->has_domain_mod = e->has_domain_mod;
			/* another spelling of the same event: same entry */
			lowercase(name + 6);
			int again = -1;
			is_int(native_lookup(name, &again), PAPI_OK, "%s resolves", name);
			is_int(again, s->idx, "%s: the same entry", name);
		}
	int idx;
	is_int(native_lookup("perf::TASK-CLOCK:h", &idx), PAPI_ENOEVNT, ":h goes to libpfm4 and fails there");
}

/* After: libpfm4's own encoding of each name, and the fixed-up entry. */
static void against_libpfm(void)
{
	ok(pmu_count() > 0, "libpfm4 started");
	for (size_t i = 0; i < NEV; i++)
		for (size_t q = 0; q < NQ; q++) {
			char name[128];
			snprintf(name, sizeof name, "perf::%s%s", events[i], quals[q]);
			struct seen *s = &fast[i][q];
			struct perf_event_attr attr;
			pfm_perf_encode_arg_t arg;
			memset(&attr, 0, sizeof attr);
			memset(&arg, 0, sizeof arg);
			arg.attr = &attr;
			arg.size = sizeof arg;
			is_int(pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg),
			       PFM_SUCCESS, "libpfm4 encodes %s", name);
			ok(memcmp(&attr, &s->attr, sizeof attr) == 0, "%s: same perf_event_attr", name);
			pfm_event_info_t ei;
			memset(&ei, 0, sizeof ei);
			ei.size = sizeof ei;
			pfm_get_event_info(arg.idx, PFM_OS_PERF_EVENT_EXT, &ei);
			/* plain words where the table has them, else libpfm4's */
			const char *want = native_sw_plain(attr.config) ? native_sw_plain(attr.config)
								      : ei.desc;
			ok(want && !strncmp(s->desc, want, strlen(want)),
			   "%s: description starts with '%s'", name, want ? want : "(none)");
			const struct native *e = native_get(s->idx);
			ok(e && e->pmu >= 0 && pmu_get(e->pmu) && !strcmp(pmu_get(e->pmu)->name, "perf"),
			   "%s: PMU filled in when libpfm4 started", name);
			memset(&ei, 0, sizeof ei);
			ei.size = sizeof ei;
			ok(e && pfm_get_event_info(e->pfm_idx, PFM_OS_PERF_EVENT_EXT, &ei) == PFM_SUCCESS &&
			   !strcmp(ei.name, events[i]), "%s: libpfm4 event filled in", name);
		}
}

/* Enumeration lists the fast entries under their codes. */
static void enumeration(void)
{
	int code = PAPI_NATIVE_MASK, found = 0;
	for (int r = native_enum(&code, PAPI_ENUM_FIRST, 0); r == PAPI_OK;
	     r = native_enum(&code, PAPI_ENUM_EVENTS, 0)) {
		const struct native *e = native_get(code & PAPI_NATIVE_AND_MASK);
		for (size_t i = 0; e && i < NEV; i++)
			if (!strcmp(e->name, fast[i][0].name)) {
				found++;
				is_int(code & PAPI_NATIVE_AND_MASK, fast[i][0].idx, "%s: enumerated under its code",
				       e->name);
			}
	}
	is_int(found, (int)NEV, "every fast event enumerated");
}

/* A fresh table that starts libpfm4 first makes the same entries. */
static void slow_path(void)
{
	native_shutdown();
	ok(pmu_count() > 0, "libpfm4 started first");
	for (size_t i = 0; i < NEV; i++)
		for (size_t q = 0; q < NQ; q++) {
			char name[128];
			snprintf(name, sizeof name, "perf::%s%s", events[i], quals[q]);
			struct seen *s = &fast[i][q];
			int idx;
			is_int(native_lookup(name, &idx), PAPI_OK, "%s resolves through libpfm4", name);
			const struct native *e = native_get(idx);
			if (!e) {
				ok(0, "%s: entry", name);
				continue;
			}
			is_str(e->name, s->name, "%s: same canonical name", name);
			is_str(e->desc, s->desc, "%s: same description", name);
			ok(memcmp(&e->attr, &s->attr, sizeof e->attr) == 0, "%s: same attr", name);
			is_int(e->has_domain_mod, s->has_domain_mod, "%s: same domain flag", name);
			is_int(e->attr_idx, -1, "%s: no attribute entry", name);
			is_int(e->umask_only, 0, "%s: not a umask entry", name);
		}
}

int main(void)
{
	unsetenv("LIBPFM_FORCE_PMU");
	unsetenv("LIBPFM_DISABLED_PMUS");
	fast_lookups();
	against_libpfm();
	enumeration();
	slow_path();
	native_shutdown();
	return tap_done();
}

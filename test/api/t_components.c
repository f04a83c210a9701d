/* t_components.c: the component list, its description, and disabling it before init. */
#include <dirent.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "papi.h"
#include "priv.h"
#include "tap.h"

/* Whether the kernel counts a hardware event for this thread: asked with
 * perf_event_open itself, not through the library. */
static int kernel_counts_hardware(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_kernel = a.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* Where perf_event_uncore is disabled for want of uncore PMUs, its reason
 * lists the kernel's PMUs (sysfs is the oracle): each name whole, even in
 * the 128 bytes a PAPI 6 program reads; every one while they fit. */
static void uncore_reason_whole(void)
{
	int u = PAPI_get_component_index("perf_event_uncore");
	const PAPI_component_info_t *k = u > 0 ? PAPI_get_component_info(u) : NULL;
	const char *list = k && k->disabled ? strstr(k->disabled_reason, "the kernel has only ") : NULL;
	if (!list) {
		skip("perf_event_uncore is not disabled for want of uncore PMUs here", "its reason's list");
		return;
	}
	char buf[PAPI_MAX_STR_LEN], *save = NULL, path[PAPI_HUGE_STR_LEN];
	snprintf(buf, sizeof buf, "%s", list + strlen("the kernel has only "));
	int named = 0, whole = 1, more = 0;
	for (char *n = strtok_r(buf, ", ", &save); n; n = strtok_r(NULL, ", ", &save)) {
		if (!strcmp(n, "...")) {
			more = 1;
			continue;
		}
		snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s", n);
		whole &= access(path, F_OK) == 0;
		named++;
	}
	int all = 0;
	DIR *d = opendir("/sys/bus/event_source/devices");
	for (struct dirent *e; d && (e = readdir(d));)
		all += e->d_name[0] != '.';
	if (d)
		closedir(d);
	ok(named > 0 && whole, "uncore's reason names the kernel's PMUs, each whole: %s", k->disabled_reason);
	ok(more ? named < all : named == all, "all %d of them, or says there are more (%d named)", all, named);
}

int main(void)
{
	int ncmp = PAPI_num_components();
	ok(ncmp >= 2, "perf_event and the others (%d)", ncmp);
	is_int(PAPI_get_component_index("perf_event"), 0, "perf_event is component 0");
	ok(PAPI_get_component_index("io") > 0, "io is one of them");
	is_int(PAPI_get_component_index("no_such_component"), PAPI_ENOCMP, "unknown component -> ENOCMP");
	is_int(PAPI_get_component_index(NULL), PAPI_EINVAL, "NULL name -> EINVAL");
	is_int(PAPI_disable_component(ncmp), PAPI_ENOCMP, "disable bad index -> ENOCMP");
	is_int(PAPI_disable_component(-1), PAPI_ENOCMP, "disable -1 -> ENOCMP");
	is_int(PAPI_disable_component_by_name("no_such_component"), PAPI_ENOCMP, "disable unknown name -> ENOCMP");
	is_int(PAPI_disable_component_by_name(NULL), PAPI_EINVAL, "disable NULL name -> EINVAL");
	is_int(PAPI_num_hwctrs(), PAPI_ENOINIT, "num_hwctrs before init -> ENOINIT");

	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	ok(ci != NULL, "component 0 info");
	ok(PAPI_get_component_info(ncmp) == NULL && PAPI_get_component_info(-1) == NULL, "no info for bad indexes");
	for (int c = 0; c < ncmp; c++) {
		const PAPI_component_info_t *k = PAPI_get_component_info(c);
		ok(k && k->CmpIdx == c && *k->name && *k->description, "component %d: %s", c,
		   k ? k->name : "");
		ok(k && strlen(k->description) < sizeof k->description - 1,
		   "its description is whole (%zu bytes)", k ? strlen(k->description) : 0);
		is_int(PAPI_get_component_index(k ? k->name : ""), c, "its name finds its index");
		ok(k && (k->disabled ? *k->disabled_reason != 0 : k->initialized),
		   "active, or disabled with a reason (%s)", k ? k->disabled_reason : "");
		/* a program built with PAPI 6's header (pypapi's) reads 128 bytes */
		ok(k && strlen(k->disabled_reason) < PAPI_MAX_STR_LEN,
		   "its disabled reason fits PAPI 6's 128-byte field (%zu bytes)",
		   k ? strlen(k->disabled_reason) : 0);
		ok(k && (k->partially_disabled ? !k->disabled && *k->partially_disabled_reason
					       : !*k->partially_disabled_reason),
		   "partially disabled: enabled, with a reason (%d: %s)", k ? k->partially_disabled : -1,
		   k ? k->partially_disabled_reason : "");
	}
	uncore_reason_whole();
	if (ci) {
		is_str(ci->name, "perf_event", "name");
		is_int(ci->disabled, 0, "enabled: software events count here");
		/* PAPI 7.2: without a hardware PMU, only the software events work */
		if (!kernel_counts_hardware())
			ok(ci->partially_disabled && strstr(ci->partially_disabled_reason, "software events"),
			   "no hardware event counts here: partially disabled (%s)",
			   ci->partially_disabled_reason);
		else
			skip("the kernel counts hardware events here", "perf_event partially disabled");
		is_int(ci->CmpIdx, 0, "CmpIdx");
		ok(ci->num_native_events > 0, "num_native_events %d", ci->num_native_events);
		is_int(ci->default_domain, PAPI_DOM_USER, "default domain user");
		is_int(ci->available_domains,
		       PAPI_DOM_USER | PAPI_DOM_SUPERVISOR | (priv_kernel_ok() ? PAPI_DOM_KERNEL : 0),
		       "available domains: user, hypervisor, and the kernel where this user may count it");
		is_int(ci->default_granularity, PAPI_GRN_THR, "default granularity thread");
		ok(ci->kernel_multiplex && ci->attach && ci->inherit && ci->cpu, "multiplex, attach, inherit, cpu");
		is_int(ci->attach_must_ptrace, 1, "attach_must_ptrace, as PAPI 7.0's perf_event says "
		       "(PAPI's attach tests ptrace their stopped child only then)");
		ok(ci->num_mpx_cntrs >= ci->num_cntrs, "mpx counters >= counters");
		int has_perf = 0;
		for (int i = 0; i < PAPI_PMU_MAX && ci->pmu_names[i]; i++)
			has_perf |= strcmp(ci->pmu_names[i], "perf") == 0;
		ok(has_perf, "the perf PMU is listed");
		is_int(PAPI_num_cmp_hwctrs(0), ci->num_cntrs, "num_cmp_hwctrs agrees with the info");
	}
	is_int(PAPI_num_cmp_hwctrs(ncmp), PAPI_ENOCMP, "num_cmp_hwctrs bad index");
	is_int(PAPI_disable_component(0), PAPI_ENOINIT, "disable after init -> ENOINIT (as PAPI 7)");
	int code;
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK", &code), PAPI_OK, "software event resolves");
	PAPI_shutdown();

	/* Disabled before init: its events neither resolve nor enumerate. */
	is_int(PAPI_disable_component_by_name("perf_event"), PAPI_OK, "disable before init");
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(0);
	ok(ci && ci->disabled != 0 && strlen(ci->disabled_reason) > 0, "info says disabled (%s)",
	   ci ? ci->disabled_reason : "");
	is_int(PAPI_event_name_to_code("perf::TASK-CLOCK", &code), PAPI_ENOEVNT, "disabled: no native names");
	code = PAPI_NATIVE_MASK;
	is_int(PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, 0), PAPI_ENOCMP, "disabled: enum_cmp_event -> ENOCMP");
	is_int(PAPI_event_name_to_code("PAPI_TOT_CYC", &code), PAPI_OK, "presets still have names");
	PAPI_shutdown();
	return tap_done();
}

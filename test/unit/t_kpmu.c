/* t_kpmu.c: the sysfs PMU scanner (kpmu.c) on a fake tree: the list, the core marks, format fields, named events and term encoding. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fake_sysfs.h"
#include "internal.h"
#include "tap.h"

static char root[PATH_MAX];

/* An unknown x86 CPU with an uncore PMU, a hybrid-style pair, an ARM core
 * PMU, the software PMU and two directories that are no PMUs. */
static void make_tree(void)
{
	static const char *const files[][2] = {
		{ "cpu/type", "4" },
		{ "cpu/format/event", "config:0-7" },
		{ "cpu/format/umask", "config:8-15" },
		{ "cpu/format/inv", "config:23" },
		{ "cpu/format/cmask", "config:24-31" },
		{ "cpu/format/edge", "config:18" },
		{ "cpu/format/ext", "config:0-7,32-35" },
		{ "cpu/format/ldlat", "config1:0-15" },
		{ "cpu/format/frontend", "config2:0-23" },
		{ "cpu/format/wide3", "config3:0-3" },
		{ "cpu/format/broken", "config9:0-3" },
		{ "cpu/events/cpu-cycles", "event=0x3c" },
		{ "cpu/events/instructions", "event=0xc0" },
		{ "cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3" },
		{ "cpu/events/mem-loads.scale", "0.5" },
		{ "cpu/events/mem-loads.unit", "loads" },
		{ "cpu/events/needs-value", "event=0x1,umask=?" },
		{ "cpu/events/topdown-x.per-pkg", "1" },
		{ "cpu/events/recursive", "event=0x2,cpu-cycles" },
		{ "uncore_imc_0/type", "14" },
		{ "uncore_imc_0/cpumask", "0,36" },
		{ "uncore_imc_0/format/event", "config:0-7" },
		{ "uncore_imc_0/events/cas_count_read", "event=0x04,umask=0x03" },
		{ "uncore_imc_0/events/cas_count_read.scale", "6.103515625e-5" },
		{ "uncore_imc_0/events/cas_count_read.unit", "MiB" },
		{ "armv8_pmuv3_0/type", "10" },
		{ "armv8_pmuv3_0/cpus", "0-3" },
		{ "armv8_pmuv3_0/format/event", "config:0-15" },
		{ "armv8_pmuv3_0/events/l1d_cache_refill", "event=0x0003" },
		{ "software/type", "1" },
		{ "notapmu/uevent", "" },
		{ "badtype/type", "x4" },
	};
	for (size_t i = 0; i < sizeof files / sizeof *files; i++)
		if (fs_write(root, files[i][0], files[i][1]) < 0)
			ok(0, "write %s: %s", files[i][0], strerror(errno));
}

static struct sys_ops fake;

static void use_root(const char *dir)
{
	fake = sys_real;
	fake.pmu_dir = dir;
	sys_set_ops(&fake);
}

static void the_list(void)
{
	is_int(kpmu_count(), 4, "four PMUs: a directory without a type is none");
	static const char *const order[] = { "armv8_pmuv3_0", "cpu", "software", "uncore_imc_0" };
	int k = 0;
	for (int i = 0; i < kpmu_count(); i++)
		if (k < 4 && !strcmp(kpmu_get(i)->name, order[k]))
			k++;
	is_int(k, 4, "listed in name order");
	ok(kpmu_get(-1) == NULL && kpmu_get(kpmu_count()) == NULL, "out of range: NULL");
	ok(kpmu_find("notapmu") == NULL && kpmu_find("badtype") == NULL,
	   "a directory without a numeric type is no PMU");
	ok(kpmu_find(NULL) == NULL && kpmu_find("nosuch") == NULL, "unknown names: NULL");

	static const struct {
		int line;
		const char *name;
		int type, core;
		const char *cpus;
	} want[] = {
		{ __LINE__, "cpu", 4, 1, "" },
		{ __LINE__, "armv8_pmuv3_0", 10, 1, "0-3" },
		{ __LINE__, "uncore_imc_0", 14, 0, "" },
		{ __LINE__, "software", 1, 0, "" },
		{ __LINE__, "cpu_atom", 11, 1, "4-7" },
		{ __LINE__, "cpu_core", 4, 1, "0-3" },
	};
	fs_write(root, "cpu_atom/type", "11");
	fs_write(root, "cpu_atom/cpus", "4-7");
	fs_write(root, "cpu_core/type", "4");
	fs_write(root, "cpu_core/cpus", "0-3");
	fs_write(root, "msr/type", "9");
	fs_write(root, "msr/events/tsc", "event=0x00");
	/* The list was read already: new directories wait for a new scan. */
	ok(kpmu_find("cpu_atom") == NULL, "the list is read once");
	PAPI_shutdown();
	PAPI_library_init(PAPI_VER_CURRENT);
	ok(kpmu_find("cpu_atom") != NULL, "and afresh after PAPI_shutdown");
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		const struct kpmu *p = kpmu_find(want[i].name);
		if (!ok(p != NULL, "line %d: %s listed", want[i].line, want[i].name))
			continue;
		is_int(p->type, want[i].type, "line %d: %s type", want[i].line, want[i].name);
		is_int(p->core, want[i].core, "line %d: %s is %sa core PMU", want[i].line, want[i].name,
		       want[i].core ? "" : "not ");
		is_str(p->cpus, want[i].cpus, "line %d: %s CPUs", want[i].line, want[i].name);
	}
	is_int(kpmu_core_count(), 4, "core PMUs: cpu, cpu_core, cpu_atom, armv8_pmuv3_0");
	const struct kpmu *imc = kpmu_find("uncore_imc_0");
	is_str(imc->cpus, "", "an uncore PMU's cpumask is not read with the list");
	is_int(kpmu_per_task(imc), 0, "uncore_imc_0 (a cpumask) does not count per task");
	is_str(imc->cpus, "0,36", "its cpumask, once asked");
	is_int(imc->loaded, 0, "which does not load its format and events");
	is_int(kpmu_load(imc), PAPI_OK, "load an uncore PMU");
	is_str(imc->cpus, "0,36", "its cpumask once loaded");
	is_int(kpmu_load(NULL), PAPI_EINVAL, "load NULL: PAPI_EINVAL");
	/* perf's rule: a PMU that is no core's nor a software kind counts per
	 * task unless a cpumask says where to open it CPU-wide */
	is_int(kpmu_per_task(kpmu_find("msr")), 1, "msr (no cpumask) counts per task");
	is_int(kpmu_per_task(imc), 0, "uncore_imc_0 (a cpumask) does not");
	is_int(kpmu_per_task(kpmu_find("software")), 0, "nor the software PMU, a software kind");
	is_int(kpmu_software(kpmu_find("software")), 1, "which kpmu_software says");
	is_int(kpmu_per_task(kpmu_find("cpu")), 0, "nor a core PMU");
	is_int(kpmu_per_task(NULL), 0, "nor NULL");
	struct kpmu copy = *imc;
	is_int(kpmu_load(&copy), PAPI_EINVAL, "load a PMU not from the list: PAPI_EINVAL");
}

static void fields_and_events(void)
{
	const struct kpmu *cpu = kpmu_find("cpu");
	is_int(kpmu_load(cpu), PAPI_OK, "load cpu");
	is_int(cpu->loaded, 1, "loaded");
	is_int(cpu->nfields, 9, "nine readable fields (config9 is no attr word)");
	const struct kpmu_field *f = kpmu_field(cpu, "ext");
	ok(f && f->word == KPMU_CONFIG && f->mask == 0xf000000ffull, "a split field's bits");
	f = kpmu_field(cpu, "ldlat");
	ok(f && f->word == KPMU_CONFIG1 && f->mask == 0xffff, "a config1 field");
	ok(kpmu_field(cpu, "broken") == NULL && kpmu_field(cpu, "nosuch") == NULL,
	   "unknown fields: NULL");
	is_int(cpu->nevents, 5, "five events: companion files are none");
	for (int i = 1; i < cpu->nevents; i++)
		ok(strcmp(cpu->events[i - 1].name, cpu->events[i].name) < 0, "events sorted (%s)",
		   cpu->events[i].name);
	const struct kpmu_event *e = kpmu_event(cpu, "MEM-LOADS");
	if (ok(e != NULL, "events found whatever the case")) {
		is_str(e->terms, "event=0xcd,umask=0x1,ldlat=3", "its terms");
		ok(e->scale == 0.5, "its scale");
		is_str(e->unit, "loads", "its unit");
	}
	e = kpmu_event(cpu, "cpu-cycles");
	ok(e && e->scale == 1.0 && !strcmp(e->unit, ""), "no companions: scale 1, no unit");
	e = kpmu_event(kpmu_find("uncore_imc_0"), "cas_count_read");
	ok(e && e->scale == 6.103515625e-5 && !strcmp(e->unit, "MiB"), "an uncore event's scale and unit");
	ok(kpmu_event(cpu, "topdown-x.per-pkg") == NULL, "a companion file is no event");
	ok(kpmu_event(NULL, "x") == NULL && kpmu_event(cpu, NULL) == NULL, "NULL: no event");
}

static void encoding(void)
{
	static const struct {
		int line;
		const char *pmu, *terms;
		int ret;
		unsigned long long config, config1, config2;
		const char *why;	/* part of the reason on failure */
	} rows[] = {
		{ __LINE__, "cpu", "event=0x3c,umask=0x00", PAPI_OK, 0x3c, 0, 0, NULL },
		{ __LINE__, "cpu", "event=0xc4,umask=1,inv,cmask=2", PAPI_OK, 0x28001c4, 0, 0, NULL },
		{ __LINE__, "cpu", " event = 0x3c ", PAPI_ENOEVNT, 0, 0, 0, "'event '" },
		{ __LINE__, "cpu", "event=0x3c, umask=0x2 ", PAPI_OK, 0x23c, 0, 0, NULL },
		{ __LINE__, "cpu", "ext=0x1ab", PAPI_OK, 0x1000000abull, 0, 0, NULL },
		{ __LINE__, "cpu", "ext=0xfff", PAPI_OK, 0xf000000ffull, 0, 0, NULL },
		{ __LINE__, "cpu", "ext=0x1000", PAPI_EINVAL, 0, 0, 0, "does not fit its 12 bits" },
		{ __LINE__, "cpu", "event=256", PAPI_EINVAL, 0, 0, 0, "does not fit its 8 bits" },
		{ __LINE__, "cpu", "mem-loads", PAPI_OK, 0x1cd, 3, 0, NULL },
		{ __LINE__, "cpu", "mem-loads,ldlat=50", PAPI_OK, 0x1cd, 50, 0, NULL },
		{ __LINE__, "cpu", "cpu-cycles,cmask=1,edge", PAPI_OK, 0x104003c, 0, 0, NULL },
		{ __LINE__, "cpu", "instructions,event=0x3c", PAPI_OK, 0x3c, 0, 0, NULL },
		{ __LINE__, "cpu", "frontend=0x11", PAPI_OK, 0, 0, 0x11, NULL },
		{ __LINE__, "cpu", "config=0x1234,config1=5", PAPI_OK, 0x1234, 5, 0, NULL },
		{ __LINE__, "cpu", "", PAPI_OK, 0, 0, 0, NULL },
		{ __LINE__, "cpu", "needs-value", PAPI_EINVAL, 0, 0, 0, "'umask' needs a value" },
		{ __LINE__, "cpu", "recursive", PAPI_EINVAL, 0, 0, 0, "defined by another event" },
		{ __LINE__, "cpu", "nosuch=1", PAPI_ENOEVNT, 0, 0, 0, "no format field or event called 'nosuch'" },
		{ __LINE__, "cpu", "nosuch", PAPI_ENOEVNT, 0, 0, 0, "'nosuch'" },
		{ __LINE__, "cpu", "event=", PAPI_EINVAL, 0, 0, 0, "no number" },
		{ __LINE__, "cpu", "event=-1", PAPI_EINVAL, 0, 0, 0, "no number" },
		{ __LINE__, "cpu", "event=0x3cz", PAPI_EINVAL, 0, 0, 0, "no number" },
		{ __LINE__, "cpu", "event=0x10000000000000000", PAPI_EINVAL, 0, 0, 0, "no number" },
		{ __LINE__, "cpu", "wide3=1", PAPI_EINVAL, 0, 0, 0, "config3" },
		{ __LINE__, "cpu", "cpu-cycles=1", PAPI_ENOEVNT, 0, 0, 0, "'cpu-cycles'" },
		{ __LINE__, "armv8_pmuv3_0", "l1d_cache_refill", PAPI_OK, 3, 0, 0, NULL },
		{ __LINE__, "armv8_pmuv3_0", "event=0x8", PAPI_OK, 8, 0, 0, NULL },
		{ __LINE__, "armv8_pmuv3_0", "event=0x10000", PAPI_EINVAL, 0, 0, 0, "16 bits" },
		{ __LINE__, "software", "config=3", PAPI_OK, 3, 0, 0, NULL },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const struct kpmu *p = kpmu_find(rows[i].pmu);
		struct perf_event_attr a;
		memset(&a, 0xa5, sizeof a);
		struct perf_event_attr before = a;
		char why[256] = "untouched";
		int r = kpmu_encode(p, rows[i].terms, &a, why, sizeof why);
		is_int(r, rows[i].ret, "line %d: %s/%s/", rows[i].line, rows[i].pmu, rows[i].terms);
		if (r == PAPI_OK) {
			ok(a.type == (unsigned)p->type && a.config == rows[i].config &&
			   a.config1 == rows[i].config1 && a.config2 == rows[i].config2,
			   "line %d: type %u config %#llx %#llx %#llx", rows[i].line, a.type,
			   (unsigned long long)a.config, (unsigned long long)a.config1,
			   (unsigned long long)a.config2);
			ok(a.sample_period == before.sample_period && a.read_format == before.read_format,
			   "line %d: the other fields are kept", rows[i].line);
		} else {
			ok(!memcmp(&a, &before, sizeof a), "line %d: attr unchanged on failure", rows[i].line);
			ok(strstr(why, rows[i].why) != NULL, "line %d: says why: %s", rows[i].line, why);
		}
	}
	struct perf_event_attr a = { 0 };
	is_int(kpmu_encode(NULL, "event=1", &a, NULL, 0), PAPI_EINVAL, "no PMU: PAPI_EINVAL");
	is_int(kpmu_encode(kpmu_find("cpu"), NULL, &a, NULL, 0), PAPI_EINVAL, "no terms: PAPI_EINVAL");
	is_int(kpmu_encode(kpmu_find("cpu"), "event=1", NULL, NULL, 0), PAPI_EINVAL, "no attr: PAPI_EINVAL");
	char longer[600];
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	is_int(kpmu_encode(kpmu_find("cpu"), longer, &a, NULL, 0), PAPI_EINVAL, "overlong terms: PAPI_EINVAL");
}

/* The list follows the directory the seam names; none is an empty list. */
static void other_roots(void)
{
	use_root("/nonexistent/papi-test");
	is_int(kpmu_count(), 0, "a missing directory: no PMUs");
	is_int(kpmu_core_count(), 0, "and no core PMU");
	use_root(NULL);
	is_int(kpmu_count(), 0, "no directory: no PMUs");
	use_root(root);
	ok(kpmu_find("cpu") != NULL, "back to the tree");
	sys_set_ops(NULL);
	const struct kpmu *sw = kpmu_find("software");
	if (access("/sys/bus/event_source/devices/software/type", R_OK) == 0)
		ok(sw && sw->type == PERF_TYPE_SOFTWARE && !sw->core,
		   "the real kernel: \"software\", type 1, no core PMU");
	else
		skip("no /sys/bus/event_source/devices here", "the real kernel's list");
	ok(kpmu_find("armv8_pmuv3_0") == NULL || access("/sys/bus/event_source/devices/armv8_pmuv3_0", F_OK) == 0,
	   "the real list is not the fake one");
}

int main(void)
{
	if (fs_make(root) < 0) {
		ok(0, "make a temporary tree: %s", strerror(errno));
		return tap_done();
	}
	make_tree();
	use_root(root);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init");
	the_list();
	fields_and_events();
	encoding();
	other_roots();
	PAPI_shutdown();
	fs_remove(root);
	return tap_done();
}

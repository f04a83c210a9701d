/* t_sim_uncore.c: perf_event_uncore on simulated uncore PMUs with fake sysfs trees: skx (six memory controllers, a CHA, the power PMU) and zen (L3, data fabric): names by libpfm4 and by sysfs, per-socket counting with the cpumask, offline cpumask CPUs (partially disabled), scale and unit, multiplexing, privilege, and the MEM and ENERGY groups. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "../../cmd/metrics.c"
#include "fake_sysfs.h"
#include "sim/sim_pmu.h"
#include "tap.h"

/* metrics.c reports group-file problems through the CLI's messages. */
int cli_error(const char *cmd, const char *fmt, ...)
{
	(void)cmd;
	(void)fmt;
	return 1;
}

enum { T_IMC = 20, T_CHA = 30, T_POWER = 40, T_L3 = 50, T_DF = 51 };
static char osroot[PATH_MAX];	/* an empty /sys for powercap: it stays out of ENERGY */

static int code_of(const char *name)
{
	int code = 0, r = PAPI_event_name_to_code(name, &code);
	if (r != PAPI_OK)
		diag("%s: %s (%s)", name, PAPI_strerror(r), papi_last_reason());
	return r == PAPI_OK ? code : 0;
}

/* Count names[0..n-1] in one set over cycles simulated cycles into v. */
static int count(const char *const *names, int n, uint64_t cycles, long long *v)
{
	int es = PAPI_NULL, r = PAPI_create_eventset(&es);
	for (int i = 0; i < n && r == PAPI_OK; i++)
		if ((r = PAPI_add_named_event(es, names[i])) != PAPI_OK)
			diag("add %s: %s (%s)", names[i], PAPI_strerror(r), papi_last_reason());
	if (r == PAPI_OK)
		r = PAPI_start(es);
	sim_advance(cycles);
	if (r == PAPI_OK)
		r = PAPI_stop(es, v);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return r;
}

static const struct mgroup_metric *metric(const struct mgroup *g, const char *name)
{
	for (int i = 0; i < g->nmet; i++)
		if (!strcmp(g->met[i].name, name))
			return &g->met[i];
	return NULL;
}

/* The group called name in the section of CPU cpu (NULL: as it applies here). */
static const struct mgroup *group(const char *name, const char *cpu)
{
	int n;
	const struct mgroup *const *all = mgroups_all(&n);
	if (!cpu)
		return mgroups_find(name);
	for (int i = 0; i < n; i++)
		for (int k = 0; all[i]->cpus && all[i]->cpus[k]; k++)
			if (!strcmp(all[i]->name, name) && !strcmp(all[i]->cpus[k], cpu))
				return all[i];
	return NULL;
}

/* Group gname's metric mname after 1 ms (1,000,000 simulated cycles). */
static double group_metric(const char *gname, const char *cpu, const char *mname)
{
	const struct mgroup *g = group(gname, cpu);
	const struct mgroup_metric *m = g ? metric(g, mname) : NULL;
	if (!m)
		return NAN;
	struct mg_pick pick[MGROUP_MAX_EVENTS];
	long long c[MGROUP_MAX_EVENTS];
	double v[MGROUP_MAX_EVENTS];
	int idx[MGROUP_MAX_EVENTS], n = 0, es = PAPI_NULL;
	mg_pick_all(g, pick);
	PAPI_create_eventset(&es);
	for (int i = 0; i < g->nev; i++) {
		idx[i] = -1;
		if (pick[i].ok && PAPI_add_event(es, pick[i].code) == PAPI_OK)
			idx[i] = n++;
		else
			diag("%s.%s: %s", gname, g->ev[i].alias, pick[i].why ? pick[i].why : "not added");
	}
	int r = PAPI_start(es);
	sim_advance(1000000);
	if (r == PAPI_OK)
		r = PAPI_stop(es, c);
	for (int i = 0; i < g->nev; i++)
		v[i] = idx[i] >= 0 && r == PAPI_OK ? (double)c[idx[i]] : NAN;
	double got = mg_value(g, m, v, 1e-3);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	mg_picks_free(g, pick);
	return got;
}

static void skx_tree(void)
{
	char rel[128];
	for (int i = 0; i < 6; i++) {
		snprintf(rel, sizeof rel, "uncore_imc_%d/format/event", i);
		sim_sysfs_write(rel, "config:0-7");
		snprintf(rel, sizeof rel, "uncore_imc_%d/format/umask", i);
		sim_sysfs_write(rel, "config:8-15");
		snprintf(rel, sizeof rel, "uncore_imc_%d/events/cas_count_read", i);
		sim_sysfs_write(rel, "event=0x04,umask=0x03");
		snprintf(rel, sizeof rel, "uncore_imc_%d/events/cas_count_read.scale", i);
		sim_sysfs_write(rel, "6.103515625e-5");
		snprintf(rel, sizeof rel, "uncore_imc_%d/events/cas_count_read.unit", i);
		sim_sysfs_write(rel, "MiB");
		snprintf(rel, sizeof rel, "uncore_imc_%d/events/cas_count_write", i);
		sim_sysfs_write(rel, "event=0x04,umask=0x0c");
		/* reads 3 a cycle, writes 1, on each socket */
		sim_event(T_IMC + i, 0x0304, 0, 3, 1);
		sim_event(T_IMC + i, 0x0c04, 0, 1, 1);
	}
	sim_sysfs_write("uncore_cha_0/format/event", "config:0-7");
	sim_sysfs_write("uncore_cha_0/format/umask", "config:8-15");
	sim_sysfs_write("power/format/event", "config:0-7");
	sim_sysfs_write("power/events/energy-pkg", "event=0x02");
	sim_sysfs_write("power/events/energy-pkg.scale", "2.3283064365386962890625e-10");
	sim_sysfs_write("power/events/energy-pkg.unit", "Joules");
	/* 1 J (2^32 counts of 2^-32 J) each 1000 cycles */
	sim_event(T_POWER, 0x02, 0, 4294967296ull, 1000);
}

static struct sim_config skx_config(int paranoid, int privileged)
{
	struct sim_config c = sim_default_config();
	c.paranoid = paranoid;
	c.privileged = privileged;
	for (int i = 0; i < 6; i++) {
		c.pmu[1 + i] = (struct sim_pmu_desc){ "", T_IMC + i, 8, 0, 48, "0,1" };
		snprintf(c.pmu[1 + i].name, sizeof c.pmu[1 + i].name, "uncore_imc_%d", i);
	}
	c.pmu[7] = (struct sim_pmu_desc){ "uncore_cha_0", T_CHA, 2, 0, 48, "0,1" };
	c.pmu[8] = (struct sim_pmu_desc){ "power", T_POWER, 4, 0, 64, "0" };
	c.npmus = 9;
	return c;
}

static void skx_init(int paranoid, int privileged)
{
	struct sim_config c = skx_config(paranoid, privileged);
	sim_install(&c);
	skx_tree();
	uncore_assume_family("skx");
	os_set_root(osroot);
	PAPI_library_init(PAPI_VER_CURRENT);
}

static void skx_done(void)
{
	uncore_assume_family(NULL);
	PAPI_shutdown();
	sim_uninstall();
	os_set_root(NULL);
}

/* uncore_pmu_describe: the PMU called name, into *d (0: none such). */
static int describe(const char *name, struct uncore_pmu_desc *d)
{
	int n = uncore_pmu_describe(-1, NULL);
	for (int i = 0; i < n; i++)
		if (uncore_pmu_describe(i, d) == n && !strcmp(d->name, name))
			return 1;
	return 0;
}

/* The PMUs papi component lists under perf_event_uncore. */
static void test_describe(void)
{
	struct uncore_pmu_desc d;
	ok(PAPI_get_component_info(1) != NULL, "perf_event_uncore initializes on first use");
	is_int(uncore_pmu_describe(-1, NULL), 8, "eight uncore PMUs: six IMCs, the CHA, power");
	int found = describe("uncore_imc_3", &d);
	ok(found && !strcmp(d.pfm_name, "skx_unc_imc3") && d.cpumask && !strcmp(d.cpus, "0,1") &&
	   d.nevents > 40, "uncore_imc_3: libpfm4's skx_unc_imc3, on its cpumask 0,1, %d events",
	   d.nevents);
	found = describe("power", &d);
	ok(found && !d.pfm_name[0] && d.nevents == 1 && !strcmp(d.cpus, "0"),
	   "power: its one event file, no libpfm4 table, CPU %s", d.cpus);
	int sum = 0, n = uncore_pmu_describe(-1, NULL);
	for (int i = 0; i < n; i++)
		sum += uncore_pmu_describe(i, &d) == n ? d.nevents : 0;
	is_int(sum, PAPI_get_component_info(1)->num_native_events,
	       "the PMUs' events add up to the component's");
	is_int(uncore_pmu_describe(n, &d), PAPI_EINVAL, "past the last PMU: PAPI_EINVAL");
	is_int(uncore_pmu_describe(-2, &d), PAPI_EINVAL, "a negative index: PAPI_EINVAL");
	is_int(uncore_pmu_describe(0, NULL), PAPI_EINVAL, "no place to describe it: PAPI_EINVAL");
}

static void test_names(void)
{
	int cidx = PAPI_get_component_index("perf_event_uncore");
	is_int(cidx, 1, "perf_event_uncore is component 1, as in PAPI 7");
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	ok(ci && !ci->disabled, "enabled on the fake skx tree (%s)", ci ? ci->disabled_reason : "");
	ok(ci && ci->num_native_events > 6 * 40, "libpfm4's six IMC tables and the kernel's events: %d",
	   ci ? ci->num_native_events : 0);
	static const struct {
		int line;
		const char *name, *canon, *units;
	} rows[] = {
		{ __LINE__, "skx_unc_imc0::UNC_M_CAS_COUNT:RD", "skx_unc_imc0::UNC_M_CAS_COUNT:RD", "" },
		{ __LINE__, "skx_unc_imc3::unc_m_cas_count:wr", "skx_unc_imc3::UNC_M_CAS_COUNT:WR", "" },
		{ __LINE__, "perf_event_uncore:::skx_unc_imc0::UNC_M_CAS_COUNT:RD",
		  "skx_unc_imc0::UNC_M_CAS_COUNT:RD", "" },
		{ __LINE__, "skx_unc_imc0::UNC_M_CAS_COUNT:RD:cpu=1", "skx_unc_imc0::UNC_M_CAS_COUNT:RD:cpu=1", "" },
		{ __LINE__, "uncore_imc_0::cas_count_read", "uncore_imc_0::cas_count_read", "bytes" },
		{ __LINE__, "uncore_imc_0::cas_count_write", "uncore_imc_0::cas_count_write", "" },
		{ __LINE__, "power::energy-pkg", "power::energy-pkg", "uJ" },
		{ __LINE__, "power::energy-pkg:cpu=0", "power::energy-pkg:cpu=0", "uJ" },
		{ __LINE__, "uncore_cha_0/event=0x1,umask=0x2/", "uncore_cha_0/event=0x1,umask=0x2/", "" },
		{ __LINE__, "skx_unc_cha0::UNC_C_CLOCKTICKS", "skx_unc_cha0::UNC_C_CLOCKTICKS", "" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		int code = code_of(rows[i].name);
		char back[PAPI_MAX_STR_LEN] = "";
		PAPI_event_info_t in;
		memset(&in, 0, sizeof in);
		ok(code && PAPI_event_code_to_name(code, back) == PAPI_OK && !strcmp(back, rows[i].canon),
		   "line %d: %s names %s", rows[i].line, rows[i].name, back);
		ok(PAPI_get_event_info(code, &in) == PAPI_OK && in.component_index == cidx &&
		   !strcmp(in.units, rows[i].units) && *in.long_descr,
		   "line %d: perf_event_uncore's, units '%s': %s", rows[i].line, in.units, in.long_descr);
	}
	int upper = code_of("skx_unc_imc0::UNC_M_CAS_COUNT:RD"),
	    lower = code_of("skx_unc_imc0::unc_m_cas_count:rd");
	ok(upper && upper == lower, "one event, one code, however it is spelled (%#x, %#x)", upper, lower);

	/* the listed events enumerate under their component */
	int code = PAPI_NATIVE_MASK, seen = 0, n = 0;
	int want = code_of("uncore_imc_2::cas_count_read"), want2 = code_of("skx_unc_imc5::UNC_M_CAS_COUNT:RD");
	if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK)
		do {
			seen |= (code == want) | (code == want2) << 1;
			n++;
		} while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
	ok(seen == 3, "enumeration lists both spellings' events (%d events)", n);
	is_int(n, ci ? ci->num_native_events : -1, "as many as the component says");

	static const struct {
		int line;
		const char *name, *why;
	} bad[] = {
		{ __LINE__, "skx_unc_imc0::NOPE", "skx_unc_imc0 has no event NOPE" },
		{ __LINE__, "skx_unc_imc0::UNC_M_CAS_COUNT:NOPE", "NOPE is no unit mask" },
		{ __LINE__, "uncore_imc_0::nope", "the kernel's uncore_imc_0 has no event nope" },
		{ __LINE__, "uncore_imc_0/bogus=1/", "no format field or event called 'bogus'" },
		{ __LINE__, "uncore_imc_0/event=0x4/u", "no modifiers" },
		{ __LINE__, "uncore_imc_0::cas_count_read:cpu=99", "there is no CPU 99" },
		{ __LINE__, "uncore_imc_0::cas_count_read:cpu=x", "not a CPU number" },
		{ __LINE__, "perf_event_uncore:::nosuch::event", "no PMU called nosuch here" },
		{ __LINE__, "nosuch::event", "no PMU called nosuch here: libpfm4 has no such table" },
		{ __LINE__, "nosuch/event=0x1/", "the kernel's PMUs are cpu, power, software, uncore_cha_0" },
		{ __LINE__, "uncore_imc_9::cas_count_read", "uncore_* PMUs come with Intel's intel_uncore" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int c;
		papi_clear_reason();
		int r = PAPI_event_name_to_code(bad[i].name, &c);
		ok(r == PAPI_ENOEVNT && strstr(papi_last_reason(), bad[i].why), "line %d: %s: %s (%s)",
		   bad[i].line, bad[i].name, PAPI_strerror(r), papi_last_reason());
	}
	/* a modifier needs libpfm4's own encoder, which did not detect skx's uncore here */
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	int r = PAPI_add_named_event(es, "skx_unc_imc0::UNC_M_CAS_COUNT:RD:e=1");
	ok(r == PAPI_EINVAL && strstr(papi_last_reason(), "only libpfm4's own encoder"),
	   "a modifier of a table libpfm4 did not detect: %s (%s)", PAPI_strerror(r), papi_last_reason());
	PAPI_destroy_eventset(&es);
}

static void test_counting(void)
{
	static const char *const names[] = {
		"skx_unc_imc0::UNC_M_CAS_COUNT:RD",	  /* 3 a cycle on each of 2 sockets */
		"uncore_imc_0::cas_count_read",		  /* the same, 64 bytes a count */
		"skx_unc_imc0::UNC_M_CAS_COUNT:RD:cpu=1", /* one socket */
		"uncore_imc_1/event=0x04,umask=0x0c/",	  /* writes: 1 a cycle a socket */
		"power::energy-pkg",			  /* 1 J each 1000 cycles, one package */
		"power::energy-pkg:cpu=0",
	};
	long long v[6];
	is_int(count(names, 6, 1000000, v), PAPI_OK, "count the memory controllers and the package");
	is_int(v[0], 6000000, "reads summed over the cpumask's two sockets");
	is_int(v[1], 6000000LL * 64, "cas_count_read: the same in bytes (its .scale of MiB applied)");
	is_int(v[2], 3000000, ":cpu=1: one socket");
	is_int(v[3], 2000000, "by terms through the format files");
	is_int(v[4], 1000LL * 1000000, "energy-pkg: 1000 J in microjoules (2^-32 J a count)");
	is_int(v[5], 1000LL * 1000000, "its cpumask has one CPU: the same");

	/* the set's life cycle: read while running, reset, accum, stop */
	int es = PAPI_NULL, code = code_of("uncore_imc_2::cas_count_read");
	long long a[1], b[1];
	PAPI_create_eventset(&es);
	is_int(PAPI_add_event(es, code), PAPI_OK, "add uncore_imc_2::cas_count_read");
	is_int(PAPI_start(es), PAPI_OK, "start");
	sim_advance(1000);
	is_int(PAPI_read(es, a), PAPI_OK, "read");
	is_int(a[0], 6000LL * 64, "1000 cycles: 6000 reads as bytes");
	is_int(PAPI_reset(es), PAPI_OK, "reset");
	sim_advance(500);
	a[0] = 0;
	is_int(PAPI_accum(es, a), PAPI_OK, "accum");
	is_int(a[0], 3000LL * 64, "since the reset");
	sim_advance(100);
	is_int(PAPI_stop(es, b), PAPI_OK, "stop");
	is_int(b[0], 600LL * 64, "since the accum");
	sim_advance(100);
	is_int(PAPI_read(es, b), PAPI_OK, "read when stopped");
	is_int(b[0], 600LL * 64, "the stop's value");
	long long w = 5;
	is_int(PAPI_write(es, &w), PAPI_ENOSUPP, "its counts cannot be written");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);

	/* more events than the CHA's two counters: the kernel multiplexes, the
	 * counts are scaled by the time each ran */
	sim_event(T_CHA, 0x0000, 0, 1, 1);
	sim_event(T_CHA, 0x0201, 0, 2, 1);
	sim_event(T_CHA, 0x0101, 0, 4, 1);
	static const char *const cha[] = { "skx_unc_cha0::UNC_C_CLOCKTICKS",
					   "uncore_cha_0/event=0x1,umask=0x2/",
					   "uncore_cha_0/event=0x1,umask=0x1/" };
	long long m[3];
	is_int(count(cha, 3, 40000000, m), PAPI_OK, "three CHA events on two sockets, two counters");
	for (int i = 0; i < 3; i++) {
		double want = 2.0 * 40000000 * (1 << i);
		ok(fabs((double)m[i] - want) <= 0.05 * want, "%s: %lld, scaled to about %.0f", cha[i], m[i], want);
	}
	is_int(sim_open_count(), 0, "no counter stays open");
}

static void test_groups(void)
{
	/* intel.groups' MEM on skx (libpfm4 detects no skx here: its section
	 * asked for by name): six channels, reads 3 and writes 1 a cycle on
	 * each socket */
	double rd = group_metric("MEM", "skx", "mem_read_bandwidth");
	double wr = group_metric("MEM", "skx", "mem_write_bandwidth");
	ok(fabs(rd - 64.0 * 6 * 6e6 / 1e-3 / 1e6) < 1e-6 * rd, "MEM: mem_read_bandwidth %g MB/s", rd);
	ok(fabs(wr - 64.0 * 6 * 2e6 / 1e-3 / 1e6) < 1e-6 * wr, "MEM: mem_write_bandwidth %g MB/s", wr);
	/* no powercap zones (an empty /sys): the power PMU's package 0 */
	double e = group_metric("ENERGY", NULL, "energy_pkg");
	ok(fabs(e - 1000.0) < 1e-9, "ENERGY: energy_pkg from power::energy-pkg: %g J", e);
}

static void test_privilege(void)
{
	char why[PAPI_HUGE_STR_LEN];
	skx_init(1, 0);
	int cidx = PAPI_get_component_index("perf_event_uncore");
	ok(cmp_access(cidx, why, sizeof why) == PAPI_EPERM && strstr(why, "perf_event_paranoid 0 or lower") &&
	   strstr(why, "(it is 1)") && strstr(why, "CAP_PERFMON"),
	   "perf_event_paranoid 1: the component says what uncore counting needs: %s", why);
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	int r = PAPI_add_named_event(es, "uncore_imc_0::cas_count_read");
	ok(r == PAPI_EPERM && strstr(papi_last_reason(), "perf_event_paranoid 0 or lower"),
	   "adding an event is refused and says why: %s", papi_last_reason());
	PAPI_destroy_eventset(&es);
	skx_done();

	skx_init(1, 1);
	is_int(cmp_access(1, why, sizeof why), PAPI_OK, "with CAP_PERFMON nothing is missing");
	long long v;
	static const char *const one[] = { "uncore_imc_0::cas_count_write" };
	is_int(count(one, 1, 1000, &v), PAPI_OK, "and it counts");
	is_int(v, 2000, "writes on two sockets");
	skx_done();
}

static void test_zen(void)
{
	uncore_assume_family("amd64_fam19h_zen3");
	struct sim_config c = sim_default_config();
	c.paranoid = 0;
	c.pmu[1] = (struct sim_pmu_desc){ "amd_l3", T_L3, 6, 0, 48, "0,1" };	/* two CCXs */
	c.pmu[2] = (struct sim_pmu_desc){ "amd_df", T_DF, 4, 0, 48, "0" };
	c.npmus = 3;
	sim_install(&c);
	sim_sysfs_write("amd_l3/format/event", "config:0-7");
	sim_sysfs_write("amd_l3/format/umask", "config:8-15");
	sim_sysfs_write("amd_df/format/event", "config:0-7,32-35");
	sim_sysfs_write("amd_df/format/umask", "config:8-15");
	sim_event(T_L3, 0xff04, 0, 5, 1);	 /* UNC_L3_REQUESTS:ALL */
	sim_event(T_L3, 0xff9a, 0, 1, 1);	 /* UNC_L3_MISSES:ALL */
	sim_event(T_DF, 0x100003807ull, 0, 7, 1); /* an event number past 8 bits */
	os_set_root(osroot);
	PAPI_library_init(PAPI_VER_CURRENT);
	const PAPI_component_info_t *ci = PAPI_get_component_info(1);
	ok(ci && !ci->disabled, "enabled on the fake zen tree (%s)", ci ? ci->disabled_reason : "");
	static const char *const names[] = { "amd64_fam19h_zen3_l3::UNC_L3_REQUESTS:ALL",
					     "amd64_fam19h_zen3_l3::UNC_L3_MISSES",
					     "amd64_fam19h_zen3_l3::UNC_L3_REQUESTS:cpu=1",
					     "amd_df/event=0x107,umask=0x38/" };
	long long v[4];
	is_int(count(names, 4, 1000, v), PAPI_OK, "count the L3s and the data fabric");
	is_int(v[0], 10000, "L3 requests on both CCXs (libpfm4's name, codes through the format)");
	is_int(v[1], 2000, "L3 misses: the default unit mask ALL");
	is_int(v[2], 5000, ":cpu=1: one CCX");
	is_int(v[3], 7000, "the data fabric by terms, its event field split over config bits");
	/* ENERGY here: no powercap zones (an empty /sys) and no power PMU:
	 * each alternative says what is missing */
	const struct mgroup *g = group("ENERGY", NULL);
	struct mg_pick pick[MGROUP_MAX_EVENTS];
	memset(pick, 0, sizeof pick);
	int picked = g ? mg_pick_all(g, pick) : -1;
	ok(picked == 0 && !pick[0].ok && pick[0].why &&
	   strstr(pick[0].why, "No RAPL zones") && strstr(pick[0].why, "no PMU called power here") &&
	   strstr(pick[0].why, "amd_df, amd_l3") && strstr(pick[0].why, "RAPL driver"),
	   "ENERGY without RAPL: both alternatives say why: %s", g && pick[0].why ? pick[0].why : "");
	if (g)
		mg_picks_free(g, pick);
	int code;
	papi_clear_reason();
	int r = PAPI_event_name_to_code("power::energy-pkg", &code);
	ok(r == PAPI_ENOEVNT && strstr(papi_last_reason(), "no PMU called power here"),
	   "power::energy-pkg names what is missing: %s", papi_last_reason());
	uncore_assume_family(NULL);
	PAPI_shutdown();
	sim_uninstall();
	os_set_root(NULL);
}

/* Open file descriptors of this process. */
static int open_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	for (struct dirent *de; d && (de = readdir(d));)
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* A PMU that opens on more CPUs than a set used to hold (64): an event is
 * opened on every one of them. (The simulator's counters are one pool for
 * all CPUs, so the sum cannot show it: 8 counters count at a time.) */
static void test_many_cpus(void)
{
	struct sim_config c = sim_default_config();
	c.paranoid = 0;
	c.pmu[1] = (struct sim_pmu_desc){ "amd_df", T_DF, 8, 0, 48, "0-99" };
	c.npmus = 2;
	sim_install(&c);
	sim_sysfs_write("amd_df/format/event", "config:0-7");
	sim_event(T_DF, 0x07, 0, 3, 1);
	os_set_root(osroot);
	PAPI_library_init(PAPI_VER_CURRENT);
	int es = PAPI_NULL, before = open_fds();
	ok(PAPI_create_eventset(&es) == PAPI_OK && PAPI_add_named_event(es, "amd_df/event=0x7/") == PAPI_OK &&
	   PAPI_start(es) == PAPI_OK, "count on a PMU whose cpumask names 100 CPUs (%s)", papi_last_reason());
	is_int(open_fds() - before, 100, "one counter on each of the 100 CPUs, none left out");
	long long v = 0;
	is_int(PAPI_stop(es, &v), PAPI_OK, "and stop");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	is_int(open_fds(), before, "every counter closed with the set");
	PAPI_shutdown();
	sim_uninstall();
	os_set_root(NULL);
}

static void test_none(void)
{
	struct sim_config c = sim_default_config();
	sim_install(&c);
	PAPI_library_init(PAPI_VER_CURRENT);
	const PAPI_component_info_t *ci = PAPI_get_component_info(1);
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "No uncore PMUs or events found") &&
	   strstr(ci->disabled_reason, "cpu, software"),
	   "only a core PMU: disabled, as PAPI 7, saying what the kernel has: %s", ci ? ci->disabled_reason : "");
	is_int(uncore_pmu_describe(-1, NULL), 0, "and describes no PMU");
	int code;
	papi_clear_reason();
	is_int(PAPI_event_name_to_code("uncore_imc_0::cas_count_read", &code), PAPI_ENOEVNT,
	       "an uncore name names nothing then");
	ok(strstr(papi_last_reason(), "uncore_imc_0 is no PMU of libpfm4's") &&
	   strstr(papi_last_reason(), "perf_event_uncore") &&
	   strstr(papi_last_reason(), "No uncore PMUs or events found"),
	   "and says the component that names such PMUs is disabled, and why: %s", papi_last_reason());
	PAPI_shutdown();
	sim_uninstall();
}

/* A cpumask CPU that the kernel lists as offline cannot be opened: the PMU
 * counts on the rest, and the component works in part (PAPI 7.2's
 * partially_disabled). */
static void test_offline(void)
{
	skx_init(0, 0);
	const PAPI_component_info_t *ci = PAPI_get_component_info(1);
	ok(ci && !ci->disabled && !ci->partially_disabled,
	   "no online list to go by: the whole cpumask, not partially disabled");
	skx_done();

	fs_write(osroot, "sys/devices/system/cpu/online", "0");	/* socket 1's CPU is offline */
	skx_init(0, 0);
	ci = PAPI_get_component_info(1);
	ok(ci && !ci->disabled && ci->initialized && ci->partially_disabled &&
	   strstr(ci->partially_disabled_reason, "uncore_imc_0 CPU 1") &&
	   strstr(ci->partially_disabled_reason, "7 uncore PMUs") &&
	   strstr(ci->partially_disabled_reason, "offline"),
	   "CPU 1 offline: enabled, partially disabled: %s", ci ? ci->partially_disabled_reason : "-");
	struct uncore_pmu_desc d;
	ok(describe("uncore_imc_0", &d) && !strcmp(d.cpus, "0"), "uncore_imc_0 opens on CPU 0 alone");
	static const char *const names[] = {
		"skx_unc_imc0::UNC_M_CAS_COUNT:RD",	/* 3 a cycle on each socket */
		"power::energy-pkg",			/* its cpumask is CPU 0 */
	};
	long long v[2];
	is_int(count(names, 2, 1000000, v), PAPI_OK, "count with socket 1 offline");
	is_int(v[0], 3000000, "the reads of socket 0 alone");
	is_int(v[1], 1000LL * 1000000, "power: all of it, its CPU is online");
	skx_done();

	fs_write(osroot, "sys/devices/system/cpu/online", "5");	/* none of the cpumasks' */
	skx_init(0, 0);
	ci = PAPI_get_component_info(1);
	ok(ci && ci->disabled && !ci->partially_disabled &&
	   strstr(ci->disabled_reason, "every CPU of their cpumasks is offline"),
	   "every cpumask CPU offline: disabled: %s", ci ? ci->disabled_reason : "-");
	skx_done();
	char path[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/sys/devices/system/cpu/online", osroot);
	unlink(path);
}

int main(void)
{
	if (fs_make(osroot) < 0) {
		printf("Bail out! cannot make a directory: %s\n", strerror(errno));
		return 1;
	}
#ifndef __x86_64__
	/* The fake trees are an skx's and a zen's, named partly through
	 * libpfm4's x86 uncore tables, which libpfm4 elsewhere lacks. */
	skip("libpfm4 on this architecture has no x86 uncore tables (make check runs it on x86_64)",
	     "perf_event_uncore on fake skx and zen sysfs trees");
	fs_remove(osroot);
	return tap_done();
#endif
	unsetenv("LIBPFM_FORCE_PMU");	/* libpfm4 then has no uncore table */
	skx_init(0, 0);
	test_describe();
	test_names();
	test_counting();
	test_groups();
	skx_done();
	test_offline();
	test_privilege();
	test_zen();
	test_many_cpus();
	test_none();
	fs_remove(osroot);
	return tap_done();
}

/* t_sim_hybrid.c: libpapi on a simulated hybrid machine (cpu_core + cpu_atom; ARM's big.LITTLE): presets counted on each core type and summed, one type kept alone, and which PMU a core event goes to. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "5-core/door.h"
#include "sim/sim_pmu.h"
#include "tap.h"
#include "pmu_child.h"

/* skx encodings; on the simulated hybrid the P-core PMU is cpu_core (type
 * 4 = PERF_TYPE_RAW), the E-core PMU cpu_atom (type 10), whose events this
 * libpfm4 cannot name: its presets are the kernel's generic events, opened
 * with cpu_atom's type in the upper half of the config. */
#define CYC 0x3c	/* UNHALTED_CORE_CYCLES */
#define INS 0xc0	/* INST_RETIRED:ANY_P */
#define BR 0xc4		/* BR_INST_RETIRED:ALL_BRANCHES */
#define ATOM 10ull
#define N 4000000	/* cycles each run */

/* The rates the simulated PMUs count at, per cycle: the oracle. Each core
 * type counts its own: a sum that took one PMU twice, or one alone, shows. */
static const struct {
	uint32_t type;
	uint64_t config;
	unsigned long long num, den;
} rates[] = {
	{ PERF_TYPE_RAW, CYC, 1, 1 },
	{ PERF_TYPE_RAW, INS, 3, 1 },
	{ PERF_TYPE_RAW, BR, 1, 4 },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES | ATOM << 32, 7, 1 },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS | ATOM << 32, 11, 1 },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS | ATOM << 32, 3, 1 },
};
#define CORE(i, n) ((long long)((n) * rates[i].num / rates[i].den))
#define ATOMV(i, n) ((long long)((n) * rates[(i) + 3].num / rates[(i) + 3].den))

static void declare(void)
{
	for (size_t i = 0; i < sizeof rates / sizeof *rates; i++)
		sim_event(rates[i].type, rates[i].config, SIM_ANY_GP, rates[i].num, rates[i].den);
}

/* The sim's open counters that lead a group (opened disabled) and all. */
static int leaders(int *all)
{
	int n = 0;
	*all = 0;
	for (int fd = 0; fd < 1024; fd++) {
		const struct perf_event_attr *a = sim_attr(fd);
		if (a) {
			++*all;
			n += a->disabled;
		}
	}
	return n;
}

static int add3(int *es)
{
	*es = PAPI_NULL;
	PAPI_create_eventset(es);
	int r = PAPI_add_event(*es, PAPI_TOT_CYC);
	if (r == PAPI_OK)
		r = PAPI_add_event(*es, PAPI_TOT_INS);
	if (r == PAPI_OK)
		r = PAPI_add_event(*es, PAPI_BR_INS);
	return r;
}

static void drop(int *es)
{
	PAPI_cleanup_eventset(*es);
	PAPI_destroy_eventset(es);
}

static int novf;
static void on_ovf(int es, void *pc, long long vector, void *ctx)
{
	(void)es, (void)pc, (void)vector, (void)ctx;
	novf++;
}

/* Presets on a hybrid whose P-cores libpfm4 knows (skx, forced): each
 * counts on both core PMUs, one counter on each, summed into one value. */
static void presets_on_both(void)
{
	declare();
	sim_event_refuse(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES | ATOM << 32, ENOENT);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init on a simulated hybrid");
	PAPI_event_info_t in;
	is_int(PAPI_get_event_info(PAPI_TOT_CYC, &in), PAPI_OK, "PAPI_TOT_CYC's info");
	/* skx, libpfm4's default core PMU (forced), names its events bare, as
	 * PAPI 7; the sysfs-named cpu_atom keeps its PMU. */
	ok(in.count == 2 && !strcmp(in.derived, "DERIVED_ADD") &&
	   !strncmp(in.name[0], "UNHALTED_CORE_CYCLES", 20) && !strstr(in.name[0], "::") &&
	   !strcmp(in.name[1], "cpu_atom/cycles/"),
	   "the sum of cpu_core's and cpu_atom's cycles: %u %s %s %s", in.count, in.derived, in.name[0],
	   in.name[1]);
	ok(strstr(in.note, "Counts on cpu_core and cpu_atom, summed."), "its note says so: %s", in.note);
	/* The generic table has no conditional branches: cpu_core's alone. */
	is_int(PAPI_get_event_info(PAPI_BR_CN, &in), PAPI_OK, "PAPI_BR_CN's info");
	ok(in.count == 1 && strstr(in.note, "Counts on cpu_core only, not on cpu_atom."),
	   "a preset the E-cores lack counts on the P-cores, and says so: %u %s", in.count, in.note);
	/* cpu_atom's kernel refuses branch-misses: cpu_core's alone. */
	is_int(PAPI_get_event_info(PAPI_BR_MSP, &in), PAPI_OK, "PAPI_BR_MSP's info");
	ok(in.count == 1 && strstr(in.note, "Counts on cpu_core only, not on cpu_atom."),
	   "one the E-cores' kernel refuses too: %u %s", in.count, in.note);
	int es, all;
	long long v[3] = { 0 }, w[3] = { 0 };
	is_int(add3(&es), PAPI_OK, "three presets in one EventSet");
	is_int(PAPI_num_events(es), 3, "one event each");
	is_int(PAPI_start(es), PAPI_OK, "start");
	is_int(leaders(&all), 2, "two groups: one per core PMU");
	is_int(all, 6, "six counters: one per preset and core PMU");
	sim_advance(N);
	is_int(PAPI_read(es, v), PAPI_OK, "read");
	ok(v[0] == CORE(0, N) + ATOMV(0, N) && v[1] == CORE(1, N) + ATOMV(1, N) &&
	   v[2] == CORE(2, N) + ATOMV(2, N), "each value sums both core types: %lld %lld %lld", v[0], v[1], v[2]);
	is_int(PAPI_reset(es), PAPI_OK, "reset");
	sim_advance(N / 2);
	is_int(PAPI_accum(es, w), PAPI_OK, "accum");
	sim_advance(N / 2);
	is_int(PAPI_accum(es, w), PAPI_OK, "accum again");
	ok(w[0] == CORE(0, N) + ATOMV(0, N) && w[2] == CORE(2, N) + ATOMV(2, N),
	   "reset and accum keep the sum: %lld %lld", w[0], w[2]);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	/* The kernel samples one counter, not a sum: software overflow only. */
	is_int(PAPI_overflow(es, PAPI_TOT_CYC, 1000000, 0, NULL), PAPI_EINVAL,
	       "kernel overflow on a hybrid preset is refused");
	is_int(PAPI_overflow(es, PAPI_TOT_CYC, 1000000, PAPI_OVERFLOW_FORCE_SW, on_ovf), PAPI_OK,
	       "software overflow on it is taken");
	is_int(PAPI_overflow(es, PAPI_TOT_CYC, 0, PAPI_OVERFLOW_FORCE_SW, NULL), PAPI_OK, "and cleared");
	int code = PAPI_NULL;
	is_int(PAPI_event_name_to_code("cpu_atom/cycles/", &code), PAPI_OK, "cpu_atom's cycles by name");
	is_int(PAPI_add_event(es, code), PAPI_OK, "added to sample one core type");
	is_int(PAPI_overflow(es, code, 1000000, 0, on_ovf), PAPI_OK, "kernel overflow on it is taken");
	PAPI_start(es);
	sim_advance(N);
	PAPI_stop(es, NULL);
	is_int(novf, (int)(ATOMV(0, N) / 1000000), "each overflow of cpu_atom's cycles reached the handler");
	drop(&es);

	/* Multiplexed: each counter alone, the kernel rotates; same sums. */
	es = PAPI_NULL;
	PAPI_create_eventset(&es);
	PAPI_assign_eventset_component(es, 0);
	is_int(PAPI_set_multiplex(es), PAPI_OK, "multiplex");
	PAPI_add_event(es, PAPI_TOT_CYC);
	PAPI_add_event(es, PAPI_TOT_INS);
	is_int(PAPI_start(es), PAPI_OK, "start multiplexed");
	is_int(leaders(&all), 4, "each counter its own group");
	sim_advance(N);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[0] == CORE(0, N) + ATOMV(0, N) && v[1] == CORE(1, N) + ATOMV(1, N),
	   "multiplexed sums: %lld %lld", v[0], v[1]);
	drop(&es);

	/* Attached to a process: the same counters, task-bound to it. */
	is_int(add3(&es), PAPI_OK, "again, to attach");
	is_int(PAPI_attach(es, (unsigned long)getpid()), PAPI_OK, "attach to this process");
	is_int(PAPI_start(es), PAPI_OK, "start attached");
	sim_advance(N);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[0] == CORE(0, N) + ATOMV(0, N) && v[1] == CORE(1, N) + ATOMV(1, N),
	   "attached sums: %lld %lld", v[0], v[1]);
	drop(&es);
	PAPI_shutdown();
	is_int(sim_open_count(), 0, "no counter left open");
}

/* es_counts_types (papi stat --per-cputype): each preset's part on each
 * core type is that type's simulated count, and the parts sum to the
 * merged value; an event on one PMU has its whole count on that type. */
static void parts(void)
{
	declare();
	PAPI_library_init(PAPI_VER_CURRENT);
	const char *names[8];
	char why[256] = "";
	int nt = coretype_list(names, 8, why, sizeof why);
	ok(nt == 2 && !strcmp(names[0], "cpu_core") && !strcmp(names[1], "cpu_atom"),
	   "two core types: %d %s", nt, nt > 0 ? names[0] : why);
	int es, code = PAPI_NULL;
	is_int(add3(&es), PAPI_OK, "the presets");
	PAPI_event_name_to_code("cpu_atom/cycles/", &code);
	is_int(PAPI_add_event(es, code), PAPI_OK, "and cpu_atom's cycles");
	PAPI_start(es);
	sim_advance(N);
	long long v[4] = { 0 }, p[2 * 4] = { 0 };
	unsigned ty[4] = { 0 };
	is_int(es_counts_types(es, 2, v, NULL, NULL, p, ty), PAPI_OK, "read with each type's part");
	for (int i = 0; i < 3; i++) {
		ok(ty[i] == 3u, "preset %d counts on both types: %#x", i, ty[i]);
		ok(p[i] == CORE(i, N) && p[4 + i] == ATOMV(i, N),
		   "preset %d: cpu_core's part %lld (simulated %lld), cpu_atom's %lld (simulated %lld)", i, p[i],
		   CORE(i, N), p[4 + i], ATOMV(i, N));
		is_int(p[i] + p[4 + i], v[i], "preset %d: the parts sum to the merged value", i);
	}
	ok(ty[3] == 2u && p[3] == 0 && p[7] == ATOMV(0, N) && v[3] == ATOMV(0, N),
	   "cpu_atom/cycles/ is cpu_atom's alone: %#x %lld %lld", ty[3], p[3], p[7]);
	is_int(es_counts_types(es, 2, v, NULL, NULL, NULL, ty), PAPI_EINVAL, "no parts array: refused");
	PAPI_stop(es, NULL);
	drop(&es);
	PAPI_shutdown();
	/* One type kept: nothing to split. */
	PAPI_library_init(PAPI_VER_CURRENT);
	coretype_select("atom", why, sizeof why);
	is_int(coretype_list(names, 8, why, sizeof why), PAPI_ENOSUPP, "--cputype's one type: no parts");
	ok(strstr(why, "cpu_atom alone") != NULL, "the reason: %s", why);
	PAPI_shutdown();
}

/* coretype_select (papi stat --cputype): the presets on one core type. */
static void one_type(const char *type, int core, int atom)
{
	declare();
	PAPI_library_init(PAPI_VER_CURRENT);
	char why[256] = "";
	is_int(coretype_select(type, why, sizeof why), PAPI_OK, "keep the presets to %s", type);
	int es;
	long long v[3] = { 0 };
	is_int(add3(&es), PAPI_OK, "add the presets");
	PAPI_start(es);
	sim_advance(N);
	PAPI_stop(es, v);
	ok(v[0] == core * CORE(0, N) + atom * ATOMV(0, N) && v[1] == core * CORE(1, N) + atom * ATOMV(1, N) &&
	   v[2] == core * CORE(2, N) + atom * ATOMV(2, N), "%s alone: %lld %lld %lld", type, v[0], v[1], v[2]);
	PAPI_event_info_t in;
	PAPI_get_event_info(PAPI_TOT_INS, &in);
	is_int((int)in.count, 1, "one term");
	is_int(coretype_select("core", why, sizeof why), PAPI_EISRUN, "too late once the tables are loaded");
	drop(&es);
	PAPI_shutdown();
	is_int(coretype_selected() == NULL, 1, "PAPI_shutdown forgets the choice");
}

static void bad_types(void)
{
	PAPI_library_init(PAPI_VER_CURRENT);
	char why[256] = "";
	is_int(coretype_select("big", why, sizeof why), PAPI_EINVAL, "no such core type");
	ok(strstr(why, "cpu_core") && strstr(why, "cpu_atom"), "the reason names them: %s", why);
	PAPI_shutdown();
}

/* An event the P-core PMU refuses (ENOENT) but the E-core PMU has is not
 * quietly moved to cpu_atom, whose encodings differ: the add fails. */
static void atom_only(void)
{
	sim_event_refuse(PERF_TYPE_RAW, CYC, ENOENT);
	sim_event(10, CYC, SIM_ANY_GP, 1, 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init again");
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	int r = PAPI_add_named_event(es, "skx::UNHALTED_CORE_CYCLES");
	is_int(r, PAPI_ENOEVNT, "a core event cpu_core lacks is refused");
	is_int(PAPI_num_events(es), 0, "and the set stays empty");
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
}

/* ARM big.LITTLE: two core PMUs, armv8_cortex_a53 and _a72, each with
 * its cpus file; libpfm4 on x86 names neither, so the generic table counts
 * on both (the kernel's generic events, each PMU's type in the config). */
static void big_little(void)
{
	struct sim_config c = sim_hybrid_config();
	c.pmu[0] = (struct sim_pmu_desc){ "armv8_cortex_a53", 8, 6, 0, 64, "" };
	c.pmu[1] = (struct sim_pmu_desc){ "armv8_cortex_a72", 9, 6, 0, 64, "" };
	sim_install(&c);
	setenv("LIBPFM_FORCE_PMU", "nowhere", 1);
	sim_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS | 8ull << 32, SIM_ANY_GP, 1, 2);
	sim_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS | 9ull << 32, SIM_ANY_GP, 5, 2);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init on big.LITTLE");
	PAPI_event_info_t in;
	PAPI_get_event_info(PAPI_TOT_INS, &in);
	ok(in.count == 2 && !strcmp(in.name[0], "armv8_cortex_a53/instructions/") &&
	   !strcmp(in.name[1], "armv8_cortex_a72/instructions/"), "PAPI_TOT_INS on both: %s %s", in.name[0],
	   in.name[1]);
	int es = PAPI_NULL;
	long long v = 0;
	PAPI_create_eventset(&es);
	is_int(PAPI_add_event(es, PAPI_TOT_INS), PAPI_OK, "add PAPI_TOT_INS");
	PAPI_start(es);
	sim_advance(N);
	long long p[2] = { 0 };
	unsigned ty = 0;
	is_int(es_counts_types(es, 2, &v, NULL, NULL, p, &ty), PAPI_OK, "read each type's part");
	ok(ty == 3u && p[0] == N / 2 && p[1] == N * 5 / 2 && p[0] + p[1] == v,
	   "the generic events' parts: LITTLE %lld, big %lld, of %lld", p[0], p[1], v);
	PAPI_stop(es, &v);
	is_int(v, N / 2 + N * 5 / 2, "LITTLE's and big's instructions, summed");
	drop(&es);
	PAPI_shutdown();
	PAPI_library_init(PAPI_VER_CURRENT);
	char why[256] = "";
	is_int(coretype_select("armv8_cortex_a72", why, sizeof why), PAPI_OK, "keep to the big cores");
	PAPI_create_eventset(&es);
	PAPI_add_event(es, PAPI_TOT_INS);
	PAPI_start(es);
	sim_advance(N);
	PAPI_stop(es, &v);
	is_int(v, N * 5 / 2, "the big cores' instructions alone");
	drop(&es);
	PAPI_shutdown();
	sim_uninstall();
	unsetenv("LIBPFM_FORCE_PMU");
}

/* One core type: --cputype has nothing to choose. libpfm4 is kept from
 * naming the host's PMU (its pfm_terminate leaves a PMU it detected
 * active, so on a host whose CPU it knows, the later inits forced to skx
 * would find that PMU too, as a third core type): the sim's one core PMU
 * is named from sysfs. */
static void not_hybrid(void)
{
	struct sim_config c = sim_default_config();
	sim_install(&c);
	setenv("LIBPFM_FORCE_PMU", "nowhere", 1);
	PAPI_library_init(PAPI_VER_CURRENT);
	char why[256] = "";
	is_int(coretype_select("atom", why, sizeof why), PAPI_ENOSUPP, "no hybrid: nothing to select");
	ok(strstr(why, "one core type (cpu)") != NULL, "the reason: %s", why);
	const char *names[8];
	is_int(coretype_list(names, 8, why, sizeof why), PAPI_ENOSUPP, "no hybrid: no core types to split");
	ok(strstr(why, "one core type (cpu)") != NULL, "the reason: %s", why);
	PAPI_shutdown();
	sim_uninstall();
	unsetenv("LIBPFM_FORCE_PMU");
}

int main(void)
{
	big_little();
	not_hybrid();
	if (pmu_tables_missing("skx", "presets on a simulated hybrid PMU"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	struct sim_config c = sim_hybrid_config();
	sim_install(&c);
	presets_on_both();
	sim_uninstall();
	sim_install(&c);
	parts();
	sim_uninstall();
	sim_install(&c);
	one_type("core", 1, 0);
	sim_uninstall();
	sim_install(&c);
	one_type("atom", 0, 1);
	sim_uninstall();
	sim_install(&c);
	bad_types();
	sim_uninstall();
	sim_install(&c);
	atom_only();
	sim_uninstall();
	/* The E-cores' own table (adl_grt) needs a libpfm4 with the Alder Lake
	 * PMUs, which this one has not: here cpu_atom counts the generic events. */
	skip("this libpfm4 has no hybrid (adl_glc/adl_grt) tables", "presets from the E-cores' own table");
	return tap_done();
}

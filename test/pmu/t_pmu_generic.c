/* t_pmu_generic.c: a CPU libpfm4 does not know, on a real kernel PMU driver: the generic presets and the sysfs-named events count a loop of known length.
 *
 * LIBPFM_FORCE_PMU=nowhere leaves libpfm4 knowing no PMU at all, whatever
 * CPU QEMU emulates (QEMU's -cpu max has a MIDR no libpfm4 table matches
 * anyway), so the core PMU the kernel registered is named from sysfs and
 * the presets come from the generic table. pmu_loop(n) retires 2n
 * instructions in user mode; the slack is t_pmu_counting's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pmu_util.h"

#define N 1000000L
#define SLACK 5000
#define REL 0.005

/* The kernel's core PMU, as named from sysfs. */
static const struct pmu *core(void)
{
	for (int i = 0; i < pmu_count(); i++)
		if (pmu_get(i)->sysfs)
			return pmu_get(i);
	return NULL;
}

/* Count names[0..n) over pmu_loop(iters) into v. */
static int count(const char *const *names, int n, long iters, long long *v)
{
	int es, r = pmu_set(&es, names, n);
	if (r != PAPI_OK)
		return r;
	if ((r = PAPI_start(es)) == PAPI_OK) {
		pmu_loop(iters);
		r = PAPI_stop(es, v);
	}
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return r;
}

static void presets(void)
{
	ok(presets_generic() == 1, "the presets come from the generic table");
	ok(pmu_core_unavailable_reason() == NULL, "hardware events can be counted");
	const struct pmu *p = core();
	if (!ok(p != NULL, "a core PMU named from sysfs: %s", p ? p->name : "none"))
		return;
	/* The kernel refuses a group past the counters: the probe stops below its
	 * limit of 32 (QEMU's PMU has six event counters and the cycle counter). */
	ok(p->num_cntrs > 0 && p->num_cntrs < 32, "%d instruction counters found by the kernel",
	   p->num_cntrs);
	diag("%s", pmu_core_sysfs() ? pmu_core_sysfs() : "(no sysfs note)");

	const char *names[] = { "PAPI_TOT_INS", "PAPI_TOT_CYC" };
	long long v[2] = { 0, 0 }, w[2] = { 0, 0 };
	is_int(count(names, 2, N, v), PAPI_OK, "count PAPI_TOT_INS and PAPI_TOT_CYC");
	ok(pmu_near(v[0], PMU_LOOP_INS * N, SLACK, REL), "PAPI_TOT_INS of %ld iterations: %lld (want %ld)", N,
	   v[0], PMU_LOOP_INS * N);
	ok(v[1] > 0, "PAPI_TOT_CYC counted (%lld)", v[1]);
	if (pmu_qemu())
		ok(pmu_near(v[1], v[0], SLACK, REL), "one cycle per instruction on QEMU: %lld", v[1]);
	else
		skip("cycles equal instructions only on QEMU's -icount CPU", "cycles against instructions");
	is_int(count(names, 2, 3 * N, w), PAPI_OK, "count three times the loop");
	ok(pmu_near(w[0] - v[0], 2 * PMU_LOOP_INS * N, SLACK, REL), "3N - N iterations: %lld more instructions",
	   w[0] - v[0]);

	PAPI_event_info_t in;
	is_int(PAPI_get_event_info(PAPI_TOT_INS, &in), PAPI_OK, "PAPI_TOT_INS's info");
	char want[96];
	snprintf(want, sizeof want, "%s/instructions/", p->kernel_name);
	ok(in.count == 1 && !strcmp(in.name[0], want), "counted as %s (%s)", want, in.name[0]);
	ok(in.note[0] != '\0', "with a note on what it counts: %s", in.note);
}

/* The PMU's own named events and raw terms count the same loop. */
static void sysfs_names(void)
{
	const struct pmu *p = core();
	if (!p)
		return;
	char ins[96], raw[96], cyc[96];
	snprintf(ins, sizeof ins, "%s/inst_retired/", p->kernel_name);
	snprintf(raw, sizeof raw, "%s/event=0x08/u", p->kernel_name);	/* INST_RETIRED */
	snprintf(cyc, sizeof cyc, "%s/cpu_cycles/", p->kernel_name);
	const char *names[] = { ins, raw, cyc };
	long long v[3] = { 0, 0, 0 };
	is_int(count(names, 3, N, v), PAPI_OK, "count %s, %s and %s", ins, raw, cyc);
	ok(pmu_near(v[0], PMU_LOOP_INS * N, SLACK, REL), "%s: %lld", ins, v[0]);
	ok(pmu_near(v[1], PMU_LOOP_INS * N, SLACK, REL), "%s: %lld", raw, v[1]);
	ok(v[2] > 0, "%s: %lld", cyc, v[2]);
	int code;
	snprintf(raw, sizeof raw, "%s/event=0x10000/", p->kernel_name);
	ok(PAPI_event_name_to_code(raw, &code) == PAPI_ENOEVNT, "%s does not fit the event field: %s", raw,
	   papi_last_reason());
}

int main(void)
{
	setenv("LIBPFM_FORCE_PMU", "nowhere", 1);
	if (!pmu_begin("the generic presets on a CPU libpfm4 does not know"))
		return tap_done();
	presets();
	sysfs_names();
	PAPI_shutdown();
	return tap_done();
}

/* t_oracle_pmu.c: libpapi's hardware counts of a known loop against the tests' own counter.
 *
 * Where the kernel drives a hardware PMU (make check-pmu's arm64 guest),
 * PAPI_TOT_INS, PAPI_TOT_CYC and the stall presets are counted over a loop
 * of known length, bracketed by a raw counter of the same kernel event
 * (oracle.h): instructions to 1% of the bracket (QEMU's instruction count is
 * one for all its CPUs), cycles and stall cycles to 5%; the raw counter
 * must see the loop's own instructions. Start and stop, then again, then a
 * third time. Elsewhere (this VM: software events only) every case skips
 * with a reason beginning "no hardware PMU", which the guest's run counts
 * as a failure. */
#include <stdio.h>
#include <string.h>

#include "oracle.h"

#define N 2000000UL
#define ROUNDS 3

/* n (>= 1) iterations of a two-instruction loop: 2n instructions. */
__attribute__((noinline)) static void loop(unsigned long n)
{
#if defined(__aarch64__)
	__asm__ volatile("1:\tsubs %0, %0, #1\n\tb.ne 1b\n" : "+r"(n) : : "cc");
#elif defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("1:\tdec %0\n\tjnz 1b\n" : "+r"(n) : : "cc");
#else
	for (volatile unsigned long i = n; i; i--)
		;
#endif
}

/* The raw counter's verdict on the PMU: 0 when it can count this thread's
 * instructions, else -errno. */
static int pmu_err(void)
{
	int fd = raw_open(raw_by_name("PAPI_TOT_INS"), 0, 0, 0);
	if (fd < 0)
		return fd;
	raw_close(fd);
	return 0;
}

/* The kernel event a stall preset stands for here, by its one native
 * event's name: the ARMv8 common event, or the kernel's generic one.
 * NULL (and why) when it is not one stall event. */
static const char *stall_raw(const char *preset, const char *arm, const char *generic, char *why, size_t len)
{
	PAPI_event_info_t info;
	int code;
	if (PAPI_event_name_to_code(preset, &code) != PAPI_OK || PAPI_get_event_info(code, &info) != PAPI_OK ||
	    info.count == 0) {
		snprintf(why, len, "%s is not a preset on this CPU", preset);
		return NULL;
	}
	if (info.count != 1) {
		snprintf(why, len, "%s is %u native events here, not one", preset, info.count);
		return NULL;
	}
	if (strcasestr(info.name[0], arm))
		return arm;
	if (strstr(info.name[0], generic))
		return generic;
	snprintf(why, len, "%s is %s here, which the raw counter does not name", preset, info.name[0]);
	return NULL;
}

/* ROUNDS of start, loop, stop of the set of papi events, each bracketed
 * by the raw events. */
static void compare(const char *const *papi, const char *const *raw, int n, const double *rel)
{
	int es;
	struct orc o;
	long long v[4];
	char what[128];
	if (!ok(orc_set(&es, papi, n, 0) == PAPI_OK && orc_open(&o, raw, n, 0, 0) == 0, "%s and %d more in a set", papi[0],
		n - 1))
		return;
	/* the checks name libpapi's event and, where another, the raw one */
	char label[4][96];
	for (int i = 0; i < n; i++) {
		o.rel[i] = rel[i];
		if (strcmp(papi[i], raw[i]))
			snprintf(label[i], sizeof label[i], "%s (raw %s)", papi[i], raw[i]);
		else
			snprintf(label[i], sizeof label[i], "%s", papi[i]);
	}
	for (int round = 1; round <= ROUNDS; round++) {
		orc_outer_on(&o);
		int r = PAPI_start(es);
		orc_inner_on(&o);
		loop(N);
		orc_inner_off(&o);
		if (r == PAPI_OK)
			r = PAPI_stop(es, v);
		orc_outer_off(&o);
		snprintf(what, sizeof what, "round %d of start, %lu iterations of a 2-instruction loop, stop", round, N);
		if (!ok(r == PAPI_OK, "%s: %s", what, PAPI_strerror(r)))
			break;
		for (int i = 0; i < n; i++) {
			o.names[i] = label[i];
			orc_check(&o, i, v[i], what);
			if (strcmp(raw[i], "PAPI_TOT_INS") == 0)
				ok(o.lo[i] >= 2 * (long long)N, "%s: the raw counter saw the loop's %lu instructions (%lld)",
				   what, 2 * N, o.lo[i]);
		}
	}
	orc_close(&o);
	orc_set_free(&es);
}

int main(void)
{
	if (!ok(PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT, "PAPI_library_init"))
		return tap_done();
	int e = pmu_err();
	if (e < 0) {
		char why[160];
		snprintf(why, sizeof why, "no hardware PMU (the raw counter cannot count instructions: %s)", strerror(-e));
		skip(why, "PAPI_TOT_INS and PAPI_TOT_CYC against the raw counter");
		skip(why, "the stall presets against the raw counter");
		return tap_done();
	}
	static const char *const ic[] = { "PAPI_TOT_INS", "PAPI_TOT_CYC" };
	static const double icrel[] = { 0.01, 0.05 };
	compare(ic, ic, 2, icrel);

	static const char *const stalls[] = { "PAPI_STL_ICY", "PAPI_RES_STL" };
	static const char *const arm[] = { "STALL_FRONTEND", "STALL_BACKEND" };
	static const char *const generic[] = { "stalled-cycles-frontend", "stalled-cycles-backend" };
	static const double srel[] = { 0.05, 0.05 };
	for (int s = 0; s < 2; s++) {
		char why[320];
		const char *raw = stall_raw(stalls[s], arm[s], generic[s], why, sizeof why);
#if !defined(__aarch64__)
		if (raw == arm[s]) {
			snprintf(why, sizeof why, "%s is the ARMv8 event %s, and this is not arm64", stalls[s], arm[s]);
			raw = NULL;
		}
#endif
		if (!raw) {
			skip(why, stalls[s]);
			continue;
		}
		const char *papi[] = { stalls[s] };
		const char *rawn[] = { raw };
		compare(papi, rawn, 1, srel);
	}
	return tap_done();
}

/* t_presets_forced.c: the built-in preset tables under LIBPFM_FORCE_PMU (skx, icx, amd64_fam19h_zen3): every defined preset resolves to the forced PMU's natives, and PAPI_query_event answers as PAPI_add_event does.
 *
 * Each PMU is checked in a forked child, so each starts from a fresh
 * libpfm4. Where the kernel lacks the forced PMU (any machine but that CPU),
 * a preset resolves (papi avail lists it) yet cannot be added; query must
 * then say PAPI_ENOEVNT as add does, or a program that asks first (PAPI's
 * calibrate and case1 tests) fails where it should skip. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"
#include "pmu_child.h"

/* child: force the PMU, then report on fd, one line each:
 *   "defined N resolves N derived N bad N avail N enum N"
 *   "mismatch NAME query Q add A" for each preset where they disagree. */
static void child(const void *ctx, int fd)
{
	const char *pmu = ctx;
	FILE *out = fdopen(fd, "w");
	if (!out)
		_exit(100);
	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	unsetenv("PAPI_CSV_EVENT_FILE");
	unsetenv("PAPI_USER_EVENTS_FILE");
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		_exit(100);
	int nerr;
	const char *const *errs = presets_errors(&nerr);
	for (int i = 0; i < nerr; i++)
		fprintf(out, "load %s\n", errs[i]);
	char prefix[64];
	snprintf(prefix, sizeof prefix, "%s::", pmu);
	int code = PAPI_PRESET_MASK, defined = 0, resolves = 0, derived = 0, bad = 0, avail = 0;
	PAPI_enum_event(&code, PAPI_ENUM_FIRST);
	do {
		PAPI_event_info_t in;
		if (presets_info_full(code, &in) != PAPI_OK || !in.count)
			continue;
		defined++;
		resolves += presets_resolves(code) == PAPI_OK;
		derived += strcmp(in.derived, "NOT_DERIVED") != 0;
		/* The forced PMU is libpfm4's default core PMU: as PAPI 7, a
		 * native of it is named without the PMU, and both spellings
		 * resolve to its code. */
		for (unsigned t = 0; t < in.count; t++) {
			int c, cp;
			char full[PAPI_2MAX_STR_LEN];
			const struct native *nt = native_get((int)(in.code[t] & PAPI_NATIVE_AND_MASK));
			snprintf(full, sizeof full, "%s%s", prefix, in.name[t]);
			if (!nt || strcmp(nt->name, full) || strstr(in.name[t], "::") ||
			    PAPI_event_name_to_code(in.name[t], &c) != PAPI_OK || (unsigned)c != in.code[t] ||
			    PAPI_event_name_to_code(full, &cp) != PAPI_OK || cp != c)
				fprintf(out, "unresolved %s %s\n", in.symbol, in.name[t]), bad++;
		}
		/* The question: does query foretell add? */
		int q = PAPI_query_event(code), es = PAPI_NULL, a;
		if ((a = PAPI_create_eventset(&es)) == PAPI_OK) {
			a = PAPI_add_event(es, code);
			PAPI_cleanup_eventset(es);
			PAPI_destroy_eventset(&es);
		}
		avail += q == PAPI_OK;
		if ((q == PAPI_ENOEVNT) != (a == PAPI_ENOEVNT) || (q != PAPI_OK && q != PAPI_ENOEVNT))
			fprintf(out, "mismatch %s query %d add %d\n", in.symbol, q, a);
		/* As PAPI 7: count > 0 in the public info means available. */
		PAPI_event_info_t pub;
		if (PAPI_get_event_info(code, &pub) != PAPI_OK || (pub.count > 0) != (q == PAPI_OK))
			fprintf(out, "mismatch %s query %d count %u\n", in.symbol, q, pub.count);
	} while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
	/* Enumerating only the available ones finds those query accepts. */
	int n = 0;
	code = PAPI_PRESET_MASK;
	if (PAPI_query_event(code) == PAPI_OK)
		n++;
	while (PAPI_enum_event(&code, PAPI_PRESET_ENUM_AVAIL) == PAPI_OK)
		n++;
	fprintf(out, "defined %d resolves %d derived %d bad %d avail %d enum %d\n", defined, resolves,
		derived, bad, avail, n);
	fclose(out);
	_exit(0);
}

static void check_pmu(const char *pmu)
{
	char buf[65536];
	int status = 0;
	if (pmu_tables_missing(pmu, "the forced PMU's preset table"))
		return;
	if (pmu_child_run(child, pmu, buf, sizeof buf, &status) < 0) {
		ok(0, "%s: pipe/fork failed", pmu);
		return;
	}
	if (!ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: the child ran (status 0x%x)", pmu,
		status))
		return;
	int defined = -1, resolves = -1, derived = -1, bad = -1, avail = -1, n = -1, mismatch = 0,
	    load = 0;
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		if (sscanf(l, "defined %d resolves %d derived %d bad %d avail %d enum %d", &defined,
			   &resolves, &derived, &bad, &avail, &n) == 6)
			continue;
		if (!strncmp(l, "mismatch ", 9))
			mismatch++;
		if (!strncmp(l, "load ", 5))
			load++;
		diag("%s: %s", pmu, l);
	}
	ok(load == 0, "%s: the table loads without problems", pmu);
	ok(defined >= 30, "%s: many presets defined (%d)", pmu, defined);
	is_int(resolves, defined, "%s: each defined preset resolves for the forced PMU", pmu);
	ok(derived > 0, "%s: some are derived (%d)", pmu, derived);
	is_int(bad, 0, "%s: every native resolves to its own code", pmu);
	is_int(mismatch, 0, "%s: PAPI_query_event and count agree with PAPI_add_event "
	       "for each of the %d presets (%d available)", pmu, defined, avail);
	is_int(n, avail, "%s: PAPI_PRESET_ENUM_AVAIL walks the presets query accepts", pmu);
}

int main(void)
{
	static const char *const pmus[] = { "skx", "icx", "amd64_fam19h_zen3" };
	for (size_t i = 0; i < sizeof pmus / sizeof *pmus; i++)
		check_pmu(pmus[i]);

	/* The category filter and a clean failure, under skx in this process. */
	if (pmu_tables_missing("skx", "the skx preset table"))
		return tap_done();
	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	unsetenv("PAPI_CSV_EVENT_FILE");
	unsetenv("PAPI_USER_EVENTS_FILE");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	int code = PAPI_PRESET_MASK, nbr = 0, wrong = 0;
	while (PAPI_enum_event(&code, PAPI_PRESET_ENUM_BR) == PAPI_OK) {
		PAPI_event_info_t in;
		presets_info_full(code, &in);
		nbr++;
		wrong += !(in.event_type & PAPI_PRESET_BIT_BR);
	}
	ok(nbr > 0 && !wrong, "PAPI_PRESET_ENUM_BR: %d branch presets", nbr);
	/* Counting needs an skx: adding fails with a PAPI error, not a crash. */
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	int r = PAPI_add_event(es, PAPI_TOT_CYC);
	if (r == PAPI_OK)
		r = PAPI_start(es);
	ok(r < 0 || pmu_core_unavailable_reason() == NULL,
	   "PAPI_TOT_CYC under skx: counts or fails cleanly (%d)", r);
	PAPI_shutdown();
	return tap_done();
}

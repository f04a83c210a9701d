/* t_presets_parity.c: under LIBPFM_FORCE_PMU=<pmu>, every preset PAPI 7.0 defines on that PMU is defined and resolves here too.
 *
 * The list comes from test/data/papi7-presets.txt (PAPI 7.0's papi_avail -a
 * per PMU; the file says how it was made). One TAP line per PMU, each
 * checked in a forked child so every PMU starts from a fresh library and
 * libpfm4. A PMU of another architecture than this build's (libpfm4 carries
 * only its own architecture's tables) is skipped with the reason; the
 * aarch64 build of this test, run under qemu-user by make check, checks the
 * ARM lines. A PMU of this architecture that libpfm4 does not know fails. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib.h>

#include "internal.h"
#include "tap.h"
#include "pmu_child.h"

#define MAX_NAMES 128
#define EXIT_UNKNOWN_PMU 77

/* One line of the data file: a PMU and the presets PAPI 7.0 defines there. */
struct pmu_line {
	const char *pmu;
	char **names;
	int n;
};

/* pmu_known: 1 when this libpfm4 has a core PMU of that name. */
static int pmu_known(const char *pmu)
{
	if (pfm_initialize() != PFM_SUCCESS)
		return 0;
	for (int p = 0; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && !strcmp(info.name, pmu))
			return 1;
	}
	return 0;
}

/* child: force pmu, then write each listed preset that is not defined and
 * resolved here (papi avail's "available" under a forced PMU; whether the
 * kernel can count it is t_presets_forced's question) to fd, one a line, and "ours N" with our own count.
 * Exits 0 when all are there, 1 when some are not, EXIT_UNKNOWN_PMU when
 * this libpfm4 lacks the PMU, 100 when the library does not start. */
static void child(const void *ctx, int fd)
{
	const struct pmu_line *pl = ctx;
	const char *pmu = pl->pmu;
	char **names = pl->names;
	int n = pl->n, missing = 0, ours = 0, code = PAPI_PRESET_MASK;
	FILE *out = fdopen(fd, "w");

	if (!out)
		_exit(100);

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	unsetenv("PAPI_CSV_EVENT_FILE");
	unsetenv("PAPI_USER_EVENTS_FILE");
	if (!pmu_known(pmu))
		_exit(EXIT_UNKNOWN_PMU);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		_exit(100);
	for (int i = 0; i < n; i++) {
		PAPI_event_info_t info;
		int c;
		if (PAPI_event_name_to_code(names[i], &c) != PAPI_OK
		    || presets_info_full(c, &info) != PAPI_OK || info.count == 0
		    || presets_resolves(c) != PAPI_OK) {
			fprintf(out, "%s\n", names[i]);
			missing++;
		}
	}
	do
		ours += presets_resolves(code) == PAPI_OK;
	while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
	fprintf(out, "ours %d\n", ours);
	fclose(out);
	_exit(missing ? 1 : 0);
}

/* check_pmu: one TAP line for one line of the data file. */
static void check_pmu(const char *pmu, char **names, int n)
{
	char buf[8192], miss[4096] = "";
	int status = 0, ours = -1;
	struct pmu_line pl = { pmu, names, n };

	if (pmu_child_run(child, &pl, buf, sizeof(buf), &status) < 0) {
		ok(0, "%s: pipe/fork: %s", pmu, strerror(errno));
		return;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_UNKNOWN_PMU) {
		char why[160], what[160];
		snprintf(what, sizeof(what), "%s: the %d presets PAPI 7.0 defines", pmu, n);
		if (strcmp(pmu_arch(pmu), BUILD_ARCH)) {
			snprintf(why, sizeof(why), "%s is an %s PMU; libpfm4 on " BUILD_ARCH
				 " has no tables for it", pmu, pmu_arch(pmu));
			skip(why, what);
		} else {
			ok(0, "%s (libpfm4 on " BUILD_ARCH " does not know this PMU)", what);
		}
		return;
	}
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		if (sscanf(l, "ours %d", &ours) == 1)
			continue;
		if (strlen(miss) + strlen(l) + 2 < sizeof(miss)) {
			strcat(miss, " ");
			strcat(miss, l);
		}
	}
	if (!ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		"%s: defines the %d presets PAPI 7.0 defines (ours: %d)", pmu, n, ours)) {
		if (*miss)
			diag("missing:%s", miss);
		if (!WIFEXITED(status) || WEXITSTATUS(status) == 100)
			diag("child failed (status 0x%x)", status);
	}
}

/* data_path: the data file, found through PAPI_TOP (set by run-tests.sh)
 * or from the top of the source tree as the working directory. */
static FILE *data_open(void)
{
	const char *top = getenv("PAPI_TOP");
	char path[4096];
	snprintf(path, sizeof(path), "%s/test/data/papi7-presets.txt", top && *top ? top : ".");
	FILE *f = fopen(path, "r");
	if (!f)
		diag("%s: %s", path, strerror(errno));
	return f;
}

int main(void)
{
	FILE *f = data_open();
	char line[8192];
	int npmus = 0;

	if (!ok(f != NULL, "the PAPI 7.0 preset lists are readable"))
		return tap_done();
	while (fgets(line, sizeof(line), f)) {
		char *names[MAX_NAMES], *pmu, *save = NULL;
		int n = 0;
		if (line[0] == '#' || !(pmu = strtok_r(line, " \t\n", &save)))
			continue;
		for (char *w; n < MAX_NAMES && (w = strtok_r(NULL, " \t\n", &save)); )
			names[n++] = w;
		npmus++;
		check_pmu(pmu, names, n);
	}
	fclose(f);
	ok(npmus >= 40, "the data file lists many PMUs (%d)", npmus);
	return tap_done();
}

/* t_group_tables.c: checks the built-in metric groups of events/ against libpfm4, the preset catalogue and each CPU's preset table.
 *
 * Every group file must parse clean. Each event name of a group is then
 * checked for what it is: a preset must be in PAPI's catalogue, and where
 * the group is for given CPUs, defined by that CPU's preset table; a perf::
 * name must be one libpfm4 knows; "pmu::EVENT" and a bare native name (of
 * the section's CPU) must encode, uncore PMUs included (libpfm4 is asked to
 * encode for PMUs this machine lacks). Component events ("cmp:::EVENT") are
 * named by components that may not exist yet: they are listed, not
 * checked. Each CPU is checked in a forked child under LIBPFM_FORCE_PMU; an
 * ARM CPU is skipped on x86 with the reason (make check runs the aarch64
 * build of this test under qemu-user). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "internal.h"
#include "pmu_child.h"
#include "tap.h"
#include "3-naming/events_tbl.h"
#include "3-naming/preset_catalog.h"

#define EXIT_UNKNOWN_PMU 77

static struct mgroup *groups[256];
static int ngroups;

static int keep(void *ctx, struct mgroup *g, char *why, size_t len)
{
	(void)ctx;
	if (ngroups == 256) {
		snprintf(why, len, "more than 256 groups: raise the test's limit");
		return PAPI_ENOMEM;
	}
	groups[ngroups++] = g;
	return PAPI_OK;
}

/* One alternative: 0 when it checks out, else a line on out. pmu: the
 * section's CPU, NULL for a generic group. */
/* A kernel PMU's event by its format fields ("cpu/event=0x1a0,umask=0x1/"),
 * which libpapi encodes from sysfs, not libpfm4: the form, and terms that
 * are the core PMUs' fields, each with a number. */
static int check_terms(FILE *out, const struct mgroup *g, const char *name)
{
	static const char *const fields[] = { "event", "umask", "cmask", "inv", "edge", "any" };
	const char *t = strchr(name, '/');
	size_t len = strlen(name);
	if (t == name || name[len - 1] != '/' || t == name + len - 1) {
		fprintf(out, "%s: %s: not PMU/TERMS/\n", g->name, name);
		return 1;
	}
	char terms[256];
	snprintf(terms, sizeof terms, "%.*s", (int)(name + len - 1 - (t + 1)), t + 1);
	for (char *save = NULL, *term = strtok_r(terms, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '='), *end;
		size_t k, n = eq ? (size_t)(eq - term) : 0;
		for (k = 0; eq && k < sizeof fields / sizeof fields[0]; k++)
			if (strlen(fields[k]) == n && !strncmp(fields[k], term, n))
				break;
		if (!eq || k == sizeof fields / sizeof fields[0] || (strtoull(eq + 1, &end, 0), *end) || !eq[1]) {
			fprintf(out, "%s: %s: term %s is no core PMU field with a number\n", g->name, name, term);
			return 1;
		}
	}
	return 0;
}

static int check_name(FILE *out, const struct mgroup *g, const char *name, const char *pmu)
{
	if (strstr(name, ":::"))
		return 0;	/* a component's event */
	if (!strncmp(name, "PAPI_", 5)) {
		int code;
		if (preset_catalog_find(name) < 0) {
			fprintf(out, "%s: %s: not a PAPI preset\n", g->name, name);
			return 1;
		}
		if (!pmu)
			return 0;
		struct def_event ev;
		int avail;
		if (PAPI_event_name_to_code(name, &code) != PAPI_OK ||
		    presets_definition(code, &ev, &avail) != PAPI_OK) {
			fprintf(out, "%s: %s: %s's preset table does not define it\n", g->name, name, pmu);
			return 1;
		}
		return 0;
	}
	if (strchr(name, '/'))
		return check_terms(out, g, name);
	char full[PAPI_HUGE_STR_LEN];
	if (strstr(name, "::"))
		snprintf(full, sizeof full, "%s", name);
	else if (pmu)
		snprintf(full, sizeof full, "%s::%s", pmu, name);
	else {
		fprintf(out, "%s: %s: a generic group names a native event without its PMU\n", g->name, name);
		return 1;
	}
	pfm_pmu_encode_arg_t arg;
	memset(&arg, 0, sizeof arg);
	int r = pfm_get_os_event_encoding(full, PFM_PLM3, PFM_OS_NONE, &arg);
	free(arg.codes);
	if (r != PFM_SUCCESS) {
		fprintf(out, "%s: %s: %s\n", g->name, full, pfm_strerror(r));
		return 1;
	}
	return 0;
}

struct child_arg {
	const char *pmu;	/* NULL: the generic groups, unforced */
};

static void child(const void *ctx, int fd)
{
	const struct child_arg *a = ctx;
	FILE *out = fdopen(fd, "w");
	int bad = 0;
	if (a->pmu)
		setenv("LIBPFM_FORCE_PMU", a->pmu, 1);
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	if (!out || pfm_initialize() != PFM_SUCCESS)
		_exit(99);
	if (a->pmu) {
		int found = 0;
		for (int p = 0; p < PFM_PMU_MAX && !found; p++) {
			pfm_pmu_info_t pi;
			memset(&pi, 0, sizeof pi);
			pi.size = sizeof pi;
			found = pfm_get_pmu_info(p, &pi) == PFM_SUCCESS && pi.name && !strcmp(pi.name, a->pmu);
		}
		if (!found)
			_exit(EXIT_UNKNOWN_PMU);
	}
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		_exit(98);
	for (int i = 0; i < ngroups; i++) {
		const struct mgroup *g = groups[i];
		int mine = !a->pmu ? !g->cpus : 0;
		for (int k = 0; a->pmu && g->cpus && g->cpus[k]; k++)
			mine |= !strcmp(g->cpus[k], a->pmu);
		if (!mine)
			continue;
		for (int e = 0; e < g->nev; e++)
			for (int k = 0; k < g->ev[e].nalt; k++)
				bad += check_name(out, g, g->ev[e].alt[k], a->pmu);
	}
	fclose(out);
	_exit(bad > 60 ? 60 : bad);
}

static void check(const char *pmu, int nev)
{
	char what[256], buf[8192];
	int status = 0;
	struct child_arg arg = { pmu };
	snprintf(what, sizeof what, "%d event names of the groups for %s check out", nev,
		 pmu ? pmu : "every machine");
	if (pmu_child_run(child, &arg, buf, sizeof buf, &status) < 0) {
		ok(0, "%s (pipe/fork: %s)", what, strerror(errno));
		return;
	}
	if (pmu && WIFEXITED(status) && WEXITSTATUS(status) == EXIT_UNKNOWN_PMU &&
	    strcmp(pmu_arch(pmu), BUILD_ARCH)) {
		char why[160];
		snprintf(why, sizeof why, "%s is an %s PMU; libpfm4 on " BUILD_ARCH " has no tables for it",
			 pmu, pmu_arch(pmu));
		skip(why, what);
		return;
	}
	if (!ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && buf[0] == '\0', "%s", what)) {
		for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
			diag("  %s", l);
		diag("  child status 0x%x", status);
	}
}

int main(void)
{
	is_int(groups_files_count > 0, 1, "group files are built in");
	for (int i = 0; i < groups_files_count; i++) {
		struct mgroup_sink s = { keep, NULL };
		struct msgs errs = { 0 };
		const struct events_file *f = &groups_files[i];
		int n = mgroups_parse(f->path, f->text, strlen(f->text), &s, &errs);
		if (!ok(n == 0, "%s parses clean", f->path))
			for (int k = 0; k < errs.n; k++)
				diag("  %s", errs.v[k]);
		msgs_free(&errs);
	}
	/* Every group has metrics, and every metric uses an event. */
	for (int i = 0; i < ngroups; i++) {
		int used = 1;
		for (int m = 0; m < groups[i]->nmet; m++)
			used &= groups[i]->met[m].nuse > 0 && groups[i]->met[m].use[0] < groups[i]->nev;
		ok(groups[i]->nmet > 0 && used, "%s:%d: %s has metrics, each over its events",
		   groups[i]->file, groups[i]->line, groups[i]->name);
	}
	/* papi stat shows a metric name once, whichever group it is in: two
	 * groups that can be counted together (of different names, on a CPU
	 * both concern) give one name one formula. */
	for (int i = 0; i < ngroups; i++)
		for (int k = i + 1; k < ngroups; k++) {
			const struct mgroup *a = groups[i], *b = groups[k];
			int both = !a->cpus || !b->cpus;
			for (int x = 0; a->cpus && b->cpus && a->cpus[x]; x++)
				for (int y = 0; b->cpus[y]; y++)
					both |= !strcmp(a->cpus[x], b->cpus[y]);
			if (!both || !strcmp(a->name, b->name))
				continue;
			for (int m = 0; m < a->nmet; m++)
				for (int n = 0; n < b->nmet; n++)
					if (!strcmp(a->met[m].name, b->met[n].name) &&
					    (strcmp(a->met[m].formula, b->met[n].formula) ||
					     strcmp(a->met[m].unit, b->met[n].unit)))
						ok(0, "metric %s: '%s' in %s (%s:%d) but '%s' in %s (%s:%d)",
						   a->met[m].name, a->met[m].formula, a->name, a->file, a->met[m].line,
						   b->met[n].formula, b->name, b->file, b->met[n].line);
		}
	ok(1, "a metric name has one formula and unit across groups");
	/* The CPUs the sections name, each checked once; then the generic groups. */
	const char *pmus[64];
	int npmus = 0, nev_generic = 0;
	for (int i = 0; i < ngroups; i++) {
		if (!groups[i]->cpus) {
			nev_generic += groups[i]->nev;
			continue;
		}
		for (int k = 0; groups[i]->cpus[k]; k++) {
			int seen = 0;
			for (int j = 0; j < npmus; j++)
				seen |= !strcmp(pmus[j], groups[i]->cpus[k]);
			if (!seen && npmus < 64)
				pmus[npmus++] = groups[i]->cpus[k];
		}
	}
	check(NULL, nev_generic);
	for (int j = 0; j < npmus; j++) {
		int nev = 0;
		for (int i = 0; i < ngroups; i++)
			for (int k = 0; groups[i]->cpus && groups[i]->cpus[k]; k++)
				if (!strcmp(groups[i]->cpus[k], pmus[j]))
					nev += groups[i]->nev;
		check(pmus[j], nev);
	}
	for (int i = 0; i < ngroups; i++)
		mgroup_free(groups[i]);
	return tap_done();
}

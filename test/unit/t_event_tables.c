/* t_event_tables.c: checks the built-in preset tables of events/ against libpfm4 and the catalogue.
 *
 * For every embedded file: every line must parse (known command, known
 * derived type, right number of base events, formulas that only name base
 * events that exist, preset names from the catalogue). For every CPU section:
 * every native base event must resolve and encode under
 * LIBPFM_FORCE_PMU=<pmu>, checked in a forked child so each PMU starts from a
 * fresh libpfm4. A PMU of another architecture (libpfm4 carries only its own
 * architecture's tables) is skipped with the reason: make check runs the
 * aarch64 build of this test under qemu-user for the ARM tables. A PMU listed
 * on a "# UNVERIFIED: <pmu>" comment line whose tables this libpfm4 lacks is
 * skipped too; if libpfm4 does know it, it is checked like the others.
 *
 * The line splitter here is deliberately independent of the library's
 * definition-file parser, so the data is checked by a second reading. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>
#include "tap.h"
#include "pmu_child.h"
#include "3-naming/events_tbl.h"
#include "3-naming/preset_catalog.h"

#define MAX_FIELDS 64
#define MAX_CPUS 16
#define MAX_NATIVE 1024
#define MAX_UNVERIFIED 32
#define EXIT_UNKNOWN_PMU 77


/* One section: the CPU names that head it and the native names it uses. */
struct section {
	const char *file;
	int line;			/* line of its first CPU command */
	char *cpus[MAX_CPUS];
	int ncpus;
	char *natives[MAX_NATIVE];
	int nnatives;
	char *presets[PRESET_COUNT];
	int npresets;
};

static char *unverified[MAX_UNVERIFIED];
static int nunverified;

/* Appends to a growing error report; each entry is "file:line: what". */
static char errs[16384];

static void err_add(const char *file, int line, const char *fmt, ...)
{
	size_t len = strlen(errs);
	va_list ap;
	if (len + 200 > sizeof(errs))
		return;
	len += snprintf(errs + len, sizeof(errs) - len, "\n#   %s:%d: ", file, line);
	va_start(ap, fmt);
	vsnprintf(errs + len, sizeof(errs) - len, fmt, ap);
	va_end(ap);
}

/* split_line: splits one line in place into fields at commas. A field may be
 * quoted with "..." or '...' (commas inside stay); blanks around fields are
 * dropped. Returns the field count, or -1 for an unterminated quote. */
static int split_line(char *s, char **f, int max)
{
	int n = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (n == max)
			return n;
		if (*s == '"' || *s == '\'') {
			char q = *s++;
			f[n++] = s;
			char *e = strchr(s, q);
			if (!e)
				return -1;
			*e = '\0';
			s = e + 1;
			while (*s == ' ' || *s == '\t')
				s++;
			if (*s == '\0')
				return n;
			if (*s != ',')
				return -1;
			s++;
			continue;
		}
		f[n++] = s;
		char *c = strchr(s, ',');
		char *end = c ? c : s + strlen(s);
		while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (!c) {
			*end = '\0';
			return n;
		}
		*end = '\0';
		s = c + 1;
	}
}

static int is_keyword(const char *s)
{
	return !strcmp(s, "LDESC") || !strcmp(s, "SDESC") || !strcmp(s, "NOTE");
}

/* check_formula: nonzero when the postfix (or infix) formula only names
 * N0..N<nbase-1>, uses known operators, and (postfix) leaves one value. */
static int check_formula(const char *formula, int nbase, int postfix, char *why, size_t whylen)
{
	int depth = 0;
	const char *p = formula;
	if (!*p) {
		snprintf(why, whylen, "empty formula");
		return 0;
	}
	while (*p) {
		if (postfix && *p == '|') {
			p++;
			continue;
		}
		if (*p == 'N' && isdigit((unsigned char)p[1])) {
			char *e;
			long k = strtol(p + 1, &e, 10);
			if (k >= nbase) {
				snprintf(why, whylen, "formula names N%ld but there are %d base events", k, nbase);
				return 0;
			}
			p = e;
			depth++;
		} else if (isdigit((unsigned char)*p)) {
			while (isdigit((unsigned char)*p))
				p++;
			depth++;
		} else if (strchr("+-*/", *p)) {
			p++;
			if (postfix && --depth < 1) {
				snprintf(why, whylen, "postfix formula pops an empty stack");
				return 0;
			}
		} else if (!postfix && strchr("() ", *p)) {
			p++;
		} else {
			snprintf(why, whylen, "unexpected '%c' in formula", *p);
			return 0;
		}
		if (postfix && *p && *p != '|') {
			snprintf(why, whylen, "postfix tokens must be separated by '|'");
			return 0;
		}
	}
	if (postfix && depth != 1) {
		snprintf(why, whylen, "postfix formula leaves %d values", depth);
		return 0;
	}
	return 1;
}

static void section_add_native(struct section *sec, const char *name)
{
	for (int i = 0; i < sec->nnatives; i++)
		if (!strcmp(sec->natives[i], name))
			return;
	if (sec->nnatives < MAX_NATIVE)
		sec->natives[sec->nnatives++] = strdup(name);
}

/* check_row: one PRESET or EVENT row (fields f[0..n-1]); natives go to sec. */
static void check_row(const char *file, int line, char **f, int n, struct section *sec)
{
	static const struct { const char *name; int min, max, formula; } types[] = {
		{ "NOT_DERIVED", 1, 1, 0 },	{ "DERIVED_ADD", 2, 64, 0 },
		{ "DERIVED_SUB", 2, 64, 0 },	{ "DERIVED_PS", 2, 2, 0 },
		{ "DERIVED_ADD_PS", 3, 3, 0 },	{ "DERIVED_CMPD", 1, 64, 0 },
		{ "DERIVED_POSTFIX", 1, 64, 1 },{ "DERIVED_INFIX", 1, 64, 2 },
	};
	int t, i, nbase, first;
	char why[160];

	if (n < 4) {
		err_add(file, line, "%s needs a name, a derived type and base events", f[0]);
		return;
	}
	if (!strcmp(f[0], "PRESET")) {
		if (preset_catalog_find(f[1]) < 0)
			err_add(file, line, "%s is not one of the %d preset names", f[1], PRESET_COUNT);
		for (i = 0; i < sec->npresets; i++)
			if (!strcmp(sec->presets[i], f[1]))
				err_add(file, line, "%s is defined twice in this section", f[1]);
		if (sec->npresets < PRESET_COUNT)
			sec->presets[sec->npresets++] = strdup(f[1]);
	}
	for (t = 0; t < (int)(sizeof(types) / sizeof(types[0])); t++)
		if (!strcmp(f[2], types[t].name))
			break;
	if (t == (int)(sizeof(types) / sizeof(types[0]))) {
		err_add(file, line, "unknown derived type '%s'", f[2]);
		return;
	}
	first = types[t].formula ? 4 : 3;
	for (nbase = 0; first + nbase < n && !is_keyword(f[first + nbase]); nbase++)
		if (!*f[first + nbase])
			err_add(file, line, "empty base event");
	for (i = first + nbase; i < n; i += 2)
		if (!is_keyword(f[i]) || i + 1 >= n)
			err_add(file, line, "expected LDESC/SDESC/NOTE followed by text, got '%s'", f[i]);
	if (nbase < types[t].min || nbase > types[t].max)
		err_add(file, line, "%s takes %d to %d base events, got %d",
			types[t].name, types[t].min, types[t].max, nbase);
	if (types[t].formula && !check_formula(f[3], nbase, types[t].formula == 1, why, sizeof(why)))
		err_add(file, line, "%s", why);
	if ((t == 3 || t == 4) && nbase > 0 && strcmp(f[first], "PAPI_TOT_CYC"))
		err_add(file, line, "%s must start with PAPI_TOT_CYC", types[t].name);
	for (i = 0; i < nbase; i++) {
		const char *b = f[first + i];
		/* Presets named as base events are checked against the catalogue;
		 * everything else must be a native event of this section's PMU. */
		if (!strncmp(b, "PAPI_", 5)) {
			if (preset_catalog_find(b) < 0)
				err_add(file, line, "base event %s is not a preset name", b);
		} else if (*b) {
			section_add_native(sec, b);
		}
	}
}

static void section_free(struct section *sec)
{
	for (int i = 0; i < sec->ncpus; i++)
		free(sec->cpus[i]);
	for (int i = 0; i < sec->nnatives; i++)
		free(sec->natives[i]);
	for (int i = 0; i < sec->npresets; i++)
		free(sec->presets[i]);
	memset(sec, 0, sizeof(*sec));
}

static int is_unverified(const char *pmu)
{
	for (int i = 0; i < nunverified; i++)
		if (!strcmp(unverified[i], pmu))
			return 1;
	return 0;
}

/* child_check: in a fresh process, force pmu and resolve every native of sec.
 * Writes one line per failure to fd; exits with the failure count (capped),
 * or EXIT_UNKNOWN_PMU when this libpfm4 has no such PMU. */
struct child_arg {
	const struct section *sec;
	const char *pmu;
};

static void child_check(const void *ctx, int fd)
{
	const struct section *sec = ((const struct child_arg *)ctx)->sec;
	const char *pmu = ((const struct child_arg *)ctx)->pmu;
	FILE *out = fdopen(fd, "w");
	int bad = 0, known = 0;
	pfm_pmu_info_t pinfo;

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	unsetenv("LIBPFM_ENCODE_INACTIVE");
	if (!out || pfm_initialize() != PFM_SUCCESS)
		_exit(100);
	for (int p = 0; p < PFM_PMU_MAX; p++) {
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(p, &pinfo) == PFM_SUCCESS && !strcmp(pinfo.name, pmu)) {
			known = 1;
			break;
		}
	}
	if (!known)
		_exit(EXIT_UNKNOWN_PMU);
	if (!pinfo.is_present) {
		fprintf(out, "LIBPFM_FORCE_PMU=%s did not activate it\n", pmu);
		fclose(out);
		_exit(1);
	}
	for (int i = 0; i < sec->nnatives; i++) {
		const char *name = sec->natives[i];
		pfm_event_info_t einfo;
		pfm_pmu_info_t owner;
		struct perf_event_attr attr;
		pfm_perf_encode_arg_t arg;
		int idx = pfm_find_event(name), ret;

		if (idx < 0) {
			fprintf(out, "%s: %s\n", name, pfm_strerror(idx));
			bad++;
			continue;
		}
		memset(&einfo, 0, sizeof(einfo));
		einfo.size = sizeof(einfo);
		memset(&owner, 0, sizeof(owner));
		owner.size = sizeof(owner);
		if (pfm_get_event_info(idx, PFM_OS_NONE, &einfo) != PFM_SUCCESS
		    || pfm_get_pmu_info(einfo.pmu, &owner) != PFM_SUCCESS
		    || strcmp(owner.name, pmu)) {
			fprintf(out, "%s: belongs to PMU %s, not %s\n", name, owner.name ? owner.name : "?", pmu);
			bad++;
			continue;
		}
		memset(&attr, 0, sizeof(attr));
		memset(&arg, 0, sizeof(arg));
		arg.size = sizeof(arg);
		arg.attr = &attr;
		ret = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
		if (ret != PFM_SUCCESS) {
			fprintf(out, "%s: cannot encode: %s\n", name, pfm_strerror(ret));
			bad++;
		}
	}
	fclose(out);
	_exit(bad > 60 ? 60 : bad);
}

/* child_generic: the section "generic" names the kernel's generic events
 * as perf spells them (cycles, L1-dcache-load-misses); libpfm4's perf PMU
 * lists the same names, so each must encode there, unforced, as a
 * PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE event. */
static void child_generic(const void *ctx, int fd)
{
	const struct section *sec = ((const struct child_arg *)ctx)->sec;
	FILE *out = fdopen(fd, "w");
	int bad = 0;

	unsetenv("LIBPFM_FORCE_PMU");
	unsetenv("LIBPFM_DISABLED_PMUS");
	if (!out || pfm_initialize() != PFM_SUCCESS)
		_exit(100);
	for (int i = 0; i < sec->nnatives; i++) {
		char name[256];
		struct perf_event_attr attr;
		pfm_perf_encode_arg_t arg;
		snprintf(name, sizeof(name), "perf::%s", sec->natives[i]);
		memset(&attr, 0, sizeof(attr));
		memset(&arg, 0, sizeof(arg));
		arg.size = sizeof(arg);
		arg.attr = &attr;
		int ret = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
		if (ret != PFM_SUCCESS) {
			fprintf(out, "%s: not a generic event: %s\n", sec->natives[i], pfm_strerror(ret));
			bad++;
		} else if (attr.type != PERF_TYPE_HARDWARE && attr.type != PERF_TYPE_HW_CACHE) {
			fprintf(out, "%s: type %u is not a generic hardware event\n", sec->natives[i], attr.type);
			bad++;
		}
	}
	fclose(out);
	_exit(bad > 60 ? 60 : bad);
}

/* check_pmu: one TAP line for one PMU of one section. */
static void check_pmu(const struct section *sec, const char *pmu)
{
	char what[256], buf[8192];
	int status = 0;
	struct child_arg arg = { sec, pmu };
	int generic = !strcmp(pmu, "generic");

	snprintf(what, sizeof(what), "%s:%d: %d native events of %d presets resolve for %s",
		 sec->file, sec->line, sec->nnatives, sec->npresets,
		 generic ? "the kernel's generic events" : pmu);
	if (pmu_child_run(generic ? child_generic : child_check, &arg, buf, sizeof(buf), &status) < 0) {
		ok(0, "%s (pipe/fork: %s)", what, strerror(errno));
		return;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_UNKNOWN_PMU) {
		if (strcmp(pmu_arch(pmu), BUILD_ARCH)) {
			char why[160];
			snprintf(why, sizeof(why), "%s is an %s PMU; libpfm4 on " BUILD_ARCH
				 " has no tables for it", pmu, pmu_arch(pmu));
			skip(why, what);
		} else if (is_unverified(pmu)) {
			char why[128];
			snprintf(why, sizeof(why), "libpfm4 on " BUILD_ARCH " has no %s tables", pmu);
			skip(why, what);
		} else {
			ok(0, "%s (libpfm4 does not know PMU %s; mark it # UNVERIFIED: %s if intended)",
			   what, pmu, pmu);
		}
		return;
	}
	if (!ok(WIFEXITED(status) && WEXITSTATUS(status) == 0 && buf[0] == '\0', "%s", what)) {
		for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
			diag("  %s", l);
		if (!WIFEXITED(status) || WEXITSTATUS(status) == 100)
			diag("  child failed (status 0x%x)", status);
	}
}

/* finish_section: run the per-PMU checks of a finished section. */
static void finish_section(struct section *sec)
{
	if (sec->ncpus > 0) {
		int has_cyc = 0, has_ins = 0;
		for (int i = 0; i < sec->npresets; i++) {
			has_cyc |= !strcmp(sec->presets[i], "PAPI_TOT_CYC");
			has_ins |= !strcmp(sec->presets[i], "PAPI_TOT_INS");
		}
		ok(sec->npresets == 0 || (has_cyc && has_ins),
		   "%s:%d: section for %s defines PAPI_TOT_CYC and PAPI_TOT_INS",
		   sec->file, sec->line, sec->cpus[0]);
		for (int i = 0; i < sec->ncpus; i++)
			check_pmu(sec, sec->cpus[i]);
	}
	section_free(sec);
}

/* check_file: parse one embedded file, one TAP line for its syntax, then
 * the PMU lines of each of its sections. */
static void check_file(const struct events_file *ef)
{
	struct section sec;
	char *text = strdup(ef->text), *f[MAX_FIELDS];
	int lineno = 0, last_was_cpu = 0, ncpu_names = 0, nsections = 0;
	struct section *done = calloc(64, sizeof(*done));

	memset(&sec, 0, sizeof(sec));
	errs[0] = '\0';
	nunverified = 0;
	/* First pass: the UNVERIFIED markers, wherever they are in the file. */
	for (const char *p = ef->text; (p = strstr(p, "# UNVERIFIED:")); p++) {
		char name[64];
		if (sscanf(p + 13, " %63[A-Za-z0-9_]", name) == 1 && nunverified < MAX_UNVERIFIED)
			unverified[nunverified++] = strdup(name);
	}
	/* strsep keeps empty lines, so line numbers stay right. */
	for (char *s = text, *l; (l = strsep(&s, "\n")) != NULL; ) {
		lineno++;
		l[strcspn(l, "\r")] = '\0';
		char *t = l + strspn(l, " \t");
		if (*t == '\0' || *t == '#')
			continue;
		int n = split_line(t, f, MAX_FIELDS);
		if (n < 0) {
			err_add(ef->path, lineno, "unterminated quote");
			continue;
		}
		if (!strcmp(f[0], "CPU")) {
			if (n != 2 || !*f[1]) {
				err_add(ef->path, lineno, "CPU takes exactly one PMU name");
				continue;
			}
			if (!last_was_cpu) {
				if (sec.ncpus && nsections < 64)
					done[nsections++] = sec;
				else
					section_free(&sec);
				memset(&sec, 0, sizeof(sec));
				sec.file = ef->path;
				sec.line = lineno;
			}
			if (sec.ncpus < MAX_CPUS)
				sec.cpus[sec.ncpus++] = strdup(f[1]);
			ncpu_names++;
			last_was_cpu = 1;
			continue;
		}
		last_was_cpu = 0;
		if (strcmp(f[0], "PRESET") && strcmp(f[0], "EVENT")) {
			err_add(ef->path, lineno, "unknown command '%s'", f[0]);
			continue;
		}
		if (!sec.ncpus) {
			err_add(ef->path, lineno, "%s before any CPU line", f[0]);
			continue;
		}
		check_row(ef->path, lineno, f, n, &sec);
	}
	if (sec.ncpus && nsections < 64)
		done[nsections++] = sec;
	else
		section_free(&sec);
	if (!ncpu_names)
		err_add(ef->path, lineno, "no CPU line");
	/* The generator's CPU list must match what the file declares. */
	int listed = 0;
	while (ef->cpus[listed])
		listed++;
	if (!ok(errs[0] == '\0' && listed > 0, "%s: %d lines parse, %d sections, CPU list of %d names",
		ef->path, lineno, nsections, listed))
		printf("%s\n", errs + 1);
	for (int i = 0; i < nsections; i++)
		finish_section(&done[i]);
	for (int i = 0; i < nunverified; i++)
		free(unverified[i]);
	free(done);
	free(text);
}

/* The splitter and formula checker are themselves tested, so a bug in them
 * cannot hide a bad table. */
static void self_test(void)
{
	char line[] = "PRESET, PAPI_X ,\"a, b\",'c',,d";
	char *f[8];
	char why[160];
	int n = split_line(line, f, 8);
	is_int(n, 6, "splitter: field count with quotes and an empty field");
	is_str(f[1], "PAPI_X", "splitter: blanks trimmed");
	is_str(f[2], "a, b", "splitter: comma inside double quotes");
	is_str(f[3], "c", "splitter: single quotes");
	is_str(f[4], "", "splitter: empty field");
	char bad[] = "PRESET,\"open";
	is_int(split_line(bad, f, 8), -1, "splitter: unterminated quote is an error");
	ok(check_formula("N0|N1|+|2|*|", 2, 1, why, sizeof(why)), "postfix: valid formula accepted");
	ok(!check_formula("N0|N2|+|", 2, 1, why, sizeof(why)), "postfix: N2 with two base events rejected");
	ok(!check_formula("N0|N1|", 2, 1, why, sizeof(why)), "postfix: two values left rejected");
	ok(!check_formula("N0|+|", 1, 1, why, sizeof(why)), "postfix: stack underflow rejected");
	ok(check_formula("N0-(N1*4)", 2, 0, why, sizeof(why)), "infix: valid formula accepted");
	is_int(preset_catalog_find("PAPI_REF_CYC"), 107, "catalogue: PAPI_REF_CYC is index 107");
	is_int(preset_catalog_find("PAPI_NOPE"), -1, "catalogue: unknown name");
	is_int(preset_catalog_find("PAPI_L1_DCM"), 0, "catalogue: PAPI_L1_DCM is index 0");
	is_int(preset_catalog_find("PAPI_TOT_INS"), 0x32, "catalogue: PAPI_TOT_INS is index 0x32");
	is_int(preset_catalog_find("PAPI_TOT_CYC"), 0x3b, "catalogue: PAPI_TOT_CYC is index 0x3b");
	int dup = 0, badrow = 0;
	for (int i = 0; i < PRESET_COUNT; i++) {
		const struct preset_def *p = &preset_catalog[i];
		if (strncmp(p->name, "PAPI_", 5) || !*p->sdesc || strlen(p->sdesc) > 20
		    || !*p->ldesc || !p->cat)
			badrow++;
		if (preset_catalog_find(p->name) != i)
			dup++;
	}
	is_int(badrow, 0, "catalogue: every row has a PAPI_ name, descriptions and a category");
	is_int(dup, 0, "catalogue: names are unique");
}

int main(void)
{
	self_test();
	ok(events_files_count > 0, "%d event files are built in", events_files_count);
	for (int i = 0; i < events_files_count; i++)
		check_file(&events_files[i]);
	return tap_done();
}

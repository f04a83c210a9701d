/* encode.c: `papi encode`: papi decode's CSV (or a definition file) to an event definition file, or a group file; or only its check. */
#include "cli.h"
#include "cmds.h"
#include "tool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>

static const struct cli_opt opts[] = {
	{ "check", 'c', no_argument, NULL, "only check FILE; report every problem with its line" },
	{ "cpu", 'C', required_argument, "PMU", "CPU line(s) for CSV input (default: this CPU's PMU)" },
	{ "new", 'n', required_argument, "NAME", "NAME is a new preset, not one PAPI defines (repeatable)" },
	{ 0 },
};

static const struct cli_spec spec = {
	"encode", "[OPTION]... FILE|-",
	"Read the CSV 'papi decode' writes (or a definition file) and write the\n"
	"equivalent event definition file (papi-events(5)) on stdout, for events/\n"
	"or PAPI_CSV_EVENT_FILE; papi decode --groups's CSV (or a group file) becomes\n"
	"a group file (papi-groups(5)), for events/ or PAPI_USER_GROUPS_FILE.\n"
	"Problems are reported as FILE:LINE: what is wrong;\n"
	"the other rows are still written. Exit status 1 when there was a problem.",
	opts, 0,
};

#define MAX_CPUS 16
#define MAX_NEW 64
#define MAX_ELSEWHERE 8

/* ------------------------------------------------------------------ other CPUs' PMUs
 * An event of a CPU core PMU that libpfm4 knows but this machine does not
 * have (its section's CPU, or bases named "skx::...") is checked as that
 * CPU would check it: a pass over the input with the library started as
 * that CPU (LIBPFM_FORCE_PMU) checks that PMU's events, and the last pass,
 * as this machine, checks the rest, reports every problem in line order
 * and writes the output. An event that needs such a PMU and this
 * machine's (perf::) or a second one is checked here. */
struct survey {
	char pmu[MAX_ELSEWHERE][64];	/* the other CPUs' core PMUs the events are of */
	int npmu;
	int *of;			/* by line: 1 + the index in pmu of its event, 0 this machine's */
	int nof;
	int here;			/* an event is checked as this machine */
};

struct verdict {			/* a problem a pass as another CPU found */
	int line, code;
	char *why;
};

struct enc {
	int check;
	const char *cpus[MAX_CPUS + 1];
	int ncpus;
	const char *const *last_cpus;	/* section of the last row written */
	int wrote_cpu;
	char **names;			/* events defined so far (bases may use them) */
	int nnames;
	char absent_pmu[64];		/* a PMU named by the input that is not this machine's */
	char unknown_cpu[64];		/* the last section whose PMU libpfm4 does not know */
	struct survey *sv;		/* which PMU each line's event is of */
	const char *shown, *text;	/* the input (named shown in messages) */
	size_t len;
	int pass;			/* 0 this machine's, k: as sv->pmu[k - 1] */
	struct verdict *verdicts;	/* the problems the passes as other CPUs found */
	int nverdicts;
	const char *fresh[MAX_NEW];	/* --new: preset names PAPI does not define */
	int nfresh;
};

/* A name that goes to the preset table must be one of PAPI's presets, or
 * declared new with --new: a misspelt PAPI_TOT_CYCS would otherwise become
 * a preset of its own, which no program asks for. */
static int preset_name_ok(const struct enc *e, const char *name, char *why, size_t len)
{
	if (strncmp(name, "PAPI_", 5) || preset_catalog_find(name) >= 0)
		return 1;
	for (int i = 0; i < e->nfresh; i++)
		if (!strcmp(e->fresh[i], name))
			return 1;
	/* the parser names the row's event before why */
	char dym[PAPI_HUGE_STR_LEN];
	const char *near = cli_suggest(name, dym, sizeof dym);
	snprintf(why, len, "not a preset PAPI defines%s%s%s; a new preset must be declared with "
		 "--new %s (a name without PAPI_ makes a user event)", near ? " (" : "",
		 near ? near : "", near ? ")" : "", name);
	return 0;
}

static int known(struct enc *e, const char *name)
{
	for (int i = 0; i < e->nnames; i++)
		if (!strcmp(e->names[i], name))
			return 1;
	return 0;
}

/* Is base a native, preset or earlier event? Natives of a section are tried
 * as pmu::name first, as the library does. */
static int base_ok(struct enc *e, const struct def_event *ev, const char *base)
{
	int code;
	char q[PAPI_HUGE_STR_LEN];
	if (known(e, base))
		return 1;
	if (ev->pmu && !strstr(base, "::")) {
		snprintf(q, sizeof q, "%s::%s", ev->pmu, base);
		if (PAPI_event_name_to_code(q, &code) == PAPI_OK)
			return 1;
	}
	return PAPI_event_name_to_code(base, &code) == PAPI_OK;
}

static int same_cpus(const char *const *a, const char *const *b)
{
	if (!a || !b)
		return a == b;
	for (; *a && *b; a++, b++)
		if (strcmp(*a, *b))
			return 0;
	return !*a && !*b;
}

/* What libpfm4 says of the PMU called name (n bytes): 1 it knows it and
 * this machine has it, 0 it knows it but this machine has none (another
 * CPU's), -1 it knows no PMU of that name. *core: a CPU core's PMU. */
static int pmu_state(const char *name, size_t n, int *core)
{
	struct pfm_pmu_brief pi;
	if (!n || !pmu_count() || !pmu_pfm_named(name, n, &pi))
		return -1;
	if (core)
		*core = pi.core;
	return pi.present ? 1 : 0;
}

/* Is the PMU that prefixes name ("skx::...") one libpfm4 knows but did not
 * detect on this machine?  Then copy its name to out (size > 0) and say 1. */
static int pmu_elsewhere(const char *name, char *out, size_t size)
{
	const char *sep = strstr(name, "::");
	size_t n = sep ? (size_t)(sep - name) : 0;
	if (!n || n >= size || pmu_state(name, n, NULL) != 0)
		return 0;
	memcpy(out, name, n);
	out[n] = '\0';
	return 1;
}

/* A section ("CPU,name" lines) no machine loads: none of its names is
 * "generic" or a PMU libpfm4 knows. */
static int section_unknown(const struct def_event *ev)
{
	if (!ev->cpus)
		return 0;
	for (int i = 0; ev->cpus[i]; i++)
		if (!strcmp(ev->cpus[i], "generic") || pmu_state(ev->cpus[i], strlen(ev->cpus[i]), NULL) >= 0)
			return 0;
	return 1;
}

/* The section's first name that libpfm4 knows as a PMU, NULL when none. */
static const char *section_pmu(const struct def_event *ev)
{
	for (int i = 0; ev->cpus && ev->cpus[i]; i++)
		if (pmu_state(ev->cpus[i], strlen(ev->cpus[i]), NULL) >= 0)
			return ev->cpus[i];
	return NULL;
}

/* The index in s->pmu of the PMU called name (n bytes) when it is a CPU
 * core PMU libpfm4 knows but this machine lacks (added when new), else -1. */
static int elsewhere_index(struct survey *s, const char *name, size_t n)
{
	int core = 0;
	if (pmu_state(name, n, &core) != 0 || !core || n >= sizeof s->pmu[0])
		return -1;
	for (int k = 0; k < s->npmu; k++)
		if (strlen(s->pmu[k]) == n && !strncmp(s->pmu[k], name, n))
			return k;
	if (s->npmu == MAX_ELSEWHERE)
		return -1;
	memcpy(s->pmu[s->npmu], name, n);
	s->pmu[s->npmu][n] = '\0';
	return s->npmu++;
}

/* Note that line's event is of PMU of (1 + its index, 0 this machine's). */
static int survey_mark(struct survey *s, int line, int of)
{
	if (line < 0)
		return PAPI_EINVAL;
	if (line >= s->nof) {
		int n = line + 64, *v = realloc(s->of, (size_t)n * sizeof *v);
		if (!v)
			return PAPI_ENOMEM;
		memset(v + s->nof, 0, (size_t)(n - s->nof) * sizeof *v);
		s->of = v;
		s->nof = n;
	}
	s->of[line] = of;
	return PAPI_OK;
}

/* The first pass: which PMU each event is of. */
static int survey_event(void *ctx, const struct def_event *ev, char *why, size_t len)
{
	struct survey *s = ctx;
	const char *sect = section_pmu(ev);
	int t = sect ? elsewhere_index(s, sect, strlen(sect)) : -1;
	int here = sect && t < 0;
	for (int i = 0; i < ev->nbase; i++) {
		const char *sep = strstr(ev->base[i], "::");
		int k = sep ? elsewhere_index(s, ev->base[i], (size_t)(sep - ev->base[i])) : -1;
		if ((sep && k < 0) || (k >= 0 && t >= 0 && k != t))
			here = 1;	/* this machine's PMU, or a second one */
		else if (k >= 0)
			t = k;
		else if (!sep && !sect && strncmp(ev->base[i], "PAPI_", 5))
			here = 1;	/* a bare name outside a section: this machine's */
	}
	s->here |= here || t < 0;
	if (survey_mark(s, ev->line, here ? 0 : t + 1) != PAPI_OK) {
		snprintf(why, len, "out of memory");
		return PAPI_ENOMEM;
	}
	return PAPI_OK;
}

/* A definition file holds names and text: a control byte (or a byte that is
 * not UTF-8) in a field is a mistake, and would reach the terminal of
 * whoever reads the output. */
static int fields_clean(const struct def_event *ev, char *why, size_t len)
{
	const char *what[] = { "name", "formula", "long description", "short description", "note" };
	const char *val[] = { ev->name, ev->formula, ev->ldesc, ev->sdesc, ev->note };
	const char *c;
	for (size_t i = 0; i < sizeof val / sizeof *val; i++)
		if ((c = cli_unsafe_at(val[i]))) {
			snprintf(why, len, "byte 0x%02x in the %s: a control character or not UTF-8",
				 (unsigned char)*c, what[i]);
			return 0;
		}
	for (int i = 0; i < ev->nbase; i++)
		if ((c = cli_unsafe_at(ev->base[i]))) {
			snprintf(why, len, "byte 0x%02x in base event %d: a control character or not UTF-8",
				 (unsigned char)*c, i + 1);
			return 0;
		}
	return 1;
}

/* Is ev fit for the output: PAPI_OK, or an error with why. */
static int check_event(struct enc *e, const struct def_event *ev, char *why, size_t len)
{
	struct formula *f;
	if (!fields_clean(ev, why, len))
		return PAPI_EINVAL;
	if (!preset_name_ok(e, ev->name, why, len))
		return PAPI_EINVAL;
	int r = formula_compile(ev->derived, ev->formula, ev->nbase, &f, why, len);
	if (r != PAPI_OK)
		return r;
	formula_free(f);
	if (section_unknown(ev)) {
		/* once a section: its rows cannot be checked, and are kept */
		if (!strcmp(e->unknown_cpu, ev->cpus[0]))
			return PAPI_OK;
		snprintf(e->unknown_cpu, sizeof e->unknown_cpu, "%s", ev->cpus[0]);
		snprintf(why, len, "CPU %s: libpfm4 knows no PMU of that name (misspelt, or of another "
			 "architecture than this libpfm4's), so no event of this section can be checked",
			 ev->cpus[0]);
		return PAPI_ENOEVNT;
	}
	for (int i = 0; i < ev->nbase; i++)
		if (!base_ok(e, ev, ev->base[i])) {
			char pmu[64];
			const char *sect = strstr(ev->base[i], "::") ? NULL : section_pmu(ev);
			if (pmu_elsewhere(ev->base[i], pmu, sizeof pmu) ||
			    (sect && pmu_state(sect, strlen(sect), NULL) == 0 &&
			     snprintf(pmu, sizeof pmu, "%s", sect) > 0)) {
				snprintf(why, len, "no event %s here: PMU %s is not this machine's",
					 ev->base[i], pmu);
				if (!e->absent_pmu[0])
					snprintf(e->absent_pmu, sizeof e->absent_pmu, "%s", pmu);
			} else {
				snprintf(why, len, "no event %s on %s", ev->base[i], ev->pmu ? ev->pmu
					 : e->pass ? e->sv->pmu[e->pass - 1] : "this machine");
			}
			return PAPI_ENOEVNT;
		}
	return PAPI_OK;
}

/* The verdict of the pass as another CPU on line: its problem (PAPI_OK:
 * none). */
static int verdict_of(const struct enc *e, int line, char *why, size_t len)
{
	for (int i = 0; i < e->nverdicts; i++)
		if (e->verdicts[i].line == line) {
			snprintf(why, len, "%s", e->verdicts[i].why);
			return e->verdicts[i].code;
		}
	return PAPI_OK;
}

static int on_event(void *ctx, const struct def_event *ev, char *why, size_t len)
{
	struct enc *e = ctx;
	int of = e->sv && ev->line < e->sv->nof ? e->sv->of[ev->line] : 0, r;
	if (e->pass && of != e->pass)
		r = PAPI_OK;	/* another pass's: only its name, for those after it */
	else if (!e->pass && of)
		r = verdict_of(e, ev->line, why, len);
	else
		r = check_event(e, ev, why, len);
	if (r != PAPI_OK && e->pass) {
		struct verdict *v = realloc(e->verdicts, (size_t)(e->nverdicts + 1) * sizeof *v);
		if (!v || !(v[e->nverdicts].why = strdup(why)))
			return PAPI_ENOMEM;
		v[e->nverdicts].line = ev->line;
		v[e->nverdicts++].code = r;
		e->verdicts = v;
	}
	if (r != PAPI_OK)
		return r;
	char **nn = realloc(e->names, (e->nnames + 1) * sizeof *nn);
	if (!nn || !(nn[e->nnames] = strdup(ev->name)))
		return PAPI_ENOMEM;
	e->names = nn;
	e->nnames++;
	if (e->check || e->pass)
		return PAPI_OK;
	const char *const *cpus = ev->cpus ? ev->cpus : e->cpus;
	if (!e->wrote_cpu || !same_cpus(cpus, e->last_cpus)) {
		if (e->wrote_cpu)
			putchar('\n');
		for (int i = 0; cpus[i]; i++)
			printf("CPU,%s\n", cpus[i]);
		e->last_cpus = cpus;
		e->wrote_cpu = 1;
	}
	deffile_write_event(stdout, ev);
	return PAPI_OK;
}

static void names_free(struct enc *e)
{
	for (int i = 0; i < e->nnames; i++)
		free(e->names[i]);
	free(e->names);
	e->names = NULL;
	e->nnames = 0;
}

/* Run fn in a child process whose library starts as pmu ("": as this
 * machine); what fn writes on f comes back to take, a line at a time.
 * Why a child: libpfm4 cannot be started again in one process as another
 * PMU once stopped (a table it built is freed, then read and freed again
 * by the next start). So this runs before the library starts here. */
static int in_child(struct enc *e, const char *pmu, int (*fn)(struct enc *, FILE *),
		    int (*take)(struct enc *, const char *))
{
	int p[2], r = PAPI_OK, st = 0;
	if (pipe(p))
		return PAPI_ESYS;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return PAPI_ESYS;
	}
	if (pid == 0) {
		close(p[0]);
		FILE *f = fdopen(p[1], "w");
		int ok = f && !(*pmu && setenv("LIBPFM_FORCE_PMU", pmu, 1)) &&
			 PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT && fn(e, f) == PAPI_OK;
		_exit(ok && fclose(f) == 0 ? 0 : 1);
	}
	close(p[1]);
	FILE *f = fdopen(p[0], "r");
	char *line = NULL;
	size_t cap = 0;
	while (f && getline(&line, &cap, f) > 0)	/* all of it: the child waits on a full pipe */
		if (r == PAPI_OK)
			r = take(e, line);
	free(line);
	if (f)
		fclose(f);
	else
		close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return r != PAPI_OK ? r : WIFEXITED(st) && WEXITSTATUS(st) == 0 ? PAPI_OK : PAPI_ECMP;
}

/* In the child: the survey of the input, as lines "P\tPMU", "L\tLINE\tOF". */
static int survey_write(struct enc *e, FILE *f)
{
	struct deffile_sink ss = { NULL, survey_event, e->sv };
	struct msgs errs = { 0 };
	int n = deffile_parse(e->shown, e->text, e->len, &ss, &errs);
	msgs_free(&errs);
	for (int k = 0; k < e->sv->npmu; k++)
		fprintf(f, "P\t%s\n", e->sv->pmu[k]);
	fprintf(f, "H\t%d\n", e->sv->here);
	for (int i = 0; i < e->sv->nof; i++)
		if (e->sv->of[i])
			fprintf(f, "L\t%d\t%d\n", i, e->sv->of[i]);
	return n < 0 ? PAPI_ENOMEM : ferror(f) ? PAPI_ESYS : PAPI_OK;
}

static int survey_take(struct enc *e, const char *line)
{
	struct survey *s = e->sv;
	int a, b;
	if (line[0] == 'P' && s->npmu < MAX_ELSEWHERE) {
		snprintf(s->pmu[s->npmu], sizeof s->pmu[0], "%.*s", (int)strcspn(line + 2, "\n"), line + 2);
		s->npmu++;
		return PAPI_OK;
	}
	if (sscanf(line, "H\t%d", &a) == 1) {
		s->here = a;
		return PAPI_OK;
	}
	if (sscanf(line, "L\t%d\t%d", &a, &b) == 2 && b > 0 && b <= s->npmu)
		return survey_mark(s, a, b);
	return PAPI_EBUG;
}

/* In the child: the pass as e->pass's PMU, its problems as lines
 * "LINE\tCODE\tWHY". */
static int pass_write(struct enc *e, FILE *f)
{
	struct deffile_sink s = { NULL, on_event, e };
	struct msgs errs = { 0 };
	int n = deffile_parse(e->shown, e->text, e->len, &s, &errs);
	msgs_free(&errs);
	for (int i = 0; i < e->nverdicts; i++)
		fprintf(f, "%d\t%d\t%s\n", e->verdicts[i].line, e->verdicts[i].code, e->verdicts[i].why);
	return n < 0 ? PAPI_ENOMEM : ferror(f) ? PAPI_ESYS : PAPI_OK;
}

static int pass_take(struct enc *e, const char *line)
{
	int at, code, n = 0;
	if (sscanf(line, "%d\t%d\t%n", &at, &code, &n) != 2 || !n || code >= 0)
		return PAPI_EBUG;
	struct verdict *v = realloc(e->verdicts, (size_t)(e->nverdicts + 1) * sizeof *v);
	if (!v)
		return PAPI_ENOMEM;
	e->verdicts = v;
	if (!(v[e->nverdicts].why = strndup(line + n, strcspn(line + n, "\n"))))
		return PAPI_ENOMEM;
	v[e->nverdicts].line = at;
	v[e->nverdicts++].code = code;
	return PAPI_OK;
}

/* The survey of e's input into sv, then a pass as each other CPU whose
 * events it holds, which leaves its verdicts in e: each in a child, before
 * the library starts in this process. On a failure none is kept: the
 * events are then all checked here. */
static void other_cpus(struct enc *e, struct survey *sv)
{
	int r;
	e->sv = sv;
	if ((r = in_child(e, "", survey_write, survey_take)) == PAPI_OK)
		for (e->pass = 1; r == PAPI_OK && e->pass <= sv->npmu; e->pass++)
			r = in_child(e, sv->pmu[e->pass - 1], pass_write, pass_take);
	e->pass = 0;
	if (r != PAPI_OK) {
		for (int i = 0; i < e->nverdicts; i++)
			free(e->verdicts[i].why);
		free(e->verdicts);
		e->verdicts = NULL;
		e->nverdicts = 0;
		free(sv->of);
		*sv = (struct survey){ .npmu = 0 };
	}
}

/* ------------------------------------------------------------------ group files */
struct genc {
	struct mgroup **g;
	int n;
};

static int keep_group(void *ctx, struct mgroup *g, char *why, size_t len)
{
	struct genc *ge = ctx;
	struct mgroup **v = realloc(ge->g, (size_t)(ge->n + 1) * sizeof *v);
	if (!v) {
		snprintf(why, len, "out of memory");
		return PAPI_ENOMEM;
	}
	ge->g = v;
	ge->g[ge->n++] = g;
	return PAPI_OK;
}

static int same_strv(char *const *a, char *const *b)
{
	return same_cpus((const char *const *)a, (const char *const *)b);
}

/* A group file (or papi decode --groups's CSV) to a group file: the generic
 * groups first (a group file cannot go back to them after a CPU line), then
 * each CPU section, in input order otherwise. */
static int encode_groups(const char *path, const char *text, size_t len, int check)
{
	struct genc ge = { 0 };
	struct mgroup_sink s = { keep_group, &ge };
	struct msgs errs = { 0 };
	const char *shown = strcmp(path, "-") ? path : "<stdin>";
	int nerr = mgroups_parse(shown, text, len, &s, &errs);
	if (!check) {
		printf("# Metric groups written by papi encode from %s.\n"
		       "# Syntax: papi-groups(5).\n", strcmp(path, "-") ? path : "stdin");
		char **last = NULL;
		int any = 0;
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < ge.n; i++) {
				struct mgroup *g = ge.g[i];
				if ((pass == 0) != !g->cpus)
					continue;
				if (g->cpus && (!last || !same_strv(g->cpus, last))) {
					putchar('\n');
					for (int k = 0; g->cpus[k]; k++)
						printf("CPU,%s\n", g->cpus[k]);
					last = g->cpus;
				} else if (any) {
					putchar('\n');
				}
				mgroup_write(stdout, g);
				any = 1;
			}
	}
	for (int i = 0; i < errs.n; i++)
		cli_error(spec.name, "%s", errs.v[i]);
	if (errs.total > errs.n)
		cli_error(spec.name, "... and %d more problems", errs.total - errs.n);
	msgs_free(&errs);
	if (check && nerr == 0)
		cli_error(spec.name, "%s: %d groups, no problems", shown, ge.n);
	for (int i = 0; i < ge.n; i++)
		mgroup_free(ge.g[i]);
	free(ge.g);
	if (nerr < 0)
		return cli_error(spec.name, "%s: %s", path, PAPI_strerror(nerr));
	return cli_finish(spec.name, nerr ? CLI_FAIL : CLI_OK);
}

int cmd_encode(int argc, char **argv)
{
	struct cli_ctx c;
	struct enc e = { 0 };
	int o, n;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1) {
		if (o == 'c')
			e.check = 1;
		else if (o == 'C') {
			if (e.ncpus == MAX_CPUS)
				return cli_usage(spec.name, "more than %d --cpu names", MAX_CPUS);
			e.cpus[e.ncpus++] = c.optarg;
		} else if (o == 'n') {
			if (strncmp(c.optarg, "PAPI_", 5) || !c.optarg[5])
				return cli_usage(spec.name, "--new %s: a preset's name starts with PAPI_",
						 c.optarg);
			if (preset_catalog_find(c.optarg) >= 0)
				return cli_usage(spec.name, "--new %s: PAPI defines that preset already",
						 c.optarg);
			if (e.nfresh == MAX_NEW)
				return cli_usage(spec.name, "more than %d --new names", MAX_NEW);
			e.fresh[e.nfresh++] = c.optarg;
		}
	}
	char **args = cli_operands(&c, &n);
	if (n != 1)
		return cli_usage(spec.name, n ? "one FILE expected" : "FILE (or - for stdin) expected");
	char *text;
	size_t len;
	const char *path = args[0];
	int r = deffile_read(path, &text, &len);
	if (r != PAPI_OK)
		return cli_error(spec.name, "%s: %s", path,
				 r == PAPI_ESYS ? strerror(errno) : PAPI_strerror(r));
	int groups = mgroups_text_is_groups(text, len);
	const char *shown = strcmp(path, "-") ? path : "<stdin>";
	struct survey sv = { .npmu = 0 };
	const char *env = getenv("LIBPFM_FORCE_PMU");
	e.shown = shown;
	e.text = text;
	e.len = len;
	if (!groups && !(env && *env))
		other_cpus(&e, &sv);
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) {
		free(text);
		free(sv.of);
		return cli_error(spec.name, "cannot initialize the library: %s", PAPI_strerror(r));
	}
	event_env_report(spec.name);
	const char *here = NULL;	/* this machine's CPU PMU */
	for (int i = 0; i < pmu_count() && !here; i++)
		if (pmu_get(i)->pfm_type == PFM_PMU_TYPE_CORE)
			here = pmu_get(i)->name;
	if (!e.ncpus && here)
		e.cpus[e.ncpus++] = here;
	if (groups) {
		r = encode_groups(path, text, len, e.check);
		free(text);
		return r;
	}
	if (e.ncpus == 1 && e.cpus[0] == here && sv.npmu == 1 && !sv.here)
		e.cpus[0] = sv.pmu[0];	/* CSV of that PMU's events: its CPU line */
	if (!e.check)
		printf("# Event definitions written by papi encode from %s.\n"
		       "# Syntax: papi-events(5).\n", strcmp(path, "-") ? path : "stdin");
	struct deffile_sink s = { NULL, on_event, &e };
	struct msgs errs = { 0 };
	int nerr = deffile_parse(shown, text, len, &s, &errs);
	free(text);
	int nnames = e.nnames;
	names_free(&e);
	for (int i = 0; i < e.nverdicts; i++)
		free(e.verdicts[i].why);
	free(e.verdicts);
	free(sv.of);
	for (int i = 0; i < errs.n; i++)
		cli_error(spec.name, "%s", errs.v[i]);
	if (errs.total > errs.n)
		cli_error(spec.name, "... and %d more problems", errs.total - errs.n);
	msgs_free(&errs);
	if (e.absent_pmu[0])
		cli_error(spec.name, "PMU %s is not this machine's%s%s%s; to name and encode its events "
			  "here as that CPU would: LIBPFM_FORCE_PMU=%s papi encode%s %s",
			  e.absent_pmu, here ? " (libpfm4 detected " : "", here ? here : "",
			  here ? ")" : "", e.absent_pmu, e.check ? " --check" : "", path);
	if (nerr < 0)
		return cli_error(spec.name, "%s: %s", path, PAPI_strerror(nerr));
	if (e.check && !nerr) {
		char as[MAX_ELSEWHERE * 66] = "";
		for (int k = 0, used = 0; k < sv.npmu; k++)
			used += snprintf(as + used, sizeof as - (size_t)used, "%s%s", k ? ", " : "", sv.pmu[k]);
		cli_error(spec.name, "%s: %d events, no problems%s%s%s", shown, nnames,
			  sv.npmu ? " (checked against libpfm4's tables for " : "", as,
			  !sv.npmu ? "" : sv.npmu > 1 ? ", which are not this machine's PMUs)"
						  : ", which is not this machine's PMU)");
	}
	return cli_finish(spec.name, nerr ? CLI_FAIL : CLI_OK);
}

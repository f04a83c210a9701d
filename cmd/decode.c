/* decode.c: `papi decode`: the preset table of this machine (or the metric groups) as CSV, the input `papi encode` and PAPI_encode_events take. */
#include "cli.h"
#include "cmds.h"
#include "tool.h"
#include "metrics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct cli_opt opts[] = {
	{ "avail", 'a', no_argument, NULL, "only the presets that can be counted here (with -g: the groups that apply here)" },
	{ "groups", 'g', no_argument, NULL, "the metric groups instead: every group file's groups, in order" },
	{ 0 },
};

static const struct cli_spec spec = {
	"decode", "[OPTION]...\n       papi decode --groups [-a] [FILE]",
	"Write the presets defined for this machine as CSV: a title line, a blank\n"
	"line, then one row per preset: name,derived,postfix,short_descr,long_descr,\n"
	"note,native... Native names are canonical (pmu::EVENT:UMASK). Edit it and\n"
	"feed it to 'papi encode' or PAPI_encode_events(). With -g, the metric groups\n"
	"(papi-groups(5)) loaded, or those of the group file FILE ('-': stdin):\n"
	"group,kind,name,definition,unit,description,cpus, one row per group, event\n"
	"and metric; 'papi encode' turns it back into a group file.",
	opts, 0,
};

/* A CSV field, always quoted (descriptions), with "" for a quote. */
static void quoted(const char *s)
{
	putchar(',');
	putchar('"');
	for (; s && *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s == '\n' || *s == '\r' ? ' ' : *s);
	}
	putchar('"');
}

/* A CSV field, quoted only when it must be. */
static void plain(const char *s)
{
	putchar(',');
	cli_csv_quote(stdout, s ? s : "", ',');
}

/* One row of the group CSV. */
static void group_row(const char *group, const char *kind, const char *name, const char *def,
		      const char *unit, const char *desc, const char *cpus)
{
	cli_csv_quote(stdout, group, ',');
	plain(kind);
	plain(name);
	plain(def);
	plain(unit);
	quoted(desc);
	plain(cpus);
	putchar('\n');
}

static void group_rows(const struct mgroup *g)
{
	char cpus[512] = "";
	for (int k = 0; g->cpus && g->cpus[k]; k++)
		snprintf(cpus + strlen(cpus), sizeof cpus - strlen(cpus), "%s%s", k ? " " : "", g->cpus[k]);
	group_row(g->name, "group", "", "", "", g->desc ? g->desc : "", cpus);
	for (int e = 0; e < g->nev; e++)
		group_row(g->name, "event", g->ev[e].alias, g->ev[e].names, "", "", "");
	for (int m = 0; m < g->nmet; m++)
		group_row(g->name, "metric", g->met[m].name, g->met[m].formula, g->met[m].unit,
			  g->met[m].desc, "");
}

static int print_group(void *ctx, struct mgroup *g, char *why, size_t len)
{
	(void)ctx;
	(void)why;
	(void)len;
	group_rows(g);
	mgroup_free(g);
	return PAPI_OK;
}

/* The groups of file path ("-": stdin), or every group loaded (only those
 * that apply here: only_here), in file order. */
static int groups(const char *path, int only_here)
{
	if (path) {
		char *text;
		size_t len;
		int r = deffile_read(path, &text, &len);
		if (r != PAPI_OK)
			return cli_error(spec.name, "%s: %s", path,
					 r == PAPI_ESYS ? strerror(errno) : PAPI_strerror(r));
		printf("group,kind,name,definition,unit,description,cpus\n\n");
		struct mgroup_sink s = { print_group, NULL };
		struct msgs errs = { 0 };
		int nerr = mgroups_parse(strcmp(path, "-") ? path : "<stdin>", text, len, &s, &errs);
		free(text);
		cli_flush();
		for (int i = 0; i < errs.n; i++)
			cli_error(spec.name, "%s", errs.v[i]);
		msgs_free(&errs);
		return cli_finish(spec.name, nerr ? CLI_FAIL : CLI_OK);
	}
	int n, nerr = group_files_report(spec.name);
	const struct mgroup *const *all = mgroups_all(&n);
	printf("group,kind,name,definition,unit,description,cpus\n\n");
	for (int i = 0; i < n; i++)
		if (!only_here || mgroups_find(all[i]->name) == all[i])
			group_rows(all[i]);
	return cli_finish(spec.name, nerr ? CLI_FAIL : CLI_OK);
}

int cmd_decode(int argc, char **argv)
{
	struct cli_ctx c;
	int o, n, only_avail = 0, want_groups = 0;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1) {
		if (o == 'a')
			only_avail = 1;
		else if (o == 'g')
			want_groups = 1;
	}
	char **args = cli_operands(&c, &n);
	if (n > (want_groups ? 1 : 0))
		return cli_usage(spec.name, "unexpected argument '%s'", args[want_groups ? 1 : 0]);
	int r = PAPI_library_init(PAPI_VER_CURRENT);
	if (r != PAPI_VER_CURRENT)
		return cli_error(spec.name, "cannot initialize the library: %s", PAPI_strerror(r));
	event_env_report(spec.name);
	if (want_groups)
		return groups(n ? args[0] : NULL, only_avail);

	printf("name,derived,postfix,short_descr,long_descr,note,[native,...]\n\n");
	int code = PAPI_PRESET_MASK;
	if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK) {
		do {
			struct def_event ev;
			int avail;
			if (presets_definition(code, &ev, &avail) != PAPI_OK)
				continue;
			if (only_avail && !avail)
				continue;
			cli_csv_quote(stdout, ev.name, ',');
			plain(formula_type_name(ev.derived));
			plain(ev.formula);
			quoted(ev.sdesc);
			quoted(ev.ldesc);
			if (ev.note)
				quoted(ev.note);
			else
				putchar(',');
			for (int t = 0; t < ev.nbase; t++)
				plain(ev.base[t]);
			putchar('\n');
		} while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
	}
	return cli_finish(spec.name, CLI_OK);
}

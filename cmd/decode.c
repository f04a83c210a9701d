/* decode.c: `papi decode`: the preset table of this machine as CSV, the input `papi encode` and PAPI_encode_events take. */
#include "cli.h"
#include "cmds.h"
#include "internal.h"

#include <stdio.h>

static const struct cli_opt opts[] = {
	{ "avail", 'a', no_argument, NULL, "only the presets that can be counted here" },
	{ 0 },
};

static const struct cli_spec spec = {
	"decode", "[OPTION]...",
	"Write the presets defined for this machine as CSV: a title line, a blank\n"
	"line, then one row per preset: name,derived,postfix,short_descr,long_descr,\n"
	"note,native... Native names are canonical (pmu::EVENT:UMASK). Edit it and\n"
	"feed it to 'papi encode' or PAPI_encode_events().",
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
	csv_quote(stdout, s ? s : "", ',');
}

int cmd_decode(int argc, char **argv)
{
	struct cli_ctx c;
	int o, n, only_avail = 0;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1)
		if (o == 'a')
			only_avail = 1;
	cli_operands(&c, &n);
	if (n)
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);
	int r = PAPI_library_init(PAPI_VER_CURRENT);
	if (r != PAPI_VER_CURRENT)
		return cli_error(spec.name, "cannot initialize the library: %s", PAPI_strerror(r));
	event_files_report(spec.name);

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
			csv_quote(stdout, ev.name, ',');
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

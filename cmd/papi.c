/* papi.c: the papi binary's entry point: the command table, dispatch by argv[1] or by the name it runs under, and `papi help`. */
#include "cli.h"
#include "cmds.h"
#include "tool.h"

#include <stdio.h>
#include <string.h>

/*
 * THE COMMAND TABLE, in the order `papi help` and `papi --list-cmds` list it.
 *
 * A new subcommand touches:
 *   1. cmd/<name>.c: defines cmd_<name>(argc, argv) with a struct cli_spec
 *      and option table (see cli.h), parsed by cli_begin/cli_next;
 *   2. this table and cmd/cmds.h (a row whose cmd/<name>.c is missing
 *      fails the link: no command can vanish from a build unnoticed);
 *   3. test/cli/<name>.bats;
 *   4. man/papi-<name>.1, and the COMMANDS section of man/papi.1;
 *   5. completions: the static fallback list in completions/bash/papi,
 *      completions/zsh/_papi and completions/fish/papi.fish (options come
 *      from `papi <name> --list-opts`, so they need no edit);
 *   6. its classic tool name, if PAPI has one: classic[] below and CLASSIC
 *      in the Makefile.
 */
struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cmd commands[] = {
	{ "stat", cmd_stat, "run a command and count its events" },
	{ "command-line", cmd_command_line, "count the given events over a workload or a command" },
	{ "avail", cmd_avail, "list preset and user-defined events and whether they can be counted" },
	{ "native", cmd_native, "list native events with their masks and qualifiers" },
	{ "chooser", cmd_chooser, "list the events that can be counted together with given ones" },
	{ "decode", cmd_decode, "write the preset table as CSV" },
	{ "encode", cmd_encode, "turn preset CSV into an event definition file, or check one" },
	{ "groups", cmd_groups, "list the metric groups and whether they can be computed here" },
	{ "hl-report", cmd_hl_report, "summarize the JSON reports of the high-level API" },
	{ "cost", cmd_cost, "measure what PAPI calls cost" },
	{ "clockres", cmd_clockres, "measure the latency and resolution of the timers" },
	{ "mem-info", cmd_mem_info, "show the cache and TLB hierarchy" },
	{ "component", cmd_component, "show the components, their events, and why one is disabled" },
	{ "hardware", cmd_hardware, "show a summary of the hardware" },
	{ "error-codes", cmd_error_codes, "list PAPI's error codes and their messages" },
	{ "version", cmd_version, "show the PAPI API level and the papi version" },
	{ "help", cmd_help, "show the help of papi or of one command" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* PAPI's classic tool names, installed as symlinks to papi. */
static const struct {
	const char *tool, *cmd;
} classic[] = {
	{ "papi_avail", "avail" },
	{ "papi_native_avail", "native" },
	{ "papi_event_chooser", "chooser" },
	{ "papi_decode", "decode" },
	{ "papi_cost", "cost" },
	{ "papi_clockres", "clockres" },
	{ "papi_mem_info", "mem-info" },
	{ "papi_command_line", "command-line" },
	{ "papi_component_avail", "component" },
	{ "papi_hardware_avail", "hardware" },
	{ "papi_error_codes", "error-codes" },
	{ "papi_version", "version" },
};

/* The table row named name; NULL when there is none. */
static const struct cmd *cmd_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fputs("Usage: papi COMMAND [ARG]...\n"
	      "       papi help [COMMAND]\n"
	      "       papi --help | --version | --list-cmds\n"
	      "Explore and count hardware and software performance events\n"
	      "(PAPI on Linux perf_event).\n\nCommands:\n", f);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-14s%s\n", commands[i].name, commands[i].summary);
	fputs("\nRun 'papi help COMMAND' or 'papi COMMAND --help' for a command's options;\n"
	      "'man papi' describes them all and the environment variables.\n", f);
}

/* Edit distance with adjacent transpositions (optimal string alignment);
 * names longer than 63 bytes are never close to anything. */
static int edit_distance(const char *a, const char *b)
{
	enum { MAX = 64 };
	int d[MAX][MAX];
	size_t n = strlen(a), m = strlen(b);

	if (n >= MAX || m >= MAX)
		return MAX;
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (int)i;
	for (size_t k = 0; k <= m; k++)
		d[0][k] = (int)k;
	for (size_t i = 1; i <= n; i++)
		for (size_t k = 1; k <= m; k++) {
			int cost = a[i - 1] != b[k - 1];
			int v = d[i - 1][k] + 1;
			if (d[i][k - 1] + 1 < v)
				v = d[i][k - 1] + 1;
			if (d[i - 1][k - 1] + cost < v)
				v = d[i - 1][k - 1] + cost;
			if (i > 1 && k > 1 && a[i - 1] == b[k - 2] && a[i - 2] == b[k - 1] && d[i - 2][k - 2] + 1 < v)
				v = d[i - 2][k - 2] + 1;
			d[i][k] = v;
		}
	return d[n][m];
}

/* "papi: 'foo' is not a papi command." and the closest names (distance <= 2). */
static int unknown_command(const char *name)
{
	int best = 3, n = 0;

	fprintf(stderr, "papi: '%s' is not a papi command. See 'papi help'.\n", name);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		int dist = edit_distance(name, commands[i].name);
		if (dist < best)
			best = dist;
	}
	for (size_t i = 0; i < NCOMMANDS && best <= 2; i++)
		if (edit_distance(name, commands[i].name) == best)
			fprintf(stderr, "%s'%s'", n++ ? " or " : "Did you mean ", commands[i].name);
	if (n)
		fputs("?\n", stderr);
	return CLI_USAGE;
}

/* Run the command named name with argv[0] replaced by argv0. */
static int run(const char *name, const char *argv0, int argc, char **argv)
{
	const struct cmd *c = cmd_find(name);

	if (!c)
		return unknown_command(name);
	argv[0] = (char *)argv0;
	return c->fn(argc, argv);
}

/* Called as a classic tool (papi_avail) or as papi-<cmd>. */
static int run_as(const char *base, int argc, char **argv)
{
	if (!strncmp(base, "papi-", 5)) {
		const struct cmd *c = cmd_find(base + 5);
		return c ? run(c->name, c->name, argc, argv) : unknown_command(base);
	}
	for (size_t i = 0; i < sizeof(classic) / sizeof(classic[0]); i++)
		if (!strcmp(classic[i].tool, base))
			return run(classic[i].cmd, base, argc, argv);
	return unknown_command(base);
}

static const struct cli_spec help_spec = {
	"help", "[COMMAND]",
	"Without COMMAND, list the commands; with it, show that command's options\n"
	"(the same as 'papi COMMAND --help').",
	(const struct cli_opt[]){ { 0 } }, 0,
};

int cmd_help(int argc, char **argv)
{
	struct cli_ctx c;
	char **args;
	int n;

	cli_begin(&c, &help_spec, argc, argv);
	while (cli_next(&c) != -1)
		;	/* no options of its own; cli_next handles -h and errors */
	args = cli_operands(&c, &n);
	if (n == 0) {
		usage(stdout);
		return cli_finish("help", CLI_OK);
	}
	if (n > 1)
		return cli_usage("help", "one COMMAND at most, not %d", n);
	char *sub[] = { args[0], "--help", NULL };
	return run(args[0], args[0], 2, sub);
}

int main(int argc, char **argv)
{
	const char *base, *a;

	if (argc < 1 || !argv[0]) {
		usage(stderr);
		return CLI_USAGE;
	}
	/* Every command names events with their PMU, those of the CPU's own
	 * PMU too, which PAPI's API names bare: what one machine prints,
	 * another (or LIBPFM_FORCE_PMU, papi encode) reads the same. */
	native_names_qualified(1);
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	if (!strncmp(base, "papi-", 5) || !strncmp(base, "papi_", 5))
		return run_as(base, argc, argv);
	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	a = argv[1];
	if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
		usage(stdout);
		return cli_finish(NULL, CLI_OK);
	}
	if (!strcmp(a, "--version")) {
		char *sub[] = { "version", NULL };
		return cmd_version(1, sub);
	}
	if (!strcmp(a, "--list-cmds")) {
		for (size_t i = 0; i < NCOMMANDS; i++)
			printf("%s\t%s\n", commands[i].name, commands[i].summary);
		return cli_finish(NULL, CLI_OK);
	}
	if (a[0] == '-') {
		fprintf(stderr, "papi: unknown option '%s'. See 'papi help'.\n", a);
		return CLI_USAGE;
	}
	return run(a, a, argc - 1, argv + 1);
}

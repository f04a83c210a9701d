/* stat.c: papi stat: run a command (or attach to running ones) and count its events; its options and its course. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "internal.h"
#include "stat.h"

enum {
	OPT_NO_INHERIT = CLI_LONG(0), OPT_NO_MPX, OPT_TIMEOUT, OPT_KILL_AFTER, OPT_STRICT,
};

static const struct cli_opt opts[] = {
	{ "event", 'e', required_argument, "EV[,EV...]",
	  "count these events (repeatable): presets, native events with qualifiers, user events" },
	{ "repeat", 'r', required_argument, "N", "run the command N times: mean, stddev, min, median, max" },
	{ "field-separator", 'x', required_argument, "SEP", "CSV with separator SEP, with a header row" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ "output", 'o', required_argument, "FILE", "write the report to FILE instead of standard error" },
	{ "pid", 'p', required_argument, "PID[,PID...]", "attach to running processes (all their threads)" },
	{ "tid", 't', required_argument, "TID[,TID...]", "attach to running threads" },
	{ "interval", 'I', required_argument, "MS", "print the counts of every MS milliseconds" },
	{ "timeout", OPT_TIMEOUT, required_argument, "MS",
	  "stop after MS milliseconds: the command gets SIGTERM, then SIGKILL (--kill-after)" },
	{ "kill-after", OPT_KILL_AFTER, required_argument, "MS",
	  "after --timeout's SIGTERM, SIGKILL when the command runs MS more milliseconds (2000)" },
	{ "no-inherit", OPT_NO_INHERIT, no_argument, NULL, "count the command's first thread only" },
	{ "no-multiplex", OPT_NO_MPX, no_argument, NULL,
	  "refuse events that do not fit in the counters together" },
	{ "strict", OPT_STRICT, no_argument, NULL,
	  "refuse to run when an event cannot be counted (else it is reported as not supported)" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cli_spec spec = {
	"stat", "[OPTION]... [--] COMMAND [ARG]...\n       papi stat [OPTION]... -p PID[,PID...] | -t TID[,TID...]",
	"Run COMMAND and count its events from its exec, following its threads and\n"
	"children. The report goes to standard error (or -o FILE); the command's\n"
	"standard input, output and error are its own. An event this machine cannot\n"
	"count is reported as not supported (--strict refuses to run instead).\n"
	"Exit status: the command's, 128+N when signal N killed it, 127 not found,\n"
	"126 not executable, 2 usage, 1 when an event is unknown or cannot be set up.",
	opts, CLI_STOP_AT_ARG,
};

/* ------------------------------------------------------------------ options */
static int parse_ids(const char *arg, pid_t **ids, int *n, const char *what)
{
	char *copy = strdup(arg), *save = NULL;
	if (!copy)
		return -1;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		long v;
		if (cli_long_arg("stat", what, t, 1, 0x3fffffff, &v) < 0) {
			free(copy);
			return -1;
		}
		pid_t *p = realloc(*ids, (size_t)(*n + 1) * sizeof *p);
		if (!p) {
			free(copy);
			return -1;
		}
		*ids = p;
		p[(*n)++] = (pid_t)v;
	}
	free(copy);
	if (*n == 0)
		return cli_usage("stat", "%s needs at least one id", what), -1;
	return 0;
}
static int parse(struct st *s, int argc, char **argv)
{
	struct cli_ctx c;
	int opt;
	long v;
	cli_begin(&c, &spec, argc, argv);
	int kill_after = 0;
	s->o.repeat = 1;
	s->o.kill_after_ms = 2000;
	while ((opt = cli_next(&c)) != -1) {
		switch (opt) {
		case 'e':
			if (st_events_parse(s, c.optarg) < 0)
				return -1;
			break;
		case 'r':
			if (cli_long_arg("stat", "-r", c.optarg, 1, 100000, &v) < 0)
				return -1;
			s->o.repeat = (int)v;
			break;
		case 'x':
			if (strlen(c.optarg) != 1 || c.optarg[0] == '"' || c.optarg[0] == '\n' ||
			    c.optarg[0] == '\r')
				return cli_usage("stat", "-x needs one character other than a quote or "
					  "newline, not '%s'", c.optarg), -1;
			s->o.sep = c.optarg[0];
			break;
		case 'j': s->o.json = 1; break;
		case 'o': s->o.out_path = c.optarg; break;
		case 'p':
			if (parse_ids(c.optarg, &s->o.pids, &s->o.npids, "-p") < 0)
				return -1;
			break;
		case 't':
			if (parse_ids(c.optarg, &s->o.tids, &s->o.ntids, "-t") < 0)
				return -1;
			break;
		case 'I':
			if (cli_long_arg("stat", "-I", c.optarg, 1, 86400000, &s->o.interval_ms) < 0)
				return -1;
			break;
		case OPT_TIMEOUT:
			if (cli_long_arg("stat", "--timeout", c.optarg, 1, 0x7fffffff, &s->o.timeout_ms) < 0)
				return -1;
			break;
		case OPT_KILL_AFTER:
			if (cli_long_arg("stat", "--kill-after", c.optarg, 1, 0x7fffffff, &s->o.kill_after_ms) < 0)
				return -1;
			kill_after = 1;
			break;
		case OPT_NO_INHERIT: s->o.no_inherit = 1; break;
		case OPT_NO_MPX: s->o.no_multiplex = 1; break;
		case OPT_STRICT: s->o.strict = 1; break;
		}
	}
	s->o.cmd = cli_operands(&c, &s->o.ncmd);
	int attach = s->o.npids || s->o.ntids;
	if (s->o.ncmd == 0)
		s->o.cmd = NULL;
	if (!attach && !s->o.cmd)
		return cli_usage("stat", "no command to run (or -p/-t to attach)"), -1;
	if (attach && s->o.cmd)
		return cli_usage("stat", "give a command or -p/-t, not both"), -1;
	if (attach && s->o.repeat > 1)
		return cli_usage("stat", "-r repeats a command; it cannot be used with -p/-t"), -1;
	if (s->o.interval_ms && s->o.repeat > 1)
		return cli_usage("stat", "-I and -r cannot be used together"), -1;
	if (kill_after && !s->o.timeout_ms)
		return cli_usage("stat", "--kill-after needs --timeout"), -1;
	if (kill_after && attach)
		return cli_usage("stat", "--kill-after: attached processes are never signalled"), -1;
	if (s->o.json && s->o.sep)
		return cli_usage("stat", "--json and -x cannot be used together"), -1;
	return 0;
}
int cmd_stat(int argc, char **argv)
{
	struct st s;
	int ret = CLI_FAIL;
	memset(&s, 0, sizeof s);
	s.out = stderr;
	if (parse(&s, argc, argv) < 0) {
		st_free(&s);
		return CLI_USAGE;
	}
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		st_free(&s);
		return cli_error("stat", "cannot initialize the library");
	}
	if (s.nev == 0 && st_events_default(&s) < 0)
		goto out;
	if (st_events_resolve(&s) < 0)
		goto out;
	s.runs = calloc((size_t)s.o.repeat, sizeof *s.runs);
	for (int i = 0; i < s.nev; i++)
		if (!(s.ev[i].val = calloc((size_t)s.o.repeat, sizeof *s.ev[i].val)))
			goto out;
	if (!s.runs)
		goto out;
	if (s.o.out_path && !(s.out = fopen(s.o.out_path, "we"))) {
		s.out = stderr;
		ret = cli_error("stat", "cannot write '%s': %s", s.o.out_path, strerror(errno));
		goto out;
	}
	st_signals_catch();
	if ((ret = st_run_all(&s)) != 0)
		goto out;
	st_report(&s);
	ret = s.exit_code;
	if (fflush(s.out) != 0 || ferror(s.out))
		ret = cli_error("stat", "write error on %s: %s", s.o.out_path ? s.o.out_path : "stderr",
				strerror(errno));
out:
	if (s.out != stderr && fclose(s.out) != 0 && ret == 0)
		ret = cli_error("stat", "write error on %s: %s", s.o.out_path, strerror(errno));
	st_free(&s);
	PAPI_shutdown();
	return ret;
}

/* stat.c: papi stat: run a command (or attach to running ones) and count its events; its options, and the pipeline's stages called in turn. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"
#include "tool.h"
#include "2-plan/plan.h"
#include "3-count/count.h"
#include "4-compute/compute.h"
#include "5-report/report.h"

enum {
	OPT_NO_INHERIT = CLI_LONG(0), OPT_NO_MPX, OPT_TIMEOUT, OPT_KILL_AFTER, OPT_STRICT,
	OPT_PER_RANK, OPT_MERGE, OPT_MERGE_WAIT, OPT_JOB, OPT_IV_COUNT, OPT_DIFF, OPT_REPORT, OPT_SAVE,
	OPT_PLOT, OPT_PER_CPU, OPT_PER_CORE, OPT_PER_SOCKET, OPT_PER_NODE, OPT_PER_THREAD, OPT_PER_PROCESS, OPT_DOMAIN,
	OPT_EACH_CGROUP, OPT_TOPDOWN, OPT_TD_LEVEL, OPT_PER_CPUTYPE, OPT_CPUTYPE,
};

static const struct cli_opt opts[] = {
	{ "event", 'e', required_argument, "EV[,EV...]",
	  "count these events (repeatable): presets, native events with qualifiers, user events" },
	{ "group", 'g', required_argument, "GROUP[,GROUP...]",
	  "count these metric groups' events and print their metrics (repeatable; see 'papi groups')" },
	{ "topdown", OPT_TOPDOWN, no_argument, NULL,
	  "print this CPU's top-down level 1: the shares of its issue slots (or cycles) that were "
	  "front-end bound, bad speculation, back-end bound and retiring" },
	{ "td-level", OPT_TD_LEVEL, required_argument, "LEVEL",
	  "--topdown at this level: 1, or 2 (each category split further, where the PMU can)" },
	{ "repeat", 'r', required_argument, "N", "run the command N times: mean, stddev, min, median, max" },
	{ "field-separator", 'x', required_argument, "SEP", "CSV with separator SEP, with a header row" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ "output", 'o', required_argument, "FILE",
	  "write the report to FILE instead of standard error; %r, %h, %p, %j in FILE become the "
	  "MPI rank, host, pid and job id (such a file is never overwritten)" },
	{ "per-rank", OPT_PER_RANK, required_argument, "DIR",
	  "in an MPI job: each rank writes DIR/papi-stat.JOB.RANK.json; rank 0 waits for them all "
	  "and prints the job's report" },
	{ "merge-wait", OPT_MERGE_WAIT, required_argument, "MS",
	  "--per-rank: rank 0 waits at most MS milliseconds for the other ranks' files" },
	{ "merge", OPT_MERGE, no_argument, NULL,
	  "report an MPI job from its per-rank files: the operands are files or directories" },
	{ "job", OPT_JOB, required_argument, "ID", "--merge: the job to report when the files hold several" },
	{ "diff", OPT_DIFF, no_argument, NULL,
	  "compare two saved runs (BASE.json NEW.json, written with --json): each event's and "
	  "metric's change, and with -r whether it is beyond the runs' spread" },
	{ "save", OPT_SAVE, required_argument, "FILE",
	  "also write the run's JSON report (as --json) into FILE, for --report and --diff later" },
	{ "report", OPT_REPORT, no_argument, NULL,
	  "print a saved run (RUN.json, written with --json) again: as text, -x CSV, --json, or "
	  "--plot its intervals" },
	{ "all-cpus", 'a', no_argument, NULL,
	  "count every online CPU whole, whoever runs there (while the command runs, or until "
	  "interrupted); needs perf_event_paranoid 0 or CAP_PERFMON" },
	{ "cpu", 'C', required_argument, "CPU[,CPU...]", "count these CPUs whole (as -a; 0-3,8 ranges)" },
	{ "cgroup", 'G', required_argument, "CG[,CG...]",
	  "with -a/-C: count only the tasks of cgroup CG (a path under the perf_event cgroup "
	  "hierarchy); one CG for every event, or one per event in order (empty: the whole system)" },
	{ "for-each-cgroup", OPT_EACH_CGROUP, required_argument, "CG[,CG...]",
	  "with -a/-C: count every event in each cgroup, a row per cgroup" },
	{ "per-cpu", OPT_PER_CPU, no_argument, NULL, "with -a/-C: a row per CPU" },
	{ "no-aggr", 'A', no_argument, NULL, "the same as --per-cpu" },
	{ "per-core", OPT_PER_CORE, no_argument, NULL, "with -a/-C: a row per core (its hardware threads summed)" },
	{ "per-socket", OPT_PER_SOCKET, no_argument, NULL, "with -a/-C: a row per socket" },
	{ "per-node", OPT_PER_NODE, no_argument, NULL, "with -a/-C: a row per NUMA node" },
	{ "per-thread", OPT_PER_THREAD, no_argument, NULL,
	  "a row per thread: of the command and every thread and process it starts, or of -p/-t" },
	{ "per-cputype", OPT_PER_CPUTYPE, no_argument, NULL,
	  "hybrid CPU: each event's part on each core type, then their sum" },
	{ "per-process", OPT_PER_PROCESS, no_argument, NULL, "with -p: a row per process" },
	{ "pid", 'p', required_argument, "PID[,PID...]", "attach to running processes (all their threads)" },
	{ "tid", 't', required_argument, "TID[,TID...]", "attach to running threads" },
	{ "interval", 'I', required_argument, "MS", "print the counts of every MS milliseconds" },
	{ "interval-count", OPT_IV_COUNT, required_argument, "N",
	  "with -I: stop counting after N intervals (a command still runs to its end)" },
	{ "plot", OPT_PLOT, required_argument, "FILE",
	  "draw into FILE, an SVG chart, a panel per event and metric: with -I its intervals (with "
	  "--report a saved run's); with --per-rank or --merge its value on each MPI rank, min, "
	  "median and max marked" },
	{ "delay", 'D', required_argument, "MS",
	  "start counting MS milliseconds after the command starts (or after attaching)" },
	{ "timeout", OPT_TIMEOUT, required_argument, "MS",
	  "stop after MS milliseconds: the command gets SIGTERM, then SIGKILL (--kill-after)" },
	{ "kill-after", OPT_KILL_AFTER, required_argument, "MS",
	  "after --timeout's SIGTERM, SIGKILL when the command runs MS more milliseconds (2000)" },
	{ "no-inherit", OPT_NO_INHERIT, no_argument, NULL, "count the command's first thread only" },
	{ "no-multiplex", OPT_NO_MPX, no_argument, NULL,
	  "refuse events that do not fit in the counters together" },
	{ "strict", OPT_STRICT, no_argument, NULL,
	  "refuse to run when an event cannot be counted (else it is reported as not supported)" },
	{ "domain", OPT_DOMAIN, required_argument, "DOM[,DOM...]",
	  "count in these domains: user, kernel, supervisor, or all that this user may (the default)" },
	{ "cputype", OPT_CPUTYPE, required_argument, "CORETYPE",
	  "hybrid CPU: count presets on CORETYPE only (core, atom, or a core PMU's name)" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cli_spec spec = {
	"stat", "[OPTION]... [--] COMMAND [ARG]...\n       papi stat [OPTION]... -p PID[,PID...] | -t TID[,TID...]\n"
	"       papi stat [OPTION]... -a | -C CPU[,CPU...] [[--] COMMAND [ARG]...]\n"
	"       papi stat --merge [OPTION]... DIR|FILE...\n"
	"       papi stat --diff [-j | -x SEP] [-o FILE] BASE.json NEW.json\n"
	"       papi stat --report [-j | -x SEP] [-o FILE] [--plot FILE.svg] RUN.json",
	"Run COMMAND and count its events from its exec, following its threads and\n"
	"children. The report goes to standard error (or -o FILE); the command's\n"
	"standard input, output and error are its own. An event this machine cannot\n"
	"count is reported as not supported (--strict refuses to run instead).\n"
	"Exit status: the command's, 128+N when signal N killed it, 127 not found,\n"
	"126 not executable, 2 usage, 1 when an event is unknown or cannot be set up.",
	opts, CLI_STOP_AT_ARG,
};

/* ------------------------------------------------------------------ options */
/* -G or --for-each-cgroup LIST into s->o.cgroups; -G keeps empty names (an
 * event of the whole system), --for-each-cgroup does not. */
static int parse_cgroups(struct st *s, const char *arg, int each)
{
	const char *what = each ? "--for-each-cgroup" : "-G";
	if (s->o.ncgroups)
		return cli_usage("stat", "-G and --for-each-cgroup are given once, and not together"), -1;
	for (const char *p = arg;; p++) {
		size_t n = strcspn(p, ",");
		if (each && n == 0)
			return cli_usage("stat", "empty cgroup in '%s %s'", what, arg), -1;
		char **g = realloc(s->o.cgroups, (size_t)(s->o.ncgroups + 1) * sizeof *g);
		if (!g || !(g[s->o.ncgroups] = strndup(p, n)))
			return cli_error("stat", "out of memory"), -1;
		s->o.cgroups = g;
		s->o.ncgroups++;
		p += n;
		if (!*p)
			break;
	}
	s->o.each_cgroup = each;
	return 0;
}

static int parse_ids(const char *arg, pid_t **ids, int *n, const char *what)
{
	/* "1,,2" or a trailing comma is a mistake, as an empty name in -e is */
	if (!*arg || *arg == ',' || strstr(arg, ",,") || arg[strlen(arg) - 1] == ',')
		return cli_usage("stat", "empty id in '%s %s'", what, arg), -1;
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

/* Whether an option that shapes a count (what, how, how long) was given. */
static int shapes_count(const struct st *s, int attach, int kill_after)
{
	return s->nev || s->o.ngroups || s->o.topdown || attach || s->o.system_wide || s->o.aggr ||
	       s->o.ncgroups || s->o.repeat > 1 || s->o.interval_ms || s->o.interval_count ||
	       s->o.delay_ms || s->o.per_rank || s->o.timeout_ms || kill_after || s->o.merge_wait_ms ||
	       s->o.cputype || s->o.domain || s->o.no_inherit || s->o.no_multiplex || s->o.strict;
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
		case 'g':
			if (st_groups_parse(s, c.optarg) < 0)
				return -1;
			break;
		case OPT_TOPDOWN:
			s->o.topdown = s->o.topdown ? s->o.topdown : 1;
			break;
		case OPT_TD_LEVEL:
			if (cli_long_arg("stat", "--td-level", c.optarg, 1, 2, &v) < 0)
				return -1;
			s->o.topdown = (int)v;
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
		case 'a': s->o.system_wide = 1; break;
		case OPT_PLOT:
			if (cli_plot_arg("stat", c.optarg) < 0)
				return -1;
			s->o.plot_path = c.optarg;
			break;
		case 'C':
			if (st_cpus_parse(s, c.optarg) < 0)
				return -1;
			s->o.system_wide = 1;
			break;
		case 'G': case OPT_EACH_CGROUP:
			if (parse_cgroups(s, c.optarg, opt == OPT_EACH_CGROUP) < 0)
				return -1;
			break;
		case 'A': case OPT_PER_CPU: case OPT_PER_CORE: case OPT_PER_SOCKET: case OPT_PER_NODE:
		case OPT_PER_THREAD: case OPT_PER_PROCESS: case OPT_PER_CPUTYPE: {
			int a = opt == 'A' || opt == OPT_PER_CPU ? AGGR_CPU : opt == OPT_PER_CORE ? AGGR_CORE
				: opt == OPT_PER_SOCKET ? AGGR_SOCKET : opt == OPT_PER_NODE ? AGGR_NODE
				: opt == OPT_PER_THREAD ? AGGR_THREAD : opt == OPT_PER_CPUTYPE ? AGGR_CPUTYPE
				: AGGR_PROCESS;
			if (s->o.aggr && s->o.aggr != a)
				return cli_usage("stat", "one --per-* at a time"), -1;
			s->o.aggr = a;
			break;
		}
		case OPT_IV_COUNT:
			if (cli_long_arg("stat", c.optword, c.optarg, 1, 0x7fffffff, &s->o.interval_count) < 0)
				return -1;
			break;
		case 'D':
			if (cli_long_arg("stat", c.optword, c.optarg, 1, 86400000, &s->o.delay_ms) < 0)
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
		case OPT_PER_RANK: s->o.per_rank = c.optarg; break;
		case OPT_MERGE: s->o.merge = 1; break;
		case OPT_DIFF: s->o.diff = 1; break;
		case OPT_REPORT: s->o.report = 1; break;
		case OPT_SAVE: s->o.save_path = c.optarg; break;
		case OPT_JOB: s->o.job = c.optarg; break;
		case OPT_MERGE_WAIT:
			if (cli_long_arg("stat", "--merge-wait", c.optarg, 1, 0x7fffffff, &s->o.merge_wait_ms) < 0)
				return -1;
			break;
		case OPT_NO_INHERIT: s->o.no_inherit = 1; break;
		case OPT_NO_MPX: s->o.no_multiplex = 1; break;
		case OPT_STRICT: s->o.strict = 1; break;
		case OPT_DOMAIN:
			if (cli_domain_arg("stat", c.optarg, &s->o.domain) < 0)
				return -1;
			s->o.domain_arg = c.optarg;
			break;
		case OPT_CPUTYPE: s->o.cputype = c.optarg; break;
		}
	}
	s->o.cmd = cli_operands(&c, &s->o.ncmd);
	int attach = s->o.npids || s->o.ntids;
	if ((s->o.diff || s->o.report || s->o.merge || s->o.per_rank) && s->o.save_path)
		return cli_usage("stat", "--save keeps a run's report: not with --report, --diff, --merge or --per-rank"), -1;
	/* The modes that read saved files take their operands, -j, -x and -o,
	 * and what each names, but no option that shapes a count. */
	if (s->o.diff || s->o.report || s->o.merge) {
		const char *only = s->o.diff ? "--diff reads files: it takes only -j, -x and -o"
				   : s->o.report ? "--report reads a file: it takes only -j, -x, -o and --plot"
				   : "--merge reads files: it takes only -j, -x, -o, --job and --plot";
		if (s->o.diff && (s->o.merge || s->o.ncmd != 2))
			return cli_usage("stat", "--diff compares two saved runs: BASE.json NEW.json"), -1;
		if (s->o.report && (s->o.merge || s->o.ncmd != 1))
			return cli_usage("stat", "--report prints one saved run again: RUN.json"), -1;
		if (s->o.merge && s->o.ncmd == 0)
			return cli_usage("stat", "--merge needs the per-rank files or their directories"), -1;
		if (shapes_count(s, attach, kill_after) || (s->o.job && !s->o.merge) || (s->o.plot_path && s->o.diff))
			return cli_usage("stat", "%s", only), -1;
		if (s->o.json && s->o.sep)
			return cli_usage("stat", "--json and -x cannot be used together"), -1;
		return 0;
	}
	if (s->o.job)
		return cli_usage("stat", "--job goes with --merge"), -1;
	if (s->o.merge_wait_ms && !s->o.per_rank)
		return cli_usage("stat", "--merge-wait goes with --per-rank"), -1;
	if (s->o.ncmd == 0)
		s->o.cmd = NULL;
	if (!attach && !s->o.cmd && !s->o.system_wide)
		return cli_usage("stat", "no command to run (or -p/-t to attach, -a or -C to count CPUs)"), -1;
	if (s->o.system_wide && attach)
		return cli_usage("stat", "-a and -C count whole CPUs: they cannot be used with -p/-t"), -1;
	if (s->o.system_wide && !s->o.cmd && s->o.repeat > 1)
		return cli_usage("stat", "-r repeats a command; -a without one counts until interrupted"), -1;
	if (s->o.ncgroups && !s->o.system_wide)
		return cli_usage("stat", "%s counts a cgroup on whole CPUs: add -a or -C",
				 s->o.each_cgroup ? "--for-each-cgroup" : "-G"), -1;
	if (s->o.each_cgroup && s->o.aggr)
		return cli_usage("stat", "--for-each-cgroup makes a row per cgroup: it cannot be used "
				 "with --per-*"), -1;
	if (s->o.each_cgroup)
		s->o.aggr = AGGR_CGROUP;
	if (s->o.aggr >= AGGR_CPU && s->o.aggr <= AGGR_NODE && !s->o.system_wide)
		return cli_usage("stat", "--per-cpu, --per-core, --per-socket and --per-node need -a or -C"), -1;
	if (s->o.aggr == AGGR_THREAD && !attach && !s->o.cmd)
		return cli_usage("stat", "--per-thread needs a command, or -p or -t"), -1;
	if (s->o.aggr == AGGR_THREAD && s->o.cmd && (s->o.repeat > 1 || s->o.interval_ms || s->o.delay_ms))
		return cli_usage("stat", "--per-thread with a command follows its threads as they come "
				 "and go: it cannot be used with -r, -I or --delay"), -1;
	if (s->o.aggr == AGGR_PROCESS && !s->o.npids)
		return cli_usage("stat", "--per-process needs -p"), -1;
	if (s->o.aggr == AGGR_CPUTYPE && s->o.cputype)
		return cli_usage("stat", "--per-cputype shows every core type: it cannot be used with --cputype"), -1;
	if (attach && s->o.cmd)
		return cli_usage("stat", "give a command or -p/-t, not both"), -1;
	if (attach && s->o.repeat > 1)
		return cli_usage("stat", "-r repeats a command; it cannot be used with -p/-t"), -1;
	if (s->o.interval_ms && s->o.repeat > 1)
		return cli_usage("stat", "-I and -r cannot be used together"), -1;
	if (s->o.interval_count && !s->o.interval_ms)
		return cli_usage("stat", "--interval-count needs -I"), -1;
	if (s->o.plot_path && !s->o.interval_ms && !s->o.per_rank)
		return cli_usage("stat", "--plot draws the intervals of -I, or an MPI job's ranks with "
				 "--per-rank or --merge: give one of them"), -1;
	if (kill_after && !s->o.timeout_ms)
		return cli_usage("stat", "--kill-after needs --timeout"), -1;
	if (kill_after && attach)
		return cli_usage("stat", "--kill-after: attached processes are never signalled"), -1;
	if (s->o.json && s->o.sep)
		return cli_usage("stat", "--json and -x cannot be used together"), -1;
	return 0;
}
/* The file -o names (placeholders expanded), once opened; "" for stderr. */
static char out_file[PATH_MAX];

/* The errno of the first write that failed on the report's stream: stdio
 * keeps only a flag, and by the end of the run errno holds something else
 * (an interrupted wait, say). Each part of the report is written with errno
 * cleared first and note_write_error after. */
static int out_errno;

static void note_write_error(FILE *f)
{
	if (!out_errno && ferror(f))
		out_errno = errno ? errno : EIO;
}

/* The final report in the chosen format on s->out. */
static void report(const struct st *s)
{
	errno = 0;
	if (s->o.json)
		st_json_report(s, s->out);
	else if (s->o.sep)
		st_csv_report(s, s->out);
	else
		st_text_report(s, s->out);
	note_write_error(s->out);
}

/* count's call at each interval's end: its deltas and metrics, printed as
 * it ends in the text and CSV formats (JSON and --plot keep them). */
static void on_interval(struct st *s, int64_t t_ns, int64_t at_ns, const long long *total)
{
	const struct st_interval *iv = st_compute_interval(s, t_ns, at_ns, total);
	if (!iv) {
		cli_error("stat", "out of memory: the interval ending at %.3f s is lost", (double)t_ns / 1e9);
		return;
	}
	if (s->o.json)
		return;
	errno = 0;
	if (s->o.sep)
		st_csv_interval(s, iv);
	else
		st_text_interval(s, iv);
	note_write_error(s->out);
}

/* The output written out: ret, or CLI_FAIL after a message when writing
 * failed. */
static int flushed(const struct st *s, int ret)
{
	errno = 0;
	if (fflush(s->out) != 0 || ferror(s->out)) {
		note_write_error(s->out);
		return cli_error("stat", "write error on %s: %s", s->o.out_path ? s->o.out_path : "stderr",
				 strerror(out_errno));
	}
	return ret;
}

/* --save FILE: the JSON report of the run into FILE as well. CLI_OK, or
 * CLI_FAIL after a message. */
static int save(struct st *s)
{
	FILE *f = cli_wopen("stat", "--save", s->o.save_path);
	if (!f)
		return CLI_FAIL;
	st_json_report(s, f);
	return cli_wclose("stat", "--save", s->o.save_path, f);
}

/* papi stat --report RUN.json: the saved run read back and printed by the
 * writers of a live run, its intervals first as they were (the text and
 * CSV print them as they end), then the totals; --plot draws the
 * intervals again. CLI_OK, or CLI_FAIL after a message. */
static int report_saved(struct st *s)
{
	const char *path = s->o.cmd[0];
	int ret = CLI_FAIL;
	s->o.cmd = NULL;
	s->o.ncmd = 0;
	if (st_load(s, path) < 0)
		goto out;
	if (s->o.plot_path && s->niv == 0) {
		cli_error("stat", "--plot: %s holds no intervals to draw (its run had no -I)", path);
		goto out;
	}
	for (int k = 0; !s->o.json && k < s->niv; k++)
		if (s->o.sep)
			st_csv_interval(s, &s->iv[k]);
		else
			st_text_interval(s, &s->iv[k]);
	report(s);
	ret = flushed(s, s->o.plot_path && st_plot(s) < 0 ? CLI_FAIL : CLI_OK);
out:
	st_load_free(s);
	return ret;
}

/* Each stage's data, last stage first. */
static void free_all(struct st *s)
{
	st_compute_free(s);
	st_count_free(s);
	st_plan_free(s);
	free(s->o.pids);
	free(s->o.tids);
	for (int i = 0; i < s->o.ncgroups; i++)
		free(s->o.cgroups[i]);
	free(s->o.cgroups);
	st_cpus_free(s);
}

/* Where the report goes: -o FILE with its placeholders expanded (a file
 * named per rank, host, pid or job is created, never overwritten), or
 * standard error. In an MPI job of several ranks, -o must name a file per
 * rank. 0, or an exit status after a message. */
static int open_output(struct st *s)
{
	char path[PATH_MAX];
	int ph;
	if (!s->o.out_path)
		return 0;
	if (st_path_expand("-o", s->o.out_path, &s->rank, path, sizeof path, &ph) < 0)
		return CLI_USAGE;
	if (s->rank.in_job && s->rank.size != 1 && !s->o.per_rank && !(ph & (ST_PH_RANK | ST_PH_PID)))
		return cli_usage("stat", "-o: in an MPI job every rank needs its own file: put %%r (or "
				 "%%p) in the name, or use --per-rank DIR"), CLI_USAGE;
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (ph ? O_EXCL : O_TRUNC), 0666);
	if (fd < 0 || !(s->out = fdopen(fd, "w"))) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		s->out = stderr;
		return cli_error("stat", "cannot write '%s': %s", path,
				 err == EEXIST ? "it exists, and a per-rank or per-job file is never "
						 "overwritten" : strerror(err));
	}
	snprintf(out_file, sizeof out_file, "%s", path);
	return 0;
}

/* --plot FILE with -I in an MPI job (without --per-rank, whose rank 0
 * draws the job): FILE's placeholders expanded into buf, which each rank
 * of several must make its own. 0, or an exit status after a message. */
static int plot_path_expand(struct st *s, char *buf, size_t len)
{
	int ph;
	if (!s->o.plot_path || s->o.per_rank || !s->rank.in_job)
		return 0;
	if (st_path_expand("--plot", s->o.plot_path, &s->rank, buf, len, &ph) < 0)
		return CLI_USAGE;
	if (s->rank.size != 1 && !(ph & (ST_PH_RANK | ST_PH_PID)))
		return cli_usage("stat", "--plot: in an MPI job every rank draws its own intervals: put "
				 "%%r (or %%p) in the name, or use --per-rank DIR for one chart of "
				 "the ranks"), CLI_USAGE;
	s->o.plot_path = buf;
	return 0;
}

/* --per-rank: this rank's JSON report into its file in DIR, then on rank 0
 * the job's report once every rank's file is there. status: what papi
 * stat exits with so far (not 0: the run failed before counting, and the
 * file says so). */
static int per_rank_finish(struct st *s, const char *path, int status)
{
	char tmp[PATH_MAX + 64];
	FILE *f = st_rank_open(path, tmp, sizeof tmp);
	if (!f)
		return CLI_FAIL;
	FILE *out = s->out;
	int json = s->o.json;
	char sep = s->o.sep;
	s->out = f;
	s->o.json = 1;
	s->o.sep = 0;
	if (status)
		st_json_rank_failed(s, status);
	else
		report(s);
	s->out = out;
	s->o.json = json;
	s->o.sep = sep;
	if (fflush(f) != 0 || ferror(f) || fclose(f) != 0) {
		cli_error("stat", "write error on %s: %s", tmp, strerror(errno));
		return CLI_FAIL;
	}
	if (st_rank_publish(tmp, path) < 0)
		return CLI_FAIL;
	if (s->rank.rank != 0)
		return 0;
	st_rank_wait(s->o.per_rank, &s->rank, s->o.merge_wait_ms);
	char *dir = (char *)s->o.per_rank;
	int missing;
	/* Missing ranks are said in the report (and the chart); the command's
	 * status stays what papi stat exits with. */
	return st_merge(s->out, s->o.json, s->o.sep, &dir, 1, s->rank.job, s->o.plot_path, &missing);
}

int cmd_stat(int argc, char **argv)
{
	struct st s;
	int ret = CLI_FAIL, cut = 0;
	char rank_path[PATH_MAX], plot_path[PATH_MAX];
	memset(&s, 0, sizeof s);
	s.out = stderr;
	if (parse(&s, argc, argv) < 0) {
		free_all(&s);
		return CLI_USAGE;
	}
	if (s.o.diff) {
		if ((ret = open_output(&s)) == 0) {
			ret = flushed(&s, st_diff(s.out, s.o.json, s.o.sep, s.o.cmd[0], s.o.cmd[1]));
		}
		goto out;
	}
	if (s.o.report) {
		if ((ret = open_output(&s)) == 0)
			ret = report_saved(&s);
		goto out;
	}
	if (s.o.merge) {
		if ((ret = open_output(&s)) == 0) {
			int missing;
			ret = st_merge(s.out, s.o.json, s.o.sep, s.o.cmd, s.o.ncmd, s.o.job, s.o.plot_path,
				       &missing);
			ret = flushed(&s, ret ? ret : missing ? CLI_FAIL : CLI_OK);
		}
		goto out;
	}
	s.ranked = st_rank_detect(&s.rank) || s.o.per_rank;
	if (s.o.per_rank) {
		st_rank_file(s.o.per_rank, s.rank.job, s.rank.rank, rank_path, sizeof rank_path);
		if (st_rank_mkdir(s.o.per_rank) < 0 || st_rank_claim(rank_path) < 0)
			goto out;
	}
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ret = cli_error("stat", "cannot initialize the library");
		goto out;
	}
	if (st_cputype_choose(&s) < 0)
		goto fail;
	event_files_report("stat");
	/* Every domain this user may count, as perf stat (who may count
	 * whole CPUs may count the kernel) */
	if (cli_can_count("stat") != 0 || st_domain_choose(&s) < 0 || st_groups_add(&s) < 0)
		goto fail;
	if (s.nev == 0 && st_events_default(&s) < 0)
		goto fail;
	if (st_events_resolve(&s) < 0 || st_groups_map(&s) < 0)
		goto fail;
	if (st_cgroups_plan(&s) < 0) {
		ret = CLI_USAGE;
		goto out;
	}
	s.runs = calloc((size_t)s.o.repeat, sizeof *s.runs);
	for (int i = 0; i < s.nev; i++)
		if (!(s.ev[i].val = calloc((size_t)s.o.repeat, sizeof *s.ev[i].val)))
			goto fail;
	if (!s.runs)
		goto fail;
	if ((ret = open_output(&s)) != 0 ||
	    (ret = plot_path_expand(&s, plot_path, sizeof plot_path)) != 0)
		goto out;
	ret = CLI_FAIL;
	/* With --per-rank the run prints nothing: its intervals and totals go
	 * into the rank's file; the format asked for is the job report's. */
	int json = s.o.json;
	char sep = s.o.sep;
	if (s.o.per_rank) {
		s.o.json = 1;
		s.o.sep = 0;
	}
	st_signals_catch();
	if (s.o.interval_ms)
		s.on_interval = on_interval;
	ret = st_count(&s);
	if (ret == 0 && st_compute(&s) < 0)
		ret = CLI_FAIL;
	s.o.json = json;
	s.o.sep = sep;
	if (ret != 0)
		goto fail;
	ret = s.exit_code;
	if (s.o.per_rank) {
		int r = per_rank_finish(&s, rank_path, 0);
		ret = r ? r : ret;
	} else {
		report(&s);
	}
	if (s.o.save_path && save(&s) != CLI_OK && ret == 0)
		ret = CLI_FAIL;
	if (s.o.plot_path && !s.o.per_rank && st_plot(&s) < 0 && ret == 0)
		ret = CLI_FAIL;
	ret = flushed(&s, ret);
	goto out;
fail:
	/* A rank that could not count still leaves a file saying so. */
	if (s.o.per_rank)
		per_rank_finish(&s, rank_path, ret ? ret : CLI_FAIL);
	cut = 1;
out:
	if (s.out != stderr) {
		int bad = ferror(s.out), own = cli_own_file(out_file, fileno(s.out));
		if (fclose(s.out) != 0) {
			bad = 1;
			if (ret == 0)
				ret = cli_error("stat", "write error on %s: %s", s.o.out_path, strerror(errno));
		}
		/* A report cut short, by a write that failed or a run that
		 * failed before its report, is not left behind as if whole
		 * (the message said why). */
		if ((bad || cut) && own)
			unlink(out_file);
	}
	free_all(&s);
	PAPI_shutdown();
	return ret;
}

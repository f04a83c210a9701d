/* command_line.c: `papi command-line EVENT... [-- CMD ARGS]`: count the named events over a built-in workload or a command, and print each count. */
#include "cli.h"
#include "cmds.h"
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum { O_DOMAIN = CLI_LONG(0) };

static const struct cli_opt opts[] = {
	{ "unsigned", 'u', no_argument, NULL, "print counts as unsigned numbers" },
	{ "hex", 'x', no_argument, NULL, "print counts in hexadecimal" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ "domain", O_DOMAIN, required_argument, "DOM[,DOM...]",
	  "count in these domains: user (the default), kernel, supervisor, or all that this user may" },
	{ 0 },
};

static const struct cli_spec spec = {
	"command-line", "[OPTION]... EVENT... [-- COMMAND [ARG]...]",
	"Add each EVENT (a preset, a native event with qualifiers, a user event, an\n"
	"event of another component such as io:::rchar; a comma-separated list counts\n"
	"as several) to an EventSet of its component, run a built-in workload -- or\n"
	"COMMAND, counted from its exec with its threads and children -- and print each\n"
	"count. An event that cannot be added is named with the\n"
	"reason and the others are still counted; the exit status is then 1 (unless\n"
	"COMMAND failed: its own). COMMAND not found: 127; not executable: 126.",
	opts, CLI_STOP_AT_ARG,
};

struct cl {
	char **names;		/* the events, as given */
	char **why;		/* per event: NULL when added, else why it was not (owned) */
	int nev, nadded;
	int hex, uns, json, classic;
	int none_added;		/* classic: no event could be added, said as PAPI's tool does */
	char **cmd;		/* after "--", NULL for the built-in workload */
	/* One EventSet per component (an EventSet counts one component), made
	 * when its first event comes; PAPI_NULL until then. */
	int *es, ncmp;
	int *ev_cmp, *ev_slot;	/* per event added: its component and its place there */
	pid_t pid;		/* the command, once forked */
	int exit_code;
};

/* The EventSet of component cidx, made on first use: perf_event's counts
 * the command (attached, inherited, from its exec); the others count papi itself, as the command's parent, from its
 * exec to its end. PAPI_NULL when it cannot be made. */
static int set_of(struct cl *l, int cidx)
{
	if (l->es[cidx] != PAPI_NULL)
		return l->es[cidx];
	int id = PAPI_NULL;
	if (PAPI_create_eventset(&id) != PAPI_OK)
		return PAPI_NULL;
	struct es_target t = { .tid = l->pid, .cpu = -1, .inherit = 1, .enable_on_exec = 1 };
	if (cidx == 0 && l->pid > 0 && es_configure(id, &t) != PAPI_OK) {
		PAPI_destroy_eventset(&id);
		return PAPI_NULL;
	}
	return l->es[cidx] = id;
}

/* Why an event of component cidx cannot count the command, or NULL: a
 * component that counts the thread that reads it counts papi, not the
 * command (appio: the calls of the program that links libpapi). */
static const char *cmp_refuses(const struct cl *l, int cidx)
{
	static char why[256];
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	if (!l->cmd || cidx == 0 || !ci || ci->default_granularity != PAPI_GRN_THR)
		return NULL;
	snprintf(why, sizeof why, "component %s counts the thread that reads it: here papi itself, "
		 "not the command (it counts in a program that links libpapi)", ci->name);
	return why;
}

/* Split the operands before "--" (and commas inside them) into events;
 * cmd_first: the operands are all the command (getopt consumed a "--" that
 * came before any event). 0, or the exit status after a message. */
static int split_events(struct cl *l, char **ops, int n, int cmd_first)
{
	for (int i = 0; i < n && !cmd_first; i++) {
		if (strcmp(ops[i], "--") == 0) {
			if (i + 1 >= n)
				return cli_usage(spec.name, "no command after '--'");
			l->cmd = &ops[i + 1];
			break;
		}
		/* Options may also follow the events (they end at "--"). */
		if (!strcmp(ops[i], "--json") || !strcmp(ops[i], "-j")) {
			l->json = 1;
			continue;
		}
		if (!strcmp(ops[i], "-u") || !strcmp(ops[i], "--unsigned")) {
			l->uns = 1;
			continue;
		}
		if (!strcmp(ops[i], "-x") || !strcmp(ops[i], "--hex")) {
			l->hex = 1;
			continue;
		}
		/* PAPI's tool takes any other word for an event, which then
		 * fails to add; so does papi_command_line. */
		if (ops[i][0] == '-' && !l->classic)
			return cli_usage(spec.name, "unknown option '%s'", ops[i]);
		for (char *save = ops[i], *t = cli_next_event(&save); t; t = cli_next_event(&save)) {
			char **g = realloc(l->names, (size_t)(l->nev + 1) * sizeof *g);
			if (!g)
				return cli_error(spec.name, "out of memory");
			l->names = g;
			l->names[l->nev++] = t;
		}
	}
	if (cmd_first)
		l->cmd = n ? ops : NULL;
	if (l->nev == 0 && l->classic)
		return 0;	/* PAPI's tool says so on stdout and passes */
	if (l->nev == 0 && l->cmd)
		return cli_usage(spec.name, "no event given for '%s': name the events before '--' "
			      "(papi command-line perf::TASK-CLOCK -- %s)", l->cmd[0], l->cmd[0]);
	if (l->nev == 0)
		return cli_usage(spec.name, "no event given");
	if (!(l->why = calloc((size_t)l->nev, sizeof *l->why)))
		return cli_error(spec.name, "out of memory");
	if (l->json)
		l->classic = 0;	/* JSON alone on stdout */
	return 0;
}

/* Add every event that can be added; those that cannot are named with the
 * reason, as PAPI's tool does (and kept in l->why). -1 when none could be. */
static int add_events(struct cl *l)
{
	for (int i = 0; i < l->nev; i++) {
		int code, r;
		papi_clear_reason();
		r = PAPI_event_name_to_code(l->names[i], &code);
		int cidx = r == PAPI_OK ? PAPI_get_event_component(code) : 0;
		if (cidx < 0)
			r = cidx;
		const char *refused = r == PAPI_OK && cidx >= 0 ? cmp_refuses(l, cidx) : NULL;
		const char *nolevel = r == PAPI_OK ? cli_no_level(code) : NULL;
		if (nolevel) {
			r = PAPI_EINVAL;
			papi_set_reason("%s", nolevel);
		} else if (refused) {
			r = PAPI_ECMP;
			papi_set_reason("%s", refused);
		} else if (r == PAPI_OK && cidx >= 0) {
			int es = set_of(l, cidx);
			r = es == PAPI_NULL ? PAPI_ENOMEM : PAPI_add_event(es, code);
			l->ev_cmp[i] = cidx;
			l->ev_slot[i] = PAPI_num_events(es) - 1;
		}
		if (r == PAPI_OK) {
			l->nadded++;
			if (l->classic)
				printf("Successfully added: %s\n", l->names[i]);
			continue;
		}
		char wbuf[PAPI_HUGE_STR_LEN];
		const char *why = cli_name_why(l->names[i], r, wbuf, sizeof wbuf);
		if (!(l->why[i] = strdup(why)))
			return cli_error(spec.name, "out of memory"), -1;
		if (l->classic) {
			printf("Failed adding: ");
			cli_put_safe(stdout, l->names[i]);
			printf("\nbecause: %s\n", why);
		} else {
			cli_error(spec.name, "cannot add %s: %s", l->names[i], why);
		}
	}
	if (l->nadded)
		return 0;
	if (l->classic) {	/* as PAPI's tool, which then exits 0 */
		printf("No events specified!\nTry running something like: papi_command_line "
		       "PAPI_TOT_CYC\n\n");
		l->none_added = 1;
	} else {
		cli_error(spec.name, "none of the events can be counted here");
	}
	return -1;
}

/* The built-in workload: floating-point work and freshly touched pages, so
 * that clocks, page faults and (where there is a PMU) instructions, cycles
 * and flops all move. */
static double workload(void)
{
	enum { PAGES = 2048 };
	long pg = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)PAGES * (size_t)(pg > 0 ? pg : 4096);
	volatile double acc = 0.0;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m != MAP_FAILED) {
		for (size_t o = 0; o < len; o += (size_t)(pg > 0 ? pg : 4096))
			m[o] = (char)o;
		munmap(m, len);
	}
	for (int i = 1; i <= 5000000; i++)
		acc += 1.0 / (double)i * 1.000001;
	return acc;
}

/* Start (or stop, into vals[cidx]) every set of component from and above;
 * 0, or -1 after a message. */
static int start_sets(struct cl *l, int from)
{
	for (int c = from; c < l->ncmp; c++) {
		int r = l->es[c] == PAPI_NULL ? PAPI_OK : PAPI_start(l->es[c]);
		if (r != PAPI_OK)
			return cli_error(spec.name, "cannot start counting: %s", cli_reason(r)), -1;
	}
	return 0;
}

static int stop_sets(struct cl *l, int from, long long **vals)
{
	for (int c = l->ncmp - 1; c >= from; c--) {
		int r = l->es[c] == PAPI_NULL ? PAPI_OK : PAPI_stop(l->es[c], vals[c]);
		if (r != PAPI_OK)
			return cli_error(spec.name, "cannot stop counting: %s", PAPI_strerror(r)), -1;
	}
	return 0;
}

/* Count the built-in workload in this thread. */
static int count_workload(struct cl *l, long long **vals)
{
	if (add_events(l) < 0 || start_sets(l, 0) < 0)
		return -1;
	workload();
	return stop_sets(l, 0, vals);
}

/* Fork the command, held (stopped) before exec until its counters are open:
 * perf_event's start at its exec and follow its threads and children; the
 * other components' count papi from the exec to the reap, when Linux adds
 * the command's I/O to its parent's. The child stops itself rather than
 * reading a pipe, so that it does no I/O of its own before its exec. */
static int count_command(struct cl *l, long long **vals)
{
	int err[2], status = 0, e = 0;
	if (pipe2(err, O_CLOEXEC) < 0)
		return cli_error(spec.name, "pipe: %s", strerror(errno)), -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return cli_error(spec.name, "fork: %s", strerror(errno)), -1;
	if (pid == 0) {
		close(err[0]);
		raise(SIGSTOP);	/* until the counters are open */
		execvp(l->cmd[0], l->cmd);
		e = errno;
		if (write(err[1], &e, sizeof e) < 0)
			e = errno;
		_exit(e == ENOENT ? 127 : 126);
	}
	close(err[1]);
	while (waitpid(pid, &status, WUNTRACED) < 0 && errno == EINTR)
		;
	if (!WIFSTOPPED(status)) {
		close(err[0]);
		return cli_error(spec.name, "cannot run '%s': it ended before its exec", l->cmd[0]), -1;
	}
	l->pid = pid;
	if (add_events(l) < 0) {
		close(err[0]);
		kill(pid, SIGKILL);
		kill(pid, SIGCONT);
		waitpid(pid, &status, 0);
		return -1;
	}
	kill(pid, SIGCONT);
	ssize_t got;
	while ((got = read(err[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(err[0]);
	int started = got != (ssize_t)sizeof e && start_sets(l, 1) == 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got == (ssize_t)sizeof e) {
		cli_error(spec.name, "cannot run '%s': %s", l->cmd[0], strerror(e));
		l->exit_code = e == ENOENT ? 127 : 126;
		return -1;
	}
	if (WIFEXITED(status))
		l->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		l->exit_code = 128 + WTERMSIG(status);
	if (!started || stop_sets(l, 1, vals) < 0)
		return -1;
	if (l->es[0] == PAPI_NULL)
		return 0;
	int r = es_counts(l->es[0], vals[0], NULL, NULL);
	if (r != PAPI_OK)
		return cli_error(spec.name, "cannot read the counts: %s", cli_reason(r)), -1;
	return 0;
}

/* One count as PAPI's tool prints it (-u, -x: the same formats). */
static void classic_count(const struct cl *l, int i, long long v)
{
	if (!l->uns && !l->hex) {
		PAPI_event_info_t in;
		int code;
		const char *units = "";
		if (PAPI_event_name_to_code(l->names[i], &code) == PAPI_OK &&
		    PAPI_get_event_info(code, &in) == PAPI_OK)
			units = in.units;
		printf("%s : \t%lld %s\n", l->names[i], v, units);
	}
	if (l->uns)
		printf("%s : \t%llu(u)\n", l->names[i], (unsigned long long)v);
	if (l->hex)
		printf("%s : \t%#llX\n", l->names[i], (unsigned long long)v);
}

/* val holds each event's count (those that were added). */
static void report(const struct cl *l, const long long *val)
{
	if (l->json) {
		struct json j;
		json_init(&j, stdout, 1);
		json_obj_begin(&j);
		json_kstr(&j, "workload", l->cmd ? l->cmd[0] : "built-in");
		if (l->cmd)
			json_kint(&j, "exit_status", l->exit_code);
		json_key(&j, "events");
		json_arr_begin(&j);
		for (int i = 0; i < l->nev; i++) {
			json_obj_begin(&j);
			json_kstr(&j, "name", l->names[i]);
			json_key(&j, "count");
			if (l->why[i])
				json_put_null(&j);
			else if (l->uns)
				json_uint(&j, (unsigned long long)val[i]);
			else
				json_int(&j, val[i]);
			if (l->why[i])
				json_kstr(&j, "reason", l->why[i]);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
		return;
	}
	if (l->classic) {
		printf("\n");
		for (int i = 0; i < l->nev; i++)
			if (!l->why[i])
				classic_count(l, i, val[i]);
		printf("\n----------------------------------\n");
		return;
	}
	int w = 0;
	for (int i = 0; i < l->nev; i++)
		if ((int)strlen(l->names[i]) > w)
			w = (int)strlen(l->names[i]);
	for (int i = 0; i < l->nev; i++) {
		printf("%-*s  ", w, l->names[i]);
		if (l->why[i])	/* papi stat's word for an event it could not add */
			printf("<not supported>\n");
		else if (l->hex)
			printf("0x%llx\n", (unsigned long long)val[i]);
		else if (l->uns)
			printf("%llu\n", (unsigned long long)val[i]);
		else
			printf("%lld\n", val[i]);
	}
}

int cmd_command_line(int argc, char **argv)
{
	struct cli_ctx c;
	struct cl l = { 0 };
	int o, n, r, status, dom = 0;
	long long *val = NULL, **vals = NULL;
	const char *dom_arg = NULL;

	cli_begin(&c, &spec, argc, argv);
	l.classic = cli_is_classic(argv);
	/* papi_command_line parses as PAPI 7's tool does: -u and -x, and every
	 * other word an event (-h: the help, as every papi command). */
	for (int i = 1; l.classic && i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cli_help(&spec, stdout);
			return cli_finish(spec.name, CLI_OK);
		}
	while (!l.classic && (o = cli_next(&c)) != -1) {
		switch (o) {
		case 'u': l.uns = 1; break;
		case 'x': l.hex = 1; break;
		case 'j': l.json = 1; break;
		case O_DOMAIN:
			if (cli_domain_arg(spec.name, c.optarg, &dom) < 0)
				return CLI_USAGE;
			dom_arg = c.optarg;
			break;
		}
	}
	char **ops = l.classic ? argv + 1 : cli_operands(&c, &n);
	if (l.classic)
		n = argc - 1;
	if ((status = split_events(&l, ops, n, !l.classic && c.optind > 1 &&
				   !strcmp(argv[c.optind - 1], "--"))))
		goto out;
	status = CLI_FAIL;
	if (l.classic)
		printf("\nThis utility lets you add events from the command line interface to see if "
		       "they work.\n\n");
	if (l.nev == 0) {	/* classic, as PAPI's tool (it passes, for run_tests.sh) */
		printf("No events specified!\nTry running something like: %s PAPI_TOT_CYC\n\n", argv[0]);
		status = CLI_OK;
		goto out;
	}
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) {
		status = cli_error(spec.name, "PAPI_library_init: %s", PAPI_strerror(r));
		goto out;
	}
	event_env_report(spec.name);
	l.ncmp = PAPI_num_components();
	val = calloc((size_t)l.nev, sizeof *val);
	if (cli_can_count(spec.name) != 0 || (dom && cli_set_domain(spec.name, dom_arg, dom) != 0))
		goto out;
	vals = calloc((size_t)l.ncmp, sizeof *vals);
	l.es = malloc((size_t)l.ncmp * sizeof *l.es);
	l.ev_cmp = calloc((size_t)l.nev, sizeof *l.ev_cmp);
	l.ev_slot = calloc((size_t)l.nev, sizeof *l.ev_slot);
	for (int k = 0; vals && l.es && k < l.ncmp; k++)
		if (!(vals[k] = calloc((size_t)l.nev, sizeof **vals)))
			break;
	if (!val || !vals || !l.es || !l.ev_cmp || !l.ev_slot || (l.ncmp && !vals[l.ncmp - 1])) {
		cli_error(spec.name, "out of memory");
		goto out;
	}
	for (int k = 0; k < l.ncmp; k++)
		l.es[k] = PAPI_NULL;
	if ((l.cmd ? count_command(&l, vals) : count_workload(&l, vals)) < 0) {
		if (l.exit_code)
			status = l.exit_code;
		else if (l.none_added)
			status = CLI_OK;
		goto out;
	}
	for (int i = 0; i < l.nev; i++)
		if (!l.why[i])
			val[i] = vals[l.ev_cmp[i]][l.ev_slot[i]];
	report(&l, val);
	/* The command's own failure first; else say that an event was missing
	 * (PAPI's tool passes then: papi_command_line too). */
	status = l.exit_code ? l.exit_code : l.nadded < l.nev && !l.classic ? CLI_FAIL : CLI_OK;
out:
	for (int k = 0; l.es && k < l.ncmp; k++)
		if (l.es[k] != PAPI_NULL) {
			PAPI_cleanup_eventset(l.es[k]);
			PAPI_destroy_eventset(&l.es[k]);
		}
	for (int k = 0; vals && k < l.ncmp; k++)
		free(vals[k]);
	free(vals);
	free(l.es);
	free(l.ev_cmp);
	free(l.ev_slot);
	if (l.why)
		for (int i = 0; i < l.nev; i++)
			free(l.why[i]);
	free(l.why);
	free(val);
	free(l.names);
	PAPI_shutdown();
	return cli_finish(spec.name, status);
}

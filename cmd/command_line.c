/* command_line.c: `papi command-line EVENT... [-- CMD ARGS]`: count the named events over a built-in workload or a command, and print each count. */
#include "cli.h"
#include "cmds.h"
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>


static const struct cli_opt opts[] = {
	{ "unsigned", 'u', no_argument, NULL, "print counts as unsigned numbers" },
	{ "hex", 'x', no_argument, NULL, "print counts in hexadecimal" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ 0 },
};

static const struct cli_spec spec = {
	"command-line", "[OPTION]... EVENT... [-- COMMAND [ARG]...]",
	"Add each EVENT (a preset, a native event with qualifiers, a user event; a\n"
	"comma-separated list counts as several) to one EventSet, run a built-in\n"
	"workload -- or COMMAND, counted from its exec with its threads and children\n"
	"-- and print each count. An event that cannot be added is named with the\n"
	"reason, and the exit status is 1. COMMAND not found: 127; not executable: 126.",
	opts, CLI_STOP_AT_ARG,
};

struct cl {
	char **names;		/* the events, as given */
	int nev;
	int hex, uns, json;
	char **cmd;		/* after "--", NULL for the built-in workload */
	int es;
	int exit_code;
};

/* Split the operands before "--" (and commas inside them) into events.
 * 0, or the exit status after a message. */
static int split_events(struct cl *l, char **ops, int n)
{
	for (int i = 0; i < n; i++) {
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
		if (ops[i][0] == '-')
			return cli_usage(spec.name, "unknown option '%s'", ops[i]);
		for (char *save = NULL, *t = strtok_r(ops[i], ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			char **g = realloc(l->names, (size_t)(l->nev + 1) * sizeof *g);
			if (!g)
				return cli_error(spec.name, "out of memory");
			l->names = g;
			l->names[l->nev++] = t;
		}
	}
	if (l->nev == 0)
		return cli_usage(spec.name, "no event given");
	return 0;
}

/* Add every event; on failure name it and say why (-1). */
static int add_events(struct cl *l)
{
	for (int i = 0; i < l->nev; i++) {
		int code, r;
		papi_clear_reason();
		r = PAPI_event_name_to_code(l->names[i], &code);
		if (r == PAPI_OK)
			r = PAPI_add_event(l->es, code);
		if (r != PAPI_OK) {
			const char *why = papi_last_reason();
			size_t nl = strlen(l->names[i]);
			if (!why || !*why)
				why = PAPI_strerror(r);
			else if (!strncmp(why, l->names[i], nl) && !strncmp(why + nl, ": ", 2))
				why += nl + 2;	/* the reason starts with the name */
			cli_error(spec.name, "cannot add %s: %s", l->names[i], why);
			return -1;
		}
	}
	return 0;
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

/* Count the built-in workload in this thread. */
static int count_workload(struct cl *l, long long *val)
{
	int r;
	if (add_events(l) < 0)
		return -1;
	if ((r = PAPI_start(l->es)) != PAPI_OK)
		return cli_error(spec.name, "cannot start counting: %s",
				 *papi_last_reason() ? papi_last_reason() : PAPI_strerror(r)), -1;
	workload();
	if ((r = PAPI_stop(l->es, val)) != PAPI_OK)
		return cli_error(spec.name, "cannot stop counting: %s", PAPI_strerror(r)), -1;
	return 0;
}

/* Fork the command, held before exec until its counters are open (they
 * start at its exec and follow its threads and children). */
static int count_command(struct cl *l, long long *val)
{
	int go[2], err[2], status = 0, e = 0;
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		return cli_error(spec.name, "pipe: %s", strerror(errno)), -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return cli_error(spec.name, "fork: %s", strerror(errno)), -1;
	if (pid == 0) {
		char c;
		close(go[1]);
		close(err[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);	/* the counters could not be set up */
		execvp(l->cmd[0], l->cmd);
		e = errno;
		if (write(err[1], &e, sizeof e) < 0)
			e = errno;
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(err[1]);
	EventSet_t *es = es_lookup(l->es);
	es->attach = pid;
	es->inherit = 1;
	es->enable_on_exec = 1;
	/* As papi stat: the kernel's work for the command counts too. */
	es->domain = PAPI_DOM_USER | PAPI_DOM_KERNEL;
	if (add_events(l) < 0) {
		close(go[1]);
		close(err[0]);
		waitpid(pid, &status, 0);
		return -1;
	}
	if (write(go[1], "g", 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	ssize_t got;
	while ((got = read(err[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(err[0]);
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
	int r = es_read_times(es, val, NULL, NULL);
	if (r != PAPI_OK)
		return cli_error(spec.name, "cannot read the counts: %s",
				 *papi_last_reason() ? papi_last_reason() : PAPI_strerror(r)), -1;
	return 0;
}

static void report(const struct cl *l, const long long *val, int classic)
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
			if (l->uns)
				json_uint(&j, (unsigned long long)val[i]);
			else
				json_int(&j, val[i]);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
		return;
	}
	int w = 0;
	for (int i = 0; i < l->nev; i++)
		if ((int)strlen(l->names[i]) > w)
			w = (int)strlen(l->names[i]);
	for (int i = 0; i < l->nev; i++) {
		if (classic)
			printf("%s : \t", l->names[i]);
		else
			printf("%-*s  ", w, l->names[i]);
		if (l->hex)
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
	struct cl l = { .es = PAPI_NULL };
	int o, n, r, status = CLI_FAIL;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1) {
		switch (o) {
		case 'u': l.uns = 1; break;
		case 'x': l.hex = 1; break;
		case 'j': l.json = 1; break;
		}
	}
	char **ops = cli_operands(&c, &n);
	if ((r = split_events(&l, ops, n)) != 0) {
		free(l.names);
		return r;
	}
	if ((r = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) {
		free(l.names);
		return cli_error(spec.name, "PAPI_library_init: %s", PAPI_strerror(r));
	}
	long long *val = calloc((size_t)l.nev, sizeof *val);
	if (!val || (r = PAPI_create_eventset(&l.es)) != PAPI_OK) {
		cli_error(spec.name, "cannot create an EventSet");
		goto out;
	}
	if ((l.cmd ? count_command(&l, val) : count_workload(&l, val)) < 0) {
		if (l.exit_code)
			status = l.exit_code;
		goto out;
	}
	report(&l, val, cli_is_classic(argv));
	status = l.exit_code;
out:
	if (l.es != PAPI_NULL) {
		PAPI_cleanup_eventset(l.es);
		PAPI_destroy_eventset(&l.es);
	}
	free(val);
	free(l.names);
	PAPI_shutdown();
	return cli_finish(spec.name, status);
}

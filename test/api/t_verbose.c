/* t_verbose.c: what the library prints on standard error under PAPI_set_debug's levels (as PAPI 7's library: no failed call's reason, so that PAPI's tools, which set PAPI_VERB_ECONT, print what they print on PAPI) and under the PAPI_DEBUG variable (each failure of a call the program made, never one of the library's own questions). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "papi.h"
#include "tap.h"

/* What papi_native_avail does: every native event of every component,
 * its unit masks and modifiers, and their info. The number of codes. */
static int walk_all(void)
{
	int n = 0;
	for (int cidx = 0; cidx < PAPI_num_components(); cidx++) {
		int c = PAPI_NATIVE_MASK;
		PAPI_event_info_t in;
		for (int r = PAPI_enum_cmp_event(&c, PAPI_ENUM_FIRST, cidx); r == PAPI_OK;
		     r = PAPI_enum_cmp_event(&c, PAPI_ENUM_EVENTS, cidx)) {
			n += PAPI_get_event_info(c, &in) == PAPI_OK;
			int u = c;
			while (PAPI_enum_cmp_event(&u, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK)
				n += PAPI_get_event_info(u, &in) == PAPI_OK;
		}
	}
	return n;
}

/* Failures of calls the program makes. */
static int fail_calls(void)
{
	int es = PAPI_NULL, code, failed = 0;
	PAPI_create_eventset(&es);
	failed += PAPI_add_named_event(es, "perf::NO-SUCH-EVENT") != PAPI_OK;
	failed += PAPI_event_name_to_code("perf::TASK-CLOCK:period=0", &code) != PAPI_OK;
	failed += PAPI_add_event(es, PAPI_PRESET_MASK | 127) != PAPI_OK;
	PAPI_destroy_eventset(&es);
	return failed;
}

/* Run scenario in a child whose standard error is the file err (PAPI_DEBUG
 * set when debug_env): the child writes "walked N" to it between the walk
 * and the failing calls. Its exit status: the failures seen. */
static int child(const char *err, int debug_env, int level)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(99);
		if (debug_env)
			setenv("PAPI_DEBUG", "1", 1);
		else
			unsetenv("PAPI_DEBUG");
		if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
			_exit(98);
		if (level >= 0 && PAPI_set_debug(level) != PAPI_OK)
			_exit(97);
		fprintf(stderr, "walked %d\n", walk_all() > 0);
		int f = fail_calls();
		PAPI_shutdown();
		_exit(f);
	}
	int st;
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Lines of file before the "walked" line, after it, and after it naming
 * what (NULL: any). */
static void lines(const char *file, const char *what, int *before, int *after, int *naming)
{
	char line[4096];
	int past = 0;
	*before = *after = *naming = 0;
	FILE *f = fopen(file, "r");
	while (f && fgets(line, sizeof line, f)) {
		if (!past && !strcmp(line, "walked 1\n")) {
			past = 1;
			continue;
		}
		if (past) {
			++*after;
			*naming += what && strstr(line, what) != NULL;
		} else {
			++*before;
			if (*before <= 3)
				diag("before the walk ended: %s", line);
		}
	}
	if (f)
		fclose(f);
}

int main(void)
{
	char err[] = "/tmp/t_verbose_XXXXXX";
	int fd = mkstemp(err), before, after, naming;
	ok(fd >= 0, "temporary file");
	close(fd);

	/* as papi_native_avail, papi_avail and papi_event_chooser set it */
	is_int(child(err, 0, PAPI_VERB_ECONT), 3, "PAPI_VERB_ECONT: the program's three calls fail");
	lines(err, NULL, &before, &after, &naming);
	is_int(before, 0, "PAPI_VERB_ECONT: nothing printed while walking every native event");
	is_int(after, 0, "PAPI_VERB_ECONT: nothing printed for failed calls, as PAPI 7");

	/* PAPI_DEBUG: the failures of the program's calls, said */
	is_int(child(err, 1, -1), 3, "PAPI_DEBUG: the program's three calls fail");
	lines(err, "perf::NO-SUCH-EVENT", &before, &after, &naming);
	is_int(before, 0, "PAPI_DEBUG: nothing printed while walking every native event");
	ok(naming >= 1, "PAPI_DEBUG: the unknown event's failure is said (%d lines)", naming);
	lines(err, "period=0", &before, &after, &naming);
	ok(naming >= 1, "PAPI_DEBUG: the refused qualifier's too (%d of %d lines)", naming, after);

	/* PAPI_set_debug(PAPI_QUIET) under PAPI_DEBUG: the variable still explains */
	is_int(child(err, 1, PAPI_QUIET), 3, "PAPI_DEBUG and PAPI_QUIET: the calls fail");
	lines(err, "perf::NO-SUCH-EVENT", &before, &after, &naming);
	ok(naming >= 1, "PAPI_DEBUG and PAPI_QUIET: the failure is said");
	unlink(err);
	return tap_done();
}

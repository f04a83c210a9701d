/* launch.c (bench): the floor for running a command under a counter: open
 * perf::TASK-CLOCK on ourselves, inherited by the child and enabled by its
 * exec, posix_spawn the command, wait, read. What any `stat` tool must pay
 * on this machine; `make bench` times it next to papi stat and perf stat.
 * Not a test: it prints the count only with -v.
 *   launch [-v] COMMAND [ARGS...]
 */
#include <linux/perf_event.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
	char **cmd = argv + 1 + verbose;
	if (!*cmd) {
		fprintf(stderr, "usage: launch [-v] COMMAND [ARGS...]\n");
		return 2;
	}
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	a.inherit = 1;
	a.enable_on_exec = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		perror("launch: perf_event_open");
		return 1;
	}
	pid_t pid;
	int e = posix_spawnp(&pid, cmd[0], NULL, NULL, cmd, environ);
	if (e) {
		fprintf(stderr, "launch: %s: %s\n", cmd[0], strerror(e));
		return 127;
	}
	int st;
	if (waitpid(pid, &st, 0) < 0)
		return 1;
	uint64_t v = 0;
	if (read(fd, &v, sizeof v) != (ssize_t)sizeof v)
		return 1;
	if (verbose)
		fprintf(stderr, "%llu ns\n", (unsigned long long)v);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

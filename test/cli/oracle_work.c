/* oracle_work.c: deterministic workloads for the oracle tests (test/oracle): fresh pages touched by user space (on each CPU in turn) or filled by the kernel, threads, a pipe ping-pong, a spin and a sleep. */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long page;

/* n fresh pages, each to fault once: no huge page may back them. */
static char *fresh(long n)
{
	char *p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, (size_t)(n * page), MADV_NOHUGEPAGE);
	return p;
}

/* Write a byte into each of n fresh pages: n faults taken in user space. */
static int touch(long n)
{
	char *p = fresh(n);
	if (!p)
		return 1;
	for (long i = 0; i < n; i++)
		p[i * page] = 1;
	return 0;
}

/* Let the kernel fill n fresh pages (read from /dev/zero): n faults taken
 * in the kernel, inside read(), which user space never sees. */
static int zero(long n)
{
	char *p = fresh(n);
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (!p || fd < 0)
		return 1;
	for (long done = 0; done < n * page;) {
		ssize_t r = read(fd, p + done, (size_t)(n * page - done));
		if (r <= 0)
			return 1;
		done += r;
	}
	close(fd);
	return 0;
}

static long per_thread;
static void *thread_touch(void *arg)
{
	(void)arg;
	return touch(per_thread) ? (void *)1 : NULL;
}

/* t threads, each touching n fresh pages. */
static int threads(int t, long n)
{
	pthread_t th[64];
	void *r;
	int bad = 0;
	per_thread = n;
	for (int i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, thread_touch, NULL) != 0)
			return 1;
	for (int i = 0; i < t; i++)
		if (pthread_join(th[i], &r) != 0 || r)
			bad = 1;
	return bad;
}

/* n fresh pages touched on each CPU this process may run on, in turn,
 * pinned there while it touches them: n faults taken on each CPU. */
static int cpus(long n)
{
	cpu_set_t allowed, one;
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
		return 1;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof one, &one) != 0 || touch(n))
			return 1;
	}
	return 0;
}

/* n round trips of a byte between this process and a child over two
 * pipes, both on one CPU: each waits for the other n times, and one CPU
 * must switch between them for every trip. */
static int pingpong(long n)
{
	cpu_set_t set;
	int a[2], b[2];
	char c = 0;
	if (sched_getaffinity(0, sizeof set, &set) == 0) {
		int cpu = 0;
		while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set))
			cpu++;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof set, &set);
	}
	if (pipe(a) != 0 || pipe(b) != 0)
		return 1;
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (long i = 0; i < n; i++)
			if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (long i = 0; i < n; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			return 1;
	int st;
	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

/* Spin for ms milliseconds of this thread's CPU time, then sleep as long:
 * what counts per task sees the spin alone. */
static int spin(long ms)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	struct timespec d = { ms / 1000, ms % 1000 * 1000000 };
	return nanosleep(&d, NULL) != 0;
}

int main(int argc, char **argv)
{
	page = sysconf(_SC_PAGESIZE);
	/* "wait": start only once a byte arrives on standard input, so that a
	 * counter can attach first */
	if (argc > 1 && !strcmp(argv[1], "wait")) {
		char go;
		if (read(0, &go, 1) != 1)
			return 1;
		argv++;
		argc--;
	}
	/* "hold" after the work: block on standard input again, faulting
	 * nothing, until the test kills the process (so that no exit path
	 * runs in a counter's last, unprinted interval) */
	if (argc > 3 && !strcmp(argv[argc - 1], "hold")) {
		argc--;
		if (argc == 3 && atol(argv[2]) > 0 && !strcmp(argv[1], "touch") && touch(atol(argv[2])) == 0) {
			char c;
			return read(0, &c, 1) < 0;
		}
		return 1;
	}
	long n = argc > 2 ? atol(argv[2]) : 0;
	if (argc == 3 && n > 0 && !strcmp(argv[1], "touch"))
		return touch(n);
	if (argc == 3 && n > 0 && !strcmp(argv[1], "zero"))
		return zero(n);
	if (argc == 3 && n > 0 && !strcmp(argv[1], "cpus"))
		return cpus(n);
	if (argc == 3 && n > 0 && !strcmp(argv[1], "pingpong"))
		return pingpong(n);
	if (argc == 3 && n > 0 && !strcmp(argv[1], "spin"))
		return spin(n);
	if (argc == 4 && n > 0 && n <= 64 && atol(argv[3]) > 0 && !strcmp(argv[1], "threads"))
		return threads((int)n, atol(argv[3]));
	fprintf(stderr, "usage: oracle_work [wait] touch N [hold] | zero|cpus|pingpong|spin N | threads T N\n");
	return 2;
}

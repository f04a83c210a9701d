/* t_pmu_attach.c: hardware counts of other tasks: a process attached to (also the ptrace way PAPI's attach tests use), children counted through inheritance, threads counting their own loops.
 *
 * Each task runs pmu_loop a known number of times, so its instructions are
 * known to the slack of t_pmu_counting (5000 + 0.5%; the child's own exit
 * path and the pipe calls add a few thousand more, in user mode). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "papi.h"
#include "tap.h"
#include "pmu_util.h"

#define N 1000000L
#define SLACK 20000
#define REL 0.005

/* A child that waits for a byte on go, runs pmu_loop(n), writes a byte to
 * done, then waits for go to close before it exits. */
static pid_t child(int go[2], int done[2], long n)
{
	if (pipe(go) || pipe(done))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(go[1]);
		close(done[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		pmu_loop(n);
		if (write(done[1], &c, 1) != 1)
			_exit(1);
		while (read(go[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(go[0]);
	close(done[1]);
	return pid;
}

static void attach(void)
{
	int go[2], done[2], es = PAPI_NULL, st;
	long long v[2];
	const char *names[] = { "PAPI_TOT_INS", "PAPI_TOT_CYC" };
	pid_t pid = child(go, done, 3 * N);
	if (!ok(pid > 0, "attach: a child"))
		return;
	PAPI_create_eventset(&es);
	PAPI_assign_eventset_component(es, 0);
	is_int(PAPI_attach(es, (unsigned long)pid), PAPI_OK, "attach: to the child");
	for (int i = 0; i < 2; i++)
		is_int(PAPI_add_named_event(es, names[i]), PAPI_OK, "attach: add %s", names[i]);
	is_int(PAPI_start(es), PAPI_OK, "attach: start");
	pmu_loop(N);	/* ours: not counted */
	char c = 'x';
	ok(write(go[1], &c, 1) == 1 && read(done[0], &c, 1) == 1, "attach: the child ran its loop");
	is_int(PAPI_stop(es, v), PAPI_OK, "attach: stop");
	ok(pmu_near(v[0], PMU_LOOP_INS * 3 * N, SLACK, REL), "attach: the child's %lld instructions (want %ld)", v[0],
	   PMU_LOOP_INS * 3 * N);
	ok(v[1] > 0, "attach: and its cycles (%lld)", v[1]);
	close(go[1]);
	close(done[0]);
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "attach: the child exited");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* PAPI's attach protocol (its zero_attach test) where attach_must_ptrace
 * says so: the child stops itself before and after its loop; the parent
 * traces it, attaches while it is stopped, and counts between the stops. */
static void attach_ptraced(void)
{
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	if (!ok(ci && ci->attach_must_ptrace, "ptrace: the component asks for the ptrace protocol")) {
		diag("PAPI's zero_attach would now wait forever for its stopped child");
		return;
	}
	int es = PAPI_NULL, st = 0;
	long long v = 0;
	pid_t pid = fork();
	if (pid == 0) {
		raise(SIGSTOP);
		pmu_loop(2 * N);
		raise(SIGSTOP);
		_exit(0);
	}
	if (!ok(pid > 0 && ptrace(PTRACE_ATTACH, pid, NULL, NULL) == 0 && waitpid(pid, &st, 0) == pid &&
		WIFSTOPPED(st), "ptrace: attached to the child, stopped"))
		return;
	PAPI_create_eventset(&es);
	PAPI_assign_eventset_component(es, 0);
	is_int(PAPI_attach(es, (unsigned long)pid), PAPI_OK, "ptrace: PAPI_attach to the stopped child");
	is_int(PAPI_add_named_event(es, "PAPI_TOT_INS"), PAPI_OK, "ptrace: add PAPI_TOT_INS");
	/* the child's first SIGSTOP, then the counted run to its second */
	ok(ptrace(PTRACE_CONT, pid, NULL, NULL) == 0 && waitpid(pid, &st, 0) == pid && WIFSTOPPED(st) &&
	   WSTOPSIG(st) == SIGSTOP, "ptrace: the child stopped itself before its loop");
	is_int(PAPI_start(es), PAPI_OK, "ptrace: start");
	ok(ptrace(PTRACE_CONT, pid, NULL, NULL) == 0 && waitpid(pid, &st, 0) == pid && WIFSTOPPED(st) &&
	   WSTOPSIG(st) == SIGSTOP, "ptrace: and after it");
	is_int(PAPI_stop(es, &v), PAPI_OK, "ptrace: stop");
	ok(pmu_near(v, PMU_LOOP_INS * 2 * N, SLACK, REL), "ptrace: the loop's %lld instructions (want %ld)", v,
	   PMU_LOOP_INS * 2 * N);
	ok(ptrace(PTRACE_CONT, pid, NULL, NULL) == 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st),
	   "ptrace: the child exits");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* Inherited: a child forked while the set counts adds its instructions. */
static void inherit(void)
{
	int es = PAPI_NULL, st;
	long long v;
	PAPI_option_t o;
	PAPI_create_eventset(&es);
	PAPI_assign_eventset_component(es, 0);
	memset(&o, 0, sizeof o);
	o.inherit.eventset = es;
	o.inherit.inherit = PAPI_INHERIT_ALL;
	is_int(PAPI_set_opt(PAPI_INHERIT, &o), PAPI_OK, "inherit: on");
	is_int(PAPI_add_named_event(es, "PAPI_TOT_INS"), PAPI_OK, "inherit: add PAPI_TOT_INS");
	is_int(PAPI_start(es), PAPI_OK, "inherit: start");
	pid_t pid = fork();
	if (pid == 0) {
		pmu_loop(4 * N);
		_exit(0);
	}
	pmu_loop(N);
	waitpid(pid, &st, 0);
	is_int(PAPI_stop(es, &v), PAPI_OK, "inherit: stop");
	/* The child's fork return and exit add some thousands of instructions. */
	ok(pmu_near(v, PMU_LOOP_INS * 5 * N, 2 * SLACK, REL), "inherit: parent and child: %lld instructions (want %ld)",
	   v, PMU_LOOP_INS * 5 * N);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

/* Threads: each counts its own loop, of a different length. */
struct th {
	long n;
	long long v;
	int ret;
};

static void *thread(void *arg)
{
	struct th *t = arg;
	int es = PAPI_NULL;
	const char *ins = "PAPI_TOT_INS";
	t->ret = PAPI_register_thread();
	if (t->ret == PAPI_OK && (t->ret = pmu_set(&es, &ins, 1)) == PAPI_OK &&
	    (t->ret = PAPI_start(es)) == PAPI_OK) {
		pmu_loop(t->n);
		t->ret = PAPI_stop(es, &t->v);
	}
	if (es != PAPI_NULL) {
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	PAPI_unregister_thread();
	return NULL;
}

static void threads(void)
{
	pthread_t th[3];
	struct th t[3] = { { N, 0, 0 }, { 2 * N, 0, 0 }, { 3 * N, 0, 0 } };
	is_int(PAPI_thread_init(pthread_self), PAPI_OK, "threads: PAPI_thread_init");
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, thread, &t[i]);
	for (int i = 0; i < 3; i++) {
		pthread_join(th[i], NULL);
		is_int(t[i].ret, PAPI_OK, "threads: thread %d counted", i);
		ok(pmu_near(t[i].v, PMU_LOOP_INS * t[i].n, SLACK, REL), "threads: thread %d: %lld instructions (want %ld)",
		   i, t[i].v, PMU_LOOP_INS * t[i].n);
	}
}

int main(void)
{
	if (!pmu_begin("counting other tasks' hardware events"))
		return tap_done();
	attach();
	attach_ptraced();
	inherit();
	threads();
	PAPI_shutdown();
	return tap_done();
}

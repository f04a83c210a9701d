/* t_oracle_cgroup.c: PAPI_CGROUP_ATTACH (an extension) counts one cgroup's tasks: its errors for any user, and as root a workload moved into a fresh cgroup, counted on every CPU, against raw cgroup counters, the workload's getrusage and a neighbour outside. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "oracle.h"
#include "priv.h"

#define INSIDE_PAGES 3000	/* the cgroup's workload touches these */
#define OUTSIDE_PAGES 9000	/* its neighbour outside, three times as many */
#define SPIN_NS 60000000LL

/* The hierarchy perf_event counts in, read here as the test's own oracle:
 * a cgroup v1 mount with perf_event, else the cgroup2 mount. */
static int mount_dir(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char dir[512], type[64], opts[512], v2[512] = "";
	int found = 0;
	while (f && !found && fscanf(f, "%*s %511s %63s %511s %*d %*d", dir, type, opts) == 3) {
		if (!strcmp(type, "cgroup") && strstr(opts, "perf_event"))
			found = snprintf(buf, len, "%s", dir) > 0;
		else if (!strcmp(type, "cgroup2") && !v2[0])
			snprintf(v2, sizeof v2, "%s", dir);
	}
	if (f)
		fclose(f);
	if (!found && v2[0])
		found = snprintf(buf, len, "%s", v2) > 0;
	return found ? 0 : -1;
}

static int set_with(int *es, int cpu)
{
	static const char *names[] = { "perf::PAGE-FAULTS", "perf::TASK-CLOCK" };
	int r = orc_set(es, names, 2, 0);
	if (r != PAPI_OK || cpu < 0)
		return r;
	PAPI_option_t o = { 0 };
	o.cpu.eventset = *es;
	o.cpu.cpu_num = (unsigned)cpu;
	return PAPI_set_opt(PAPI_CPU_ATTACH, &o);
}

static int bind(int es, const char *path)
{
	PAPI_option_t o = { 0 };
	o.cgroup.eventset = es;
	o.cgroup.path = path;
	return PAPI_set_opt(PAPI_CGROUP_ATTACH, &o);
}

/* What anyone may try: the option's errors before the kernel is asked. */
static void errors(void)
{
	PAPI_option_t o = { 0 };
	o.cgroup.eventset = 4242;
	o.cgroup.path = "/";
	is_int(PAPI_set_opt(PAPI_CGROUP_ATTACH, &o), PAPI_ENOEVST, "PAPI_CGROUP_ATTACH: no such EventSet");
	is_int(PAPI_get_opt(PAPI_CGROUP_ATTACH, &o), PAPI_ENOEVST, "PAPI_get_opt: no such EventSet");
	is_int(PAPI_set_opt(PAPI_CGROUP_ATTACH, NULL), PAPI_EINVAL, "PAPI_CGROUP_ATTACH: NULL option");

	int es = PAPI_NULL;
	if (!ok(set_with(&es, -1) == PAPI_OK, "a set of software events"))
		return;
	is_int(bind(es, "/"), PAPI_EINVAL, "a set bound to no CPU cannot count a cgroup");
	ok(strstr(papi_last_reason(), "PAPI_CPU_ATTACH") != NULL, "the reason says to bind a CPU first: %s",
	   papi_last_reason());
	is_int(bind(es, NULL), PAPI_EINVAL, "unbinding a set bound to no cgroup");
	o.cgroup.eventset = es;
	o.cgroup.path = "x";
	is_int(PAPI_get_opt(PAPI_CGROUP_ATTACH, &o), 0, "PAPI_get_opt: not bound");
	ok(o.cgroup.path == NULL, "PAPI_get_opt: no path when not bound");
	PAPI_start(es);
	is_int(bind(es, "/"), PAPI_EISRUN, "PAPI_CGROUP_ATTACH while counting");
	long long v[2];
	PAPI_stop(es, v);
	orc_set_free(&es);
}

/* As root: the option's errors that need a CPU-bound set. */
static void bound_errors(void)
{
	int es = PAPI_NULL;
	if (!ok(set_with(&es, 0) == PAPI_OK, "a set bound to CPU 0"))
		return;
	is_int(bind(es, "papi-no-such-cgroup-here"), PAPI_EINVAL, "a cgroup that does not exist");
	ok(strstr(papi_last_reason(), "no such cgroup") != NULL, "the reason says so: %s", papi_last_reason());
	is_int(bind(es, "../x"), PAPI_EINVAL, "a path leaving the hierarchy");
	is_int(bind(es, ""), PAPI_EINVAL, "an empty path");
	is_int(bind(es, "/"), PAPI_OK, "the hierarchy's root");
	is_int(PAPI_attach(es, (unsigned long)getpid()), PAPI_EINVAL, "a set bound to a cgroup counts no one thread");
	PAPI_option_t o = { 0 };
	o.cgroup.eventset = es;
	is_int(PAPI_get_opt(PAPI_CGROUP_ATTACH, &o), 1, "PAPI_get_opt: bound");
	ok(o.cgroup.path && !strcmp(o.cgroup.path, "/"), "PAPI_get_opt: the path given");
	is_int(bind(es, NULL), PAPI_OK, "unbound again");
	is_int(PAPI_get_opt(PAPI_CGROUP_ATTACH, &o), 0, "PAPI_get_opt: unbound");
	orc_set_free(&es);
}

struct report {
	long touched;		/* minor faults over its touching (getrusage) */
};

/* A child that waits for a byte on go, then touches pages and spins;
 * inside: it reports its faults over the touching on rep. */
static pid_t child(int go, int rep, long pages)
{
	pid_t p = fork();
	if (p != 0)
		return p;
	char c;
	if (read(go, &c, 1) != 1)
		_exit(2);
	long before = orc_minflt(RUSAGE_SELF);
	orc_touch(pages);
	struct report r = { orc_minflt(RUSAGE_SELF) - before };
	orc_spin(SPIN_NS);
	if (rep >= 0 && write(rep, &r, sizeof r) != (ssize_t)sizeof r)
		_exit(3);
	_exit(0);
}

static void counting(const char *mnt)
{
	char name[64], dir[700], procs[800];
	snprintf(name, sizeof name, "papi-test-%d", (int)getpid());
	snprintf(dir, sizeof dir, "%s/%s", mnt, name);
	snprintf(procs, sizeof procs, "%s/cgroup.procs", dir);
	if (!ok(mkdir(dir, 0755) == 0, "make cgroup %s", dir)) {
		diag("mkdir: %s", strerror(errno));
		return;
	}
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu > ORC_MAX)
		ncpu = ORC_MAX;
	int es[ORC_MAX], cg = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int fd[ORC_MAX][2], n = 0, good = cg >= 0;
	const struct raw_event *ev[2] = { raw_by_name("perf::PAGE-FAULTS"), raw_by_name("perf::TASK-CLOCK") };
	for (int c = 0; c < ncpu && good; c++, n++) {
		es[c] = PAPI_NULL;
		good = set_with(&es[c], c) == PAPI_OK && bind(es[c], name) == PAPI_OK;
		if (!good)
			diag("CPU %d: %s", c, papi_last_reason());
		for (int i = 0; i < 2; i++)
			if ((fd[c][i] = raw_open_cgroup(ev[i], cg, c, 0)) < 0)
				good = 0;
	}
	if (ok(good, "%d sets and raw counters bound to cgroup %s, one a CPU", n, name)) {
		int go[2], rep[2], gout[2];
		if (pipe(go) || pipe(rep) || pipe(gout))
			exit(tap_done());
		pid_t in = child(go[0], rep[1], INSIDE_PAGES);
		pid_t out = child(gout[0], -1, OUTSIDE_PAGES);
		FILE *f = fopen(procs, "we");
		int moved = f && fprintf(f, "%d\n", (int)in) > 0;
		if (f && fclose(f))
			moved = 0;
		ok(moved, "move the workload into the cgroup");
		long long lo[2] = { 0 }, hi[2] = { 0 }, got[2] = { 0 }, ib[ORC_MAX][2];
		for (int c = 0; c < n; c++)
			for (int i = 0; i < 2; i++)
				raw_enable(fd[c][i]);
		for (int c = 0; c < n; c++)
			PAPI_start(es[c]);
		for (int c = 0; c < n; c++)
			for (int i = 0; i < 2; i++)
				ib[c][i] = raw_read(fd[c][i]);
		if (write(go[1], "g", 1) != 1 || write(gout[1], "g", 1) != 1)
			diag("cannot start the workloads");
		int st_in, st_out;
		struct rusage ru_in;
		wait4(in, &st_in, 0, &ru_in);
		waitpid(out, &st_out, 0);
		for (int c = 0; c < n; c++)
			for (int i = 0; i < 2; i++)
				lo[i] += raw_read(fd[c][i]) - ib[c][i];
		for (int c = 0; c < n; c++) {
			long long v[2] = { 0 };
			PAPI_stop(es[c], v);
			got[0] += v[0];
			got[1] += v[1];
		}
		for (int c = 0; c < n; c++)
			for (int i = 0; i < 2; i++) {
				raw_disable(fd[c][i]);
				hi[i] += raw_read(fd[c][i]);
			}
		struct report r = { -1 };
		ok(read(rep[0], &r, sizeof r) == (ssize_t)sizeof r && WIFEXITED(st_in) && !WEXITSTATUS(st_in) &&
		   WIFEXITED(st_out) && !WEXITSTATUS(st_out), "both workloads ran");
		ok(lo[0] <= got[0] && got[0] <= hi[0], "cgroup page faults: libpapi %lld in raw [%lld, %lld]",
		   got[0], lo[0], hi[0]);
		/* its own getrusage: every fault of its touching, at most every
		 * fault of its life, and not its neighbour's 9000 */
		ok(got[0] >= r.touched && got[0] <= ru_in.ru_minflt,
		   "cgroup page faults %lld: the workload's own, %ld touching to %ld in its life (getrusage); "
		   "its neighbour's %d are not in", got[0], r.touched, ru_in.ru_minflt, OUTSIDE_PAGES);
		long long slack = hi[1] / 200 + 50000;
		ok(lo[1] - slack <= got[1] && got[1] <= hi[1] + slack,
		   "cgroup task clock: libpapi %lld ns in raw [%lld, %lld] (0.5%% + 50 us)", got[1], lo[1], hi[1]);
		long long cpu_ns = (ru_in.ru_utime.tv_sec + ru_in.ru_stime.tv_sec) * 1000000000LL +
				   (ru_in.ru_utime.tv_usec + ru_in.ru_stime.tv_usec) * 1000LL;
		/* The task clock also runs while a VM's CPU is stolen or an
		 * interrupt is served, which getrusage leaves out: the bound
		 * is its CPU time and half the neighbour's spin, which would
		 * add all of it. */
		ok(got[1] >= SPIN_NS && got[1] <= cpu_ns + SPIN_NS / 2 + 4000000,
		   "cgroup task clock %lld ns: at least the workload's spin (%lld ns), at most its CPU time %lld ns "
		   "(getrusage) + half its neighbour's spin + 4 ms of tick rounding", got[1], SPIN_NS, cpu_ns);
	}
	for (int c = 0; c < n; c++) {
		orc_set_free(&es[c]);
		raw_close(fd[c][0]);
		raw_close(fd[c][1]);
	}
	if (cg >= 0)
		close(cg);
	ok(rmdir(dir) == 0, "remove cgroup %s", dir);
}

int main(void)
{
	if (!ok(PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT, "PAPI_library_init"))
		return tap_done();
	errors();
	char mnt[512];
	if (!priv_cpu_ok()) {
		int es = PAPI_NULL;
		/* the whole CPU is what is refused, and said so */
		is_int(set_with(&es, 0), PAPI_EPERM, "an ordinary user at paranoid %d cannot bind a set to a CPU",
		       priv_paranoid());
		ok(strstr(papi_last_reason(), "CAP_PERFMON") != NULL, "the reason names CAP_PERFMON: %s",
		   papi_last_reason());
		orc_set_free(&es);
		skip("counting a cgroup needs a whole CPU: root, CAP_PERFMON or perf_event_paranoid 0",
		     "a workload counted in its cgroup");
	} else if (mount_dir(mnt, sizeof mnt) < 0) {
		skip("no cgroup hierarchy for perf_event is mounted", "a workload counted in its cgroup");
	} else {
		bound_errors();
		counting(mnt);
	}
	PAPI_shutdown();
	return tap_done();
}

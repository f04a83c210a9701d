/* t_cmp_io.c: the io component on this machine's /proc/self/io: its events, codes and names, exact counts of known I/O, and the EventSet rules for a component other than perf_event. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

/* Read the whole file fd in chunks of len bytes: the bytes read. */
static long long read_all(int fd, size_t len)
{
	char buf[4096];
	long long total = 0;
	ssize_t n;
	lseek(fd, 0, SEEK_SET);
	while ((n = read(fd, buf, len < sizeof buf ? len : sizeof buf)) > 0)
		total += n;
	return total;
}

int main(void)
{
	if (access("/proc/self/io", R_OK) != 0) {
		skip("this kernel has no /proc/self/io (t_cmp_fakeroot covers the component)", "io");
		return tap_done();
	}
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	int io = PAPI_get_component_index("io");
	ok(io > 0, "io is a component (%d)", io);
	const PAPI_component_info_t *ci = PAPI_get_component_info(io);
	ok(ci && !ci->disabled && ci->initialized, "io is active (%s)", ci ? ci->disabled_reason : "");
	is_int(ci ? ci->num_native_events : -1, 7, "seven events, the fields of /proc/self/io");
	is_int(ci ? ci->default_granularity : -1, PAPI_GRN_PROC, "it counts the whole process");
	is_int(PAPI_num_cmp_hwctrs(io), 7, "counters: one per event");

	/* ---- names and codes */
	static const char *const names[] = { "rchar", "wchar", "syscr", "syscw", "read_bytes",
					     "write_bytes", "cancelled_write_bytes" };
	int code = PAPI_NATIVE_MASK, n = 0, r;
	for (r = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, io); r == PAPI_OK;
	     r = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, io), n++) {
		char name[PAPI_MAX_STR_LEN], want[PAPI_MAX_STR_LEN];
		snprintf(want, sizeof want, "io:::%s", n < 7 ? names[n] : "?");
		is_int(PAPI_event_code_to_name(code, name), PAPI_OK, "code_to_name of %#x", code);
		is_str(name, want, "event %d is named as PAPI 7 names it", n);
		ok((code & PAPI_NATIVE_MASK) && !(code & PAPI_PRESET_MASK), "%s has a native code", name);
		is_int(PAPI_get_event_component(code), io, "%s is io's", name);
		int back;
		is_int(PAPI_event_name_to_code(name, &back), PAPI_OK, "name_to_code %s", name);
		is_int(back, code, "%s: name and code agree", name);
		PAPI_event_info_t in;
		is_int(PAPI_get_event_info(code, &in), PAPI_OK, "event info of %s", name);
		is_str(in.symbol, want, "info symbol");
		is_int(in.component_index, io, "info component");
		ok(strlen(in.long_descr) > 10, "a description: %s", in.long_descr);
		ok(!strcmp(in.units, "bytes") || !strcmp(in.units, "calls"), "units %s", in.units);
		is_int(PAPI_query_event(code), PAPI_OK, "query %s", name);
		int um = code;
		is_int(PAPI_enum_cmp_event(&um, PAPI_NTV_ENUM_UMASKS, io), PAPI_ENOEVNT, "no unit masks");
	}
	is_int(r, PAPI_ENOEVNT, "enumeration ends with ENOEVNT");
	is_int(n, 7, "seven events enumerated");
	int rchar, syscr, wchar, syscw, c2;
	is_int(PAPI_event_name_to_code("io:::rchar", &rchar), PAPI_OK, "io:::rchar");
	is_int(PAPI_event_name_to_code("rchar", &c2), PAPI_OK, "rchar without its component");
	is_int(c2, rchar, "is io:::rchar (as PAPI 7)");
	PAPI_event_name_to_code("io:::syscr", &syscr);
	PAPI_event_name_to_code("io:::wchar", &wchar);
	PAPI_event_name_to_code("io:::syscw", &syscw);
	is_int(PAPI_event_name_to_code("io:::nosuch", &c2), PAPI_ENOEVNT, "io:::nosuch");
	ok(strstr(papi_last_reason(), "io:::nosuch: unknown event: component io has none of that name"), "the reason says so: %s",
	   papi_last_reason());
	is_int(PAPI_event_name_to_code("io:::", &c2), PAPI_ENOEVNT, "io::: alone");
	is_int(PAPI_event_name_to_code("nosuchcomponent:::rchar", &c2), PAPI_ENOEVNT, "unknown component");
	ok(strstr(papi_last_reason(), "no component \"nosuchcomponent\"") &&
	   strstr(papi_last_reason(), "perf_event, perf_event_uncore, powercap, io"), "the reason lists the components: %s",
	   papi_last_reason());
	is_int(PAPI_event_name_to_code("perf_event:::rchar", &c2), PAPI_ENOEVNT,
	       "perf_event:::rchar is not io's");
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &code) == PAPI_OK)
		is_int(PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, io), PAPI_ENOCMP,
		       "ENUM_EVENTS from perf_event's code in io");
	code = rchar;
	is_int(PAPI_enum_cmp_event(&code, 12345, io), PAPI_EINVAL, "bad modifier");
	code = PAPI_PRESET_MASK;
	is_int(PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, io), PAPI_ENOEVNT, "io has no presets");
	code = rchar;
	is_int(PAPI_enum_event(&code, PAPI_ENUM_EVENTS), PAPI_OK, "enum_event walks io from an io code");
	is_int(PAPI_get_event_component(code), io, "to the next io event");

	/* ---- counting known I/O exactly: the component's own reads of
	 * /proc/self/io are not counted */
	char path[] = "/tmp/t_cmp_io.XXXXXX";
	int fd = mkstemp(path);
	ok(fd >= 0, "a temporary file");
	char blk[1000];
	memset(blk, 'x', sizeof blk);
	for (int i = 0; i < 10; i++)
		if (write(fd, blk, sizeof blk) != (ssize_t)sizeof blk)
			diag("short write");
	int es = PAPI_NULL;
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create");
	int codes[4] = { rchar, syscr, wchar, syscw };
	is_int(PAPI_add_events(es, codes, 4), PAPI_OK, "add rchar, syscr, wchar, syscw");
	is_int(PAPI_get_eventset_component(es), io, "the set is io's");
	is_int(PAPI_add_event(es, rchar), PAPI_ECNFLCT, "a duplicate is refused");
	int tc;
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &tc) == PAPI_OK) {
		is_int(PAPI_add_event(es, tc), PAPI_EINVAL, "a perf_event event in an io set: EINVAL");
		ok(strstr(papi_last_reason(), "one EventSet counts one component"), "because: %s",
		   papi_last_reason());
	}
	/* The checks wait until the counting is done: printing them is I/O. */
	long long r0[4], r1[4], acc[4] = { 0 }, r2[4], st[4], r3[4], r4[4], r5[4], r6[4];
	int e[16], k = 0;
	e[k++] = PAPI_start(es);
	e[k++] = PAPI_read(es, r0);
	long long got = read_all(fd, 1000);
	e[k++] = PAPI_read(es, r1);
	e[k++] = PAPI_accum(es, acc);
	e[k++] = PAPI_read(es, r2);
	int dn = open("/dev/null", O_WRONLY);
	ssize_t wr = write(dn, blk, 700);
	e[k++] = PAPI_stop(es, st);
	if (write(dn, blk, 10) != 10)
		diag("short write");
	e[k++] = PAPI_read(es, r3);
	e[k++] = PAPI_reset(es);
	e[k++] = PAPI_read(es, r4);
	e[k++] = PAPI_start(es);
	read_all(fd, 4096);
	e[k++] = PAPI_reset(es);
	read_all(fd, 5000);
	e[k++] = PAPI_read(es, r5);
	long long set[4] = { 5, 6, 7, 8 };
	e[k++] = PAPI_write(es, set);
	ssize_t wr2 = write(dn, blk, 100);
	e[k++] = PAPI_read(es, r6);
	e[k++] = PAPI_add_event(es, wchar);
	e[k++] = PAPI_stop(es, NULL);
	static const char *const what[] = { "start", "read at once", "read", "accum", "read after accum",
					    "stop", "read after stop", "reset while stopped", "read",
					    "start again", "reset while running", "read", "write",
					    "read" };
	for (int i = 0; i < 14; i++)
		is_int(e[i], PAPI_OK, "%s", what[i]);
	is_int(e[14], PAPI_EISRUN, "add while running");
	is_int(e[15], PAPI_OK, "stop with NULL values");
	is_int(r0[0], 0, "nothing read yet (its own reads are not counted)");
	is_int(r0[1], 0, "no read call yet");
	is_int(r0[2] + r0[3], 0, "nothing written");
	is_int(got, 10000, "read the file");
	is_int(r1[0], 10000, "rchar: the 10000 bytes read");
	is_int(r1[1], 11, "syscr: ten reads and the one at the end");
	is_int(acc[0], 10000, "accum adds the counts");
	is_int(r2[0] + r2[1], 0, "accum zeroed the counts, losing nothing");
	is_int(wr, 700, "wrote 700 bytes");
	is_int(st[2], 700, "wchar: 700");
	is_int(st[3], 1, "syscw: one write");
	is_int(st[0], 0, "rchar: none since accum");
	is_int(r3[2], 700, "a read after stop returns the stop's counts");
	is_int(r4[2], 0, "reset zeroes the stopped counts");
	is_int(r5[0], 10000, "only what came after the reset");
	is_int(r5[1], 4, "in four reads");
	is_int(wr2, 100, "wrote 100 bytes");
	is_int(r6[0], 5, "write: rchar continues from 5");
	is_int(r6[2], 107, "wchar from 7, plus 100");
	is_int(r6[3], 9, "syscw from 8, plus 1");
	long long v[4];
	is_int(PAPI_stop(es, v), PAPI_ENOTRUN, "stop again");

	/* ---- options that are perf_event's */
	is_int(PAPI_attach(es, (unsigned long)getppid()), PAPI_ECMP, "attach: not for io");
	ok(strstr(papi_last_reason(), "counts the process that reads it"), "because: %s",
	   papi_last_reason());
	PAPI_option_t opt;
	memset(&opt, 0, sizeof opt);
	opt.inherit.eventset = es;
	opt.inherit.inherit = PAPI_INHERIT_ALL;
	is_int(PAPI_set_opt(PAPI_INHERIT, &opt), PAPI_ECMP, "inherit: not for io");
	is_int(PAPI_set_multiplex(es), PAPI_ECMP, "multiplex: nothing to multiplex");
	is_int(PAPI_set_domain(PAPI_DOM_ALL), PAPI_OK, "a default domain is harmless");

	/* ---- remove, cleanup, rebind */
	is_int(PAPI_remove_event(es, syscr), PAPI_OK, "remove syscr");
	is_int(PAPI_num_events(es), 3, "three left");
	int list[4], nl = 4;
	PAPI_list_events(es, list, &nl);
	ok(nl == 3 && list[0] == rchar && list[1] == wchar && list[2] == syscw, "in order");
	is_int(PAPI_remove_event(es, syscr), PAPI_EINVAL, "remove it again");
	int e1 = PAPI_start(es);
	read_all(fd, 10000);
	int e2 = PAPI_stop(es, v);
	is_int(e1, PAPI_OK, "start the three");
	is_int(e2, PAPI_OK, "stop");
	is_int(v[0], 10000, "rchar still right after a removal");
	is_int(PAPI_cleanup_eventset(es), PAPI_OK, "cleanup");
	is_int(PAPI_get_eventset_component(es), io, "a cleaned set stays io's");
	is_int(PAPI_assign_eventset_component(es, 0), PAPI_OK, "an empty set can be rebound");
	if (PAPI_event_name_to_code("perf::TASK-CLOCK", &tc) == PAPI_OK) {
		is_int(PAPI_add_event(es, tc), PAPI_OK, "now a perf_event event goes in");
		is_int(PAPI_add_event(es, rchar), PAPI_EINVAL, "and an io event does not");
		PAPI_cleanup_eventset(es);
	}
	is_int(PAPI_destroy_eventset(&es), PAPI_OK, "destroy");
	is_int(PAPI_assign_eventset_component(es, io), PAPI_ENOEVST, "assign on no set");
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create");
	is_int(PAPI_assign_eventset_component(es, io), PAPI_OK, "bind a new set to io");
	is_int(PAPI_assign_eventset_component(es, 99), PAPI_ENOCMP, "bind to no component");
	is_int(PAPI_start(es), PAPI_EINVAL, "start an empty set");
	is_int(PAPI_add_event(es, rchar), PAPI_OK, "add");

	/* ---- a child's I/O: its own, and its parent's once reaped */
	int e3 = PAPI_start(es);
	pid_t pid = fork();
	if (pid == 0)
		_exit(read_all(fd, 2000) == 10000 ? 0 : 1);
	int status = 0;
	waitpid(pid, &status, 0);
	int e4 = PAPI_stop(es, v);
	is_int(e3, PAPI_OK, "start before fork");
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child read the file");
	is_int(e4, PAPI_OK, "the parent stops");
	is_int(v[0], 10000, "and counts the child's reads: Linux adds them to its parent's when reaped");
	pid = fork();
	if (pid == 0) {
		int ces = PAPI_NULL;
		long long cv = -1;
		int ok1 = PAPI_create_eventset(&ces) == PAPI_OK && PAPI_add_event(ces, rchar) == PAPI_OK &&
			  PAPI_start(ces) == PAPI_OK && read_all(fd, 2000) == 10000 &&
			  PAPI_stop(ces, &cv) == PAPI_OK;
		_exit(ok1 && cv == 10000 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a forked child counts its own 10000 bytes");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	close(dn);
	close(fd);
	unlink(path);
	PAPI_shutdown();

	/* ---- disabled */
	setenv("PAPI_DISABLE_COMPONENTS", "io", 1);
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(io);
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "PAPI_DISABLE_COMPONENTS"),
	   "disabled by the environment: %s", ci ? ci->disabled_reason : "");
	is_int(PAPI_event_name_to_code("io:::rchar", &c2), PAPI_ENOEVNT, "its events do not resolve");
	code = PAPI_NATIVE_MASK;
	is_int(PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, io), PAPI_ENOCMP, "nor enumerate");
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create");
	is_int(PAPI_assign_eventset_component(es, io), PAPI_ECMP, "nor take a set");
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	unsetenv("PAPI_DISABLE_COMPONENTS");
	is_int(PAPI_disable_component_by_name("io"), PAPI_OK, "disable io by call");
	PAPI_library_init(PAPI_VER_CURRENT);
	ci = PAPI_get_component_info(io);
	ok(ci && ci->disabled && strstr(ci->disabled_reason, "PAPI_disable_component"),
	   "disabled by the call: %s", ci ? ci->disabled_reason : "");
	is_int(PAPI_event_name_to_code("rchar", &c2), PAPI_ENOEVNT, "rchar resolves to nothing");
	PAPI_shutdown();
	return tap_done();
}

/* t_oracle_papi7.c: the same page-fault count through this library and through Debian's PAPI 7.0, each against the raw counter.
 *
 * One source, built twice: as t_oracle_papi7 against this tree's papi.h and
 * libpapi, and (where Debian's libpapi-dev is installed for the compiler's
 * target) as t_oracle_papi7_debian against /usr/include/papi.h and -lpapi.
 * Each build touches N fresh pages between PAPI_start and PAPI_stop with a
 * raw counter of perf::PAGE-FAULTS bracketing the library's window (see
 * oracle.h), and checks its library's count against it, exactly. Ours
 * then runs Debian's build with --values and compares the two counts: they
 * must agree to within the two brackets' widths (each library's own faults
 * between its enable and its disable). Where PAPI 7.0 cannot count (its
 * perf_event component disabled, as where libpfm4 does not know the CPU)
 * the comparison skips with PAPI 7.0's own reason. Uses nothing but
 * rawpe.c and the PAPI API both libraries share. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"
#include "rawpe.h"
#include "tap.h"

#define MIB 16

struct result {
	long long papi, lo, hi, pages;
	char skip[256];		/* why this library cannot count, or "" */
};

/* Count the workload with whichever PAPI this was built against. */
static int measure(struct result *r)
{
	int es = PAPI_NULL, e, fd;
	memset(r, 0, sizeof *r);
	r->pages = MIB * (1024L * 1024 / sysconf(_SC_PAGESIZE));
	if ((e = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) {
		snprintf(r->skip, sizeof r->skip, "PAPI_library_init: %s", PAPI_strerror(e));
		return -1;
	}
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	if (ci && ci->disabled) {
		snprintf(r->skip, sizeof r->skip, "its %.64s component is disabled: %.160s", ci->name, ci->disabled_reason);
		return -1;
	}
	if ((e = PAPI_create_eventset(&es)) != PAPI_OK || (e = PAPI_add_named_event(es, "perf::PAGE-FAULTS")) != PAPI_OK) {
		snprintf(r->skip, sizeof r->skip, "perf::PAGE-FAULTS cannot be added: %s", PAPI_strerror(e));
		return -1;
	}
	if ((fd = raw_open(raw_by_name("perf::PAGE-FAULTS"), 0, 0, 0)) < 0) {
		snprintf(r->skip, sizeof r->skip, "the raw counter cannot open perf::PAGE-FAULTS: %s", strerror(-fd));
		return -1;
	}
	for (int round = 0; round < 2; round++) {	/* the first puts the code in place */
		raw_reset(fd);
		raw_enable(fd);
		e = PAPI_start(es);
		long long a = raw_read(fd);
		raw_touch(r->pages);
		long long b = raw_read(fd);
		if (e == PAPI_OK)
			e = PAPI_stop(es, &r->papi);
		raw_disable(fd);
		r->lo = b - a;
		r->hi = raw_read(fd);
	}
	raw_close(fd);
	if (e != PAPI_OK) {
		snprintf(r->skip, sizeof r->skip, "PAPI_start or PAPI_stop: %s", PAPI_strerror(e));
		return -1;
	}
	return 0;
}

#ifndef ORACLE_PAPI7
/* Debian's build next to this program, run with --values. 1 and r filled,
 * 0 when it is absent (why in r->skip), -1 when it failed. */
static int debian(struct result *r)
{
	char self[PATH_MAX], cmd[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 32);
	memset(r, 0, sizeof *r);
	if (n <= 0)
		return -1;
	self[n] = '\0';
	snprintf(self + n, sizeof self - (size_t)n, "_debian");
	if (access(self, X_OK) != 0) {
		snprintf(r->skip, sizeof r->skip, "Debian's PAPI 7.0 is not built here (no libpapi-dev for this target)");
		return 0;
	}
	snprintf(cmd, sizeof cmd, "%s --values", self);
	FILE *p = popen(cmd, "r");
	char line[320];
	int got = -1;
	while (p && fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "skip ", 5) == 0) {
			snprintf(r->skip, sizeof r->skip, "Debian's PAPI 7.0 cannot count here: %.200s", line + 5);
			got = 0;
		} else if (sscanf(line, "values %lld %lld %lld %lld", &r->papi, &r->lo, &r->hi, &r->pages) == 4) {
			got = 1;
		}
	}
	if (p && pclose(p) != 0 && got == 1)
		got = -1;
	return got;
}
#endif

int main(int argc, char **argv)
{
	struct result r;
	int m = measure(&r);
	if (argc > 1 && strcmp(argv[1], "--values") == 0) {
		if (m < 0)
			printf("skip %s\n", r.skip);
		else
			printf("values %lld %lld %lld %lld\n", r.papi, r.lo, r.hi, r.pages);
		return 0;
	}
#ifdef ORACLE_PAPI7
	const char *who = "Debian's PAPI 7.0";
#else
	const char *who = "libpapi";
#endif
	if (m < 0) {
		char why[300];
		snprintf(why, sizeof why, "%s cannot count here: %s", who, r.skip);
		skip(why, "perf::PAGE-FAULTS of fresh pages against the raw counter");
		return tap_done();
	}
	if (!ok(r.lo <= r.papi && r.papi <= r.hi && r.lo >= r.pages,
		"%s: touch %lld fresh pages: perf::PAGE-FAULTS %lld in raw [%lld, %lld]", who, r.pages, r.papi, r.lo, r.hi))
		diag("%s counted %lld, the raw counter %lld to %lld, exact, over: touch %lld fresh pages", who, r.papi, r.lo,
		     r.hi, r.pages);
#ifndef ORACLE_PAPI7
	struct result d;
	int got = debian(&d);
	if (got == 0) {
		skip(d.skip, "libpapi against Debian's PAPI 7.0 on the same workload");
	} else if (ok(got == 1, "Debian's PAPI 7.0 build ran with --values")) {
		long long slack = (r.hi - r.lo) + (d.hi - d.lo);
		long long diff = r.papi > d.papi ? r.papi - d.papi : d.papi - r.papi;
		if (!ok(diff <= slack && d.pages == r.pages,
			"libpapi %lld and PAPI 7.0 %lld page faults of %lld fresh pages agree to the brackets' widths (%lld)",
			r.papi, d.papi, r.pages, slack))
			diag("libpapi %lld (raw %lld to %lld), PAPI 7.0 %lld (raw %lld to %lld), over: touch %lld pages", r.papi,
			     r.lo, r.hi, d.papi, d.lo, d.hi, r.pages);
	}
#endif
	return tap_done();
}

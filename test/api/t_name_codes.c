/* t_name_codes.c: the error code of every name-parsing call for good and bad names, with PAPI 7.0's answers beside ours. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"
#include "tap.h"
#ifndef PAPI7_PROBE
#include "priv.h"
#include "pmu_child.h"
#endif

/*
 * Each row: a name, and what PAPI_event_name_to_code, PAPI_query_named_event
 * and PAPI_add_named_event answer for it, then the info of the code the name
 * gave (when it gave one); beside them what PAPI 7.0 (Debian's libpapi
 * 7.0.0, this machine: no hardware PMU) answered, and why we differ where we
 * do. The PAPI 7.0 columns are measured, not assumed: build this file
 * against Debian's library and it checks them instead of ours:
 *
 *   cc -DPAPI7_PROBE -Itest -o probe test/api/t_name_codes.c -lpapi
 *   ./probe; LIBPFM_FORCE_PMU=skx ./probe
 *
 * (run as an ordinary user at perf_event_paranoid 2 for the KPRIV rows'
 * PAPI_EPERM). Rows whose pmu is "skx" run with LIBPFM_FORCE_PMU=skx: another
 * CPU's names, which this kernel cannot count (PAPI_ENOEVNT when added).
 */
#define OK PAPI_OK
#define NOEV PAPI_ENOEVNT
#define INVAL PAPI_EINVAL
#define ECMP PAPI_ECMP
#define KPRIV 1		/* PAPI_OK where this user may count the kernel, else PAPI_EPERM */
#define HW 2		/* PAPI_OK where the kernel has a hardware PMU driver, else PAPI_ENOEVNT */
#define LONGNAME "<long>"	/* 2000 characters after "perf::" */

static const struct row {
	int line;
	const char *pmu;	/* LIBPFM_FORCE_PMU, "" for none */
	const char *name;
	int n2c, query, add;		/* ours */
	int p7_n2c, p7_query, p7_add;	/* PAPI 7.0's */
	const char *why;		/* why ours differs, NULL when it does not */
} rows[] = {
	{ __LINE__, "", NULL, INVAL, INVAL, INVAL, INVAL, INVAL, INVAL, NULL },
	{ __LINE__, "", LONGNAME, NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK", OK, OK, OK, OK, OK, OK, NULL },
	{ __LINE__, "", "perf::task-clock", OK, OK, OK, OK, OK, OK, NULL },
	{ __LINE__, "", "TASK-CLOCK", OK, OK, OK, OK, OK, OK, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK:u", OK, OK, OK, OK, OK, OK, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK:u:u", OK, OK, OK, OK, OK, OK, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK:period=10", OK, OK, OK, OK, OK, OK, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK:mg=1", OK, OK, OK, OK, OK, OK, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK:k=1", OK, OK, KPRIV, OK, OK, KPRIV, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK:u=1:k=1", OK, OK, KPRIV, OK, OK, KPRIV, NULL },
	/* a qualifier the event does not have, or a bad value: no such event */
	{ __LINE__, "", "perf::TASK-CLOCK:zzz=1", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK:zzz", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK:precise=1", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "perf::PERF_COUNT_SW_TASK_CLOCK:zzz", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK::u", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK:u=2", NOEV, NOEV, NOEV, NOEV, OK, NOEV,
	  "PAPI 7's query looks at the event only, not its qualifiers" },
	{ __LINE__, "", "perf::TASK-CLOCK:u=x", NOEV, NOEV, NOEV, NOEV, OK, NOEV,
	  "PAPI 7's query looks at the event only, not its qualifiers" },
	{ __LINE__, "", "perf::TASK-CLOCK:u=", NOEV, NOEV, NOEV, NOEV, OK, NOEV,
	  "PAPI 7's query looks at the event only, not its qualifiers" },
	{ __LINE__, "", "perf::TASK-CLOCK:", NOEV, NOEV, NOEV, NOEV, OK, NOEV,
	  "PAPI 7's query looks at the event only, not its qualifiers" },
	{ __LINE__, "", "perf::TASK-CLOCK:u=1:u=0", NOEV, NOEV, NOEV, NOEV, OK, NOEV,
	  "PAPI 7's query looks at the event only, not its qualifiers" },
	{ __LINE__, "", "perf::TASK-CLOCK:U", OK, OK, OK, NOEV, NOEV, NOEV,
	  "libpfm4 (and perf) read qualifiers without regard to case" },
	/* not one event name */
	{ __LINE__, "", " perf::TASK-CLOCK", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "perf::TASK-CLOCK,perf::CPU-CLOCK", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "perf::NOSUCH", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "perf::NOSUCH:u", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "nosuchpmu::X", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "perf::", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "::TASK-CLOCK", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "::", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "", "", NOEV, NOEV, NOEV, PAPI_ENOSUPP, ECMP, ECMP,
	  "PAPI 7 documents PAPI_ENOEVNT for a name that names no event" },
	{ __LINE__, "", ":", NOEV, NOEV, NOEV, ECMP, ECMP, ECMP,
	  "PAPI 7 documents PAPI_ENOEVNT for a name that names no event" },
	{ __LINE__, "", "PAPI_NOPE", NOEV, NOEV, NOEV, ECMP, ECMP, ECMP,
	  "PAPI 7 documents PAPI_ENOEVNT for a name that names no event" },
	{ __LINE__, "", "PAPI_TOT_INS:u", NOEV, NOEV, NOEV, ECMP, ECMP, ECMP,
	  "PAPI 7 documents PAPI_ENOEVNT for a name that names no event" },
	/* a preset: a code; a count where the kernel has a PMU (make check-pmu) */
	{ __LINE__, "", "PAPI_TOT_INS", OK, HW, HW, OK, HW, HW, NULL },
	/* another CPU's events */
	{ __LINE__, "skx", "skx::INST_RETIRED:ANY_P", OK, OK, NOEV, OK, OK, NOEV, NULL },
	{ __LINE__, "skx", "INST_RETIRED:ANY_P", OK, OK, NOEV, OK, OK, NOEV, NULL },
	{ __LINE__, "skx", "skx::INST_RETIRED", OK, OK, NOEV, OK, OK, NOEV, NULL },
	{ __LINE__, "skx", "skx::OFFCORE_RESPONSE_0", OK, OK, NOEV, OK, OK, NOEV, NULL },
	{ __LINE__, "skx", "skx::UOPS_ISSUED:ANY:ANY", OK, OK, NOEV, OK, OK, NOEV, NULL },
	{ __LINE__, "skx", "skx::INST_RETIRED:ANY_P:c=2", OK, OK, NOEV, OK, OK, NOEV, NULL },
	{ __LINE__, "skx", "skx::INST_RETIRED:ZZZ", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "skx", "skx::INST_RETIRED:ANY_P:zzz", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "skx", "skx::INST_RETIRED:ANY_P:::", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "skx", "skx::NOSUCH", NOEV, NOEV, NOEV, NOEV, NOEV, NOEV, NULL },
	{ __LINE__, "skx", "skx::INST_RETIRED:ANY_P:u=2", NOEV, NOEV, NOEV, NOEV, OK, NOEV,
	  "PAPI 7's query looks at the event only, not its qualifiers" },
	{ __LINE__, "skx", "skx::INST_RETIRED:ANY_P:c=300", NOEV, NOEV, NOEV, NOEV, OK, NOEV,
	  "PAPI 7's query looks at the event only, not its qualifiers" },
	{ __LINE__, "skx", "skx::INST_RETIRED:ANY_P:e", NOEV, NOEV, NOEV, NOEV, OK, NOEV,
	  "PAPI 7's query looks at the event only, not its qualifiers" },
	{ __LINE__, "skx", "skx::INST_RETIRED:ANY_P:e=1:c=0", NOEV, NOEV, NOEV, NOEV, OK, NOEV,
	  "PAPI 7's query looks at the event only, not its qualifiers" },
	{ __LINE__, "skx", "INST_RETIRED:ZZZ", NOEV, NOEV, NOEV, ECMP, ECMP, ECMP,
	  "PAPI 7 documents PAPI_ENOEVNT for a name that names no event" },
	{ __LINE__, "skx", "TASK-CLOCK", NOEV, NOEV, NOEV, ECMP, ECMP, ECMP,
	  "PAPI 7 documents PAPI_ENOEVNT for a name that names no event" },
};

#ifdef PAPI7_PROBE
static int kernel_ok(void)
{
	return geteuid() == 0;	/* the probe is run at perf_event_paranoid 2 */
}
static int hw_pmu(void)
{
	return 0;	/* the probe's machine has none */
}
#else
static int kernel_ok(void)
{
	return priv_kernel_ok();
}
/* A core PMU in sysfs, as the kernel lists it: x86's "cpu", or any PMU
 * that lists its CPUs in "cpus" (hybrid x86's cpu_core and cpu_atom,
 * arm64's armv8_pmuv3_0, armv8_cortex_a72, ...). */
static int hw_pmu(void)
{
	const char *top = "/sys/bus/event_source/devices";
	char path[512];
	int found = 0;
	DIR *d = opendir(top);
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		snprintf(path, sizeof path, "%s/%s/cpus", top, e->d_name);
		found = e->d_name[0] != '.' && (!strcmp(e->d_name, "cpu") || access(path, R_OK) == 0);
	}
	if (d)
		closedir(d);
	return found;
}
#endif

static int want(int code)
{
	if (code == HW)
		return hw_pmu() ? PAPI_OK : PAPI_ENOEVNT;
	return code == KPRIV ? (kernel_ok() ? PAPI_OK : PAPI_EPERM) : code;
}

static void check(const struct row *r, const char *name)
{
	const char *shown = r->name ? (*r->name ? r->name : "\"\"") : "NULL";
	int code = 0, es = PAPI_NULL;
	int n2c = PAPI_event_name_to_code(name, &code);
	int query = PAPI_query_named_event(name);
	PAPI_create_eventset(&es);
	int add = PAPI_add_named_event(es, name);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
#ifdef PAPI7_PROBE
	int w1 = r->p7_n2c, w2 = r->p7_query, w3 = r->p7_add;
#else
	int w1 = r->n2c, w2 = r->query, w3 = r->add;
	ok(!r->why == (r->n2c == r->p7_n2c && r->query == r->p7_query && r->add == r->p7_add),
	   "%s: a row that differs from PAPI 7 says why, and only such a row (line %d)", shown, r->line);
#endif
	ok(n2c == want(w1) && query == want(w2) && add == want(w3),
	   "%s: name_to_code %d, query_named_event %d, add_named_event %d (want %d %d %d, line %d)", shown,
	   n2c, query, add, want(w1), want(w2), want(w3), r->line);
	if (n2c == PAPI_OK) {
		/* the code a name gives has its info, whatever counting makes of it */
		PAPI_event_info_t info;
		is_int(PAPI_get_event_info(code, &info), PAPI_OK, "%s: its code has info (line %d)", shown,
		       r->line);
	}
}

static void run_rows(const char *pmu)
{
	char *longname = malloc(2007);
	memcpy(longname, "perf::", 6);
	memset(longname + 6, 'A', 2000);
	longname[2006] = 0;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (!strcmp(rows[i].pmu, pmu))
			check(&rows[i], rows[i].name && !strcmp(rows[i].name, LONGNAME) ? longname
											  : rows[i].name);
	free(longname);
}

int main(void)
{
#ifdef PAPI7_PROBE
	const char *pmu = getenv("LIBPFM_FORCE_PMU");
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return 1;
	run_rows(pmu ? pmu : "");
#else
	/* The forced PMU first: libpfm4 reads LIBPFM_FORCE_PMU when the library
	 * starts it, but once started without one, it keeps the perf PMU
	 * active through pfm_terminate and a new start. */
	static const char *const pmus[] = { "skx", "" };
	for (size_t p = 0; p < sizeof pmus / sizeof *pmus; p++) {
		if (*pmus[p] && pmu_tables_missing(pmus[p], "the rows of another CPU's names"))
			continue;
		if (*pmus[p])
			setenv("LIBPFM_FORCE_PMU", pmus[p], 1);
		else
			unsetenv("LIBPFM_FORCE_PMU");
		is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init (pmu '%s')", pmus[p]);
		run_rows(pmus[p]);
		PAPI_shutdown();
	}
#endif
	return tap_done();
}

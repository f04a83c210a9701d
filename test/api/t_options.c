/* t_options.c: every PAPI_set_opt/PAPI_get_opt option round-trips; misuse gets PAPI 7's error codes. */
#include <signal.h>
#include <sys/time.h>

#include "llapi_util.h"
#include "priv.h"

/* What PAPI_DOM_ALL becomes: the domains this user may count. */
#define ALLOWED_DOMS (PAPI_DOM_USER | PAPI_DOM_SUPERVISOR | (priv_kernel_ok() ? PAPI_DOM_KERNEL : 0))

static PAPI_option_t o;
#define CLR() memset(&o, 0, sizeof o)

static void library_options(void)
{
	CLR();
	o.debug.level = PAPI_VERB_ECONT;
	is_int(PAPI_set_opt(PAPI_DEBUG, &o), PAPI_OK, "DEBUG set");
	CLR();
	is_int(PAPI_get_opt(PAPI_DEBUG, &o), PAPI_OK, "DEBUG get");
	is_int(o.debug.level, PAPI_VERB_ECONT, "DEBUG round-trips");
	o.debug.level = 77;
	is_int(PAPI_set_opt(PAPI_DEBUG, &o), PAPI_EINVAL, "DEBUG bad level: PAPI_EINVAL");
	o.debug.level = PAPI_QUIET;
	PAPI_set_opt(PAPI_DEBUG, &o);

	CLR();
	o.multiplex.ns = 5000000;
	is_int(PAPI_set_opt(PAPI_DEF_MPX_NS, &o), PAPI_OK, "DEF_MPX_NS set");
	CLR();
	PAPI_get_opt(PAPI_DEF_MPX_NS, &o);
	is_int(o.multiplex.ns, 5000000, "DEF_MPX_NS round-trips");
	o.multiplex.ns = 0;
	is_int(PAPI_set_opt(PAPI_DEF_MPX_NS, &o), PAPI_EINVAL, "DEF_MPX_NS 0: PAPI_EINVAL");

	CLR();
	PAPI_get_opt(PAPI_DEF_ITIMER, &o);
	is_int(o.itimer.itimer_num, ITIMER_PROF, "DEF_ITIMER default: ITIMER_PROF (as PAPI 7)");
	is_int(o.itimer.itimer_sig, SIGPROF, "DEF_ITIMER default signal SIGPROF");
	o.itimer.itimer_num = ITIMER_REAL;
	o.itimer.itimer_sig = SIGALRM;
	o.itimer.ns = 2000000;
	is_int(PAPI_set_opt(PAPI_DEF_ITIMER, &o), PAPI_OK, "DEF_ITIMER set");
	CLR();
	PAPI_get_opt(PAPI_DEF_ITIMER, &o);
	ok(o.itimer.itimer_num == ITIMER_REAL && o.itimer.itimer_sig == SIGALRM && o.itimer.ns == 2000000,
	   "DEF_ITIMER round-trips");
	o.itimer.ns = 3000000;
	is_int(PAPI_set_opt(PAPI_DEF_ITIMER_NS, &o), PAPI_OK, "DEF_ITIMER_NS set");
	CLR();
	PAPI_get_opt(PAPI_DEF_ITIMER_NS, &o);
	is_int(o.itimer.ns, 3000000, "DEF_ITIMER_NS round-trips");
	o.itimer.itimer_num = 42;
	is_int(PAPI_set_opt(PAPI_DEF_ITIMER, &o), PAPI_EINVAL, "DEF_ITIMER bad timer: PAPI_EINVAL");

	CLR();
	o.defdomain.domain = PAPI_DOM_KERNEL;
	if (priv_kernel_ok()) {
		is_int(PAPI_set_opt(PAPI_DEFDOM, &o), PAPI_OK, "DEFDOM set");
		is_int(PAPI_get_opt(PAPI_DEFDOM, NULL), PAPI_DOM_KERNEL, "DEFDOM round-trips");
	} else {
		is_int(PAPI_set_opt(PAPI_DEFDOM, &o), PAPI_ENOSUPP,
		       "DEFDOM KERNEL without the privilege: PAPI_ENOSUPP (as PAPI 7)");
		ok(strstr(papi_last_reason(), "perf_event_paranoid"), "the reason says why: %s",
		   papi_last_reason());
		is_int(PAPI_get_opt(PAPI_DEFDOM, NULL), PAPI_DOM_USER, "DEFDOM stays user");
	}
	is_int(PAPI_set_domain(PAPI_DOM_OTHER), PAPI_ENOSUPP, "set_domain(PAPI_DOM_OTHER): PAPI_ENOSUPP (as PAPI 7)");
	is_int(PAPI_set_domain(PAPI_DOM_ALL), PAPI_OK, "set_domain(PAPI_DOM_ALL)");
	is_int(PAPI_get_opt(PAPI_DEFDOM, NULL), ALLOWED_DOMS,
	       "PAPI_DOM_ALL keeps the domains perf can separate and this user may count "
	       "(as PAPI 7: 0xb, 0x9 without kernel counting)");
	is_int(PAPI_set_domain(0), PAPI_EINVAL, "set_domain(0): PAPI_EINVAL");
	is_int(PAPI_set_domain(0x100), PAPI_EINVAL, "set_domain(unknown bit): PAPI_EINVAL");
	is_int(PAPI_set_cmp_domain(PAPI_DOM_USER, 9), PAPI_ENOCMP, "set_cmp_domain bad component: PAPI_ENOCMP");
	is_int(PAPI_set_cmp_domain(PAPI_DOM_USER, 0), PAPI_OK, "set_cmp_domain");
	is_int(PAPI_get_cmp_opt(PAPI_DEFDOM, NULL, 0), PAPI_DOM_USER, "DEFDOM of component 0");

	CLR();
	o.defgranularity.granularity = PAPI_GRN_SYS;
	is_int(PAPI_set_opt(PAPI_DEFGRN, &o), PAPI_OK, "DEFGRN set");
	is_int(PAPI_get_opt(PAPI_DEFGRN, NULL), PAPI_GRN_SYS, "DEFGRN round-trips");
	is_int(PAPI_set_granularity(PAPI_GRN_PROC), PAPI_EINVAL, "set_granularity(PROC): PAPI_EINVAL (as PAPI 7)");
	is_int(PAPI_set_granularity(3), PAPI_EINVAL, "set_granularity(3): PAPI_EINVAL");
	is_int(PAPI_set_cmp_granularity(PAPI_GRN_THR, 9), PAPI_ENOCMP, "set_cmp_granularity bad component");
	is_int(PAPI_set_granularity(PAPI_GRN_THR), PAPI_OK, "set_granularity(THR)");
	is_int(PAPI_get_cmp_opt(PAPI_DEFGRN, NULL, 0), PAPI_GRN_THR, "DEFGRN of component 0");

	CLR();
	o.events_file = "/tmp/papi-user-events.txt";
	is_int(PAPI_set_opt(PAPI_USER_EVENTS_FILE, &o), PAPI_OK, "USER_EVENTS_FILE set");
	is_str(options_user_events_file(), "/tmp/papi-user-events.txt", "USER_EVENTS_FILE stored");
}

static void info_options(void)
{
	int hw = PAPI_num_hwctrs();
	ok(hw >= 0, "PAPI_num_hwctrs %d", hw);
	is_int(PAPI_get_opt(PAPI_MAX_HWCTRS, NULL), hw, "MAX_HWCTRS equals PAPI_num_hwctrs");
	is_int(PAPI_num_cmp_hwctrs(0), hw, "num_cmp_hwctrs(0) equals it too");
	ok(PAPI_num_cmp_hwctrs(99) < 0, "num_cmp_hwctrs(99) is an error");
	is_int(PAPI_get_cmp_opt(PAPI_MAX_HWCTRS, NULL, 99), PAPI_ECMP, "get_cmp_opt bad component: PAPI_ECMP");
	is_int(PAPI_get_cmp_opt(PAPI_SHLIBINFO, NULL, 0), PAPI_EINVAL, "get_cmp_opt of a library option: PAPI_EINVAL");
	is_int(PAPI_get_opt(PAPI_MAX_MPX_CTRS, NULL), 384, "MAX_MPX_CTRS 384 (as PAPI 7)");
	ok(PAPI_get_opt(PAPI_CLOCKRATE, NULL) > 0, "CLOCKRATE positive");
	is_int(PAPI_get_opt(PAPI_MAX_CPUS, NULL), PAPI_get_hardware_info()->totalcpus, "MAX_CPUS is the CPU count");
	is_int(PAPI_get_opt(PAPI_LIB_VERSION, NULL), PAPI_VERSION, "LIB_VERSION is PAPI_VERSION");
	CLR();
	is_int(PAPI_get_opt(PAPI_HWINFO, &o), PAPI_OK, "HWINFO");
	ok(o.hw_info == PAPI_get_hardware_info(), "HWINFO is PAPI_get_hardware_info's");
	CLR();
	is_int(PAPI_get_opt(PAPI_EXEINFO, &o), PAPI_OK, "EXEINFO");
	ok(o.exe_info && o.exe_info == PAPI_get_executable_info(), "EXEINFO is PAPI_get_executable_info's");
	CLR();
	is_int(PAPI_get_opt(PAPI_SHLIBINFO, &o), PAPI_OK, "SHLIBINFO");
	ok(o.shlib_info && o.shlib_info->count > 0, "SHLIBINFO lists libraries");
	CLR();
	is_int(PAPI_get_opt(PAPI_PRELOAD, &o), PAPI_OK, "PRELOAD");
	is_str(o.preload.lib_preload_env, "LD_PRELOAD", "PRELOAD names LD_PRELOAD");
	is_int(o.preload.lib_dir_sep, ':', "PRELOAD dir separator ':'");
	/* the information options need a place to put it */
	int nullopts[] = { PAPI_HWINFO, PAPI_EXEINFO, PAPI_SHLIBINFO, PAPI_PRELOAD, PAPI_DEBUG,
			   PAPI_DEF_MPX_NS, PAPI_DOMAIN, PAPI_ATTACH, PAPI_MULTIPLEX };
	for (size_t i = 0; i < sizeof nullopts / sizeof *nullopts; i++)
		is_int(PAPI_get_opt(nullopts[i], NULL), PAPI_EINVAL, "get_opt(%d, NULL): PAPI_EINVAL", nullopts[i]);
	int ro[] = { PAPI_MAX_HWCTRS, PAPI_CLOCKRATE, PAPI_HWINFO, PAPI_EXEINFO, PAPI_LIB_VERSION,
		     PAPI_PRELOAD, PAPI_PROFIL, 9, 999 };
	for (size_t i = 0; i < sizeof ro / sizeof *ro; i++)
		is_int(PAPI_set_opt(ro[i], &o), PAPI_EINVAL, "set_opt(%d): PAPI_EINVAL", ro[i]);
	is_int(PAPI_set_opt(PAPI_ATTACH, NULL), PAPI_EINVAL, "set_opt NULL: PAPI_EINVAL");
	is_int(PAPI_get_opt(999, &o), PAPI_EINVAL, "get_opt unknown: PAPI_EINVAL");
}

static void set_options(int tclk)
{
	int es = PAPI_NULL;
	PAPI_create_eventset(&es);
	CLR();
	o.domain.eventset = es;
	o.domain.domain = PAPI_DOM_ALL;
	is_int(PAPI_set_opt(PAPI_DOMAIN, &o), PAPI_ENOCMP, "DOMAIN of an unbound set: PAPI_ENOCMP");
	PAPI_add_event(es, tclk);
	is_int(PAPI_set_opt(PAPI_DOMAIN, &o), PAPI_OK, "DOMAIN set (counters reopened)");
	CLR();
	o.domain.eventset = es;
	PAPI_get_opt(PAPI_DOMAIN, &o);
	is_int(o.domain.domain, ALLOWED_DOMS, "DOMAIN round-trips (PAPI_DOM_ALL: what this user may count)");
	o.domain.domain = PAPI_DOM_USER | PAPI_DOM_KERNEL;
	is_int(PAPI_set_opt(PAPI_DOMAIN, &o), priv_kernel_ok() ? PAPI_OK : PAPI_EINVAL_DOM,
	       "DOMAIN USER|KERNEL: %s", priv_kernel_ok() ? "set" : "PAPI_EINVAL_DOM without the privilege (as PAPI 7)");
	o.domain.domain = 0;
	is_int(PAPI_set_opt(PAPI_DOMAIN, &o), PAPI_EINVAL_DOM, "DOMAIN 0: PAPI_EINVAL_DOM (as PAPI 7)");
	CLR();
	o.granularity.eventset = es;
	o.granularity.granularity = PAPI_GRN_SYS;
	is_int(PAPI_set_opt(PAPI_GRANUL, &o), PAPI_OK, "GRANUL set");
	CLR();
	o.granularity.eventset = es;
	PAPI_get_opt(PAPI_GRANUL, &o);
	is_int(o.granularity.granularity, PAPI_GRN_SYS, "GRANUL round-trips");
	o.granularity.granularity = PAPI_GRN_PROC;
	is_int(PAPI_set_opt(PAPI_GRANUL, &o), PAPI_EINVAL, "GRANUL PROC: PAPI_EINVAL");
	CLR();
	o.multiplex.eventset = es;
	o.multiplex.ns = 4000000;
	o.multiplex.flags = PAPI_MULTIPLEX_FORCE_SW;
	is_int(PAPI_set_opt(PAPI_MULTIPLEX, &o), PAPI_OK, "MULTIPLEX set");
	CLR();
	o.multiplex.eventset = es;
	PAPI_get_opt(PAPI_MULTIPLEX, &o);
	ok(o.multiplex.ns == 4000000 && o.multiplex.flags == PAPI_MULTIPLEX_FORCE_SW, "MULTIPLEX round-trips");
	CLR();
	o.inherit.eventset = es;
	o.inherit.inherit = PAPI_INHERIT_ALL;
	is_int(PAPI_set_opt(PAPI_INHERIT, &o), PAPI_OK, "INHERIT set");
	CLR();
	o.inherit.eventset = es;
	PAPI_get_opt(PAPI_INHERIT, &o);
	is_int(o.inherit.inherit, PAPI_INHERIT_ALL, "INHERIT round-trips");
	CLR();
	o.attach.eventset = es;
	o.attach.tid = (unsigned long)getpid();
	is_int(PAPI_set_opt(PAPI_ATTACH, &o), PAPI_OK, "ATTACH set (to ourselves)");
	CLR();
	o.attach.eventset = es;
	is_int(PAPI_get_opt(PAPI_ATTACH, &o), 1, "ATTACH get");
	is_int((long long)o.attach.tid, getpid(), "ATTACH round-trips");
	is_int(PAPI_set_opt(PAPI_DETACH, &o), PAPI_OK, "DETACH set");
	is_int(PAPI_get_opt(PAPI_DETACH, &o), 1, "DETACH get: detached");
	CLR();
	o.addr.eventset = es;
	is_int(PAPI_set_opt(PAPI_DATA_ADDRESS, &o), PAPI_ENOSUPP, "DATA_ADDRESS: PAPI_ENOSUPP on perf_event");
	/* running: no changes */
	is_int(PAPI_start(es), PAPI_OK, "start");
	CLR();
	o.domain.eventset = es;
	o.domain.domain = PAPI_DOM_USER;
	is_int(PAPI_set_opt(PAPI_DOMAIN, &o), PAPI_EISRUN, "DOMAIN while running: PAPI_EISRUN");
	CLR();
	o.inherit.eventset = es;
	is_int(PAPI_set_opt(PAPI_INHERIT, &o), PAPI_EISRUN, "INHERIT while running: PAPI_EISRUN");
	CLR();
	o.cpu.eventset = es;
	is_int(PAPI_set_opt(PAPI_CPU_ATTACH, &o), PAPI_EISRUN, "CPU_ATTACH while running: PAPI_EISRUN");
	PAPI_stop(es, NULL);
	o.domain.eventset = 99999;
	is_int(PAPI_set_opt(PAPI_DOMAIN, &o), PAPI_ENOEVST, "DOMAIN of no set: PAPI_ENOEVST");
	is_int(PAPI_get_opt(PAPI_DOMAIN, &o), PAPI_ENOEVST, "get DOMAIN of no set: PAPI_ENOEVST");
	set_free(&es);
}

/* Misuse from seed 000, the codes PAPI 7 returns. */
static void misuse(int tclk)
{
	int es = PAPI_NULL;
	long long v[2];
	is_int(PAPI_start(99999), PAPI_ENOEVST, "start no set: PAPI_ENOEVST");
	PAPI_create_eventset(&es);
	is_int(PAPI_add_event(es, tclk), PAPI_OK, "add");
	is_int(PAPI_add_event(es, tclk), PAPI_ECNFLCT, "add the same event twice: PAPI_ECNFLCT");
	is_int(PAPI_stop(es, v), PAPI_ENOTRUN, "stop a stopped set: PAPI_ENOTRUN");
	PAPI_start(es);
	is_int(PAPI_start(es), PAPI_EISRUN, "start twice: PAPI_EISRUN");
	is_int(PAPI_add_event(es, code_of("perf::CPU-CLOCK")), PAPI_EISRUN, "add while running: PAPI_EISRUN");
	is_int(PAPI_cleanup_eventset(es), PAPI_EISRUN, "cleanup while running: PAPI_EISRUN");
	is_int(PAPI_write(es, v), PAPI_ENOSUPP, "write: PAPI_ENOSUPP on perf_event");
	PAPI_stop(es, v);
	is_int(PAPI_destroy_eventset(&es), PAPI_EINVAL, "destroy a set with events: PAPI_EINVAL");
	set_free(&es);
}

int main(void)
{
	CLR();
	is_int(PAPI_set_domain(PAPI_DOM_USER), PAPI_ENOINIT, "set_domain before init: PAPI_ENOINIT");
	ok(PAPI_num_hwctrs() <= 0, "num_hwctrs before init: no counters");
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "PAPI_library_init");
		return tap_done();
	}
	library_options();
	info_options();
	int tclk = code_of("perf::TASK-CLOCK");
	if (tclk) {
		set_options(tclk);
		misuse(tclk);
	} else {
		skip("perf::TASK-CLOCK unknown here", "EventSet options");
	}
	PAPI_shutdown();
	return tap_done();
}

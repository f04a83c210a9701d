/* t_sim_paranoid.c: what libpapi asks the kernel for and says at every perf_event_paranoid level, with and without CAP_PERFMON. */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "sim/sim_pmu.h"
#include "tap.h"

#define U PAPI_DOM_USER
#define K PAPI_DOM_KERNEL
#define H PAPI_DOM_SUPERVISOR

/* What a row asks of the library. */
enum ask {
	DEFAULT,	/* perf::TASK-CLOCK in a new set: the default domain */
	QUAL_K,		/* perf::TASK-CLOCK:k=1: the event insists on the kernel */
	QUAL_KU,	/* perf::TASK-CLOCK:K=1: the same, as libpfm4 reads it */
	SET_UK,		/* the set's domain USER|KERNEL (PAPI_set_opt) */
	SET_ALL,	/* the set's domain PAPI_DOM_ALL */
	DEF_K,		/* the default domain PAPI_DOM_KERNEL (PAPI_set_domain) */
	DEF_ALL,	/* the default domain PAPI_DOM_ALL, then a new set */
	CPU0,		/* PAPI_CPU_ATTACH to CPU 0 */
};

static const struct row {
	int line, paranoid, priv;
	enum ask ask;
	int want;		/* return code of the step that asks */
	int dom;		/* domain counted after it (0: nothing counts) */
	const char *words;	/* in the reason when want != PAPI_OK */
} rows[] = {
	/* The default domain is user space: the kernel allows it up to 2. */
	{ __LINE__, -1, 0, DEFAULT, PAPI_OK, U, NULL },
	{ __LINE__, 0, 0, DEFAULT, PAPI_OK, U, NULL },
	{ __LINE__, 1, 0, DEFAULT, PAPI_OK, U, NULL },
	{ __LINE__, 2, 0, DEFAULT, PAPI_OK, U, NULL },
	/* 3 and 4 (patched distribution kernels): nothing without privilege */
	{ __LINE__, 3, 0, DEFAULT, PAPI_EPERM, 0, "lets no unprivileged user count events (perf_event_paranoid=3): set /proc/sys/kernel/perf_event_paranoid to 2" },
	{ __LINE__, 4, 0, DEFAULT, PAPI_EPERM, 0, "(perf_event_paranoid=4)" },
	{ __LINE__, 4, 1, DEFAULT, PAPI_OK, U, NULL },
	/* An event that insists on the kernel is refused from 2 on. */
	{ __LINE__, 1, 0, QUAL_K, PAPI_OK, K, NULL },
	{ __LINE__, 2, 0, QUAL_K, PAPI_EPERM, 0, "counting the kernel needs perf_event_paranoid 1 or lower (it is 2) or CAP_PERFMON" },
	{ __LINE__, 3, 0, QUAL_K, PAPI_EPERM, 0, "set /proc/sys/kernel/perf_event_paranoid to 1" },
	{ __LINE__, 2, 1, QUAL_K, PAPI_OK, K, NULL },
	{ __LINE__, 1, 0, QUAL_KU, PAPI_OK, K, NULL },
	{ __LINE__, 2, 0, QUAL_KU, PAPI_EPERM, 0, "counting the kernel needs" },
	/* A set asking for the kernel: PAPI_EINVAL_DOM as PAPI 7, with the reason. */
	{ __LINE__, 1, 0, SET_UK, PAPI_OK, U | K, NULL },
	{ __LINE__, 2, 0, SET_UK, PAPI_EINVAL_DOM, U, "PAPI_DOM_KERNEL: counting the kernel needs" },
	{ __LINE__, 2, 1, SET_UK, PAPI_OK, U | K, NULL },
	/* PAPI_DOM_ALL: whatever the kernel allows, the kernel's share only where it may. */
	{ __LINE__, -1, 0, SET_ALL, PAPI_OK, U | K | H, NULL },
	{ __LINE__, 1, 0, SET_ALL, PAPI_OK, U | K | H, NULL },
	{ __LINE__, 2, 0, SET_ALL, PAPI_OK, U | H, NULL },
	{ __LINE__, 2, 1, SET_ALL, PAPI_OK, U | K | H, NULL },
	{ __LINE__, 1, 0, DEF_ALL, PAPI_OK, U | K | H, NULL },
	{ __LINE__, 2, 0, DEF_ALL, PAPI_OK, U | H, NULL },
	{ __LINE__, 1, 0, DEF_K, PAPI_OK, K, NULL },
	{ __LINE__, 2, 0, DEF_K, PAPI_ENOSUPP, U, "counting the kernel needs" },
	/* A whole CPU: paranoid 0 or lower, or CAP_PERFMON. */
	{ __LINE__, -1, 0, CPU0, PAPI_OK, U, NULL },
	{ __LINE__, 0, 0, CPU0, PAPI_OK, U, NULL },
	{ __LINE__, 1, 0, CPU0, PAPI_EPERM, U, "counting all of CPU 0 needs perf_event_paranoid 0 or lower (it is 1) or CAP_PERFMON" },
	{ __LINE__, 2, 0, CPU0, PAPI_EPERM, U, "it is 2" },
	{ __LINE__, 2, 1, CPU0, PAPI_OK, U, NULL },
};

/* The domain the set's counter was opened with, from the attribute the
 * kernel got; 0 when nothing is open. */
static int opened_domain(int es)
{
	EventSet_t *s = es_lookup(es);
	if (!s || s->nhw < 1 || s->hw[0].fd < 0)
		return 0;
	const struct perf_event_attr *a = sim_attr(s->hw[0].fd);
	if (!a)
		return 0;
	return (a->exclude_user ? 0 : U) | (a->exclude_kernel ? 0 : K) | (a->exclude_hv ? 0 : H);
}

static void one(const struct row *r)
{
	struct sim_config c = sim_default_config();
	c.paranoid = r->paranoid;
	c.privileged = r->priv;
	sim_install(&c);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		ok(0, "init (row at line %d)", r->line);
		sim_uninstall();
		return;
	}
	int allowed = U | H | (r->priv || r->paranoid <= 1 ? K : 0);
	const PAPI_component_info_t *ci = PAPI_get_component_info(0);
	is_int(ci ? ci->available_domains : -1, allowed, "available_domains (row at line %d)", r->line);

	/* The asking step, then perf::TASK-CLOCK (with :k=1 for QUAL_K) added. */
	int es = PAPI_NULL, got = PAPI_OK;
	char why[512] = "";
	papi_clear_reason();
	if (r->ask == DEF_K || r->ask == DEF_ALL)
		got = PAPI_set_domain(r->ask == DEF_K ? K : PAPI_DOM_ALL);
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create (row at line %d)", r->line);
	if (r->ask == CPU0) {
		PAPI_option_t o;
		memset(&o, 0, sizeof o);
		PAPI_assign_eventset_component(es, 0);
		o.cpu.eventset = es;
		o.cpu.cpu_num = 0;
		got = PAPI_set_opt(PAPI_CPU_ATTACH, &o);
	}
	snprintf(why, sizeof why, "%s", papi_last_reason());
	int add = PAPI_add_named_event(es, r->ask == QUAL_K ? "perf::TASK-CLOCK:k=1"
					   : r->ask == QUAL_KU ? "perf::TASK-CLOCK:K=1" : "perf::TASK-CLOCK");
	if (r->ask == DEFAULT || r->ask == QUAL_K || r->ask == QUAL_KU)
		got = add;
	else
		is_int(add, PAPI_OK, "the event is added (row at line %d)", r->line);
	if (r->ask == SET_UK || r->ask == SET_ALL) {
		PAPI_option_t o;
		memset(&o, 0, sizeof o);
		o.domain.eventset = es;
		o.domain.domain = r->ask == SET_UK ? U | K : PAPI_DOM_ALL;
		got = PAPI_set_opt(PAPI_DOMAIN, &o);
		snprintf(why, sizeof why, "%s", papi_last_reason());
	} else if (r->ask == DEFAULT || r->ask == QUAL_K || r->ask == QUAL_KU) {
		snprintf(why, sizeof why, "%s", papi_last_reason());
	}
	is_int(got, r->want, "return code (row at line %d)", r->line);
	if (r->want != PAPI_OK)
		ok(strstr(why, r->words) != NULL, "the reason says '%s' (row at line %d): %s",
		   r->words, r->line, why);
	is_int(opened_domain(es), r->dom, "the kernel was asked for this domain (row at line %d)", r->line);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_set_domain(U);
	PAPI_shutdown();
	sim_uninstall();
}

/* pe_probe, which the CLI asks before it counts: can this user count at all? */
static void probe(void)
{
	static const struct {
		int line, paranoid, priv, inject, want;
		const char *words;
	} p[] = {
		{ __LINE__, 2, 0, 0, PAPI_OK, NULL },
		{ __LINE__, 3, 0, 0, PAPI_EPERM, "this kernel lets no unprivileged user count events (perf_event_paranoid=3)" },
		{ __LINE__, 4, 0, 0, PAPI_EPERM, "(perf_event_paranoid=4)" },
		{ __LINE__, 3, 1, 0, PAPI_OK, NULL },
		{ __LINE__, 2, 0, EACCES, PAPI_EPERM, "although perf_event_paranoid=2 allows it: a security policy" },
		{ __LINE__, 2, 1, EPERM, PAPI_EPERM, "perf_event_paranoid=2 and CAP_PERFMON allow it: a security policy" },
		{ __LINE__, 2, 0, ENOSYS, PAPI_ESYS, "this kernel has no perf_event support" },
		/* any other failure: what failed, then why */
		{ __LINE__, 2, 0, EMFILE, PAPI_ESYS,
		  "cannot count even perf::TASK-CLOCK in user space: out of file descriptors" },
		{ __LINE__, 2, 0, EBUSY, PAPI_ECNFLCT,
		  "cannot count even perf::TASK-CLOCK in user space: the counters are in use" },
	};
	for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
		struct sim_config c = sim_default_config();
		c.paranoid = p[i].paranoid;
		c.privileged = p[i].priv;
		sim_install(&c);
		if (p[i].inject)
			sim_fail_next(p[i].inject, 1);
		char why[512] = "";
		is_int(pe_probe(why, sizeof why), p[i].want, "pe_probe (row at line %d)", p[i].line);
		if (p[i].words)
			ok(strstr(why, p[i].words) && !strchr(why, '\n'), "one sentence with '%s' (row at line %d): %s",
			   p[i].words, p[i].line, why);
		is_int(sim_open_count(), 0, "the probe leaves nothing open (row at line %d)", p[i].line);
		sim_uninstall();
	}
}

int main(void)
{
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		one(&rows[i]);
	probe();
	return tap_done();
}

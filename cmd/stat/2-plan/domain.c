/* domain.c: the domain papi stat asks for: --domain's, or every domain this user may count (as perf stat), user space failing that; and --cputype's core type of a hybrid CPU. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tool.h"
#include "plan.h"

/*
 * libpapi's default domain stays PAPI's (user space), which programs
 * linking it expect. papi stat counts as perf stat does instead: the
 * kernel's share too (the page faults taken inside read(), the context
 * switches the kernel makes) wherever this user may count it, user space
 * otherwise, and says so once. --domain, and a name's own :u or :k, choose
 * outright.
 */
int st_domain_choose(struct st *s)
{
	/* "all" is the default asked for by name: the same fall-back */
	if (s->o.domain && s->o.domain != PAPI_DOM_ALL) {
		if (cli_set_domain("stat", s->o.domain_arg, s->o.domain) != 0)
			return -1;
		s->dom = PAPI_get_opt(PAPI_DEFDOM, NULL);
		return 0;
	}
	s->dom_auto = 1;
	if (pe_kernel_allowed() && PAPI_set_domain(PAPI_DOM_ALL) == PAPI_OK) {
		s->dom = PAPI_get_opt(PAPI_DEFDOM, NULL);
		return 0;
	}
	char why[300];
	pe_kernel_advice(why, sizeof why);
	return st_domain_user(s, strdup(why));
}

/*
 * On a hybrid CPU a preset counts on every core type, summed (a thread
 * counts on whichever type it runs on). --cputype keeps the presets to one
 * type, as perf stat --cputype keeps its generic events: before anything
 * loads the preset tables, which resolve them once.
 */
int st_cputype_choose(const struct st *s)
{
	char why[256];
	const char *names[ST_MAX_CPUTYPES];
	if (s->o.aggr == AGGR_CPUTYPE && coretype_list(names, ST_MAX_CPUTYPES, why, sizeof why) < 0)
		return cli_error("stat", "--per-cputype: %s", why), -1;
	if (!s->o.cputype || coretype_select(s->o.cputype, why, sizeof why) == PAPI_OK)
		return 0;
	cli_error("stat", "--cputype %s: %s", s->o.cputype, why);
	return -1;
}

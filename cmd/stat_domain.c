/* stat_domain.c: papi stat's domains: every one this user may count by default (as perf stat), user space failing that, and how each event's domain is shown. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "internal.h"
#include "stat.h"

/*
 * libpapi's default domain stays PAPI's (user space), which programs
 * linking it expect. papi stat counts as perf stat does instead: the
 * kernel's share too (the page faults taken inside read(), the context
 * switches the kernel makes) wherever this user may count it, user space
 * otherwise, and says so once. --domain, and a name's own :u or :k, choose
 * outright.
 */

/* Fall back to user space, with the reason why (taken over). 0 or -1. */
static int user_only(struct st *s, char *why)
{
	free(s->dom_note);
	s->dom_note = why;
	if (PAPI_set_domain(PAPI_DOM_USER) != PAPI_OK)
		return cli_error("stat", "cannot count in user space: %s", PAPI_strerror(PAPI_EINVAL)), -1;
	s->dom = PAPI_get_opt(PAPI_DEFDOM, NULL);
	return 0;
}

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
	return user_only(s, strdup(why));
}

int st_domain_refused(const struct st *s, int ret)
{
	return ret == PAPI_EPERM && s->dom_auto && (s->dom & PAPI_DOM_KERNEL);
}

int st_domain_fallback(struct st *s)
{
	/* The capabilities said yes, the kernel no: a root or CAP_PERFMON
	 * of a user namespace counts nothing of the kernel; so do a security
	 * policy and a kernel closed harder than its perf_event_paranoid says. */
	return user_only(s, strdup("the kernel refused to count its own share although this user "
				   "holds CAP_PERFMON or CAP_SYS_ADMIN (in a user namespace, or a "
				   "security policy forbids it)"));
}

int st_event_dom(const struct st *s, const struct st_event *e, int *named)
{
	*named = 0;
	if (!e->avail || e->cidx > 0)
		return 0;	/* another component counts what it counts */
	if ((e->code & PAPI_NATIVE_MASK) && !(e->code & PAPI_PRESET_MASK)) {
		const struct native *n = native_get(e->code & PAPI_NATIVE_AND_MASK);
		if (n && n->has_domain_mod) {
			*named = 1;
			return (n->attr.exclude_user ? 0 : PAPI_DOM_USER) |
			       (n->attr.exclude_kernel ? 0 : PAPI_DOM_KERNEL) |
			       (n->attr.exclude_hv ? 0 : PAPI_DOM_SUPERVISOR);
		}
	}
	return s->dom;
}

/* Every domain perf_event separates: counted whole. */
static int dom_whole(int dom)
{
	int all = PAPI_DOM_USER | PAPI_DOM_KERNEL | PAPI_DOM_SUPERVISOR;
	return (dom & all) == all;
}

const char *st_dom_word(int dom, char *buf, size_t len)
{
	if (!dom)
		return NULL;
	if (dom_whole(dom))
		return "all";
	snprintf(buf, len, "%s%s%s%s%s", dom & PAPI_DOM_USER ? "user" : "",
		 dom & PAPI_DOM_USER && dom & (PAPI_DOM_KERNEL | PAPI_DOM_SUPERVISOR) ? "," : "",
		 dom & PAPI_DOM_KERNEL ? "kernel" : "",
		 dom & PAPI_DOM_KERNEL && dom & PAPI_DOM_SUPERVISOR ? "," : "",
		 dom & PAPI_DOM_SUPERVISOR ? "supervisor" : "");
	return buf;
}

void st_domain_labels(struct st *s)
{
	for (int i = 0; i < s->nev; i++) {
		struct st_event *e = &s->ev[i];
		int named, dom = st_event_dom(s, e, &named);
		free(e->label);
		e->label = NULL;
		/* perf's modifiers, as perf stat writes page-faults:u; a name
		 * that carries its own says it already */
		if (!dom || named || dom_whole(dom))
			continue;
		char mod[8];
		snprintf(mod, sizeof mod, ":%s%s%s", dom & PAPI_DOM_USER ? "u" : "",
			 dom & PAPI_DOM_KERNEL ? "k" : "", dom & PAPI_DOM_SUPERVISOR ? "h" : "");
		size_t n = strlen(e->name) + sizeof mod;
		if ((e->label = malloc(n)))
			snprintf(e->label, n, "%s%s", e->name, mod);
	}
}

const char *st_label(const struct st_event *e)
{
	return e->label ? e->label : e->name;
}

void st_domain_human(const struct st *s, FILE *f)
{
	int said = 0;
	if (s->dom_note) {
		fprintf(f, " User space only (:u): %s.\n", s->dom_note);
		said = 1;
	}
	/* a context switch is the kernel's doing: user space sees none */
	for (int i = 0; i < s->nev; i++) {
		int named, dom = st_event_dom(s, &s->ev[i], &named);
		if (s->ev[i].role == ROLE_CS && dom && !(dom & PAPI_DOM_KERNEL)) {
			fputs(" Context switches happen in the kernel: counted in user space only, they "
			      "may read 0.\n", f);
			said = 1;
			break;
		}
	}
	if (said)
		fputc('\n', f);
}

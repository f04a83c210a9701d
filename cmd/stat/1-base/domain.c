/* domain.c: papi stat's domains: falling back to user space, and each event's domain in words. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tool.h"
#include "base.h"

int st_domain_user(struct st *s, char *why)
{
	free(s->dom_note);
	s->dom_note = why;
	if (PAPI_set_domain(PAPI_DOM_USER) != PAPI_OK)
		return cli_error("stat", "cannot count in user space: %s", PAPI_strerror(PAPI_EINVAL)), -1;
	s->dom = PAPI_get_opt(PAPI_DEFDOM, NULL);
	return 0;
}

int st_event_dom(const struct st *s, const struct st_event *e, int *named)
{
	*named = 0;
	if (!e->avail || e->cidx > 0)
		return 0;	/* another component counts what it counts */
	if (e->dom_saved) {	/* a saved run's, read back */
		*named = e->dom_saved != s->dom;
		return e->dom_saved;
	}
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

int st_dom_whole(int dom)
{
	int all = PAPI_DOM_USER | PAPI_DOM_KERNEL | PAPI_DOM_SUPERVISOR;
	return (dom & all) == all;
}

const char *st_dom_word(int dom, char *buf, size_t len)
{
	if (!dom)
		return NULL;
	if (st_dom_whole(dom))
		return "all";
	snprintf(buf, len, "%s%s%s%s%s", dom & PAPI_DOM_USER ? "user" : "",
		 dom & PAPI_DOM_USER && dom & (PAPI_DOM_KERNEL | PAPI_DOM_SUPERVISOR) ? "," : "",
		 dom & PAPI_DOM_KERNEL ? "kernel" : "",
		 dom & PAPI_DOM_KERNEL && dom & PAPI_DOM_SUPERVISOR ? "," : "",
		 dom & PAPI_DOM_SUPERVISOR ? "supervisor" : "");
	return buf;
}

const char *st_label(const struct st_event *e)
{
	return e->label ? e->label : e->name;
}


const char *st_csv_domain(const struct st *s, const struct st_event *e, char *buf, size_t len)
{
	int named;
	return st_dom_word(st_event_dom(s, e, &named), buf, len);
}

/* cli_count.c: what this user may count, for the commands that count: the check before counting and --domain. */
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "tool.h"

int cli_can_count(const char *cmd)
{
	char why[512];
	if (pe_probe(why, sizeof why) == PAPI_OK)
		return 0;
	return cli_error(cmd, "%s", why);
}

const char *cli_no_level(int code)
{
	if (!(code & PAPI_NATIVE_MASK) || (code & PAPI_PRESET_MASK) || PAPI_get_event_component(code) != 0)
		return NULL;	/* another component counts what it counts */
	const struct native *n = native_get(code & PAPI_NATIVE_AND_MASK);
	if (!n || !n->has_domain_mod || !n->attr.exclude_user || !n->attr.exclude_kernel || !n->attr.exclude_hv)
		return NULL;
	return "its qualifiers turn off every privilege level (user, kernel and hypervisor), so it would "
	       "count nothing: keep one, as :u=1 or :k=1";
}

int cli_low_share(double enabled, double running)
{
	return enabled > 0 && running < enabled && 100.0 * running / enabled < CLI_LOW_SHARE;
}

static const struct {
	const char *word;
	int dom;
} domains[] = {
	{ "user", PAPI_DOM_USER },
	{ "kernel", PAPI_DOM_KERNEL },
	{ "supervisor", PAPI_DOM_SUPERVISOR },
	{ "hv", PAPI_DOM_SUPERVISOR },
	{ "all", PAPI_DOM_ALL },
};

/* The PAPI_DOM_* bits of the n-character word at p, 0 when it names none. */
static int domain_word(const char *p, size_t n)
{
	for (size_t i = 0; i < sizeof domains / sizeof *domains; i++)
		if (strlen(domains[i].word) == n && !strncasecmp(p, domains[i].word, n))
			return domains[i].dom;
	return 0;
}

int cli_domain_arg(const char *cmd, const char *s, int *dom)
{
	int d = 0, bad = !s || !*s;
	for (const char *p = s; !bad && p;) {
		size_t n = strcspn(p, ",");
		int w = domain_word(p, n);
		if (!w)
			bad = 1;
		/* "all" takes whatever the kernel allows, whatever else is named */
		d = w == PAPI_DOM_ALL || d == PAPI_DOM_ALL ? PAPI_DOM_ALL : d | w;
		p = p[n] == ',' ? p + n + 1 : NULL;
	}
	if (bad) {
		cli_usage(cmd, "--domain: '%s' is not a list of user, kernel, supervisor (hv) or all",
			  s ? s : "");
		return -1;
	}
	*dom = d;
	return 0;
}

int cli_set_domain(const char *cmd, const char *arg, int dom)
{
	papi_clear_reason();
	int r = PAPI_set_domain(dom);
	if (r != PAPI_OK) {
		/* the library's reason names the domain ("PAPI_DOM_KERNEL: ..."): the option did */
		const char *why = papi_last_reason();
		if (!strncmp(why, "PAPI_DOM_", 9) && strstr(why, ": "))
			why = strstr(why, ": ") + 2;
		return cli_error(cmd, "--domain=%s: %s", arg, *why ? why : PAPI_strerror(r));
	}
	if (dom == PAPI_DOM_ALL && !(PAPI_get_opt(PAPI_DEFDOM, NULL) & PAPI_DOM_KERNEL)) {
		char why[300];
		pe_kernel_advice(why, sizeof why);
		fprintf(stderr, "papi %s: counting user space only: %s\n", cmd, why);
	}
	return 0;
}

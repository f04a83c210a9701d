/* chooser.c: `papi chooser`: the events that can be counted together with given ones, and --groups. */
#include "cli.h"
#include "chooser.h"
#include "cmds.h"
#include "tool.h"
#include "papi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { O_GROUPS = CLI_LONG(0) };

static const struct cli_opt opts[] = {
	{ "verbose", 'v', no_argument, NULL, "also list the events that cannot be added, and why" },
	{ "groups", O_GROUPS, no_argument, NULL,
	  "split the given events into the fewest sets that can each be counted together" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ 0 },
};

static const struct cli_spec spec = {
	"chooser", "[OPTION]... [PRESET|NATIVE] EVENT...",
	"List every event that can be counted together with the given ones: each\n"
	"candidate is added to an EventSet holding them, so the kernel decides.\n"
	"PRESET lists only presets, NATIVE only native events; the default is both.\n"
	"With --groups, split the given events into the fewest sets that can each be\n"
	"counted together, printed as -e '{A,B,...}' for papi stat (a group counted\n"
	"together), one set a line, quoted for the shell.",
	opts, 0,
};

enum { CLASS_BOTH = 0, CLASS_PRESET = 1, CLASS_NATIVE = 2 };

struct out {
	struct json j;
	int json, verbose, count;
};

static void chooser_try(struct out *o, int base, int code, const int *given, int ng, int umasks);

/* chooser_umasks: a native event that needs a unit mask is tried with each
 * of its unit masks instead (modifiers such as ":u=0" are not candidates).
 * Returns 0 when the event has no unit mask to try. */
static int chooser_umasks(struct out *o, int base, int code, const int *given, int ng)
{
	char name[PAPI_MAX_STR_LEN];
	int sub = code, tried = 0;
	if (PAPI_enum_event(&sub, PAPI_NTV_ENUM_UMASKS) != PAPI_OK)
		return 0;
	do {
		if (PAPI_event_code_to_name(sub, name) != PAPI_OK || strchr(name, '='))
			continue;
		chooser_try(o, base, sub, given, ng, 0);
		tried++;
	} while (PAPI_enum_event(&sub, PAPI_NTV_ENUM_UMASKS) == PAPI_OK);
	return tried;
}

/* chooser_try: one candidate: print it when it joins the given events
 * (with -v, or why it cannot).  umasks: try the unit masks of a native
 * event that needs one. */
static void chooser_try(struct out *o, int base, int code, const int *given, int ng, int umasks)
{
	char name[PAPI_MAX_STR_LEN];
	PAPI_event_info_t info;
	if (PAPI_event_code_to_name(code, name) != PAPI_OK)
		return;
	for (int i = 0; i < ng; i++)
		if (given[i] == code)
			return;
	int rv = PAPI_add_event(base, code);
	if (rv == PAPI_OK) {
		PAPI_remove_event(base, code);
		o->count++;
		const char *d = "";
		if (PAPI_get_event_info(code, &info) == PAPI_OK)
			d = *info.long_descr ? info.long_descr : info.short_descr;
		if (o->json) {
			json_obj_begin(&o->j);
			json_kstr(&o->j, "name", name);
			json_kbool(&o->j, "ok", 1);
			json_kstr(&o->j, "description", d);
			json_obj_end(&o->j);
		} else {
			printf("%-32s %s\n", name, d);
		}
		return;
	}
	if (rv == PAPI_EINVAL && umasks && IS_NATIVE(code) && chooser_umasks(o, base, code, given, ng))
		return;
	if (!o->verbose)
		return;
	char why[512];
	chooser_why(rv, code, given, ng, why, sizeof why);
	/* the library's reason starts with the event's name: print it once */
	size_t nl = strlen(name);
	const char *w = !strncmp(why, name, nl) && !strncmp(why + nl, ": ", 2) ? why + nl + 2 : why;
	if (o->json) {
		json_obj_begin(&o->j);
		json_kstr(&o->j, "name", name);
		json_kbool(&o->j, "ok", 0);
		json_kstr(&o->j, "reason", w);
		json_obj_end(&o->j);
	} else {
		printf("%-32s cannot be added: %s\n", name, w);
	}
}

static void chooser_walk(struct out *o, int base, int first, int modifier, const int *given, int ng)
{
	int code = first;
	if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) != PAPI_OK)
		return;
	do
		chooser_try(o, base, code, given, ng, 1);
	while (PAPI_enum_event(&code, modifier) == PAPI_OK);
}

static int run_bundles(const int *codes, char **names, int n, int json)
{
	int *bundle = calloc((size_t)n, sizeof *bundle), bad = 0;
	if (!bundle)
		return cli_error(spec.name, "out of memory");
	int ns = chooser_bundles(codes, n, bundle, &bad);
	if (ns < 0) {
		char why[PAPI_HUGE_STR_LEN];
		cli_error(spec.name, "cannot count %s: %s", names[bad],
			  cli_name_why(names[bad], ns, why, sizeof why));
		free(bundle);
		return CLI_FAIL;
	}
	struct json j;
	if (json) {
		json_init(&j, stdout, 1);
		json_obj_begin(&j);
		json_key(&j, "groups");	/* the option's name, kept for scripts */
		json_arr_begin(&j);
	}
	for (int g = 0; g < ns; g++) {
		/* quoted: a shell would expand {a,b} into two words */
		if (json)
			json_arr_begin(&j);
		else
			printf("-e '{");
		for (int i = 0, first = 1; i < n; i++) {
			if (bundle[i] != g)
				continue;
			if (json)
				json_str(&j, names[i]);
			else
				printf("%s%s", first ? "" : ",", names[i]);
			first = 0;
		}
		if (json)
			json_arr_end(&j);
		else
			printf("}'\n");
	}
	if (json) {
		json_arr_end(&j);
		json_obj_end(&j);
		json_end(&j);
	}
	free(bundle);
	return CLI_OK;
}

int cmd_chooser(int argc, char **argv)
{
	struct cli_ctx c;
	struct out o = { 0 };
	int opt, groups = 0, n, cls = CLASS_BOTH, status = CLI_OK;

	cli_begin(&c, &spec, argc, argv);
	while ((opt = cli_next(&c)) != -1) {
		switch (opt) {
		case 'v':
			o.verbose = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case O_GROUPS:
			groups = 1;
			break;
		}
	}
	char **ops = cli_operands(&c, &n);
	if (n) {
		if (!strcasecmp(ops[0], "PRESET"))
			cls = CLASS_PRESET;
		else if (!strcasecmp(ops[0], "NATIVE"))
			cls = CLASS_NATIVE;
		if (cls != CLASS_BOTH) {
			ops++;
			n--;
		}
	}
	if (!n)
		return cli_usage(spec.name, "no event given");
	for (int i = 0; i < n; i++)
		for (int k = 0; k < i; k++)
			if (!strcmp(ops[i], ops[k]))
				return cli_usage(spec.name, "event '%s' is given twice", ops[i]);

	int rv = PAPI_library_init(PAPI_VER_CURRENT);
	if (rv != PAPI_VER_CURRENT)
		return cli_error(spec.name, "cannot initialise PAPI: %s", PAPI_strerror(rv));
	event_env_report(spec.name);
	int *codes = calloc((size_t)n, sizeof *codes);
	if ((status = cli_can_count(spec.name)) != 0)
		goto done;
	if (!codes) {
		status = cli_error(spec.name, "out of memory");
		goto done;
	}
	for (int i = 0; i < n; i++) {
		char why[PAPI_HUGE_STR_LEN];
		int r = PAPI_event_name_to_code(ops[i], &codes[i]);
		if (r != PAPI_OK) {
			status = cli_error(spec.name, "%s: %s", ops[i], cli_name_why(ops[i], r, why, sizeof why));
			goto done;
		}
	}
	if (groups) {
		status = run_bundles(codes, ops, n, o.json);
		goto done;
	}

	int bad = 0, base = chooser_set(codes, n, &bad);
	if (base < 0) {
		const char *r = papi_last_reason();
		if (r && *r)
			status = cli_error(spec.name, "cannot count the given events: %s", r);
		else
			status = cli_error(spec.name, "cannot count the given events: %s: %s", ops[bad],
					   PAPI_strerror(base));
		goto done;
	}
	if (o.json) {
		json_init(&o.j, stdout, 1);
		json_obj_begin(&o.j);
		json_key(&o.j, "given");
		json_arr_begin(&o.j);
		for (int i = 0; i < n; i++)
			json_str(&o.j, ops[i]);
		json_arr_end(&o.j);
		json_key(&o.j, "events");
		json_arr_begin(&o.j);
	}
	if (cls != CLASS_NATIVE)
		chooser_walk(&o, base, PAPI_PRESET_MASK, PAPI_ENUM_EVENTS, codes, n);
	if (cls != CLASS_PRESET)
		chooser_walk(&o, base, PAPI_NATIVE_MASK, PAPI_ENUM_EVENTS, codes, n);
	chooser_drop(base);
	if (o.json) {
		json_arr_end(&o.j);
		json_kint(&o.j, "count", o.count);
		json_obj_end(&o.j);
		json_end(&o.j);
	} else {
		printf("Total events reported: %d\n", o.count);
	}
done:
	free(codes);
	PAPI_shutdown();
	return cli_finish(spec.name, status);
}

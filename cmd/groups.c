/* groups.c: `papi groups`: the metric groups, whether each can be computed here and why not, and a group's events and metrics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "cmds.h"
#include "metrics.h"

enum { O_ALL = CLI_LONG(0), O_NAMES };

static const struct cli_opt opts[] = {
	{ "avail", 'a', no_argument, NULL, "list only the groups that can be computed here" },
	{ "verbose", 'v', no_argument, NULL, "show every group's events and metrics" },
	{ "all", O_ALL, no_argument, NULL, "also list the groups written for other CPUs" },
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ "names", O_NAMES, no_argument, NULL, "only the group names, one a line" },
	{ 0 },
};

static const struct cli_spec spec = {
	"groups", "[OPTION]... [GROUP]...",
	"List the metric groups (papi-groups(5)) and whether each can be computed on\n"
	"this machine, and why not; with GROUP names, show those groups' events (the\n"
	"alternative counted here) and metrics (formula, unit, description). Count\n"
	"one with 'papi stat -g GROUP'. Groups come from events/*.groups and\n"
	"PAPI_USER_GROUPS_FILE.",
	opts, 0,
};

struct gr {
	int only_avail, verbose, all, json, names;
	struct json j;
	int shown, computable;
};

enum { C_NO, C_PARTLY, C_YES };
static const char *const cnames[] = { "no", "partly", "yes" };

/* How much of g can be computed here, and how many of its metrics. */
static int computable(const struct mgroup *g, const struct mg_pick *pick, int *nok)
{
	*nok = 0;
	for (int m = 0; m < g->nmet; m++)
		*nok += mg_missing(g, &g->met[m], pick) < 0;
	return *nok == g->nmet ? C_YES : *nok ? C_PARTLY : C_NO;
}

/* "every machine", or "skx, clx". */
static void where(FILE *f, const struct mgroup *g)
{
	if (!g->cpus) {
		fputs("every machine", f);
		return;
	}
	for (int i = 0; g->cpus[i]; i++)
		fprintf(f, "%s%s", i ? ", " : "", g->cpus[i]);
}

static void text_detail(const struct mgroup *g, const struct mg_pick *pick)
{
	int nok, c = computable(g, pick, &nok);
	printf("\n %s: %s\n", g->name, g->desc ? g->desc : "");
	printf("   defined in %s:%d for ", g->file, g->line);
	where(stdout, g);
	printf("; %s here (%d of %d metrics)\n", c == C_YES ? "computable" : c == C_PARTLY ?
	       "partly computable" : "not computable", nok, g->nmet);
	printf("   events:\n");
	for (int i = 0; i < g->nev; i++) {
		const struct mgroup_event *e = &g->ev[i];
		printf("     %-8s %-40s ", e->alias, e->names);
		if (pick[i].ok)
			printf("counts %s\n", e->alt[pick[i].alt]);
		else
			printf("not available: %s\n", pick[i].why ? pick[i].why : "?");
	}
	printf("   metrics:\n");
	for (int m = 0; m < g->nmet; m++) {
		const struct mgroup_metric *mt = &g->met[m];
		int miss = mg_missing(g, mt, pick);
		printf("     %-24s %-8s %s\n", mt->name, *mt->unit ? mt->unit : "-", mt->formula);
		printf("     %-24s %-8s %s", "", "", mt->desc);
		if (miss >= 0)
			printf("%s(needs %s)", *mt->desc ? " " : "", g->ev[miss].alias);
		putchar('\n');
	}
}

static void json_group(struct gr *r, const struct mgroup *g, const struct mg_pick *pick, int applies)
{
	struct json *j = &r->j;
	int nok, c = computable(g, pick, &nok);
	json_obj_begin(j);
	json_kstr(j, "name", g->name);
	json_kstr(j, "description", g->desc);
	json_key(j, "cpus");
	if (g->cpus) {
		json_arr_begin(j);
		for (int i = 0; g->cpus[i]; i++)
			json_str(j, g->cpus[i]);
		json_arr_end(j);
	} else {
		json_put_null(j);
	}
	json_kstr(j, "file", g->file);
	json_kint(j, "line", g->line);
	json_kbool(j, "applies", applies);
	json_kstr(j, "computable", applies ? cnames[c] : "no");
	json_key(j, "events");
	json_arr_begin(j);
	for (int i = 0; i < g->nev; i++) {
		json_obj_begin(j);
		json_kstr(j, "alias", g->ev[i].alias);
		json_kstr(j, "names", g->ev[i].names);
		json_kstr(j, "counted", applies && pick[i].ok ? g->ev[i].alt[pick[i].alt] : NULL);
		json_kstr(j, "reason", applies ? pick[i].why : "written for another CPU");
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "metrics");
	json_arr_begin(j);
	for (int m = 0; m < g->nmet; m++) {
		const struct mgroup_metric *mt = &g->met[m];
		json_obj_begin(j);
		json_kstr(j, "name", mt->name);
		json_kstr(j, "unit", mt->unit);
		json_kstr(j, "formula", mt->formula);
		json_kstr(j, "description", mt->desc);
		json_kbool(j, "computable", applies && mg_missing(g, mt, pick) < 0);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* Is g the group of its name that applies here? */
static int effective(const struct mgroup *g)
{
	return mgroups_find(g->name) == g;
}

/* The reasons of the groups that cannot be computed, each once, with the
 * groups it concerns: "BRANCH, CPI: no hardware PMU driver ...". */
struct why {
	char *text;
	char names[512];
};

static void why_add(struct why *w, int *n, const char *text, const char *name)
{
	int i;
	for (i = 0; i < *n; i++)
		if (!strcmp(w[i].text, text))
			break;
	if (i == *n) {
		if (*n == 64 || !(w[i].text = strdup(text)))
			return;
		w[i].names[0] = '\0';
		(*n)++;
	}
	size_t len = strlen(w[i].names);
	snprintf(w[i].names + len, sizeof w[i].names - len, "%s%s", len ? ", " : "", name);
}

int cmd_groups(int argc, char **argv)
{
	struct cli_ctx c;
	struct gr r = { 0 };
	int o, nargs;
	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1) {
		switch (o) {
		case 'a': r.only_avail = 1; break;
		case 'v': r.verbose = 1; break;
		case O_ALL: r.all = 1; break;
		case 'j': r.json = 1; break;
		case O_NAMES: r.names = 1; break;
		}
	}
	char **args = cli_operands(&c, &nargs);
	if (r.json && r.names)
		return cli_usage(spec.name, "--json and --names cannot be used together");
	int ret = PAPI_library_init(PAPI_VER_CURRENT);
	if (ret != PAPI_VER_CURRENT)
		return cli_error(spec.name, "cannot initialize the library: %s", PAPI_strerror(ret));
	int nerr, n, status = CLI_OK;
	group_files_report(spec.name);
	const char *const *errs = mgroups_errors(&nerr);
	const struct mgroup *const *all = mgroups_all(&n);
	const struct mgroup *list[n > 0 ? n : 1];
	int nl = 0;
	for (int a = 0; a < nargs; a++) {
		const struct mgroup *g = mgroups_find(args[a]);
		char cut[80];
		if (!g) {
			int elsewhere = 0;
			for (int i = 0; i < n; i++)
				elsewhere |= !strcasecmp(all[i]->name, args[a]);
			cli_error(spec.name, "%s: %s", cli_cut(args[a], cut, sizeof cut),
				  elsewhere ? "written for other CPUs only (papi groups --all lists them)"
					    : "no such group (papi groups lists them)");
			status = CLI_FAIL;
			continue;
		}
		list[nl++] = g;
	}
	if (!nargs)
		for (int i = 0; i < n; i++)
			if (effective(all[i]) || (r.all && !mgroup_applies(all[i])))
				list[nl++] = all[i];
	struct why w[64];
	int nw = 0;
	if (r.json) {
		json_init(&r.j, stdout, 1);
		json_obj_begin(&r.j);
		json_key(&r.j, "groups");
		json_arr_begin(&r.j);
	} else if (!r.names && !nargs && !r.verbose) {
		printf(" %-18s %-7s %7s  %s\n", "GROUP", "HERE", "METRICS", "DESCRIPTION");
	}
	for (int i = 0; i < nl; i++) {
		const struct mgroup *g = list[i];
		int applies = mgroup_applies(g), nok = 0, cc = C_NO;
		struct mg_pick pick[MGROUP_MAX_EVENTS];
		memset(pick, 0, sizeof pick);
		if (applies) {
			if (mg_pick_all(g, pick) < 0) {
				status = cli_error(spec.name, "out of memory");
				break;
			}
			cc = computable(g, pick, &nok);
		}
		if (r.only_avail && cc != C_YES) {
			mg_picks_free(g, pick);
			continue;
		}
		r.shown++;
		r.computable += cc == C_YES;
		if (r.json) {
			json_group(&r, g, pick, applies);
		} else if (r.names) {
			printf("%s\n", g->name);
		} else if (nargs || r.verbose) {
			if (applies)
				text_detail(g, pick);
			else {
				printf("\n %s: %s\n   defined in %s:%d for ", g->name, g->desc ? g->desc : "",
				       g->file, g->line);
				where(stdout, g);
				printf(" (not this machine)\n");
			}
		} else {
			char h[32];
			if (applies && cc == C_PARTLY)
				snprintf(h, sizeof h, "partly");
			else
				snprintf(h, sizeof h, "%s", !applies ? "-" : cnames[cc]);
			printf(" %-18s %-7s %7d  %s", g->name, h, g->nmet, g->desc ? g->desc : "");
			if (!applies) {
				printf(" (for ");
				where(stdout, g);
				putchar(')');
			}
			putchar('\n');
			/* the first missing event of the first metric that cannot be computed */
			for (int m = 0; applies && cc != C_YES && m < g->nmet; m++) {
				int miss = mg_missing(g, &g->met[m], pick);
				if (miss >= 0) {
					why_add(w, &nw, pick[miss].why ? pick[miss].why : "?", g->name);
					break;
				}
			}
		}
		mg_picks_free(g, pick);
	}
	if (r.json) {
		json_arr_end(&r.j);
		json_key(&r.j, "problems");
		json_arr_begin(&r.j);
		for (int i = 0; i < nerr; i++)
			json_str(&r.j, errs[i]);
		json_arr_end(&r.j);
		json_obj_end(&r.j);
		json_end(&r.j);
	} else if (!r.names && !nargs && !r.verbose) {
		if (nw)
			printf("\n Not computable here (or partly):\n");
		for (int i = 0; i < nw; i++)
			printf("   %s:\n     %s\n", w[i].names, w[i].text);
		printf("\n %d groups, %d can be computed here. 'papi groups GROUP' shows one; "
		       "'papi stat -g GROUP' counts it.\n", r.shown, r.computable);
	}
	for (int i = 0; i < nw; i++)
		free(w[i].text);
	return cli_finish(spec.name, status);
}

/* t_groups.c: metric groups: the parser (both forms), its line-numbered errors, writing and reading back, and which group of a name applies here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"
#include "pmu_child.h"

/* What the sink took: the groups themselves, kept for the checks. */
static struct mgroup *got[16];
static int ngot;

static int take(void *ctx, struct mgroup *g, char *why, size_t len)
{
	(void)ctx;
	if (!strcmp(g->name, "REFUSE_ME")) {
		snprintf(why, len, "refused by the sink");
		return PAPI_EINVAL;
	}
	if (ngot == 16)
		return PAPI_ENOMEM;
	got[ngot++] = g;
	return PAPI_OK;
}

static void drop_all(void)
{
	for (int i = 0; i < ngot; i++)
		mgroup_free(got[i]);
	ngot = 0;
}

static int parse(const char *text, struct msgs *errs)
{
	struct mgroup_sink s = { take, NULL };
	memset(errs, 0, sizeof *errs);
	drop_all();
	return mgroups_parse("t.groups", text, strlen(text), &s, errs);
}

static const char good[] =
	"# a comment\n"
	"GROUP,IPC,\"Instructions, per cycle\"\n"
	"EVENT,cyc,PAPI_TOT_CYC|perf::CPU-CYCLES\n"
	"EVENT,ins,PAPI_TOT_INS\n"
	"METRIC,ipc,,ins / cyc,\"instructions per cycle\"\n"
	"METRIC,rate,1/s,ins / time,\n"
	"\n"
	"CPU,here\n"
	"CPU,also_here\n"
	"GROUP,X.y-z\n"
	"EVENT,a,skx::INST_RETIRED:ANY_P\n"
	"EVENT,b,\"cpu/event=0x1a0,umask=0x01/|cpu/config=0x1000001a0/u\"\n";

static void test_good(void)
{
	struct msgs e;
	is_int(parse(good, &e), 0, "a good file parses clean");
	is_int(ngot, 2, "two groups");
	struct mgroup *g = got[0];
	is_str(g->name, "IPC", "name");
	is_str(g->desc, "Instructions, per cycle", "description with a comma");
	ok(g->cpus == NULL, "before any CPU line: every machine");
	is_int(g->line, 2, "its line");
	is_int(g->nev, 2, "two events");
	is_int(g->ev[0].nalt, 2, "two alternatives");
	is_str(g->ev[0].alt[1], "perf::CPU-CYCLES", "the second alternative");
	is_str(g->ev[0].names, "PAPI_TOT_CYC|perf::CPU-CYCLES", "names as written");
	is_int(g->nmet, 2, "two metrics");
	double v[3] = { 2000, 3000, 0.5 };	/* cyc, ins, time */
	ok(fabs(formula_eval_double(g->met[0].f, v) - 1.5) < 1e-12, "ipc = 1.5");
	is_int(g->met[0].nuse, 2, "ipc uses two terms");
	is_int(g->met[0].use[0], 1, "ins first");
	ok(fabs(formula_eval_double(g->met[1].f, v) - 6000) < 1e-9, "time is the last term");
	is_int(g->met[1].use[1], 2, "time's term is nev");
	is_str(g->met[1].unit, "1/s", "unit");
	is_str(g->met[1].desc, "", "empty description");
	g = got[1];
	ok(g->cpus && !strcmp(g->cpus[0], "here") && !strcmp(g->cpus[1], "also_here") && !g->cpus[2],
	   "CPU lines in a row make one section");
	is_int(g->nmet, 0, "a group without metrics is allowed");
	is_int(g->ev[1].nalt, 2, "a kernel PMU's terms: two alternatives");
	is_str(g->ev[1].alt[0], "cpu/event=0x1a0,umask=0x01/", "the comma between its terms kept");
	drop_all();
	msgs_free(&e);
}

/* Each bad row: the message it must give (a substring) and on which line. */
static void test_errors(void)
{
	static const struct {
		int line;
		const char *text;
		const char *want;
		int groups;	/* groups that still load */
	} rows[] = {
		{ __LINE__, "EVENT,a,X\n", "t.groups:1: EVENT outside a group", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,X\nMETRIC,m,,a / b,\n", "t.groups:3: group G: metric m: unknown name 'b'", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,X\nEVENT,a,Y\n", "t.groups:3: group G: alias a given twice", 0 },
		{ __LINE__, "GROUP,G\nEVENT,time,X\n", "t.groups:2: group G: bad alias 'time'", 0 },
		{ __LINE__, "GROUP,G\nEVENT,1a,X\n", "bad alias '1a'", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,X||Y\n", "t.groups:2: group G: alias a: bad event name ''", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,X Y\n", "bad event name 'X Y'", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,\"X,Y\"\n", "bad event name 'X,Y'", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,\"cpu/event=1/,Y\"\n", "bad event name 'cpu/event=1/,Y'", 0 },
		{ __LINE__, "GROUP,G\nMETRIC,m,,1,\n", "t.groups:1: group G: no EVENT line", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,X\nMETRIC,m,,a,\nMETRIC,m,,a,\n", "metric m given twice", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,X\nMETRIC,m,\n", "t.groups:3: group G: METRIC needs a name", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,X\nMETRIC,m,,,\n", "metric m has no formula", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,X\nMETRIC,1m,,a,\n", "bad metric name '1m'", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,X\nMETRIC,m,,a /,\n", "metric m: operand expected", 0 },
		{ __LINE__, "GROUP,bad name\nEVENT,a,X\n", "t.groups:1: bad group name 'bad name'", 0 },
		{ __LINE__, "GROUP\n", "GROUP without a name", 0 },
		{ __LINE__, "GROUP,G,d,extra\nEVENT,a,X\n", "unexpected field 'extra'", 1 },
		{ __LINE__, "FOO,G\n", "t.groups:1: unknown command 'FOO'", 0 },
		{ __LINE__, "GROUP,G,\"x\001\"\n", "control byte 0x01 in the description", 0 },
		{ __LINE__, "GROUP,G\nEVENT,a,\"X\n", "t.groups:2: malformed CSV", 0 },
		{ __LINE__, "CPU\n", "CPU without a PMU name", 0 },
		{ __LINE__, "GROUP,REFUSE_ME\nEVENT,a,X\n", "group REFUSE_ME: refused by the sink", 0 },
		/* a bad group is dropped whole; the next one loads */
		{ __LINE__, "GROUP,A\nEVENT,a,X\nMETRIC,m,,zz,\nGROUP,B\nEVENT,b,Y\n", "unknown name 'zz'", 1 },
		/* decode's CSV form */
		{ __LINE__, "group,kind,name,definition,unit,description,cpus\nG,event,a,X,,,\n", "t.groups:2: event row outside a group", 0 },
		{ __LINE__, "group,kind,name,definition,unit,description,cpus\nG,group,,,,d,\nH,event,a,X,,,\n", "row of group H inside group G", 0 },
		{ __LINE__, "group,kind,name,definition,unit,description,cpus\nG,group,,,,d,\nG,thing,a,X,,,\n", "unknown kind 'thing'", 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct msgs e;
		int n = parse(rows[i].text, &e);
		ok(n > 0 && e.n > 0 && strstr(e.v[0], rows[i].want), "line %d: '%s' (got '%s')", rows[i].line,
		   rows[i].want, e.n ? e.v[0] : "no message");
		is_int(ngot, rows[i].groups, "line %d: groups that still load", rows[i].line);
		msgs_free(&e);
	}
	drop_all();
}

/* decode's CSV form reads as the file form does, CPU column included. */
static void test_csv_and_roundtrip(void)
{
	static const char csv[] =
		"group,kind,name,definition,unit,description,cpus\n"
		"G,group,,,,\"the, group\",here also_here\n"
		"G,event,a,\"PAPI_TOT_INS|cpu/event=0xc0,umask=0/\",,,\n"
		"G,metric,m,a / time,1/s,\"per \"\"second\"\"\",\n";
	struct msgs e;
	is_int(parse(csv, &e), 0, "decode's CSV parses clean");
	msgs_free(&e);
	if (!ok(ngot == 1, "one group from CSV"))
		return;
	struct mgroup *g = got[0];
	ok(g->cpus && !strcmp(g->cpus[1], "also_here"), "CPU column");
	is_str(g->met[0].desc, "per \"second\"", "quotes in a description");
	/* write it, read it back: the same group */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	mgroup_write(f, g);
	fclose(f);
	got[0] = NULL;
	ngot = 0;
	is_int(parse(buf, &e), 0, "what mgroup_write wrote parses clean");
	msgs_free(&e);
	if (ok(ngot == 1, "and gives one group")) {
		struct mgroup *h = got[0];
		is_str(h->name, g->name, "same name");
		is_str(h->desc, g->desc, "same description");
		is_str(h->ev[0].names, g->ev[0].names, "same event");
		is_str(h->met[0].formula, g->met[0].formula, "same formula");
		is_str(h->met[0].unit, g->met[0].unit, "same unit");
		is_str(h->met[0].desc, g->met[0].desc, "same metric description");
	}
	ok(mgroups_text_is_groups(buf, len), "written text reads as groups");
	ok(mgroups_text_is_groups(csv, strlen(csv)), "decode's CSV reads as groups");
	const char *defs = "CPU,skx\nPRESET,PAPI_TOT_CYC,NOT_DERIVED,X\n";
	ok(!mgroups_text_is_groups(defs, strlen(defs)), "a definition file does not");
	const char *lead = "# c\n\nCPU,x\nGROUP,G\n";
	ok(mgroups_text_is_groups(lead, strlen(lead)), "comments and CPU lines are skipped");
	free(buf);
	mgroup_free(g);
	drop_all();
}

/* Before every group is loaded, mgroups_find reads only the groups of the
 * name asked for: it finds for every name the group a full load finds
 * (same file and line), and none where that finds none. */
static void named_as_all(const char *how)
{
	char names[256][64];
	char where[256][256];
	int n = 0, same = 0;
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init (%s)", how);
	int na;
	const struct mgroup *const *all = mgroups_all(&na);
	for (int i = 0; i < na && n < 255; i++) {
		int dup = 0;
		for (int k = 0; k < n; k++)
			dup |= !strcasecmp(names[k], all[i]->name);
		if (dup)
			continue;
		snprintf(names[n], sizeof names[n], "%s", all[i]->name);
		const struct mgroup *g = mgroups_find(all[i]->name);
		snprintf(where[n++], sizeof where[0], "%s:%d", g ? g->file : "none", g ? g->line : 0);
	}
	/* and a name no file defines, and one in another case */
	snprintf(names[n], sizeof names[n], "NO_SUCH_GROUP");
	snprintf(where[n++], sizeof where[0], "none:0");
	snprintf(names[n], sizeof names[n], "default");
	snprintf(where[n], sizeof where[0], "none:0");
	for (int k = 0; k < n; k++)
		if (!strcasecmp(names[k], "DEFAULT"))
			memcpy(where[n], where[k], sizeof where[0]);
	n++;
	PAPI_shutdown();
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init again (%s)", how);
	for (int k = 0; k < n; k++) {
		const struct mgroup *g = mgroups_find(names[k]);
		char w[256];
		snprintf(w, sizeof w, "%s:%d", g ? g->file : "none", g ? g->line : 0);
		if (!strcmp(w, where[k]) && (!g || g->nev > 0))
			same++;
		else
			diag("%s: read alone %s, with every group %s", names[k], w, where[k]);
	}
	ok(n > 20 && same == n, "%s: each of %d names read alone finds the group a full load finds", how, n);
	PAPI_shutdown();
}

/* Which group of a name applies: the user's file, then this CPU's, then
 * the generic one. */
static void test_lookup(void)
{
	if (pmu_tables_missing("skx", "the groups that apply under LIBPFM_FORCE_PMU=skx"))
		return;
	char path[] = "/tmp/t_groups_XXXXXX";
	int fd = mkstemp(path);
	const char user[] =
		"GROUP,BRANCH,mine\nEVENT,b,PAPI_BR_INS\nMETRIC,m,,b,\n"
		"GROUP,BAD\nEVENT,b,X\nMETRIC,m,,nope,\n"
		"CPU,no_such_pmu\nGROUP,ELSEWHERE\nEVENT,b,X\n";
	ok(fd >= 0 && write(fd, user, sizeof user - 1) == (ssize_t)(sizeof user - 1), "user file written");
	close(fd);

	setenv("LIBPFM_FORCE_PMU", "skx", 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init (skx)");
	int nerr;
	const char *const *errs = mgroups_errors(&nerr);
	for (int i = 0; i < nerr; i++)
		diag("%s", errs[i]);
	is_int(nerr, 0, "the built-in group files load clean");
	const struct mgroup *g = mgroups_find("flops_dp");
	ok(g && g->cpus && strstr(g->file, "intel.groups"), "on skx FLOPS_DP is Intel's (any case)");
	g = mgroups_find("DEFAULT");
	ok(g && !g->cpus && g->nmet >= 6, "DEFAULT is generic, with its metrics");
	ok(mgroups_find("STALLS") == NULL, "an ARM group does not apply on skx");
	ok(mgroups_find("NO_SUCH_GROUP") == NULL, "unknown name: NULL");
	PAPI_shutdown();

	/* (libpfm4 keeps the PMU it was first forced to: skx throughout) */
	setenv("PAPI_USER_GROUPS_FILE", path, 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init (skx, user file)");
	g = mgroups_find("DATA");
	ok(g && !g->cpus, "where no CPU file has it, the generic group");
	g = mgroups_find("BRANCH");
	ok(g && g->desc && !strcmp(g->desc, "mine") && mgroup_is_user(g), "the user's BRANCH wins");
	ok(mgroups_find("ELSEWHERE") == NULL, "a user group for another PMU does not apply");
	int n, seen = 0;
	const struct mgroup *const *all = mgroups_all(&n);
	for (int i = 0; i < n; i++)
		if (!strcmp(all[i]->name, "ELSEWHERE"))
			seen = !mgroup_applies(all[i]);
	ok(seen, "but it is listed, as not applying");
	errs = mgroups_errors(&nerr);
	ok(nerr == 1 && strstr(errs[0], path) && strstr(errs[0], ":6: group BAD: metric m: unknown name 'nope'"),
	   "the user file's problem names its file and line (%s)", nerr ? errs[0] : "none");
	PAPI_shutdown();

	named_as_all("skx, user file");
	unsetenv("PAPI_USER_GROUPS_FILE");
	named_as_all("skx");

	setenv("PAPI_USER_GROUPS_FILE", "/nonexistent/groups", 1);
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init (missing user file)");
	errs = mgroups_errors(&nerr);
	ok(nerr == 1 && strstr(errs[0], "PAPI_USER_GROUPS_FILE=/nonexistent/groups: cannot read"),
	   "a missing user file is named (%s)", nerr ? errs[0] : "none");
	ok(mgroups_find("BRANCH") && !mgroup_is_user(mgroups_find("BRANCH")), "the built-in ones still load");
	PAPI_shutdown();
	unsetenv("PAPI_USER_GROUPS_FILE");
	unsetenv("LIBPFM_FORCE_PMU");
	unlink(path);
}

int main(void)
{
	test_good();
	test_errors();
	test_csv_and_roundtrip();
	test_lookup();
	return tap_done();
}

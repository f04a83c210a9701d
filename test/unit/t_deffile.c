/* t_deffile.c: the definition-file parser: what loads, what is refused, and that every error names its line while the rest still loads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

/* What the sink saw: "name:type:formula:base,base:ldesc:sdesc:note:pmu" per event. */
static char seen[64][512];
static int nseen;

static int match(void *ctx, const char *name)
{
	(void)ctx;
	return !strcmp(name, "here") || !strcmp(name, "also_here");
}

static int take(void *ctx, const struct def_event *ev, char *why, size_t len)
{
	(void)ctx;
	if (!strcmp(ev->name, "REFUSE_ME")) {
		snprintf(why, len, "refused by the sink");
		return PAPI_EINVAL;
	}
	if (nseen == 64)
		return PAPI_ENOMEM;
	char bases[256] = "";
	for (int i = 0; i < ev->nbase; i++)
		snprintf(bases + strlen(bases), sizeof bases - strlen(bases), "%s%s", i ? "," : "",
			 ev->base[i]);
	snprintf(seen[nseen++], sizeof seen[0], "%s%s:%s:%s:%s:%s:%s:%s:%s@%d",
		 ev->preset ? "P " : "E ", ev->name, formula_type_name(ev->derived),
		 ev->formula ? ev->formula : "", bases, ev->ldesc ? ev->ldesc : "",
		 ev->sdesc ? ev->sdesc : "", ev->note ? ev->note : "", ev->pmu ? ev->pmu : "",
		 ev->line);
	return PAPI_OK;
}

static int parse(const char *text, struct msgs *errs)
{
	struct deffile_sink s = { match, take, NULL };
	nseen = 0;
	memset(errs, 0, sizeof *errs);
	return deffile_parse("t.csv", text, strlen(text), &s, errs);
}

static const struct good {
	int line;
	const char *text;
	const char *want;	/* first event seen */
	int nevents;
} good[] = {
	{ __LINE__, "PRESET,PAPI_TOT_CYC,NOT_DERIVED,CYCLES\n",
	  "P PAPI_TOT_CYC:NOT_DERIVED::CYCLES::::@1", 1 },
	{ __LINE__, "# c\n\n   \nEVENT,A,DERIVED_ADD,X,Y,LDESC,\"long, with comma\",SDESC,s,NOTE,\"a \"\"q\"\"\"\n",
	  "E A:DERIVED_ADD::X,Y:long, with comma:s:a \"q\":@4", 1 },
	{ __LINE__, "CPU,here\nPRESET,P1,DERIVED_POSTFIX,N0|N1|+|,A,B\n",
	  "P P1:DERIVED_POSTFIX:N0|N1|+|:A,B::::here@2", 1 },
	{ __LINE__, "CPU,nothere\nPRESET,P1,NOT_DERIVED,A\nCPU,here\nPRESET,P2,NOT_DERIVED,B\n",
	  "P P2:NOT_DERIVED::B::::here@4", 1 },
	/* a CPU list: any matching name selects the section */
	{ __LINE__, "CPU,nothere\nCPU,also_here\nEVENT,E1,NOT_DERIVED,A\nEVENT,E2,NOT_DERIVED,B\n",
	  "E E1:NOT_DERIVED::A::::also_here@3", 2 },
	{ __LINE__, "CPU,x,here,y\nEVENT,E1,NOT_DERIVED,A\n", "E E1:NOT_DERIVED::A::::here@2", 1 },
	{ __LINE__, "CPU here\nEVENT,E1,NOT_DERIVED,A\n", "E E1:NOT_DERIVED::A::::here@2", 1 },
	/* a new CPU line after events starts a new list */
	{ __LINE__, "CPU,here\nEVENT,E1,NOT_DERIVED,A\nCPU,nothere\nEVENT,E2,NOT_DERIVED,B\n",
	  "E E1:NOT_DERIVED::A::::here@2", 1 },
	/* the seed's single quotes; CRLF line ends; spaces around fields */
	{ __LINE__, "EVENT,U,DERIVED_INFIX,N0+(N1*3),A,B,NOTE,'the note'\r\n",
	  "E U:DERIVED_INFIX:N0+(N1*3):A,B:::the note:@1", 1 },
	{ __LINE__, "  EVENT , V , DERIVED_SUB , A , B \n", "E V:DERIVED_SUB::A,B::::@1", 1 },
	/* papi decode's CSV */
	{ __LINE__, "name,derived,postfix,short_descr,long_descr,note,[native,...]\n\n"
		    "PAPI_X,DERIVED_POSTFIX,N0|N1|-|,\"s\",\"l, l\",,a::B,a::C\n",
	  "P PAPI_X:DERIVED_POSTFIX:N0|N1|-|:a::B,a::C:l, l:s::@3", 1 },
	{ __LINE__, "name,derived,postfix,short_descr,long_descr,note,[native,...]\n"
		    "MINE,NOT_DERIVED,,,,\"n\",perf::X\n",
	  "P MINE:NOT_DERIVED::perf::X:::n:@2", 1 },
};

static const struct bad {
	int line;
	const char *text;
	const char *err;	/* the first message must start with this */
	int nevents;		/* events that still load */
} bad[] = {
	{ __LINE__, "FOO,bar\nEVENT,OK1,NOT_DERIVED,A\n", "t.csv:1: unknown command 'FOO'", 1 },
	{ __LINE__, "EVENT\nEVENT,OK1,NOT_DERIVED,A\n", "t.csv:1: missing event name", 1 },
	{ __LINE__, "EVENT,OK1,NOT_DERIVED,A\nEVENT,B1\n", "t.csv:2: B1: missing derived type", 1 },
	{ __LINE__, "EVENT,B1,DERIVED_MUL,A\nEVENT,OK1,NOT_DERIVED,A\n",
	  "t.csv:1: unknown derived type 'DERIVED_MUL'", 1 },
	{ __LINE__, "EVENT,B1,NOT_DERIVED\nEVENT,OK1,NOT_DERIVED,A\n", "t.csv:1: B1: no base event", 1 },
	{ __LINE__, "EVENT,B1,DERIVED_POSTFIX,LDESC,x\nEVENT,OK1,NOT_DERIVED,A\n",
	  "t.csv:1: B1: DERIVED_POSTFIX needs a formula", 1 },
	{ __LINE__, "EVENT,B1,DERIVED_ADD,A,,B\nEVENT,OK1,NOT_DERIVED,A\n",
	  "t.csv:1: B1: empty base event", 1 },
	{ __LINE__, "EVENT,B1,DERIVED_ADD,1,2,3,4,5,6,7,8,9\nEVENT,OK1,NOT_DERIVED,A\n",
	  "t.csv:1: B1: more than 8 base events", 1 },
	{ __LINE__, "EVENT,B1,NOT_DERIVED,A,NOTE\nEVENT,OK1,NOT_DERIVED,A\n",
	  "t.csv:1: B1: NOTE without its text", 1 },
	{ __LINE__, "EVENT,B1,NOT_DERIVED,A,NOTE,x,junk\nEVENT,OK1,NOT_DERIVED,A\n",
	  "t.csv:1: B1: 'junk' where LDESC", 1 },
	{ __LINE__, "EVENT,OK1,NOT_DERIVED,A\nEVENT,B1,NOT_DERIVED,A,NOTE,\"open\nEVENT,OK2,NOT_DERIVED,A\n",
	  "t.csv:2: malformed CSV", 2 },
	{ __LINE__, "EVENT,B1,NOT_DERIVED,A,NOTE,\"x\"y\nEVENT,OK1,NOT_DERIVED,A\n",
	  "t.csv:1: malformed CSV", 1 },
	{ __LINE__, "EVENT,bad name,NOT_DERIVED,A\nEVENT,OK1,NOT_DERIVED,A\n",
	  "t.csv:1: bad character ' ' in event name", 1 },
	{ __LINE__, "CPU\nEVENT,OK1,NOT_DERIVED,A\n", "t.csv:1: CPU without a PMU name", 0 },
	{ __LINE__, "EVENT,REFUSE_ME,NOT_DERIVED,A\nEVENT,OK1,NOT_DERIVED,A\n",
	  "t.csv:1: REFUSE_ME: refused by the sink", 1 },
	{ __LINE__, "\n\n# x\nEVENT,OK1,NOT_DERIVED,A\n\nEVENT,B1,NOT_DERIVED\n",
	  "t.csv:6: B1: no base event", 1 },
	{ __LINE__, "name,derived,postfix,short_descr,long_descr,note,[native,...]\n\nPAPI_X,NOT_DERIVED,,s,l,\n"
		    "PAPI_Y,DERIVED_POSTFIX,,s,l,,A\nPAPI_Z,NOT_DERIVED,,s,l,,A\n",
	  "t.csv:3: PAPI_X: no native event", 1 },
	{ __LINE__, "EVENT,A,NOT_DERIVED,X\nEVENT,X,NOT_DERIVED,X,Y,Z,W,V,U,T,S,R,Q,P,O,N,M,L,K,J,I,H,G,F,"
		    "E,D,C,B,A,a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u,v,w,x,y,z,0,1,2,3,4,5,6,7,8,9\n",
	  "t.csv:2: more than 64 fields", 1 },
};

int main(void)
{
	struct msgs errs;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		const struct good *g = &good[i];
		int n = parse(g->text, &errs);
		if (!ok(n == 0, "line %d: no problems", g->line))
			diag("first: %s", errs.n ? errs.v[0] : "?");
		is_int(nseen, g->nevents, "line %d: events", g->line);
		is_str(nseen ? seen[0] : "", g->want, "line %d: first event", g->line);
		msgs_free(&errs);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const struct bad *b = &bad[i];
		int n = parse(b->text, &errs);
		ok(n >= 1 && errs.n == n, "line %d: %d problem(s) reported", b->line, n);
		ok(errs.n && !strncmp(errs.v[0], b->err, strlen(b->err)), "line %d: '%s'", b->line,
		   errs.n ? errs.v[0] : "(none)");
		is_int(nseen, b->nevents, "line %d: the rest still loads", b->line);
		msgs_free(&errs);
	}
	/* Every broken line of one file is reported, each with its number. */
	int n = parse("EVENT,A\nEVENT,OK,NOT_DERIVED,X\nEVENT,B\nBAD\n", &errs);
	is_int(n, 3, "three problems in one file");
	ok(n == 3 && strstr(errs.v[0], ":1:") && strstr(errs.v[1], ":3:") && strstr(errs.v[2], ":4:"),
	   "each with its own line");
	msgs_free(&errs);

	/* The writer's output parses back to the same event. */
	struct def_event ev = { .preset = 0, .name = "W", .derived = DERIVED_POSTFIX,
				.formula = "N0|N1|+|", .nbase = 2, .base = { "a::B:c=1", "a::D" },
				.ldesc = "long, \"quoted\"", .sdesc = "# not a comment", .note = NULL };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	deffile_write_event(f, &ev);
	fclose(f);
	n = parse(buf, &errs);
	is_int(n, 0, "written line parses");
	is_str(nseen ? seen[0] : "", "E W:DERIVED_POSTFIX:N0|N1|+|:a::B:c=1,a::D:long, \"quoted\":# not a comment::@1",
	       "written line round-trips");
	msgs_free(&errs);
	free(buf);
	return tap_done();
}

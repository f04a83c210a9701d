/* t_hl_parse.c: PAPI_EVENTS parsing (hl_events_parse): items, suffixes, spaces, bad items, limits. */
#include <string.h>

#include "internal.h"
#include "tap.h"

static const struct {
	int line;
	const char *spec;
	int n;			/* items kept */
	const char *names;	/* kept names joined by '|', '*' after an instant one */
	int problem;		/* err is non-empty */
} rows[] = {
	{ __LINE__, "PAPI_TOT_INS", 1, "PAPI_TOT_INS", 0 },
	{ __LINE__, "PAPI_TOT_INS,perf::TASK-CLOCK", 2, "PAPI_TOT_INS|perf::TASK-CLOCK", 0 },
	{ __LINE__, " a , b\t", 2, "a|b", 0 },
	{ __LINE__, "coretemp::hwmon=instant,PAPI_TOT_INS=delta", 2, "coretemp::hwmon*|PAPI_TOT_INS", 0 },
	{ __LINE__, "x:u=1", 1, "x:u=1", 0 },
	{ __LINE__, "x:c=1=instant", 1, "x:c=1*", 0 },
	{ __LINE__, "", 0, "", 1 },
	{ __LINE__, ",", 0, "", 1 },
	{ __LINE__, "a,,b", 2, "a|b", 1 },
	{ __LINE__, "a,", 1, "a", 1 },
	{ __LINE__, "=instant", 0, "", 1 },
	{ __LINE__, "a b", 0, "", 1 },
	{ __LINE__, "a\x01", 0, "", 1 },
	{ __LINE__, "a,a", 1, "a", 1 },
	{ __LINE__, "a=instant,a", 1, "a*", 1 },
	{ __LINE__, "a=INSTANT", 1, "a=INSTANT", 0 },
	{ __LINE__, "cpu/event=0x3c,umask=0x00/,PAPI_TOT_INS", 2, "cpu/event=0x3c,umask=0x00/|PAPI_TOT_INS", 0 },
	{ __LINE__, "a,cpu/instructions/u=instant,cpu/x=1,y=2/", 3, "a|cpu/instructions/u*|cpu/x=1,y=2/", 0 },
};

static void table(void)
{
	static struct hl_spec out[HL_MAX_EVENTS];
	char err[256], got[1024];
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int n = hl_events_parse(rows[i].spec, out, HL_MAX_EVENTS, err, sizeof err);
		got[0] = 0;
		for (int k = 0; k < n; k++) {
			if (k)
				strcat(got, "|");
			strcat(got, out[k].name);
			if (out[k].instant)
				strcat(got, "*");
		}
		is_int(n, rows[i].n, "line %d: \"%s\" keeps %d", rows[i].line, rows[i].spec, rows[i].n);
		is_str(got, rows[i].names, "line %d: names", rows[i].line);
		is_int(err[0] != 0, rows[i].problem, "line %d: problem reported: %s", rows[i].line, err);
	}
}

static void limits(void)
{
	static struct hl_spec out[HL_MAX_EVENTS];
	static char big[200 * 4];
	char err[64];
	is_int(hl_events_parse(NULL, out, 4, err, sizeof err), PAPI_EINVAL, "NULL spec -> EINVAL");
	is_int(hl_events_parse("a", NULL, 4, err, sizeof err), PAPI_EINVAL, "NULL out -> EINVAL");
	is_int(hl_events_parse("a", out, -1, NULL, 0), PAPI_EINVAL, "negative max -> EINVAL");
	is_int(hl_events_parse("a,b,c", out, 2, err, sizeof err), 2, "max 2 keeps two");
	ok(strstr(err, "more than 2") != NULL, "and says so (%s)", err);
	is_int(hl_events_parse("a,b", out, 2, NULL, 0), 2, "err may be NULL");
	for (int i = 0; i < 200; i++)
		memcpy(big + 4 * i, "e,e,", 4);
	big[sizeof big - 1] = 0;
	is_int(hl_events_parse(big, out, HL_MAX_EVENTS, err, sizeof err), 1, "400 duplicates keep one");
	ok(strlen(err) < sizeof err, "the problem text stays inside its buffer");
	static char longname[PAPI_HUGE_STR_LEN + 10];
	memset(longname, 'x', sizeof longname - 1);
	is_int(hl_events_parse(longname, out, 4, err, sizeof err), 0, "an overlong name is left out");
	ok(strstr(err, "longer than") != NULL, "and named as too long (%s)", err);
}

int main(void)
{
	table();
	limits();
	return tap_done();
}

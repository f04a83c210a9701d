/* t_presets.c: presets and user-defined events on this machine: user events over software events counted for real, event info, PAPI_set_event_info / PAPI_encode_events rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi.h"
#include "tap.h"

static const char user_file[] =
	"# user events over the kernel's software events\n"
	"EVENT,MY_FAULTS,DERIVED_ADD,perf::MINOR-FAULTS,perf::MAJOR-FAULTS,"
	"LDESC,\"Page faults, minor and major\",SDESC,\"All faults\",NOTE,\"software\"\n"
	"EVENT,MY_LEFT,DERIVED_INFIX,N0-N1-N2,perf::PAGE-FAULTS,perf::MINOR-FAULTS,perf::MAJOR-FAULTS\n"
	"EVENT,MY_POST,DERIVED_POSTFIX,N0|2|*|N1|-|,MY_FAULTS,perf::MINOR-FAULTS\n"
	"EVENT,MY_ALIAS,NOT_DERIVED,MY_FAULTS\n"
	"EVENT,MY_BROKEN,DERIVED_INFIX,N0-,perf::PAGE-FAULTS\n"
	"EVENT,MY_UNKNOWN,NOT_DERIVED,perf::NO-SUCH-EVENT\n"
	"EVENT,MY_CLOCK,NOT_DERIVED,perf::TASK-CLOCK\n";

static void touch_pages(void)
{
	size_t len = 8 << 20;
	char *volatile p = malloc(len);
	for (size_t i = 0; i < len; i += 4096)
		p[i] = (char)i;
	free(p);
}

static int code_of(const char *name)
{
	int c = 0;
	return PAPI_event_name_to_code(name, &c) == PAPI_OK ? c : 0;
}

static void counting(void)
{
	int es = PAPI_NULL;
	long long v[6];
	is_int(PAPI_create_eventset(&es), PAPI_OK, "create");
	is_int(PAPI_add_named_event(es, "MY_FAULTS"), PAPI_OK, "add MY_FAULTS");
	is_int(PAPI_add_named_event(es, "perf::MINOR-FAULTS"), PAPI_OK, "add minor faults");
	is_int(PAPI_add_named_event(es, "perf::MAJOR-FAULTS"), PAPI_OK, "add major faults");
	is_int(PAPI_add_named_event(es, "MY_LEFT"), PAPI_OK, "add MY_LEFT");
	is_int(PAPI_add_named_event(es, "MY_POST"), PAPI_OK, "add MY_POST (over a user event)");
	is_int(PAPI_add_named_event(es, "MY_ALIAS"), PAPI_OK, "add MY_ALIAS");
	is_int(PAPI_start(es), PAPI_OK, "start");
	touch_pages();
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[1] > 0, "minor faults counted (%lld)", v[1]);
	is_int(v[0], v[1] + v[2], "MY_FAULTS = minor + major");
	/* PAGE-FAULTS counts the same faults: left-associative N0-N1-N2 is 0,
	 * where N0-(N1-N2) would be 2 * major. */
	is_int(v[3], 0, "MY_LEFT = faults - minor - major");
	is_int(v[4], 2 * v[0] - v[1], "MY_POST = 2 * MY_FAULTS - minor");
	is_int(v[5], v[0], "MY_ALIAS = MY_FAULTS");
	/* Redefining an event in an EventSet is refused. */
	PAPI_event_info_t in;
	int code = code_of("MY_FAULTS"), out = 0;
	PAPI_get_event_info(code, &in);
	is_int(PAPI_set_event_info(&in, &out, 1), PAPI_EISRUN, "redefining an added event: EISRUN");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static void info(void)
{
	PAPI_event_info_t in;
	int code = code_of("MY_FAULTS");
	ok((code & PAPI_UE_MASK) == PAPI_UE_MASK, "user event code 0x%x has PAPI_UE_MASK", code);
	is_int(PAPI_get_event_info(code, &in), PAPI_OK, "info of MY_FAULTS");
	is_str(in.symbol, "MY_FAULTS", "symbol");
	is_int(in.count, 2, "two natives");
	is_str(in.derived, "DERIVED_ADD", "derived type");
	is_str(in.name[0], "perf::MINOR-FAULTS", "first native");
	is_str(in.name[1], "perf::MAJOR-FAULTS", "second native");
	is_str(in.long_descr, "Page faults, minor and major", "long description");
	is_str(in.short_descr, "All faults", "short description");
	is_str(in.note, "software", "note");
	char name[PAPI_MAX_STR_LEN];
	is_int(PAPI_event_code_to_name(code, name), PAPI_OK, "code to name");
	is_str(name, "MY_FAULTS", "name back");
	is_int(PAPI_get_event_info(code_of("MY_POST"), &in), PAPI_OK, "info of MY_POST");
	is_str(in.derived, "DERIVED_POSTFIX", "composed event is a postfix");
	is_str(in.postfix, "N0|N1|+|2|*|N0|-|", "postfix over the expanded natives");
	is_int(PAPI_get_event_info(code_of("MY_LEFT"), &in), PAPI_OK, "info of MY_LEFT");
	is_str(in.postfix, "N0|N1|-|N2|-|", "infix becomes a left-associative postfix");
	ok(code_of("MY_BROKEN") == 0, "a malformed formula defines nothing");
	ok(code_of("MY_UNKNOWN") == 0, "an unknown native defines nothing");
	ok(code_of("MY_CLOCK") != 0, "the line after the broken ones still loaded");
	is_int(PAPI_query_event(code_of("MY_CLOCK")), PAPI_OK, "software user event available");
	/* Enumeration of user events. */
	int c = PAPI_UE_MASK, n = 0;
	if (PAPI_enum_event(&c, PAPI_ENUM_FIRST) == PAPI_OK)
		do
			n++;
		while (PAPI_enum_event(&c, PAPI_ENUM_EVENTS) == PAPI_OK);
	is_int(n, 5, "five user events enumerated");
	/* A catalogue preset has a code and its descriptions even when not defined. */
	is_int(PAPI_get_event_info(PAPI_TOT_CYC, &in), PAPI_OK, "PAPI_TOT_CYC info");
	is_str(in.symbol, "PAPI_TOT_CYC", "preset symbol");
	ok(in.long_descr[0] != 0, "preset long description");
	/* One that cannot be counted here (PAPI_query_event says so) is not
	 * derived, as PAPI 7 gives it, with no natives: papi_decode prints the
	 * field as it is. */
	int un = PAPI_PRESET_MASK;
	while ((un & PAPI_PRESET_AND_MASK) < 127 && PAPI_query_event(un) == PAPI_OK)
		un++;
	if (PAPI_get_event_info(un, &in) != PAPI_OK)
		skip("every preset is available here", "an unavailable preset is NOT_DERIVED");
	else {
		is_str(in.derived, "NOT_DERIVED", "unavailable %s: derived NOT_DERIVED", in.symbol);
		is_int(in.count, 0, "unavailable %s: no natives", in.symbol);
		is_str(in.postfix, "", "unavailable %s: no postfix", in.symbol);
	}
	is_int(PAPI_get_event_info(PAPI_PRESET_MASK | 127, &in), PAPI_ENOTPRESET, "preset out of range");
	is_int(PAPI_get_event_info(PAPI_UE_MASK | 999, &in), PAPI_ENOEVNT, "user event out of range");
}

static void set_info(void)
{
	PAPI_event_info_t in;
	int code = 0;
	memset(&in, 0, sizeof in);
	in.event_code = PAPI_PRESET_MASK;
	snprintf(in.symbol, sizeof in.symbol, "MY_CLOCK");
	snprintf(in.derived, sizeof in.derived, "NOT_DERIVED");
	snprintf(in.name[0], sizeof in.name[0], "perf::CPU-CLOCK");
	is_int(PAPI_set_event_info(&in, &code, 0), PAPI_EPERM, "existing event without replace");
	is_int(PAPI_set_event_info(&in, &code, 1), PAPI_OK, "with replace");
	is_int(code, code_of("MY_CLOCK"), "same code after replace");
	PAPI_event_info_t back;
	PAPI_get_event_info(code, &back);
	is_str(back.name[0], "perf::CPU-CLOCK", "redefinition took effect");
	snprintf(in.symbol, sizeof in.symbol, "MY_NEW");
	snprintf(in.derived, sizeof in.derived, "DERIVED_WHAT");
	is_int(PAPI_set_event_info(&in, &code, 0), PAPI_EINVAL, "unknown derived type");
	snprintf(in.derived, sizeof in.derived, "DERIVED_POSTFIX");
	snprintf(in.postfix, sizeof in.postfix, "N0|N1|+|");
	is_int(PAPI_set_event_info(&in, &code, 0), PAPI_EINVAL, "postfix naming a missing term");
	in.symbol[0] = 0;
	is_int(PAPI_set_event_info(&in, &code, 0), PAPI_EINVAL, "empty symbol");
	is_int(PAPI_set_event_info(NULL, &code, 0), PAPI_EINVAL, "NULL info");
	snprintf(in.symbol, sizeof in.symbol, "MY_NEW");
	in.event_code = PAPI_NATIVE_MASK;
	is_int(PAPI_set_event_info(&in, &code, 0), PAPI_ENOEVNT, "not a preset code");
	/* The preset table holds PAPI_MAX_PRESET_EVENTS entries. */
	in.event_code = PAPI_PRESET_MASK;
	snprintf(in.derived, sizeof in.derived, "NOT_DERIVED");
	in.postfix[0] = 0;
	int r = PAPI_OK, added = 0;
	for (int i = 0; i < 200 && r == PAPI_OK; i++) {
		snprintf(in.symbol, sizeof in.symbol, "PAPI_EXTRA_%d", i);
		if ((r = PAPI_set_event_info(&in, &code, 0)) == PAPI_OK)
			added++;
	}
	is_int(r, PAPI_ENOTPRESET, "full preset table: ENOTPRESET");
	is_int(added, PAPI_MAX_PRESET_EVENTS - PAPI_END_idx, "room for the extra presets");
}

static void encode(void)
{
	char path[] = "/tmp/t_presets_XXXXXX";
	int fd = mkstemp(path);
	const char csv[] = "name,derived,postfix,short_descr,long_descr,note,[native,...]\n\n"
			   "ENC_ONE,NOT_DERIVED,,\"s\",\"l\",,perf::CONTEXT-SWITCHES\n"
			   "ENC_BAD,DERIVED_POSTFIX,N0|+|,\"s\",\"l\",,perf::CONTEXT-SWITCHES\n"
			   "ENC_TWO,DERIVED_SUB,,\"s\",\"l\",,perf::TASK-CLOCK,perf::CPU-CLOCK\n";
	ok(fd >= 0 && write(fd, csv, sizeof csv - 1) == (ssize_t)(sizeof csv - 1), "write csv");
	close(fd);
	is_int(PAPI_encode_events(path, 0), PAPI_EINVAL, "a bad row: EINVAL");
	ok(code_of("ENC_ONE") && code_of("ENC_TWO") && !code_of("ENC_BAD"), "the good rows loaded");
	is_int(PAPI_encode_events(path, 0), PAPI_EPERM, "again without replace: EPERM");
	is_int(PAPI_encode_events("/nonexistent/file.csv", 1), PAPI_EINVAL, "missing file: EINVAL");
	is_int(PAPI_encode_events(NULL, 1), PAPI_EINVAL, "NULL file");
	unlink(path);
}

int main(void)
{
	char path[] = "/tmp/t_presets_ue_XXXXXX";
	int fd = mkstemp(path);
	ok(fd >= 0 && write(fd, user_file, sizeof user_file - 1) == (ssize_t)(sizeof user_file - 1),
	   "write user events file");
	close(fd);
	setenv("PAPI_USER_EVENTS_FILE", path, 1);
	unsetenv("PAPI_CSV_EVENT_FILE");
	unsetenv("LIBPFM_FORCE_PMU");
	is_int(PAPI_encode_events(path, 0), PAPI_ENOINIT, "encode before init: ENOINIT");
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	info();
	counting();
	set_info();
	encode();
	PAPI_shutdown();
	/* After shutdown everything is loaded afresh. */
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "init again");
	ok(code_of("MY_FAULTS") != 0 && code_of("ENC_ONE") == 0, "tables reloaded from the files");
	PAPI_shutdown();
	unlink(path);
	return tap_done();
}

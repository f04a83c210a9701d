/* t_cli_json.c: unit tests of the CLI's JSON writer, CSV quoting, number formatting and argument parsing. */
#include "tap.h"

/* The helpers are part of the papi binary, not of libpapi.a: compile them in. */
#include "../../cmd/cli.c"

#include <locale.h>
#include <math.h>
#include <unistd.h>

static char *buf;
static size_t len;

static FILE *mem(void)
{
	free(buf);
	buf = NULL;
	len = 0;
	return open_memstream(&buf, &len);
}

/* Close f and return what was written to it. */
static const char *got(FILE *f)
{
	fclose(f);
	return buf;
}

static const char *json_of_str(const char *s)
{
	struct json j;
	FILE *f = mem();
	json_init(&j, f, 0);
	json_str(&j, s);
	json_end(&j);
	return got(f);
}

static const struct {
	int line;
	const char *in, *out;
} strs[] = {
	{ __LINE__, "plain", "\"plain\"\n" },
	{ __LINE__, "", "\"\"\n" },
	{ __LINE__, "a\"b\\c", "\"a\\\"b\\\\c\"\n" },
	{ __LINE__, "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"\n" },
	{ __LINE__, "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"\n" },
	{ __LINE__, "/ slash stays", "\"/ slash stays\"\n" },
	{ __LINE__, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"\n" },
	{ __LINE__, "\xff", "\"\xef\xbf\xbd\"\n" },				/* never valid */
	{ __LINE__, "a\xc3", "\"a\xef\xbf\xbd\"\n" },				/* truncated at the end */
	{ __LINE__, "\xc3(", "\"\xef\xbf\xbd(\"\n" },				/* bad continuation */
	{ __LINE__, "\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"\n" },		/* overlong '/' */
	{ __LINE__, "\xe0\x80\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"\n" },	/* overlong, 3 bytes */
	{ __LINE__, "\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"\n" },	/* surrogate U+D800 */
	{ __LINE__, "\xf4\x90\x80\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"\n" }, /* > U+10FFFF */
	{ __LINE__, "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"\n" },		/* U+10FFFF itself */
};

static const struct {
	int line;
	double in;
	const char *out;
} nums[] = {
	{ __LINE__, 0.0, "0" },
	{ __LINE__, -0.0, "-0" },
	{ __LINE__, 1.5, "1.5" },
	{ __LINE__, 0.1, "0.1" },
	{ __LINE__, -2.25, "-2.25" },
	{ __LINE__, 1.0 / 3.0, "0.3333333333333333" },
	{ __LINE__, 123456789012.0, "123456789012" },
	{ __LINE__, 0.1 + 0.2, "0.30000000000000004" },	/* needs all 17 digits */
	{ __LINE__, 1e300, "1e+300" },
	{ __LINE__, 5e-324, "4.94065645841247e-324" },	/* denormal: 15 digits read back */
	{ __LINE__, 1e21, "1e+21" },
};

static void test_strings(void)
{
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		is_str(json_of_str(strs[i].in), strs[i].out, "json string, table line %d", strs[i].line);
	is_str(json_of_str(NULL), "null\n", "json_str(NULL) is null");
}

static void test_numbers(void)
{
	char b[40];
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		is_str(cli_fmt_double(nums[i].in, b, sizeof(b)), nums[i].out, "double, table line %d", nums[i].line);
		ok(strtod(b, NULL) == nums[i].in || isnan(nums[i].in), "double reads back, table line %d", nums[i].line);
	}
	/* cli_round: as round(3), halves away from zero, huge values as they are */
	static const struct { int line; double in, out; } rnd[] = {
		{ __LINE__, 0.0, 0.0 }, { __LINE__, 0.4, 0.0 }, { __LINE__, 0.5, 1.0 },
		{ __LINE__, 1.49999, 1.0 }, { __LINE__, 2.5, 3.0 }, { __LINE__, -0.5, -1.0 },
		{ __LINE__, -2.4, -2.0 }, { __LINE__, -2.5, -3.0 }, { __LINE__, 1234567890.5, 1234567891.0 },
		{ __LINE__, 4503599627370497.0, 4503599627370497.0 }, { __LINE__, -1e300, -1e300 },
	};
	for (size_t i = 0; i < sizeof rnd / sizeof rnd[0]; i++)
		ok(cli_round(rnd[i].in) == rnd[i].out, "cli_round, table line %d: %.17g -> %.17g, got %.17g",
		   rnd[i].line, rnd[i].in, rnd[i].out, cli_round(rnd[i].in));
	ok(isnan(cli_round(NAN)) && cli_round(INFINITY) == INFINITY, "cli_round: NaN and Inf as they are");
	is_str(cli_fmt_double(NAN, b, sizeof(b)), "null", "NaN is null");
	is_str(cli_fmt_double(INFINITY, b, sizeof(b)), "null", "+Inf is null");
	is_str(cli_fmt_double(-INFINITY, b, sizeof(b)), "null", "-Inf is null");
}

static void test_documents(void)
{
	struct json j;
	FILE *f = mem();

	json_init(&j, f, 0);
	json_obj_begin(&j);
	json_kstr(&j, "name", "PAPI_TOT_INS");
	json_kint(&j, "count", -42);
	json_key(&j, "big");
	json_uint(&j, 18446744073709551615ULL);
	json_kdouble(&j, "ratio", 0.5);
	json_kdouble(&j, "bad", NAN);
	json_kbool(&j, "ok", 1);
	json_key(&j, "none");
	json_put_null(&j);
	json_key(&j, "list");
	json_arr_begin(&j);
	json_int(&j, 1);
	json_arr_begin(&j);
	json_arr_end(&j);
	json_obj_begin(&j);
	json_obj_end(&j);
	json_bool(&j, 0);
	json_arr_end(&j);
	json_obj_end(&j);
	is_int(json_end(&j), 0, "compact document is complete");
	is_str(got(f), "{\"name\":\"PAPI_TOT_INS\",\"count\":-42,\"big\":18446744073709551615,"
		       "\"ratio\":0.5,\"bad\":null,\"ok\":true,\"none\":null,\"list\":[1,[],{},false]}\n",
	       "compact document");

	f = mem();
	json_init(&j, f, 1);
	json_obj_begin(&j);
	json_kint(&j, "a", 1);
	json_key(&j, "b");
	json_arr_begin(&j);
	json_str(&j, "x");
	json_obj_begin(&j);
	json_kint(&j, "c", 2);
	json_obj_end(&j);
	json_arr_end(&j);
	json_key(&j, "e");
	json_obj_begin(&j);
	json_obj_end(&j);
	json_obj_end(&j);
	is_int(json_end(&j), 0, "pretty document is complete");
	is_str(got(f), "{\n  \"a\": 1,\n  \"b\": [\n    \"x\",\n    {\n      \"c\": 2\n    }\n  ],\n  \"e\": {}\n}\n",
	       "pretty document");
}

/* Each misuse must be reported by json_end, so a command can notice its bug. */
static void test_misuse(void)
{
	struct json j;
	FILE *f;

	f = mem(); json_init(&j, f, 0);
	json_obj_begin(&j);
	is_int(json_end(&j), -1, "unclosed object is reported"); fclose(f);

	f = mem(); json_init(&j, f, 0);
	json_int(&j, 1); json_int(&j, 2);
	is_int(json_end(&j), -1, "two top-level values are reported"); fclose(f);

	f = mem(); json_init(&j, f, 0);
	json_obj_begin(&j); json_int(&j, 1); json_obj_end(&j);
	is_int(json_end(&j), -1, "a value without a key in an object is reported"); fclose(f);

	f = mem(); json_init(&j, f, 0);
	json_arr_begin(&j); json_key(&j, "k"); json_int(&j, 1); json_arr_end(&j);
	is_int(json_end(&j), -1, "a key inside an array is reported"); fclose(f);

	f = mem(); json_init(&j, f, 0);
	json_obj_begin(&j); json_key(&j, "k"); json_obj_end(&j);
	is_int(json_end(&j), -1, "a key without its value is reported"); fclose(f);

	f = mem(); json_init(&j, f, 0);
	json_arr_begin(&j); json_obj_end(&j);
	is_int(json_end(&j), -1, "closing the wrong kind is reported"); fclose(f);

	f = mem(); json_init(&j, f, 0);
	for (int i = 0; i < JSON_MAX_DEPTH + 1; i++)
		json_arr_begin(&j);
	is_int(json_end(&j), -1, "nesting deeper than JSON_MAX_DEPTH is reported"); fclose(f);

	f = mem(); json_init(&j, f, 0);
	is_int(json_end(&j), -1, "an empty document is reported"); fclose(f);
}

static const char *csv_of(const char *s, char sep)
{
	FILE *f = mem();
	cli_csv_quote(f, s, sep);
	return got(f);
}

static const struct {
	int line;
	const char *in;
	char sep;
	const char *out;
} csvs[] = {
	{ __LINE__, "plain", ',', "plain" },
	{ __LINE__, "", ',', "" },
	{ __LINE__, "a,b", ',', "\"a,b\"" },
	{ __LINE__, "a,b", ';', "a,b" },
	{ __LINE__, "a;b", ';', "\"a;b\"" },
	{ __LINE__, "a\tb", '\t', "\"a\tb\"" },
	{ __LINE__, "say \"hi\"", ',', "\"say \"\"hi\"\"\"" },
	{ __LINE__, "two\nlines", ',', "\"two\nlines\"" },
	{ __LINE__, "cr\r", ',', "\"cr\r\"" },
	{ __LINE__, " lead", ',', "\" lead\"" },
	{ __LINE__, "trail ", ',', "\"trail \"" },
	{ __LINE__, "in side", ',', "in side" },
};

static void test_csv(void)
{
	struct cli_csv c;
	FILE *f;

	for (size_t i = 0; i < sizeof(csvs) / sizeof(csvs[0]); i++)
		is_str(csv_of(csvs[i].in, csvs[i].sep), csvs[i].out, "csv field, table line %d", csvs[i].line);
	is_str(csv_of(NULL, ','), "", "NULL is an empty field");

	f = mem();
	cli_csv_init(&c, f, ',');
	cli_csv_field(&c, "PAPI_L1_DCM");
	cli_csv_int(&c, -7);
	cli_csv_double(&c, 0.25);
	cli_csv_double(&c, NAN);
	cli_csv_field(&c, "x,y");
	cli_csv_end(&c);
	cli_csv_field(&c, "next");
	cli_csv_end(&c);
	is_str(got(f), "PAPI_L1_DCM,-7,0.25,,\"x,y\"\nnext\n", "csv rows");
}

static void test_long_arg(void)
{
	long v = -1;
	is_int(cli_long_arg("t", "-b", "42", 1, 100, &v), 0, "42 in [1,100] parses");
	is_int(v, 42, "its value");
	is_int(cli_long_arg("t", "-b", "0", 1, 100, &v), -1, "0 below [1,100] is refused");
	is_int(cli_long_arg("t", "-b", "101", 1, 100, &v), -1, "101 above [1,100] is refused");
	is_int(cli_long_arg("t", "-b", "12x", 1, 100, &v), -1, "trailing junk is refused");
	is_int(cli_long_arg("t", "-b", "", 1, 100, &v), -1, "empty is refused");
	is_int(cli_long_arg("t", "-b", "99999999999999999999", 1, LONG_MAX, &v), -1, "overflow is refused");
	is_int(v, 42, "refusals leave the value alone");
}

/* A locale whose decimal point is ',': installed, or compiled with localedef
 * into a temporary LOCPATH.  Returns 0 when none can be had. */
static int comma_locale(char *dir, size_t size)
{
	static const char *names[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", NULL };
	char cmd[512];

	for (int i = 0; names[i]; i++)
		if (setlocale(LC_NUMERIC, names[i]))
			return 1;
	snprintf(dir, size, "/tmp/t_cli_json.XXXXXX");
	if (!mkdtemp(dir))
		return 0;
	snprintf(cmd, sizeof(cmd), "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", dir);
	if (system(cmd) != 0)
		return 0;
	setenv("LOCPATH", dir, 1);
	return setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL;
}

static void test_locale(void)
{
	char dir[64] = "", b[40], probe[16];
	struct json j;
	FILE *f;

	if (!comma_locale(dir, sizeof(dir))) {
		skip("no locale with a decimal comma (de_DE) and localedef failed", "numbers under a comma locale");
	} else {
		snprintf(probe, sizeof(probe), "%.1f", 1.5);
		is_str(probe, "1,5", "the comma locale is in effect (printf writes 1,5)");
		is_str(cli_fmt_double(1.5, b, sizeof(b)), "1.5", "1.5 keeps its '.' under a comma locale");
		is_str(cli_fmt_double(-1234567.125, b, sizeof(b)), "-1234567.125", "no grouping, '.' under a comma locale");
		is_str(cli_fmt_double(0.1, b, sizeof(b)), "0.1", "shortest form under a comma locale");
		f = mem();
		json_init(&j, f, 0);
		json_arr_begin(&j);
		json_double(&j, 2.5);
		json_double(&j, 3);
		json_arr_end(&j);
		json_end(&j);
		is_str(got(f), "[2.5,3]\n", "JSON array of doubles under a comma locale");
	}
	setlocale(LC_NUMERIC, "C");
	if (dir[0]) {
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			diag("could not remove %s", dir);
	}
}

int main(void)
{
	test_strings();
	test_numbers();
	test_documents();
	test_misuse();
	test_csv();
	test_long_arg();
	test_locale();
	free(buf);
	return tap_done();
}

/* error_codes.c: `papi error-codes`: every PAPI error code with its symbolic name and PAPI_strerror's message. */
#include "cli.h"
#include "cmds.h"
#include "papi.h"

#include <stdio.h>


static const struct cli_opt opts[] = {
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ 0 },
};

static const struct cli_spec spec = {
	"error-codes", "[OPTION]...",
	"List every return code of the PAPI library: its value, its name in papi.h\n"
	"and the message PAPI_strerror gives for it.",
	opts, 0,
};

/* The codes of papi.h, in value order (PAPI_ESBSTR is PAPI_ECMP's old name). */
static const struct {
	int code;
	const char *name;
} codes[] = {
	{ PAPI_OK, "PAPI_OK" },
	{ PAPI_EINVAL, "PAPI_EINVAL" },
	{ PAPI_ENOMEM, "PAPI_ENOMEM" },
	{ PAPI_ESYS, "PAPI_ESYS" },
	{ PAPI_ECMP, "PAPI_ECMP" },
	{ PAPI_ECLOST, "PAPI_ECLOST" },
	{ PAPI_EBUG, "PAPI_EBUG" },
	{ PAPI_ENOEVNT, "PAPI_ENOEVNT" },
	{ PAPI_ECNFLCT, "PAPI_ECNFLCT" },
	{ PAPI_ENOTRUN, "PAPI_ENOTRUN" },
	{ PAPI_EISRUN, "PAPI_EISRUN" },
	{ PAPI_ENOEVST, "PAPI_ENOEVST" },
	{ PAPI_ENOTPRESET, "PAPI_ENOTPRESET" },
	{ PAPI_ENOCNTR, "PAPI_ENOCNTR" },
	{ PAPI_EMISC, "PAPI_EMISC" },
	{ PAPI_EPERM, "PAPI_EPERM" },
	{ PAPI_ENOINIT, "PAPI_ENOINIT" },
	{ PAPI_ENOCMP, "PAPI_ENOCMP" },
	{ PAPI_ENOSUPP, "PAPI_ENOSUPP" },
	{ PAPI_ENOIMPL, "PAPI_ENOIMPL" },
	{ PAPI_EBUF, "PAPI_EBUF" },
	{ PAPI_EINVAL_DOM, "PAPI_EINVAL_DOM" },
	{ PAPI_EATTR, "PAPI_EATTR" },
	{ PAPI_ECOUNT, "PAPI_ECOUNT" },
	{ PAPI_ECOMBO, "PAPI_ECOMBO" },
	{ PAPI_ECMP_DISABLED, "PAPI_ECMP_DISABLED" },
	{ PAPI_EDELAY_INIT, "PAPI_EDELAY_INIT" },
	{ PAPI_EMULPASS, "PAPI_EMULPASS" },
	{ PAPI_PARTIAL, "PAPI_PARTIAL" },
};

_Static_assert(sizeof codes / sizeof *codes == PAPI_NUM_ERRORS, "one row per PAPI error code");

int cmd_error_codes(int argc, char **argv)
{
	struct cli_ctx c;
	int o, n, json = 0;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1)
		if (o == 'j')
			json = 1;
	cli_operands(&c, &n);
	if (n)
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);

	if (json) {
		struct json j;
		json_init(&j, stdout, 1);
		json_arr_begin(&j);
		for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
			json_obj_begin(&j);
			json_kint(&j, "code", codes[i].code);
			json_kstr(&j, "name", codes[i].name);
			json_kstr(&j, "message", PAPI_strerror(codes[i].code));
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_end(&j);
	} else if (cli_is_classic(argv)) {
		/* papi_error_codes: one "Error code N: message" line per code. */
		for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
			printf("Error code %3d: %s\n", codes[i].code, PAPI_strerror(codes[i].code));
	} else {
		printf("Code  Name                Message\n");
		for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
			printf("%4d  %-19s %s\n", codes[i].code, codes[i].name, PAPI_strerror(codes[i].code));
	}
	return cli_finish(spec.name, CLI_OK);
}

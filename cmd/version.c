/* version.c: `papi version`: the PAPI API level this library implements and papi's own version. */
#include "cli.h"
#include "cmds.h"
#include "papi.h"

#include <stdio.h>

#ifndef PAPI_TOOL_VERSION
#define PAPI_TOOL_VERSION "unknown"
#endif

static const struct cli_opt opts[] = {
	{ "json", 'j', no_argument, NULL, "print one JSON document" },
	{ 0 },
};

static const struct cli_spec spec = {
	"version", "[OPTION]...",
	"Show the PAPI API level this library implements (PAPI_VERSION in papi.h,\n"
	"what programs compiled against it see) and the version of papi itself.",
	opts, 0,
};

int cmd_version(int argc, char **argv)
{
	struct cli_ctx c;
	char api[32];
	int o, json = 0, n;

	cli_begin(&c, &spec, argc, argv);
	while ((o = cli_next(&c)) != -1) {
		switch (o) {
		case 'j':
			json = 1;
			break;
		}
	}
	cli_operands(&c, &n);
	if (n)
		return cli_usage(spec.name, "unexpected argument '%s'", argv[c.optind]);

	snprintf(api, sizeof(api), "%d.%d.%d.%d", PAPI_VERSION_MAJOR(PAPI_VERSION),
		 PAPI_VERSION_MINOR(PAPI_VERSION), PAPI_VERSION_REVISION(PAPI_VERSION),
		 PAPI_VERSION_INCREMENT(PAPI_VERSION));
	if (json) {
		struct json j;
		json_init(&j, stdout, 1);
		json_obj_begin(&j);
		json_kstr(&j, "papi", PAPI_TOOL_VERSION);
		json_kstr(&j, "api", api);
		json_kint(&j, "api_number", PAPI_VERSION);
		json_kint(&j, "ver_current", PAPI_VER_CURRENT);
		json_obj_end(&j);
		json_end(&j);
	} else if (cli_is_classic(argv)) {
		/* papi_version prints what PAPI's tool prints, for scripts that parse it. */
		printf("PAPI Version: %s\n", api);
	} else {
		printf("papi %s\nPAPI %s API\n", PAPI_TOOL_VERSION, api);
	}
	return cli_finish(spec.name, CLI_OK);
}

/* event_files.c: what the commands that load events say about the event files and the PMU named in the environment (a row with a problem is skipped; the others load). */
#include "cli.h"
#include "cmds.h"
#include "tool.h"

#include <stdlib.h>
#include <string.h>

enum { SHOWN = 10 };	/* problems shown; the rest are counted */

/* A non-empty value of the environment variable name, or NULL. */
static const char *named(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

void event_files_report(const char *cmd)
{
	const char *user = named("PAPI_USER_EVENTS_FILE"), *csv = named("PAPI_CSV_EVENT_FILE");
	int n;

	/* Without a file named, nothing to say: and presets_errors would load
	 * the preset tables, which a command on perf:: events never needs. */
	if (!user && !csv)
		return;
	const char *const *v = presets_errors(&n);
	for (int i = 0; i < n && i < SHOWN; i++) {
		/* "FILE:LINE: why" says which variable named FILE. */
		const char *var = NULL;
		if (user && !strncmp(v[i], user, strlen(user)) && v[i][strlen(user)] == ':')
			var = "PAPI_USER_EVENTS_FILE";
		else if (csv && !strncmp(v[i], csv, strlen(csv)) && v[i][strlen(csv)] == ':')
			var = "PAPI_CSV_EVENT_FILE";
		cli_error(cmd, "%s%s%s", var ? var : "", var ? "=" : "", v[i]);
	}
	if (n > SHOWN)
		cli_error(cmd, "... and %d more problems ('papi encode --check %s' lists them all)",
			  n - SHOWN, user ? user : csv);
}

void event_env_report(const char *cmd)
{
	event_files_report(cmd);
	const char *unknown = pmu_forced_unknown();
	if (unknown)
		cli_error(cmd, "%s; unset it, or name a core PMU libpfm4 knows (skx, icx, spr, "
			  "amd64_fam19h_zen3, arm_n1, ...)", unknown);
}

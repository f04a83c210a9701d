/* cmds.h: the entry point of every subcommand, as the table in papi.c calls it. */
#ifndef PAPI_CMD_CMDS_H
#define PAPI_CMD_CMDS_H

/* Each cmd_<name> runs "papi <name>" and returns its exit status (CLI_OK,
 * CLI_FAIL, CLI_USAGE or a command-specific code such as 126/127 for a
 * program that cannot be run).  argv[0] is the name the user invoked:
 * "<name>" for "papi <name>" and "papi-<name>", or the classic tool name
 * ("papi_avail") when run through that symlink (see cli_is_classic()).
 * Keep this list in the order of the table in papi.c. */
int cmd_avail(int argc, char **argv);
int cmd_native(int argc, char **argv);
int cmd_chooser(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_groups(int argc, char **argv);
int cmd_command_line(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_hl_report(int argc, char **argv);
int cmd_cost(int argc, char **argv);
int cmd_clockres(int argc, char **argv);
int cmd_mem_info(int argc, char **argv);
int cmd_component(int argc, char **argv);
int cmd_hardware(int argc, char **argv);
int cmd_error_codes(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* event_files_report: after PAPI_library_init, in every command that loads
 * events: each problem met reading the files PAPI_USER_EVENTS_FILE and
 * PAPI_CSV_EVENT_FILE name (an unreadable file; FILE:LINE: what is wrong
 * with a row, which was skipped) as "papi cmd: ..." on stderr. Nothing,
 * and no loading, when neither variable is set. */
void event_files_report(const char *cmd);
/* event_env_report: event_files_report, then, when LIBPFM_FORCE_PMU names a
 * PMU libpfm4 does not know (a typo: libpfm4 starts anyway, naming no CPU's
 * events), one line that says so and what to do. Exit status unchanged: the
 * kernel's own events may still be listed and counted. */
void event_env_report(const char *cmd);

#endif

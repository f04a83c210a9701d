#!/usr/bin/env bats
# help.bats: papi help [COMMAND] and the --help texts it shows.
load helper

@test "papi help lists the commands on stdout, exit 0" {
	run --separate-stderr -0 papi help
	[[ "${lines[0]}" == "Usage: papi COMMAND"* ]]
	[ "$output" = "$(papi --help)" ]
	[ -z "$stderr" ]
	local name
	for name in $(papi --list-cmds | cut -f1); do
		[[ "$output" == *"  $name "* ]] || { echo "missing $name"; false; }
	done
}

@test "papi help lists the summaries of --list-cmds" {
	run -0 papi help
	local name summary
	while IFS=$'\t' read -r name summary; do
		[[ "$output" == *"$summary"* ]] || { echo "missing summary of $name"; false; }
	done < <(papi --list-cmds)
}

@test "papi help CMD is papi CMD --help for every command" {
	local name
	for name in $(papi --list-cmds | cut -f1); do
		run -0 papi help "$name"
		[ "$output" = "$(papi "$name" --help)" ] || { echo "differs: $name"; false; }
	done
}

@test "papi help version shows the version options" {
	run -0 papi help version
	[ "${lines[0]}" = "Usage: papi version [OPTION]..." ]
	[[ "$output" == *"--json"* ]]
}

@test "papi help help describes itself" {
	run -0 papi help help
	[ "${lines[0]}" = "Usage: papi help [COMMAND]" ]
}

@test "papi help with an unknown command: exit 2 with a suggestion" {
	run --separate-stderr -2 papi help versoin
	[ -z "$output" ]
	[ "${stderr_lines[0]}" = "papi: 'versoin' is not a papi command. See 'papi help'." ]
	[ "${stderr_lines[1]}" = "Did you mean 'version'?" ]
}

@test "papi help with two commands or an unknown option: exit 2" {
	run --separate-stderr -2 papi help version help
	[ "${stderr_lines[0]}" = "papi help: one COMMAND at most, not 2" ]
	run --separate-stderr -2 papi help --nope
	[ "${stderr_lines[0]}" = "papi help: unknown option '--nope'" ]
}

@test "papi help > /dev/full fails with exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 bash -c '"$PAPI_BIN" help > /dev/full'
	[ "$output" = "papi help: write error: No space left on device" ]
	run -1 bash -c '"$PAPI_BIN" help version > /dev/full'
	[ "$output" = "papi version: write error: No space left on device" ]
}

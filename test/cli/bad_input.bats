#!/usr/bin/env bats
# bad_input.bats: every subcommand given bad options, bad or unreadable files, and a full stdout: a clear message and the documented exit status, never a crash.

load helper

# Every subcommand this build has, from the binary itself.
cmds() {
	"$PAPI_BIN" --list-cmds | cut -f1
}

@test "bad_input: every subcommand refuses an unknown option with exit 2 and names itself" {
	local c n=0
	for c in $(cmds); do
		run --separate-stderr papi "$c" --no-such-option
		[ "$status" -eq 2 ] || { echo "$c: exit $status"; return 1; }
		[[ "$stderr" == *"papi $c"* || "$stderr" == "papi:"* ]] || { echo "$c: $stderr"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 10 ]
}

@test "bad_input: every subcommand's --help on a full stdout fails with exit 1 and says so" {
	local c
	for c in $(cmds); do
		status=0
		papi "$c" --help > /dev/full 2> err || status=$?
		[ "$status" -eq 1 ] || { echo "$c: exit $status"; return 1; }
		grep -q "write error" err || { echo "$c: $(cat err)"; return 1; }
	done
}

@test "bad_input: output commands on a full stdout exit 1" {
	local c
	for c in avail native decode component hardware error-codes version help; do
		status=0
		papi "$c" > /dev/full 2> err || status=$?
		[ "$status" -eq 1 ] || { echo "$c: exit $status"; return 1; }
		grep -q "write error: No space left on device" err || { echo "$c: $(cat err)"; return 1; }
	done
	cp "$PAPI_TOP/test/fuzz/hl_report/ours.json" rank.json
	run -0 papi hl-report rank.json
	run -1 sh -c '"$PAPI_BIN" hl-report rank.json > /dev/full'
	[[ "$output" == *"write error"* ]]
	run -1 papi stat -e perf::TASK-CLOCK -o /dev/full true
	[[ "$output" == *"write error"* ]]
}

@test "bad_input: unknown subcommands and extra arguments exit 2" {
	run -2 papi no-such-command
	[[ "$output" == *"not a papi command"* ]]
	run -2 papi help no-such-command
	run -2 papi decode extra-arg
	run -2 papi version extra-arg
	run -2 papi encode
	run -2 papi command-line
	run -2 papi stat
}

@test "bad_input: bad option values exit 2 with the option named" {
	run -2 papi stat -r abc -e perf::TASK-CLOCK true
	[[ "$output" == *"-r"* ]]
	run -2 papi stat -r -1 -e perf::TASK-CLOCK true
	run -2 papi stat -r 100001 -e perf::TASK-CLOCK true
	run -2 papi stat -I 0 -e perf::TASK-CLOCK true
	run -2 papi stat -e
	# the option is named as it was written, the same way in every command
	local c
	for c in cost clockres; do
		run --separate-stderr -2 papi "$c" -t 0
		[[ "$stderr" == "papi $c: -t: 0 is out of range"* ]] || { echo "$c: $stderr"; return 1; }
		run --separate-stderr -2 papi "$c" --iterations=x
		[[ "$stderr" == "papi $c: --iterations: 'x' is not a number"* ]] || { echo "$c: $stderr"; return 1; }
	done
	run --separate-stderr -2 papi cost --bins 0
	[[ "$stderr" == "papi cost: --bins: 0 is out of range"* ]]
}

@test "bad_input: missing, directory, empty and binary files" {
	: > empty
	printf '\001\002\377\376{[\000PRESET\n\200\n' > random	# binary, fixed: no flaky luck
	printf 'garbage,,\n' > garbage.csv
	local c
	for c in encode hl-report; do
		run -1 papi "$c" /nonexistent/file
		[[ "$output" == *"papi $c: /nonexistent/file: No such file or directory"* ]]
		run -1 papi "$c" "$BATS_TEST_TMPDIR/random"
		[[ "$output" == *"papi $c:"* ]]
		run -1 papi "$c" garbage.csv
		[[ "$output" == *"garbage.csv"* ]]
	done
	run -1 papi encode /
	[[ "$output" == *"Is a directory"* ]]
	run -1 papi hl-report empty
	[[ "$output" == *"not JSON"* ]]
	run -0 papi encode empty		# an empty definition file defines nothing
}

@test "bad_input: unreadable files exit 1 naming the file" {
	[ "$(id -u)" != 0 ] || skip "root reads files whatever their mode"
	printf 'PRESET,PAPI_X,NOT_DERIVED,perf::TASK-CLOCK\n' > locked.csv
	cp "$PAPI_TOP/test/fuzz/hl_report/ours.json" locked.json
	chmod 000 locked.csv locked.json
	run -1 papi encode locked.csv
	[[ "$output" == *"locked.csv"*"Permission denied"* ]]
	run -1 papi hl-report locked.json
	[[ "$output" == *"locked.json"*"Permission denied"* ]]
}

@test "bad_input: unknown events and unrunnable commands" {
	run -1 papi stat -e NO_SUCH_EVENT true
	[[ "$output" == *"NO_SUCH_EVENT"* ]]
	run -1 papi command-line NO_SUCH_EVENT
	[[ "$output" == *"NO_SUCH_EVENT"* ]]
	run -1 papi native -e NO_SUCH_EVENT
	run -1 papi avail -e NO_SUCH_EVENT
	run -1 papi native -e ''
	[ "$output" = "papi native: empty event name" ]	# not a stale reason of another event
	run -127 papi stat -e perf::TASK-CLOCK /nonexistent/cmd
	[[ "$output" == *"cannot run '/nonexistent/cmd'"* ]]
	run -1 papi stat -o /nonexistent/dir/out -e perf::TASK-CLOCK true
	[[ "$output" == *"/nonexistent/dir/out"* ]]
	local long
	long=$(head -c 100000 /dev/zero | tr '\0' A)
	run -1 papi stat -e "$long" true
	run -1 papi native -e "$long"
}

@test "bad_input: control bytes in what the user gave are escaped in messages" {
	local c bad=$'X\033[2J\a\r\233Y'
	for c in "native -e" "avail -e" "command-line" "chooser"; do
		# shellcheck disable=SC2086
		papi $c "$bad" > out 2> err && { echo "$c: exit 0"; return 1; }
		! LC_ALL=C grep -q $'[\033\a\r\233]' err out || { echo "$c: raw control byte"; return 1; }
		grep -q 'X\\x1b\[2J\\x07\\x0d\\x9bY' err || { echo "$c: $(cat err)"; return 1; }
	done
}

@test "bad_input: a missing or malformed PAPI_USER_EVENTS_FILE is named, with line and reason, by every command that loads events" {
	printf 'EVENT,GOOD,NOT_DERIVED,perf::TASK-CLOCK\nEVENT,BAD,DERIVED_MUL,perf::TASK-CLOCK\nGARBAGE\n' > ue.def
	local c
	for c in "avail" "native -e perf::TASK-CLOCK" "chooser perf::TASK-CLOCK" "command-line GOOD" \
		"stat -e GOOD true" "decode" "cost -t 10" "component" "encode /dev/null"; do
		# shellcheck disable=SC2086
		PAPI_USER_EVENTS_FILE=ue.def papi $c > out 2> err || { echo "$c: exit $?: $(cat err)"; return 1; }
		grep -q "^papi ${c%% *}: PAPI_USER_EVENTS_FILE=ue.def:2: unknown derived type 'DERIVED_MUL'" err ||
			{ echo "$c: $(cat err)"; return 1; }
		grep -q "^papi ${c%% *}: PAPI_USER_EVENTS_FILE=ue.def:3: unknown command 'GARBAGE'" err ||
			{ echo "$c: $(cat err)"; return 1; }
		# (GOOD is then unknown: command-line and stat fail, and say so too)
		# shellcheck disable=SC2086
		PAPI_USER_EVENTS_FILE=$BATS_TEST_TMPDIR/none.def run --separate-stderr papi $c
		[[ "${stderr_lines[0]}" == "papi ${c%% *}: PAPI_USER_EVENTS_FILE=$BATS_TEST_TMPDIR/none.def: cannot read: No such file or directory" ]] ||
			{ echo "$c: $stderr"; return 1; }
	done
	# the good row still loads; and PAPI_CSV_EVENT_FILE is named the same way
	PAPI_USER_EVENTS_FILE=ue.def run --separate-stderr -0 papi command-line GOOD
	[[ "$output" == GOOD* ]]
	PAPI_CSV_EVENT_FILE=ue.def run --separate-stderr -0 papi decode
	[[ "$stderr" == *"PAPI_CSV_EVENT_FILE=ue.def:3: unknown command 'GARBAGE'"* ]]
	# with neither variable set, nothing
	run --separate-stderr -0 papi command-line perf::TASK-CLOCK
	[ -z "$stderr" ]
}

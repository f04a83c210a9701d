#!/usr/bin/env bats
# command-line.bats: papi command-line and its classic name papi_command_line.
load helper

count_of() {	# count_of EVENT: the count on the line of EVENT in $output
	awk -v e="$1" '$1 == e { print $2 }' <<<"$output"
}

@test "papi command-line counts software events over the built-in workload" {
	run --separate-stderr -0 papi command-line perf::TASK-CLOCK perf::PAGE-FAULTS
	[ "${#lines[@]}" -eq 2 ]
	local t p
	t=$(count_of perf::TASK-CLOCK) p=$(count_of perf::PAGE-FAULTS)
	[ "$t" -gt 0 ]
	# the workload touches 2048 fresh pages
	[ "$p" -ge 1000 ]
}

@test "papi command-line -- CMD counts the command and its children, page faults grow with touched memory" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	run -0 papi command-line perf::PAGE-FAULTS -- sh -c "python3 -c 'x = 1'; :"
	local small big
	small=$(count_of perf::PAGE-FAULTS)
	# a child of sh writes 64 MiB (16384 pages) in user space, which the
	# default domain counts (a buffer the kernel fills faults in the kernel's)
	run -0 papi command-line perf::PAGE-FAULTS,perf::TASK-CLOCK -- sh -c "python3 -c 'x = b\"x\" * (64 << 20)'; :"
	big=$(count_of perf::PAGE-FAULTS)
	[ "$big" -gt $((small + 8000)) ]
	[ "$(count_of perf::TASK-CLOCK)" -gt 0 ]
}

@test "papi command-line passes the command's exit status on; 127 not found, 126 not executable" {
	run -3 papi command-line perf::TASK-CLOCK -- sh -c 'exit 3'
	run --separate-stderr -127 papi command-line perf::TASK-CLOCK -- no-such-command-here
	[[ "$stderr" == *"no-such-command-here"* ]]
	printf 'not a program\n' >notexec
	chmod 644 notexec
	run --separate-stderr -126 papi command-line perf::TASK-CLOCK -- ./notexec
	[[ "$stderr" == *"notexec"* ]]
}

@test "papi command-line: an event that cannot be added is named with the reason, the others are counted, exit 1" {
	run --separate-stderr -1 papi command-line perf::TASK-CLOCK perf::NO_SUCH_EVENT perf::PAGE-FAULTS
	[[ "$stderr" == *"cannot add perf::NO_SUCH_EVENT: "* ]]
	[ "$(count_of perf::TASK-CLOCK)" -gt 0 ]
	[ "$(count_of perf::PAGE-FAULTS)" -ge 1000 ]
	[ "$(count_of perf::NO_SUCH_EVENT)" = "<not" ]
	run --separate-stderr -1 papi command-line perf::TASK-CLOCK:bogus=1 perf::TASK-CLOCK -- true
	[[ "$stderr" == *"perf::TASK-CLOCK:bogus=1"* ]]
	[ "$(count_of perf::TASK-CLOCK)" -gt 0 ]
	# the command's own failure comes first
	run --separate-stderr -3 papi command-line perf::NO_SUCH_EVENT,perf::TASK-CLOCK -- sh -c 'exit 3'
	# none of them: nothing runs
	run --separate-stderr -1 papi command-line perf::NO_SUCH_EVENT -- touch ran
	[[ "$stderr" == *"none of the events can be counted here"* ]]
	[ ! -e ran ]
}

@test "papi command-line --json: an event not added has a null count and the reason" {
	command -v jq >/dev/null || skip "jq is not installed"
	run --separate-stderr -1 papi command-line --json perf::NO_SUCH_EVENT perf::TASK-CLOCK -- true
	[ -n "$output" ]	# (jq -e passes on no input)
	jq -e '.events[0].count == null and (.events[0].reason | length > 0)' <<<"$output"
	jq -e '.events[1].name == "perf::TASK-CLOCK" and .events[1].count > 0' <<<"$output"
}

@test "papi command-line -- CMD without events is a usage error that says so" {
	run --separate-stderr -2 papi command-line -- true
	[[ "$stderr" == *"no event given for 'true'"* ]]
	[[ "$stderr" != *"cannot add"* ]]
	run --separate-stderr -2 papi command-line -u -- true
	[[ "$stderr" == *"no event given"* ]]
}

@test "papi command-line: a hardware event on a kernel without a PMU says so" {
	[ ! -e /sys/bus/event_source/devices/cpu ] || skip "this kernel has a hardware PMU"
	run --separate-stderr -1 papi command-line perf::CYCLES
	[[ "$stderr" == *"cannot add perf::CYCLES: "*"PMU"* ]]
}

@test "papi command-line --json and -x" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi command-line --json perf::TASK-CLOCK -- true
	[ "$(jq -r '.events[0].name' <<<"$output")" = perf::TASK-CLOCK ]
	[ "$(jq '.events[0].count' <<<"$output")" -gt 0 ]
	[ "$(jq '.exit_status' <<<"$output")" -eq 0 ]
	run -0 papi command-line perf::TASK-CLOCK -x
	[[ "$output" =~ ^perf::TASK-CLOCK\ +0x[0-9a-f]+$ ]]
}

@test "papi_command_line takes the classic space-separated events" {
	run -0 run_as papi_command_line perf::TASK-CLOCK perf::PAGE-FAULTS
	[[ "$output" =~ $'\n'perf::TASK-CLOCK\ :\ $'\t'[0-9]+\ $'\n' ]]
	[[ "$output" =~ $'\n'perf::PAGE-FAULTS\ :\ $'\t'[0-9]+\ $'\n' ]]
}

@test "papi_command_line prints PAPI 7's lines: added, failed and why, counts, -u, -x" {
	# an event that fails is said so, and PAPI's tool passes all the same
	run -0 run_as papi_command_line perf::TASK-CLOCK perf::NO_SUCH_EVENT
	[ "${lines[0]}" = "This utility lets you add events from the command line interface to see if they work." ]
	[ "${lines[1]}" = "Successfully added: perf::TASK-CLOCK" ]
	[ "${lines[2]}" = "Failed adding: perf::NO_SUCH_EVENT" ]
	[[ "${lines[3]}" == "because: "?* ]]
	[[ "${lines[4]}" =~ ^perf::TASK-CLOCK\ :\ $'\t'[0-9]+\ $ ]]
	[ "${lines[5]}" = "----------------------------------" ]
	[ "${#lines[@]}" -eq 6 ]
	run -0 run_as papi_command_line -u -x perf::TASK-CLOCK
	[[ "${lines[2]}" =~ ^perf::TASK-CLOCK\ :\ $'\t'[0-9]+\(u\)$ ]]
	[[ "${lines[3]}" =~ ^perf::TASK-CLOCK\ :\ $'\t'0X[0-9A-F]+$ ]]
	# no events: PAPI's hint, and it passes
	run -0 run_as papi_command_line
	[[ "$output" == *"No events specified!"*"papi_command_line PAPI_TOT_CYC"* ]]
	# none added, or a word that is no option of PAPI's tool: an event that fails
	run -0 run_as papi_command_line --bogus
	[ "${lines[1]}" = "Failed adding: --bogus" ]
	[[ "$output" == *"No events specified!"* ]]
}

@test "papi command-line: usage errors exit 2" {
	run -2 papi command-line
	run -2 papi command-line perf::TASK-CLOCK --
	run -2 papi command-line perf::TASK-CLOCK --bogus
}

@test "bash completion: command-line operands and native -e complete to the real binary's event names" {
	complete_real() {
		run bash -c '
			source "$PAPI_TOP/completions/bash/papi" || exit 3
			COMP_WORDS=("$@")
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
			COMPREPLY=()
			_papi || exit 4
			printf "%s\n" "${COMPREPLY[@]}"' complete "$@"
	}
	# bash hands "perf::TASK-C" over as perf, ::, TASK-C
	complete_real "$PAPI_BIN" command-line perf :: TASK-C
	[ "$output" = TASK-CLOCK ]
	complete_real "$PAPI_BIN" native -e perf :: PAGE-F
	[ "$output" = PAGE-FAULTS ]
	LIBPFM_FORCE_PMU=skx complete_real "$PAPI_BIN" command-line skx :: INST_RETIRED:AN
	[[ "$output" == *"ANY_P"* ]]
}

@test "papi command-line counts other components' events, each in an EventSet of its component" {
	[ -r /proc/self/io ] || skip "this kernel has no /proc/self/io"
	printf 'hello' >five
	# dd writes the five bytes one at a time: the command's own I/O, exactly
	run --separate-stderr -0 papi command-line io:::wchar io:::syscw perf::TASK-CLOCK -- \
		dd if=five of=/dev/null bs=1 status=none
	[ "$(count_of io:::wchar)" -eq 5 ]
	[ "$(count_of io:::syscw)" -eq 5 ]
	[ "$(count_of perf::TASK-CLOCK)" -gt 0 ]
	# the built-in workload does no I/O, and papi's own reads of /proc are left out
	run --separate-stderr -0 papi command-line io:::rchar io:::syscr
	[ "$(count_of io:::rchar)" -eq 0 ]
	[ "$(count_of io:::syscr)" -eq 0 ]
}

@test "papi command-line: appio cannot count a command, and says why" {
	run --separate-stderr -1 papi command-line appio:::READ_BYTES io:::rchar -- true
	# papi interposes no I/O call unless built with make APPIO=1; then appio
	# counts its own thread, not the command
	[[ "$stderr" == *"cannot add appio:::READ_BYTES: component appio: libpapi was built without I/O interposition: rebuild it with make APPIO=1"* ||
	   "$stderr" == *"cannot add appio:::READ_BYTES: component appio counts the thread that reads it"* ]]
	[ "$(count_of appio:::READ_BYTES)" = "<not" ]
	[ "$(count_of io:::rchar)" -ge 0 ]
}

@test "command-line with perf_event disabled says so, and counts the other components' events" {
	PAPI_DISABLE_COMPONENTS=perf_event run --separate-stderr papi command-line perf::TASK-CLOCK io:::rchar
	[ "$status" -eq 1 ]	# an event could not be added
	[[ "$stderr" == *"cannot add perf::TASK-CLOCK: "*"component perf_event is disabled (Disabled by PAPI_DISABLE_COMPONENTS)"* ]]
	[[ "$stderr" != *"Event does not exist"* ]]
	[[ "$output" == *"io:::rchar"* ]]
}

@test "papi command-line: a mistyped event or qualifier gets the nearest names" {
	run --separate-stderr -1 papi command-line perf::TASK-CLOK perf::PAGE-FAULTS:uu
	[[ "$stderr" == *"cannot add perf::TASK-CLOK: "*"; did you mean perf::TASK-CLOCK?"* ]]
	[[ "$stderr" == *"cannot add perf::PAGE-FAULTS:uu: "*"; did you mean :u?"* ]]
}

@test "papi command-line: an event not added shows as <not supported>, as in papi stat" {
	run --separate-stderr -1 papi command-line perf::TASK-CLOCK perf::NO_SUCH_EVENT
	[[ "${lines[0]}" =~ ^perf::TASK-CLOCK\ +[0-9]+$ ]]
	[[ "${lines[1]}" =~ ^perf::NO_SUCH_EVENT\ +\<not\ supported\>$ ]]
	[[ "$output" != *"<not counted>"* ]]
}

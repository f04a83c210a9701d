#!/usr/bin/env bats
# chooser.bats: papi chooser, --groups, and the classic papi_event_chooser.
load helper

@test "papi chooser: software events that join perf::TASK-CLOCK, each countable for real" {
	run --separate-stderr -0 papi chooser perf::TASK-CLOCK
	[[ "$output" == *"perf::PAGE-FAULTS "* ]]
	[[ "$output" == *"perf::CONTEXT-SWITCHES "* ]]
	# the given event itself is not offered
	! grep -q '^perf::TASK-CLOCK ' <<<"$output"
	local total=${lines[-1]##*: }
	[ "${lines[-1]}" = "Total events reported: $total" ]
	[ "$total" -eq $(( ${#lines[@]} - 1 )) ]
	# every event it lists really counts together with the given one
	local ev
	for ev in $(sed '$d' <<<"$output" | awk '{print $1}' | head -5); do
		papi stat --strict -e perf::TASK-CLOCK,"$ev" true >/dev/null 2>&1 || { echo "$ev does not count"; false; }
	done
}

@test "papi chooser: the class word selects presets or natives and is optional" {
	run -0 papi chooser NATIVE perf::TASK-CLOCK
	! grep -q '^PAPI_' <<<"$(sed '$d' <<<"$output")"
	local nat=${lines[-1]##*: }
	run -0 papi chooser PRESET perf::TASK-CLOCK
	! grep -q '^perf::' <<<"$output"
	local pre=${lines[-1]##*: }
	run -0 papi chooser perf::TASK-CLOCK
	[ "${lines[-1]##*: }" -eq $((nat + pre)) ]
	run -0 papi chooser native perf::TASK-CLOCK
	[ "${lines[-1]##*: }" -eq "$nat" ]
}

@test "papi chooser -v says why the others cannot be added" {
	run -0 papi chooser -v NATIVE perf::TASK-CLOCK
	local why
	why=$(grep 'cannot be added:' <<<"$output" | head -1)
	if [ -z "$why" ]; then skip "every native event can be counted here"; fi
	[[ "$why" == *"cannot be added: "?* ]]
	# the reason does not repeat the event's name
	local ev=${why%% *}
	[[ "${why#*cannot be added: }" != "$ev: "* ]]
	# an event needing a unit mask is tried with each of its unit masks instead
	! grep -q 'needs a unit mask' <<<"$output"
	# without -v those lines are not there
	run -0 papi chooser NATIVE perf::TASK-CLOCK
	! grep -q 'cannot be added' <<<"$output"
}

@test "papi chooser --json: one document, listed events and count agree" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi chooser --json -v perf::TASK-CLOCK perf::PAGE-FAULTS
	echo "$output" | jq -e . >/dev/null
	[ "$(echo "$output" | jq -r '.given | join(",")')" = "perf::TASK-CLOCK,perf::PAGE-FAULTS" ]
	[ "$(echo "$output" | jq '[.events[] | select(.ok)] | length')" -eq "$(echo "$output" | jq .count)" ]
	[ "$(echo "$output" | jq '[.events[] | select(.ok | not) | select(.reason | length == 0)] | length')" -eq 0 ]
	[ "$(echo "$output" | jq -r '.count | type')" = number ]
}

@test "papi chooser --groups: software events fit in one set usable by papi stat" {
	run --separate-stderr -0 papi chooser --groups perf::TASK-CLOCK perf::PAGE-FAULTS perf::CONTEXT-SWITCHES
	[ "${#lines[@]}" -eq 1 ]
	[ "${lines[0]}" = "-e '{perf::TASK-CLOCK,perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES}'" ]
	# the line pastes into a shell as papi stat's group of three
	run --separate-stderr -0 eval "papi stat -x, ${lines[0]} true"
	[ "$(grep -c ',event,perf::' <<<"$stderr")" -eq 3 ]
	# the class word is accepted (and ignored) here too
	run -0 papi chooser --groups NATIVE perf::TASK-CLOCK perf::PAGE-FAULTS
	[ "$output" = "-e '{perf::TASK-CLOCK,perf::PAGE-FAULTS}'" ]
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi chooser --groups --json perf::TASK-CLOCK perf::PAGE-FAULTS
	[ "$(echo "$output" | jq -c .groups)" = '[["perf::TASK-CLOCK","perf::PAGE-FAULTS"]]' ]
}

@test "papi chooser --groups: events of other components join one set, as papi stat counts it" {
	has_command stat || skip "papi stat is not built"
	run --separate-stderr -0 papi chooser --groups perf::TASK-CLOCK io:::rchar net:::lo:rx:bytes
	[ "${#lines[@]}" -eq 1 ]
	[ "${lines[0]}" = "-e '{perf::TASK-CLOCK,io:::rchar,net:::lo:rx:bytes}'" ]
	# papi stat counts that one group: every event, none refused
	run --separate-stderr -0 eval "papi stat -x, ${lines[0]} cat /etc/passwd"
	[ "$(grep -c ',event,\(perf::TASK-CLOCK\|io:::rchar\|net:::lo:rx:bytes\),' <<<"$stderr")" -eq 3 ]
	[[ "$stderr" != *"not supported"* && "$stderr" != *"not counted"* ]]
	# two events of each of two components: still one set, each in order
	run --separate-stderr -0 papi chooser --groups perf::TASK-CLOCK io:::rchar perf::PAGE-FAULTS io:::wchar
	[ "$output" = "-e '{perf::TASK-CLOCK,io:::rchar,perf::PAGE-FAULTS,io:::wchar}'" ]
}

@test "papi chooser --groups: a duplicate is a usage error naming it" {
	run --separate-stderr -2 papi chooser --groups perf::TASK-CLOCK perf::PAGE-FAULTS perf::TASK-CLOCK
	[ "${stderr_lines[0]}" = "papi chooser: event 'perf::TASK-CLOCK' is given twice" ]
	[ -z "$output" ]
}

@test "papi chooser: unknown events exit 1, an uncountable one exits 1 with the reason" {
	run --separate-stderr -1 papi chooser NO_SUCH_EVENT
	[ "$stderr" = "papi chooser: NO_SUCH_EVENT: unknown event" ]
	run --separate-stderr -1 papi chooser --groups perf::TASK-CLOCK NO_SUCH_EVENT
	[ "$stderr" = "papi chooser: NO_SUCH_EVENT: unknown event" ]
	if papi stat --strict -e PAPI_TOT_CYC true >/dev/null 2>&1; then skip "PAPI_TOT_CYC counts here"; fi
	run --separate-stderr -1 papi chooser PAPI_TOT_CYC
	[[ "$stderr" == "papi chooser: cannot count the given events: "*PAPI_TOT_CYC* ]]
}

@test "papi chooser: no event or a bad option is a usage error" {
	run --separate-stderr -2 papi chooser
	[ "${stderr_lines[0]}" = "papi chooser: no event given" ]
	run --separate-stderr -2 papi chooser PRESET
	[ "${stderr_lines[0]}" = "papi chooser: no event given" ]
	run --separate-stderr -2 papi chooser --bogus perf::TASK-CLOCK
	[ "${stderr_lines[1]}" = "Try 'papi chooser --help'." ]
}

@test "papi_event_chooser accepts PAPI's positional form" {
	run -0 run_as papi_event_chooser NATIVE perf::TASK-CLOCK
	[[ "$output" == *"perf::PAGE-FAULTS "* ]]
	run -0 run_as papi_event_chooser PRESET perf::TASK-CLOCK
	[[ "${lines[-1]}" == "Total events reported: "* ]]
}

@test "papi chooser > /dev/full fails with a message, exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 bash -c '"$PAPI_BIN" chooser perf::TASK-CLOCK > /dev/full'
	[ "$output" = "papi chooser: write error: No space left on device" ]
	run -1 bash -c '"$PAPI_BIN" chooser --groups --json perf::TASK-CLOCK > /dev/full'
	[ "$output" = "papi chooser: write error: No space left on device" ]
}

@test "papi chooser: a mistyped event gets the nearest names" {
	run --separate-stderr -1 papi chooser perf::TASK-CLOCK perf::PAGE-FAULT
	[[ "$stderr" == "papi chooser: perf::PAGE-FAULT: "*"; did you mean perf::PAGE-FAULTS?" ]]
}

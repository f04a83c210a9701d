#!/usr/bin/env bats
# cost.bats: papi cost and its classic name papi_cost.
load helper

ops="start/stop read read_ts accum reset"

@test "papi cost: every operation in cycles and nsec, with the event it counted" {
	run --separate-stderr -0 papi cost -t 300
	[[ "${lines[0]}" == "Cost of PAPI calls over 300 iterations, counting "* ]]
	if papi stat -e PAPI_TOT_CYC true >/dev/null 2>&1; then
		[[ "${lines[0]}" == *"counting PAPI_TOT_CYC" ]]
	else
		[[ "${lines[0]}" == *"counting perf::TASK-CLOCK" ]]
	fi
	local op
	for op in $ops; do
		grep -q "^$op *cycles min [0-9]* *max [0-9]* *mean [0-9.]* *std [0-9.]*$" <<<"$output"
	done
	[ "$(grep -c '^ *nsec *min' <<<"$output")" -eq 5 ]
	! grep -q percentiles <<<"$output"
	[ -z "$stderr" ]
}

@test "papi cost -p -s -d: percentiles, std-dev buckets and a histogram" {
	run -0 papi cost -t 200 -p -s -d -b 4
	[ "$(grep -c 'percentiles:.*25th.*50th.*99th' <<<"$output")" -eq 10 ]
	[ "$(grep -c 'within std:  1x' <<<"$output")" -eq 10 ]
}

@test "papi cost --json: consistent statistics, histogram of BINS bins summing to the iterations" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi cost --json -t 250 -d -b 7 -s
	echo "$output" | jq -e . >/dev/null
	[ "$(echo "$output" | jq .iterations)" -eq 250 ]
	[ "$(echo "$output" | jq -r '[.operations[].operation] | join(" ")')" = "$ops" ]
	echo "$output" | jq -e 'all(.operations[]; all(.cycles, .nsec;
		.min <= .mean and .mean <= .max and .std >= 0 and .min > 0 and
		.percentiles["25"] <= .percentiles["50"] and .percentiles["50"] <= .percentiles["99"] and
		(.histogram | length) == 7 and (.histogram | add) == 250 and
		.within_std[3] <= 250 and .within_std[0] <= .within_std[3]))' >/dev/null
}

@test "papi cost -e: the given events, repeatable and comma-separated" {
	run -0 papi cost -t 50 -e perf::TASK-CLOCK -e perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES
	[[ "${lines[0]}" == *"counting perf::TASK-CLOCK,perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES" ]]
	run --separate-stderr -1 papi cost -t 50 -e NO_SUCH_EVENT
	[ "$stderr" = "papi cost: unknown event 'NO_SUCH_EVENT'" ]
}

@test "papi cost: zero or negative bins or iterations exit 2 with a message" {
	local a
	for a in "-b 0" "-b -4" "-t 0" "-t -1" "-t x" "-b 1.5"; do
		run --separate-stderr -2 papi cost $a
		[[ "${stderr_lines[0]}" == "papi cost: "* ]]
		[ "${stderr_lines[1]}" = "Try 'papi cost --help'." ]
		[ -z "$output" ]
	done
	run --separate-stderr -2 papi cost extra
	[ "${stderr_lines[0]}" = "papi cost: unexpected argument 'extra'" ]
}

@test "papi_cost takes PAPI's options" {
	run -0 run_as papi_cost -t 100 -s -p
	[[ "$output" == *"within std"* ]]
}

@test "papi cost > /dev/full fails with a message, exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 bash -c '"$PAPI_BIN" cost -t 20 > /dev/full'
	[ "$output" = "papi cost: write error: No space left on device" ]
	run -1 bash -c '"$PAPI_BIN" cost -t 20 --json > /dev/full'
	[ "$output" = "papi cost: write error: No space left on device" ]
}

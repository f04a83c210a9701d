#!/usr/bin/env bats
# cost.bats: papi cost and its classic name papi_cost.
load helper

ops="start/stop read read_ts accum reset"

@test "papi cost: every operation in cycles and nsec, with the event it counted" {
	run --separate-stderr -0 papi cost -t 300
	[[ "${lines[0]}" == "Cost of PAPI calls over 300 iterations, counting "* ]]
	if papi stat --strict -e PAPI_TOT_CYC true >/dev/null 2>&1; then
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

@test "papi cost -p -s -d: percentiles, samples above mean + k std, a labelled histogram" {
	run -0 papi cost -t 200 -p -s -d -b 4
	[ "$(grep -c 'percentiles:.*25th.*50th.*99th' <<<"$output")" -eq 10 ]
	[ "$(grep -c 'above mean+k\*std:  1x [0-9]*  2x .* 10x [0-9]*$' <<<"$output")" -eq 10 ]
	# each histogram has a header naming its columns, and rows: from, to, samples, share, bar
	[ "$(grep -c '^ *cycles histogram: *from *to *samples *share$' <<<"$output")" -eq 5 ]
	[ "$(grep -c '^ *nsec histogram: *from *to *samples *share$' <<<"$output")" -eq 5 ]
	local rows
	rows=$(grep -cE '^ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+%  #+$' <<<"$output")
	[ "$rows" -ge 10 ] && [ "$rows" -le 40 ]
}

@test "papi cost --json: consistent statistics, histogram of at most BINS bins summing to the iterations" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi cost --json -t 250 -d -b 7 -s
	echo "$output" | jq -e . >/dev/null
	[ "$(echo "$output" | jq .iterations)" -eq 250 ]
	[ "$(echo "$output" | jq -r '[.operations[].operation] | join(" ")')" = "$ops" ]
	echo "$output" | jq -e 'all(.operations[]; all(.cycles, .nsec;
		.min <= .mean and .mean <= .max and .std >= 0 and .min > 0 and
		.percentiles["25"] <= .percentiles["50"] and .percentiles["50"] <= .percentiles["99"] and
		(.histogram | length) <= 7 and ([.histogram[].count] | add) == 250 and
		.histogram[0].from == .min and .histogram[-1].to == .max and
		(.histogram as $h | all(range(1; $h | length); $h[.].from == $h[. - 1].to + 1)) and
		(.above_mean_plus_std | length) == 10 and .above_mean_plus_std[0] < 250 and
		.above_mean_plus_std[9] <= .above_mean_plus_std[0]))' >/dev/null
}

@test "papi cost -e: the given events, repeatable and comma-separated" {
	run -0 papi cost -t 50 -e perf::TASK-CLOCK -e perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES
	[[ "${lines[0]}" == *"counting perf::TASK-CLOCK,perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES" ]]
	run --separate-stderr -1 papi cost -t 50 -e NO_SUCH_EVENT
	[ "$stderr" = "papi cost: NO_SUCH_EVENT: unknown event" ]
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
	[[ "$output" == *"above mean+k*std:"* ]]
}

@test "papi cost > /dev/full fails with a message, exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 bash -c '"$PAPI_BIN" cost -t 20 > /dev/full'
	[ "$output" = "papi cost: write error: No space left on device" ]
	run -1 bash -c '"$PAPI_BIN" cost -t 20 --json > /dev/full'
	[ "$output" = "papi cost: write error: No space left on device" ]
}

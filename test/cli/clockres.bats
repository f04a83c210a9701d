#!/usr/bin/env bats
# clockres.bats: papi clockres and its classic name papi_clockres.
load helper

@test "papi clockres: a row per timer with a positive resolution for the real timers" {
	run --separate-stderr -0 papi clockres -t 2000
	[ "${lines[0]%% *}" = Timer ]
	local t
	for t in real_cyc real_usec real_nsec virt_cyc virt_usec virt_nsec; do
		[[ "$output" == *"PAPI_get_$t "* ]]
	done
	# real nsec over 2000 calls must have stepped: a number, not "> ..."
	[[ "$(grep '^PAPI_get_real_nsec' <<<"$output" | awk '{print $3}')" =~ ^[0-9]+$ ]]
	[ -z "$stderr" ]
}

@test "papi clockres --json is valid with six timers and numbers as numbers" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi clockres --json -t 3000
	echo "$output" | jq -e . >/dev/null
	[ "$(echo "$output" | jq '.timers | length')" -eq 6 ]
	[ "$(echo "$output" | jq .iterations)" -eq 3000 ]
	[ "$(echo "$output" | jq -r '.timers[] | select(.timer=="PAPI_get_real_nsec") | .resolution | type')" = number ]
	[ "$(echo "$output" | jq '[.timers[] | select(.latency < 0)] | length')" -eq 0 ]
	# the cycle counter's resolution cannot exceed the cost of a call by much
	echo "$output" | jq -e '.timers[0].resolution >= 1' >/dev/null
}

@test "papi_clockres runs under its classic name" {
	run -0 run_as papi_clockres -t 500
	[[ "$output" == *PAPI_get_virt_usec* ]]
}

@test "papi clockres: bad iterations, operands and options exit 2" {
	run --separate-stderr -2 papi clockres -t 0
	[[ "$stderr" == *"papi clockres:"* ]]
	run --separate-stderr -2 papi clockres -t -5
	[[ "$stderr" == *"papi clockres:"* ]]
	run --separate-stderr -2 papi clockres -t abc
	run --separate-stderr -2 papi clockres extra
	[ "${stderr_lines[0]}" = "papi clockres: unexpected argument 'extra'" ]
	run --separate-stderr -2 papi clockres --bogus
	[ -z "$output" ]
}

@test "papi clockres > /dev/full fails with a message, exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 bash -c '"$PAPI_BIN" clockres -t 100 > /dev/full'
	[ "$output" = "papi clockres: write error: No space left on device" ]
	run -1 bash -c '"$PAPI_BIN" clockres -t 100 --json > /dev/full'
	[ "$output" = "papi clockres: write error: No space left on device" ]
}

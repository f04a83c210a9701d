#!/usr/bin/env bats
# avail.bats: papi avail lists presets and user events, says why nothing counts on a machine without a PMU.

setup() {
	papi=${PAPI_BIN:-$BATS_TEST_DIRNAME/../../build/papi}
	tmp=$(mktemp -d)
	unset LIBPFM_FORCE_PMU PAPI_CSV_EVENT_FILE PAPI_USER_EVENTS_FILE
}

teardown() {
	rm -rf "$tmp"
}

has_hw_pmu() {
	[ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ] ||
		ls -d /sys/bus/event_source/devices/armv8* >/dev/null 2>&1
}

@test "avail: table header, every preset, closing line" {
	run "$papi" avail
	[ "$status" -eq 0 ]
	[[ "$output" == *"    Name        Code    Avail Deriv Description (Note)"* ]]
	[[ "$output" == *"PAPI_TOT_CYC 0x8000003b"* ]]
	[ "$(echo "$output" | grep -c '^PAPI_[A-Z0-9_]* *0x8000')" -eq 108 ]
	echo "$output" | grep -Eq '^Of 108 possible events, [0-9]+ are available, of which [0-9]+ are derived\.$'
}

@test "avail: without a hardware PMU it says so and lists none as available" {
	has_hw_pmu && skip "this machine has a hardware PMU"
	run "$papi" avail
	[ "$status" -eq 0 ]
	[[ "$output" == *"Of 108 possible events, 0 are available"* ]]
	[[ "$output" == *"No hardware PMU is exposed"* ]]
	run "$papi" avail -a --names
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "avail: LIBPFM_FORCE_PMU=skx -a lists skx presets, each resolving to skx natives" {
	LIBPFM_FORCE_PMU=skx run "$papi" avail -a --names
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | wc -l)" -ge 30 ]
	for ev in $output; do
		LIBPFM_FORCE_PMU=skx run "$papi" avail -e "$ev"
		[ "$status" -eq 0 ]
		[[ "$output" == *"Native Code[0]: 0x4"*"|skx::"* ]]
		[[ "$output" == *"Available here:               yes"* ]]
	done
}

@test "avail: category filters select by category" {
	LIBPFM_FORCE_PMU=skx run "$papi" avail --br --names
	[ "$status" -eq 0 ]
	[ -n "$output" ]
	echo "$output" | grep -qx PAPI_BR_MSP
	! echo "$output" | grep -qx PAPI_L1_DCM
	LIBPFM_FORCE_PMU=skx run "$papi" avail --tlb --names
	echo "$output" | grep -qx PAPI_TLB_DM
	! echo "$output" | grep -qx PAPI_BR_MSP
}

@test "avail: user-defined events have their own section and can be described" {
	printf 'EVENT,MY_FAULTS,DERIVED_ADD,perf::MINOR-FAULTS,perf::MAJOR-FAULTS,NOTE,"mine"\n' > "$tmp/ue"
	PAPI_USER_EVENTS_FILE=$tmp/ue run "$papi" avail
	[ "$status" -eq 0 ]
	[[ "$output" == *"User Defined Events"* ]]
	echo "$output" | grep -Eq '^MY_FAULTS +0xc0000000  Yes   Yes .*\(mine\)$'
	PAPI_USER_EVENTS_FILE=$tmp/ue run "$papi" avail -e MY_FAULTS
	[ "$status" -eq 0 ]
	[[ "$output" == *"|DERIVED_ADD|"* ]]
	[[ "$output" == *"|perf::MINOR-FAULTS|"* ]]
	PAPI_USER_EVENTS_FILE=$tmp/ue run "$papi" avail -c --names
	[ "$output" = "MY_FAULTS" ]
}

@test "avail -e: a preset the table defines with native events this CPU lacks says which" {
	printf 'CPU,skx\nPRESET,PAPI_BR_INS,NOT_DERIVED,NO_SUCH_EVENT_X\nPRESET,PAPI_TOT_INS,NOT_DERIVED,INSTRUCTION_RETIRED\n' > "$tmp/t.csv"
	LIBPFM_FORCE_PMU=skx PAPI_CSV_EVENT_FILE="$tmp/t.csv" run "$papi" avail -e PAPI_BR_INS
	[ "$status" -eq 0 ]
	[[ "$output" == *"PAPI_BR_INS is not available here: this CPU's preset table defines it, but no native event NO_SUCH_EVENT_X on this CPU"* ]]
	[[ "$output" != *"does not define"* ]]
	# a preset the table has no row for
	LIBPFM_FORCE_PMU=skx PAPI_CSV_EVENT_FILE="$tmp/t.csv" run "$papi" avail -e PAPI_L1_DCM
	[ "$status" -eq 0 ]
	[[ "$output" == *"PAPI_L1_DCM is not available here: this CPU's preset table does not define it"* ]]
}

@test "avail: -e of a native event and of an unknown one" {
	run "$papi" avail -e perf::TASK-CLOCK
	[ "$status" -eq 0 ]
	[[ "$output" == *"perf::TASK-CLOCK"* ]]
	run "$papi" avail -e NO_SUCH_EVENT_X
	[ "$status" -eq 1 ]
	[[ "$output" == *"papi avail: NO_SUCH_EVENT_X: unknown event" ]]
}

@test "avail: --json is one document with the counts" {
	command -v python3 >/dev/null || skip "python3 is needed to check JSON"
	LIBPFM_FORCE_PMU=skx run "$papi" avail --json
	[ "$status" -eq 0 ]
	echo "$output" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["total"]==108; assert d["available"]==sum(e["available"] for e in d["presets"]); assert d["available"]>0'
}

@test "avail: PAPI 7.2's walks: the CPU's 108 presets in code order, then no component's" {
	command -v jq >/dev/null || skip "jq is needed to check JSON"
	LIBPFM_FORCE_PMU=skx run "$papi" avail --json
	[ "$status" -eq 0 ]
	# the preset codes PAPI 7 numbers 0x80000000 to 0x8000006b, each once, in order
	[ "$(jq -c '[.presets[].code]' <<<"$output")" = "$(jq -c -n '[range(0; 108) | . + 2147483648]')" ]
	[ "$(jq -c .component_presets <<<"$output")" = "[]" ]
	LIBPFM_FORCE_PMU=skx run "$papi" avail
	[ "$status" -eq 0 ]
	[[ "$output" != *"PAPI Component Preset Events"* ]]
	[[ "$output" == *"PAPI Preset Events"* ]]
}

@test "avail: usage errors exit 2" {
	run "$papi" avail --no-such-option
	[ "$status" -eq 2 ]
	run "$papi" avail extra
	[ "$status" -eq 2 ]
	run "$papi" avail --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--cache"* ]]
}

@test "avail: LIBPFM_FORCE_PMU=nosuch is called a PMU libpfm4 does not know" {
	LIBPFM_FORCE_PMU=nosuch run --separate-stderr "$papi" avail
	[ "$status" -eq 0 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "papi avail: LIBPFM_FORCE_PMU=nosuch: libpfm4 knows no PMU of that name; unset it, or name a core PMU libpfm4 knows ("* ]]
	[[ "$output" != *"availability means the events resolve"* ]]
	[[ "$output" == *"No preset can be available: LIBPFM_FORCE_PMU=nosuch: libpfm4 knows no PMU of that name."* ]]
	# a PMU it knows draws no such line
	LIBPFM_FORCE_PMU=skx run --separate-stderr "$papi" avail
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "avail -e: a mistyped name gets the nearest ones" {
	run --separate-stderr "$papi" avail -e PAPI_TOT_ISN
	[ "$status" -eq 1 ]
	[[ "$stderr" == "papi avail: PAPI_TOT_ISN: "*"; did you mean PAPI_TOT_INS?" ]]
}

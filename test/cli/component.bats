#!/usr/bin/env bats
# component.bats: papi component and its classic name papi_component_avail.
load helper

@test "papi component lists perf_event as active with its native events and PMUs" {
	run --separate-stderr -0 papi component
	[[ "$output" == *"perf_event: "* ]]
	[[ "$output" == *"active:   yes"* ]]
	[[ "$output" =~ events:\ +([0-9]+)\ native ]]
	[ "${BASH_REMATCH[1]}" -gt 0 ]
	[[ "$output" =~ perf\ +perf_events\ generic\ PMU\ +in\ this\ kernel ]]
}

@test "papi component: a PMU the kernel lacks comes with the reason and the fix" {
	[ ! -e /sys/bus/event_source/devices/cpu ] || skip "this kernel has a hardware PMU"
	run -0 papi component
	[[ "$output" == *"not in this kernel"* ]]
	[[ "$output" == *"no hardware PMU driver"*"enable the virtual PMU"* ]]
}

@test "papi component: with no core PMU listed, the reason still has its line (text and JSON)" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi component --json
	local listed
	listed=$(jq '[.components[0].pmus[] | select(.name != "perf" and .name != "perf_raw")] | length' <<<"$output")
	[ "$listed" -eq 0 ] || skip "libpfm4 knows this CPU's PMU"
	[[ "$(jq -r '.components[0].core_pmu_problem' <<<"$output")" == *"libpfm4 does not know this CPU"* ]]
	run -0 papi component
	[[ "$output" == *"core PMU: none: libpfm4 does not know this CPU"* ]]
}

@test "papi component honours PAPI_DISABLE_COMPONENTS and says how to undo it" {
	PAPI_DISABLE_COMPONENTS=perf_event run -0 papi component
	[[ "$output" == *"perf_event: "*$'\n'"  disabled: "*"PAPI_DISABLE_COMPONENTS"* ]]
	[[ "$output" == *"fix:      unset PAPI_DISABLE_COMPONENTS"* ]]
	[[ "$output" != *"active:   yes ("* ]]
	PAPI_DISABLE_COMPONENTS=io,perf_event run -0 papi component
	[[ "$output" == *"io: "*$'\n'"  disabled: Disabled by PAPI_DISABLE_COMPONENTS"* ]]
}

@test "papi component lists io with its events and what it counts" {
	[ -r /proc/self/io ] || skip "this kernel has no /proc/self/io"
	run -0 papi component
	[[ "$output" == *$'\n'"io: I/O of this process"*$'\n'"  active:   yes"$'\n'"  events:   7 native"* ]]
	[[ "$output" == *"counts:   the process that reads it"* ]]
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi component --json
	[ "$(jq -r '.components[] | select(.name == "io") | .native_events' <<<"$output")" -eq 7 ]
	[ "$(jq -r '.components[] | select(.name == "io") | .active' <<<"$output")" = true ]
	# every component has the same keys
	[ "$(jq '[.components[] | keys] | unique | length' <<<"$output")" -eq 1 ]
	[ "$(jq '.components | length' <<<"$output")" -eq "$(jq '[.components[].index] | max + 1' <<<"$output")" ]
}

@test "papi component --json: components with PMUs and kernel presence" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi component --json
	[ "$(jq -r '.components[0].name' <<<"$output")" = perf_event ]
	[ "$(jq -r '.components[0].active' <<<"$output")" = true ]
	[ "$(jq -r '.components[0].pmus[] | select(.name == "perf") | .in_kernel' <<<"$output")" = true ]
	[ "$(jq .perf_event_paranoid <<<"$output")" -eq "$(cat /proc/sys/kernel/perf_event_paranoid)" ]
	PAPI_DISABLE_COMPONENTS=perf_event run -0 papi component --json
	[ "$(jq -r '.components[0].active' <<<"$output")" = false ]
	[ "$(jq -r '.components[0].fix' <<<"$output")" != null ]
}

@test "papi_component_avail runs; bad usage exits 2" {
	run -0 run_as papi_component_avail
	[[ "$output" == *"perf_event"* ]]
	run -2 papi component extra
}

@test "papi component: powercap without RAPL zones says why and no empty fix (text and JSON)" {
	[ ! -e /sys/class/powercap/intel-rapl:0 ] || skip "this machine has RAPL zones"
	run -0 papi component
	[[ "$output" == *$'\n'"powercap: "*$'\n'"  disabled: No RAPL zones: /sys/class/powercap has no intel-rapl:*"* ]]
	[[ "$output" != *"see the reason"* ]]
	[[ "$(sed -n '/^powercap:/,/^$/p' <<<"$output")" != *"fix:"* ]]
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi component --json
	[ "$(jq -r '.components[] | select(.name == "powercap") | .active' <<<"$output")" = false ]
	[ "$(jq -r '.components[] | select(.name == "powercap") | .fix' <<<"$output")" = null ]
}

@test "papi component points at papi native -i perf_event_uncore:::, which lists its events" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi component --json
	local n
	n=$(jq -r '.components[] | select(.name == "perf_event_uncore" and .active) | .native_events' <<<"$output")
	[ -n "$n" ] || skip "perf_event_uncore is disabled here (no uncore or other non-core PMU)"
	run -0 papi component
	[[ "$output" == *"perf_event_uncore: "*"events:   $n native (papi native -i perf_event_uncore:::)"* ]]
	run --separate-stderr -0 papi native --names -i perf_event_uncore:::
	[ "${#lines[@]}" -eq "$n" ]
	[[ "${lines[0]}" == *::* && "${lines[0]}" != *:::* ]]	# listed as PMU::EVENT
}

@test "papi component lists perf_event_uncore's PMUs, whose events add up to its own" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi component --json
	local c
	c=$(jq -c '.components[] | select(.name == "perf_event_uncore" and .active)' <<<"$output")
	[ -n "$c" ] || skip "perf_event_uncore is disabled here (no uncore or other non-core PMU)"
	[ "$(jq '.pmus | length > 0' <<<"$c")" = true ]
	[ "$(jq '[.pmus[].native_events] | add' <<<"$c")" = "$(jq .native_events <<<"$c")" ]
	local name
	for name in $(jq -r '.pmus[].name' <<<"$c"); do
		[ -d "/sys/bus/event_source/devices/$name" ]	# a PMU of this kernel
		[ "$(jq -r --arg n "$name" '.pmus[] | select(.name == $n) | .cpumask' <<<"$c")" = \
			"$([ -e "/sys/bus/event_source/devices/$name/cpumask" ] && echo true || echo false)" ]
	done
	run -0 papi component
	name=$(jq -r '.pmus[0].name' <<<"$c")
	[[ "$output" == *"perf_event_uncore: "*"  PMUs:"*"    $name "*"named by "*"CPU"* ]]
}

@test "papi component: perf_event is partially disabled where perf stat counts no hardware event (PAPI 7.2)" {
	command -v perf >/dev/null || skip "perf is not installed"
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 perf stat -x, -e instructions -- true
	[[ "$output" == *"<not supported>,,instructions"* ]] || skip "perf stat counts instructions here"
	# as papi_component_avail says it, under the active line, with or without -d
	local opt
	for opt in "" -d; do
		run -0 papi component $opt
		[[ "$output" == *$'\n'"perf_event: "*$'\n'"  active:   yes "*$'\n'"  partially disabled: "*"software events"* ]]
		[ "$(grep -c 'partially disabled:' <<<"$output")" = 1 ]
	done
	run -0 papi component -d --json
	[ "$(jq -r '.components[0].detail.partially_disabled' <<<"$output")" = true ]
	[ "$(jq -r '.components[] | select(.name == "io") | .detail.partially_disabled' <<<"$output")" = false ]
}

@test "papi component: uncore's reason names every PMU the kernel has, each whole" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi component --json
	local why want
	why=$(jq -r '.components[] | select(.name == "perf_event_uncore") | .disabled_reason' <<<"$output")
	[[ "$why" == *"the kernel has only "* ]] || skip "perf_event_uncore is not disabled for want of uncore PMUs"
	# sysfs is the oracle: the kernel's PMUs, every one, in full
	want=$(ls /sys/bus/event_source/devices | sort | paste -sd, | sed 's/,/, /g')
	[ "$(sed 's/.*the kernel has only //' <<<"$why" | tr -d '\n' | tr ',' '\n' | sed 's/^ //' | sort | paste -sd, | sed 's/,/, /g')" = "$want" ]
	run -0 papi component
	[[ "$output" == *"perf_event_uncore: "*$'\n'"  disabled: No uncore PMUs or events found"*"the kernel has only "* ]]
	[[ "$output" == *"$why"* ]]
	run --separate-stderr papi native -i uncore
	[[ "$stderr" == *"$why" ]]
}

#!/usr/bin/env bats
# stat-messages.bats: papi stat's messages: numbers out of range, long event names, the report's heading.

load helper

@test "stat -r: a number too large for any integer is out of range, not 'not a number'" {
	run -2 papi stat -r 99999999999999999999 true
	[[ "$output" == *"-r: 99999999999999999999 is out of range (1 to 100000)"* ]]
	[[ "$output" != *"not a number"* ]]
	run -2 papi stat -r -99999999999999999999 true
	[[ "$output" == *"out of range"* ]]
	run -2 papi stat --timeout 99999999999999999999 true
	[[ "$output" == *"--timeout: 99999999999999999999 is out of range"* ]]
	run -2 papi stat -r 12x true
	[[ "$output" == *"-r: '12x' is not a number"* ]]
}

@test "stat: an error about a 100 kB event name shows the start of it, not all of it" {
	long=$(head -c 100000 /dev/zero | tr '\0' A)
	run -1 --separate-stderr papi stat -e "$long" true
	[ "${#stderr}" -lt 400 ]
	[[ "$stderr" == *"papi stat: AAAA"*"... (100000 bytes): "* ]]
	run -1 --separate-stderr papi stat -e "perf::$long" true
	[ "${#stderr}" -lt 400 ]
	[[ "$stderr" == *"perf::AAAA"* ]]
	run -2 --separate-stderr papi stat -r "1$long" true
	[ "${#stderr}" -lt 400 ]
}

@test "stat -p/-t: the heading lists the targets as a sentence" {
	sleep 30 &
	A=$!
	sleep 30 &
	B=$!
	sleep 30 &
	C=$!
	run papi stat -p "$A,$B" -t "$C" --timeout 100 -e perf::TASK-CLOCK
	[ "$status" -eq 0 ]
	[[ "$output" == *"Counts of processes $A and $B, and thread $C:"* ]]
	run papi stat -p "$A" --timeout 50 -e perf::TASK-CLOCK
	[[ "$output" == *"Counts of process $A:"* ]]
	run papi stat -p "$A,$B,$C" --timeout 50 -e perf::TASK-CLOCK
	kill "$A" "$B" "$C"
	[[ "$output" == *"Counts of processes $A, $B and $C:"* ]]
}

@test "README: the papi stat synopsis names each option's value as --help does" {
	help=$(papi stat --help)
	n=0
	while read -r opt arg; do
		n=$((n + 1))
		case "$opt" in
		--*) want="$opt=$arg([^A-Z]|\$)" ;;
		*) want="$opt, --[a-z-]+=$arg([^A-Z]|\$)" ;;
		esac
		grep -qE -- "$want" <<< "$help" || {
			echo "README: $opt $arg; --help: $(grep -- "$opt" <<< "$help")"
			false
		}
	done < <(sed -n '/^### papi stat/,/^[A-Z]/{/^    /p}' "$PAPI_TOP/README.md" | grep -oE -- '-(-[a-z-]+|[a-zA-Z]) [A-Z][A-Z,.[]*' | sed 's/\[.*//; s/,$//')
	[ "$n" -ge 5 ]
}

@test "papi stat: an event of a PMU nobody has names the PMU, what the kernel has, and why" {
	[ ! -e /sys/bus/event_source/devices/power ] || skip "this kernel has the power PMU"
	run --separate-stderr -1 papi stat -e power::energy-pkg true
	# perf_event_uncore names the PMUs the kernel has, or (no PMU of its
	# kind here) is disabled and says why
	[[ "$stderr" == *"papi stat: power::energy-pkg: "*"no PMU called power here"*"/sys/bus/event_source/devices"*"RAPL"* ]] ||
		[[ "$stderr" == *"papi stat: power::energy-pkg: "*"power is no PMU of libpfm4's, and component perf_event_uncore"*"is disabled: No uncore PMUs"* ]]
	run --separate-stderr -1 papi stat -e nosuch_pmu/event=0x1/ true
	[[ "$stderr" == *"no PMU called nosuch_pmu"* ]] || [[ "$stderr" == *"nosuch_pmu"*"disabled"* ]]
	# the component off: the message says so
	PAPI_DISABLE_COMPONENTS=perf_event_uncore run --separate-stderr -1 papi stat -e power::energy-pkg true
	[[ "$stderr" == *"power is no PMU of libpfm4's, and component perf_event_uncore"*"is disabled: Disabled by PAPI_DISABLE_COMPONENTS"* ]]
	# a PMU libpfm4 has is not called missing
	run --separate-stderr -1 papi stat -e perf::NO_SUCH_EVENT true
	[[ "$stderr" != *"no PMU called"* ]]
}

@test "stat -e perf::CYCLES: a generic event's reason is the missing driver, not libpfm4's CPU" {
	[ ! -e /sys/bus/event_source/devices/cpu ] || skip "this kernel has a hardware PMU"
	command -v jq >/dev/null || skip "jq is not installed"
	# hide from libpfm4 every PMU it knows here but its generic one: it
	# then knows no PMU of this CPU, as on a CPU newer than it
	local hide
	hide=$(papi component --json | jq -r '[.components[0].pmus[].name | select(. != "perf" and . != "perf_raw")] | join(",")')
	export LIBPFM_DISABLED_PMUS=$hide
	run -0 papi component --json
	[[ "$(jq -r '.components[0].core_pmu_problem' <<<"$output")" == "libpfm4 does not know this CPU"* ]]
	run --separate-stderr -0 papi stat -e perf::CYCLES,perf::L1-DCACHE-LOADS true
	[[ "$stderr" == *"<not supported> perf::CYCLES"* ]]
	[[ "$stderr" == *"Not supported: perf::CYCLES, perf::L1-DCACHE-LOADS:"$'\n'"   no hardware PMU driver: this kernel exposes only software events"* ]]
	[[ "$stderr" != *"libpfm4"* ]]
	# as in the library's own reason
	run --separate-stderr -1 papi command-line perf::CYCLES
	[[ "$output$stderr" == *"no hardware PMU driver"* ]]
	[[ "$output$stderr" != *"libpfm4 does not know"* ]]
}

@test "stat --rep: an abbreviation of two options is ambiguous, naming both" {
	run -2 --separate-stderr papi stat --rep x.json
	[ "${stderr_lines[0]}" = "papi stat: option '--rep' is ambiguous: it may be --repeat, --report" ]
	run -2 --separate-stderr papi stat --rep=3 true
	[ "${stderr_lines[0]}" = "papi stat: option '--rep' is ambiguous: it may be --repeat, --report" ]
	# one option's abbreviation still works; a word of none is unknown
	run -0 --separate-stderr papi stat --repea=2 -e perf::TASK-CLOCK true
	[[ "$stderr" == *"(2 of 2 runs, "* ]]
	run -2 --separate-stderr papi stat --repx true
	[ "${stderr_lines[0]}" = "papi stat: unknown option '--repx'" ]
	# every command parses alike
	run -2 --separate-stderr papi avail --c
	[[ "${stderr_lines[0]}" == "papi avail: option '--c' is ambiguous: it may be --"*", --"* ]]
}

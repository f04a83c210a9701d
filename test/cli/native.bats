#!/usr/bin/env bats
# native.bats: papi native and its classic name papi_native_avail.
load helper

@test "papi native lists the kernel's software events under the perf PMU header" {
	run --separate-stderr -0 papi native
	[[ "$output" == *"== PMU perf:"* ]]
	[[ "$output" == *"perf::TASK-CLOCK"* ]]
	[[ "$output" == *"perf::PAGE-FAULTS"* ]]
	[[ "${lines[-1]}" =~ ^[0-9]+\ native\ events$ ]]
}

@test "papi native -c marks events this kernel cannot count, with the reason" {
	run --separate-stderr -0 papi native -c
	[[ "${lines[-1]}" =~ ^([0-9]+)\ native\ events,\ ([0-9]+)\ cannot ]]
	local total=${BASH_REMATCH[1]} bad=${BASH_REMATCH[2]}
	[ "$bad" -lt "$total" ]
	# task-clock counts on any kernel
	run -0 papi native -c -i TASK-CLOCK
	[[ "$output" != *"cannot count here"* ]]
	if [ ! -e /sys/bus/event_source/devices/cpu ]; then
		[ "$bad" -gt 0 ]
		run -0 papi native -c -i CPU-CYCLES
		[[ "$output" == *"[cannot count here]"* ]]
		[[ "$output" == *"why: "*"PMU"* ]]
	fi
}

@test "papi native -i / -x filter by name" {
	run -0 papi native --names -i CLOCK
	[ "${#lines[@]}" -gt 0 ]
	local l
	for l in "${lines[@]}"; do [[ "$l" == *CLOCK* ]]; done
	run -0 papi native --names -i CLOCK -x TASK
	for l in "${lines[@]}"; do [[ "$l" == *CLOCK* && "$l" != *TASK* ]]; done
}

@test "papi native -i / -x that match nothing fail and say so" {
	run --separate-stderr -1 papi native -i ÄÖ
	[ "$stderr" = "papi native: no event name contains 'ÄÖ'" ]
	run --separate-stderr -1 papi native --names -i CLOCK -x CLOCK
	[[ "$stderr" == *"no event name contains 'CLOCK' without 'CLOCK'"* ]]
	command -v jq >/dev/null || skip "jq is not installed"
	run --separate-stderr -1 papi native --json -i NO-SUCH-THING
	[ "$(jq .events <<<"$output")" -eq 0 ]
}

@test "papi native -e EVENT describes one event" {
	run -0 papi native -e perf::TASK-CLOCK
	[[ "$output" == *"Event name:     perf::TASK-CLOCK"* ]]
	[[ "$output" == *"PMU:            perf (perf_events generic PMU)"* ]]
	[[ "$output" == *"Countable here: yes"* ]]
	[[ "$output" == *"qualifier  :u "* ]]
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi native -j -e perf::TASK-CLOCK
	[ "$(jq -r .pmu <<<"$output")" = perf ]
}

@test "papi native -e with an unknown event fails naming it" {
	run --separate-stderr -1 papi native -e perf::NO_SUCH_EVENT
	[[ "$stderr" == *"NO_SUCH_EVENT"* ]]
}

@test "papi native -e EVENT::: blames the qualifiers, not a component" {
	LIBPFM_FORCE_PMU=skx run --separate-stderr -1 papi native -e skx::INST_RETIRED:ANY_P:::
	[[ "$stderr" == *"skx::INST_RETIRED:ANY_P:::: ':::' after the event name: a qualifier is ':NAME'"* ]]
	[[ "$stderr" != *component\ \"* ]]
}

@test "papi native --names lists EVENT:UMASK forms under a forced PMU" {
	LIBPFM_FORCE_PMU=skx run -0 papi native --names
	[[ "$output" == *$'\n'"skx::INST_RETIRED"$'\n'* ]]
	[[ "$output" == *"skx::INST_RETIRED:ANY_P"* ]]
	# every line is one name: no spaces anywhere
	[[ "$output" != *" "* ]]
}

@test "papi native --names -e EVENT lists what may follow EVENT:" {
	run -0 papi native --names -e perf::task-clock
	grep -qx perf::task-clock:u <<<"$output"
	grep -qx perf::task-clock:period= <<<"$output"
	LIBPFM_FORCE_PMU=skx run -0 papi native --names -e skx::INST_RETIRED
	grep -qx skx::INST_RETIRED:ANY_P <<<"$output"
	grep -qx skx::INST_RETIRED:c= <<<"$output"
}

@test "papi native --json is one document with PMUs and events" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi native --json
	local n
	n=$(jq '[.pmus[].events[]] | length' <<<"$output")
	[ "$n" -gt 0 ]
	n=$((n + $(jq '[.components[].events[]] | length' <<<"$output")))
	[ "$n" -eq "$(jq .events <<<"$output")" ]
	[ "$(jq -r '.pmus[] | select(.pmu == "perf") | .countable' <<<"$output")" = true ]
}

@test "papi native lists each other component's events under its own heading" {
	[ -r /proc/self/io ] || skip "this kernel has no /proc/self/io"
	run --separate-stderr -0 papi native
	[[ "$output" == *"== Component io: I/O of this process"*$'\n\n'"io:::rchar"$'\n'"    Bytes"*"(bytes)"* ]]
	run -0 papi native --names -x appio -i io:::
	[ "${#lines[@]}" -eq 7 ]
	[ "${lines[0]}" = io:::rchar ]
	[ "${lines[6]}" = io:::cancelled_write_bytes ]
	run -0 papi native -c -x appio -i io:::
	[[ "$output" == *"7 native events, 0 cannot be counted here"* ]]
	PAPI_DISABLE_COMPONENTS=io run -0 papi native
	[[ "$output" == *"== Component io: "*$'\n'"   disabled: Disabled by PAPI_DISABLE_COMPONENTS"* ]]
	[[ "$output" != *"io:::rchar"* ]]
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi native --json
	[ "$(jq -r '.components[] | select(.component == "io") | .events[0].units' <<<"$output")" = bytes ]
}

@test "papi native -e describes another component's event" {
	[ -r /proc/self/io ] || skip "this kernel has no /proc/self/io"
	run -0 papi native -e io:::wchar
	[[ "$output" == *"Event name:     io:::wchar"* ]]
	[[ "$output" == *"Component:      io (I/O of this process"* ]]
	[[ "$output" == *"Units:          bytes"* ]]
	[[ "$output" == *"Countable here: yes"* ]]
	run --separate-stderr -1 papi native -e io:::nosuch
	[[ "$stderr" == *"unknown event: component io has none of that name"* ]]
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi native -j -e io:::syscr
	[ "$(jq -r .component <<<"$output")" = io ]
	[ "$(jq -r .units <<<"$output")" = calls ]
}

@test "papi native > /dev/full fails with a message" {
	run --separate-stderr -1 bash -c "'$PAPI_BIN' native > /dev/full"
	[[ "$stderr" == *"write error"* ]]
}

@test "papi_native_avail accepts the classic -c, -e, -i and --noumasks" {
	run -0 run_as papi_native_avail -i TASK-CLOCK --noumasks
	[[ "$output" == *"perf::TASK-CLOCK"* ]]
	run -0 run_as papi_native_avail -e perf::PAGE-FAULTS
	[[ "$output" == *"perf::PAGE-FAULTS"* ]]
}

@test "papi native: unknown option and stray argument are usage errors" {
	run -2 papi native --bogus
	run -2 papi native extra
}

@test "papi native -i a disabled component's prefix says it is disabled and why" {
	PAPI_DISABLE_COMPONENTS=stealtime run --separate-stderr -1 papi native -i stealtime:::
	[[ "$stderr" == *"papi native: no event name contains 'stealtime:::': component stealtime is disabled: Disabled by PAPI_DISABLE_COMPONENTS"* ]]
	PAPI_DISABLE_COMPONENTS=io run --separate-stderr -1 papi native -i io:::rchar
	[[ "$stderr" == *"component io is disabled"* ]]
	run --separate-stderr -1 papi native -i io:::nosuch
	[[ "$stderr" != *"disabled"* ]]
}

@test "papi native: LIBPFM_FORCE_PMU=nosuch is called a PMU libpfm4 does not know" {
	LIBPFM_FORCE_PMU=nosuch run --separate-stderr -0 papi native -i io:::
	[[ "$stderr" == "papi native: LIBPFM_FORCE_PMU=nosuch: libpfm4 knows no PMU of that name; unset it"* ]]
	[[ "$output" == *"io:::"* ]]
}

@test "papi native -e: a mistyped name or qualifier gets the nearest ones" {
	run --separate-stderr -1 papi native -e perf::TASK-CLOK
	[[ "$stderr" == "papi native: perf::TASK-CLOK: "*"; did you mean perf::TASK-CLOCK?" ]]
	# without the PMU: compared with the event part of the names
	run --separate-stderr -1 papi native -e task-clok
	[[ "$stderr" == *"; did you mean perf::TASK-CLOCK?" ]]
	run --separate-stderr -1 papi native -e PAPI_TOT_INSS
	[[ "$stderr" == *"; did you mean PAPI_TOT_INS?" ]]
	run --separate-stderr -1 papi native -e perf::TASK-CLOCK:uu
	[[ "$stderr" == *"; did you mean :u?" ]]
	run --separate-stderr -1 papi native -e perf::TASK-CLOCK:u:perod=1000
	[[ "$stderr" == *"; did you mean :period=?" ]]
	run --separate-stderr -1 papi native -e io:::read_byte
	[[ "$stderr" == *"; did you mean io:::read_bytes?" ]]
	# nothing near: no guess
	run --separate-stderr -1 papi native -e xyzzy_plugh
	[[ "$stderr" != *"did you mean"* ]]
	LIBPFM_FORCE_PMU=skx run --separate-stderr -1 papi native -e skx::INST_RETIRED:ANY_PP
	[[ "$stderr" == *"; did you mean :ANY_P?" ]]
	LIBPFM_FORCE_PMU=skx run --separate-stderr -1 papi native -e INST_RETIRD
	[[ "$stderr" == *"; did you mean skx::INST_RETIRED?" ]]
}

@test "one wording: an unknown event, a bad qualifier, the name said once" {
	local cmd
	for cmd in "native -e" "avail -e" "chooser" "cost -e" "command-line"; do
		# shellcheck disable=SC2086
		run --separate-stderr papi $cmd NO_SUCH_EVENT_Q
		[[ "$stderr" == *"NO_SUCH_EVENT_Q: unknown event"* ]] || { echo "$cmd: $stderr"; false; }
		# shellcheck disable=SC2086
		run --separate-stderr papi $cmd PAPI_TOT_CYQ
		[[ "$stderr" == *"PAPI_TOT_CYQ: unknown event"* ]] || { echo "$cmd: $stderr"; false; }
		# shellcheck disable=SC2086
		run --separate-stderr papi $cmd perf::TASK-CLOCK:nosuchqual
		[[ "$stderr" == *"perf::TASK-CLOCK:nosuchqual: bad qualifier: "* ]] || { echo "$cmd: $stderr"; false; }
		# shellcheck disable=SC2086
		run --separate-stderr papi $cmd perf::TASK-CLOCK:period=x
		[[ "$stderr" == *"perf::TASK-CLOCK:period=x: bad qualifier: "* ]] || { echo "$cmd: $stderr"; false; }
		[ "$(grep -o 'period=x' <<<"$stderr" | wc -l)" -eq 1 ] || { echo "$cmd: $stderr"; false; }
	done
	# papi stat says it alike (it used to call a bad qualifier an unknown event)
	run --separate-stderr -1 papi stat -e NO_SUCH_EVENT_Q true
	[[ "$stderr" == "papi stat: NO_SUCH_EVENT_Q: unknown event"* ]] || { echo "$stderr"; false; }
	run --separate-stderr -1 papi stat -e perf::TASK-CLOCK:nosuchqual true
	[[ "$stderr" == "papi stat: perf::TASK-CLOCK:nosuchqual: bad qualifier: "* ]] || { echo "$stderr"; false; }
	[ "$(grep -o nosuchqual <<<"$stderr" | wc -l)" -eq 1 ] || { echo "$stderr"; false; }
	# a reason that names the event is not prefixed with it again
	if papi stat --strict -e PAPI_TOT_CYC true >/dev/null 2>&1; then skip "PAPI_TOT_CYC counts here"; fi
	run --separate-stderr -1 papi chooser --groups perf::TASK-CLOCK PAPI_TOT_CYC
	[[ "$stderr" == "papi chooser: cannot count PAPI_TOT_CYC: "* ]]
	[ "$(grep -o PAPI_TOT_CYC <<<"$stderr" | wc -l)" -eq 1 ] || { echo "$stderr"; false; }
}

@test "papi native describes perf:: software events in plain words, looked up or listed" {
	run -0 papi native -e perf::TASK-CLOCK
	[[ "$output" == *"Description:    Task clock, the CPU time of the counted task, in ns"* ]]
	run -0 papi native -e perf::PERF_COUNT_SW_PAGE_FAULTS_MIN:u
	[[ "$output" == *"Description:    Minor page faults, those resolved without reading from disk, masks:monitor at user level"* ]]
	run -0 papi native -i perf::
	grep -A1 -x 'perf::TASK-CLOCK' <<<"$output" | grep -qx '    Task clock, the CPU time of the counted task, in ns'
	grep -A1 -x 'perf::CPU-MIGRATIONS' <<<"$output" | grep -q 'moved to another CPU'
	[[ "$output" != *$'\n'"    PERF_COUNT_SW_TASK_CLOCK"$'\n'* ]]
}

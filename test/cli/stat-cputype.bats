#!/usr/bin/env bats
# stat-cputype.bats: papi stat --cputype, which keeps the presets to one core type of a hybrid CPU.
load helper

# The kernel's core PMUs: "cpu", or those with a cpus file (a hybrid's
# cpu_core and cpu_atom, ARM's armv8_* PMUs), as libpapi finds them.
core_pmus() {
	local d n=0
	for d in /sys/bus/event_source/devices/*; do
		[ -e "$d/cpus" ] || [ "${d##*/}" = cpu ] && n=$((n + 1))
	done
	echo "$n"
}

@test "--cputype on a CPU that is no hybrid: a failure that says why, nothing run" {
	[ "$(core_pmus)" -lt 2 ] || skip "this CPU is a hybrid"
	run --separate-stderr papi stat --cputype atom -e perf::TASK-CLOCK touch ran
	[ "$status" -eq 1 ]
	[ ! -e ran ]
	grep -Eq '^papi stat: --cputype atom: (this CPU has one core type \(.*\): it is no hybrid|the kernel has no core PMU to count on)' <<<"$stderr"
}

@test "--cputype with a type this hybrid lacks names the ones it has" {
	[ "$(core_pmus)" -ge 2 ] || skip "this CPU is no hybrid (the simulated PMU tests cover one: t_sim_hybrid)"
	run --separate-stderr papi stat --cputype nosuch -e PAPI_TOT_INS true
	[ "$status" -eq 1 ]
	grep -q "^papi stat: --cputype nosuch: no core type 'nosuch' here: the core PMUs are " <<<"$stderr"
}

@test "--cputype: a command pinned to an E-core counts on atom, not on core" {
	local dev=/sys/bus/event_source/devices
	[ -e $dev/cpu_atom/cpus ] && [ -e $dev/cpu_core/cpus ] || skip "this CPU is no Intel hybrid (the simulated PMU tests cover one: t_sim_hybrid)"
	command -v taskset >/dev/null || skip "taskset is not installed"
	local e=$(cut -d, -f1 $dev/cpu_atom/cpus | cut -d- -f1)
	spin='i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done'
	run --separate-stderr taskset -c "$e" papi stat -j --cputype atom -e PAPI_TOT_INS sh -c "$spin"
	[ "$status" -eq 0 ]
	jq -e '.events[0].value > 1000000' <<<"$stderr"
	run --separate-stderr taskset -c "$e" papi stat -j --cputype core -e PAPI_TOT_INS sh -c "$spin"
	[ "$status" -eq 0 ]
	jq -e '(.events[0].value // 0) == 0' <<<"$stderr"
}

@test "--cputype goes with counting, not with --merge or --diff" {
	run --separate-stderr papi stat --cputype core --merge x
	[ "$status" -eq 2 ]
	grep -q -- "--merge reads files" <<<"$stderr"
	run --separate-stderr papi stat --cputype core --diff a.json b.json
	[ "$status" -eq 2 ]
	grep -q -- "--diff reads files" <<<"$stderr"
}

@test "--cputype is listed by --help and --list-opts, its value a CORETYPE" {
	run -0 papi stat --help
	grep -q -- "--cputype=CORETYPE" <<<"$output"
	run -0 papi stat --list-opts
	grep -qx -- $'--cputype\tCORETYPE' <<<"$output"
}

@test "--per-cputype on a CPU that is no hybrid: a failure that says why, nothing run" {
	[ "$(core_pmus)" -lt 2 ] || skip "this CPU is a hybrid"
	run --separate-stderr papi stat --per-cputype -e perf::TASK-CLOCK touch ran
	[ "$status" -eq 1 ]
	[ ! -e ran ]
	grep -Eq '^papi stat: --per-cputype: (this CPU has one core type \(.*\): it is no hybrid|the kernel has no core PMU to count on)' <<<"$stderr"
}

@test "--per-cputype shows every core type: not with --cputype, nor with another --per-*" {
	run --separate-stderr papi stat --per-cputype --cputype atom true
	[ "$status" -eq 2 ]
	grep -q -- "--per-cputype shows every core type: it cannot be used with --cputype" <<<"$stderr"
	run --separate-stderr papi stat --per-cputype --per-thread -t 1
	[ "$status" -eq 2 ]
	grep -q -- "one --per-\* at a time" <<<"$stderr"
	run --separate-stderr papi stat --per-cputype --merge x
	[ "$status" -eq 2 ]
	grep -q -- "--merge reads files" <<<"$stderr"
}

@test "--per-cputype: each core type's part of a preset, summing to its merged value" {
	[ "$(core_pmus)" -ge 2 ] || skip "this CPU is no hybrid (the simulated PMU tests cover one: t_sim_hybrid)"
	run --separate-stderr papi stat -j --per-cputype -e PAPI_TOT_INS,PAPI_TOT_CYC true
	[ "$status" -eq 0 ]
	jq -e '.per == "cputype" and (.rows | length) >= 2' <<<"$stderr"
	# each event's parts over the rows sum to the top-level (merged) value
	jq -e '[.events[] | .name as $n | .value as $v |
	        ([$r | .rows[].events[] | select(.name == $n) | .value] | add) == $v] | all' \
		--argjson r "$(jq -c . <<<"$stderr")" <<<"$stderr"
	run --separate-stderr papi stat --per-cputype -e PAPI_TOT_INS true
	[ "$status" -eq 0 ]
	grep -Eq '^all +[0-9,]+ +PAPI_TOT_INS' <<<"$stderr"
}

@test "--per-cputype is listed by --help and --list-opts" {
	run -0 papi stat --help
	grep -q -- "--per-cputype" <<<"$output"
	run -0 papi stat --list-opts
	grep -qx -- "--per-cputype" <<<"$output"
}

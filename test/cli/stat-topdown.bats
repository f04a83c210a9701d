#!/usr/bin/env bats
# stat-topdown.bats: papi stat --topdown and --td-level: this CPU's TOPDOWN (and TOPDOWN_L2) group picked, its metrics reported, and a clear failure where the CPU has none.
load helper

# A TOPDOWN group of one's own, on software events, whose metrics count here.
soft_topdown() {
	cat > td.groups <<'G'
GROUP,TOPDOWN,"a stand-in computed from software events"
EVENT,clk,perf::TASK-CLOCK
EVENT,pf,perf::PAGE-FAULTS
METRIC,frontend_bound,%,100 * pf / (pf + clk),"of the whole"
METRIC,retiring,%,100 * clk / (pf + clk),"of the whole"
G
	export PAPI_USER_GROUPS_FILE=$PWD/td.groups
}

@test "--topdown: a CPU without top-down metrics fails with status 1 and says which CPUs have them" {
	LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run --separate-stderr papi stat --topdown true
	[ "$status" -eq 1 ]
	grep -q '^papi stat: --topdown: no top-down metrics for this CPU (core PMU amd64_fam19h_zen3): group TOPDOWN is written for .*amd64_fam19h_zen4.*skx.*(papi groups --all TOPDOWN)$' <<<"$stderr"
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
	[ -z "$output" ]
}

@test "--topdown: without a core PMU libpfm4 knows, the same failure names none" {
	LIBPFM_FORCE_PMU=nowhere run --separate-stderr papi stat --td-level 1 true
	[ "$status" -eq 1 ]
	grep -Eq '^papi stat: --topdown: no top-down metrics for this CPU \((no core PMU found|core PMU [^)]+)\): group TOPDOWN is written for .*arm_n1' <<<"$stderr"
}

@test "--td-level 2: a CPU with level 1 only fails with status 1 and says so" {
	soft_topdown
	run --separate-stderr papi stat --td-level 2 true
	[ "$status" -eq 1 ]
	grep -q '^papi stat: --td-level 2: this CPU (.*) has top-down level 1 only: group TOPDOWN_L2 is written for ' <<<"$stderr"
}

@test "--topdown: the TOPDOWN group's metrics are computed and printed under its name" {
	soft_topdown
	run --separate-stderr papi stat --topdown true
	[ "$status" -eq 0 ]
	grep -q '^ TOPDOWN: a stand-in computed from software events$' <<<"$stderr"
	grep -Eq '^ +[0-9.]+ % +frontend_bound +# of the whole$' <<<"$stderr"
	grep -Eq '^ +[0-9.]+ % +retiring +# of the whole$' <<<"$stderr"
	# -g TOPDOWN as well: one group, printed once
	run --separate-stderr papi stat -g TOPDOWN --topdown true
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ TOPDOWN:' <<<"$stderr")" -eq 1 ]
}

@test "--topdown: the group of the CPU's generation, with the slots per cycle it says" {
	for pmu_width in skx:4 clx:4 hsw:4 icx:5 icl:5 spr:6; do
		pmu=${pmu_width%:*} w=${pmu_width#*:}
		LIBPFM_FORCE_PMU=$pmu run --separate-stderr papi stat --topdown true
		[ "$status" -eq 0 ] || { echo "$pmu: status $status"; false; }
		grep -q "^ TOPDOWN: Top-down level 1: where the issue slots went ($w a cycle" <<<"$stderr" ||
			{ echo "$pmu: $stderr"; false; }
		for m in frontend_bound bad_speculation backend_bound retiring; do
			grep -Eq "^ +<not computed> $m +# needs " <<<"$stderr" || { echo "$pmu: no $m"; false; }
		done
		! grep -q '^ TOPDOWN_L2' <<<"$stderr"
	done
}

@test "--td-level 2: level 1 and level 2 groups, on Intel with the split each generation has" {
	LIBPFM_FORCE_PMU=spr run --separate-stderr papi stat --td-level 2 true
	[ "$status" -eq 0 ]
	grep -q '^ TOPDOWN: ' <<<"$stderr"
	grep -q '^ TOPDOWN_L2: ' <<<"$stderr"
	for m in fetch_latency fetch_bandwidth branch_mispredicts machine_clears memory_bound core_bound \
		heavy_operations light_operations; do
		grep -Eq "^ +<not computed> $m " <<<"$stderr" || { echo "no $m"; false; }
	done
	LIBPFM_FORCE_PMU=skx run --separate-stderr papi stat --td-level 2 true
	[ "$status" -eq 0 ]
	grep -Eq '^ +<not computed> branch_mispredicts ' <<<"$stderr"
	! grep -q memory_bound <<<"$stderr"
}

@test "--topdown on Zen 4: five shares of 6 dispatch slots a cycle, the slot events named by the kernel's format" {
	LIBPFM_FORCE_PMU=amd64_fam19h_zen4 run --separate-stderr papi stat --topdown true
	[ "$status" -eq 0 ]
	grep -q '^ TOPDOWN: Top-down level 1 (pipeline utilization): where the dispatch slots went (6 a cycle)$' <<<"$stderr"
	for ev in 'cpu/event=0x1a0,umask=0x01/' 'cpu/event=0x1a0,umask=0x1e/' 'cpu/event=0x1a0,umask=0x60/' \
		'cpu/event=0xaa,umask=0x07/' CYCLES_NOT_IN_HALT RETIRED_OPS; do
		grep -Fq " $ev" <<<"$stderr" || { echo "no $ev"; false; }
	done
	for m in frontend_bound bad_speculation backend_bound retiring smt_contention; do
		grep -Eq "^ +<not computed> $m +# needs .*CYCLES_NOT_IN_HALT" <<<"$stderr" || { echo "no $m"; false; }
	done
	LIBPFM_FORCE_PMU=amd64_fam19h_zen4 run --separate-stderr papi stat --td-level 2 true
	[ "$status" -eq 1 ]
	grep -q '^papi stat: --td-level 2: this CPU (core PMU amd64_fam19h_zen4) has top-down level 1 only: ' <<<"$stderr"
}

@test "--td-level: 1 or 2; --topdown does not go with --diff or --merge" {
	run --separate-stderr papi stat --td-level 3 true
	[ "$status" -eq 2 ]
	grep -q -- '--td-level' <<<"$stderr"
	run --separate-stderr papi stat --td-level x true
	[ "$status" -eq 2 ]
	run --separate-stderr papi stat --topdown --diff a.json b.json
	[ "$status" -eq 2 ]
	run --separate-stderr papi stat --topdown --merge .
	[ "$status" -eq 2 ]
}

#!/usr/bin/env bats
# stat-groups.bats: papi stat -g GROUP: a group's events counted, its metrics computed from them (text, CSV, JSON, -r, -I), and the DEFAULT metrics beside the default events.
load helper

no_pmu() {
	[ -e /sys/bus/event_source/devices/cpu ] && skip "this machine has a hardware PMU"
	return 0
}

# A group of one's own whose metrics are exact functions of the counts.
my_groups() {
	cat > mine.groups <<'G'
GROUP,EXACT,"metrics a test can check exactly"
EVENT,pf,perf::PAGE-FAULTS
EVENT,clk,perf::TASK-CLOCK
METRIC,twice,,2 * pf,"twice the faults"
METRIC,clock_s,s,clk / 1e9,"the task clock in seconds"
METRIC,per_wall,1/s,pf / time,"faults per elapsed second"
G
	export PAPI_USER_GROUPS_FILE=$PWD/mine.groups
}

@test "-g: the group's events are counted and its metrics printed under its name" {
	run --separate-stderr papi stat -g PAGE_FAULTS true
	[ "$status" -eq 0 ]
	for e in perf::TASK-CLOCK perf::PAGE-FAULTS perf::MINOR-FAULTS perf::MAJOR-FAULTS; do
		grep -Eq " $e(:u)?( |\$)" <<<"$stderr" || { echo "no $e"; false; }
	done
	grep -q '^ PAGE_FAULTS: Page faults per second, minor and major$' <<<"$stderr"
	grep -Eq '^ +[0-9.]+ K?/s +page_fault_rate +# of CPU time$' <<<"$stderr"
	grep -Eq 'major_fault_rate' <<<"$stderr"
	# the default events are not added
	! grep -q CONTEXT-SWITCHES <<<"$stderr"
}

@test "-g: metrics are exact functions of the counts, in JSON, per run and their statistics" {
	my_groups
	run --separate-stderr papi stat -j -r 3 -g EXACT sh -c 'ls / >/dev/null'
	[ "$status" -eq 0 ]
	j=$stderr
	# per run: twice = 2 * the faults of that run, so the statistics match too
	jq -e '([.events[] | select(.name == "perf::PAGE-FAULTS") | .values[]] | map(2 * .)) as $w
	       | (.metrics[] | select(.name == "twice")) as $m
	       | $m.min == ($w | min) and $m.max == ($w | max) and $m.runs == 3 and $m.group == "EXACT"' <<<"$j"
	# (the time's mean is rounded to the nanosecond, the metric's is not)
	jq -e '(.events[] | select(.name == "perf::TASK-CLOCK") | .mean) as $c
	       | (.metrics[] | select(.name == "clock_s") | .value) as $v
	       | ($v - $c / 1e9 | fabs) <= 1e-9 * ($c / 1e9) + 0.5e-9 + 1e-12' <<<"$j"
	jq -e '.metrics[] | select(.name == "clock_s") | .unit == "s" and .formula == "clk / 1e9"' <<<"$j"
	# pf / time: time is each run's elapsed seconds
	jq -e '([.events[] | select(.name == "perf::PAGE-FAULTS") | .values[]]) as $pf
	       | ([.elapsed.values[]]) as $t
	       | ([range(0; 3) | $pf[.] / $t[.]] | add / 3) as $want
	       | (.metrics[] | select(.name == "per_wall") | .value) as $got
	       | (($got - $want) | fabs) <= 1e-6 * $want' <<<"$j"
}

@test "-g: CSV metric rows name their group" {
	my_groups
	run --separate-stderr papi stat -x, -g EXACT true
	[ "$status" -eq 0 ]
	pf=$(grep '^,event,perf::PAGE-FAULTS,' <<<"$stderr" | cut -d, -f4)
	grep -q "^,metric,twice,$((2 * pf)),,1,,.*,group EXACT,,\$" <<<"$stderr"
}

@test "-g with -I: each interval's metrics from its own counts and length" {
	my_groups
	run --separate-stderr papi stat -j -I 40 -g EXACT sh -c 'ls / >/dev/null; sleep 0.15'
	[ "$status" -eq 0 ]
	jq -e '.intervals | length >= 3' <<<"$stderr"
	# twice = 2 * that interval's faults; clock_s = its task clock in seconds
	jq -e '(.events | map(.name) | index("perf::PAGE-FAULTS")) as $p
	       | (.events | map(.name) | index("perf::TASK-CLOCK")) as $c
	       | all(.intervals[]; .metrics.twice == 2 * .values[$p]
	             and ((.metrics.clock_s - .values[$c] / 1e9) | fabs) < 1e-12)' <<<"$stderr"
	run --separate-stderr papi stat -I 40 -g EXACT sleep 0.1
	grep -Eq '^ +[0-9]+\.[0-9]{3} +[0-9]+\.000 +twice$' <<<"$stderr"
	run --separate-stderr papi stat -x, -I 40 -g EXACT sleep 0.1
	grep -q '^[0-9.]*,interval_metric,twice,[0-9]*,,.*,group EXACT,,$' <<<"$stderr"
}

@test "-g: a group this machine cannot compute is counted as far as it goes, and says why" {
	no_pmu
	run --separate-stderr papi stat -g BRANCH,CPU_UTIL true
	[ "$status" -eq 0 ]
	grep -q '<not supported> PAPI_BR_INS' <<<"$stderr"
	# every input it lacks is named, each once
	grep -Eq '^ +<not computed> branch_miss_ratio +# needs PAPI_BR_MSP, PAPI_BR_INS$' <<<"$stderr"
	grep -Eq '^ +[0-9.]+ CPUs +cpu_utilization' <<<"$stderr"
	run --separate-stderr papi stat -j -g BRANCH true
	jq -e '.metrics[] | select(.name == "branch_miss_ratio") | .value == null and
		.needs == "PAPI_BR_MSP, PAPI_BR_INS"' <<<"$stderr"
	run --separate-stderr papi stat -x, -g BRANCH true
	grep -q '^,metric,branch_miss_ratio,.*,"group BRANCH: needs PAPI_BR_MSP, PAPI_BR_INS",,$' <<<"$stderr"
}

@test "-g: unknown groups, empty names and another CPU's group are refused before the command runs" {
	run papi stat -g NO_SUCH touch ran
	[ "$status" -eq 1 ]
	[ "$output" = "papi stat: unknown metric group 'NO_SUCH': see 'papi groups'" ]
	[ ! -e ran ]
	run papi stat -g STALLS true
	[ "$status" -eq 1 ]
	[[ "$output" == *"it is written for other CPUs only (papi groups --all)"* ]]
	run papi stat -g CPU_UTIL, true
	[ "$status" -eq 2 ]
	[[ "$output" == *"empty group name in '-g CPU_UTIL,'"* ]]
}

@test "-g and -e: an event named by both is counted once" {
	run --separate-stderr papi stat -e perf::PAGE-FAULTS -g PAGE_FAULTS -j true
	[ "$status" -eq 0 ]
	jq -e '[.events[] | select(.name == "perf::PAGE-FAULTS")] | length == 1' <<<"$stderr"
	jq -e '.events[0].name == "perf::PAGE-FAULTS"' <<<"$stderr"
}

@test "DEFAULT: the metrics beside the default events, wherever their events are counted" {
	run --separate-stderr papi stat true
	[ "$status" -eq 0 ]
	grep -Eq 'perf::TASK-CLOCK(:u)? +# [0-9.]+ CPUs utilized$' <<<"$stderr"
	grep -Eq 'perf::PAGE-FAULTS(:u)? +# [0-9.]+ K?/s of CPU time$' <<<"$stderr"
	# any event of the group, spelled any way, :u or not
	run --separate-stderr papi stat -e perf::task-clock:u,perf::FAULTS true
	grep -Eq 'perf::task-clock:u +# [0-9.]+ CPUs utilized$' <<<"$stderr"
	grep -Eq 'perf::FAULTS(:u)? +# [0-9.]+ K?/s of CPU time$' <<<"$stderr"
	run --separate-stderr papi stat -j -e perf::PAGE-FAULTS,perf::TASK-CLOCK true
	jq -e '[.metrics[].name] == ["cpu_utilization", "page_fault_rate"]' <<<"$stderr"
	jq -e '.metrics[0].group == "DEFAULT"' <<<"$stderr"
	# with a group of the same metric name, the group's is the one shown
	run --separate-stderr papi stat -j -g CPU_UTIL true
	jq -e '[.metrics[] | select(.name == "cpu_utilization")] | length == 1 and .[0].group == "CPU_UTIL"' <<<"$stderr"
}

@test "DEFAULT from PAPI_USER_GROUPS_FILE replaces the built-in one" {
	cat > d.groups <<'G'
GROUP,DEFAULT,"mine"
EVENT,pf,perf::PAGE-FAULTS
METRIC,faults_x3,,3 * pf,"three times the faults"
G
	PAPI_USER_GROUPS_FILE=$PWD/d.groups run --separate-stderr papi stat -j -e perf::PAGE-FAULTS,perf::TASK-CLOCK true
	[ "$status" -eq 0 ]
	jq -e '[.metrics[].name] == ["faults_x3"]' <<<"$stderr"
	jq -e '(.events[0].value * 3) == .metrics[0].value' <<<"$stderr"
}

#!/usr/bin/env bats
# groups.bats: papi groups lists the metric groups, whether each can be computed here and why not; decode -g and encode round-trip the group files.
load helper

no_pmu() {
	[ -e /sys/bus/event_source/devices/cpu ] && skip "this machine has a hardware PMU"
	return 0
}

@test "groups: a table with every built-in group, then why some cannot be computed" {
	no_pmu
	run papi groups
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *GROUP*HERE*METRICS*DESCRIPTION* ]]
	for g in DEFAULT CPU_UTIL PAGE_FAULTS CONTEXT_SWITCHES CPI BRANCH L2CACHE FLOPS_DP MEM ENERGY; do
		echo "$output" | grep -q "^ $g " || { echo "missing $g"; false; }
	done
	# software groups count here; hardware ones say why not
	echo "$output" | grep -q '^ PAGE_FAULTS  *yes '
	echo "$output" | grep -q '^ BRANCH  *no '
	echo "$output" | grep -q '^ DEFAULT  *partly '
	[[ "$output" == *"Not computable here"* ]]
	[[ "$output" == *"no hardware PMU driver"* ]]
	[[ "$output" == *"component powercap: "* ]]
	[[ "${lines[-1]}" == *" groups, 3 can be computed here."* ]]
}

@test "groups GROUP: its events, the alternative counted here, its metrics and formulas" {
	run papi groups page_faults
	[ "$status" -eq 0 ]
	[[ "$output" == *"PAGE_FAULTS: Page faults per second"* ]]
	[[ "$output" == *"events/generic.groups:"*"for every machine; computable here (4 of 4 metrics)"* ]]
	echo "$output" | grep -q 'clock  *perf::TASK-CLOCK|perf::CPU-CLOCK  *counts perf::TASK-CLOCK'
	echo "$output" | grep -q 'major_fault_rate  *1/s  *major / clock \* 1e9'
	no_pmu
	run papi groups BRANCH
	[ "$status" -eq 0 ]
	[[ "$output" == *"not computable here (0 of 4 metrics)"* ]]
	[[ "$output" == *"not available: "*"no hardware PMU driver"* ]]
	[[ "$output" == *"branches per instruction (needs br)"* ]]
}

@test "groups: an unknown group, and one written for another CPU, fail with the reason" {
	run papi groups NO_SUCH
	[ "$status" -eq 1 ]
	[ "$output" = "papi groups: NO_SUCH: no such group (papi groups lists them)" ]
	run papi groups STALLS
	[ "$status" -eq 1 ]
	[[ "$output" == *"STALLS: written for other CPUs only (papi groups --all lists them)"* ]]
	run papi groups --all
	[ "$status" -eq 0 ]
	echo "$output" | grep -q '^ STALLS  *-  .*(for arm_n1, arm_n2, arm_v1, arm_v2)$'
}

@test "groups: a CPU's own file replaces the generic group (LIBPFM_FORCE_PMU)" {
	LIBPFM_FORCE_PMU=skx run papi groups FLOPS_DP
	[ "$status" -eq 0 ]
	[[ "$output" == *"events/intel.groups:"*"for skl, skx, clx, icl, icx, spr"* ]]
	[[ "$output" == *"FP_ARITH_INST_RETIRED:512B_PACKED_DOUBLE"* ]]
	[[ "$output" == *"dp_vectorization_ratio"* ]]
	LIBPFM_FORCE_PMU=hsw run papi groups FLOPS_DP
	[[ "$output" == *"events/generic.groups:"* ]]
}

@test "groups --json: one document, each group with its events, metrics and reasons" {
	run papi groups --json
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.groups | length >= 20'
	echo "$output" | jq -e '.groups[] | select(.name == "PAGE_FAULTS") | .computable == "yes"'
	echo "$output" | jq -e '.groups[] | select(.name == "PAGE_FAULTS") | .events[0].counted == "perf::TASK-CLOCK"'
	echo "$output" | jq -e '.groups[] | select(.name == "CPI") | .metrics[] | select(.name == "ipc") | .formula == "ins / cyc"'
	echo "$output" | jq -e '.problems == []'
	run papi groups --json CPU_UTIL
	echo "$output" | jq -e '.groups | length == 1'
}

@test "groups -a and --names: only what can be computed; names one a line" {
	run papi groups -a --names
	[ "$status" -eq 0 ]
	for n in CPU_UTIL PAGE_FAULTS CONTEXT_SWITCHES; do
		echo "$output" | grep -qx "$n"
	done
	no_pmu
	[ "${#lines[@]}" -eq 3 ]
	run papi groups --names --json
	[ "$status" -eq 2 ]
}

@test "groups: PAPI_USER_GROUPS_FILE adds groups and replaces built-in ones; its problems are named" {
	cat > mine.groups <<'G'
GROUP,BRANCH,"my own branch group"
EVENT,f,perf::PAGE-FAULTS
METRIC,faults,,f,"faults"
GROUP,MYGROUP,"a new one"
EVENT,c,perf::CONTEXT-SWITCHES
METRIC,cs_rate,1/s,c / time,"switches per second"
GROUP,BROKEN
EVENT,c,perf::CONTEXT-SWITCHES
METRIC,m,,nope + 1,
G
	PAPI_USER_GROUPS_FILE=$PWD/mine.groups run --separate-stderr papi groups
	[ "$status" -eq 0 ]
	[[ "$stderr" == "papi groups: PAPI_USER_GROUPS_FILE=$PWD/mine.groups:9: group BROKEN: metric m: unknown name 'nope'"* ]]
	echo "$output" | grep -q '^ BRANCH  *yes  *1  my own branch group$'
	echo "$output" | grep -q '^ MYGROUP  *yes '
	PAPI_USER_GROUPS_FILE=$PWD/absent run --separate-stderr papi groups --names
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"PAPI_USER_GROUPS_FILE=$PWD/absent: cannot read: No such file or directory"* ]]
}

@test "decode -g | encode: every built-in group file comes back the same" {
	for f in "$PAPI_TOP"/events/*.groups; do
		papi decode -g "$f" > a.csv
		[ "$(head -1 a.csv)" = "group,kind,name,definition,unit,description,cpus" ]
		papi encode a.csv > g.groups
		papi encode --check g.groups
		papi decode -g g.groups > b.csv
		cmp a.csv b.csv || { echo "$f does not round-trip"; diff a.csv b.csv; false; }
	done
	# all of them, as loaded: the same groups again, in the encoder's order
	papi decode -g > all.csv
	n=$(grep -c ',group,' all.csv)
	[ "$n" -ge 25 ]
	papi encode all.csv > all.groups
	PAPI_USER_GROUPS_FILE=$PWD/all.groups papi decode -g > twice.csv
	[ "$(grep -c ',group,' twice.csv)" -eq $((2 * n)) ]
}

@test "decode -g: an edited CSV becomes a group file that loads" {
	papi decode -g "$PAPI_TOP/events/generic.groups" | sed 's/^CPU_UTIL,/MY_UTIL,/' > e.csv
	papi encode e.csv > e.groups
	grep -q '^GROUP,MY_UTIL,' e.groups
	PAPI_USER_GROUPS_FILE=$PWD/e.groups run papi groups MY_UTIL
	[ "$status" -eq 0 ]
	[[ "$output" == *"computable here (4 of 4 metrics)"* ]]
}

@test "encode --check: a group file's problems with their lines; exit 1" {
	printf 'GROUP,G\nEVENT,a,X\nMETRIC,m,,a / b,\nGROUP,H\nEVENT,a,Y\n' > bad.groups
	run papi encode --check bad.groups
	[ "$status" -eq 1 ]
	[ "$output" = "papi encode: bad.groups:3: group G: metric m: unknown name 'b' (names: the group's aliases and 'time')" ]
	run papi encode bad.groups
	[ "$status" -eq 1 ]
	[[ "$output" == *"GROUP,H"* ]]
	[[ "$output" != *"GROUP,G"* ]]
	run papi decode -g /nonexistent
	[ "$status" -eq 1 ]
	[ "$output" = "papi decode: /nonexistent: No such file or directory" ]
	run papi decode -g a b
	[ "$status" -eq 2 ]
}

@test "papi groups ENERGY without RAPL: both alternatives say what is missing" {
	[ ! -e /sys/class/powercap/intel-rapl:0 ] || skip "this machine has RAPL zones"
	[ ! -e /sys/bus/event_source/devices/power ] || skip "this kernel has the power PMU"
	run --separate-stderr -0 papi groups ENERGY
	[[ "$output" == *"not available: component powercap: No RAPL zones"*"; power::energy-pkg:cpu=0: "* ]] ||
		[[ "$output" == *"not available: component powercap: No RAPL zones"*"; component perf_event_uncore: "* ]]
	run -0 papi stat -g ENERGY true
	[[ "$output" == *"<not supported> powercap:::ENERGY_UJ:ZONE0"* ]]
	[[ "$output" == *"No RAPL zones"*"power::energy-pkg"* ]] || [[ "$output" == *"No RAPL zones"*"perf_event_uncore"* ]]
	[[ "$output" == *"<not computed> energy_pkg"* ]]
}

#!/usr/bin/env bats
# stat-cgroup.bats: papi stat -G and --for-each-cgroup on cgroups the test makes, with a workload that moves itself into them, against perf stat -G and the pages the workload touches.
load ../cli/helper
load stat_helper

# The hierarchy perf_event counts in, as perf finds it: a cgroup v1 mount
# with the perf_event controller, else the cgroup2 mount.
cg_mount() {
	awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; found = 1; exit }
	     $3 == "cgroup2" && !v2 { v2 = $2 }
	     END { if (!found && v2) print v2 }' /proc/self/mounts
}

setup() {
	papi_isolate
	[ "$(id -u)" -eq 0 ] || skip "making cgroups and counting whole CPUs needs root"
	[ -x "$WORK" ] || skip "test helper $WORK not built (make tests)"
	MNT=$(cg_mount)
	[ -n "$MNT" ] || skip "no cgroup hierarchy for perf_event is mounted"
	A=papi-bats-$$-a B=papi-bats-$$-b
	mkdir "$MNT/$A" "$MNT/$B"
}

teardown() {
	[ -z "${MNT:-}" ] || rmdir "$MNT/$A" "$MNT/$B" 2>/dev/null || :
}

# The page faults of the workload's start alone (its loader and C library,
# and a sanitizer's runtime where it has one): what each cgroup counts
# beyond the pages touched there, and those up to an eighth more (a
# sanitizer's shadow of them).
start_faults() {
	papi stat -j -o start.json -e perf::PAGE-FAULTS "$WORK" touch 1 || return 1
	BASE=$(jq -e '.events[0].value' start.json)
}

have_perf() {
	[ -x /usr/bin/perf ] && /usr/bin/perf stat -a -e task-clock true >/dev/null 2>&1 ||
		skip "no perf stat -a to compare with"
}

# A shell that touches 20000 pages where it starts, then moves into cgroup
# A and touches 3000 pages there, then into B and touches 6000.
work() {
	[ -e work.sh ] || cat >work.sh <<-EOF
		$WORK touch 20000 || exit 1
		echo \$\$ > $MNT/$A/cgroup.procs || exit 1
		$WORK touch 3000 || exit 1
		echo \$\$ > $MNT/$B/cgroup.procs || exit 1
		exec $WORK touch 6000
	EOF
	echo sh work.sh
}

@test "-G: one cgroup's page faults, as perf stat -G counts them; the work outside is not in" {
	have_perf
	run -0 --separate-stderr papi stat -a -j -G "$A" -e perf::PAGE-FAULTS -- $(work)
	local a b
	a=$(jq -e '.events[0] | select(.cgroup == "'"$A"'") | .value' <<<"$stderr") || { echo "$stderr"; false; }
	/usr/bin/perf stat -a -x, -e page-faults -G "$A" -o q.csv -- $(work)
	b=$(perf_val q.csv page-faults) || { cat q.csv; false; }
	# the shell's own faults between the moves vary a little from run to run
	near "page-faults in cgroup $A" "$a" "$b" 64 "$(work)"
	# its 3000 pages and a program's start, neither the 20000 before nor the 6000 after
	start_faults
	atleast "papi page-faults in $A" "$a" 3000 "$(work)"
	[ "$a" -lt $((3000 * 9 / 8 + BASE + 300)) ] || { echo "cgroup $A counted $a page faults: more than its own (start $BASE)"; false; }
	run -0 --separate-stderr papi stat -a -G "$A" -e perf::PAGE-FAULTS -- $(work)
	grep -Eq "^ +[0-9]+ +perf::PAGE-FAULTS \(cgroup $A\)" <<<"$stderr" || { echo "$stderr"; false; }
}

@test "-G A,B,: each event in its own cgroup, in order; an empty name counts the whole system" {
	run -0 --separate-stderr papi stat -a -j -G "$A,$B," \
		-e perf::PAGE-FAULTS,perf::PAGE-FAULTS,perf::PAGE-FAULTS -- $(work)
	local a b all
	a=$(jq -e '.events[0] | select(.cgroup == "'"$A"'") | .value' <<<"$stderr")
	b=$(jq -e '.events[1] | select(.cgroup == "'"$B"'") | .value' <<<"$stderr")
	all=$(jq -e '.events[2] | select(has("cgroup") | not) | .value' <<<"$stderr")
	start_faults
	atleast "page faults in $A" "$a" 3000 "$(work)"
	atleast "page faults in $B" "$b" 6000 "$(work)"
	[ "$a" -lt $((3000 * 9 / 8 + BASE + 300)) ] && [ "$b" -lt $((6000 * 9 / 8 + BASE + 300)) ] ||
		{ echo "A $a, B $b: more than their own (start $BASE)"; false; }
	# the whole system: all three stretches, and more than A and B together
	atleast "page faults everywhere" "$all" 29000 "$(work)"
	[ "$all" -gt $((a + b)) ]
	# CSV: the cgroup in the target column
	run -0 --separate-stderr papi stat -a -x, -G "$A,$B," \
		-e perf::PAGE-FAULTS,perf::PAGE-FAULTS,perf::PAGE-FAULTS -- $(work)
	[ "$(awk -F, '$2 == "event" { print $15 }' <<<"$stderr" | paste -sd' ')" = "$A $B " ] || { echo "$stderr"; false; }
	# a saved run prints again with each event's cgroup
	run -0 --separate-stderr papi stat -a -j -o run.json -G "$A,$B," \
		-e perf::PAGE-FAULTS,perf::PAGE-FAULTS,perf::PAGE-FAULTS -- $(work)
	run -0 --separate-stderr papi stat --report -x, run.json
	[ "$(awk -F, '$2 == "event" { print $15 }' <<<"$stderr" | paste -sd' ')" = "$A $B " ] || { echo "$stderr"; false; }
	run -0 --separate-stderr papi stat --report run.json
	grep -Eq "^ +[0-9]+ +perf::PAGE-FAULTS \(cgroup $B\)" <<<"$stderr" || { echo "$stderr"; false; }
}

@test "--for-each-cgroup: a row per cgroup, each with its own tasks' counts, as perf stat's" {
	have_perf
	run -0 --separate-stderr papi stat -a -j --for-each-cgroup "$A,$B" -e perf::PAGE-FAULTS -- $(work)
	jq -e '.per == "cgroup" and ([.rows[].target] == ["'"$A"'", "'"$B"'"])' <<<"$stderr" || { echo "$stderr"; false; }
	local a b pa pb
	a=$(jq '.rows[0].events[0].value' <<<"$stderr")
	b=$(jq '.rows[1].events[0].value' <<<"$stderr")
	start_faults
	atleast "page faults in $A" "$a" 3000 "$(work)"
	atleast "page faults in $B" "$b" 6000 "$(work)"
	[ "$a" -lt $((3000 * 9 / 8 + BASE + 300)) ] && [ "$b" -lt $((6000 * 9 / 8 + BASE + 300)) ] ||
		{ echo "A $a, B $b: more than their own (start $BASE)"; false; }
	/usr/bin/perf stat -a -x, -e page-faults --for-each-cgroup "$A,$B" -o q.csv -- $(work)
	pa=$(awk -F, -v g="$A" '$3 == "page-faults" && $4 == g { print $1 }' q.csv)
	pb=$(awk -F, -v g="$B" '$3 == "page-faults" && $4 == g { print $1 }' q.csv)
	[ -n "$pa" ] && [ -n "$pb" ] || { cat q.csv; false; }
	near "page-faults in $A" "$a" "$pa" 64 "$(work)"
	near "page-faults in $B" "$b" "$pb" 64 "$(work)"
	run -0 --separate-stderr papi stat -a --for-each-cgroup "$A,$B" -e perf::PAGE-FAULTS -- $(work)
	grep -Eq "^$B +[0-9]+ +perf::PAGE-FAULTS" <<<"$stderr" || { echo "$stderr"; false; }
}

@test "-G names what is wrong: no such cgroup, a path out of the hierarchy" {
	run -1 --separate-stderr papi stat -a -G papi-no-such-cgroup true
	grep -q "cgroup papi-no-such-cgroup: cannot open $MNT/papi-no-such-cgroup: no such cgroup" <<<"$stderr"
	run -1 --separate-stderr papi stat -a -G ../etc true
	grep -q "may not leave the hierarchy" <<<"$stderr"
}

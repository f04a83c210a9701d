#!/usr/bin/env bats
# stat-modes.bats: papi stat's ways of counting against perf stat's: repeated runs, intervals, braced groups, attaching to a process, whole CPUs.
load ../cli/helper
load stat_helper

# Page faults: 8 faults of tolerance between two runs of one program (its
# start-up varies by a few, see stat.bats), 16 over two programs. Whole
# CPUs count everyone (other work runs on this machine at the same time):
# there only what the window contains is exact, so papi stat counts around
# perf stat and must count at least what perf counts inside it.

@test "-r 3: the mean page faults of three runs, as perf stat -r 3" {
	local cmd="$WORK touch 1500"
	run -0 papi stat -r 3 --json -o p.json -e perf::PAGE-FAULTS $cmd
	perf_stat page-faults q.csv -r 3 $cmd
	local a b
	a=$(jq -e '.events[0].mean | round' p.json)
	b=$(perf_val q.csv "page-faults$SFX") || { cat q.csv; false; }
	near "page-faults (mean of 3)" "$a" "$b" 8 "-r 3 $cmd"
	atleast "papi page-faults" "$(jq -e '.events[0].min' p.json)" 1500 "-r 3 $cmd"
	jq -e '.runs == 3 and (.events[0].values | length) == 3' p.json
}

@test "-I: the intervals add up to the total, which is perf's" {
	local cmd="sh -c '$WORK touch 1000; sleep 0.3; $WORK touch 1000'"
	run -0 papi stat -I 100 --json -o p.json -e perf::PAGE-FAULTS sh -c "$WORK touch 1000; sleep 0.3; $WORK touch 1000"
	perf_stat page-faults q.csv -I 100 sh -c "$WORK touch 1000; sleep 0.3; $WORK touch 1000"
	local a sum b
	a=$(jq -e '.events[0].value' p.json)
	sum=$(jq -e '[.intervals[].values[0]] | add' p.json)
	[ "$sum" -eq "$a" ] || { echo "papi: intervals add up to $sum, the total is $a ($cmd)"; false; }
	b=$(perf_val q.csv "page-faults$SFX") || { cat q.csv; false; }
	near "page-faults (-I 100)" "$a" "$b" 16 "$cmd"
	atleast "papi page-faults" "$a" 2000 "$cmd"
	# the second program started after the sleep: a later interval
	jq -e '.intervals | length >= 3' p.json
}

@test "{groups}: a braced group counts together, as perf's" {
	local cmd="$WORK touch 2000"
	run -0 papi stat --json -o p.json -e '{perf::PAGE-FAULTS,perf::TASK-CLOCK}' $cmd
	perf_stat '{page-faults,task-clock}' q.csv $cmd
	local a b
	a=$(jq -e '.events[] | select(.name == "perf::PAGE-FAULTS") | .value' p.json)
	b=$(perf_val q.csv "page-faults$SFX") || { cat q.csv; false; }
	near page-faults "$a" "$b" 8 "$cmd"
	# one kernel group: enabled and running together
	jq -e '.events | all(.group == 1 and .time_enabled == .time_running)' p.json
	jq -e --arg d "$DOM" 'all(.events[]; .domain == $d)' p.json
}

@test "-p: attached to a process at the same time as perf stat -p, the same page faults" {
	mkfifo go
	"$WORK" wait touch 2000 hold <go &
	local pid=$! i n
	exec 7>go
	# attach once it waits: exec'd, loaded and asleep in its read (a
	# counter attached earlier counts the loader's faults too)
	for i in $(seq 600); do
		[ "$(readlink /proc/$pid/exe)" = "$(readlink -f "$WORK")" ] &&
			[ "$(awk '{ print $3 }' /proc/$pid/stat)" = S ] && break
		sleep 0.01
	done
	papi stat -p "$pid" -I 50 -x, -o p.csv -e perf::PAGE-FAULTS &
	local pp=$!
	/usr/bin/perf stat -p "$pid" -I 50 -x, -o q.csv -e page-faults &
	local qp=$!
	# both count once their first interval is out (the work waits for it)
	for i in $(seq 600); do
		[ -s p.csv ] && grep -q "page-faults" q.csv 2>/dev/null && break
		sleep 0.05
	done
	printf x >&7
	# The work touches its pages, then blocks again. perf stat -p prints
	# no last partial interval when its process ends, so the process is
	# killed (no exit path of its own to fault) only once perf has printed
	# an interval after the one that saw the pages: everything was counted.
	for i in $(seq 600); do
		n=$(perf_val q.csv "page-faults$SFX" 2>/dev/null) && [ "$n" -ge 2000 ] && break
		sleep 0.05
	done
	n=$(grep -c "page-faults" q.csv)
	for i in $(seq 600); do
		[ "$(grep -c "page-faults" q.csv)" -gt "$n" ] && break
		sleep 0.05
	done
	kill -KILL "$pid"
	exec 7>&-
	wait "$pid" || [ $? -eq $((128 + 9)) ]
	wait "$pp"
	wait "$qp"
	local a b
	a=$(papi_csv p.csv perf::PAGE-FAULTS) || { cat p.csv; false; }
	b=$(perf_val q.csv "page-faults$SFX") || { cat q.csv; false; }
	# the same faults of the same process, counted at once: it waits
	# blocked (faulting nothing) until both count
	near page-faults "$a" "$b" 0 "-p $pid ($WORK wait touch 2000)"
	atleast "papi page-faults" "$a" 2000 "-p $pid"
	[ "$(awk -F, '$2 == "event" { print $16 }' p.csv)" = "$DOM" ]
}

@test "-C 0: a whole CPU counts at least what perf stat -C 0 counts inside it" {
	cpu_ok || skip "counting whole CPUs needs root or perf_event_paranoid 0 (it is $(paranoid))"
	local cmd="perf stat -C 0 -e page-faults,cpu-clock -- taskset -c 0 $WORK touch 2000"
	run -0 papi stat -C 0 -x, -o p.csv -e perf::PAGE-FAULTS,perf::CPU-CLOCK -- \
		/usr/bin/perf stat -C 0 -x, -o q.csv -e page-faults,cpu-clock -- taskset -c 0 "$WORK" touch 2000
	local a b
	a=$(papi_csv p.csv perf::PAGE-FAULTS) || { cat p.csv; false; }
	b=$(perf_val q.csv page-faults) || { cat q.csv; false; }
	atleast "papi -C 0 page-faults (perf's inside: $b)" "$a" "$b" "$cmd"
	atleast "perf -C 0 page-faults" "$b" 2000 "$cmd"
	a=$(papi_csv p.csv perf::CPU-CLOCK) || { cat p.csv; false; }
	b=$(perf_val q.csv cpu-clock) || { cat q.csv; false; }
	atleast "papi -C 0 cpu-clock ms (perf's inside: $b)" $((a / 1000000)) "$b" "$cmd"
	# a whole CPU is counted in every domain
	[ "$(awk -F, '$2 == "event" { print $16 }' p.csv | sort -u)" = all ]
}

@test "-a --per-cpu: each CPU's row counts at least what perf stat -a -A counts inside it" {
	cpu_ok || skip "counting whole CPUs needs root or perf_event_paranoid 0 (it is $(paranoid))"
	local last
	last=$(($(nproc) - 1))
	local cmd="perf stat -a -A -e page-faults -- taskset -c $last $WORK touch 2000"
	run -0 papi stat -a --per-cpu -x, -o p.csv -e perf::PAGE-FAULTS -- \
		/usr/bin/perf stat -a -A -x, -o q.csv -e page-faults -- taskset -c "$last" "$WORK" touch 2000
	local cpu a b n=0 sum=0
	while IFS=, read -r _ kind name a _ _ _ _ _ _ _ _ _ _ cpu _; do
		[ "$kind" = event ] && [ -n "$cpu" ] || continue
		b=$(awk -F, -v c="$cpu" '$1 == c && $4 == "page-faults" { print $2 }' q.csv)
		[ -n "$b" ] || { echo "perf has no row for $cpu"; cat q.csv; false; }
		atleast "papi $cpu page-faults (perf's inside: $b)" "$a" "$b" "$cmd"
		[ "$cpu" != "CPU$last" ] || atleast "perf CPU$last page-faults" "$b" 2000 "$cmd"
		n=$((n + 1))
		sum=$((sum + a))
	done <p.csv
	[ "$n" -eq "$(nproc)" ] || { echo "$n rows for $(nproc) CPUs"; cat p.csv; false; }
	[ "$sum" -eq "$(papi_csv p.csv perf::PAGE-FAULTS)" ]
}

@test "--per-thread with a command: a row per thread and process it starts, adding up to perf's total" {
	# a shell that runs a program touching 1000 pages, then one whose two
	# threads touch 500 pages each
	local cmd="sh -c '$WORK touch 1000; $WORK threads 2 500'"
	# LeakSanitizer cannot run in a traced program (the sanitizer build's
	# workload would abort at its exit)
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	run -0 papi stat --per-thread --json -o p.json -e perf::PAGE-FAULTS sh -c "$WORK touch 1000; $WORK threads 2 500"
	perf_stat page-faults q.csv sh -c "$WORK touch 1000; $WORK threads 2 500"
	local a sum b
	a=$(jq -e '.events[0].value' p.json)
	sum=$(jq -e '[.rows[].events[0].value] | add' p.json)
	[ "$sum" -eq "$a" ] || { echo "papi: rows add up to $sum, the total is $a ($cmd)"; false; }
	b=$(perf_val q.csv "page-faults$SFX") || { cat q.csv; false; }
	near "page-faults (--per-thread)" "$a" "$b" 32 "$cmd"
	# the shell, the first program, the second's main thread and its two
	# threads: each a row named after it, with the pages it touched
	jq -e '.per == "thread" and (.rows | length) == 5' p.json || { cat p.json; false; }
	jq -e '[.rows[].target | test("^(sh|oracle_work)-[0-9]+$")] | all' p.json
	# a program's start alone (a sanitizer's runtime too), and the pages up
	# to an eighth more (a sanitizer's shadow of them)
	run -0 papi stat -j -o start.json -e perf::PAGE-FAULTS "$WORK" touch 1
	local base
	base=$(jq -e '.events[0].value' start.json)
	jq -e --argjson b "$base" '[.rows[].events[0].value | select(. >= 1000 and . < 1125 + $b + 200)] | length == 1' \
		p.json || { cat p.json; false; }
	# each thread's row: its 500 pages (and a sanitizer's own set-up of a
	# thread, up to 200 more)
	jq -e '[.rows[].events[0].value | select(. >= 500 and . < 563 + 200)] | length >= 2' p.json || { cat p.json; false; }
}

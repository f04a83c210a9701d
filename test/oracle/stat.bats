#!/usr/bin/env bats
# stat.bats: papi stat against perf stat, event by event, on the same deterministic workloads, in each report format and each domain this user may count.
load ../cli/helper
load stat_helper

# Tolerances. Page faults: a workload's own pages are exact, but the program
# loader's and the C library's start-up faults vary by a few from one run to
# the next (where ASLR puts the stack, the heap and the libraries), so two
# runs of one program differ by up to 8 faults (16 for 8 programs started in
# a loop, whose execs each vary). Task clock: two runs of the same CPU-bound
# work differ in time: 20%. Context switches depend on the scheduler: only
# the lower bound the workload forces is exact.

@test "text: page faults of user-touched pages, as perf stat counts them, with its domain suffix" {
	local cmd="$WORK touch 2000"
	run -0 papi stat -o p.txt -e perf::PAGE-FAULTS $cmd
	perf_stat page-faults q.csv $cmd
	local a b
	a=$(papi_text p.txt "perf::PAGE-FAULTS$SFX") || { cat p.txt; false; }
	b=$(perf_val q.csv "page-faults$SFX") || { cat q.csv; false; }
	near page-faults "$a" "$b" 8 "$cmd"
	atleast "papi page-faults" "$a" 2000 "$cmd"
}

@test "text: the page faults the kernel takes inside read() count where this user may count the kernel" {
	# 2000 fresh pages filled by read() from /dev/zero: the faults are the
	# kernel's, so user space sees only the program's start-up (perf
	# stat -e page-faults counts them as root, page-faults:u otherwise)
	local cmd="$WORK zero 2000"
	run -0 papi stat -o p.txt -e perf::PAGE-FAULTS $cmd
	perf_stat page-faults q.csv $cmd
	local a b
	a=$(papi_text p.txt "perf::PAGE-FAULTS$SFX") || { cat p.txt; false; }
	b=$(perf_val q.csv "page-faults$SFX") || { cat q.csv; false; }
	near page-faults "$a" "$b" 8 "$cmd"
	if kernel_ok; then
		atleast "papi page-faults" "$a" 2000 "$cmd"
	else
		# against the same program filling one page (its start-up alone,
		# larger under the sanitizers): 1999 more pages add no user fault
		run -0 papi stat -o p1.txt -e perf::PAGE-FAULTS "$WORK" zero 1
		local a1
		a1=$(papi_text p1.txt "perf::PAGE-FAULTS$SFX") || { cat p1.txt; false; }
		[ $((a - a1)) -lt 1000 ] ||
			{ echo "papi: $a, $a1 for one page; perf: $b: the kernel's faults in user space ($cmd)"; false; }
		# said once, in the report's header
		[ "$(grep -c 'User space only (:u): counting the kernel needs perf_event_paranoid' p.txt)" -eq 1 ]
	fi
}

@test "CSV and command-line: page faults split by :cpu=N add up to the task's, unscaled, as perf stat counts them" {
	local n ncpu
	ncpu=$(getconf _NPROCESSORS_ONLN)
	[ "$ncpu" -ge 2 ] || skip "one CPU: nothing to split"
	# 2000 pages touched pinned to each CPU in turn: a :cpu=N counter
	# counts only while the task is on CPU N, and that time apart is no
	# multiplexing to scale up for
	local cmd="$WORK cpus 2000" evs="" sum=0
	for ((n = 0; n < ncpu; n++)); do evs+="perf::PAGE-FAULTS:cpu=$n,"; done
	run -0 papi stat -x, -o p.csv -e "${evs}perf::PAGE-FAULTS" $cmd
	perf_stat page-faults q.csv $cmd
	local a b c
	for ((n = 0; n < ncpu; n++)); do
		c=$(papi_csv p.csv "perf::PAGE-FAULTS:cpu=$n") || { cat p.csv; false; }
		atleast "papi page-faults on CPU $n" "$c" 2000 "$cmd"
		sum=$((sum + c))
		# its running time is its time: 100%, no scale
		awk -F, -v ev="perf::PAGE-FAULTS:cpu=$n" '$3 == ev && $11 == $12 && $13 == 100 { f = 1 } END { exit !f }' p.csv ||
			{ cat p.csv; false; }
	done
	a=$(papi_csv p.csv perf::PAGE-FAULTS) || { cat p.csv; false; }
	# one task over one window: the CPUs' parts are the whole, exactly
	[ "$sum" -eq "$a" ] || { echo "per CPU: $sum, the task: $a ($cmd)"; cat p.csv; false; }
	b=$(perf_val q.csv "page-faults$SFX") || { cat q.csv; false; }
	near page-faults "$a" "$b" 8 "$cmd"
	# papi command-line reads them through PAPI_stop: the same
	local names=()
	for ((n = 0; n < ncpu; n++)); do names+=("perf::PAGE-FAULTS:cpu=$n"); done
	run -0 papi command-line -j "${names[@]}" perf::PAGE-FAULTS -- $cmd
	sum=$(jq '[.events[] | select(.name | test(":cpu=")) | .count] | add' <<<"$output")
	a=$(jq '.events[] | select(.name == "perf::PAGE-FAULTS") | .count' <<<"$output")
	[ "$sum" -eq "$a" ] || { echo "command-line: per CPU: $sum, the task: $a ($cmd)"; echo "$output"; false; }
	atleast "command-line page-faults" "$a" $((2000 * ncpu)) "$cmd"
}

@test "CSV: page faults of threads, and the domain column" {
	local cmd="$WORK threads 4 500"
	run -0 papi stat -x, -o p.csv -e perf::PAGE-FAULTS,perf::MINOR-FAULTS $cmd
	perf_stat page-faults,minor-faults q.csv $cmd
	local a b ev tol
	for ev in PAGE-FAULTS MINOR-FAULTS; do
		local lc=${ev,,}
		a=$(papi_csv p.csv "perf::$ev") || { cat p.csv; false; }
		b=$(perf_val q.csv "$lc$SFX") || { cat q.csv; false; }
		# AddressSanitizer's allocator faults in more or fewer pages
		# as the 4 threads interleave (tens of 6000 here); a thread
		# missed would be 500 short
		tol=8
		[ "$ASAN" = 0 ] || tol=$((8 + b / 100))
		near "$lc" "$a" "$b" "$tol" "$cmd"
		atleast "papi $lc" "$a" 2000 "$cmd"
	done
	head -1 p.csv | grep -q ',target,domain$'
	[ "$(awk -F, '$2 == "event" { print $16 }' p.csv | sort -u)" = "$DOM" ]
	# why user space only: one row
	if kernel_ok; then
		[ "$(grep -c '^,note,domain,' p.csv)" -eq 0 ]
	else
		[ "$(grep -c '^,note,domain,.*perf_event_paranoid.*,user$' p.csv)" -eq 1 ]
	fi
}

@test "JSON: page faults of programs started in a loop (fork and exec), and the domain field" {
	local cmd="sh -c 'for i in 1 2 3 4 5 6 7 8; do $WORK touch 100; done'"
	run -0 papi stat --json -o p.json -e perf::PAGE-FAULTS sh -c "for i in 1 2 3 4 5 6 7 8; do $WORK touch 100; done"
	perf_stat page-faults q.csv sh -c "for i in 1 2 3 4 5 6 7 8; do $WORK touch 100; done"
	local a b
	a=$(jq -e '.events[] | select(.name == "perf::PAGE-FAULTS") | .value' p.json)
	b=$(perf_val q.csv "page-faults$SFX") || { cat q.csv; false; }
	near page-faults "$a" "$b" 16 "$cmd"
	atleast "papi page-faults" "$a" 800 "$cmd"
	jq -e --arg d "$DOM" '.domain == $d and .events[0].domain == $d' p.json
}

@test "context switches of a pipe ping-pong: every trip switches, in the kernel" {
	# 500 round trips between two processes on one CPU: the CPU goes from
	# one to the other and back on every trip, about 1000 switches (the
	# first and last trips may save one: 999 seen), at least 990; all of
	# them in the kernel, so user space counts none (context-switches:u)
	local cmd="$WORK pingpong 500"
	run -0 papi stat -o p.txt -e perf::CONTEXT-SWITCHES $cmd
	perf_stat context-switches q.csv $cmd
	local a b
	a=$(papi_text p.txt "perf::CONTEXT-SWITCHES$SFX") || { cat p.txt; false; }
	b=$(perf_val q.csv "context-switches$SFX") || { cat q.csv; false; }
	if kernel_ok; then
		atleast "papi context-switches" "$a" 990 "$cmd"
		atleast "perf context-switches" "$b" 990 "$cmd"
	else
		near context-switches "$a" "$b" 0 "$cmd"
		[ "$a" -eq 0 ] || { echo "papi: $a perf: $b ($cmd)"; false; }
		grep -q 'Context switches happen in the kernel: counted in user space only, they may read 0' p.txt
	fi
}

@test "context switches of a sleep, through the CONTEXT_SWITCHES metric group's event" {
	local cmd="sleep 0.2"
	run -0 papi stat --json -o p.json -e perf::CONTEXT-SWITCHES $cmd
	perf_stat context-switches q.csv $cmd
	local a b
	a=$(jq -e '.events[] | select(.name == "perf::CONTEXT-SWITCHES") | .value' p.json)
	b=$(perf_val q.csv "context-switches$SFX") || { cat q.csv; false; }
	if kernel_ok; then
		# sleeping is giving the CPU away: at least once each
		atleast "papi context-switches" "$a" 1 "$cmd"
		atleast "perf context-switches" "$b" 1 "$cmd"
	else
		near context-switches "$a" "$b" 0 "$cmd"
	fi
}

@test "task clock of CPU-bound threads: within 20% of perf's, and the threads' own CPU time" {
	[ -x "$THREADS" ] || skip "test helper $THREADS not built (make tests)"
	# two threads each burn 200 ms of their own CPU time, and print the sum
	local cmd="$THREADS 2 200"
	run -0 --separate-stderr papi stat -x, -o p.csv -e perf::TASK-CLOCK $cmd
	local used=$output
	perf_stat task-clock q.csv $cmd >/dev/null
	local a b
	a=$(papi_csv p.csv perf::TASK-CLOCK) || { cat p.csv; false; }
	a=$((a / 1000000))
	b=$(perf_val q.csv "task-clock$SFX") || { cat q.csv; false; }
	share "task-clock (ms)" "$a" "$b" 20 "$cmd"
	# the threads read their clocks a moment before they end, the task
	# clock stops later, yet the two clocks tick apart (each rounds the
	# scheduler's time its own way): 5% below is still the same time
	atleast "papi task-clock (ms)" "$a" $((used * 95 / 100 / 1000000)) "$cmd"
}

@test "msr::tsc counts the command's TSC ticks while it runs, as perf stat's msr/tsc/" {
	[ -r /sys/bus/event_source/devices/msr/events/tsc ] || skip "no msr PMU with a tsc event here"
	# 200 ms of CPU time, then 200 ms asleep: counted per task, the TSC
	# ticks only while the command runs, at the TSC's rate per ns of task
	# clock (the same for both tools: 1%), and as many as perf counts to the
	# task clock's 20%; summed over CPUs it would count the sleep and the
	# other CPUs too
	local cmd="$WORK spin 200"
	perf_stat msr/tsc/,task-clock q.csv $cmd
	if ! grep -q '^[0-9]*,,msr/tsc/,' q.csv; then
		# msr excludes no privilege level: the kernel opens it only for
		# one who may count the kernel (perf: <not supported>)
		! kernel_ok || { cat q.csv; false; }
		run --separate-stderr papi stat -x, -o p.csv -e msr::tsc,perf::TASK-CLOCK $cmd
		[[ "$stderr$(cat p.csv 2>/dev/null)" == *"counting the kernel needs perf_event_paranoid 1 or lower"* ]] ||
			{ echo "papi stat said: $stderr"; false; }
		! papi_csv p.csv msr::tsc 2>/dev/null
		return
	fi
	run -0 papi stat -x, -o p.csv -e msr::tsc,perf::TASK-CLOCK $cmd
	local a at b bt
	a=$(papi_csv p.csv msr::tsc) || { cat p.csv; false; }
	at=$(papi_csv p.csv perf::TASK-CLOCK) || { cat p.csv; false; }
	b=$(perf_val q.csv msr/tsc/) || { cat q.csv; false; }
	# perf's task-clock in ns: the column after its percentage's
	bt=$(awk -F, '$3 == "task-clock" { print $4 }' q.csv)
	share "msr::tsc" "$a" "$b" 20 "$cmd"
	local ra rb
	ra=$(awk -v a="$a" -v t="$at" 'BEGIN { printf "%d\n", a * 1e6 / t }')
	rb=$(awk -v a="$b" -v t="$bt" 'BEGIN { printf "%d\n", a * 1e6 / t }')
	share "TSC ticks per ms of task clock" "$ra" "$rb" 1 "$cmd"
}

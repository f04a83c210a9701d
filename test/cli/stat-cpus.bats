#!/usr/bin/env bats
# stat-cpus.bats: papi stat -a and -C (whole CPUs), --per-cpu, --per-core, --per-socket, --per-node, and --per-thread and --per-process for -p.
load helper

teardown() {
	[ -z "${BG:-}" ] || kill $BG 2>/dev/null || :
}

# Counting whole CPUs needs perf_event_paranoid 0 or CAP_PERFMON.
may_count_cpus() {
	[ "$(id -u)" -eq 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] ||
		skip "counting whole CPUs needs root or perf_event_paranoid 0 (it is $(cat /proc/sys/kernel/perf_event_paranoid))"
}

ncpus() {
	getconf _NPROCESSORS_ONLN
}

@test "-a: every online CPU counted whole while the command runs; the software groups too" {
	may_count_cpus
	run --separate-stderr papi stat -a -j -g CONTEXT_SWITCHES sleep 0.3
	[ "$status" -eq 0 ]
	n=$(ncpus)
	jq -e --argjson n "$n" '.cpus == [range(0; $n)]' <<<"$stderr"
	# a CPU's clock runs whoever runs there: about the elapsed time on each
	jq -e --argjson n "$n" '(.events[] | select(.name == "perf::TASK-CLOCK") | .value / 1e9) as $c
	       | $c > 0.5 * $n * .elapsed.mean and $c < 1.5 * $n * .elapsed.mean' <<<"$stderr"
	# and context switches happen somewhere, though sleep itself hardly runs
	jq -e '.events[] | select(.name == "perf::CONTEXT-SWITCHES") | .value > 0' <<<"$stderr"
	jq -e '.metrics[] | select(.name == "context_switch_wall_rate") | .value > 0' <<<"$stderr"
	run --separate-stderr papi stat -a sleep 0.1
	grep -qF "Counts of CPUs 0-$((n - 1)), system-wide, while 'sleep 0.1' ran (exit status 0):" <<<"$stderr"
	grep -Eq 'perf::CPU-CLOCK +# [0-9.]+ CPUs utilized' <<<"$stderr"
}

@test "-a without a command: counts until --timeout, --interval-count or a signal" {
	may_count_cpus
	run --separate-stderr papi stat -a -j -e perf::CPU-CLOCK --timeout 200
	[ "$status" -eq 0 ]
	jq -e '.command == null and .elapsed.mean >= 0.2 and .events[0].value > 0' <<<"$stderr"
	run --separate-stderr papi stat -a -e perf::CPU-CLOCK -I 50 --interval-count 3
	[ "$status" -eq 0 ]
	[ "$(grep -c ' perf::CPU-CLOCK$' <<<"$stderr")" -eq 3 ]
	"$PAPI_BIN" stat -a -e perf::CPU-CLOCK -o out.txt & BG=$!
	# signal it once papi (not the shell forked to start it, which has
	# bats' INT trap) catches SIGINT (bit 2 of SigCgt), however long
	# starting takes on a busy machine
	until { [ "$(readlink /proc/$BG/exe)" = "$(readlink -f "$PAPI_BIN")" ] &&
		(( 0x$(awk '/^SigCgt:/ { print $2 }' /proc/$BG/status 2>/dev/null || echo 0) & 2 )); } ||
		! kill -0 $BG 2>/dev/null; do
		sleep 0.01
	done
	kill -INT $BG
	wait $BG
	BG=
	grep -q 'perf::CPU-CLOCK' out.txt
}

@test "--per-cpu, --per-core, --per-socket, --per-node: rows from sysfs whose sums are the totals" {
	may_count_cpus
	n=$(ncpus)
	for per in cpu core socket node; do
		run --separate-stderr papi stat -a --per-$per -j -e perf::CPU-CLOCK,perf::PAGE-FAULTS sleep 0.1
		[ "$status" -eq 0 ] || { echo "--per-$per: $stderr"; false; }
		jq -e --arg p "$per" '.per == $p' <<<"$stderr"
		# every CPU in exactly one row
		jq -e --argjson n "$n" '[.rows[].cpus[]] | sort == [range(0; $n)]' <<<"$stderr"
		# each event's rows add up to its total
		jq -e '[range(0; .events | length) as $i | .events[$i].value
		        == ([.rows[].events[$i].value] | add)] | all' <<<"$stderr"
	done
	run --separate-stderr papi stat -a --per-cpu -j -e perf::CPU-CLOCK true
	jq -e '[.rows[].target] == [.cpus[] | "CPU\(.)"]' <<<"$stderr"
	run --separate-stderr papi stat -a --per-core -e perf::CPU-CLOCK true
	grep -Eq '^S[0-9]+-D[0-9]+-C[0-9]+ +[0-9]+ +[0-9.]+ ms +perf::CPU-CLOCK' <<<"$stderr"
	run --separate-stderr papi stat -a --per-socket -e perf::CPU-CLOCK true
	grep -Eq "^S0 +[0-9]+ +[0-9.]+ ms +perf::CPU-CLOCK +# [0-9.]+ CPUs utilized" <<<"$stderr"
	run --separate-stderr papi stat -A -e perf::CPU-CLOCK -C 0 -x, true
	grep -q '^,event,perf::CPU-CLOCK,[0-9]*,ns,1,.*,CPU0,all$' <<<"$stderr"
}

@test "-C LIST: only those CPUs; CPUs that are not there are refused" {
	may_count_cpus
	run --separate-stderr papi stat -C 0 -A -j -e perf::CPU-CLOCK true
	[ "$status" -eq 0 ]
	jq -e '.cpus == [0] and (.rows | length) == 1 and .rows[0].target == "CPU0"' <<<"$stderr"
	run papi stat -C 4095 true
	[ "$status" -eq 1 ]
	[[ "$output" == "papi stat: -C: this machine has no CPU 4095 (its CPUs: 0-"* ]]
}

@test "-C and --per-*: usage errors" {
	run papi stat -C x true
	[ "$status" -eq 2 ]
	[[ "$output" == *"-C: 'x' is not a CPU list (such as 0-3,8)"* ]]
	run papi stat -C 3-1 true
	[ "$status" -eq 2 ]
	[[ "$output" == *"runs backwards"* ]]
	run papi stat --per-core true
	[ "$status" -eq 2 ]
	[[ "$output" == *"need -a or -C"* ]]
	run papi stat -a -p $$
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot be used with -p/-t"* ]]
	run papi stat --per-thread -r 2 true
	[ "$status" -eq 2 ]
	[[ "$output" == *"--per-thread with a command follows its threads as they come and go: it cannot be used with -r, -I or --delay"* ]]
	run papi stat --per-thread -I 100 true
	[ "$status" -eq 2 ]
	run papi stat --per-thread -a
	[ "$status" -eq 2 ]
	run papi stat -a --per-cpu --per-core true
	[ "$status" -eq 2 ]
	[[ "$output" == *"one --per-* at a time"* ]]
	run papi stat -a -r 2
	[ "$status" -eq 2 ]
}

@test "-a without the privilege: one sentence of what is needed, exit 1" {
	[ "$(id -u)" -ne 0 ] || skip "root may count whole CPUs (the unprivileged run of the suite checks this)"
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] || skip "perf_event_paranoid lets everyone count CPUs"
	run papi stat -a true
	[ "$status" -eq 1 ]
	[[ "$output" == *"needs perf_event_paranoid 0 or lower"*"or CAP_PERFMON"* ]]
}

# A process with threads: stat_threads N MS, once its N threads are there.
threads() {
	"$PAPI_BUILD/test/cli/stat_threads" "$1" "$2" > /dev/null & BG=$!
	for _ in $(seq 100); do
		[ "$(ls /proc/$BG/task 2>/dev/null | wc -l)" -ge $(($1 + 1)) ] && return 0
		sleep 0.05
	done
	return 1
}

@test "--per-thread and --per-process: a row per thread, or per process, of -p" {
	threads 2 3000
	run --separate-stderr papi stat -p $BG --per-thread -j -e perf::TASK-CLOCK --timeout 300
	[ "$status" -eq 0 ]
	jq -e '.per == "thread" and (.rows | length) == 3' <<<"$stderr"
	jq -e --arg p "$BG" '.rows[0].target == "stat_threads-\($p)"' <<<"$stderr"
	jq -e '(.events[0].value) == ([.rows[].events[0].value] | add)' <<<"$stderr"
	# the two burning threads ran, the main thread waits
	jq -e '[.rows[1:][].events[0].value > 0] | all' <<<"$stderr"
	sleep 5 & S=$!
	run --separate-stderr papi stat -p $BG,$S --per-process -j -e perf::TASK-CLOCK --timeout 200
	kill $S
	[ "$status" -eq 0 ]
	jq -e --arg a "$BG" --arg b "$S" '[.rows[].target] == ["stat_threads-\($a)", "sleep-\($b)"]' <<<"$stderr"
	jq -e '.rows[0].tids | length == 3' <<<"$stderr"
	run --separate-stderr papi stat -p $BG --per-thread -e perf::TASK-CLOCK --timeout 100
	grep -Eq "^stat_threads-$BG +[0-9.]+ ms +perf::TASK-CLOCK" <<<"$stderr"
}

@test "intervals by row: text, CSV and JSON" {
	may_count_cpus
	run --separate-stderr papi stat -a -A -I 50 --interval-count 2 -e perf::CPU-CLOCK
	[ "$status" -eq 0 ]
	[ "$(grep -Ec '^ +[0-9]+\.[0-9]{3} CPU[0-9]+ ' <<<"$stderr")" -eq $((2 * $(ncpus))) ]
	# aligned under their header, as perf -A -I: a row column, and every
	# event and metric name where the header says "event"; no line of the
	# totals without a row's label (the report read from its file: the
	# header's leading blanks kept)
	run -0 papi stat -a -A -I 50 --interval-count 2 -e perf::CPU-CLOCK -o rows.txt
	head=$(grep -m1 'time (s)' rows.txt)
	[[ "$head" =~ time\ \(s\)\ cpu\ +count\ event$ ]]
	col=$(awk '{ print index($0, "event") }' <<<"$head")
	grep -E '^ +[0-9]+\.[0-9]{3} ' rows.txt | awk -v c="$col" '
		$2 !~ /^(CPU[0-9]+|all)$/ { print "no row label: " $0; bad = 1 }
		{ n = split($0, w, " "); if (index($0, w[n]) != c) { print "not under event: " $0; bad = 1 } }
		END { exit bad }'
	run --separate-stderr papi stat -a -A -j -I 50 -e perf::CPU-CLOCK sleep 0.12
	jq -e 'all(.intervals[]; .values[0] == ([.rows[][0]] | add))' <<<"$stderr"
	run --separate-stderr papi stat -a -A -x, -I 50 --interval-count 1 -e perf::CPU-CLOCK
	grep -q '^[0-9.]*,interval,perf::CPU-CLOCK,[0-9]*,ns,.*,CPU0,all$' <<<"$stderr"
}

@test "-G and --for-each-cgroup: usage errors name what is wrong, and an ordinary user is told what is missing" {
	run -2 --separate-stderr papi stat -G somewhere true
	grep -qF -- "-G counts a cgroup on whole CPUs: add -a or -C" <<<"$stderr"
	run -2 --separate-stderr papi stat -a -G a,b -e perf::PAGE-FAULTS,perf::TASK-CLOCK,perf::CPU-CLOCK true
	grep -qF -- "-G names 2 cgroups for 3 events" <<<"$stderr"
	run -2 --separate-stderr papi stat -a --for-each-cgroup a --per-cpu true
	grep -qF -- "--for-each-cgroup makes a row per cgroup: it cannot be used with --per-*" <<<"$stderr"
	run -2 --separate-stderr papi stat -a --for-each-cgroup a,,b true
	grep -qF -- "empty cgroup in '--for-each-cgroup a,,b'" <<<"$stderr"
	run -2 --separate-stderr papi stat -a -G a --for-each-cgroup b true
	grep -qF -- "-G and --for-each-cgroup are given once, and not together" <<<"$stderr"
	if [ "$(id -u)" -ne 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
		run -1 --separate-stderr papi stat -a -G / true
		grep -q "needs perf_event_paranoid 0 or lower .* or CAP_PERFMON" <<<"$stderr" || { echo "$stderr"; false; }
	fi
}

@test "--per-thread with a command: the report says how many context switches its ptrace stops added" {
	local work=${PAPI_BUILD:-$PAPI_TOP/build}/test/cli/oracle_work note
	# 4 threads: the main thread stops as it starts each, all 5 as they exit
	note="Context switches: ptrace (--per-thread) stopped the command's tasks 9 times (4 starting a thread or process, 5 exiting, 0 for a signal), each a context switch more than untraced"
	# (LeakSanitizer cannot run in a traced program: the sanitizer build's
	# workload would abort at its exit)
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	run --separate-stderr -0 papi stat --per-thread -j -e perf::CONTEXT-SWITCHES,perf::TASK-CLOCK "$work" threads 4 200
	jq -e '.ptrace_stops == {"start": 4, "exit": 5, "signal": 0}' <<<"$stderr"
	local dom
	dom=$(jq -r '.events[0].domain' <<<"$stderr")
	if [ "$dom" = all ]; then
		# each stop is a context switch the tasks count
		jq -e '.ptrace_note != null and ([.rows[].events[0].value] | add) >= 9 and .events[0].value >= 9' <<<"$stderr"
		run --separate-stderr -0 papi stat --per-thread -e perf::CONTEXT-SWITCHES --save pt.json "$work" threads 4 200
		[ "$(grep -cF " $note" <<<"$stderr")" -eq 1 ] || { echo "$stderr"; false; }
		run --separate-stderr -0 papi stat --report pt.json
		[ "$(grep -cF " $note" <<<"$output$stderr")" -eq 1 ]
		run --separate-stderr -0 papi stat --per-thread -x, -e perf::CPU-MIGRATIONS "$work" threads 4 200
		grep -q '^,note,ptrace,.*"ptrace (--per-thread) stopped the command.s tasks 9 times' <<<"$stderr"
	else
		# counted in user space only, a context switch reads 0: no note
		jq -e '.ptrace_note == null' <<<"$stderr"
	fi
	# untraced, or nothing that a stop adds to: no note
	run --separate-stderr -0 papi stat -j -e perf::CONTEXT-SWITCHES "$work" threads 4 200
	jq -e '.ptrace_stops == null and .ptrace_note == null' <<<"$stderr"
	run --separate-stderr -0 papi stat --per-thread -e perf::TASK-CLOCK "$work" threads 4 200
	[[ "$stderr" != *"ptrace"* ]]
}

@test "--per-thread with a command: its signals and stops reach it as without papi stat" {
	run --separate-stderr papi stat --per-thread -e perf::TASK-CLOCK -- sh -c \
		'trap "echo got usr1" USR1; kill -USR1 $$; (sleep 0.2; kill -CONT $$) & kill -STOP $$; echo continued; wait'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'got usr1\ncontinued')" ]
	# the shell, its subshell and sleep
	[ "$(grep -cE '^(sh|sleep)-[0-9]+ +[0-9.]+ ms +perf::TASK-CLOCK' <<<"$stderr")" -eq 3 ] || { echo "$stderr"; false; }
	run --separate-stderr papi stat --per-thread --timeout 100 -e perf::TASK-CLOCK sleep 10
	[ "$status" -eq 143 ]
	grep -q "^sleep-[0-9]" <<<"$stderr"
}

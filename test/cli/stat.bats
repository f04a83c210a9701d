#!/usr/bin/env bats
# stat.bats: papi stat with real child processes and the kernel's software events.

bats_require_minimum_version 1.5.0

setup() {
	TOP=${PAPI_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	BUILD=${PAPI_BUILD:-$TOP/build}
	PAPI=${PAPI_BIN:-$BUILD/papi}
	THREADS=$BUILD/test/cli/stat_threads
	SIG_DFL=$BUILD/test/cli/sig_dfl
	T=$(mktemp -d)
	ulimit -c 0
}

teardown() {
	# whatever a failed test left running (a spinner would keep bats waiting)
	local p
	for p in ${BG:-} ${SPIN:-} ${IDLE:-} ${OUTER:-}; do kill "$p" 2>/dev/null || :; done
	rm -rf "$T"
}

# The value of event $2 in the JSON report $1.
jval() {
	jq -e --arg n "$2" '.events[] | select(.name == $n) | .value' "$1"
}

# waiting PID: process PID sleeps in poll (papi stat: counting, waiting
# for its targets).
waiting() {
	grep -q poll "/proc/$1/wchan" 2>/dev/null
}

# until_waiting PID: return once papi stat PID waits in poll, or has ended.
until_waiting() {
	until waiting "$1" || ! kill -0 "$1" 2>/dev/null; do sleep 0.01; done
}

# released_target FIFO PIDFILE [MS]: start a process that, once a line arrives on
# FIFO, burns MS (default 0) ms of CPU and exits, left a zombie (its parent
# exec'd sleep, which never reaps) so that its end and its times are seen;
# its pid goes to PIDFILE, the outer sleep's to OUTER.
released_target() {
	mkfifo "$1"
	sh -c '"$1" 1 "$4" wait < "$2" > /dev/null & echo $! > "$3"; exec sleep 60' sh \
		"$THREADS" "$1" "$2" "${3:-0}" &
	OUTER=$!
	while [ ! -s "$2" ]; do sleep 0.01; done
}

no_hw_pmu() {
	! ls /sys/bus/event_source/devices/ 2>/dev/null | grep -qx -e cpu -e cpu_core -e armv8_pmuv3_0
}

@test "exit status 0 and the counts on standard error" {
	run --separate-stderr "$PAPI" stat -e perf::TASK-CLOCK,perf::PAGE-FAULTS true
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[[ "$stderr" == *"perf::TASK-CLOCK"* ]]
	[[ "$stderr" == *"perf::PAGE-FAULTS"* ]]
	[[ "$stderr" == *"exit status 0"* ]]
	[[ "$stderr" == *" s    elapsed"* ]]
}

@test "exit status of the command is papi stat's" {
	run "$PAPI" stat -e perf::TASK-CLOCK sh -c 'exit 3'
	[ "$status" -eq 3 ]
	[[ "$output" == *"exit status 3"* ]]
}

@test "command not found exits 127" {
	run -127 "$PAPI" stat -e perf::TASK-CLOCK ./no-such-program-here
	[ "$status" -eq 127 ]
	[[ "$output" == *"cannot run './no-such-program-here'"* ]]
}

@test "command not executable exits 126" {
	printf 'data\n' > "$T/plain"
	chmod 644 "$T/plain"
	run "$PAPI" stat -e perf::TASK-CLOCK "$T/plain"
	[ "$status" -eq 126 ]
	[[ "$output" == *"cannot run"* ]]
}

@test "a command killed by SIGSEGV exits 139 and its counts are printed" {
	run "$PAPI" stat -e perf::TASK-CLOCK sh -c 'kill -SEGV $$'
	[ "$status" -eq 139 ]
	[[ "$output" == *"killed by signal 11"* ]]
	[[ "$output" == *"perf::TASK-CLOCK"* ]]
}

@test "a command killed by SIGKILL exits 137" {
	run "$PAPI" stat -e perf::TASK-CLOCK sh -c 'kill -KILL $$'
	[ "$status" -eq 137 ]
	[[ "$output" == *"killed by signal 9"* ]]
}

@test "SIGTERM to papi stat reaches the command, counts are printed, exit 143" {
	"$PAPI" stat -o "$T/out" -e perf::TASK-CLOCK sleep 60 &
	BG=$!
	for _ in $(seq 100); do
		child=$(pgrep -P "$BG" -x sleep) && break
		sleep 0.1
	done
	[ -n "$child" ]
	kill -TERM "$BG"
	rc=0
	wait "$BG" || rc=$?
	BG=
	[ "$rc" -eq 143 ]
	! kill -0 "$child" 2>/dev/null
	grep -q 'perf::TASK-CLOCK' "$T/out"
	grep -q 'killed by signal 15' "$T/out"
}

@test "standard input and output pass through to the command" {
	run bash -c "echo hi | '$PAPI' stat -o '$T/r' -e perf::TASK-CLOCK cat"
	[ "$status" -eq 0 ]
	[ "$output" = "hi" ]
	grep -q 'perf::TASK-CLOCK' "$T/r"
}

@test "options after the command belong to the command" {
	run --separate-stderr "$PAPI" stat -o "$T/r" -e perf::TASK-CLOCK echo -e x -r 5
	[ "$status" -eq 0 ]
	[ "$output" = "x -r 5" ]
}

@test "-r 5: five runs with mean, stddev, min, median and max" {
	run "$PAPI" stat -r 5 --json -o "$T/j" -e perf::TASK-CLOCK,perf::PAGE-FAULTS true
	[ "$status" -eq 0 ]
	[ "$(jq '.runs' "$T/j")" -eq 5 ]
	jq -e '.events[] | select(.name == "perf::PAGE-FAULTS") |
		(.values | length == 5) and
		((.values | add / length) - .mean | fabs < 0.001) and
		(.min == (.values | min)) and (.max == (.values | max)) and
		(.min <= .median and .median <= .max) and (.stddev >= 0)' "$T/j"
	jq -e '.elapsed.values | length == 5' "$T/j"
	jq -e '.elapsed.min <= .elapsed.median and .elapsed.median <= .elapsed.max' "$T/j"
	run "$PAPI" stat -r 5 -e perf::TASK-CLOCK true
	[[ "$output" == *"5 of 5 runs"* ]]
	[[ "$output" == *"median"* ]]
}

@test "-x: CSV with a header row and fixed columns, read by a CSV parser" {
	run "$PAPI" stat -x ';' -o "$T/c" -e perf::TASK-CLOCK,perf::CONTEXT-SWITCHES sh -c 'echo "a;b"'
	[ "$status" -eq 0 ]
	python3 - "$T/c" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline=''), delimiter=';'))
head = rows[0]
assert head[:5] == ['time', 'kind', 'name', 'value', 'unit'], head
assert all(len(r) == len(head) for r in rows), rows
ev = {r[2]: r for r in rows[1:] if r[1] == 'event'}
assert float(ev['perf::TASK-CLOCK'][3]) > 0 and ev['perf::TASK-CLOCK'][4] == 'ns'
assert int(ev['perf::CONTEXT-SWITCHES'][3]) >= 0
times = {r[2] for r in rows[1:] if r[1] == 'time'}
assert times == {'elapsed', 'user', 'sys'}, times
EOF
}

@test "--json: one valid versioned document, numbers as numbers, in any locale" {
	loc=$(locale -a 2>/dev/null | grep -i -m1 -e '^de_DE' -e '^fr_FR' || echo C)
	LC_ALL=$loc run "$PAPI" stat --json -o "$T/j" -e perf::TASK-CLOCK sh -c 'exit 4'
	[ "$status" -eq 4 ]
	jq -e '.format == "papi-stat" and .version == 1 and .exit_status == 4' "$T/j"
	jq -e '.command == ["sh", "-c", "exit 4"]' "$T/j"
	jq -e '.events[0] | (.value | type) == "number" and .unit == "ns" and
		.time_enabled >= .time_running and .scale >= 1 and (.values | length) == 1' "$T/j"
	jq -e '(.elapsed.mean | type) == "number" and (.user.mean | type) == "number"' "$T/j"
}

@test "the default set: software events, and uncountable presets shown as not supported" {
	run --separate-stderr "$PAPI" stat --json -o "$T/j" true
	[ "$status" -eq 0 ]
	for ev in perf::TASK-CLOCK perf::CONTEXT-SWITCHES perf::CPU-MIGRATIONS perf::PAGE-FAULTS; do
		jq -e --arg n "$ev" '.events[] | select(.name == $n) | .available' "$T/j"
	done
	[ "$(jq '[.events[] | select(.name | startswith("PAPI_"))] | length' "$T/j")" -eq 4 ]
	if no_hw_pmu; then
		jq -e '.events[] | select(.name == "PAPI_TOT_CYC") | .available == false and (.reason | length > 0)' "$T/j"
		run "$PAPI" stat true
		[ "$(grep -c '<not supported> PAPI_' <<< "$output")" -eq 4 ]
		[ "$(grep -c 'Not supported:' <<< "$output")" -eq 1 ]
	fi
}

@test "derived metrics: CPU utilization from task-clock and elapsed" {
	run "$PAPI" stat --json -o "$T/j" -e perf::TASK-CLOCK "$THREADS" 1 30
	[ "$status" -eq 0 ]
	jq -e '.metrics[] | select(.name == "cpu_utilization") | .value > 0 and .value < 64' "$T/j"
}

@test "a multi-threaded command: task-clock is the sum over its threads" {
	[ -x "$THREADS" ] || skip "test helper not built ($THREADS)"
	"$PAPI" stat --json -o "$T/j" -e perf::TASK-CLOCK "$THREADS" 4 40 > "$T/sum"
	sum=$(cat "$T/sum")
	clk=$(jval "$T/j" perf::TASK-CLOCK)
	# every thread's CPU time, and a little more for start-up and the joins
	[ "$clk" -ge $((sum * 95 / 100)) ]
	[ "$clk" -le $((sum * 2 + 50000000)) ]
	"$PAPI" stat --no-inherit --json -o "$T/j" -e perf::TASK-CLOCK "$THREADS" 4 40 > "$T/sum"
	one=$(jval "$T/j" perf::TASK-CLOCK)
	[ "$one" -lt $(($(cat "$T/sum") / 2)) ]
}

@test "child processes are followed" {
	"$PAPI" stat --json -o "$T/j" -e perf::TASK-CLOCK sh -c "'$THREADS' 1 40 >/dev/null; '$THREADS' 1 40" > "$T/sum"
	clk=$(jval "$T/j" perf::TASK-CLOCK)
	[ "$clk" -ge $(($(cat "$T/sum") * 2 * 9 / 10)) ]
}

@test "-p: attach to a sleeping process until --timeout" {
	# it wakes once while attached (a line on the FIFO), then sleeps again
	mkfifo "$T/fifo"
	sh -c 'read x; read y' < "$T/fifo" &
	BG=$!
	exec {w}> "$T/fifo"
	"$PAPI" stat -p "$BG" --timeout 1500 --json -o "$T/j" -e perf::TASK-CLOCK &
	st=$!
	until_waiting "$st"
	echo wake >&"$w"
	rc=0
	wait "$st" || rc=$?
	kill -0 "$BG"	# left alone: still waiting for its second line
	exec {w}>&-
	[ "$rc" -eq 0 ]
	jq -e '.command == null and .pids == [ '"$BG"' ] and .exit_status == null' "$T/j"
	[ "$(jval "$T/j" perf::TASK-CLOCK)" -gt 0 ]
	jq -e '.elapsed.mean >= 1.5' "$T/j"
}

@test "-p/-t: user and sys are the CPU time the targets used while attached" {
	[ -x "$THREADS" ] || skip "test helper not built ($THREADS)"
	# A process that burns 300 ms of CPU once released, whatever the load,
	# and stays a zombie when done (its parent exec'd sleep, which never
	# reaps), so that its end and its times are both seen.
	released_target "$T/go" "$T/pid" 300
	"$PAPI" stat -p "$(cat "$T/pid")" --json -o "$T/spin" -e perf::TASK-CLOCK &
	st=$!
	until_waiting "$st"
	echo go > "$T/go"
	wait "$st"
	# all the work happened while attached: user + sys is the task clock,
	# within the clock ticks (10 ms each) that /proc rounds both to, and
	# 10% more: under make check-sanitize (the target's sanitizer runtime)
	# two runs of three differed by more than 50 ms
	jq -e '.events[0].value >= 250000000' "$T/spin"
	jq -e '.events[0].value as $v | ((.user.values[0] + .sys.values[0]) * 1e9 - $v) | fabs <= 50000000 + 0.1 * $v' "$T/spin"
	# and no more than the elapsed time (one thread)
	jq -e '.user.values[0] + .sys.values[0] <= .elapsed.values[0] + 0.05' "$T/spin"
	# a sleeping thread: none
	sleep 30 &
	IDLE=$!
	run timeout 20 "$PAPI" stat -t "$IDLE" --timeout 300 --json -o "$T/idle" -e perf::TASK-CLOCK
	kill "$IDLE"
	[ "$status" -eq 0 ]
	jq -e '.user.values[0] <= 0.02 and .sys.values[0] <= 0.02' "$T/idle"
	# and the human report shows both lines
	sh -c 'while :; do :; done' &
	SPIN=$!
	run timeout 20 "$PAPI" stat -p "$SPIN" --timeout 200 -e perf::TASK-CLOCK
	kill "$SPIN"
	[[ "$output" == *" s    user"* && "$output" == *" s    sys"* ]]
}

@test "-p: a target that exits while attached (a zombie until reaped) still has its times" {
	[ -x "$THREADS" ] || skip "test helper not built ($THREADS)"
	released_target "$T/go" "$T/pid"
	"$PAPI" stat -p "$(cat "$T/pid")" --json -o "$T/j" -e perf::TASK-CLOCK &
	st=$!
	until_waiting "$st"
	echo go > "$T/go"
	status=0
	wait "$st" || status=$?
	[ "$status" -eq 0 ]
	jq -e '.user.values[0] != null and .sys.values[0] != null and .user.values[0] <= 0.05' "$T/j"
}

@test "-p: counting ends when the process exits" {
	sleep 30 &
	BG=$!
	"$PAPI" stat -p "$BG" -o "$T/out" -e perf::TASK-CLOCK &
	st=$!
	until_waiting "$st"
	kill "$BG"
	rc=0
	wait "$st" || rc=$?
	[ "$rc" -eq 0 ]
	grep -q "Counts of process $BG" "$T/out"
}

@test "-t: attach to one thread; SIGINT stops counting and leaves it alone" {
	sleep 30 &
	BG=$!
	"$PAPI" stat -t "$BG" -o "$T/out" -e perf::TASK-CLOCK &
	st=$!
	# once it waits, its handler is in place (a background job starts
	# with SIGINT ignored)
	until_waiting "$st"
	kill -INT "$st"
	rc=0
	wait "$st" || rc=$?
	[ "$rc" -eq 0 ]
	grep -q "thread $BG" "$T/out"
	kill -0 "$BG"
}

@test "-p with a process that does not exist fails with status 1" {
	run "$PAPI" stat -p 0 -e perf::TASK-CLOCK
	[ "$status" -eq 2 ]
	run "$PAPI" stat -p 12,abc -e perf::TASK-CLOCK
	[ "$status" -eq 2 ]
	run "$PAPI" stat -p 4000000 -e perf::TASK-CLOCK
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot attach to process 4000000"* ]]
}

@test "-I: a row per interval, idle intervals print 0" {
	run "$PAPI" stat -I 100 -x, -o "$T/c" -e perf::TASK-CLOCK sleep 0.75
	[ "$status" -eq 0 ]
	python3 - "$T/c" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
iv = [r for r in rows[1:] if r[1] == 'interval']
assert len(iv) >= 3, rows
times = [float(r[0]) for r in iv]
assert times == sorted(times) and times[0] > 0, times
assert any(int(r[3]) == 0 for r in iv), iv
total = [r for r in rows[1:] if r[1] == 'event']
assert len(total) == 1 and int(total[0][3]) >= sum(int(r[3]) for r in iv)
EOF
	run "$PAPI" stat -I 100 --json -o "$T/j" -e perf::TASK-CLOCK sleep 0.35
	jq -e '.interval_ms == 100 and (.intervals | length) >= 2' "$T/j"
}

@test "unknown events fail with status 1 and name the event" {
	run "$PAPI" stat -e perf::TASK-CLOCK,NO_SUCH_EVENT_X true
	[ "$status" -eq 1 ]
	[[ "$output" == *"NO_SUCH_EVENT_X"* ]]
	run "$PAPI" stat -e perf::NO-SUCH-THING true
	[ "$status" -eq 1 ]
	[[ "$output" == *"perf::NO-SUCH-THING"* ]]
}

@test "usage errors exit 2" {
	run "$PAPI" stat
	[ "$status" -eq 2 ]
	run "$PAPI" stat --no-such-option true
	[ "$status" -eq 2 ]
	run "$PAPI" stat -r 0 true
	[ "$status" -eq 2 ]
	run "$PAPI" stat -r x true
	[ "$status" -eq 2 ]
	run "$PAPI" stat -x ab true
	[ "$status" -eq 2 ]
	run "$PAPI" stat -x, --json true
	[ "$status" -eq 2 ]
	run "$PAPI" stat -e '' true
	[ "$status" -eq 2 ]
	run "$PAPI" stat -e a,,b true
	[ "$status" -eq 2 ]
	run "$PAPI" stat -p 1 true
	[ "$status" -eq 2 ]
	run "$PAPI" stat -e
	[ "$status" -eq 2 ]
	# an empty id in -p/-t, as an empty name in -e (timeout: an attach
	# that wrongly went ahead would count until interrupted)
	local ids
	for ids in 1,,2 ,1 1, ''; do
		run --separate-stderr timeout 10 "$PAPI" stat -p "$ids" -e perf::TASK-CLOCK
		[ "$status" -eq 2 ]
		[ "$stderr" = "papi stat: empty id in '-p $ids'"$'\n'"Try 'papi stat --help'." ]
		run timeout 10 "$PAPI" stat -t "$ids" -e perf::TASK-CLOCK
		[ "$status" -eq 2 ]
	done
}

@test "--help on stdout, exit 0" {
	run --separate-stderr "$PAPI" stat --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--no-multiplex"* ]]
	[[ "$output" == *"-e, --event"* ]]
}

@test "-o FILE: the report goes there, nothing to standard error" {
	run --separate-stderr "$PAPI" stat -o "$T/r" -e perf::TASK-CLOCK true
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	grep -q 'perf::TASK-CLOCK' "$T/r"
	run "$PAPI" stat -o /nonexistent/dir/file -e perf::TASK-CLOCK true
	[ "$status" -eq 1 ]
}

# The command's signal state: ignored, blocked and caught masks from /proc.
# grep reads its own status (a shell that forked it could be reading it while
# the shell blocks every signal around its wait).
SIGSTATE=(grep -E "^Sig(Ign|Blk|Cgt)" /proc/self/status)
sigstate() {
	"${SIGSTATE[@]}"
}

@test "the command starts with the signal state papi stat was given (spawned and forked)" {
	want=$( (trap '' HUP QUIT; "${SIGSTATE[@]}") )
	[[ "$want" == *"SigIgn:"*"5"* ]]	# HUP (1) and QUIT (3) ignored: bits 0 and 2
	for mode in "" --no-inherit -I1000; do
		got=$( (trap '' HUP QUIT; "$PAPI" stat $mode -o /dev/null -e perf::TASK-CLOCK \
			"${SIGSTATE[@]}") )
		[ "$got" = "$want" ] || { echo "mode '$mode': got $got, want $want"; false; }
	done
	# and nothing ignored when nothing was
	want=$(sigstate)
	got=$("$PAPI" stat -o /dev/null -e perf::TASK-CLOCK "${SIGSTATE[@]}")
	[ "$got" = "$want" ]
	# glibc's internal signals (32, 33) at their default, as under a shell
	# (make, which runs the tests, starts them ignored): still so for the
	# command, though glibc's posix_spawn would ignore them in its child
	want=$("$SIG_DFL" "${SIGSTATE[@]}")
	[[ "$want" == *"SigIgn:"*"0000000000000000"* ]]
	got=$("$SIG_DFL" "$PAPI" stat -o /dev/null -e perf::TASK-CLOCK "${SIGSTATE[@]}")
	[ "$got" = "$want" ] || { echo "under sig_dfl: got $got, want $want"; false; }
}

@test "spawned (default) and attached (-I) runs count the same work alike" {
	command -v jq >/dev/null || skip "jq is not installed"
	# Page faults of a command that touches 16 MiB: about 4096 either way.
	prog="head -c 16777216 /dev/zero | wc -c >/dev/null"
	"$PAPI" stat --json -o "$T/a" -e perf::PAGE-FAULTS sh -c "$prog"
	"$PAPI" stat --json -I 10000 -o "$T/b" -e perf::PAGE-FAULTS sh -c "$prog"
	a=$(jval "$T/a" perf::PAGE-FAULTS) b=$(jval "$T/b" perf::PAGE-FAULTS)
	[ "$a" -gt 50 ] && [ "$b" -gt 50 ]
	d=$((a > b ? a - b : b - a))
	[ $((d * 4)) -lt "$a" ] || { echo "spawned $a, attached $b"; false; }
}

@test "a script without #! runs through /bin/sh, as execvp does (also found on PATH, repeated)" {
	printf 'echo "ran $1"\nexit 3\n' > "$T/plain"
	chmod +x "$T/plain"
	run --separate-stderr "$PAPI" stat -e perf::TASK-CLOCK "$T/plain" one
	[ "$status" -eq 3 ]
	[ "$output" = "ran one" ]
	[[ "$stderr" == *"perf::TASK-CLOCK"* ]]
	PATH="$T:$PATH" run --separate-stderr "$PAPI" stat -r 2 -e perf::TASK-CLOCK plain two
	[ "$status" -eq 3 ]
	[ "$output" = "ran two"$'\n'"ran two" ]
}

#!/usr/bin/env bats
# stat-run.bats: papi stat's course: intervals that add up to the total (also after a signal), --timeout and its escalation.

load helper

setup() {
	papi_isolate
	THREADS=${PAPI_BUILD:-$PAPI_TOP/build}/test/cli/stat_threads
	[ -x "$THREADS" ] || skip "test helper not built ($THREADS)"
}

teardown() {
	[ -z "${BG:-}" ] || kill "$BG" 2>/dev/null || :
}

# Start "$@" with SIGINT at its default action (a shell starts background
# jobs with it ignored), in the background; its pid in BG.
start_int_dfl() {
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@" &
	BG=$!
}

# sums_match CSV: every event's interval rows add up to its total row, and
# the last interval ends at the elapsed time.
sums_match() {
	python3 - "$1" <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
head = rows[0]
iv = [r for r in rows[1:] if r[1] == 'interval']
total = {r[2]: int(r[3]) for r in rows[1:] if r[1] == 'event'}
assert iv and total, rows
for name, t in total.items():
    s = sum(int(r[3]) for r in iv if r[2] == name)
    assert s == t, (name, s, t)
elapsed = [r[3] for r in rows[1:] if r[1] == 'time' and r[2] == 'elapsed']
assert float(iv[-1][0]) == float(elapsed[0]), (iv[-1][0], elapsed)
times = [float(r[0]) for r in iv]
assert times == sorted(times), times
EOF
}

@test "stat -I, CSV: the intervals add up to the total, the last one cut short by the end" {
	run -0 papi stat -I 40 -x, -o c.csv -e perf::TASK-CLOCK,perf::PAGE-FAULTS "$THREADS" 1 150
	sums_match c.csv
}

@test "stat -I, JSON: the intervals add up to the total" {
	run -0 papi stat -I 40 --json -o j.json -e perf::TASK-CLOCK,perf::PAGE-FAULTS "$THREADS" 1 150
	jq -e '[range(0; .events | length) as $i |
		([.intervals[].values[$i]] | add) == .events[$i].value] | all' j.json
	jq -e '.intervals[-1].time == .elapsed.values[0]' j.json
}

@test "stat -I, text: the interval lines add up to the total" {
	run -0 --separate-stderr papi stat -I 40 -e perf::PAGE-FAULTS "$THREADS" 1 150
	sum=$(awk '$NF ~ /^perf::PAGE-FAULTS(:u)?$/ && NF == 3 { s += $2 } END { print s }' <<< "$stderr")
	total=$(awk '$NF ~ /^perf::PAGE-FAULTS(:u)?$/ && NF == 2 { print $1 }' <<< "$stderr")
	[ -n "$total" ] && [ "$sum" -eq "$total" ] || { echo "$stderr"; false; }
}

@test "stat -I: after SIGINT the intervals still add up to the total (command and attached)" {
	start_int_dfl "$PAPI_BIN" stat -I 30 -x, -o c.csv -e perf::TASK-CLOCK,perf::PAGE-FAULTS \
		"$THREADS" 1 100000
	until [ "$(grep -c interval c.csv 2>/dev/null)" -ge 4 ]; do sleep 0.01; done
	kill -INT "$BG"
	rc=0
	wait "$BG" || rc=$?
	BG=
	[ "$rc" -eq 130 ]
	sums_match c.csv
	# attached: SIGINT stops counting, the target runs on
	"$THREADS" 1 100000 > /dev/null &
	SPIN=$!
	start_int_dfl "$PAPI_BIN" stat -I 30 -x, -o a.csv -p "$SPIN" -e perf::TASK-CLOCK,perf::PAGE-FAULTS
	until [ "$(grep -c interval a.csv 2>/dev/null)" -ge 4 ]; do sleep 0.01; done
	kill -INT "$BG"
	rc=0
	wait "$BG" || rc=$?
	BG=
	kill -0 "$SPIN"
	kill "$SPIN"
	[ "$rc" -eq 0 ]
	sums_match a.csv
}

@test "stat --timeout: a command that ignores SIGTERM gets SIGKILL after --kill-after, and says so" {
	run -137 timeout 30 "$PAPI_BIN" stat --timeout 100 --kill-after 200 -e perf::TASK-CLOCK \
		sh -c 'trap "" TERM; while :; do sleep 0.05; done'
	[[ "$output" == *"killed by signal 9"* ]]
	[[ "$output" == *"--timeout sent SIGTERM after 100 ms, then SIGKILL after 200 ms more"* ]]
	run -137 timeout 30 "$PAPI_BIN" stat --json -o j.json --timeout 100 --kill-after 200 \
		-e perf::TASK-CLOCK sh -c 'trap "" TERM; while :; do sleep 0.05; done'
	jq -e '.signal == 9 and .exit_status == 137' j.json
	jq -e '.timeout == {"ms": 100, "kill_after_ms": 200, "sent": ["SIGTERM", "SIGKILL"]}' j.json
	run -137 timeout 30 "$PAPI_BIN" stat -x, -o c.csv --timeout 100 --kill-after 200 \
		-e perf::TASK-CLOCK sh -c 'trap "" TERM; while :; do sleep 0.05; done'
	grep -q '^,signal,SIGTERM,100,ms,' c.csv
	grep -q '^,signal,SIGKILL,300,ms,' c.csv
}

@test "stat --timeout: a command that ends on SIGTERM gets no SIGKILL; the default grace is 2 s" {
	run -143 papi stat --timeout 100 -e perf::TASK-CLOCK sleep 30
	[[ "$output" == *"killed by signal 15"* ]]
	[[ "$output" == *"--timeout sent SIGTERM after 100 ms"* ]]
	[[ "$output" != *"SIGKILL"* ]]
	# a command that ignores SIGTERM: SIGKILL 2000 ms later by default
	run -137 timeout 30 "$PAPI_BIN" stat --json -o j.json --timeout 100 -e perf::TASK-CLOCK \
		sh -c 'trap "" TERM; while :; do sleep 0.05; done'
	jq -e '.timeout.kill_after_ms == 2000 and .elapsed.values[0] >= 2.1' j.json
	papi stat --help | grep -q -- '--kill-after=MS.*(2000)'
}

@test "stat --kill-after: needs --timeout, and a command" {
	run -2 papi stat --kill-after 100 -e perf::TASK-CLOCK true
	[[ "$output" == *"--kill-after needs --timeout"* ]]
	run -2 papi stat --kill-after 100 --timeout 100 -p 1 -e perf::TASK-CLOCK
	[[ "$output" == *"never signalled"* ]]
	run -2 papi stat --kill-after 0 --timeout 100 true
}

@test "--interval-count N: counting stops after N intervals; they add up to the total" {
	run --separate-stderr papi stat -j -I 30 --interval-count 2 -e perf::TASK-CLOCK \
		sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'
	[ "$status" -eq 0 ]
	jq -e '.intervals | length == 2' <<<"$stderr"
	jq -e '([.intervals[].values[0]] | add) == .events[0].value' <<<"$stderr"
	# the time counted, not the command's: two intervals, to the second read
	jq -e '.elapsed.mean >= 0.06 and .elapsed.mean == .intervals[-1].time' <<<"$stderr"
	run papi stat --interval-count 2 true
	[ "$status" -eq 2 ]
	[[ "$output" == *"--interval-count needs -I"* ]]
	run papi stat -I 10 --interval-count 0 true
	[ "$status" -eq 2 ]
}

@test "--delay MS: counting starts MS after the command; a command that ends sooner counts nothing" {
	# a command that ends before the delay: nothing is counted
	run --separate-stderr papi stat -j --delay 3000 -e perf::TASK-CLOCK,perf::PAGE-FAULTS true
	[ "$status" -eq 0 ]
	jq -e '.elapsed.mean == 0' <<<"$stderr"
	# what the command does before the delay is not counted: its page
	# faults come first (sort's buffers), then it only sleeps
	run --separate-stderr papi stat -j -D 1500 -e perf::PAGE-FAULTS \
		sh -c 'seq 1 300000 | sort -n >/dev/null; sleep 2'
	[ "$status" -eq 0 ]
	jq -e '.events[0].value < 200' <<<"$stderr"
	run --separate-stderr papi stat -j -e perf::PAGE-FAULTS \
		sh -c 'seq 1 300000 | sort -n >/dev/null; sleep 0.1'
	jq -e '.events[0].value > 1000' <<<"$stderr"
	# intervals begin with the counting: the delay's 100 ms are in no row,
	# so the counted time is at least that much under the run's wall time
	# (however long the command took to start)
	local t0 t1
	t0=$(date +%s.%N)
	run --separate-stderr papi stat -j -D 100 -I 100 -e perf::TASK-CLOCK sleep 0.35
	t1=$(date +%s.%N)
	jq -e --argjson t0 "$t0" --argjson t1 "$t1" '.intervals[0].time >= 0.1 and
		.intervals[-1].time == .elapsed.mean and .elapsed.mean <= $t1 - $t0 - 0.1' <<<"$stderr" ||
		{ echo "$stderr wall $t0 $t1"; false; }
	run papi stat --delay 0 true
	[ "$status" -eq 2 ]
}

# A command that ends with status 3 on its first run only (a file in the test
# dir counts the runs), or with signal 15 on its second only.
FIRST_FAILS='n=$(cat runs 2>/dev/null || echo 0); echo $((n + 1)) > runs; [ "$n" -gt 0 ] || exit 3'
SECOND_KILLED='n=$(cat runs 2>/dev/null || echo 0); echo $((n + 1)) > runs; [ "$n" -ne 1 ] || kill -TERM $$'

@test "stat -r: every run's exit status is reported, and a failed run is papi stat's status" {
	# every run fails
	run -3 --separate-stderr papi stat -r 3 -e perf::TASK-CLOCK sh -c 'exit 3'
	[[ "$stderr" == *"(3 of 3 runs, exit status of each: 3, 3, 3; run 3 exit status 3)"* ]] ||
		{ echo "$stderr"; false; }
	run -3 papi stat -r 3 -j -o j.json -e perf::TASK-CLOCK sh -c 'exit 3'
	jq -e '.exit_status == 3 and .exit_statuses == [3, 3, 3] and .signals == [null, null, null]' j.json
	# only the first fails: the later successes do not hide it
	rm -f runs
	run -3 --separate-stderr papi stat -r 3 -e perf::TASK-CLOCK sh -c "$FIRST_FAILS"
	[[ "$stderr" == *"(3 of 3 runs, exit status of each: 3, 0, 0; run 1 exit status 3)"* ]] ||
		{ echo "$stderr"; false; }
	rm -f runs
	run -3 papi stat -r 3 -j -o j.json -e perf::TASK-CLOCK sh -c "$FIRST_FAILS"
	jq -e '.exit_status == 3 and .exit_statuses == [3, 0, 0] and .signal == null' j.json
	rm -f runs
	run -3 papi stat -r 3 -x, -o c.csv -e perf::TASK-CLOCK sh -c "$FIRST_FAILS"
	grep -q '^,run,1,3,exit_status,' c.csv
	grep -q '^,run,2,0,exit_status,' c.csv
	grep -q '^,run,3,0,exit_status,' c.csv
	# a signal in the middle run: 128+15, in every format
	rm -f runs
	run -143 --separate-stderr papi stat -r 3 -e perf::TASK-CLOCK sh -c "$SECOND_KILLED"
	[[ "$stderr" == *"exit status of each: 0, signal 15, 0; run 2 killed by signal 15"* ]] ||
		{ echo "$stderr"; false; }
	rm -f runs
	run -143 papi stat -r 3 -j -o j.json -e perf::TASK-CLOCK sh -c "$SECOND_KILLED"
	jq -e '.exit_status == 143 and .signal == 15 and .exit_statuses == [0, 143, 0] and
		.signals == [null, 15, null]' j.json
	rm -f runs
	run -143 papi stat -r 3 -x, -o c.csv -e perf::TASK-CLOCK sh -c "$SECOND_KILLED"
	grep -q '^,run,2,143,exit_status,.*killed by signal 15' c.csv
	# all succeed: 0, each run said
	run -0 --separate-stderr papi stat -r 2 -e perf::TASK-CLOCK true
	[[ "$stderr" == *"(2 of 2 runs, exit status of each: 0, 0; all exited 0)"* ]] ||
		{ echo "$stderr"; false; }
}

@test "--delay longer than the command: every event is <not counted>, with the reason, in every format" {
	why="the command ended before --delay's 3000 ms: counting never started"
	run -0 --separate-stderr papi stat --delay 3000 -e perf::TASK-CLOCK,perf::PAGE-FAULTS true
	grep -Eq '^ +<not counted> perf::TASK-CLOCK(:u)?$' <<<"$stderr" || { echo "$stderr"; false; }
	grep -Eq '^ +<not counted> perf::PAGE-FAULTS(:u)?$' <<<"$stderr" || { echo "$stderr"; false; }
	[[ "$stderr" == *"Not counted: perf::TASK-CLOCK, perf::PAGE-FAULTS:"*"$why"* ]] || { echo "$stderr"; false; }
	run -0 papi stat -j -o j.json --delay 3000 -e perf::TASK-CLOCK,perf::PAGE-FAULTS true
	jq -e --arg why "$why" '[.events[] | .available and .counted == false and .value == null and
		.reason == $why] | all' j.json
	run -0 papi stat -x, -o c.csv --delay 3000 -e perf::TASK-CLOCK,perf::PAGE-FAULTS true
	grep -qF ",event,perf::TASK-CLOCK,,ns,,,,,,,,,not counted: $why," c.csv
	grep -qF ",event,perf::PAGE-FAULTS,,count,,,,,,,,,not counted: $why," c.csv
	# a delay the command outlasts counts as usual
	run -0 papi stat -j -o j.json --delay 50 -e perf::TASK-CLOCK sleep 0.3
	jq -e '.events[0].counted and .events[0].value > 0' j.json
}

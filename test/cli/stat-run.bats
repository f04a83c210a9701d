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
	sum=$(awk '$NF == "perf::PAGE-FAULTS" && NF == 3 { s += $2 } END { print s }' <<< "$stderr")
	total=$(awk '$NF == "perf::PAGE-FAULTS" && NF == 2 { print $1 }' <<< "$stderr")
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

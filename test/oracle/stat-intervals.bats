#!/usr/bin/env bats
# stat-intervals.bats: papi stat -I against the clock and the workload's own CPU time: rows read when they are read, never invented, adding up to the total.

load ../cli/helper

setup() {
	papi_isolate
	THREADS=${PAPI_BUILD:-$PAPI_TOP/build}/test/cli/stat_threads
	[ -x "$THREADS" ] || skip "test helper not built ($THREADS)"
}

teardown() {
	[ -z "${BG:-}" ] || kill -CONT "$BG" 2>/dev/null || :
	[ -z "${BG:-}" ] || kill "$BG" 2>/dev/null || :
}

# check_rows CSV STEP_S CPU_NS [STOPPED_S]: the interval rows of CSV (from
# -I STEP) against the clock and the workload's CPU time CPU_NS (what
# stat_threads printed, from CLOCK_THREAD_CPUTIME_ID):
# - each event's rows add up to its total, exactly;
# - times strictly increase, row k no sooner than (k+1)*STEP (rows are due
#   every STEP and read at or after that), the last at the elapsed time;
# - no row shorter than half a step but the last (no catch-up rows);
# - perf::TASK-CLOCK's total is the workload's CPU time (its threads', or its
#   rusage), to 5% or 20 ms either way (the clocks differ in what they leave
#   out), and no row but the last
#   reads 0 (the workload spins from its exec to its end);
# - with STOPPED_S, some row is at least that long (papi was stopped).
check_rows() {
	python3 - "$@" <<'PY'
import csv, sys
path, step, cpu = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
stopped = float(sys.argv[4]) if len(sys.argv) > 4 else None
rows = list(csv.reader(open(path, newline='')))
iv = [r for r in rows[1:] if r[1] == 'interval']
total = {r[2]: int(r[3]) for r in rows[1:] if r[1] == 'event'}
elapsed = float([r[3] for r in rows[1:] if r[1] == 'time' and r[2] == 'elapsed'][0])
def fail(*what):
    print('FAIL:', *what, file=sys.stderr)
    for r in rows: print(','.join(r), file=sys.stderr)
    sys.exit(1)
for name, t in total.items():
    s = sum(int(r[3]) for r in iv if r[2] == name)
    if s != t: fail(name, 'intervals add up to', s, 'the total is', t)
tc = [r for r in iv if r[2] == 'perf::TASK-CLOCK']
times = [float(r[0]) for r in tc]
if len(times) < 3: fail('fewer than 3 intervals:', times)
for k, t in enumerate(times[:-1]):
    if t < (k + 1) * step - 1e-9: fail('row', k, 'at', t, 's, before it was due at', (k + 1) * step)
if any(b <= a for a, b in zip(times, times[1:])): fail('times do not increase:', times)
if times[-1] != elapsed: fail('last row at', times[-1], 'elapsed', elapsed)
lens = [b - a for a, b in zip([0.0] + times, times)]
if min(lens[:-1]) < step / 2 - 1e-9: fail('a row of', min(lens[:-1]), 's: a catch-up row')
zero = [k for k, r in enumerate(tc[:-1]) if int(r[3]) == 0]
if zero: fail('perf::TASK-CLOCK reads 0 in rows', zero, 'while the workload spins')
tot = total['perf::TASK-CLOCK']
# The workload's threads measure their own CPU; what its process spent
# before them (the sanitizers' runtimes start in some 80 ms) only the
# kernel's accounting of the child has: wait4's rusage, the user and sys
# rows. Either must agree.
ru = sum(float(r[3]) for r in rows[1:] if r[1] == 'time' and r[2] in ('user', 'sys')) * 1e9
if abs(tot - cpu) > max(cpu * 0.05, 20e6) and abs(tot - ru) > max(ru * 0.05, 20e6):
    fail('perf::TASK-CLOCK', tot, 'ns; the workload used', cpu, 'ns of CPU in its threads,', ru,
         'ns by its rusage (tolerance 5% or 20 ms)')
if stopped is not None and max(lens) < stopped:
    fail('no row as long as the', stopped, 's papi was stopped:', lens)
PY
}

@test "-I: rows at the clock's time, due every step, adding up to the total; task clock = the workload's CPU time" {
	run -0 --separate-stderr papi stat -I 50 -x, -o c.csv -e perf::TASK-CLOCK,perf::PAGE-FAULTS "$THREADS" 2 300
	check_rows c.csv 0.05 "$output"
	# JSON: the same rows, times increasing, the last at the elapsed time
	run -0 --separate-stderr papi stat -I 50 -j -o j.json -e perf::TASK-CLOCK "$THREADS" 1 300
	jq -e '[.intervals[].time] as $t | ([range(1; $t | length) | $t[.] > $t[. - 1]] | all)
		and $t[-1] == .elapsed.values[0]' j.json
	jq -e '([.intervals[].values[0]] | add) == .events[0].value' j.json
}

@test "-I: papi stopped for half a second: one long row at the real time, no rows of 0 after it" {
	"$PAPI_BIN" stat -I 100 -x, -o c.csv -e perf::TASK-CLOCK "$THREADS" 1 2000 > cpu.txt &
	BG=$!
	until [ "$(grep -c ',interval,' c.csv 2>/dev/null)" -ge 3 ]; do sleep 0.01; done
	kill -STOP "$BG"
	sleep 0.5
	kill -CONT "$BG"
	wait "$BG"
	BG=
	check_rows c.csv 0.1 "$(cat cpu.txt)" 0.5
}

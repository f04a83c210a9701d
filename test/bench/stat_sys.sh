#!/bin/sh
# stat_sys.sh: what papi stat -a and -I 10 cost beside perf stat doing the same work.
#   1. -a over every online CPU around `true`: opening a counter per CPU and
#      event, spawning, reading, closing (the wall time of the whole run);
#   2. -I 10 over `sleep 1`: a hundred intervals read and printed; sleep
#      uses almost no CPU, so the user and system time hyperfine reports is
#      the tool's own cost of the intervals.
# Usage: sh test/bench/stat_sys.sh [BUILD]   (a benchmark, not a test: it
# asserts nothing). Needs hyperfine, root (or perf_event_paranoid 0) for -a,
# and perf for the other column.
set -eu
build=${1:-build}
papi=$(cd "$build" && pwd)/papi
runs=${RUNS:-30}
iruns=${RUNS_I:-10}
command -v hyperfine >/dev/null || { echo "stat_sys.sh: hyperfine is not installed" >&2; exit 0; }
# hf RUNS COMMAND...: hyperfine's mean, spread and user/system time of each.
hf() {
	n=$1
	shift
	hyperfine -N --warmup 3 --runs "$n" --style basic "$@" 2>&1 | grep -E '^Benchmark|Time|Range'
}
t=$(command -v true)
s=$(command -v sleep)
perf_ok() { command -v perf >/dev/null && perf stat "$@" -o /dev/null "$t" 2>/dev/null; }

echo "== papi stat -a beside perf stat -a: default events, the software ones ($(getconf _NPROCESSORS_ONLN) CPUs; hyperfine, $runs runs)"
if "$papi" stat -a -o /dev/null "$t" 2>/dev/null; then
	set -- "$papi stat -a -o /dev/null $t" "$papi stat -a -o /dev/null -e perf::CPU-CLOCK,perf::CS,perf::PAGE-FAULTS $t"
	perf_ok -a && set -- "$@" "perf stat -a -o /dev/null $t" "perf stat -a -o /dev/null -e cpu-clock,cs,page-faults $t"
	hf "$runs" "$@"
else
	echo "papi stat -a: not allowed here (needs root or perf_event_paranoid 0)"
fi

echo
echo "== -I 10 over 'sleep 1' (user and system time: the tool's own cost of 100 intervals; $iruns runs)"
set -- "$papi stat -I 10 -o /dev/null -e perf::TASK-CLOCK,perf::PAGE-FAULTS $s 1"
perf_ok -I 10 -e task-clock && set -- "$@" "perf stat -I 10 -o /dev/null -e task-clock,page-faults $s 1"
hf "$iruns" "$@"
if "$papi" stat -a -o /dev/null "$t" 2>/dev/null; then
	set -- "$papi stat -a -I 10 -o /dev/null -e perf::CPU-CLOCK,perf::CS $s 1"
	perf_ok -a -I 10 -e cpu-clock && set -- "$@" "perf stat -a -I 10 -o /dev/null -e cpu-clock,cs $s 1"
	hf "$iruns" "$@"
fi

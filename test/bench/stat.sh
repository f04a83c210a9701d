#!/bin/sh
# stat.sh: start-up cost of papi stat: a bare `true`, `papi stat -e perf::TASK-CLOCK true`
# and, where installed, `perf stat -e task-clock true`, side by side in one hyperfine run.
# Usage: sh test/bench/stat.sh [BUILD]   (a benchmark, not a test: it asserts nothing)
set -eu
build=${1:-build}
papi=$(cd "$build" && pwd)/papi
command -v hyperfine >/dev/null || { echo "stat.sh: hyperfine is not installed" >&2; exit 1; }
[ -x "$papi" ] || { echo "stat.sh: $papi not built (make)" >&2; exit 1; }
t=$(command -v true)
set -- "$t" "$papi stat -o /dev/null -e perf::TASK-CLOCK $t"
if command -v perf >/dev/null && perf stat -e task-clock -o /dev/null "$t" 2>/dev/null; then
	set -- "$@" "perf stat -o /dev/null -e task-clock $t"
fi
exec hyperfine -N --warmup 20 --runs "${RUNS:-300}" "$@"

#!/bin/sh
# make demo: show the main job on this machine: which events exist, then
# count a small bundled workload with them.
set -eu
build=${1:-build}
papi="$build/papi"
work="$build/demo-workload"
top=$(cd "$(dirname "$0")/../.." && pwd)
${CC:-cc} -O1 -o "$work" "$top/test/tools/workload.c"

echo "== papi version"
"$papi" version
echo
if "$papi" --list-cmds | grep -q '^native'; then
	echo "== papi native (first 25 lines; the full list: $papi native)"
	"$papi" native | head -n 25
	echo
fi
if "$papi" --list-cmds | grep -q '^stat'; then
	echo "== papi stat $work"
	"$papi" stat "$work"
else
	echo "== papi command-line perf::TASK-CLOCK perf::PAGE-FAULTS -- $work"
	"$papi" command-line perf::TASK-CLOCK perf::PAGE-FAULTS -- "$work"
fi

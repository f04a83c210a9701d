#!/bin/sh
# Run each libFuzzer target for a bounded time: fuzz-run.sh SECONDS BIN...
# Seeds come from test/fuzz/<name>/ (read only: new inputs go to a scratch
# corpus); a crash leaves build-fuzz/crash-<name>-* and fails the run.
set -u
secs=$1
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
# skx: libpfm4 then parses a real core PMU's umasks and qualifiers.
export FZ_PMU="${FZ_PMU-skx}"
for bin in "$@"; do
	name=${bin##*/fz_}
	seeds="$top/test/fuzz/$name"
	work=$(mktemp -d)
	echo "fuzz: $name for ${secs}s"
	if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
		-artifact_prefix="$(dirname "$bin")/crash-$name-" "$work" "$seeds" > "$work.log" 2>&1; then
		echo "--- FAIL: fuzz target $name (see $(dirname "$bin")/crash-$name-*)"
		tail -n 40 "$work.log"
		fail=1
	else
		grep -E '^Done|^#[0-9]+ *DONE' "$work.log" | tail -n 1
	fi
	rm -rf "$work" "$work.log"
done
exit $fail

#!/bin/sh
# Run every test: the C test programs (TAP) under BUILD/test, then the bats
# files under test/cli. Prints each failure, then one closing line
# "N passed, N failed, N skipped". Exit status 1 when anything failed.
# TESTS=pattern runs only the tests whose path contains pattern.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$build" && pwd)
export PAPI_BIN="$build/papi" PAPI_BUILD="$build" PAPI_TOP="$top"
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
pass=0 fail=0 skip=0

# tally FILE NAME: count the TAP lines of one test program's output.
tally() {
	eval "$(awk '
		/^ok / { if ($0 ~ /# *[Ss][Kk][Ii][Pp]/) s++; else p++; next }
		/^not ok / { if ($0 ~ /# *TODO/) p++; else f++; next }
		END { printf "p=%d f=%d s=%d\n", p, f, s }' "$1")"
	pass=$((pass + p)); skip=$((skip + s)); fail=$((fail + f))
	if [ "$f" -gt 0 ] || [ "$2" != 0 ]; then
		echo "--- FAIL: $3 (exit $2)"
		grep -v '^ok ' "$1" | tail -n 40
		[ "$f" -gt 0 ] || fail=$((fail + 1))
	fi
}

for t in $(find "$build/test" -type f -name 't_*' ! -name '*.[od]' 2>/dev/null | sort); do
	case "$t" in *"${TESTS:-}"*) ;; *) continue ;; esac
	[ -x "$t" ] || continue
	(cd "$log" && timeout 300 "$t") > "$log/out" 2>&1
	tally "$log/out" $? "${t#$build/}"
done

# The aarch64 builds of the table tests (make check puts them in
# BUILD/aarch64) check the ARM preset tables with libpfm4's arm64 tables.
for t in $(find "$build/aarch64/test" -type f -name 't_*' ! -name '*.[od]' 2>/dev/null | sort); do
	case "$t" in *"${TESTS:-}"*) ;; *) continue ;; esac
	if ! command -v qemu-aarch64-static >/dev/null 2>&1; then
		echo "--- FAIL: ${t#$build/}: qemu-aarch64-static is not installed (make deps)"
		fail=$((fail + 1))
		continue
	fi
	(cd "$log" && timeout 300 qemu-aarch64-static "$t") > "$log/out" 2>&1
	tally "$log/out" $? "${t#$build/}"
done

if command -v bats >/dev/null 2>&1; then
	for b in "$top"/test/cli/*.bats; do
		[ -f "$b" ] || continue
		case "$b" in *"${TESTS:-}"*) ;; *) continue ;; esac
		timeout 600 bats --tap "$b" > "$log/out" 2>&1
		tally "$log/out" $? "test/cli/${b##*/}"
	done
else
	echo "--- FAIL: bats is not installed (make deps)"
	fail=$((fail + 1))
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

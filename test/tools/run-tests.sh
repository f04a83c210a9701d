#!/bin/sh
# Run every test: the C test programs (TAP) under BUILD/test, the sh tests
# test/pmu/t_*.sh, then the bats files under test/cli and test/oracle. Prints each failure,
# then one closing line "N passed, N failed, N skipped". Exit status 1 when
# anything failed.
# TESTS=pattern runs only the tests whose name (as reported: test/api/t_hl,
# test/cli/stat.bats, aarch64/test/unit/t_event_tables) contains pattern.
# Run as root, it runs them all a second time as an ordinary user (most
# people count without privilege: perf_event_paranoid decides what they may):
# PAPI_TEST_USER names that user (papitest, created when missing; empty: no
# second run). Each run's line comes first, the closing line is the total.
# It switches users with setpriv, or with su where setpriv cannot (busybox).
# make check-pmu's guest runs this script too, with NO_BATS=1 (it has no
# bats), PMU_REQUIRED=1 (a skip whose reason begins "no hardware PMU" is a
# failure there), TEST_TIMEOUT=seconds a test (default 300) and
# TEST_PROGRESS=1 (each test is named as it starts, so a hang shows where).
# TEST_VERBOSE=1 prints every test's whole output, passing or not.
set -u
tmo=${TEST_TIMEOUT:-300}
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$build" && pwd)
export PAPI_BIN="$build/papi" PAPI_BUILD="$build" PAPI_TOP="$top"
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
pass=0 fail=0 skip=0

# tally FILE STATUS NAME: count the TAP lines of one test program's output.
# Under PMU_REQUIRED=1 a skip for want of a PMU counts as a failure.
pmu_skip='# *[Ss][Kk][Ii][Pp] +no hardware PMU'
tally() {
	eval "$(awk -v pmu="${PMU_REQUIRED:-0}" -v re="$pmu_skip" '
		/^ok / {
			if ($0 !~ /# *[Ss][Kk][Ii][Pp]/) p++
			else if (pmu == 1 && $0 ~ re) f++
			else s++
			next
		}
		/^not ok / { if ($0 ~ /# *TODO/) p++; else f++; next }
		END { printf "p=%d f=%d s=%d\n", p, f, s }' "$1")"
	pass=$((pass + p)); skip=$((skip + s)); fail=$((fail + f))
	[ "${TEST_VERBOSE:-0}" != 1 ] || cat "$1"
	if [ "$f" -gt 0 ] || [ "$2" != 0 ]; then
		echo "--- FAIL: $3 (exit $2)"
		awk -v pmu="${PMU_REQUIRED:-0}" -v re="$pmu_skip" \
			'!/^ok / || (pmu == 1 && $0 ~ re)' "$1" | tail -n 40
		[ "$f" -gt 0 ] || fail=$((fail + 1))
	fi
}

# wanted NAME: whether TESTS (a pattern) selects the test reported as NAME
# (test/api/t_hl, test/cli/stat.bats, aarch64/test/unit/...): its name in
# the tree, so that a checkout whose path holds the pattern selects nothing
# more.
wanted() {
	case "$1" in *"${TESTS:-}"*) return 0 ;; esac
	return 1
}

# started NAME: under TEST_PROGRESS=1, say which test starts.
started() {
	[ "${TEST_PROGRESS:-0}" != 1 ] || echo "# start $1"
}

for t in $(find "$build/test" -type f -name 't_*' ! -name '*.[od]' 2>/dev/null | sort); do
	wanted "${t#$build/}" || continue
	[ -x "$t" ] || continue
	started "${t#$build/}"
	(cd "$log" && timeout "$tmo" "$t") > "$log/out" 2>&1
	tally "$log/out" $? "${t#$build/}"
done

# Tests written in sh (TAP on stdout): the papi commands on hardware events,
# which skip for want of a PMU here and run in make check-pmu's guest.
for t in "$top"/test/pmu/t_*.sh; do
	[ -f "$t" ] || continue
	wanted "test/pmu/${t##*/}" || continue
	started "test/pmu/${t##*/}"
	(cd "$log" && timeout "$tmo" sh "$t") > "$log/out" 2>&1
	tally "$log/out" $? "test/pmu/${t##*/}"
done

# The aarch64 builds of the table tests (make check puts them in
# BUILD/aarch64) check the ARM preset tables with libpfm4's arm64 tables.
for t in $(find "$build/aarch64/test" -type f -name 't_*' ! -name '*.[od]' 2>/dev/null | sort); do
	wanted "${t#$build/}" || continue
	if ! command -v qemu-aarch64-static >/dev/null 2>&1; then
		echo "--- FAIL: ${t#$build/}: qemu-aarch64-static is not installed (make deps)"
		fail=$((fail + 1))
		continue
	fi
	(cd "$log" && timeout "$tmo" qemu-aarch64-static "$t") > "$log/out" 2>&1
	tally "$log/out" $? "${t#$build/}"
done

if [ "${NO_BATS:-0}" = 1 ]; then
	:
elif command -v bats >/dev/null 2>&1; then
	for b in "$top"/test/cli/*.bats "$top"/test/oracle/*.bats; do
		[ -f "$b" ] || continue
		name=${b#"$top"/}
		wanted "$name" || continue
		started "$name"
		timeout 600 bats --tap "$b" > "$log/out" 2>&1
		tally "$log/out" $? "$name"
	done
else
	echo "--- FAIL: bats is not installed (make deps)"
	fail=$((fail + 1))
fi
# A pattern that selects nothing is a mistake, not a pass.
if [ -n "${TESTS:-}" ] && [ $((pass + fail + skip)) -eq 0 ]; then
	echo "--- FAIL: TESTS=$TESTS selects no test (it matches names such as test/api/t_hl)"
	fail=$((fail + 1))
fi

# run_as USER CMD ARGS...: CMD as USER, with USER's groups: util-linux's
# setpriv, or busybox's su where setpriv cannot switch users (the make
# check-pmu guest's busybox; its /etc/passwd names the user).
run_as() {
	ru=$1
	shift
	if [ -z "${switch:-}" ]; then
		switch=su
		! setpriv --reuid=0 true 2>/dev/null || switch=setpriv
	fi
	if [ "$switch" = setpriv ]; then
		setpriv --reuid="$ru" --regid="$(id -g "$ru")" --init-groups "$@"
	else
		# (-- first: busybox's su would take a -c among CMD's ARGS as its own)
		su -p -s /bin/sh -c 'exec "$@"' -- "$ru" sh "$@"
	fi
}

# as_user USER: the whole run again as USER, its counts added to ours. The
# tree is copied where USER can read it when it cannot read this one.
as_user() {
	u=$1 utop=$top ubuild=$build copy=
	home=$(mktemp -d) && chown "$u" "$home" || return 1
	if ! run_as "$u" sh -c \
		'test -r "$1/test/tools/run-tests.sh" && test -x "$2/papi" &&
		{ test -r "$2/libpapi.a" || test ! -e "$2/libpapi.a"; }' \
		sh "$top" "$build" 2>/dev/null; then
		copy=$(mktemp -d) && chmod 755 "$copy" && mkdir "$copy/src" &&
			tar -C "$top" --exclude='./build*' -cf - . | tar -C "$copy/src" -xf - &&
			cp -a "$build" "$copy/build" && chmod -R a+rX "$copy" || copy=
		utop=$copy/src ubuild=$copy/build
	fi
	# root's PATH may name directories the user cannot search (/root/...)
	upath= IFS_=$IFS IFS=:
	for d in $PATH; do
		run_as "$u" test -x "$d" 2>/dev/null &&
			upath=${upath:+$upath:}$d
	done
	IFS=$IFS_
	[ -z "$copy" ] && [ "$utop" != "$top" ] ||
		(cd "$home" && run_as "$u" env HOME="$home" \
			TMPDIR="$home" USER="$u" LOGNAME="$u" PATH="$upath" PAPI_TEST_INNER=1 \
			sh "$utop/test/tools/run-tests.sh" "$ubuild") > "$log/user" 2>&1
	rm -rf "$home" ${copy:+"$copy"}
	[ -s "$log/user" ] || return 1
	sed '$d' "$log/user"
	last=$(tail -n 1 "$log/user")
	case "$last" in
	*" passed, "*" failed, "*" skipped") ;;
	*) echo "--- FAIL: the run as $u ended without its counts: $last"; return 1 ;;
	esac
	set -- $last
	echo "as $u (uid $(id -u "$u"), perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)): $last"
	pass=$((pass + $1)) fail=$((fail + $3)) skip=$((skip + $5))
}

if [ "$(id -u)" = 0 ] && [ -z "${PAPI_TEST_INNER:-}" ] && [ -n "${PAPI_TEST_USER-papitest}" ]; then
	echo "as root: $pass passed, $fail failed, $skip skipped"
	if ! u=$(sh "$top/test/tools/test-user.sh" "${PAPI_TEST_USER-papitest}") || ! as_user "$u"; then
		echo "--- FAIL: the tests could not run as an ordinary user (${PAPI_TEST_USER-papitest})"
		fail=$((fail + 1))
	fi
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

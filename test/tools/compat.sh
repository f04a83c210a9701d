#!/bin/sh
# compat.sh: build PAPI 7's own C tests (Debian papi-examples) against our
# papi.h and libpapi.a, run them the way PAPI's run_tests.sh does, classify
# each result and compare it with real PAPI 7.0 on the same machine.
#
#   sh test/tools/compat.sh BUILD          our headers + BUILD/libpapi.a
#   COMPAT_REAL=1 sh test/tools/compat.sh BUILD
#                                          Debian's PAPI 7.0 (-I/usr/include -lpapi):
#                                          the reference column
#   COMPAT_SHARED=1 sh test/tools/compat.sh BUILD
#                                          built as for the reference, against PAPI
#                                          7.0's papi.h and libpapi.so, then run on
#                                          BUILD/libpapi.so.7.0 (LD_LIBRARY_PATH): the
#                                          binaries of PAPI 7.0 users, unchanged
#
# Knobs: COMPAT_TESTS="zero first" runs only those tests; COMPAT_OUT=DIR puts
# the shared mode's work directory under DIR instead of BUILD; COMPAT_PRELOAD
# is LD_PRELOAD for the tests (a sanitized library's runtimes); COMPAT_TIMEOUT=180
# (seconds per test: generous, as the machine may be shared; the slowest test
# sleeps 10 s); COMPAT_JOBS=2 (parallel builds). COMPAT_LEVEL=7.0 is the
# PAPI release of the installed PAPI, the reference column's name and, in the
# shared mode, the SONAME run (BUILD/libpapi.so.LEVEL): 7.1 or 7.2 where
# test/tools/distro-abi.sh runs this script in a Debian trixie or sid root.
# COMPAT_MISS_FAILS=1: a test the reference passes and ours does not is a
# failure too (distro-abi.sh, where the reference ran just before).
# COMPAT_PREBUILT=DIR (shared mode): take each test and helper DIR/ctests
# holds (the reference run's work folder: the same build) instead of
# building it again.
# Writes BUILD/compat/results.tsv (BUILD/compat-real/ in the reference mode,
# BUILD/compat-shared/ in the shared one):
# test, status, reason, PAPI 7.0 status. Status is one of pass, skip, fail,
# crash, timeout, compile, link, notrun.
# Exit status 1 on a compile or link failure, a crash, a timeout, a header
# picked from the wrong place, a test not run on BUILD's libpapi.so.7.0 (shared
# mode), or a failure of a test listed in
# test/tools/compat-expected.txt; never in the reference mode.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$build" && build=$(cd "$build" && pwd)
ex=/usr/share/doc/papi-examples/examples
real=${COMPAT_REAL:-0}
shared=${COMPAT_SHARED:-0}
tmo=${COMPAT_TIMEOUT:-180}
jobs=${COMPAT_JOBS:-2}
lv=${COMPAT_LEVEL:-7.0}
miss_fails=${COMPAT_MISS_FAILS:-0}
prebuilt=${COMPAT_PREBUILT:-}
expected=$top/test/tools/compat-expected.txt
recorded=$top/test/tools/compat-papi7.tsv

# ---------------------------------------------------------------- the sources
if [ ! -d "$ex/ctests" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "compat: installing papi-examples"
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y -qq papi-examples >/dev/null 2>&1 || {
			apt-get update -qq >/dev/null && apt-get install -y -qq papi-examples >/dev/null
		} || { echo "compat: cannot install papi-examples" >&2; exit 1; }
	else
		echo "compat: $ex is missing: install papi-examples (apt-get as root)" >&2
		exit 1
	fi
fi

if [ "$real" = 1 ] || [ "$shared" = 1 ]; then
	work=$build/compat-real
	inc=/usr/include
	papilib=$(cc -print-file-name=libpapi.so)
	[ -f "$inc/papi.h" ] && [ -f "$papilib" ] || {
		echo "compat: real PAPI is not installed (libpapi-dev)" >&2; exit 1; }
	libs="-pthread -lm -lrt"
	if [ "$shared" = 1 ]; then
		real=0
		work=${COMPAT_OUT:-$build}/compat-shared
		[ -f "$build/libpapi.so.$lv" ] || { echo "compat: $build/libpapi.so.$lv is missing: run make first" >&2; exit 1; }
	fi
else
	work=$build/compat
	inc=$top/libpapi
	papilib=$build/libpapi.a
	[ -f "$papilib" ] || { echo "compat: $papilib is missing: run make first" >&2; exit 1; }
	libs="-pthread -lm -lrt"
fi
want_hdr=$inc/papi.h

# A scratch copy: /usr/share is never written to.
rm -rf "$work"
mkdir -p "$work/logs" || exit 1
cp -R "$ex/testlib" "$ex/ctests" "$ex/validation_tests" "$work/" && chmod -R u+w "$work" || exit 1
cd "$work" || exit 1

# What PAPI's ctests Makefile knows: its test lists and compiler flags.
printf 'print-%%:\n\t@echo $($*)\n' > print.mk
mkvar() { make -s -f ctests/Makefile -f print.mk MPICC=mpicc NO_MPI_TESTS= "print-$1"; }
cflags="$(mkvar CFLAGS) -MD"
mpi_tests=" $(mkvar MPI) "
omp_tests=" $(mkvar OMP) mpi_omp_hl "
tests=$(mkvar ALL | tr ' ' '\n' | grep . | sort -u | grep -v -x -e burn -e attach_target)
helpers="attach_target burn"
if [ -n "${COMPAT_TESTS:-}" ]; then
	tests=$(for t in $COMPAT_TESTS; do echo "$t"; done)
fi
have_mpicc=0
command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 && have_mpicc=1

# ---------------------------------------------------------------- testlib
INCLUDE="-I. -I$inc -I$work/testlib -I$work/validation_tests"
libok=1
(
	set -e
	cd testlib
	for f in test_utils do_loops clockcore; do
		cc $INCLUDE $cflags -pthread -c $f.c
	done
	ar rcs libtestlib.a test_utils.o
	cd ../validation_tests
	for f in flops_testcode instructions_testcode busy_work display_error; do
		cc $INCLUDE $cflags -c $f.c
	done
) > logs/testlib.build 2>&1 || libok=0

# hdr_check DIR: the dependency files under DIR name our papi.h and never
# another one. Prints what is wrong.
hdr_check() {
	cat "$1"/*.d 2>/dev/null | tr ' \\' '\n\n' | grep 'papi\.h$' | sort -u > hdr.list
	if ! grep -qx "$want_hdr" hdr.list; then
		echo "papi.h not taken from $inc"
	elif grep -v -x "$want_hdr" hdr.list | grep -q 'papi\.h$'; then
		echo "wrong papi.h: $(grep -v -x "$want_hdr" hdr.list | head -n 1)"
	fi
}
hdr_bad=
[ "$libok" = 1 ] && hdr_bad=$(hdr_check testlib)

# What this machine offers, through the library under test: the note given
# to a test that skips without saying why (PAPI's test_skip prints no reason,
# and most such skips come from events missing here).
cat > probe.c <<'EOF_PROBE'
#include <stdio.h>
#include "papi.h"
int main(void)
{
	int code = PAPI_PRESET_MASK, n = 0, avail = 0;
	PAPI_event_info_t in;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return 1;
	if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) == PAPI_OK)
		do {
			n++;
			avail += PAPI_get_event_info(code, &in) == PAPI_OK && in.count > 0;
		} while (PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
	printf("%d of %d presets available, %d hardware counters\n", avail, n, PAPI_num_hwctrs());
	return 0;
}
EOF_PROBE
machine=
# In the shared mode the programs run on BUILD's libpapi.so.LEVEL.
ours_so=
[ "$shared" = 1 ] && ours_so="$build/libpapi.so.$lv" &&
	export LD_LIBRARY_PATH="$build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if cc $INCLUDE -o probe probe.c "$papilib" $libs -ldl > logs/probe.build 2>&1; then
	machine=$(./probe 2>/dev/null)
fi
machine=${machine:+"here: $machine"}

# ---------------------------------------------------------------- build
# Every test is built by PAPI's own rule in ctests/Makefile, with our include
# directory first and our library as PAPILIB.
build_one() {	# build_one NAME: 0 built, 1 compile failure, 2 link failure
	(
		cd ctests || exit 1
		rm -f ./*.d
		make -f Makefile CC=cc MPICC=mpicc "CFLAGS=$cflags" "INCLUDE=$INCLUDE" \
			"testlibdir=$work/testlib" "validationlibdir=$work/validation_tests" \
			"TESTLIB=$work/testlib/libtestlib.a" "DOLOOPS=$work/testlib/do_loops.o" \
			"CLOCKCORE=$work/testlib/clockcore.o" \
			"TESTFLOPS=$work/validation_tests/flops_testcode.o" \
			"TESTINS=$work/validation_tests/instructions_testcode.o" \
			"TESTCYCLES=$work/validation_tests/busy_work.o" \
			"PAPILIB=$papilib" "LDFLAGS=$libs" LDL=-ldl OMPLIBS= "$1"
	) > "logs/$1.build" 2>&1 && return 0
	grep -q -e 'undefined reference' -e 'ld returned' "logs/$1.build" && return 2
	return 1
}

# first line of a build log that says what went wrong
build_reason() {
	r=$(grep -m 1 -e 'error:' -e 'undefined reference' "$1" | sed 's/^[^ ]*: //')
	[ -n "$r" ] || r=$(grep -v '^cc \|^mpicc ' "$1" | head -n 1)
	echo "$r" | cut -c 1-150
}

# prebuilt NAME: copy the test from $prebuilt when it holds it
prebuilt() {
	[ "$shared" = 1 ] && [ -n "$prebuilt" ] && [ -x "$prebuilt/ctests/$1" ] &&
		cp "$prebuilt/ctests/$1" "ctests/$1"
}

: > status.tsv
record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> status.tsv; }

if [ "$libok" = 1 ]; then
	for h in $helpers; do
		prebuilt "$h" || build_one "$h" || { echo "compat: helper $h failed to build:"; tail -n 5 "logs/$h.build"; }
	done
fi
for t in $tests; do
	if [ "$libok" != 1 ]; then
		record "$t" compile "testlib: $(build_reason logs/testlib.build)"
		continue
	fi
	case "$mpi_tests" in *" $t "*)
		if [ "$have_mpicc" != 1 ]; then record "$t" notrun "no mpicc/mpirun (libopenmpi-dev)"; continue; fi ;;
	esac
	prebuilt "$t" && { record "$t" built ""; continue; }
	build_one "$t"
	case $? in
	1) record "$t" compile "$(build_reason "logs/$t.build")"; continue ;;
	2) record "$t" link "$(build_reason "logs/$t.build")"; continue ;;
	esac
	bad=$(hdr_check ctests)
	if [ -n "$bad" ]; then
		record "$t" compile "$bad"
		hdr_bad=$bad
		continue
	fi
	record "$t" built ""
done

# ---------------------------------------------------------------- run
# As run_tests.sh: argument and environment TESTS_QUIET, helpers on PATH,
# MPI tests under mpirun, OpenMP tests on two threads.
export TESTS_QUIET=TESTS_QUIET
start=$(date +%s)
: > times.txt
# mpirun hands its ranks a terminal: no colour codes in the logs.
export TESTS_COLOR=no
export PATH="$work/ctests:$PATH"
export OMPI_MCA_plm_rsh_agent=
classify() {	# classify NAME RC: prints "status<TAB>reason"
	o=logs/$1.out e=logs/$1.err rc=$2
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		printf 'timeout\tno result after %ss\n' "$tmo"; return
	fi
	if [ "$rc" -gt 128 ]; then
		printf 'crash\tsignal %s%s\n' $((rc - 128)) "$(lastlib "$e" ': ')"; return
	fi
	if grep -q 'FAILED' "$o"; then
		why=$(grep -m 1 '^Line # ' "$o" | sed 's/^Line # //')
		[ -n "$why" ] || why=$(grep -m 1 'FAILED' "$o")
		printf 'fail\t%s%s\n' "$(echo "$why" | cut -c 1-120)" "$(lastlib "$e" ' -- ')"; return
	fi
	if [ "$rc" != 0 ]; then
		printf 'fail\texit status %s%s\n' "$rc" "$(lastlib "$e" ': ')"; return
	fi
	if grep -q 'SKIPPED' "$o"; then
		why=$(lastlib "$e" '')
		[ -n "$why" ] || why=$(grep -v -e '^SKIPPED' -e '^Line #' -e '^ *$' "$o" | tail -n 1 | cut -c 1-120)
		printf 'skip\t%s\n' "${why:-(skipped without saying why: no PAPI call failed${machine:+; $machine})}"; return
	fi
	if grep -q 'PASSED' "$o"; then
		w=$(grep -m 1 '^WARNING' "$o" | cut -c 1-120)
		printf 'pass\t%s\n' "$w"; return
	fi
	printf 'fail\texit 0 without PASSED, SKIPPED or FAILED\n'
}
# lastlib FILE PREFIX: the last message the library printed on stderr
# (PAPI_VERB_ECONT, which testlib turns on), prefixed by PREFIX.
lastlib() {
	m=$(grep -e '^PAPI' "$1" 2>/dev/null | tail -n 1 | cut -c 1-160)
	[ -n "$m" ] && printf '%s%s' "$2" "$m"
}

: > results.tsv
while IFS="$(printf '\t')" read -r t st why; do
	if [ "$st" = built ] && [ -n "$ours_so" ] && ! ldd "ctests/$t" | grep -q "=> $ours_so "; then
		st=link why="does not load $ours_so: $(ldd "ctests/$t" | grep -m 1 libpapi)"
	fi
	if [ "$st" = built ]; then
		case "$omp_tests" in *" $t "*) omp=2 ;; *) omp=${OMP_NUM_THREADS:-} ;; esac
		case "$mpi_tests" in
		*" $t "*) set -- timeout -k 5 "$tmo" mpirun --allow-run-as-root --oversubscribe -np 2 "./$t" TESTS_QUIET ;;
		*) set -- timeout -k 5 "$tmo" env ${COMPAT_PRELOAD:+LD_PRELOAD="$COMPAT_PRELOAD"} "./$t" TESTS_QUIET ;;
		esac
		t0=$(date +%s)
		(cd ctests && if [ -n "$omp" ]; then OMP_NUM_THREADS=$omp exec "$@"; else exec "$@"; fi) \
			< /dev/null > "logs/$t.out" 2> "logs/$t.err" &
		pid=$!
		wait "$pid"
		rc=$?
		# timeout leads its own process group: end what the test left in it
		# (attach_validate leaves its stopped child when it skips)
		kill -KILL "-$pid" 2>/dev/null
		echo "$(( $(date +%s) - t0 )) $t" >> times.txt
		res=$(classify "$t" "$rc")
		st=${res%%"$(printf '\t')"*}
		why=${res#*"$(printf '\t')"}
	fi
	why=$(printf '%s' "$why" | tr '\t' ' ')
	printf '%s\t%s\t%s\n' "$t" "$st" "$why" >> results.tsv
done < status.tsv
ran=$(( $(date +%s) - start ))
slow=$(sort -n -r times.txt 2>/dev/null | head -n 3 | awk '{ printf "%s%s %ss", sep, $2, $1; sep = ", " }')

# ---------------------------------------------------------------- report
if [ "$real" = 1 ]; then
	ref=/dev/null
elif [ -f "$build/compat-real/results.tsv" ]; then
	ref=$build/compat-real/results.tsv
elif [ -f "$recorded" ]; then
	ref=$recorded
else
	ref=/dev/null
fi
[ -f "$expected" ] || expected=/dev/null
[ -z "$ours_so" ] || echo "PAPI $lv's tests built against PAPI $lv (its papi.h, -lpapi), run on $ours_so"

awk -F '\t' -v OFS='\t' -v real="$real" -v refname="$ref" -v hdr="$hdr_bad" -v lv="$lv" -v missfails="$miss_fails" '
	FILENAME == ARGV[1] { refst[$1] = $2; next }
	FILENAME == ARGV[2] { sub(/#.*/, ""); gsub(/[ \t]/, ""); if ($0 != "") expd[$0] = 1; next }
	{
		r = ($1 in refst) ? refst[$1] : "-"
		print $1, $2, $3, r > "results.tsv.new"
		n++; cnt[$2]++; rcnt[r]++
		if ($2 == "pass" && r != "pass" && r != "-") better++
		if ($2 != "pass" && r == "pass") worse++
		bad = ""
		if ($2 ~ /^(compile|link|crash|timeout)$/) bad = $2
		if (($1 in expd) && $2 != "pass") bad = "expected pass"
		if (missfails == 1 && $2 != "pass" && r == "pass") bad = "passes on PAPI " lv
		if (real == 1) bad = ""
		if (bad != "") { nbad++; badl = badl "  " $1 " (" bad ")\n" }
		line[n] = sprintf("%-26s %-8s %-9s %s", $1, $2, r, $3)
	}
	END {
		if (real == 1) printf "PAPI %s reference (real libpapi)\n", lv
		printf "%-26s %-8s %-9s %s\n", "test", "status", "PAPI " lv, "reason"
		for (i = 1; i <= n; i++) print line[i]
		printf "\ncompat: %d tests: %d pass, %d skip, %d fail, %d crash, %d timeout, %d compile failures, %d link failures", \
			n, cnt["pass"], cnt["skip"], cnt["fail"], cnt["crash"], cnt["timeout"], cnt["compile"], cnt["link"]
		if (cnt["notrun"]) printf ", %d not run", cnt["notrun"]
		printf "\n"
		if (real != 1 && refname != "/dev/null")
			printf "compat: PAPI %s here: %d pass, %d skip, %d fail; we pass %d it does not, and miss %d it passes\n", \
				lv, rcnt["pass"], rcnt["skip"], rcnt["fail"], better, worse
		if (hdr != "") { printf "compat: header check: %s\n", hdr; nbad++ }
		if (nbad) { printf "compat: FAILED:\n%s", badl; exit 1 }
	}' "$ref" "$expected" results.tsv
rc=$?
mv results.tsv.new results.tsv
echo "compat: tests ran in ${ran}s (slowest: ${slow:-none}; timeout ${tmo}s each)"
echo "compat: results in $work/results.tsv, logs in $work/logs"
exit $rc

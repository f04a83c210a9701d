# lib.sh: what the sh tests of test/pmu share (sourced; POSIX sh, busybox's too).
#
#   ok STATUS WHAT        one TAP point: status 0 passes
#   check WHAT CMD...     one TAP point: CMD's exit status decides
#   diag TEXT             a TAP comment
#   skip_all WHY WHAT     the whole file skipped, with the reason
#   finish                the plan; exit status 1 when a point failed
#   papi ARGS...          the papi under test ($PAPI_BIN)
#   pmu_present           true when PAPI_TOT_INS can be counted here
#   loop N                a program that runs pmu_loop(N): 2N instructions
#   near GOT WANT ABS REL true when |GOT - WANT| <= ABS + REL% of WANT
#                         (whole numbers; REL in percent)
#   csv_value FILE NAME   the value of event NAME in a papi stat -x , file
PAPI_BIN=${PAPI_BIN:-build/papi}
PAPI_BUILD=${PAPI_BUILD:-$(dirname "$PAPI_BIN")}
tap_n=0 tap_failed=0

ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

check() {
	what=$1
	shift
	if "$@"; then ok 0 "$what"; else ok 1 "$what"; fi
}

diag() {
	echo "# $*"
}

skip_all() {
	echo "ok 1 - $2 # SKIP $1"
	echo "1..1"
	exit 0
}

finish() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

papi() {
	"$PAPI_BIN" "$@"
}

pmu_present() {
	"$PAPI_BIN" stat --strict -o /dev/null -e PAPI_TOT_INS true >/dev/null 2>&1
}

loop() {
	"$PAPI_BUILD/test/pmu/t_pmu_counting" --loop "$1"
}

near() {
	awk -v g="$1" -v w="$2" -v a="$3" -v r="$4" \
		'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && w != "" && d <= a + r / 100 * w) }'
}

csv_value() {
	awk -F, -v n="$2" '$2 == "event" && $3 == n { print $4; exit }' "$1"
}

# stat_helper.bash: loaded by the papi stat oracle tests after ../cli/helper: perf stat as the oracle, the workloads, and comparisons that print both numbers.
#
#   perf_stat EVENTS OUT ARGS...   perf stat -x, -e EVENTS -o OUT ARGS... (perf's own options first)
#   perf_val OUT EVENT             EVENT's value in perf's CSV file OUT (summed over -I lines)
#   papi_csv OUT NAME              NAME's value in papi stat's CSV file OUT (the totals' row)
#   papi_text OUT NAME             NAME's value in papi stat's text report OUT
#   near WHAT PAPI PERF TOL CMD    |PAPI - PERF| <= TOL
#   share WHAT PAPI PERF PCT CMD   PAPI within PCT percent of PERF
#   atleast WHAT V MIN CMD         V >= MIN
#   SFX                            the modifier both tools write for the default domain:
#                                  empty where this user may count the kernel, ":u" otherwise
#   ASAN                           1 when the workloads are AddressSanitizer builds (make
#                                  check-sanitize), whose runtime's own faults vary with
#                                  how threads interleave; else 0

BUILD=${PAPI_BUILD:-$PAPI_TOP/build}
WORK=$BUILD/test/cli/oracle_work
THREADS=$BUILD/test/cli/stat_threads
ASAN=0
if ldd "$WORK" 2>/dev/null | grep -q libasan; then ASAN=1; fi

paranoid() { cat /proc/sys/kernel/perf_event_paranoid; }
# root (CAP_SYS_ADMIN), or a perf_event_paranoid that lets everyone count the kernel
kernel_ok() { [ "$(id -u)" = 0 ] || [ "$(paranoid)" -le 1 ]; }
cpu_ok() { [ "$(id -u)" = 0 ] || [ "$(paranoid)" -le 0 ]; }
if kernel_ok; then SFX= DOM=all; else SFX=:u DOM=user; fi

setup() {
	papi_isolate
	[ -x /usr/bin/perf ] || skip "no /usr/bin/perf (Debian's linux-perf) to compare with"
	/usr/bin/perf stat -e task-clock true >/dev/null 2>&1 || skip "perf stat cannot count here"
	[ -x "$WORK" ] || skip "test helper $WORK not built (make tests)"
}

perf_stat() {
	local ev=$1 out=$2
	shift 2
	/usr/bin/perf stat -x, -e "$ev" -o "$out" "$@"
}

# perf's CSV: VALUE,UNIT,EVENT,... (-I: TIME first; -A: CPU first); the
# event column as perf writes it, modifiers and all
perf_val() {
	awk -F, -v ev="$2" '!/^#/ && NF > 3 {
		for (i = 1; i <= 4; i++) if ($i == ev) { s += $(i - 2); n++ } }
		END { if (n) printf "%d\n", s + 0.5; else exit 1 }' "$1"
}

papi_csv() {
	awk -F, -v ev="$2" '$2 == "event" && $3 == ev && $15 == "" { print $4; n++ } END { exit !n }' "$1"
}

# "   1052      perf::PAGE-FAULTS:u  # ..." or "  21.580 ms   perf::TASK-CLOCK"
papi_text() {
	awk -v ev="$2" '$2 == ev || ($2 == "ms" && $3 == ev) { printf "%d\n", $1 + 0.5; n++ } END { exit !n }' "$1"
}

near() {
	local what=$1 a=$2 b=$3 tol=$4
	shift 4
	local d=$((a > b ? a - b : b - a))
	[ "$d" -le "$tol" ] || { echo "$what: papi: $a perf: $b (differ by $d, tolerance $tol) ($*)"; return 1; }
}

share() {
	local what=$1 a=$2 b=$3 pct=$4
	shift 4
	awk -v a="$a" -v b="$b" -v p="$pct" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }' ||
		{ echo "$what: papi: $a perf: $b (tolerance $pct%) ($*)"; return 1; }
}

atleast() {
	local what=$1 v=$2 min=$3
	shift 3
	[ "$v" -ge "$min" ] || { echo "$what: $v, expected at least $min ($*)"; return 1; }
}

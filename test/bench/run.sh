#!/bin/sh
# run.sh: `make bench`: the API benchmark (test/bench/api.c) built against our
# libpapi.a and, when Debian's libpapi-dev is installed, against PAPI 7, side
# by side with the raw syscall floor; then the CLI start-up benchmarks with
# hyperfine. A benchmark, not a test: it asserts nothing.
# Usage: sh test/bench/run.sh [BUILD]   (BATCHES=31, RUNS=100 tune it;
# PAPI7_ROOT=DIR: a Debian root with PAPI 7.1/7.2 to measure beside ours)
set -eu
build=${1:-build}
cc=${CC:-cc}
batches=${BATCHES:-31}
runs=${RUNS:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export PAPI_OUTPUT_DIRECTORY="$tmp/hl"
mkdir -p "$PAPI_OUTPUT_DIRECTORY"

[ -f "$build/libpapi.a" ] || { echo "run.sh: $build/libpapi.a not built (make)" >&2; exit 1; }
$cc -O2 -D_GNU_SOURCE -Ilibpapi -o "$tmp/ours" test/bench/api.c "$build/libpapi.a" -pthread -lm -lrt
$cc -O2 -D_GNU_SOURCE -Ilibpapi -o "$tmp/ours_so" test/bench/api.c -L"$build" -lpapi -Wl,-rpath,"$(cd "$build" && pwd)"
have7=0
if [ -f /usr/include/papi.h ] && $cc -O2 -D_GNU_SOURCE -I/usr/include -o "$tmp/papi7" test/bench/api.c -lpapi 2>/dev/null; then
	have7=1
fi

echo "== API: median ns per call ($batches batches; raw = the same group read()/ioctl()s without a library, timed in batches alternating with the call)"
echo "   (library_init, name_first (a native event) and preset_first each in a fresh forked child; faults_* = page faults"
echo "    per call there; *_pop = the same with the child's pages mapped in first, i.e. without those faults;"
echo "    *_exec = in a newly executed program, as one that links the library starts)"
"$tmp/ours" "$batches" >"$tmp/ours.txt"
"$tmp/ours_so" "$batches" >"$tmp/ours_so.txt"
if [ $have7 = 1 ] && ! "$tmp/papi7" "$batches" >"$tmp/papi7.txt" 2>"$tmp/papi7.err"; then
	have7=0
	echo "(PAPI 7 was built but cannot count here: $(head -c 200 "$tmp/papi7.err"); papi_component_avail says why)"
fi
[ $have7 = 1 ] || : >"$tmp/papi7.txt"
# Each operation next to the kernel floor it wraps; "ours" links libpapi.a,
# "ours.so" the shared library.
awk -v have7=$have7 '
	FILENAME == ARGV[1] { ours[$1] = $2; order[n++] = $1; next }
	FILENAME == ARGV[2] { so[$1] = $2; next }
	{ p7[$1] = $2 }
	END {
		floor["read"] = "raw_read"; floor["reset"] = "raw_reset"; floor["accum"] = "raw_read_a"
		floor["start_stop"] = "raw_startstop"; floor["hl_region"] = "raw_2reads"
		floor["mpx_start_stop"] = "plain_start_stop"
		printf "%-18s %10s %10s %10s %10s %9s %9s\n", "operation", "ours", "ours.so", "papi7", "raw", "ours/raw", "ours/p7"
		for (i = 0; i < n; i++) {
			op = order[i]
			if (op ~ /^(raw|plain|least)_|_x1000$/) continue
			r = (op in floor) ? ours[floor[op]] : ""
			q = (have7 && (op in p7)) ? p7[op] : ""
			printf "%-18s %10s %10s %10s %10s %9s %9s\n", op, ours[op], so[op], q == "" ? "-" : q,
				r == "" ? "-" : r, r == "" ? "-" : sprintf("%.2fx", ours[op] / r),
				q == "" ? "-" : sprintf("%.2fx", ours[op] / q)
		}
		for (i = 0; i < n; i++)
			if (order[i] ~ /^raw_/)
				printf "%-18s %10s %10s %10s\n", order[i], ours[order[i]], so[order[i]],
					(have7 && (order[i] in p7)) ? p7[order[i]] : "-"
	}' "$tmp/ours.txt" "$tmp/ours_so.txt" "$tmp/papi7.txt"

# PAPI 7.1/7.2 where Debian 12's 7.0 cannot count: api.c built in a Debian
# root by its compiler against its libpapi, and run there (chroot with
# /proc, /sys and /dev bound in, in a mount namespace of its own; root only).
# PAPI7_ROOT names the root, else BUILD/distro/sid (test/tools/distro-abi.sh
# makes it).
root7=${PAPI7_ROOT:-$build/distro/sid}
have7x=0 lv7x=
: >"$tmp/papi7x.txt"
if [ "$(id -u)" = 0 ] && [ -x "$root7/usr/bin/cc" ] && [ -f "$root7/usr/include/papi.h" ] &&
   command -v unshare >/dev/null; then
	w=$(mktemp -d "$root7/tmp/bench.XXXXXX")
	cp test/bench/api.c "$w/"
	lv7x=$(chroot "$root7" dpkg-query -W -f '${Version}' libpapi-dev 2>/dev/null | cut -d- -f1)
	if unshare -m sh -c 'r=$1; shift; for m in proc sys dev; do mount --bind "/$m" "$r/$m" || exit 1; done
		exec chroot "$r" "$@"' sh "$root7" sh -c "cd /tmp/${w##*/} && cc -O2 -D_GNU_SOURCE -o api api.c -lpapi &&
		./api $batches" >"$tmp/papi7x.txt" 2>"$tmp/papi7x.err"; then
		have7x=1
	fi
	rm -rf "$w"
fi

# Software multiplexing's start and stop beside the plain set's, from this
# one run: ours, and each PAPI 7 that can count here (or why not).
echo
echo "== multiplexed start+stop: the same two events multiplexed in software (PAPI_MULTIPLEX_FORCE_SW), median ns"
echo "   beside the plain set's start+stop, as measured in the same batches"
awk -v have7=$have7 -v have7x=$have7x -v lv7x="$lv7x" -v root7="$root7" -v err7="$(head -c 160 "$tmp/papi7.err" 2>/dev/null | tr '\n' ' ')" '
	FILENAME == ARGV[1] { ours[$1] = $2; next }
	FILENAME == ARGV[2] { so[$1] = $2; next }
	FILENAME == ARGV[3] { p7[$1] = $2; next }
	{ p7x[$1] = $2 }
	function row(name, a) {
		if (("mpx_start_stop" in a) && a["plain_start_stop"] > 0)
			printf "%-22s %10s %10s %9.2fx\n", name, a["plain_start_stop"], a["mpx_start_stop"],
				a["mpx_start_stop"] / a["plain_start_stop"]
		else if ("mpx_refused" in a) {
			why = ", PAPI_ENOEVNT: PAPI 7 counts a hardware cycle counter beside each multiplexed event"
			printf "%-22s %10s %10s %10s  (multiplexing refused here: PAPI error %s%s)\n", name,
				a["start_stop"], "-", "-", a["mpx_refused"], a["mpx_refused"] == -7 ? why : ""
		}
		else
			printf "%-22s %10s %10s %10s\n", name, "-", "-", "-"
	}
	END {
		printf "%-22s %10s %10s %10s\n", "library", "plain", "mpx", "mpx/plain"
		row("ours", ours)
		row("ours.so", so)
		if (have7) row("PAPI 7.0 (Debian 12)", p7)
		else printf "%-22s cannot count here%s\n", "PAPI 7.0 (Debian 12)", (err7 == "" ? " (not installed)" : ": " err7)
		if (have7x) {
			row("PAPI " lv7x " (" root7 ")", p7x)
			if (("mpx_start_stop" in p7x) && p7x["mpx_start_stop"] > 0)
				printf "ours/PAPI %s multiplexed start+stop: %.2fx\n", lv7x,
					ours["mpx_start_stop"] / p7x["mpx_start_stop"]
			plain7 = p7x["plain_start_stop"] > 0 ? p7x["plain_start_stop"] : p7x["start_stop"]
			if (plain7 > 0)
				printf "ours/PAPI %s plain start+stop: %.2fx\n", lv7x, ours["plain_start_stop"] / plain7
		} else
			printf "%-22s no Debian root with PAPI 7.1/7.2 (PAPI7_ROOT=DIR, as root)\n", "PAPI 7.x"
	}' "$tmp/ours.txt" "$tmp/ours_so.txt" "$tmp/papi7.txt" "$tmp/papi7x.txt"

echo
echo "== the library's own share: ns per call with read()/ioctl() replaced by no-ops (test/bench/own.c)"
$cc -O2 -D_GNU_SOURCE -Ilibpapi -o "$tmp/own" test/bench/own.c "$build/libpapi-internal.a" -pthread -lm -lrt
"$tmp/own" 2>/dev/null | tee "$tmp/own.txt"

echo
echo "== PAPI's omptough pattern (test/bench/omp.c, ${OMP_ITER:-10000} regions on 2 OpenMP threads; per region each"
echo "   thread registers, creates and destroys an EventSet, unregisters): the four calls' median and p90 ns,"
echo "   the wall ns per region (mostly OpenMP's fork and join), voluntary context switches per region"
$cc -O2 -fopenmp -Ilibpapi -o "$tmp/omp_a" test/bench/omp.c "$build/libpapi.a" -pthread -lm -lrt
set -- "ours" "$tmp/omp_a" "ours.so" "$tmp/omp_so"
# PAPI 7's own build of the program, and the same binary on our shared library
if [ $have7 = 1 ] && $cc -O2 -fopenmp -I/usr/include -o "$tmp/omp_7" test/bench/omp.c -lpapi 2>/dev/null; then
	set -- "$@" "papi7" "$tmp/omp_7"
fi
$cc -O2 -fopenmp -Ilibpapi -o "$tmp/omp_so" test/bench/omp.c -L"$build" -lpapi -Wl,-rpath,"$(cd "$build" && pwd)"
while [ $# -ge 2 ]; do
	printf '%-8s %s\n' "$1" "$(OMP_NUM_THREADS=2 "$2" "${OMP_ITER:-10000}" | tr '\n' ' ')"
	shift 2
done

command -v hyperfine >/dev/null || { echo "run.sh: hyperfine not installed: CLI benchmark skipped" >&2; exit 0; }
papi=$(cd "$build" && pwd)/papi
t=$(command -v true)
# hf CSV COMMAND...: hyperfine's summary, and each command's times in CSV
hf() {
	csv=$1
	shift
	hyperfine -N --warmup 5 --runs "$runs" --style basic --export-csv "$csv" "$@" 2>&1 |
		grep -E '^Benchmark|Time|Range'
}

echo
echo "== CLI (hyperfine, $runs runs)"
if "$papi" native >/dev/null 2>&1; then
	set -- "$papi native"
	command -v papi_native_avail >/dev/null && set -- "$@" "papi_native_avail"
	hf "$tmp/native.csv" "$@"
else
	echo "papi native: not in this build"
fi
# The floor under listing presets: a program that starts, initializes
# libpfm4 (each PMU model it knows asks CPUID, which traps in a VM) and asks
# it which PMUs are present.
set -- "$papi avail"
command -v papi_avail >/dev/null && set -- "$@" "papi_avail"
pfm_floor=
# (linked as papi is: static, else without PIE and libpfm4 from its static
# library; a dynamic C library alone costs it 1 ms here)
if $cc -O2 -static -o "$tmp/pfm_floor" test/bench/pfm_floor.c "$($cc -print-file-name=libpfm.a)" 2>/dev/null ||
   $cc -O2 -no-pie -o "$tmp/pfm_floor" test/bench/pfm_floor.c "$($cc -print-file-name=libpfm.a)" 2>/dev/null ||
   $cc -O2 -o "$tmp/pfm_floor" test/bench/pfm_floor.c -lpfm 2>/dev/null; then
	pfm_floor="$tmp/pfm_floor"
	set -- "$@" "$pfm_floor"
fi
hf "$tmp/avail.csv" "$@"
# The floor for any tool that runs a command under a counter: a static
# program that opens one inherited counter, posix_spawns, waits and reads
# (papi is static too); and the same program linked with the shared C
# library, as papi was before (what the loader costs).
set -- "$t"
if $cc -O2 -static -o "$tmp/launch" test/bench/launch.c 2>/dev/null ||
   $cc -O2 -o "$tmp/launch" test/bench/launch.c; then
	set -- "$@" "$tmp/launch $t"
fi
if $cc -O2 -no-pie -o "$tmp/launch_dyn" test/bench/launch.c; then
	set -- "$@" "$tmp/launch_dyn $t"
fi
set -- "$@" "$papi stat -o /dev/null -e perf::TASK-CLOCK $t"
if command -v perf >/dev/null && perf stat -e task-clock -o /dev/null "$t" 2>/dev/null; then
	set -- "$@" "perf stat -o /dev/null -e task-clock $t"
fi
hf "$tmp/stat.csv" "$@"

# papi stat -a and -I 10 beside perf stat doing the same work.
echo
RUNS=$runs sh test/bench/stat_sys.sh "$build"

# A program that links the library, initializes it and names one event.
# libpfm4's tables hold ~42,000 pointers that are relocated at every start
# when they sit in a PIE or in libpfm.so (the shared library's); linked
# with libpapi.a (which carries libpfm4) into a -no-pie program they are
# not. Then the same program on our libpapi.so and on PAPI 7's.
echo
echo "== a program linked with the library: start, PAPI_library_init, one name (hyperfine, $runs runs)"
alibs="-pthread -lm -lrt"
$cc -O2 -Ilibpapi -o "$tmp/linked_a_pie" test/bench/linked.c "$build/libpapi.a" $alibs
$cc -O2 -no-pie -Ilibpapi -o "$tmp/linked_a_nopie_pfm_a" test/bench/linked.c "$build/libpapi.a" $alibs
$cc -O2 -Ilibpapi -o "$tmp/linked_so" test/bench/linked.c -L"$build" -lpapi -Wl,-rpath,"$(cd "$build" && pwd)"
set -- "$tmp/linked_a_pie" "$tmp/linked_a_nopie_pfm_a" "$tmp/linked_so"
if [ -f /usr/include/papi.h ] && $cc -O2 -o "$tmp/linked_papi7" test/bench/linked.c -lpapi 2>/dev/null; then
	# PAPI 7 may refuse to initialize here; hyperfine -i still times it
	set -- "$@" "$tmp/linked_papi7"
fi
hyperfine -N -i --warmup 5 --runs "$runs" --style basic "$@" 2>&1 | grep -E '^Benchmark|Time|Range'

# The targets, each as a ratio from this one run, beside the floor under it.
# med CSV COMMAND: that command's median seconds in hyperfine's CSV.
med() { awk -F, -v c="$2" 'NR > 1 && $1 == c { print $4 }' "$1"; }
ours() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/ours.txt" "$tmp/own.txt"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else printf "-" }'; }
echo
echo "== targets: this run's ratios [the target], and the floor under each"
av=$(med "$tmp/avail.csv" "$papi avail") av7=$(med "$tmp/avail.csv" papi_avail)
pf=$([ -n "$pfm_floor" ] && med "$tmp/avail.csv" "$pfm_floor")
printf '%-36s %8s [<= 0.50x]  floor: a program that starts, initializes libpfm4 and finds its PMUs: %s of papi_avail\n' \
	"papi avail / papi_avail" "$(ratio "$av" "$av7")" "$(ratio "$pf" "$av7")"
[ -z "$pfm_floor" ] || "$pfm_floor" -v | awk '
	$1 == "cpuid_ns" { c = $2 } $1 == "pfm_initialize_ns" { p = $2 } $1 == "pmu_walk_ns" { w = $2 }
	END { printf "%-36s %8s  (pfm_initialize %.2f ms, the PMU walk %.2f ms; one CPUID %.1f us)\n", "", "", p / 1e6, w / 1e6, c / 1e3 }'
st=$(med "$tmp/stat.csv" "$papi stat -o /dev/null -e perf::TASK-CLOCK $t")
printf '%-36s %8s [<= 1.20x]  / the dynamically linked launcher: %s\n' "papi stat / static launcher" \
	"$(ratio "$st" "$(med "$tmp/stat.csv" "$tmp/launch $t")")" "$(ratio "$st" "$(med "$tmp/stat.csv" "$tmp/launch_dyn $t")")"
# What the difference is made of: page faults (perf stat, the command's own
# included), each at the cost measured above.
pfaults() { perf stat -x, -r 10 -e page-faults "$@" 2>&1 >/dev/null | awk -F, '$3 == "page-faults" { print $1 }'; }
if command -v perf >/dev/null && [ -x "$tmp/launch" ]; then
	fp=$(pfaults "$papi" stat -o /dev/null -e perf::TASK-CLOCK "$t") fl=$(pfaults "$tmp/launch" "$t")
	printf '%-36s %8s  (page faults: papi stat %s, the static launcher %s; at %s ns each, %s ms of the difference)\n' \
		"" "" "$fp" "$fl" "$(ours fault_ns)" \
		"$(awk -v a="$fp" -v b="$fl" -v c="$(ours fault_ns)" 'BEGIN { printf "%.2f", (a - b) * c / 1e6 }')"
fi
printf '%-36s %8s [<= 50 us]  %s page faults at %s ns each: %s us\n' "PAPI_library_init, new program (us)" \
	"$(awk -v n="$(ours library_init_exec)" 'BEGIN { printf "%.0f", n / 1e3 }')" "$(ours faults_init_exec)" \
	"$(ours fault_ns)" "$(awk -v f="$(ours faults_init_exec)" -v c="$(ours fault_ns)" 'BEGIN { printf "%.0f", f * c / 1e3 }')"
printf '%-36s %8s [<= 1.02x]  floor: the least a library adds (find the set, read, scale from the base): %s\n' \
	"PAPI_read / raw read()" "$(ratio "$(ours read_per_raw_x1000)" 1000)" "$(ratio "$(ours least_per_raw_x1000)" 1000)"
printf '%-36s %8s  (the library'"'"'s own work per read, system calls replaced by no-ops: %s ns, %s of the raw read)\n' \
	"" "" "$(ours own_read)" \
	"$(awk -v o="$(ours own_read)" -v r="$(ours raw_read)" 'BEGIN { if (r > 0) printf "%.1f%%", 100 * o / r }')"
printf '%-36s %8s [<= 2.00x]\n' "multiplexed / plain start+stop" "$(ratio "$(ours mpx_start_stop)" "$(ours plain_start_stop)")"

#!/usr/bin/env bats
# abi.bats: programs built against PAPI 7.0 run unchanged on our libpapi.so.7.0: Debian's papi-tools and PAPI 7.0's own tests.
load helper

setup() {
	papi_isolate
	BUILD=${PAPI_BUILD:-$PAPI_TOP/build}
	[ -f "$BUILD/libpapi.so.7.0" ] || skip "libpapi.so.7.0 not built (make)"
	# under make check-sanitize the library needs its runtimes loaded first
	PRELOAD=$(san_preload "$BUILD/libpapi.so.7.0")
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
}

# on7 TOOL ARGS...: run one of Debian's PAPI 7.0 tools on our library.
on7() {
	local tool
	tool=$(command -v "$1") || skip "$1 is not installed (papi-tools)"
	shift
	env LD_LIBRARY_PATH="$BUILD" LD_PRELOAD="$PRELOAD" "$tool" "$@"
}

# uses_ours TOOL: the tool loads our libpapi.so.7.0, not PAPI 7.0's.
uses_ours() {
	local tool
	tool=$(command -v "$1") || skip "$1 is not installed (papi-tools)"
	env LD_LIBRARY_PATH="$BUILD" ldd "$tool" | grep -q "libpapi.so.7.0 => $BUILD/libpapi.so.7.0 "
}

@test "papi_avail (PAPI 7.0's) lists the presets from our library" {
	uses_ours papi_avail
	run -0 on7 papi_avail
	[[ "$output" == *"PAPI version             : 7.0.0.0"* ]]
	[[ "$output" =~ Of\ 108\ possible\ events,\ [0-9]+\ are\ available ]]
	run -0 on7 papi_avail -e PAPI_TOT_CYC
	[[ "$output" == *"PAPI_TOT_CYC"* ]]
}

@test "papi_native_avail (PAPI 7.0's) lists perf:: software events" {
	uses_ours papi_native_avail
	run -0 on7 papi_native_avail
	[[ "$output" == *"perf::TASK-CLOCK"* ]]
	[[ "$output" == *"perf::PAGE-FAULTS"* ]]
	[[ "$output" =~ Total\ events\ reported:\ [1-9][0-9]* ]]
	run -0 on7 papi_native_avail -e perf::TASK-CLOCK
	[[ "$output" == *"perf::TASK-CLOCK"* ]]
}

@test "papi_native_avail and papi_event_chooser (PAPI 7.0's) list on ours what they list on PAPI 7.0" {
	uses_ours papi_native_avail
	local t tool d=$BATS_TEST_TMPDIR
	for t in "papi_native_avail" "papi_event_chooser NATIVE perf::TASK-CLOCK"; do
		tool=native
		[[ "$t" == papi_event_chooser* ]] && tool=chooser
		# on PAPI 7.0's library, which the tool loads by itself
		# shellcheck disable=SC2086
		env -u LD_LIBRARY_PATH $t > "$d/theirs" 2> "$d/theirs.err" || skip "$t fails on PAPI 7.0's library"
		# shellcheck disable=SC2086
		on7 $t > "$d/ours" 2> "$d/ours.err"
		awk -v tool=$tool -f "$PAPI_TOP/test/tools/native-listing.awk" "$d/theirs" > "$d/theirs.norm"
		awk -v tool=$tool -f "$PAPI_TOP/test/tools/native-listing.awk" "$d/ours" > "$d/ours.norm"
		[ -s "$d/theirs.norm" ]
		diff "$d/theirs.norm" "$d/ours.norm" | head -n 20
		cmp -s "$d/theirs.norm" "$d/ours.norm"
		# PAPI_VERB_ECONT, which both set, prints no failed call's reason
		head -n 5 "$d/ours.err"
		[ "$(grep -c . "$d/ours.err")" -le "$(grep -c . "$d/theirs.err")" ]
	done
}

@test "papi_command_line (PAPI 7.0's) counts perf:: software events" {
	uses_ours papi_command_line
	run -0 on7 papi_command_line perf::TASK-CLOCK perf::PAGE-FAULTS
	[[ "$output" == *"Successfully added: perf::TASK-CLOCK"* ]]
	[[ "$output" =~ perf::TASK-CLOCK\ :\ $'\t'[1-9][0-9]* ]]
	[[ "$output" =~ perf::PAGE-FAULTS\ :\ $'\t'[0-9]+ ]]
}

@test "papi_event_chooser (PAPI 7.0's) finds the events that count with perf::TASK-CLOCK" {
	uses_ours papi_event_chooser
	run -0 on7 papi_event_chooser NATIVE perf::TASK-CLOCK
	[[ "$output" =~ Total\ events\ reported:\ [1-9][0-9]* ]]
	[[ "$output" == *"perf::"* ]]
}

@test "papi_component_avail, papi_decode, papi_mem_info, papi_error_codes (PAPI 7.0's) run on our library" {
	uses_ours papi_component_avail
	run -0 on7 papi_component_avail
	[[ "$output" == *"perf_event"* ]]
	run -0 on7 papi_decode
	[[ "${lines[0]}" == "name,derived,postfix,short_descr,long_descr,note,[native,...]" ]]
	[[ "$output" == *"PAPI_TOT_CYC,"* ]]
	[ "$(grep -c '^PAPI_' <<<"$output")" -ge 100 ]
	run -0 on7 papi_mem_info
	[[ "$output" == *"Memory Cache and TLB Hierarchy Information"* ]]
	run -0 on7 papi_error_codes
	[[ "$output" == *"There are 28 error codes defined"* ]]
	[[ "$output" == *"Error code  -27: "* ]]
}

# tlbs TOOL-OUTPUT: one "level type page-size entries" line per TLB, sorted.
tlbs() {
	awk '/TLB:$/ { t = $1 " " $2 } /Page Size:/ { p = $3 } /Number of Entries:/ { print t, p, $4 }' | sort
}

@test "papi_mem_info (PAPI 7.0's) prints the TLB page sizes it prints on its own library" {
	uses_ours papi_mem_info
	local theirs ours
	theirs=$(papi_mem_info | tlbs)
	[ -n "$theirs" ] || skip "PAPI 7.0 knows no TLB of this CPU"
	ours=$(on7 papi_mem_info | tlbs)
	[ "$ours" = "$theirs" ] || { diff <(echo "$theirs") <(echo "$ours"); false; }
	# the field is in bytes: no page is under 4 KB
	! grep -Eq ' [0-3] [0-9]+$' <<<"$ours"
}

@test "papi_hardware_avail and papi_version (PAPI 7.0's) run on our library" {
	uses_ours papi_hardware_avail
	# it asks the sysdetect component, which this library does not have
	# (yet): it says so and exits 0
	run -0 on7 papi_hardware_avail
	run -0 on7 papi_version
	[[ "$output" == "PAPI Version: 7.0.0.0" ]]
}

@test "papi_multiplex_cost (PAPI 7.0's) times multiplexed sets on our library and writes its five tables" {
	uses_ours papi_multiplex_cost
	# Its default is a million start/stop, read, read_ts, accum and reset
	# calls per set size: with a few hundred it must end, with every table
	# full. (It ran for hours while a multiplexed set cost a system call
	# per counter per call: t_multiplex's syscall budget guards that.)
	run -0 on7 papi_multiplex_cost -x 4 -t 300
	local f
	for f in startstop read read_ts accum reset; do
		[ -s "papi_$f.dat" ]
		# one row per set size 1..3: size, then min, max, mean and std
		# deviation of the kernel- and the software-multiplexed set
		run -0 awk '!/^#/ { n++; if (NF != 9 || $1 != n) bad = 1
			for (i = 2; i <= 9; i++) if ($i !~ /^[0-9.]+$/) bad = 1
			if ($2 <= 0 || $4 < $2 || $3 < $4 || $6 <= 0 || $8 < $6 || $7 < $8) bad = 1 }
			END { exit !(n == 3 && !bad) }' "papi_$f.dat"
	done
}

@test "papi_xml_event_info (PAPI 7.0's) writes valid XML from our library" {
	uses_ours papi_xml_event_info
	command -v xmllint >/dev/null || skip "xmllint is not installed (libxml2-utils)"
	on7 papi_xml_event_info > events.xml
	xmllint --noout events.xml
	grep -q 'perf::TASK-CLOCK\|TASK-CLOCK' events.xml
}

# PAPI 7.0's own tests (Debian's papi-examples), built against PAPI 7.0's
# papi.h and -lpapi, then run on our library: the ones that pass here, but
# the four that sleep or spin for 10 s or more (make compat-shared runs all).
@test "PAPI 7.0's ctests, built against PAPI 7.0, pass on our libpapi.so.7.0" {
	[ -d /usr/share/doc/papi-examples/examples/ctests ] || skip "papi-examples is not installed"
	[ -f /usr/include/papi.h ] || skip "PAPI 7.0's papi.h is not installed (libpapi-dev)"
	local t tests=""
	local slow=" omptough clockres_pthreads realtime virttime mpi_hl mpi_omp_hl "
	for t in $(grep -v '^#' "$PAPI_TOP/test/tools/compat-expected.txt"); do
		case "$slow" in
		*" $t "*) ;;
		*) tests="$tests $t" ;;
		esac
	done
	[ "$(echo $tests | wc -w)" -gt 25 ]
	run env COMPAT_SHARED=1 COMPAT_TESTS="$tests" COMPAT_OUT="$BATS_TEST_TMPDIR" COMPAT_PRELOAD="$PRELOAD" \
		sh "$PAPI_TOP/test/tools/compat.sh" "$BUILD"
	echo "$output" | tail -n 20
	[ "$status" -eq 0 ]
	[[ "$output" == *"run on "*"/libpapi.so.7.0"* ]]
	[[ "$output" =~ compat:\ ([0-9]+)\ tests:\ ([0-9]+)\ pass ]]
	[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]
}

# PAPI 7.0's post-processor on our region reports, in all its modes.
@test "papi_hl_output_writer (PAPI 7.0's) reads our region report in every mode" {
	command -v papi_hl_output_writer >/dev/null || skip "papi_hl_output_writer is not installed (papi-tools)"
	command -v jq >/dev/null || skip "jq is not installed"
	${CC:-cc} -I"$PAPI_TOP/libpapi" -o regions "$PAPI_TOP/test/lib/regions.c" -L"$BUILD" -lpapi \
		-Wl,-rpath,"$BUILD" -pthread
	PAPI_EVENTS=perf::TASK-CLOCK,perf::PAGE-FAULTS LD_PRELOAD="$PRELOAD" run -0 ./regions
	# the directory holds the measurement file only
	[ "$(ls -A papi_hl_output | wc -l)" = 1 ]
	ls papi_hl_output/rank_*.json
	local ty no
	for ty in summary detail; do
		for no in derived raw; do
			rm -f papi.json papi_sum.json
			run -0 papi_hl_output_writer --type=$ty --notation=$no
			[[ "$output" != *Traceback* ]]
			echo "$output" | jq -e . >/dev/null
		done
	done
	# summary, derived (the default): counts and times over the threads
	run -0 papi_hl_output_writer
	jq -e '.work["Region count"] == 4 and .inner["Region count"] == 4 and .main["Region count"] == 1' papi_sum.json
	jq -e '.work["Number of threads per rank"] == 2 and .work["CPU time in s"] >= 0' papi_sum.json
	# detail, raw: every instance with its read
	run -0 papi_hl_output_writer --type=detail --notation=raw
	jq -e '[.ranks[].threads[].regions[] | select(.name == "inner") | .["perf::TASK-CLOCK"].read_1] | length == 4' papi.json
}

@test "papi_hl_output_writer (PAPI 7.0's) merges the ranks of an MPI job" {
	command -v papi_hl_output_writer >/dev/null || skip "papi_hl_output_writer is not installed (papi-tools)"
	command -v mpicc >/dev/null && command -v mpirun >/dev/null ||
		skip "Open MPI is not installed (libopenmpi-dev, openmpi-bin)"
	[ -z "$PRELOAD" ] || skip "an MPI job on a sanitized library (make check-sanitize)"
	mpicc -I"$PAPI_TOP/libpapi" -o mpiprog "$PAPI_TOP/test/cli/data/hl_mpi.c" -L"$BUILD" -lpapi -Wl,-rpath,"$BUILD"
	PAPI_EVENTS=perf::TASK-CLOCK timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 ./mpiprog
	[ "$(ls -A papi_hl_output | wc -l)" = 2 ]
	run -0 papi_hl_output_writer
	jq -e '.compute["Region count"] == 3 and .compute["Number of ranks"] == 2' papi_sum.json
}

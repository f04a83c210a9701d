#!/usr/bin/env bats
# hl-report.bats: papi hl-report on reports of our region API (serial, MPI) and of PAPI 7.0.
load helper

setup() {
	papi_isolate
	has_command hl-report || skip "this build of papi has no hl-report"
	BUILD=${PAPI_BUILD:-$PAPI_TOP/build}
}

# A serial program built against our libpapi that marks regions.
build_prog() {
	cat > prog.c <<'C'
#include <papi.h>
int main(void) {
	for (int i = 0; i < 3; i++) {
		PAPI_hl_region_begin("outer");
		PAPI_hl_region_begin("in\"ner");
		volatile double x = 0;
		for (int k = 0; k < 1000000; k++) x += k;
		PAPI_hl_region_end("in\"ner");
		PAPI_hl_region_end("outer");
	}
	return 0;
}
C
	${CC:-cc} -I"$PAPI_TOP/libpapi" -o prog prog.c "$BUILD/libpapi.a" -lpfm -lcsv -pthread -lm -lrt
}

@test "hl-report --help and usage errors" {
	run -0 papi hl-report --help
	[[ "$output" == *"papi hl-report"* ]]
	run -2 papi hl-report --bogus
	run -1 papi hl-report "$BATS_TEST_TMPDIR/none"
	[[ "$output" == *"papi hl-report: "*"none"* ]]
}

@test "hl-report: summary of a serial run, table and JSON" {
	build_prog
	PAPI_EVENTS=perf::TASK-CLOCK,perf::PAGE-FAULTS ./prog
	run -0 papi hl-report
	[[ "${lines[0]}" == "1 rank(s), 1 thread(s)" ]]
	[[ "$output" == *"outer "*" 3 "* ]]
	run -0 papi hl-report --json papi_hl_output
	echo "$output" | jq -e . >/dev/null
	[ "$(echo "$output" | jq '.regions.outer.Region_count')" = 3 ]
	[ "$(echo "$output" | jq '.regions["in\"ner"].Region_count')" = 3 ]
	[ "$(echo "$output" | jq '.regions.outer.events["perf::TASK-CLOCK"].total > 0')" = true ]
	[ "$(echo "$output" | jq '.regions.outer.CPU_time_in_s > 0')" = true ]
	[ "$(echo "$output" | jq '.regions.outer | has("IPC")')" = false ]
	# the same from the rank file itself
	run -0 papi hl-report -j papi_hl_output/rank_*.json
	[ "$(echo "$output" | jq '.regions.outer.Region_count')" = 3 ]
	run -0 papi hl-report --detail --json
	[ "$(echo "$output" | jq '.ranks[0].regions | length')" = 2 ]
}

@test "hl-report: the same summary from PAPI 7.0's layout (the default) and the aggregated one" {
	build_prog
	PAPI_EVENTS=perf::TASK-CLOCK ./prog
	jq -e '.papi_version == "7.0.0.0" and (.threads | type) == "object"' papi_hl_output/rank_*.json
	run -0 papi hl-report -j
	echo "$output" | jq -S '.regions | map_values(.Region_count)' > seven
	PAPI_HL_LAYOUT=aggregated PAPI_EVENTS=perf::TASK-CLOCK ./prog
	jq -e '.layout == "papi aggregated 1" and (.threads | type) == "array" and (has("papi_version") | not)' \
		papi_hl_output/rank_*.json
	run -0 papi hl-report -j
	echo "$output" | jq -S '.regions | map_values(.Region_count)' > aggregated
	diff seven aggregated
	[ "$(jq '.outer' seven)" = 3 ]
}

@test "region reports: papi_hl_output holds only rank files; the run's key is beside it without xattrs" {
	build_prog
	PAPI_EVENTS=perf::TASK-CLOCK ./prog
	[ "$(ls -A papi_hl_output)" = "$(cd papi_hl_output && ls rank_*.json)" ]
	[ "$(ls -A | grep -c '^\.papi')" = 0 ]
	# a file system without extended attributes: the key goes beside the
	# directory, and a new run still moves the old one aside
	rm -rf papi_hl_output
	${CC:-cc} -shared -fPIC -o noxattr.so "$PAPI_TOP/test/lib/noxattr.c"
	# (a sanitized program lets a preloaded library come first)
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	PAPI_EVENTS=perf::TASK-CLOCK LD_PRELOAD="$PWD/noxattr.so" ./prog
	[ "$(ls -A papi_hl_output | wc -l)" = 1 ]
	grep -q "^pid=" .papi_hl_output.run
	PAPI_EVENTS=perf::TASK-CLOCK LD_PRELOAD="$PWD/noxattr.so" ./prog
	[ "$(ls -d papi_hl_output* | wc -l)" = 2 ]
	[ "$(ls -A papi_hl_output | wc -l)" = 1 ]
	[ "$(ls -A | grep -c '^\.papi')" = 1 ]
}

@test "hl-report: a directory holding papi_hl_output, and two files of one rank kept apart" {
	build_prog
	PAPI_EVENTS=perf::TASK-CLOCK ./prog
	PAPI_EVENTS=perf::TASK-CLOCK ./prog
	run -0 papi hl-report -j .
	[ "$(echo "$output" | jq '.regions.outer.Region_count')" = 3 ]
	run -0 papi hl-report -j papi_hl_output papi_hl_output-*
	[ "$(echo "$output" | jq '.Number_of_ranks')" = 2 ]
	[ "$(echo "$output" | jq '.regions.outer.Region_count')" = 6 ]
}

@test "hl-report: broken input is an error naming the file" {
	mkdir d
	printf '{"threads": [ {"id": 0, "regions": [ {"r": {"region_count": "x"}} ] } ]}' > d/rank_000000.json
	run -1 papi hl-report d
	[[ "$output" == *"rank_000000.json"*"region_count"* ]]
	printf '{"threads": ' > d/rank_000000.json
	run -1 papi hl-report d
	[[ "$output" == *"not JSON"* ]]
	echo '[1,2]' > d/rank_000000.json
	run -1 papi hl-report d/rank_000000.json
	[[ "$output" == *"not a report"* ]]
}

@test "hl-report: an MPI job's two rank files are merged" {
	command -v mpicc >/dev/null && command -v mpirun >/dev/null ||
		skip "Open MPI is not installed (libopenmpi-dev, openmpi-bin)"
	# CC may carry flags (sanitizer runs): mpicc needs them too.
	cc_flags=$(printf '%s\n' "${CC:-cc}" | cut -s -d' ' -f2-)
	mpicc $cc_flags -I"$PAPI_TOP/libpapi" -o mpiprog "$PAPI_TOP/test/cli/data/hl_mpi.c" "$BUILD/libpapi.a" -lpfm -lcsv -pthread -lm -lrt
	# Open MPI's own allocations outlive MPI_Finalize: no leak check here.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	PAPI_EVENTS=perf::TASK-CLOCK timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 ./mpiprog
	[ -f papi_hl_output/rank_000000.json ]
	[ -f papi_hl_output/rank_000001.json ]
	[ "$(ls papi_hl_output/rank_*.json | wc -l)" = 2 ]
	run -0 papi hl-report --json
	[ "$(echo "$output" | jq '.Number_of_ranks')" = 2 ]
	[ "$(echo "$output" | jq '.regions.compute.Region_count')" = 3 ]
	[ "$(echo "$output" | jq '.regions.compute.Number_of_ranks')" = 2 ]
	local min max
	min=$(echo "$output" | jq '.regions.compute.events["perf::TASK-CLOCK"].min')
	max=$(echo "$output" | jq '.regions.compute.events["perf::TASK-CLOCK"].max')
	[ "$(awk "BEGIN{print ($min < $max)}")" = 1 ]	# rank 1 ran the region twice
	run -0 papi hl-report --detail --json
	[ "$(echo "$output" | jq '[.ranks[].rank] | sort | join(",")')" = '"0,1"' ]
}

@test "hl-report: reads the rank files PAPI 7.0 writes" {
	[ -f /usr/include/papi.h ] && ${CC:-cc} -print-file-name=libpapi.so | grep -q / ||
		skip "PAPI 7 is not installed"
	${CC:-cc} -o p7 "$PAPI_TOP/test/cli/data/hl_papi7.c" -lpapi || skip "cannot link against PAPI 7"
	PAPI_EVENTS=perf::TASK-CLOCK ./p7 || skip "PAPI 7 cannot count perf::TASK-CLOCK here"
	run -0 papi hl-report --json
	[ "$(echo "$output" | jq '.regions.loop.Region_count')" = 3 ]
	[ "$(echo "$output" | jq '.regions.loop.events["perf::TASK-CLOCK"].total > 0')" = true ]
	[ "$(echo "$output" | jq '.regions.loop.Real_time_in_s > 0')" = true ]
}

@test "hl-report: a PAPI_OUTPUT_DIRECTORY that does not exist yet is made" {
	build_prog
	PAPI_EVENTS=perf::TASK-CLOCK PAPI_OUTPUT_DIRECTORY="$PWD/new" ./prog
	[ -f new/papi_hl_output/rank_*.json ] || ls new/papi_hl_output/rank_*.json
	run -0 papi hl-report -j new
	[ "$(echo "$output" | jq '.regions.outer.Region_count')" = 3 ]
}

@test "hl-report --plot: the regions side by side, an SVG that parses and renders" {
	build_prog
	PAPI_EVENTS=perf::TASK-CLOCK,perf::PAGE-FAULTS ./prog
	run -0 papi hl-report --plot regions.svg
	[[ "$output" == *"outer "* ]]
	check_svg regions.svg
	for t in 'real time' 'CPU time' perf::TASK-CLOCK; do
		grep -qF ">$t</text>" regions.svg || { echo "no panel $t"; false; }
	done
	# a bar per region, named under it, in each panel
	grep -qF '>outer</text>' regions.svg
	grep -qF '>in&quot;ner</text>' regions.svg
	run -2 papi hl-report --plot regions.png
	[[ "$output" == *"--plot writes SVG, not png"* ]]
	run -1 papi hl-report --plot /nonexistent/r.svg
	[[ "$output" == *"--plot: cannot write '/nonexistent/r.svg'"* ]]
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 papi hl-report --plot /dev/full
	[[ "$output" == *"--plot: write error on /dev/full: No space left on device"* ]]
}

@test "hl-report: TASK-CLOCK is time, in seconds, in the table and the plot" {
	build_prog
	PAPI_EVENTS=perf::TASK-CLOCK,perf::PAGE-FAULTS ./prog
	run -0 papi hl-report --json
	ns=$(jq -r '.regions.outer.events."perf::TASK-CLOCK".total' <<<"$output" 2>/dev/null) ||
		ns=$(sed -n '/"perf::TASK-CLOCK"/,/total/s/.*"total": \([0-9]*\).*/\1/p' <<<"$output" | head -n 1)
	[ -n "$ns" ] && [ "$ns" -gt 0 ]
	run -0 papi hl-report
	row=$(grep -E '^outer +perf::TASK-CLOCK ' <<<"$output")
	# four columns (total, min, median, max), each seconds with its unit, then the share
	[[ "$row" =~ ^outer\ +perf::TASK-CLOCK(\ +[0-9]+\.[0-9]{6}\ s){4}\ +100\.00%$ ]] || { echo "row: $row"; false; }
	got=$(awk '{print $3}' <<<"$row")
	want=$(awk -v n="$ns" 'BEGIN { printf "%.6f", n / 1e9 }')
	[ "$got" = "$want" ] || { echo "total $got s, JSON says $ns ns ($want s)"; false; }
	# a count stays a count
	grep -Eq '^outer +perf::PAGE-FAULTS +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +100\.00%$' <<<"$output"
	run -0 papi hl-report --plot regions.svg
	unit=$(awk '/>perf::TASK-CLOCK<\/text>/ { f = 1 } f && /rotate\(-90/ { sub(/.*">/, ""); sub(/<.*/, ""); print; exit }' regions.svg)
	[ "$unit" = s ] || { echo "TASK-CLOCK panel unit: '$unit'"; false; }
}

@test "hl-report --json: each event says its unit, TASK-CLOCK the nanoseconds of the rank file" {
	build_prog
	PAPI_EVENTS=perf::TASK-CLOCK,perf::PAGE-FAULTS ./prog
	run -0 papi hl-report --json
	[ "$(jq -r '.regions.outer.events["perf::TASK-CLOCK"].unit' <<<"$output")" = ns ]
	[ "$(jq -r '.regions.outer.events["perf::PAGE-FAULTS"].unit' <<<"$output")" = count ]
	# the region's own entries in the file the program wrote, summed
	local want
	want=$(jq '[.threads[].regions[] | select(.name == "outer") | ."perf::TASK-CLOCK" | tonumber] | add' \
		papi_hl_output/rank_*.json)
	[ "$(jq '.regions.outer.events["perf::TASK-CLOCK"].total' <<<"$output")" = "$want" ]
	[ "$(jq --argjson n "$want" '.regions.outer.CPU_time_in_s - $n / 1e9 | . < 1e-9 and . > -1e-9' \
		<<<"$output")" = true ]
	run -0 papi hl-report --detail --json
	[ "$(jq -r '.units["perf::TASK-CLOCK"]' <<<"$output")" = ns ]
	[ "$(jq -r '.units.real_time_nsec' <<<"$output")" = ns ]
	[ "$(jq -r '.units["perf::PAGE-FAULTS"]' <<<"$output")" = count ]
}

# work INS1 EN1 RUN1 INS2 EN2 RUN2: a hand-made rank file, one region "work"
# in two threads, with PAPI_TOT_INS counted RUN of EN ns in each and
# PAPI_TOT_CYC half the time (the kernel's times, as multiplexing leaves
# them: this machine's software events never multiplex).
work() {
	local t="" i
	for i in 0 1; do
		local ins=$2 en=$3 run=$4
		[ $i = 1 ] && ins=$5 en=$6 run=$7
		t="$t${t:+,}{\"id\": $i, \"regions\": [{\"work\": {\"region_count\": 1, \"cycles\": 100,
			\"real_time_nsec\": 1000, \"PAPI_TOT_INS\": $ins, \"PAPI_TOT_CYC\": 2000000,
			\"event_times\": {\"PAPI_TOT_INS\": {\"time_enabled\": $en, \"time_running\": $run},
			\"PAPI_TOT_CYC\": {\"time_enabled\": 1000000, \"time_running\": 500000}}}}]}"
	done
	printf '{"layout": "papi aggregated 1", "rank": 0, "threads": [%s]}\n' "$t" > "$1"
}

@test "hl-report: an event seen less than a tenth of the time is flagged as an extrapolation of what was counted" {
	# 5% of 1 ms in one thread, 10% in the other: 7.5% in all, and what
	# was counted is each thread's count scaled back by its own share,
	# 50,000 + 300,000 (not 4,000,000 x 7.5%)
	work low.json 1000000 1000000 50000 3000000 1000000 100000
	run -0 papi hl-report low.json
	grep -Eq '^work +PAPI_TOT_INS +4000000 +4000000 +4000000 +4000000 +7\.50%  \(scaled: an extrapolation of 350000 counted\)$' <<<"$output"
	# half the time: the share, no flag
	grep -Eq '^work +PAPI_TOT_CYC +4000000( +4000000){3} +50\.00%$' <<<"$output"
	run -0 papi hl-report --json low.json
	jq -e '.regions.work.events.PAPI_TOT_INS | .time_enabled == 2000000 and .time_running == 150000 and
		.running_pct == 7.5 and .low_share == true and .unscaled == 350000' <<<"$output"
	jq -e '.regions.work.events.PAPI_TOT_CYC | .running_pct == 50 and .low_share == false and (has("unscaled") | not)' <<<"$output"
	# per thread: 5% and 10% (not under a tenth: scaled, not flagged)
	run -0 papi hl-report --detail --json low.json
	jq -e '[.ranks[0].regions[] | .shares.PAPI_TOT_INS | [.running_pct, .low_share, .unscaled]] ==
		[[5, true, 50000], [10, false, null]]' <<<"$output"
	# a tenth and more in all: not flagged
	work ten.json 1000000 1000000 100000 3000000 1000000 100000
	run -0 papi hl-report ten.json
	grep -Eq '^work +PAPI_TOT_INS( +4000000){4} +10\.00%$' <<<"$output"
	# PAPI 7.0's layout, times as strings per instance beside the thread's
	# regions: summed per thread as our layout sums them (1000 at 100 of
	# 2000 ns: 50)
	printf '{"threads": {"0": {"regions": {"0": {"name": "w", "parent_region_id": "-1", "cycles": "1",
		"real_time_nsec": "1", "PAPI_TOT_INS": "800"}, "1": {"name": "w", "parent_region_id": "-1",
		"cycles": "1", "real_time_nsec": "1", "PAPI_TOT_INS": "200"}}, "event_times": {
		"0": {"PAPI_TOT_INS": {"time_enabled": "1000", "time_running": "25"}},
		"1": {"PAPI_TOT_INS": {"time_enabled": "1000", "time_running": "75"}}}}}}' > p7.json
	run -0 papi hl-report p7.json
	grep -Eq '^w +PAPI_TOT_INS( +1000){4} +5\.00%  \(scaled: an extrapolation of 50 counted\)$' <<<"$output"
	# a file without times (older ones, PAPI 7.0's): no share, no keys
	jq 'del(.threads[].regions[].work.event_times)' low.json > old.json
	run -0 papi hl-report old.json
	grep -Eq '^work +PAPI_TOT_INS( +4000000){4} +-$' <<<"$output"
	run -0 papi hl-report --json old.json
	jq -e '.regions.work.events.PAPI_TOT_INS | has("running_pct") or has("low_share") | not' <<<"$output"
	# times that are not two numbers are an error naming the event
	jq '.threads[0].regions[0].work.event_times.PAPI_TOT_INS.time_running = "x"' low.json > bad.json
	run -1 papi hl-report bad.json
	[[ "$output" == *"bad.json"*"PAPI_TOT_INS"* ]]
}

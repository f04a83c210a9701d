#!/usr/bin/env bats
# stat_mpi.bats: papi stat in MPI jobs: per-rank files (-o placeholders, --per-rank), rank 0's job
# report, and papi stat --merge; with Open MPI's mpirun where it is installed.

load helper

setup() {
	papi_isolate
	WORK=${PAPI_BUILD:-$PAPI_TOP/build}/test/cli/rank_work
	T=$BATS_TEST_TMPDIR/job
	mkdir -p "$T"
	# What an MPI launcher's environment says, for tests that need no mpirun.
	unset OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE PMI_RANK PMI_SIZE SLURM_PROCID SLURM_NTASKS \
		PMIX_RANK PMIX_NAMESPACE OMPI_MCA_ess_base_jobid SLURM_JOB_ID PBS_JOBID ALPS_APP_PE
}

teardown() {
	[ -z "${BG:-}" ] || kill "$BG" 2>/dev/null || :
}

# rank R SIZE JOB CMD...: CMD as rank R of SIZE in job JOB (Open MPI's variables).
rank() {
	local r=$1 n=$2 j=$3
	shift 3
	OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=$n OMPI_MCA_ess_base_jobid=$j "$@"
}

need_mpirun() {
	command -v mpirun >/dev/null || skip "Open MPI is not installed (apt-get install openmpi-bin)"
	[ -x "$WORK" ] || skip "test helper $WORK not built (make tests)"
	MPIRUN=(mpirun --oversubscribe)
	[ "$(id -u)" != 0 ] || MPIRUN+=(--allow-run-as-root)
}

# The merged JSON's item $2 of file $1: field $3.
item() {
	jq -e --arg n "$2" ".items[] | select(.name == \$n) | .$3" "$1"
}

@test "-o placeholders name the file by rank, host, pid and job; the file says them" {
	run rank 3 4 77 papi stat -j -e perf::TASK-CLOCK -o "$T/s.%j.%r.%h.json" true
	[ "$status" -eq 0 ]
	f="$T/s.77.3.$(hostname).json"
	[ -f "$f" ]
	[ "$(jq -r '.mpi.job, .mpi.rank, .mpi.size, .mpi.launcher, .host' "$f" | tr '\n' ' ')" = "77 3 4 Open MPI $(hostname) " ]
	run papi stat -j -o "$T/p.%p.%%.json" true
	[ "$status" -eq 0 ]
	ls "$T"/p.*.%.json
	pid=$(jq -r .pid "$T"/p.*.%.json)
	[ -f "$T/p.$pid.%.json" ]
}

@test "a per-rank file is never overwritten" {
	rank 0 2 5 papi stat -j -o "$T/r%r.json" true
	before=$(cat "$T/r0.json")
	run rank 0 2 5 papi stat -j -o "$T/r%r.json" true
	[ "$status" -eq 1 ]
	[[ "$output" == *"r0.json"*"never overwritten"* ]]
	[ "$(cat "$T/r0.json")" = "$before" ]
	mkdir -p "$T/d"
	rank 1 2 5 papi stat --per-rank "$T/d" --merge-wait 1 true
	before=$(cat "$T/d/papi-stat.5.1.json")
	run rank 1 2 5 papi stat --per-rank "$T/d" true
	[ "$status" -eq 1 ]
	[[ "$output" == *"papi-stat.5.1.json exists"* ]]
	[ "$(cat "$T/d/papi-stat.5.1.json")" = "$before" ]
}

@test "in a job of several ranks, -o must name a file per rank" {
	run rank 0 4 9 papi stat -o "$T/all.json" true
	[ "$status" -eq 2 ]
	[[ "$output" == *"every rank needs its own file"* ]]
	[ ! -e "$T/all.json" ]
	run rank 0 1 9 papi stat -o "$T/one.txt" true
	[ "$status" -eq 0 ]
	[ -s "$T/one.txt" ]
	run papi stat -o "$T/x.%q" true
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown placeholder '%q'"* ]]
}

@test "--per-rank: other ranks print nothing; rank 0 waits for every file, then reports the job" {
	[ -x "$WORK" ] || skip "test helper $WORK not built (make tests)"
	# Rank 0 first: it cannot report before rank 1's file is there.
	rank 0 2 42 papi stat --per-rank "$T" -j -o "$T/job.json" -e perf::PAGE-FAULTS "$WORK" 500 &
	BG=$!
	run --separate-stderr rank 1 2 42 papi stat --per-rank "$T" -e perf::PAGE-FAULTS "$WORK" 500 1
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] && [ -z "$output" ]
	wait "$BG"
	BG=
	jq -e '.format == "papi-stat-merge" and .job == "42" and .size == 2 and (.ranks | length) == 2 and .missing == []' "$T/job.json"
	[ "$(item "$T/job.json" perf::PAGE-FAULTS max_rank)" = 1 ]
	# Rank 1 touched 500 pages more (one fault each; a start-up's faults,
	# which sanitizers multiply, are the same on both).
	jq -e '.items[] | select(.name == "perf::PAGE-FAULTS") | .max - .min >= 450' "$T/job.json"
}

@test "--per-rank: rank 0 reports the ranks missing when --merge-wait runs out" {
	run --separate-stderr rank 0 3 43 papi stat --per-rank "$T" --merge-wait 50 -e perf::TASK-CLOCK true
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"Job 43: 1 rank of 3"* ]]
	[[ "$stderr" == *"missing: 2 ranks without a file: 1, 2"* ]]
	run papi stat --merge "$T"
	[ "$status" -eq 1 ]
	[[ "$output" == *"missing: 2 ranks"* ]]
}

@test "--per-rank: a rank whose command cannot start or an event cannot be counted leaves a file" {
	run -127 rank 1 2 44 papi stat --per-rank "$T" -e perf::TASK-CLOCK "$T/no-such-program"
	run rank 0 2 44 papi stat --per-rank "$T" -e no::SUCH_EVENT true
	[ "$status" -eq 1 ]
	[[ "$output" == *"Job 44: 2 ranks of 2"* ]]
	[[ "$output" == *"rank 0 on"*"papi stat failed: exit status 1 before counting"* ]]
	[[ "$output" == *"rank 1 on"*"papi stat failed: exit status 127 before counting"* ]]
}

@test "mpirun -np 4: one rank with twice the work shows in min, max and their ranks" {
	need_mpirun
	run "${MPIRUN[@]}" -np 4 "$PAPI_BIN" stat --per-rank "$T" -e perf::PAGE-FAULTS,perf::TASK-CLOCK "$WORK" 2000 2
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(ls "$T"/papi-stat.*.json | wc -l)" -eq 4 ]
	[[ "$output" == *"4 ranks of 4 on 1 host (Open MPI)"* ]]
	run papi stat --merge -j -o "$T/m.json" "$T"
	[ "$status" -eq 0 ]
	[ "$(item "$T/m.json" perf::PAGE-FAULTS max_rank)" = 2 ]
	jq -e '.items[] | select(.name == "perf::PAGE-FAULTS") | .max - .median >= 1800 and .ranks == 4' "$T/m.json"
	# The sum and the median are those of the four files.
	sum=$(jq -s '[.[].events[] | select(.name == "perf::PAGE-FAULTS") | .value] | add' "$T"/papi-stat.*.json)
	[ "$(item "$T/m.json" perf::PAGE-FAULTS sum)" = "$sum" ]
	med=$(jq -s '[.[].events[] | select(.name == "perf::PAGE-FAULTS") | .value] | sort | (.[1] + .[2]) / 2' "$T"/papi-stat.*.json)
	[ "$(item "$T/m.json" perf::PAGE-FAULTS median)" = "$med" ]
	# Per host: this one host holds the whole job.
	host=$(hostname)
	jq -e --arg h "$host" '.hosts == [$h] and (.per_host[$h][] | select(.name == "perf::PAGE-FAULTS") | .ranks) == 4' "$T/m.json"
	# The text shows the task clock as a time: the files' nanoseconds in ms.
	run -0 --separate-stderr papi stat --merge "$T"
	line=$(grep 'perf::TASK-CLOCK' <<< "$stderr")
	echo "$line"
	[[ "$line" == *"perf::TASK-CLOCK (ms)" ]]
	ns=$(jq -s '[.[].events[] | select(.name == "perf::TASK-CLOCK") | .value] | add' "$T"/papi-stat.*.json)
	want=$(awk -v n="$ns" 'BEGIN { printf "%.3f", n / 1e6 }')
	[ "$(awk '{ print $1 }' <<< "$line")" = "$want" ]
}

@test "mpirun: a killed rank leaves a file that says so, and the merge reports it" {
	need_mpirun
	run "${MPIRUN[@]}" -np 4 "$PAPI_BIN" stat --per-rank "$T" -e perf::PAGE-FAULTS \
		sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then kill -9 $$; fi; exec "$0" 100' "$WORK"
	[ "$status" -ne 0 ]
	run papi stat --merge -j -o "$T/m.json" "$T"
	jq -e '.ranks[] | select(.rank == 1) | .signal == 9 and (.failure | test("killed by signal 9"))' "$T/m.json"
	run papi stat --merge "$T"
	[[ "$output" == *"rank 1 on "*": killed by signal 9"* ]]
}

@test "mpirun: two jobs in one directory are never mixed; --job picks one" {
	need_mpirun
	"${MPIRUN[@]}" -np 2 "$PAPI_BIN" stat --per-rank "$T" -e perf::TASK-CLOCK true
	"${MPIRUN[@]}" -np 2 "$PAPI_BIN" stat --per-rank "$T" -e perf::TASK-CLOCK true
	[ "$(ls "$T"/papi-stat.*.json | wc -l)" -eq 4 ]
	run papi stat --merge "$T"
	[ "$status" -eq 1 ]
	[[ "$output" == *"more than one job"*"--job"* ]]
	job=$(jq -r .mpi.job "$(ls "$T"/papi-stat.*.json | head -1)")
	run papi stat --merge -j --job "$job" "$T"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e --arg j "$job" '.job == $j and (.ranks | length) == 2'
}

@test "--merge --plot: a bar per rank, min, median and max marked; a missing rank is an empty slot" {
	[ -x "$WORK" ] || skip "test helper $WORK not built (make tests)"
	# Ranks 0, 1 and 3 of 4; rank 1 touches twice the pages; rank 2 never ran.
	for r in 0 1 3; do
		rank $r 4 60 papi stat -j -o "$T/papi-stat.%j.%r.json" -e perf::PAGE-FAULTS "$WORK" 500 1
	done
	run papi stat --merge -j -o "$T/m.json" --plot "$T/job.svg" "$T"
	[ "$status" -eq 1 ]	# a rank is missing: said, and drawn
	check_svg "$T/job.svg"
	grep -qF '>papi stat: job 60, 3 of 4 ranks on 1 host, per rank</text>' "$T/job.svg"
	grep -qF '>MPI rank</text>' "$T/job.svg"
	# A panel per item of the report, each with its marks' legend.
	n=$(jq '.items | length' "$T/m.json")
	[ "$(grep -c '>median ' "$T/job.svg")" -eq "$n" ]
	grep -qF '>perf::PAGE-FAULTS</text>' "$T/job.svg"
	# The page faults: a bar per rank with its count; the max's red, the
	# min's green, each named in the legend with its rank.
	for r in 0 1 3; do
		v=$(jq '.events[] | select(.name == "perf::PAGE-FAULTS") | .value' "$T/papi-stat.60.$r.json")
		grep -qF "<title>$r: $v</title>" "$T/job.svg" || { echo "no bar $r: $v"; false; }
	done
	max=$(item "$T/m.json" perf::PAGE-FAULTS max)
	min_rank=$(item "$T/m.json" perf::PAGE-FAULTS min_rank)
	grep -qF "fill=\"#d62728\"><title>1: $max</title>" "$T/job.svg"
	grep -qF "fill=\"#2ca02c\"><title>$min_rank: " "$T/job.svg"
	grep -q ">max [0-9.]*k\? @1</text>" "$T/job.svg"
	grep -q ">min [0-9.]*k\? @$min_rank</text>" "$T/job.svg"
	# Three dashed lines across each panel, three in its legend.
	[ "$(grep -c 'stroke-dasharray' "$T/job.svg")" -eq $((6 * n)) ]
	# Rank 2: an empty slot with a cross, no bar.
	grep -qF '<title>2: no value</title></path>' "$T/job.svg"
	[ "$(grep '<rect' "$T/job.svg" | grep -cF '<title>2: ')" -eq 0 ]
}

@test "--per-rank --plot: rank 0 draws the job; --merge --plot later draws the same" {
	need_mpirun
	run "${MPIRUN[@]}" -np 4 "$PAPI_BIN" stat --per-rank "$T/d" --plot "$T/job.svg" \
		-e perf::PAGE-FAULTS,perf::TASK-CLOCK "$WORK" 2000 2
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"4 ranks of 4 on 1 host (Open MPI)"* ]]
	check_svg "$T/job.svg"
	grep -qF '>perf::TASK-CLOCK</text>' "$T/job.svg"
	grep -qF '>ms</text>' "$T/job.svg"	# times in ms
	run papi stat --merge -j -o "$T/m.json" --plot "$T/again.svg" "$T/d"
	[ "$status" -eq 0 ]
	cmp "$T/job.svg" "$T/again.svg"
	# Rank 2 did twice the work: its page-fault bar is the red one.
	max=$(item "$T/m.json" perf::PAGE-FAULTS max)
	grep -qF "fill=\"#d62728\"><title>2: $max</title>" "$T/job.svg"
	[ "$(grep -c '<title>[0-3]: [0-9]' "$T/job.svg")" -eq $((4 * $(jq '.items | length' "$T/m.json"))) ]
}

@test "--plot: without a merge, on another rank, or to a path that cannot be written" {
	run papi stat --plot "$T/x.svg" -e perf::TASK-CLOCK true
	[ "$status" -eq 2 ]
	[[ "$output" == *"papi stat: --plot draws the intervals of -I, or an MPI job's ranks with --per-rank or --merge"* ]]
	# Only rank 0 draws.
	run rank 1 2 62 papi stat --per-rank "$T" --plot "$T/r1.svg" -e perf::TASK-CLOCK true
	[ "$status" -eq 0 ]
	[ ! -e "$T/r1.svg" ]
	# Rank 0 still prints the job's report, then says the chart failed.
	run --separate-stderr rank 0 2 62 papi stat --per-rank "$T" --plot /nonexistent/j.svg -e perf::TASK-CLOCK true
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"Job 62: 2 ranks of 2"* ]]
	[[ "$stderr" == *"papi stat: --plot: cannot write '/nonexistent/j.svg': No such file or directory"* ]]
	run --separate-stderr papi stat --merge --plot /nonexistent/j.svg "$T"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"Job 62"* ]]
	[[ "$stderr" == *"papi stat: --plot: cannot write '/nonexistent/j.svg'"* ]]
	if [ -w /dev/full ]; then
		run --separate-stderr papi stat --merge --plot /dev/full "$T"
		[ "$status" -eq 1 ]
		[[ "$stderr" == *"papi stat: --plot: write error on /dev/full: No space left on device"* ]]
	fi
	# Nothing to merge: no chart either.
	run papi stat --merge --plot "$T/none.svg" "$T/empty"
	[ "$status" -eq 1 ]
	[ ! -e "$T/none.svg" ]
	run papi stat --merge --plot
	[ "$status" -eq 2 ]
}

@test "--merge: CSV has one row per item and scope, with fixed columns" {
	rank 0 2 50 papi stat -j -o "$T/papi-stat.%j.%r.json" -e perf::TASK-CLOCK,perf::PAGE-FAULTS true
	rank 1 2 50 papi stat -j -o "$T/papi-stat.%j.%r.json" -e perf::TASK-CLOCK,perf::PAGE-FAULTS true
	run papi stat --merge -x ';' "$T"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "scope;host;name;kind;unit;ranks;sum;min;median;max;min_rank;max_rank" ]
	echo "$output" | grep -q '^job;;perf::PAGE-FAULTS;event;count;2;'
	[ "$(echo "$output" | awk -F';' 'NF != 12' | wc -l)" -eq 0 ]
}

@test "--merge refuses what is not a job's files, and duplicate ranks" {
	run papi stat --merge "$T/none"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot read '$T/none'"* ]]
	run papi stat --merge "$T"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no per-rank files"* ]]
	papi stat -j -o "$T/plain.json" true
	run papi stat --merge "$T/plain.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not a per-rank file"* ]]
	echo '{"format": "papi-stat", "mpi": ' > "$T/bad.json"
	run papi stat --merge "$T/bad.json"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad.json:"* ]]
	rank 0 1 51 papi stat -j -o "$T/papi-stat.51.0.json" true
	cp "$T/papi-stat.51.0.json" "$T/papi-stat.51.9.json"
	run papi stat --merge "$T"
	[ "$status" -eq 1 ]
	[[ "$output" == *"rank 0 twice"* ]]
}

@test "--merge takes only output options; --job and --merge-wait need their partners" {
	run papi stat --merge -e perf::TASK-CLOCK "$T"
	[ "$status" -eq 2 ]
	run papi stat --merge
	[ "$status" -eq 2 ]
	run papi stat --job 4 true
	[ "$status" -eq 2 ]
	run papi stat --merge-wait 10 true
	[ "$status" -eq 2 ]
}

@test "-I --plot in an MPI job: each rank draws its own intervals, named by %r" {
	run rank 1 2 63 papi stat -I 20 --plot "$T/iv.svg" -e perf::TASK-CLOCK sleep 0.05
	[ "$status" -eq 2 ]
	[[ "$output" == *"papi stat: --plot: in an MPI job every rank draws its own intervals: put %r (or %p) in the name"* ]]
	[ ! -e "$T/iv.svg" ]
	run rank 1 2 63 papi stat -I 20 --plot "$T/iv-%x.svg" -e perf::TASK-CLOCK true
	[ "$status" -eq 2 ]
	[[ "$output" == *"papi stat: --plot: unknown placeholder '%x'"* ]]
	for r in 0 1; do
		run rank $r 2 63 papi stat -I 20 --plot "$T/iv-%r.svg" -e perf::TASK-CLOCK sleep 0.05
		[ "$status" -eq 0 ]
	done
	check_svg "$T/iv-0.svg"
	check_svg "$T/iv-1.svg"
	# a job of one rank may keep one name
	run rank 0 1 64 papi stat -I 20 --plot "$T/one.svg" -e perf::TASK-CLOCK sleep 0.05
	[ "$status" -eq 0 ]
	check_svg "$T/one.svg"
}

#!/usr/bin/env bats
# stat-report.bats: papi stat --report RUN.json prints a saved run again: the text, CSV and JSON a live run printed (its --save file read back), the chart of its intervals, and clear errors for files that are not a saved run.
load helper

setup() {
	papi_isolate
	WORK=${PAPI_BUILD:-$PAPI_TOP/build}/test/cli/oracle_work
	[ -x "$WORK" ] || skip "test helper not built ($WORK)"
}

EVS=perf::TASK-CLOCK,perf::PAGE-FAULTS

@test "--report: the text of a saved run is the text the live run printed" {
	run -0 papi stat -o live.txt --save run.json -e $EVS -r 3 "$WORK" touch 2000
	# the workload's pages were counted (an independent check of the numbers)
	jq -e '.events[] | select(.name == "perf::PAGE-FAULTS") | .min >= 2000' run.json
	run -0 papi stat --report -o again.txt run.json
	diff live.txt again.txt
	# on standard error by default, as a live run's
	papi stat --report run.json 2>err.txt >out.txt
	diff live.txt err.txt
	[ ! -s out.txt ]
	grep -Eq '^ +[0-9.]+ ms +± +[0-9.]+% .* perf::TASK-CLOCK(:u)? ' again.txt
}

@test "--report: intervals and metrics come back in the text and CSV" {
	run -0 papi stat -I 100 -o live.txt --save run.json -g DEFAULT -e $EVS "$WORK" spin 350
	run -0 papi stat --report -o again.txt run.json
	diff live.txt again.txt
	grep -q '^ *time (s)' again.txt
	run -0 papi stat -I 100 -x';' -o live.csv --save run.json -e $EVS "$WORK" spin 350
	run -0 papi stat --report -x';' -o again.csv run.json
	diff live.csv again.csv
	[ "$(grep -c ';interval;perf::PAGE-FAULTS;' again.csv)" -ge 3 ]
}

@test "--report: the CSV of a repeated run with a failing command and a user-space event" {
	run -3 papi stat -x, -r 2 -o live.csv --save run.json -e '{perf::TASK-CLOCK,perf::PAGE-FAULTS},perf::CONTEXT-SWITCHES:u' sh -c 'exit 3'
	run -0 papi stat --report -x, -o again.csv run.json
	diff live.csv again.csv
	grep -q '^,run,2,3,exit_status' again.csv
	# and the text, the note on user-space context switches included
	run -3 papi stat -r 2 -o live.txt --save run.json -e perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES:u sh -c 'exit 3'
	run -0 papi stat --report -o again.txt run.json
	diff live.txt again.txt
	grep -q 'Context switches happen in the kernel' again.txt
}

@test "--report -j: a saved run's JSON round-trips" {
	run -0 papi stat -j -o run.json -g DEFAULT -e $EVS -I 50 "$WORK" spin 200
	run -0 papi stat --report -j -o again.json run.json
	diff <(jq -S . run.json) <(jq -S . again.json)
	# the repeated, the attached and the killed too
	run -0 papi stat -j -o r.json -r 3 -e $EVS "$WORK" touch 100
	run -0 papi stat --report -j -o again.json r.json
	diff <(jq -S . r.json) <(jq -S . again.json)
	run -137 papi stat -j -o k.json -e $EVS sh -c 'kill -9 $$'
	run -0 papi stat --report -j -o again.json k.json
	diff <(jq -S . k.json) <(jq -S . again.json)
	sleep 5 &
	local pid=$!
	run -0 papi stat -j -o a.json -p "$pid" --per-thread --timeout 200 -I 50 -e $EVS
	kill "$pid"
	run -0 papi stat --report -j -o again.json a.json
	diff <(jq -S . a.json) <(jq -S . again.json)
}

@test "--report --plot: the intervals of a saved run drawn again" {
	run -0 papi stat -j -o run.json -I 100 -e $EVS "$WORK" spin 350
	run -0 papi stat --report --plot chart.svg -o /dev/null run.json
	check_svg chart.svg
	grep -q 'perf::PAGE-FAULTS' chart.svg
	# a run without -I has nothing to draw
	run -0 papi stat -j -o flat.json -e $EVS true
	run -1 papi stat --report --plot chart2.svg flat.json
	[[ "$output" == *"--plot: flat.json holds no intervals to draw (its run had no -I)"* ]]
	[ ! -e chart2.svg ]
}

@test "--report: usage errors exit 2" {
	run -0 papi stat -j -o run.json -e perf::TASK-CLOCK true
	run -2 papi stat --report
	[[ "$output" == *"--report prints one saved run again: RUN.json"* ]]
	run -2 papi stat --report run.json run.json
	run -2 papi stat --report -e perf::TASK-CLOCK run.json
	[[ "$output" == *"--report reads a file: it takes only -j, -x, -o and --plot"* ]]
	run -2 papi stat --report -r 2 run.json
	run -2 papi stat --report -j -x, run.json
	run -2 papi stat --report --save x.json run.json
	run -2 papi stat --save x.json --diff run.json run.json
	# every mode that reads files refuses the options that shape a count alike
	for opt in --topdown --strict --no-multiplex "--cputype core" "-G x" "--domain user"; do
		run -2 papi stat --report $opt run.json
		[[ "$output" == *"--report reads a file: it takes only"* ]] || { echo "--report $opt: $output"; false; }
		run -2 papi stat --diff $opt run.json run.json
		[[ "$output" == *"--diff reads files: it takes only"* ]] || { echo "--diff $opt: $output"; false; }
		run -2 papi stat --merge $opt run.json
		[[ "$output" == *"--merge reads files: it takes only"* ]] || { echo "--merge $opt: $output"; false; }
	done
}

@test "--report: files that are not a saved run exit 1 and say what is wrong" {
	run -0 papi stat -j -o run.json -r 2 -e $EVS "$WORK" touch 100
	run -1 papi stat --report missing.json
	[ "$output" = "papi stat: missing.json: No such file or directory" ]
	mkdir saved.d
	run -1 papi stat --report saved.d
	[ "$output" = "papi stat: --report: saved.d: a directory, not a report (papi stat --json writes one)" ]
	if [ "$(id -u)" -ne 0 ]; then
		cp run.json closed.json && chmod 000 closed.json
		run -1 papi stat --report closed.json
		[ "$output" = "papi stat: closed.json: Permission denied" ]
	fi
	printf '{"format": ' > cut.json
	run -1 papi stat --report cut.json
	[[ "$output" == *"--report: cut.json:1: not JSON:"* ]]
	echo hello > text.json
	run -1 papi stat --report text.json
	[[ "$output" == *"--report: text.json:1: not JSON:"* ]]
	echo '{"format": "other"}' > other.json
	run -1 papi stat --report other.json
	[[ "$output" == *'--report: other.json: not a report of papi stat (written with --json), but "other"'* ]]
	papi stat --diff -j -o d.json run.json run.json
	run -1 papi stat --report d.json
	[[ "$output" == *"--report: d.json: a report of papi stat --diff, not of a run"* ]]
	# a field of the wrong kind: the jq edit, then what the message says
	local edit want
	while IFS='|' read -r edit want; do
		jq "$edit" run.json > bad.json
		run -1 papi stat --report bad.json
		[[ "$output" == *"--report: bad.json: $want"* ]] || { echo "$edit: $output"; return 1; }
	done <<-'EOF'
	.version = 2|not version 1 of the report ("version": 2)
	.events[1].values = [1]|perf::PAGE-FAULTS: "values" has 1 values, not one per run (2)
	.events[0].values = ["a", "b"]|perf::TASK-CLOCK: run 1's count is not an integer
	.events[1].value = "abc"|events[1] (perf::PAGE-FAULTS): "value" is not a number
	.events[0].mean = "abc"|events[0] (perf::TASK-CLOCK): "mean" is not a number
	.metrics[0].runs = "x"|metrics[0]: "runs" is not an integer from 0 to 2
	del(.events)|"events" is not an array
	.events[1] = 5|events[1] is not an object
	.runs = -1|the report: "runs" is not an integer from 0 to 100000
	.domain = "elsewhere"|"domain" is not a domain: 'elsewhere'
	.error = "exit status 127 before counting"|the run counted nothing: exit status 127 before counting
	EOF
	# a metric's value too, named
	local met
	met=$(jq -r '.metrics[0].name' run.json)
	jq '.metrics[0].value = "abc"' run.json > bad.json
	run -1 papi stat --report bad.json
	[ "$output" = "papi stat: --report: bad.json: metrics[0] ($met): \"value\" is not a number" ]
}

@test "--report: every truncation and random damage of a saved run is refused or printed, never a crash" {
	run -0 papi stat -j -o run.json -I 50 -g DEFAULT -e $EVS "$WORK" spin 120
	local size i rc
	size=$(stat -c %s run.json)
	# every cut but the one that drops only the final newline (whole JSON)
	for ((i = 1; i < size - 1; i += 29)); do
		head -c "$i" run.json > cut.json
		rc=0
		papi stat --report -o /dev/null cut.json 2>err || rc=$?
		[ "$rc" -eq 1 ] || { echo "cut at $i: status $rc"; cat err; return 1; }
		grep -q '^papi stat: --report: ' err
	done
	python3 -c '
import random
src = open("run.json", "rb").read()
for i in range(100):
	b = bytearray(src); r = random.Random(i)
	for _ in range(r.randint(1, 6)):
		b[r.randrange(len(b))] = r.choice(b"0123456789-.,:{}[]\"ntfe \x00\xff")
	open("bad%d.json" % i, "wb").write(b)'
	for ((i = 0; i < 100; i++)); do
		rc=0
		papi stat --report -o /dev/null "bad$i.json" 2>err || rc=$?
		[ "$rc" -le 1 ] || { echo "damage $i: status $rc"; cat err; return 1; }
	done
}

# share FILE EVENT PERMILLE: the saved run with EVENT counted PERMILLE/1000
# of its enabled time, as multiplexing leaves it (this machine's software
# events never multiplex, so the test sets the times).
share() {
	jq --arg n "$2" --argjson p "$3" '.multiplexed = true |
		(.events[] | select(.name == $n)) |= (.time_running = (.time_enabled * $p / 1000 | floor))' "$1"
}

@test "--report: a count seen less than a tenth of the time is flagged as an extrapolation of what was counted" {
	run -0 papi stat -j -o run.json -e $EVS "$WORK" touch 3000
	share run.json perf::PAGE-FAULTS 50 | share /dev/stdin perf::TASK-CLOCK 500 > mx.json
	v=$(jq '.events[] | select(.name == "perf::PAGE-FAULTS") | .value' mx.json)
	# what was counted: the value scaled back by running/enabled, 1/20 of it
	seen=$(jq '.events[] | select(.name == "perf::PAGE-FAULTS") |
		(.value * .time_running / .time_enabled + 0.5 | floor)' mx.json)
	[ "$seen" -ge $((v / 20 - 1)) ] && [ "$seen" -le $((v / 20 + 1)) ]
	run -0 --separate-stderr papi stat --report mx.json
	grep -Eq "^ +$v +perf::PAGE-FAULTS(:u)? .*\(counted 5\.00% of the time, scaled: an extrapolation of $seen counted\)$" <<<"$stderr"
	# half the time is scaled, not flagged
	grep -Eq 'perf::TASK-CLOCK(:u)? .*\(counted 50\.00% of the time, scaled\)$' <<<"$stderr"
	grep -q 'Counters were multiplexed' <<<"$stderr"
	run -0 --separate-stderr papi stat --report -x, mx.json
	# the domain counted: all where this user may count the kernel
	local DOM
	DOM=$(jq -r '.domain' mx.json)
	grep -q "^,event,perf::PAGE-FAULTS,$v,count,.*,low share: an extrapolation of $seen counted,,$DOM$" <<<"$stderr"
	grep -Eq "^,event,perf::TASK-CLOCK,.*,(50|49\\.9[0-9]*),,,$DOM\$" <<<"$stderr"
	run -0 papi stat --report -j -o out.json mx.json
	jq -e --argjson s "$seen" '.events[] | select(.name == "perf::PAGE-FAULTS") |
		.low_share == true and .unscaled == $s and (.running_pct - 5 | fabs) < 0.01' out.json
	jq -e '.events[] | select(.name == "perf::TASK-CLOCK") | .low_share == false and has("unscaled") == false' out.json
	# just past the threshold, a tenth, it is scaled but not flagged
	share run.json perf::PAGE-FAULTS 101 > ten.json
	run -0 --separate-stderr papi stat --report ten.json
	grep -Eq 'perf::PAGE-FAULTS(:u)? .*\(counted 10\.10% of the time, scaled\)$' <<<"$stderr"
	# never scheduled: running 0 is not counted, not an extrapolation of 0
	share run.json perf::PAGE-FAULTS 0 > never.json
	run -0 --separate-stderr papi stat --report never.json
	grep -Eq '<not counted> perf::PAGE-FAULTS(:u)?' <<<"$stderr"
	# a --per-* row is flagged by the same rule, with what it counted
	# (LeakSanitizer cannot run in a traced program: the sanitizer build's
	# workload would abort at its exit)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		run -0 papi stat --per-thread -j -o rows.json -e perf::PAGE-FAULTS "$WORK" touch 3000
	jq '.rows[0].events[0].time_running = (.rows[0].events[0].time_enabled * 50 / 1000 | floor)' rows.json > low.json
	v=$(jq '.rows[0].events[0].value' low.json)
	seen=$(jq '.rows[0].events[0] | (.value * .time_running / .time_enabled + 0.5 | floor)' low.json)
	run -0 --separate-stderr papi stat --report low.json
	grep -Eq "^[^ ]+-[0-9]+ +$v +perf::PAGE-FAULTS(:u)? +\(counted 5\.00% of the time, scaled: an extrapolation of $seen counted\)$" <<<"$stderr" ||
		{ echo "$stderr"; false; }
}

@test "--per-thread rows carry their own time enabled, running and share in CSV and JSON" {
	"$WORK" spin 1500 &
	local pid=$!
	sleep 0.1
	run -0 papi stat -x, -o rows.csv --save rows.json -p "$pid" --per-thread --timeout 400 -e $EVS
	kill "$pid" 2>/dev/null
	wait "$pid" || [ $? -eq 143 ]
	local line en runv pct value
	line=$(grep "^,event,perf::TASK-CLOCK,.*,oracle_work-$pid," rows.csv)
	IFS=, read -r _ _ _ value _ _ _ _ _ _ en runv pct _ <<<"$line"
	# the kernel's times of the thread: a task clock runs while its thread
	# does, so its running time is its count; software events are never
	# multiplexed, so the share is whole
	[ "$en" -gt 0 ] && [ "$runv" -eq "$en" ] && [ "$pct" = 100 ]
	[ "$value" -le "$runv" ] && [ $((runv - value)) -le $((runv / 20 + 1000000)) ]
	jq -e --argjson en "$en" '.rows[0].events[] | select(.name == "perf::TASK-CLOCK") |
		.time_enabled == $en and .time_running == $en and .running_pct == 100' rows.json
	# the saved run prints the same rows again
	run -0 papi stat --report -x, -o again.csv rows.json
	diff rows.csv again.csv
}

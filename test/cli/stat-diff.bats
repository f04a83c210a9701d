#!/usr/bin/env bats
# stat-diff.bats: papi stat --diff BASE.json NEW.json on real saved runs: the change per event and metric from the two files' own means, and whether it is beyond the runs' spread.
load helper

setup() {
	papi_isolate
	WORK=${PAPI_BUILD:-$PAPI_TOP/build}/test/cli/oracle_work
	[ -x "$WORK" ] || skip "test helper not built ($WORK)"
}

# mean FILE EVENT: the event's mean in a saved report.
mean() {
	jq -e --arg n "$2" '.events[] | select(.name == $n) | .mean' "$1"
}

@test "--diff: 4000 more pages touched is a change of about 4000 faults, beyond the spread" {
	run -0 papi stat -j -r 3 -o base.json -e perf::PAGE-FAULTS,perf::TASK-CLOCK "$WORK" touch 1000
	run -0 papi stat -j -r 3 -o new.json -e perf::PAGE-FAULTS,perf::TASK-CLOCK "$WORK" touch 5000
	run -0 papi stat --diff -j -o d.json base.json new.json
	b=$(mean base.json perf::PAGE-FAULTS)
	n=$(mean new.json perf::PAGE-FAULTS)
	# the change is the two files' means apart, and the workload's 4000 pages
	# (up to an eighth more under a sanitizer: its shadow of the pages)
	jq -e --argjson b "$b" --argjson n "$n" '.items[] | select(.name == "perf::PAGE-FAULTS") |
		.base == $b and .new == $n and ((.change - ($n - $b)) | fabs) <= 1e-6 * ($n - $b) and
		((.change_pct - 100 * ($n - $b) / $b) | fabs) <= 1e-6 * .change_pct and
		.change >= 3960 and .change <= 5000 and .beyond_spread == true and
		.base_runs == 3 and .new_runs == 3 and .kind == "event" and .unit == "count"' d.json
	jq -e '.format == "papi-stat-diff" and .base == "base.json" and .new == "new.json"' d.json
	# metrics come too
	jq -e '[.items[] | select(.kind == "metric")] | length > 0' d.json
	# the text: the change, its percent and the verdict; the task clock in ms
	run -0 --separate-stderr papi stat --diff base.json new.json
	grep -Eq '^ +[0-9.]+ +[0-9.]+ +\+[0-9.]+ +\+[0-9.]+%  perf::PAGE-FAULTS \(count\)  # beyond the runs. spread$' <<<"$stderr"
	grep -Eq ' ms +\+[0-9.]+ ms .* perf::TASK-CLOCK  #' <<<"$stderr"
	# CSV: the header and the row, with the same numbers
	run -0 --separate-stderr papi stat --diff -x, base.json new.json
	[ "$(head -1 <<<"$stderr")" = "kind,name,unit,base,new,change,change_pct,base_runs,new_runs,beyond_spread" ]
	grep -q '^event,perf::PAGE-FAULTS,count,.*,3,3,yes$' <<<"$stderr"
}

@test "--diff: a run against itself changes nothing; single runs say nothing of the spread" {
	run -0 papi stat -j -r 3 -o base.json -e perf::PAGE-FAULTS "$WORK" touch 1000
	run -0 papi stat --diff -j -o d.json base.json base.json
	jq -e 'all(.items[]; .change == 0 and .change_pct == 0 and .beyond_spread == false)' d.json
	run -0 papi stat -j -o one.json -e perf::PAGE-FAULTS "$WORK" touch 1000
	run -0 papi stat -j -o two.json -e perf::PAGE-FAULTS "$WORK" touch 2000
	run -0 papi stat --diff -j -o d.json one.json two.json
	jq -e '.items[] | select(.name == "perf::PAGE-FAULTS") | .beyond_spread == null and .change >= 990 and .change <= 1250' d.json
	run -0 --separate-stderr papi stat --diff one.json two.json
	! grep -q 'spread' <<<"$stderr"
}

@test "--diff: an event counted in one run only is said so" {
	run -0 papi stat -j -o one.json -e perf::PAGE-FAULTS "$WORK" touch 100
	run -0 papi stat -j -o two.json -e perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES "$WORK" touch 100
	run -0 --separate-stderr papi stat --diff one.json two.json
	grep -q 'perf::CONTEXT-SWITCHES (count)  # counted in the new run only$' <<<"$stderr"
	run -0 papi stat --diff -j -o d.json one.json two.json
	jq -e '.items[] | select(.name == "perf::CONTEXT-SWITCHES") | .base == null and .change == null and .base_runs == 0' d.json
}

@test "--diff: usage errors exit 2, files that are not saved runs exit 1 and say why" {
	run -0 papi stat -j -o one.json -e perf::PAGE-FAULTS true
	run -2 papi stat --diff one.json
	[[ "$output" == *"--diff compares two saved runs: BASE.json NEW.json"* ]]
	run -2 papi stat --diff -e perf::TASK-CLOCK one.json one.json
	[[ "$output" == *"--diff reads files: it takes only -j, -x and -o"* ]]
	run -2 papi stat --diff -j -x, one.json one.json
	run -1 --separate-stderr papi stat --diff one.json missing.json
	[ "$stderr" = "papi stat: missing.json: No such file or directory" ]
	mkdir saved.d
	run -1 --separate-stderr papi stat --diff saved.d one.json
	[ "$stderr" = "papi stat: --diff: saved.d: a directory, not a report (papi stat --json writes one)" ]
	# a value that is not a number is an error naming the file and the item,
	# on either side, for an event or a metric; null is an item not counted
	jq '.events[0].value = "abc"' one.json > abc.json
	run -1 --separate-stderr papi stat --diff one.json abc.json
	[ "$stderr" = 'papi stat: --diff: abc.json: perf::PAGE-FAULTS: "value" is not a number' ]
	[ -z "$output" ]
	jq '.events[0].mean = "abc"' one.json > abc.json
	run -1 --separate-stderr papi stat --diff -j abc.json one.json
	[ "$stderr" = 'papi stat: --diff: abc.json: perf::PAGE-FAULTS: "mean" is not a number' ]
	[ -z "$output" ]
	local met
	met=$(jq -r '.metrics[0].name // empty' one.json)
	if [ -n "$met" ]; then
		jq '.metrics[0].value = "abc"' one.json > abc.json
		run -1 --separate-stderr papi stat --diff one.json abc.json
		[ "$stderr" = "papi stat: --diff: abc.json: $met: \"value\" is not a number" ]
	fi
	echo '{"format": "other"}' > other.json
	run -1 papi stat --diff one.json other.json
	[[ "$output" == *"--diff: other.json is not a report of papi stat (written with --json)"* ]]
	printf '{"format": ' > cut.json
	run -1 papi stat --diff cut.json one.json
	[[ "$output" == *"--diff: cut.json:1:"* ]]
}

# saved NAME MEAN STDDEV RUNS: a report of one event with those statistics.
saved() {
	jq -n --argjson m "$2" --argjson sd "$3" --argjson n "$4" '{format: "papi-stat", version: 1,
		events: [{name: "ev", unit: "count", available: true, value: $m, mean: $m, stddev: $sd,
			  values: [range(0; $n) | $m]}], metrics: []}' > "$1"
}

@test "--diff: beyond the spread is more than twice the standard error of the difference" {
	# 4 runs each with stddev 10: the standard error of the difference is
	# sqrt(100/4 + 100/4) = 7.07, twice it 14.14
	saved base.json 100 10 4
	saved near.json 114 10 4
	saved far.json 114.5 10 4
	run -0 papi stat --diff -j -o d.json base.json near.json
	jq -e '.items[0] | .change == 14 and .beyond_spread == false' d.json
	run -0 papi stat --diff -j -o d.json base.json far.json
	jq -e '.items[0] | .change == 14.5 and .beyond_spread == true and .change_pct == 14.5' d.json
	run -0 --separate-stderr papi stat --diff base.json near.json
	grep -q 'ev (count)  # within the runs. spread$' <<<"$stderr"
}

@test "--diff: --help and papi-stat(1) give its usage line" {
	run -0 papi stat --help
	grep -qx '       papi stat --diff \[-j | -x SEP\] \[-o FILE\] BASE.json NEW.json' <<<"$output"
	# the usage lines come together, before the description
	[ "$(sed -n 2,6p <<<"$output" | grep -c '^       papi stat ')" -eq 5 ]
	if command -v man >/dev/null; then
		MANWIDTH=200 man -l "$PAPI_TOP/man/papi-stat.1" 2>/dev/null | grep -q 'papi stat --diff \[-j | -x SEP\] \[-o FILE\] BASE.json NEW.json'
	fi
}

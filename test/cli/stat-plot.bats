#!/usr/bin/env bats
# stat-plot.bats: papi stat --plot FILE.svg and papi hl-report --plot: SVG that xmllint parses and rsvg-convert renders to a PNG that is not blank.
load helper

@test "--plot: the intervals of a real -I run as a chart, a panel per event and metric" {
	run --separate-stderr papi stat -I 40 --plot run.svg -g PAGE_FAULTS \
		sh -c 'for i in 1 2 3 4; do seq 1 30000 | sort -n >/dev/null; sleep 0.03; done'
	[ "$status" -eq 0 ]
	check_svg run.svg
	# one panel per event and per metric of the intervals, with units
	for t in 'perf::PAGE-FAULTS, per second of each interval' 'perf::TASK-CLOCK, busy in each interval' page_fault_rate cpu_utilization; do
		grep -qF ">$t</text>" run.svg || { echo "no panel $t"; false; }
	done
	grep -qF '>time since counting began (s)</text>' run.svg
	grep -qF '>CPUs</text>' run.svg
	grep -qF '>1/s</text>' run.svg
	# nine lines (four events, five metrics), each event with a point per interval
	[ "$(grep -c '<path' run.svg)" -eq 9 ]
	n=$(grep -Ec ' perf::PAGE-FAULTS(:u)?$' <<<"$stderr")
	[ "$n" -ge 2 ]
	[ "$(grep -o '<circle' run.svg | wc -l)" -ge $((n * 4)) ]
}

@test "--plot with JSON and with rows: a line per row" {
	[ "$(id -u)" -eq 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] ||
		skip "counting whole CPUs needs root or perf_event_paranoid 0"
	run --separate-stderr papi stat -a -A -j -I 50 --interval-count 3 --plot cpus.svg -e perf::CPU-CLOCK,perf::CS
	[ "$status" -eq 0 ]
	jq -e '.intervals | length == 3' <<<"$stderr"
	check_svg cpus.svg
	grep -qF '>CPU0</text>' cpus.svg
}

@test "--plot: usage and write errors" {
	run papi stat --plot x.svg true
	[ "$status" -eq 2 ]
	[[ "$output" == *"--plot draws the intervals of -I, or an MPI job's ranks with --per-rank or --merge"* ]]
	# charts are SVG: a name asking for another format is refused, not
	# written as SVG under that name
	run papi stat -I 50 --plot chart.PNG -e perf::TASK-CLOCK true
	[ "$status" -eq 2 ]
	[[ "$output" == *"--plot writes SVG, not png: name the file .svg"* ]]
	[ ! -e chart.PNG ]
	run papi stat --merge --plot ranks.pdf .
	[ "$status" -eq 2 ]
	[[ "$output" == *"--plot writes SVG, not pdf"* ]]
	run --separate-stderr papi stat -I 50 --plot /nonexistent/x.svg -e perf::TASK-CLOCK sleep 0.1
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"papi stat: --plot: cannot write '/nonexistent/x.svg': No such file or directory"* ]]
	# the report itself is still printed
	[[ "$stderr" == *"perf::TASK-CLOCK"* ]]
	[ -w /dev/full ] || skip "no /dev/full"
	run --separate-stderr papi stat -I 50 --plot /dev/full -e perf::TASK-CLOCK sleep 0.1
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"papi stat: --plot: write error on /dev/full: No space left on device"* ]]
}

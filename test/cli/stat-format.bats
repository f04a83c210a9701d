#!/usr/bin/env bats
# stat-format.bats: papi stat's numbers: the precision CSV and JSON print them at, and statistics over runs that are consistent and labelled.

load helper

setup() {
	papi_isolate
	THREADS=${PAPI_BUILD:-$PAPI_TOP/build}/test/cli/stat_threads
	[ -x "$THREADS" ] || skip "test helper not built ($THREADS)"
	EVS=perf::TASK-CLOCK,perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES
}

# digits_ok FILE json|csv: no number in FILE carries more than 9
# significant digits unless it is an integer.
digits_ok() {
	python3 - "$@" <<'EOF'
import csv, json, re, sys
path, kind = sys.argv[1], sys.argv[2]
nums = []
if kind == 'json':
    def walk(v):
        if isinstance(v, dict):
            for x in v.values(): walk(x)
        elif isinstance(v, list):
            for x in v: walk(x)
        elif isinstance(v, float):
            nums.append(repr(v))
    walk(json.load(open(path)))
    # and as written: the text itself has no long fractions either
    text = open(path).read()
    nums += re.findall(r'(?<![\w."])-?\d+\.\d+(?:[eE][-+]?\d+)?', text)
else:
    for row in csv.reader(open(path, newline='')):
        for f in row:
            if re.fullmatch(r'-?\d+\.\d+(?:[eE][-+]?\d+)?', f):
                nums.append(f)
assert nums, 'no fractional numbers to check'
def sig(s):
    m = s.lstrip('-').split('e')[0].split('E')[0].replace('.', '').lstrip('0')
    return len(m.rstrip('0')) if '.' in s else len(m)
bad = [n for n in nums if sig(n) > 9]
assert not bad, bad
EOF
}

@test "stat --json, -x: numbers have at most 9 significant digits, no float noise" {
	run -0 papi stat -r 3 --json -o r.json -e "$EVS" "$THREADS" 1 20
	digits_ok r.json json
	run -0 papi stat -r 3 -x, -o r.csv -e "$EVS" "$THREADS" 1 20
	digits_ok r.csv csv
	run -0 papi stat -I 30 --json -o i.json -e "$EVS" "$THREADS" 1 100
	digits_ok i.json json
	run -0 papi stat -I 30 -x, -o i.csv -e "$EVS" "$THREADS" 1 100
	digits_ok i.csv csv
	# and the documented rule is there
	grep -q '9 significant digits' "$PAPI_TOP/man/papi-stat.1"
}

@test "stat -r: a time in nanoseconds and its statistics are whole numbers in CSV and JSON" {
	run -0 --separate-stderr papi stat -r 3 -x, -e perf::TASK-CLOCK "$THREADS" 1 5
	row=$(grep '^,event,perf::TASK-CLOCK,' <<< "$stderr")
	echo "$row"
	# value, runs, stddev, min, median, max: integers
	IFS=, read -r _ _ _ value unit runs sd mn md mx _ <<< "$row"
	[ "$unit" = ns ] && [ "$runs" = 3 ]
	for v in "$value" "$sd" "$mn" "$md" "$mx"; do [[ "$v" =~ ^[0-9]+$ ]]; done
	run -0 papi stat -r 3 --json -o r.json -e perf::TASK-CLOCK "$THREADS" 1 5
	jq -e '.events[0] | [.value, .mean, .stddev, .min, .median, .max] | all(. == floor)' r.json
}

@test "stat -r: an event's value and its enabled and running times are all per run" {
	run -0 papi stat -r 3 --json -o r.json -e perf::TASK-CLOCK "$THREADS" 1 20
	# the task clock counts while its task runs: per run, its value and
	# running time are the same time (a sum over runs would be 3 times it)
	jq -e '.events[0] | .value == .mean and
		(.time_running / .value) > 0.8 and (.time_running / .value) < 1.25 and
		.time_enabled >= .time_running' r.json
}

@test "stat -r: metric statistics are those of each run's metric, in CSV and JSON" {
	run -0 papi stat -r 4 --json -o r.json -e "$EVS" "$THREADS" 1 20
	python3 - r.json <<'EOF'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
clk = next(e for e in d['events'] if e['name'] == 'perf::TASK-CLOCK')['values']
el = d['elapsed']['values']
per = [c / 1e9 / t for c, t in zip(clk, el)]
m = next(m for m in d['metrics'] if m['name'] == 'cpu_utilization')
close = lambda a, b: abs(a - b) <= 1e-7 * max(abs(a), abs(b), 1e-9)
assert m['runs'] == 4, m
for key, want in (('value', statistics.mean(per)), ('mean', statistics.mean(per)),
                  ('stddev', statistics.stdev(per)), ('min', min(per)),
                  ('median', statistics.median(per)), ('max', max(per))):
    assert close(m[key], want), (key, m[key], want, per)
EOF
	run -0 papi stat -r 4 -x, -o r.csv -e "$EVS" "$THREADS" 1 20
	python3 - r.csv <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
h = rows[0]
for r in rows[1:]:
    if r[1] != 'metric':
        continue
    v = dict(zip(h, r))
    assert v['runs'] == '4', v
    lo, med, hi, mean = (float(v[k]) for k in ('min', 'median', 'max', 'value'))
    assert lo <= med <= hi and lo <= mean <= hi, v
    assert v['stddev'] != '' and float(v['stddev']) >= 0, v
    # a spread of zero only where every run's value was the same
    assert (float(v['stddev']) == 0) == (lo == hi), v
EOF
}

@test "stat: one run has no standard deviation (null in JSON, empty in CSV)" {
	run -0 papi stat --json -o r.json -e perf::TASK-CLOCK true
	jq -e '.events[0].stddev == null and .elapsed.stddev == null' r.json
	jq -e '[.metrics[] | .stddev == null and .runs == 1] | all' r.json
	run -0 papi stat -x, -o r.csv -e perf::TASK-CLOCK true
	python3 -c 'import csv
rows = list(csv.reader(open("r.csv")))
h = rows[0]
assert all(dict(zip(h, r))["stddev"] == "" for r in rows[1:]), rows'
}

@test "stat -r, text: every statistic in the row's unit and precision, stddev as ± % of the mean" {
	run -0 --separate-stderr papi stat -r 3 -e "$EVS" "$THREADS" 1 20
	python3 - <<EOF
import re
text = '''$stderr'''
lines = text.splitlines()
head = next(l for l in lines if 'median' in l)
assert re.search(r'mean\s+± stddev\s+min\s+median\s+max\s+event', head), head
def row(name):
    # an ordinary user counts user space: perf's :u after the name
    return next(l for l in lines if re.search(r'\s%s(:u)?(\s|$)' % re.escape(name), l))
clk = row('perf::TASK-CLOCK')
vals = re.findall(r'(\d+\.\d+) ms', clk)
assert len(vals) == 4 and all(len(v.split('.')[1]) == 3 for v in vals), clk
assert re.search(r'± +\d+\.\d\d%', clk) and re.search(r'CPUs utilized \(± \d+\.\d\d%\)', clk), clk
pf = row('perf::PAGE-FAULTS')
nums = re.findall(r'(?<![\d.])(\d+(?:\.\d+)?)(?![\d.%])', pf.split('perf::PAGE-FAULTS')[0])
# a count's min and max are counts: whole numbers; the mean has two
# decimals unless whole, the median one unless whole (between two counts)
assert len(nums) == 4 and '.' not in nums[1] and '.' not in nums[3], pf
assert '.' not in nums[0] or len(nums[0].split('.')[1]) == 2, pf
assert '.' not in nums[2] or nums[2].endswith('.5'), pf
for t in ('elapsed', 'user', 'sys'):
    l = next(l for l in lines if l.endswith(' ' + t))
    vals = re.findall(r'(\d+\.\d+) s\b', l)
    assert len(vals) == 4 and all(len(v.split('.')[1]) == 6 for v in vals), l
    assert re.search(r'± +\d+\.\d\d%', l), l
EOF
}

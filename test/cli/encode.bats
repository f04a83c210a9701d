#!/usr/bin/env bats
# encode.bats: papi encode turns decode's CSV into a definition file, checks files, and round-trips.
bats_require_minimum_version 1.5.0

setup() {
	papi=${PAPI_BIN:-$BATS_TEST_DIRNAME/../../build/papi}
	top=${PAPI_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	tmp=$(mktemp -d)
	unset LIBPFM_FORCE_PMU PAPI_CSV_EVENT_FILE PAPI_USER_EVENTS_FILE
}

teardown() {
	rm -rf "$tmp"
}

@test "encode: decode -a | encode - round-trips under LIBPFM_FORCE_PMU=skx" {
	export LIBPFM_FORCE_PMU=skx
	"$papi" decode -a > "$tmp/a.csv"
	[ "$(wc -l < "$tmp/a.csv")" -gt 30 ]
	"$papi" decode -a | "$papi" encode - > "$tmp/skx.def"
	grep -q '^CPU,skx$' "$tmp/skx.def"
	grep -q '^PRESET,PAPI_TOT_CYC,NOT_DERIVED,skx::' "$tmp/skx.def"
	PAPI_CSV_EVENT_FILE=$tmp/skx.def "$papi" decode -a > "$tmp/b.csv"
	cmp "$tmp/a.csv" "$tmp/b.csv"
}

@test "encode: --check accepts the built-in skx table" {
	LIBPFM_FORCE_PMU=skx run "$papi" encode --check "$top/events/intel_skx.csv"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no problems"* ]]
}

@test "encode: --check reports every problem with its line" {
	cat > "$tmp/bad.def" <<'D'
# a comment
EVENT,OK1,NOT_DERIVED,perf::TASK-CLOCK
EVENT,B1,DERIVED_MUL,perf::TASK-CLOCK
EVENT,B2,DERIVED_INFIX,N0-(N1,perf::TASK-CLOCK,perf::CPU-CLOCK

EVENT,B3,NOT_DERIVED,perf::NO-SUCH
EVENT,B4,NOT_DERIVED,perf::TASK-CLOCK,NOTE,"unclosed
EVENT,OK2,DERIVED_ADD,OK1,perf::CPU-CLOCK
D
	run "$papi" encode --check "$tmp/bad.def"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad.def:3: unknown derived type 'DERIVED_MUL'"* ]]
	[[ "$output" == *"bad.def:4: B2: ')' expected"* ]]
	[[ "$output" == *"bad.def:6: B3: no event perf::NO-SUCH"* ]]
	[[ "$output" == *"bad.def:7: malformed CSV"* ]]
	[ "$(echo "$output" | grep -c 'bad.def:')" -eq 4 ]
	run "$papi" encode "$tmp/bad.def"
	[ "$status" -eq 1 ]
	[[ "$output" == *"EVENT,OK1,NOT_DERIVED,perf::TASK-CLOCK"* ]]
	[[ "$output" == *"EVENT,OK2,DERIVED_ADD,OK1,perf::CPU-CLOCK"* ]]
}

@test "encode: the written file loads as user events and counts" {
	printf 'name,derived,postfix,short_descr,long_descr,note,[native,...]\n\nMY_SW,DERIVED_ADD,,"s","l, long",,perf::MINOR-FAULTS,perf::MAJOR-FAULTS\n' > "$tmp/u.csv"
	"$papi" encode "$tmp/u.csv" > "$tmp/u.def"
	PAPI_USER_EVENTS_FILE=$tmp/u.def run "$papi" avail -e MY_SW
	[ "$status" -eq 0 ]
	[[ "$output" == *"|l, long|"* ]]
	[[ "$output" == *"Available here:               yes"* ]]
	if "$papi" help command-line >/dev/null 2>&1; then
		PAPI_USER_EVENTS_FILE=$tmp/u.def run "$papi" command-line MY_SW
		[ "$status" -eq 0 ]
	fi
}

@test "encode: usage and file errors" {
	run "$papi" encode
	[ "$status" -eq 2 ]
	run "$papi" encode a b
	[ "$status" -eq 2 ]
	run "$papi" encode "$tmp/missing.csv"
	[ "$status" -eq 1 ]
	[[ "$output" == *"papi encode: $tmp/missing.csv: No such file or directory"* ]]
}

# A CPU PMU libpfm4 knows that is not this machine's (skx, else zen3).
other_pmu() {
	local p
	for p in skx amd64_fam19h_zen3; do
		"$papi" component | grep -q "^    $p " || { echo "$p"; return; }
	done
	return 1
}

# A second CPU PMU libpfm4 knows that is not this machine's, other than $1.
second_pmu() {
	local p
	for p in icx amd64_fam17h_zen2 skx; do
		[ "$p" = "$1" ] && continue
		"$papi" component | grep -q "^    $p " || { echo "$p"; return; }
	done
	return 1
}

@test "encode: a table of another CPU's PMU is checked against that PMU's tables" {
	local pmu f
	pmu=$(other_pmu) || skip "this machine has both skx and zen3 PMUs"
	case $pmu in skx) f=intel_skx ;; *) f=amd_zen3 ;; esac
	run --separate-stderr "$papi" encode --check "$top/events/$f.csv"
	[ "$status" -eq 0 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"$f.csv: "*" events, no problems (checked against libpfm4's tables for $pmu, which is not this machine's PMU)" ]]
	# a misspelt event is still found, with its line
	sed 's/^\(PRESET,PAPI_TOT_INS,NOT_DERIVED,\)/\1NO_SUCH_/' "$top/events/$f.csv" > "$tmp/bad.csv"
	run --separate-stderr "$papi" encode --check "$tmp/bad.csv"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "papi encode: $tmp/bad.csv:"*": PAPI_TOT_INS: no event NO_SUCH_"*" on $pmu" ]]
}

@test "encode: --check passes every table of events/ whose CPUs this libpfm4 knows, unforced" {
	local f checked=0
	for f in "$top"/events/*.csv; do
		run --separate-stderr "$papi" encode --check "$f"
		# another architecture's tables (arm_* on x86): named as such, once a section
		if [[ "$stderr" == *"libpfm4 knows no PMU of that name"* ]]; then
			[ "$status" -eq 1 ]
			[ "$(grep -vc 'libpfm4 knows no PMU of that name' <<<"$stderr")" -eq 0 ] || { echo "$f: $stderr"; return 1; }
			continue
		fi
		[ "$status" -eq 0 ] || { echo "$f: $stderr"; return 1; }
		[[ "$stderr" == *" events, no problems"* ]]
		checked=$((checked + 1))
	done
	[ "$checked" -ge 20 ]
}

@test "encode: the man page's LIBPFM_FORCE_PMU=skx papi decode -a | papi encode - works" {
	"$papi" component | grep -q '^    skx ' && skip "this machine's PMU is skx"
	LIBPFM_FORCE_PMU=skx "$papi" decode -a > "$tmp/a.csv"
	run bash -c 'LIBPFM_FORCE_PMU=skx "$1" decode -a | "$1" encode - > "$2"' sh "$papi" "$tmp/skx.def"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	grep -qx 'CPU,skx' "$tmp/skx.def"
	[ "$(grep -c '^CPU,' "$tmp/skx.def")" -eq 1 ]
	PAPI_CSV_EVENT_FILE=$tmp/skx.def LIBPFM_FORCE_PMU=skx "$papi" decode -a > "$tmp/b.csv"
	cmp "$tmp/a.csv" "$tmp/b.csv"
}

@test "encode: a CPU line libpfm4 knows no PMU of is named as such, once a section" {
	printf 'CPU,nosuchpmu\nPRESET,PAPI_TOT_CYC,NOT_DERIVED,perf::TASK-CLOCK\nPRESET,PAPI_TOT_INS,NOT_DERIVED,perf::CS\n' > "$tmp/u.def"
	run --separate-stderr "$papi" encode --check "$tmp/u.def"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "papi encode: $tmp/u.def:2: PAPI_TOT_CYC: CPU nosuchpmu: libpfm4 knows no PMU of that name"*"so no event of this section can be checked" ]]
}

@test "encode: events of two other CPUs' PMUs are each checked against their PMU's tables" {
	local pmu pmu2
	pmu=$(other_pmu) || skip "this machine has both skx and zen3 PMUs"
	pmu2=$(second_pmu "$pmu") || skip "no second PMU that is not this machine's"
	LIBPFM_FORCE_PMU=$pmu "$papi" decode -a > "$tmp/two.csv"
	LIBPFM_FORCE_PMU=$pmu2 "$papi" decode -a | sed -n '3,4p' >> "$tmp/two.csv"
	local n
	n=$(grep -c '::' "$tmp/two.csv")
	run --separate-stderr "$papi" encode --check "$tmp/two.csv"
	[ "$status" -eq 0 ]
	[ "$stderr" = "papi encode: $tmp/two.csv: $n events, no problems (checked against libpfm4's tables for $pmu, $pmu2, which are not this machine's PMUs)" ]
	# a misspelt event of the second PMU: found, with its line and that PMU
	sed '$s/'"$pmu2"'::/'"$pmu2"'::NOPE_/' "$tmp/two.csv" > "$tmp/bad.csv"
	run --separate-stderr "$papi" encode --check "$tmp/bad.csv"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "papi encode: $tmp/bad.csv:$(wc -l < "$tmp/bad.csv"): "*": no event $pmu2::NOPE_"*" on $pmu2" ]]
}

@test "encode: an event of another CPU's PMU and this machine's: says so and how to force it" {
	local pmu
	pmu=$(other_pmu) || skip "this machine has both skx and zen3 PMUs"
	local ev
	ev=$(LIBPFM_FORCE_PMU=$pmu "$papi" decode -a | sed -n '3p' | awk -F, '{ print $NF }')
	printf 'EVENT,MIX,DERIVED_ADD,%s,perf::TASK-CLOCK\n' "$ev" > "$tmp/mix.def"
	run "$papi" encode --check "$tmp/mix.def"
	[ "$status" -eq 1 ]
	[[ "$output" == *"mix.def:1: MIX: no event $ev here: PMU $pmu is not this machine's"* ]]
	[[ "$output" != *" on this machine"* ]]
	# once, at the end: the variable that makes it work, as a command line
	[ "$(grep -c LIBPFM_FORCE_PMU <<<"$output")" -eq 1 ]
	[[ "${lines[-1]}" == *"PMU $pmu is not this machine's"*"LIBPFM_FORCE_PMU=$pmu papi encode --check $tmp/mix.def" ]]
}

@test "encode: a write error on stdout says why, as the other commands do" {
	[ -w /dev/full ] || skip "no /dev/full"
	printf 'EVENT,OK1,NOT_DERIVED,perf::TASK-CLOCK\nEVENT,BAD,NOT_DERIVED,perf::NO-SUCH\n' > "$tmp/w.def"
	run bash -c '"$1" encode "$2" > /dev/full' sh "$papi" "$tmp/w.def"
	[ "$status" -eq 1 ]
	[[ "$output" == *"papi encode: write error: No space left on device"* ]]
}

@test "encode: control bytes from the input reach neither stdout nor stderr raw" {
	printf 'EVENT,A\033[31mB,NOT_DERIVED,perf::TASK\a-CLOCK\nEVENT,N,NOT_DERIVED,perf::TASK-CLOCK,NOTE,"x\233y"\nEVENT,OK,NOT_DERIVED,perf::TASK-CLOCK,NOTE,"caf\303\251"\n' > "$tmp/c.def"
	"$papi" encode "$tmp/c.def" > "$tmp/out" 2> "$tmp/err" && false
	# neither ESC, BEL nor the 8-bit CSI byte 0x9b
	! LC_ALL=C grep -q $'[\033\a\233]' "$tmp/out" "$tmp/err"
	grep -q 'c.def:1: A\\x1b\[31mB: byte 0x1b in the name' "$tmp/err"
	grep -q 'c.def:2: N: byte 0x9b in the note' "$tmp/err"
	grep -q "^EVENT,OK,.*caf"$'\303\251' "$tmp/out"
}

@test "encode: --check refuses a preset name PAPI does not define, unless --new declares it" {
	cat > "$tmp/new.def" <<'D'
PRESET,PAPI_TOT_CYCS,NOT_DERIVED,perf::TASK-CLOCK
PRESET,PAPI_TOT_CYC,NOT_DERIVED,perf::TASK-CLOCK
EVENT,MY_CLOCK,NOT_DERIVED,perf::TASK-CLOCK
D
	run --separate-stderr "$papi" encode --check "$tmp/new.def"
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "papi encode: $tmp/new.def:1: PAPI_TOT_CYCS: not a preset PAPI defines (did you mean PAPI_TOT_CYC?); a new preset must be declared with --new PAPI_TOT_CYCS"* ]]
	run --separate-stderr "$papi" encode --check --new PAPI_TOT_CYCS "$tmp/new.def"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"3 events, no problems"* ]]
	# without --check the row is left out and the others are written
	run --separate-stderr "$papi" encode "$tmp/new.def"
	[ "$status" -eq 1 ]
	[[ "$output" != *PAPI_TOT_CYCS* ]]
	[[ "$output" == *"PRESET,PAPI_TOT_CYC,NOT_DERIVED,perf::TASK-CLOCK"* ]]
	# --new takes only a new PAPI_ name
	run --separate-stderr "$papi" encode --new PAPI_TOT_CYC --check "$tmp/new.def"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--new PAPI_TOT_CYC: PAPI defines that preset already"* ]]
	run --separate-stderr "$papi" encode --new MY_CLOCK --check "$tmp/new.def"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--new MY_CLOCK: a preset's name starts with PAPI_"* ]]
}

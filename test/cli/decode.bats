#!/usr/bin/env bats
# decode.bats: papi decode writes the preset table as CSV.

setup() {
	papi=${PAPI_BIN:-$BATS_TEST_DIRNAME/../../build/papi}
	tmp=$(mktemp -d)
	unset LIBPFM_FORCE_PMU PAPI_CSV_EVENT_FILE PAPI_USER_EVENTS_FILE
}

teardown() {
	rm -rf "$tmp"
}

@test "decode: title line, blank line, one row per defined preset" {
	LIBPFM_FORCE_PMU=skx run "$papi" decode -a
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "name,derived,postfix,short_descr,long_descr,note,[native,...]" ]
	LIBPFM_FORCE_PMU=skx "$papi" decode -a > "$tmp/a.csv"
	[ -z "$(sed -n 2p "$tmp/a.csv")" ]
	names=$(LIBPFM_FORCE_PMU=skx "$papi" avail -a --names | sort)
	[ "$(tail -n +3 "$tmp/a.csv" | cut -d, -f1 | sort)" = "$names" ]
	grep -q '^PAPI_TOT_CYC,NOT_DERIVED,,"Total cycles",".*",,skx::' "$tmp/a.csv"
}

@test "decode: quoting of commas and quotes in descriptions" {
	cat > "$tmp/t.def" <<'D'
PRESET,PAPI_TOT_CYC,NOT_DERIVED,perf::TASK-CLOCK,LDESC,"a, ""quoted"" text",SDESC,"short",NOTE,"n, n"
PRESET,PAPI_TOT_INS,DERIVED_POSTFIX,N0|N1|-|,perf::TASK-CLOCK,perf::CPU-CLOCK
D
	PAPI_CSV_EVENT_FILE=$tmp/t.def run "$papi" decode
	[ "$status" -eq 0 ]
	echo "$output" | grep -qxF 'PAPI_TOT_CYC,NOT_DERIVED,,"short","a, ""quoted"" text","n, n",perf::TASK-CLOCK'
	echo "$output" | grep -qx 'PAPI_TOT_INS,DERIVED_POSTFIX,N0|N1|-|,.*,,perf::TASK-CLOCK,perf::CPU-CLOCK'
}

@test "decode: -a leaves out what cannot be counted; usage errors exit 2" {
	[ -e /sys/bus/event_source/devices/cpu ] && skip "this machine has a hardware PMU"
	run "$papi" decode -a
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	run "$papi" decode -x
	[ "$status" -eq 2 ]
}

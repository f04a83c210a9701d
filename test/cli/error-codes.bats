#!/usr/bin/env bats
# error-codes.bats: papi error-codes and its classic name papi_error_codes.
load helper

# name value pairs from the papi.h papi is built with
header_codes() {
	sed -n 's/^#define[[:space:]]*\(PAPI_E[A-Z_]*\|PAPI_OK\|PAPI_PARTIAL\)[[:space:]]*\(0\|-[0-9][0-9]*\)[[:space:]].*/\1 \2/p' \
		"$PAPI_TOP/libpapi/papi.h" | grep -v '^PAPI_ESBSTR '
}

@test "papi error-codes lists every code of papi.h with its name and a message" {
	run --separate-stderr -0 papi error-codes
	local name val n=0
	while read -r name val; do
		[[ "$output" =~ (^|$'\n')\ *$val\ +$name\ +[A-Za-z] ]] || { echo "missing $name $val"; false; }
		n=$((n + 1))
	done < <(header_codes)
	[ "$n" -ge 29 ]
	[ "${#lines[@]}" -eq $((n + 1)) ]
}

@test "papi error-codes --json: code, name, message per row" {
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi error-codes --json
	[ "$(jq -r '.[] | select(.name == "PAPI_ENOEVNT") | .code' <<<"$output")" = -7 ]
	[ "$(jq -r '.[] | select(.code == 0) | .name' <<<"$output")" = PAPI_OK ]
	[ "$(jq '[.[] | select(.message == "")] | length' <<<"$output")" = 0 ]
}

@test "papi_error_codes prints the classic one-line-per-code form" {
	run -0 run_as papi_error_codes
	[[ "${lines[0]}" =~ ^Error\ code\ +0:\  ]]
	[[ "$output" == *"Error code  -7: "* ]]
}

@test "papi error-codes: stray argument is a usage error; /dev/full a write error" {
	run -2 papi error-codes extra
	run --separate-stderr -1 bash -c "'$PAPI_BIN' error-codes > /dev/full"
	[[ "$stderr" == *"write error"* ]]
}

#!/usr/bin/env bats
# version.bats: papi version and its classic name papi_version.
load helper

api_from_header() {
	# PAPI_VERSION_NUMBER(maj,min,rev,inc) in the header papi is built with
	sed -n 's/^#define[[:space:]]*PAPI_VERSION[[:space:]]*PAPI_VERSION_NUMBER(\([0-9]*\),[[:space:]]*\([0-9]*\),[[:space:]]*\([0-9]*\),[[:space:]]*\([0-9]*\)).*/\1.\2.\3.\4/p' \
		"$PAPI_TOP/libpapi/papi.h"
}

tool_version() {
	sed -n 's/^VERSION[[:space:]]*:*=[[:space:]]*//p' "$PAPI_TOP/Makefile"
}

@test "papi version: papi's version from the Makefile and the API level from papi.h" {
	local api ver
	api=$(api_from_header) ver=$(tool_version)
	[ -n "$api" ] && [ -n "$ver" ]
	run --separate-stderr -0 papi version
	[ "${lines[0]}" = "papi $ver" ]
	[ "${lines[1]}" = "PAPI $api API" ]
	[ "${#lines[@]}" -eq 2 ]
	[ -z "$stderr" ]
}

@test "papi version --json is one valid object with numbers as numbers" {
	command -v jq >/dev/null || skip "jq is not installed"
	local api
	api=$(api_from_header)
	run -0 papi version --json
	echo "$output" | jq -e . >/dev/null
	[ "$(echo "$output" | jq -r .api)" = "$api" ]
	[ "$(echo "$output" | jq -r .papi)" = "$(tool_version)" ]
	[ "$(echo "$output" | jq -r '.api_number | type')" = number ]
	# api_number is PAPI_VERSION: major in the top byte
	[ "$(echo "$output" | jq -r '.api_number / 16777216 | floor')" = "${api%%.*}" ]
	run -0 papi version -j
	echo "$output" | jq -e . >/dev/null
}

@test "papi version --json is the same under a comma-decimal locale" {
	run -0 papi version --json
	local c=$output
	LC_ALL=de_DE.UTF-8 LC_NUMERIC=de_DE.UTF-8 run -0 papi version --json
	[ "$output" = "$c" ]
}

@test "papi_version prints PAPI's single line, also with a path" {
	run -0 run_as papi_version
	[ "$output" = "PAPI Version: $(api_from_header)" ]
	local dir
	dir=$(classic_links papi_version)
	run -0 "$dir/../bin/papi_version"
	[ "$output" = "PAPI Version: $(api_from_header)" ]
}

@test "papi version rejects operands and unknown options with exit 2" {
	run --separate-stderr -2 papi version extra
	[ -z "$output" ]
	[ "${stderr_lines[0]}" = "papi version: unexpected argument 'extra'" ]
	[ "${stderr_lines[1]}" = "Try 'papi version --help'." ]
	run --separate-stderr -2 papi version --bogus
	[ "${stderr_lines[0]}" = "papi version: unknown option '--bogus'" ]
	[ "${stderr_lines[1]}" = "Try 'papi version --help'." ]
	run --separate-stderr -2 papi version -Z
	[ "${stderr_lines[0]}" = "papi version: unknown option '-Z'" ]
	run --separate-stderr -2 papi version --json=yes
	[ "${stderr_lines[0]}" = "papi version: option '--json' takes no value" ]
	run --separate-stderr -2 papi version -jZ
	[ "${stderr_lines[0]}" = "papi version: unknown option '-Z'" ]
}

@test "papi version --help goes to stdout with exit 0 and lists --json" {
	run --separate-stderr -0 papi version --help
	[ "${lines[0]}" = "Usage: papi version [OPTION]..." ]
	[[ "$output" == *"-j, --json"* ]]
	[[ "$output" == *"-h, --help"* ]]
	[ -z "$stderr" ]
	run -0 papi version -h
	[ "${lines[0]}" = "Usage: papi version [OPTION]..." ]
}

@test "papi version > /dev/full fails with a message, exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 bash -c '"$PAPI_BIN" version --json > /dev/full'
	[ "$output" = "papi version: write error: No space left on device" ]
	run -1 bash -c '"$PAPI_BIN" version --help > /dev/full'
	[ "$output" = "papi version: write error: No space left on device" ]
}

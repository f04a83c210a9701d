#!/usr/bin/env bats
# sizes.bats: no source file of the library or the papi binary (a .c or .h
# under libpapi/ or cmd/) is over 800 lines, the house limit: a longer one
# holds more than one concern and is split by concern. papi.h alone is
# exempt: the public header declares PAPI's whole API in one file, as
# PAPI's own does, so that programs include it alone.

LIMIT=800

setup() {
	TOP=${PAPI_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# oversize ROOT DIR...: print "PATH: N lines (over LIMIT)" for each .c or
# .h file under ROOT/DIR... longer than LIMIT lines, PATH relative to ROOT,
# but for libpapi/papi.h.
oversize() {
	local root=$1 f n
	shift
	(cd "$root" && find "$@" -type f \( -name '*.c' -o -name '*.h' \) | sort) |
	while read -r f; do
		[ "$f" != libpapi/papi.h ] || continue
		n=$(wc -l < "$root/$f")
		[ "$n" -le "$LIMIT" ] || echo "$f: $n lines (over $LIMIT)"
	done
}

@test "no .c or .h file under libpapi/ or cmd/ is over $LIMIT lines" {
	run oversize "$TOP" libpapi cmd
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# the walk reads the tree: at a lower limit it names its large files
	LIMIT=400 run oversize "$TOP" libpapi cmd
	[[ "$output" == *"libpapi/5-core/eventset.c: "*" lines (over 400)"* ]]
}

@test "a file one line over the limit is named with its length, one at it is not" {
	mkdir -p "$T/libpapi/4-components" "$T/cmd"
	seq "$((LIMIT + 1))" > "$T/libpapi/4-components/big.c"
	seq "$LIMIT" > "$T/libpapi/4-components/fits.c"
	seq "$((LIMIT + 30))" > "$T/cmd/big.h"
	seq "$((LIMIT + 30))" > "$T/cmd/notes.txt"
	seq "$((LIMIT + 30))" > "$T/libpapi/papi.h"
	run oversize "$T" libpapi cmd
	echo "$output"
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "cmd/big.h: $((LIMIT + 30)) lines (over $LIMIT)" ]
	[ "${lines[1]}" = "libpapi/4-components/big.c: $((LIMIT + 1)) lines (over $LIMIT)" ]
}

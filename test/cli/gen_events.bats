#!/usr/bin/env bats
# gen_events.bats: libpapi/gen_events.sh turns events/ files into C that gives back the exact text.

setup() {
	top=${PAPI_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	gen="$top/libpapi/gen_events.sh"
	tmp=$(mktemp -d)
	# A tiny program printing every embedded file and its CPU list.
	cat > "$tmp/dump.c" <<'C'
#include <stdio.h>
#include "3-naming/events_tbl.h"
int main(void)
{
	for (int i = 0; i < events_files_count; i++) {
		printf("== %s\n", events_files[i].path);
		fputs(events_files[i].text, stdout);
		printf("== cpus:");
		for (const char *const *c = events_files[i].cpus; *c; c++)
			printf(" %s", *c);
		printf("\n");
	}
	printf("count %d\n", events_files_count);
	return 0;
}
C
}

teardown() {
	rm -rf "$tmp"
}

# build FILES...: generate, compile warning-free, link with dump.c.
build() {
	sh "$gen" "$@" > "$tmp/tbl.c"
	${CC:-cc} -std=gnu11 -Wall -Wextra -Wshadow -Werror -I"$top/libpapi" \
		-o "$tmp/dump" "$tmp/dump.c" "$tmp/tbl.c"
}

@test "text with quotes, backslashes, tabs, ?? and non-ASCII bytes comes back byte for byte" {
	printf 'CPU,skx\nCPU , "clx"\n# a "q" \\ b\tc ??= \303\251 \001\nPRESET,PAPI_TOT_CYC,NOT_DERIVED,X\n' > "$tmp/a.csv"
	build "$tmp/a.csv"
	run "$tmp/dump"
	[ "$status" -eq 0 ]
	{ echo "== $tmp/a.csv"; cat "$tmp/a.csv"; echo "== cpus: skx clx"; echo "count 1"; } > "$tmp/want"
	printf '%s\n' "$output" > "$tmp/got"
	cmp "$tmp/want" "$tmp/got"
}

@test "an empty file and no file at all still compile" {
	: > "$tmp/empty.csv"
	build "$tmp/empty.csv"
	run "$tmp/dump"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "== cpus:" ]
	[ "${lines[2]}" = "count 1" ]
	build
	run "$tmp/dump"
	[ "$output" = "count 0" ]
}

@test "a CPU name declared twice is listed once, in order of appearance" {
	printf 'CPU,b\nCPU,a\nPRESET,PAPI_TOT_CYC,NOT_DERIVED,X\nCPU,b\nPRESET,PAPI_TOT_INS,NOT_DERIVED,Y\n' > "$tmp/d.csv"
	build "$tmp/d.csv"
	run "$tmp/dump"
	[[ "$output" == *"== cpus: b a"$'\n'* ]]
}

@test "every file in events/ is embedded with the CPU names it declares" {
	build "$top"/events/*.csv
	run "$tmp/dump"
	[ "$status" -eq 0 ]
	n=$(ls "$top"/events/*.csv | wc -l)
	[ "${lines[${#lines[@]}-1]}" = "count $n" ]
	[[ "$output" == *"== cpus: skx clx"* ]]
	[[ "$output" == *"== cpus: adl_glc adl_grt"* ]]
}

@test "an unreadable file fails the build with a message" {
	run sh "$gen" "$tmp/missing.csv"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot read $tmp/missing.csv"* ]]
}

@test "-n names the table and its count, for the metric group files" {
	printf 'GROUP,G,"d"\nEVENT,a,PAPI_TOT_INS\n' > "$tmp/g.groups"
	sh "$gen" -n groups_files "$tmp/g.groups" > "$tmp/tbl.c"
	grep -q '^const struct events_file groups_files\[\] = {' "$tmp/tbl.c"
	grep -q '^const int groups_files_count = 1;' "$tmp/tbl.c"
	sed 's/events_files/groups_files/g' "$tmp/dump.c" > "$tmp/dumpg.c"
	${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$top/libpapi" -o "$tmp/dumpg" "$tmp/dumpg.c" "$tmp/tbl.c"
	run "$tmp/dumpg"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = 'GROUP,G,"d"' ]
}

@test "-n without a C name is a usage error" {
	run sh "$gen" -n
	[ "$status" -eq 2 ]
	run sh "$gen" -n '1bad' "$tmp/x"
	[ "$status" -eq 2 ]
	[[ "$output" == *"-n needs a C name"* ]]
}

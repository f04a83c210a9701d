#!/usr/bin/env bats
# header.bats: papi.h and papiStdEventDefs.h match PAPI 7.0 at -DPAPI_ABI_LEVEL=70 (the installed reference), build at every level, and every declared function links.

setup() {
	TOP=${PAPI_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	BUILD=${PAPI_BUILD:-$TOP/build}
	CC=${CC:-cc}
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

need_ref() {
	[ -f /usr/include/papi.h ] || skip "PAPI 7 headers not installed (/usr/include/papi.h)"
}

# Prototypes of the reference header, one per line, comments removed.
ref_prototypes() {
	$CC -fpreprocessed -dD -E -P /usr/include/papi.h | grep -v "^#" | tr '\n' ' ' | tr ';' '\n' |
		sed 's/^[ \t]*//; s/[ \t][ \t]*/ /g' |
		grep -E '^(const )?[A-Za-z_ ]+[ *]+PAPI_[a-z_0-9]+ ?\(' | grep -v '^typedef' |
		sed 's/$/;/'
}

@test "header: every constant, macro and struct layout equals PAPI 7's" {
	need_ref
	run sh "$TOP/test/tools/header-values.sh" -l 70 "$TOP/libpapi"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"compared "* ]]
}

@test "header: the compile-time record of PAPI 7.0's ABI is what its installed papi.h gives" {
	need_ref
	# test/unit/t_papi70_abi.c includes the record: it builds only against a
	# header with PAPI 7.0's values and layouts
	run -0 sh "$TOP/test/tools/header-values.sh" -s "$TOP/libpapi"
	diff -u "$TOP/test/unit/papi70_abi.h" <(echo "$output")
	grep -q '^#define PAPI_ABI_ASSERTIONS [1-9]' "$TOP/test/unit/papi70_abi.h"
}

@test "header: the value check fails when a value or layout differs" {
	need_ref
	cp "$TOP"/libpapi/papi.h "$TOP"/libpapi/papiStdEventDefs.h "$T"/
	sed -i 's/^#define PAPI_ENOIMPL\([ \t]*\)-19/#define PAPI_ENOIMPL\1-90/' "$T/papi.h"
	sed -i 's/^\tint update_freq;/\tlong update_freq;/' "$T/papi.h"
	run sh "$TOP/test/tools/header-values.sh" -l 70 "$T"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"+PAPI_ENOIMPL -90"* ]]
	[[ "$output" == *"+offsetof(PAPI_event_info_t.count)"* ]]
	# and the static assertions fail to compile
	[[ "$output" == *"static assertion failed: \"PAPI_ENOIMPL\""* ]]
	[[ "$output" == *"static assertion failed: \"offsetof(PAPI_event_info_t.count)\""* ]]
}

@test "header: every PAPI 7 prototype is declared with the same type" {
	need_ref
	n=$(ref_prototypes | wc -l)
	[ "$n" -gt 80 ]
	{
		echo '#include "papi.h"'
		ref_prototypes
		echo 'void *addrs[] = {'
		ref_prototypes | sed -E 's/^.*[ *](PAPI_[a-z_0-9]+) ?\(.*/\t(void *)\1,/'
		echo '};'
	} > "$T/protos.c"
	run $CC -std=gnu11 -Wall -Wextra -Werror -DPAPI_ABI_LEVEL=70 -I "$TOP/libpapi" -c -o "$T/protos.o" "$T/protos.c"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "header: the PAPI 3.5 calls keep their 3.5 signatures" {
	cat > "$T/old.c" <<-'C'
	#include "papi.h"
	int PAPI_num_counters(void);
	int PAPI_start_counters(int *events, int array_len);
	int PAPI_read_counters(long_long *values, int array_len);
	int PAPI_accum_counters(long_long *values, int array_len);
	int PAPI_stop_counters(long_long *values, int array_len);
	int PAPI_flips(float *rtime, float *ptime, long_long *flpins, float *mflips);
	int PAPI_flops(float *rtime, float *ptime, long_long *flpops, float *mflops);
	int PAPI_ipc(float *rtime, float *ptime, long_long *ins, float *ipc);
	int PAPI_encode_events(char *event_file, int replace);
	int PAPI_set_event_info(PAPI_event_info_t *info, int *EventCode, int replace);
	const PAPI_substrate_info_t *PAPI_get_substrate_info(void);
	int fields(const PAPI_substrate_info_t *s)
	{
		return s->num_cntrs + s->num_native_events + s->multiplex_timer_us + s->opcode_match_width +
		       (int)s->hardware_intr + (int)s->grouped_cntrs + (int)sizeof s->name + (int)sizeof s->version;
	}
	u_long_long wide = 0;
	C
	run $CC -std=gnu11 -Wall -Wextra -Werror -I "$TOP/libpapi" -c -o "$T/old.o" "$T/old.c"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "header: PAPI_VERSION reads as PAPI 7.2's does, for the tools that take it apart by text" {
	# CMake's FindPAPI modules and configure scripts read the version from the
	# text: some take every line that begins "#define PAPI_VERSION", some the
	# arguments of PAPI_VERSION_NUMBER(...) on it, some the last such line in
	# the file. Each must find one line, the default's, as PAPI 7.2 writes it.
	local re n
	for re in '^#define[[:space:]]+PAPI_VERSION[[:space:]]' \
		'^#[[:space:]]*define[[:space:]]+PAPI_VERSION[[:space:]]' \
		'#define[[:space:]]+PAPI_VERSION[[:space:]]+PAPI_VERSION_NUMBER\(.*\)' \
		'#define[[:blank:]]+PAPI_VERSION[[:blank:]]+PAPI_VERSION_NUMBER\(([0-9]+),([0-9]+),([0-9]+),([0-9]+)\)'; do
		n=$(grep -Ec "$re" "$TOP/libpapi/papi.h") || true
		[ "$n" -eq 1 ] || { echo "$n lines match $re"; false; }
	done
	v=$(sed -nE 's/^#define[[:space:]]+PAPI_VERSION[[:space:]]+PAPI_VERSION_NUMBER\((.*)\)$/\1/p' "$TOP/libpapi/papi.h" | tr , .)
	[ "$v" = 7.2.0.0 ]
}

@test "header: builds alone as strict C11 and as C++" {
	echo '#include "papi.h"' > "$T/alone.c"
	run $CC -std=c11 -Wall -Wextra -Wpedantic -Werror -I "$TOP/libpapi" -c -o "$T/alone.o" "$T/alone.c"
	echo "$output"
	[ "$status" -eq 0 ]
	command -v c++ >/dev/null || skip "no C++ compiler"
	run c++ -x c++ -Wall -Wextra -Werror -I "$TOP/libpapi" -c -o "$T/alone.o" "$T/alone.c"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "header: builds at each release's level, and refuses a level it does not know" {
	cat > "$T/level.c" <<-'C'
	#include "papi.h"
	int version = PAPI_VER_CURRENT, errors = PAPI_NUM_ERRORS, umasks = PAPI_NTV_ENUM_UMASKS;
	int release = PAPI_VERSION;
	C
	local l want
	for l in 70:0x7000000:28:15 71:0x7010000:28:15 72:0x7020000:29:18; do
		run -0 $CC -std=c11 -Wall -Wextra -Wpedantic -Werror -DPAPI_ABI_LEVEL=${l%%:*} -I "$TOP/libpapi" \
			-S -o "$T/level.s" "$T/level.c"
		want=${l#*:}
		# PAPI_VERSION (release N.M.0.0) and PAPI_VER_CURRENT
		[ "$(grep -c "\.long[[:space:]]*$((${want%%:*}))\$" "$T/level.s")" -eq 2 ]
		want=${want#*:}
		grep -q "\.long[[:space:]]*${want%%:*}\$" "$T/level.s"
		grep -q "\.long[[:space:]]*${want#*:}\$" "$T/level.s"
	done
	run $CC -DPAPI_ABI_LEVEL=73 -I "$TOP/libpapi" -c -o "$T/level.o" "$T/level.c"
	[ "$status" -ne 0 ]
	[[ "$output" == *"PAPI_ABI_LEVEL must be 70, 71 or 72"* ]]
}

@test "header: every function declared in papi.h is defined in libpapi.a" {
	[ -f "$BUILD/libpapi.a" ] || skip "no $BUILD/libpapi.a (run make)"
	# names from our header, with the text of its declarations
	$CC -fpreprocessed -dD -E -P "$TOP/libpapi/papi.h" | grep -v "^#" | tr '\n' ' ' | tr ';' '\n' |
		grep -v '^ *typedef' | grep -oE '[ *]PAPI_[a-z_0-9]+ ?\(' |
		sed -E 's/^[ *]//; s/ ?\($//' | sort -u > "$T/names"
	[ "$(wc -l < "$T/names")" -ge 98 ]
	{
		echo '#include <stdio.h>'
		echo '#include "papi.h"'
		echo 'static void *fns[] = {'
		sed 's/.*/\t(void *)&, /' "$T/names"
		echo '};'
		echo 'int main(void) { int n = 0; for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) n += fns[i] != NULL; printf("%d\n", n); return 0; }'
	} > "$T/link.c"
	run $CC -std=gnu11 -Wall -Wextra -Werror -pthread -I "$TOP/libpapi" -o "$T/link" "$T/link.c" "$BUILD/libpapi.a" -lpfm -lcsv -lm -lrt
	echo "$output"
	[ "$status" -eq 0 ]
	run "$T/link"
	[ "$output" = "$(wc -l < "$T/names")" ]
}

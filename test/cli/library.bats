#!/usr/bin/env bats
# library.bats: libpapi as other programs link it: the shared library and the static archive, what each exports, and a program's own names.
load helper

setup() {
	papi_isolate
	BUILD=${PAPI_BUILD:-$PAPI_TOP/build}
	LIB=$PAPI_TOP/test/lib
	[ -f "$BUILD/libpapi.so.7.0" ] && [ -f "$BUILD/libpapi.a" ] || skip "libpapi not built (make)"
}

# ccso OUT SRC...: build a program against the shared library in BUILD.
ccso() {
	local out=$1
	shift
	${CC:-cc} -I"$PAPI_TOP/libpapi" -o "$out" "$@" -L"$BUILD" -lpapi -Wl,-rpath,"$BUILD"
}

# cca OUT SRC...: build a program against the static archive in BUILD.
cca() {
	local out=$1
	shift
	${CC:-cc} -I"$PAPI_TOP/libpapi" -o "$out" "$@" "$BUILD/libpapi.a" -lpfm -lcsv -pthread -lm -lrt
}

# internal_names: every global the library's modules define that is not public.
internal_names() {
	nm -g --defined-only "$BUILD"/libpapi/*/*.o | awk 'NF == 3 { print $3 }' |
		grep -v -e '^PAPI_' -e '^PAPIF_' -e '^papif_' | sort -u
}

@test "libpapi.so.7.0 has PAPI 7.0's soname and needs libpfm.so.4 and libcsv.so.3" {
	run -0 readelf -d "$BUILD/libpapi.so.7.0"
	[[ "$output" == *"Library soname: [libpapi.so.7.0]"* ]]
	[[ "$output" == *"Shared library: [libpfm.so.4]"* ]]
	[[ "$output" == *"Shared library: [libcsv.so.3]"* ]]
	[ "$(readlink "$BUILD/libpapi.so")" = libpapi.so.7.0 ]
	[ "$(readlink "$BUILD/libpapi.so.7.0")" = libpapi.so.7.0.0.0 ]
}

@test "the shared library exports the public API and nothing else" {
	nm -D --defined-only "$BUILD/libpapi.so.7.0" | awk '{ print $3 }' | sort > exported
	[ "$(wc -l < exported)" -gt 150 ]
	run grep -v -e '^PAPI_[a-z]' -e '^PAPIF_' -e '^papif_' exported
	[ "$status" -eq 1 ] || { echo "exported beyond the API: $output"; false; }
	grep -qx PAPI_library_init exported
	grep -qx papif_library_init_ exported
	# and the objects do define internal names, which the library keeps to itself
	[ "$(internal_names | wc -l)" -gt 50 ]
	internal_names > internal
	[ -z "$(comm -12 exported internal)" ]
}

@test "the static archive is position-independent and leaves only the public API global" {
	nm -g --defined-only "$BUILD/libpapi.a" | awk 'NF == 3 { print $3 }' | sort -u > global
	[ "$(wc -l < global)" -gt 150 ]
	run grep -v -e '^PAPI_[a-z]' -e '^PAPIF_' -e '^papif_' global
	[ "$status" -eq 1 ] || { echo "global beyond the API: $output"; false; }
	# it links into a shared object
	${CC:-cc} -shared -o libuser.so -Wl,--whole-archive "$BUILD/libpapi.a" -Wl,--no-whole-archive -lpfm -lcsv -pthread
	nm -D --defined-only libuser.so | grep -q ' PAPI_start$'
}

@test "a program that defines sys, es_lookup, derived_eval and other internal names links and counts" {
	cca ns_a "$LIB/namespace.c"
	run -0 ./ns_a
	[ "$output" -gt 0 ]
	ccso ns_so "$LIB/namespace.c"
	run -0 ./ns_so
	[ "$output" -gt 0 ]
}

@test "a program that defines every internal name of the library links with libpapi.a" {
	internal_names > names
	[ "$(wc -l < names)" -gt 50 ]
	{
		echo '#include "papi.h"'
		sed 's/.*/char &[3] = "x";/' names
		echo 'int main(void) { return PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT ? 0 : 1; }'
	} > all.c
	cca all_a all.c
	run -0 ./all_a
	ccso all_so all.c
	run -0 ./all_so
}

#!/usr/bin/env bats
# library.bats: libpapi as other programs link it: the shared library and the static archive, what each exports, and a program's own names.
load helper

setup() {
	papi_isolate
	BUILD=${PAPI_BUILD:-$PAPI_TOP/build}
	LIB=$PAPI_TOP/test/lib
	[ -f "$BUILD/libpapi.so.7.2" ] && [ -f "$BUILD/libpapi.a" ] || skip "libpapi not built (make)"
}

# ccso OUT SRC...: build a program against the shared library in BUILD.
ccso() {
	local out=$1
	shift
	${CC:-cc} -I"$PAPI_TOP/libpapi" -o "$out" "$@" -L"$BUILD" -lpapi -Wl,-rpath,"$BUILD"
}

# cca OUT SRC...: build a program against the static archive in BUILD, which
# carries libpfm4 and libcsv: nothing else but the C library's parts.
cca() {
	local out=$1
	shift
	${CC:-cc} -I"$PAPI_TOP/libpapi" -o "$out" "$@" "$BUILD/libpapi.a" -lpthread -lm -ldl
}

# The C library's I/O calls, which libpapi defines for the whole program
# (interposed for the appio component) only when built with make APPIO=1.
INTERPOSED='^(read|write|open|open64|close|lseek|lseek64|select|recv|fread|fwrite)$'
# The two calls by which libsde (ours or PAPI 7.0's) reaches into libpapi for
# overflow, exported under PAPI 7.0's names.
SDE_HOOKS='^papi_sde_(check_overflow_status|set_timer_for_overflow)$'

# internal_names: every global the library's modules define that is not public.
internal_names() {
	nm -g --defined-only "$BUILD"/libpapi/[0-9]-*/*.o | awk 'NF == 3 { print $3 }' |
		grep -E '^[A-Za-z][A-Za-z0-9_]*$' | grep -v -e '^PAPI_' -e '^PAPIF_' -e '^papif_' |
		grep -Ev -e "$INTERPOSED" -e "$SDE_HOOKS" | sort -u
}

@test "libpapi.so.7.0, .7.1 and .7.2 have PAPI's sonames and need libpfm.so.4 and libcsv.so.3" {
	local l
	for l in 7.0 7.1 7.2; do
		run -0 readelf -d "$BUILD/libpapi.so.$l"
		[[ "$output" == *"Library soname: [libpapi.so.$l]"* ]]
		[[ "$output" == *"Shared library: [libpfm.so.4]"* ]]
		[[ "$output" == *"Shared library: [libcsv.so.3]"* ]]
		[ "$(readlink "$BUILD/libpapi.so.$l")" = libpapi.so.$l.0.0 ]
	done
	[ "$(readlink "$BUILD/libpapi.so")" = libpapi.so.7.2 ]
}

# A program built at each release's level, run on that release's library:
# the layouts and numbers it gets are its release's (test/lib/levels.c checks
# the guard bytes after each struct), and it names the same events as the
# others: one implementation behind three boundaries. The static archive
# serves every release (papi.h at an older level calls that level's entry
# points, PAPI_library_init_v70, ..., where they are linked): the same
# program linked with it prints the same.
@test "a program built at -DPAPI_ABI_LEVEL=70, 71 or 72 gets its release's ABI from libpapi.so.7.0, .7.1, .7.2 and libpapi.a" {
	local l
	for l in 70 71 72; do
		${CC:-cc} -DPAPI_ABI_LEVEL=$l -I"$PAPI_TOP/libpapi" -o levels$l "$LIB/levels.c" -L"$BUILD" \
			-l:libpapi.so.${l:0:1}.${l:1:1} -Wl,-rpath,"$BUILD"
		run -0 env LD_PRELOAD="$(san_preload "$BUILD/libpapi.so.7.2")" ./levels$l
		echo "$output" > levels$l.out
		echo "$output"
		[[ "$output" == *"library_init ver_current"* ]]
		[[ "$output" == *"lib_version 0x70${l:1:1}0000"* ]]
		[[ "$output" == *"library_init(other) -1"* ]]
		[[ "$output" == *"cmp0 perf_event idx 0 initialized 1 attach 1 cpu 1 inherit 1"* ]]
		[[ "$output" == *"get_opt(COMPONENTINFO) 0 same 1"* ]]
		[[ "$output" == *"event_info(PAPI_TOT_INS) 0 symbol PAPI_TOT_INS"* ]]
		[[ "$output" == *"event_type(PAPI_TOT_INS) ins 1"* ]]
		[[ "$output" == *"event_info(perf::TASK-CLOCK) 0 symbol perf::TASK-CLOCK component 0"* ]]
		[[ "$output" =~ umasks\(perf::TASK-CLOCK\)\ [1-9] ]]
		[[ "$output" == *"presets 108"* ]]
		[[ "$output" =~ presets\ ins\ [1-9] ]]
		cca levels_a$l -DPAPI_ABI_LEVEL=$l "$LIB/levels.c"
		run -0 ./levels_a$l
		diff levels$l.out <(echo "$output")
	done
	# each older level's nine calls, global in the archive under its names
	nm -g --defined-only "$BUILD/libpapi.a" | awk 'NF == 3 { print $3 }' > global
	[ "$(grep -c '_v70$' global)" -eq 9 ]
	[ "$(grep -c '_v71$' global)" -eq 9 ]
	# PAPI_PARTIAL is 7.2's alone
	grep -qx 'strerror(-28) NULL' levels70.out
	grep -qx 'strerror(-28) NULL' levels71.out
	grep -qx 'strerror(-28) message' levels72.out
	# the same events, whatever the release's numbers
	diff <(grep -v -e ver_current -e lib_version -e 'strerror(-28)' levels70.out) \
		<(grep -v -e ver_current -e lib_version -e 'strerror(-28)' levels72.out)
	diff levels70.out levels71.out | grep -v -e ver_current -e lib_version | grep -q '^[<>]' && false
	# a program of one release refuses another's library
	${CC:-cc} -DPAPI_ABI_LEVEL=70 -I"$PAPI_TOP/libpapi" -o wrong "$LIB/levels.c" -L"$BUILD" -lpapi -Wl,-rpath,"$BUILD"
	run -1 ./wrong
	[[ "$output" == *"library_init error"* ]]
}

@test "the shared library exports the public API, the interposed I/O calls, libsde's hooks, and nothing else" {
	# the same names at every release
	nm -D --defined-only "$BUILD/libpapi.so.7.0" | awk '{ print $3 }' | sort > exported70
	nm -D --defined-only "$BUILD/libpapi.so.7.1" | awk '{ print $3 }' | sort > exported71
	nm -D --defined-only "$BUILD/libpapi.so.7.2" | awk '{ print $3 }' | sort > exported
	diff exported70 exported
	diff exported71 exported
	[ "$(wc -l < exported)" -gt 150 ]
	# nothing of the C library, unless asked (make APPIO=1)
	if grep -q APPIO "$BUILD/cflags"; then
		[ "$(grep -Ec "$INTERPOSED" exported)" -eq 11 ]
	else
		[ "$(grep -Ec "$INTERPOSED" exported)" -eq 0 ]
		nm -g --defined-only "$BUILD/libpapi.a" | awk 'NF == 3 { print $3 }' > archive
		[ "$(grep -Ec "$INTERPOSED" archive)" -eq 0 ]
	fi
	[ "$(grep -Ec "$SDE_HOOKS" exported)" -eq 2 ]
	run grep -v -e '^PAPI_[a-z]' -e '^PAPIF_' -e '^papif_' -Ee "$INTERPOSED" -Ee "$SDE_HOOKS" exported
	[ "$status" -eq 1 ] || { echo "exported beyond the API: $output"; false; }
	grep -qx PAPI_library_init exported
	grep -qx papif_library_init_ exported
	# and the objects do define internal names, which the library keeps to itself
	[ "$(internal_names | wc -l)" -gt 50 ]
	internal_names > internal
	[ -z "$(comm -12 exported internal)" ]
}

@test "the shared library exports every name PAPI 7.0's exports" {
	local deb
	deb=$(${CC:-cc} -print-file-name=libpapi.so.7.0)
	[ -f "$deb" ] && [ "$deb" != libpapi.so.7.0 ] || skip "PAPI 7.0 (libpapi7.0) is not installed"
	nm -D --defined-only "$deb" | awk '{ print $3 }' | sort > theirs
	nm -D --defined-only "$BUILD/libpapi.so.7.0" | awk '{ print $3 }' | sort > ours
	[ "$(wc -l < theirs)" -gt 300 ]
	run comm -23 theirs ours
	[ -z "$output" ] || { echo "missing: $output"; false; }
	# libsde's two hooks among them
	grep -Ec "$SDE_HOOKS" theirs | grep -qx 2
}

@test "the static archive is position-independent and leaves only the public API global" {
	nm -g --defined-only "$BUILD/libpapi.a" | awk 'NF == 3 { print $3 }' | sort -u > global
	[ "$(wc -l < global)" -gt 150 ]
	[ "$(grep -Ec "$SDE_HOOKS" global)" -eq 2 ]
	run grep -v -e '^PAPI_[a-z]' -e '^PAPIF_' -e '^papif_' -Ee "$INTERPOSED" -Ee "$SDE_HOOKS" global
	[ "$status" -eq 1 ] || { echo "global beyond the API: $output"; false; }
	# it links into a shared object alone, with no text relocations
	${CC:-cc} -shared -o libuser.so -Wl,-z,text -Wl,--no-undefined \
		-Wl,--whole-archive "$BUILD/libpapi.a" -Wl,--no-whole-archive -pthread -lm
	nm -D --defined-only libuser.so | grep -q ' PAPI_start$'
	run -0 readelf -d libuser.so
	[[ "$output" != *TEXTREL* ]]
	[[ "$output" != *libpfm* ]]
	[[ "$output" != *libcsv* ]]
}

# libpapi.a carries libpfm4 and libcsv (Debian's libpfm.a and libcsv.a),
# their names made local: a program links it alone, may define those names
# itself or link the system's libpfm4 beside it, and libpfm4 inside still
# writes where LIBPFM_VERBOSE and LIBPFM_DEBUG_STDOUT say.
@test "libpapi.a links alone, with libpfm4 and libcsv inside under names a program may use" {
	local how
	for how in plain OWN_NAMES SYSTEM_PFM; do
		${CC:-cc} -std=gnu11 -D$how -I"$PAPI_TOP/libpapi" -o sa_$how "$LIB/standalone.c" "$BUILD/libpapi.a" \
			-lpthread -lm -ldl $([ $how = SYSTEM_PFM ] && echo -lpfm)
		# (the system's libpfm4 keeps 8 bytes past pfm_terminate: its
		# leak, not ours, which LeakSanitizer would stop the program for)
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=$([ $how = SYSTEM_PFM ] && echo 0 || echo 1)" \
			run -0 ./sa_$how
		echo "$output"
		[[ "${lines[0]}" == "ok "* ]]
	done
	[ "${lines[1]}" = "system libpfm4 initialized, perf::TASK-CLOCK found" ]
	run -0 ./sa_OWN_NAMES
	[ "${lines[1]}" = "own 42 mine 2" ]
	run -0 readelf -d sa_plain
	[[ "$output" != *libpfm* ]]
	[[ "$output" != *libcsv* ]]
	[[ "$output" != *libpapi* ]]
	[ -z "$(nm -g --defined-only "$BUILD/libpapi.a" | awk '$3 ~ /^(pfm_|csv_)/')" ]
	# libpfm4's own messages, from its copy in the archive
	run -0 --separate-stderr env LIBPFM_VERBOSE=1 ./sa_plain perf::CYCLES
	[[ "$stderr" == *"] perf::CYCLES"* ]]
	[ "${#lines[@]}" -eq 1 ]
	run -0 --separate-stderr env LIBPFM_VERBOSE=1 LIBPFM_DEBUG_STDOUT=1 ./sa_plain perf::CYCLES
	[ -z "$stderr" ]
	[[ "$output" == *"] perf::CYCLES"* ]]
	run -0 --separate-stderr ./sa_plain perf::CYCLES
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 1 ]
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

@test "a plugin linked with -lpapi, dlopened by a host that does not link libpapi, counts" {
	${CC:-cc} -shared -fPIC -I"$PAPI_TOP/libpapi" -o plugin.so "$LIB/plugin.c" -L"$BUILD" -lpapi -Wl,-rpath,"$BUILD"
	${CC:-cc} -o host "$LIB/host.c" -ldl
	[ "$(readelf -d host | grep -c 'NEEDED.*libpapi')" = 0 ]
	run -0 ./host plugin "$PWD/plugin.so"
	[ "$output" -gt 0 ]
	# libpapi.a links into the plugin as well
	${CC:-cc} -shared -fPIC -I"$PAPI_TOP/libpapi" -o plugin_a.so "$LIB/plugin.c" "$BUILD/libpapi.a" -pthread -lm
	[ "$(readelf -d plugin_a.so | grep -c 'NEEDED.*libpapi')" = 0 ]
	run -0 ./host plugin "$PWD/plugin_a.so"
	[ "$output" -gt 0 ]
}

@test "appio is off unless asked, and says how to turn it on" {
	grep -q APPIO "$BUILD/cflags" && skip "built with make APPIO=1"
	local why="disabled: libpapi was built without I/O interposition: rebuild it with make APPIO=1"
	cca appio_a "$LIB/appio.c"
	run -2 ./appio_a
	[ "$output" = "$why" ]
	ccso appio_so "$LIB/appio.c"
	run -2 ./appio_so
	[ "$output" = "$why" ]
}

# BUILD/appio/libpapi.so.7.2 is the library as make APPIO=1 builds it (the
# same objects, interpose.c compiled to interpose).
@test "appio counts a program's own I/O calls where libpapi is linked, and says why not where it is dlopened" {
	local so=$BUILD/libpapi.so.7.2
	grep -q APPIO "$BUILD/cflags" || so=$BUILD/appio/libpapi.so.7.2
	[ -f "$so" ] || skip "$so not built (make tests)"
	local dir=${so%/*}
	if grep -q APPIO "$BUILD/cflags"; then
		cca appio_a "$LIB/appio.c"
		run -0 ./appio_a
		[ "$output" = "200 2" ]
	fi
	${CC:-cc} -I"$PAPI_TOP/libpapi" -o appio_so "$LIB/appio.c" -L"$dir" -lpapi -Wl,-rpath,"$dir"
	run -0 ./appio_so
	[ "$output" = "200 2" ]
	# loaded with dlopen (a plugin that needs libpapi), the host's and the
	# plugin's calls were bound to the C library first
	${CC:-cc} -shared -fPIC -DAPPIO_PLUGIN -I"$PAPI_TOP/libpapi" -o appio_plugin.so "$LIB/appio.c" \
		-L"$dir" -lpapi -Wl,-rpath,"$dir"
	${CC:-cc} -o host "$LIB/host.c" -ldl
	run -0 ./host appio "$PWD/appio_plugin.so"
	[[ "$output" == "disabled: libpapi came with dlopen, after the program's I/O calls were bound"* ]]
}

@test "two shared objects linked with -lpapi share one initialized library" {
	local m
	for m in moda modb; do
		${CC:-cc} -shared -fPIC -I"$PAPI_TOP/libpapi" -o "$m.so" "$LIB/$m.c" -L"$BUILD" -lpapi -Wl,-rpath,"$BUILD"
	done
	${CC:-cc} -o host "$LIB/host.c" -ldl
	# B uses the EventSet A made, in the library A initialized
	run -0 ./host pair "$PWD/moda.so" "$PWD/modb.so"
	[ "$output" -gt 0 ]
	# Each with its own copy of libpapi.a, B sees a library nobody initialized:
	# the check above can fail (and modules should link the shared library).
	for m in moda modb; do
		${CC:-cc} -shared -fPIC -I"$PAPI_TOP/libpapi" -o "${m}_a.so" "$LIB/$m.c" "$BUILD/libpapi.a" -pthread -lm
	done
	run -1 ./host pair "$PWD/moda_a.so" "$PWD/modb_a.so"
	[[ "$output" == *"modb_count: -16"* ]]
}

@test "a Python ctypes program sizes its buffers with PAPI_list_events and counts" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	# (under make check-sanitize: the runtimes first, and no leak check of python)
	run -0 env LD_PRELOAD="$(san_preload "$BUILD/libpapi.so.7.0")" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		python3 "$LIB/ctypes_count.py" "$BUILD/libpapi.so.7.0" perf::TASK-CLOCK perf::PAGE-FAULTS
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" =~ ^perf::TASK-CLOCK\ [1-9][0-9]*$ ]]
	[[ "${lines[1]}" =~ ^perf::PAGE-FAULTS\ [0-9]+$ ]]
}

# cffi_python: a python3 that has cffi and the headers to build a module.
cffi_python() {
	local py
	for py in python3 /usr/bin/python3; do
		"$py" -c 'import cffi, os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null &&
			{ echo "$py"; return 0; }
	done
	return 1
}

# pypapi's recipe, unchanged in what it links: cffi's set_source() with
# libpapi.a as the module's only extra object (test/lib/cffi_recipe.py).
@test "a cffi module built as pypapi builds it, over libpapi.a alone, imports and counts" {
	local py
	py=$(cffi_python) || skip "python3-cffi or python3-dev is not installed (make deps)"
	run -0 "$py" "$LIB/cffi_recipe.py" build mod "$BUILD/libpapi.a" "$PAPI_TOP/libpapi"
	# (under make check-sanitize: the runtimes first, and no leak check of python)
	run -0 env LD_PRELOAD="$(san_preload "$BUILD/libpapi.so.7.2")" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$py" "$LIB/cffi_recipe.py" count mod
	echo "$output"
	[[ "$output" == "ok "* ]]
}

# The size queries, as PAPI 7.0 answers them: test/lib/sizes.c prints the
# answers that do not depend on the machine; sizes.expected is what PAPI
# 7.0 (Debian's libpapi.so.7.0) printed.
@test "size queries answer as PAPI 7.0's: PAPI_list_events, PAPI_get_opt, PAPI_list_threads, the Fortran calls" {
	# built with our papi.h at PAPI 7.0's level, run on our libpapi.so.7.0
	${CC:-cc} -DPAPI_ABI_LEVEL=70 -I"$PAPI_TOP/libpapi" -o sizes "$LIB/sizes.c" -L"$BUILD" -l:libpapi.so.7.0 \
		-Wl,-rpath,"$BUILD"
	run -0 ./sizes
	diff -u "$LIB/sizes.expected" <(echo "$output")
	[ -f /usr/include/papi.h ] && [ -f "$(${CC:-cc} -print-file-name=libpapi.so)" ] ||
		skip "PAPI 7.0 (libpapi-dev) is not installed: no program built against it"
	# built against PAPI 7.0's header and library, run on this one
	${CC:-cc} -I/usr/include -o sizes7 "$LIB/sizes.c" -lpapi
	env LD_LIBRARY_PATH="$BUILD" ldd ./sizes7 | grep -q "libpapi.so.7.0 => $BUILD/libpapi.so.7.0"
	run -0 env LD_LIBRARY_PATH="$BUILD" ./sizes7
	diff -u "$LIB/sizes.expected" <(echo "$output")
	# and on PAPI 7.0 itself, where it can count perf:: events: the record holds
	run ./sizes7
	[ "$status" -eq 0 ] || skip "PAPI 7.0 cannot count perf::TASK-CLOCK here (exit $status)"
	diff -u "$LIB/sizes.expected" <(echo "$output")
}

@test "papi-uninstalled.pc builds against the build tree and nothing else" {
	command -v pkg-config >/dev/null || skip "pkg-config is not installed"
	[ -f "$BUILD/papi-uninstalled.pc" ]
	[ ! -f "$BUILD/papi.pc" ]	# the installed one waits in BUILD/install
	local flags
	flags=$(PKG_CONFIG_PATH="$BUILD" pkg-config --cflags --libs papi)
	[[ "$flags" == *"-I$PAPI_TOP/libpapi "* && "$flags" == *"-L$BUILD "* ]]
	# shellcheck disable=SC2086
	${CC:-cc} -MD -o ns "$LIB/namespace.c" $flags
	# our papi.h, not an installed one
	grep -q "$PAPI_TOP/libpapi/papi.h" ns.d
	run grep -c ' /usr/include/papi.h' ns.d
	[ "$output" = 0 ]
	# and our libpapi.so.7.2 at run time, without LD_LIBRARY_PATH
	run -0 env -u LD_LIBRARY_PATH ldd ./ns
	[[ "$output" == *"libpapi.so.7.2 => $BUILD/libpapi.so.7.2 "* ]]
	run -0 env -u LD_LIBRARY_PATH LD_PRELOAD="$(san_preload "$BUILD/libpapi.so.7.2")" ./ns
	[ "$output" -gt 0 ]
}

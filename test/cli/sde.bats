#!/usr/bin/env bats
# sde.bats: software-defined events: libsde as libraries link it, what it exports, PAPI 7.0's libpapi and libsde beside ours, and the sde component reading them (papi component, papi native --sde, a program linking libpapi.so).
load helper

setup() {
	papi_isolate
	BUILD=${PAPI_BUILD:-$PAPI_TOP/build}
	SDE=$PAPI_TOP/libpapi/sde
	LIB=$PAPI_TOP/test/lib
	[ -f "$BUILD/libsde.so.1.0" ] && [ -f "$BUILD/libsde.a" ] || skip "libsde not built (make)"
}

# PAPI 7.0's libsde.so.1 exports (nm -D of Debian's libsde1 7.0.0).
PAPI7_EXPORTS="_sde_be_verbose _sde_debug papi_sde_add_counter_to_group papi_sde_compare_double
papi_sde_compare_float papi_sde_compare_int papi_sde_compare_long_long papi_sde_counting_set_insert
papi_sde_counting_set_remove papi_sde_create_counter papi_sde_create_counting_set papi_sde_create_recorder
papi_sde_describe_counter papi_sde_get_counter_handle papi_sde_inc_counter papi_sde_init papi_sde_record
papi_sde_register_counter papi_sde_register_counter_cb papi_sde_reset_counter papi_sde_reset_recorder
papi_sde_shutdown papi_sde_unregister_counter sde_ti_get_event_description sde_ti_get_event_name
sde_ti_get_num_reg_events sde_ti_is_counter_set_to_overflow sde_ti_is_simple_counter sde_ti_name_to_code
sde_ti_read_counter sde_ti_reset_counter sde_ti_set_counter_overflow sde_ti_shutdown sde_ti_write_counter"

# PAPI 7.0's libpapi and libsde from Debian (libpapi-dev), when installed.
papi7() {
	PAPI7_LIB=$(${CC:-cc} -print-file-name=libpapi.so)
	PAPI7_SDE=$(${CC:-cc} -print-file-name=libsde.so)
	[ -f /usr/include/sde_lib.h ] && [ "$PAPI7_LIB" != libpapi.so ] && [ "$PAPI7_SDE" != libsde.so ] ||
		skip "PAPI 7.0 is not installed (libpapi-dev)"
}

# sample [CFLAGS...]: libsample.so, test/lib/sde_sample.c linked with our libsde.
sample() {
	${CC:-cc} -shared -fPIC -I"$SDE" "$@" -o libsample.so "$LIB/sde_sample.c" -L"$BUILD" -lsde
}

@test "libsde.so.1 has PAPI 7.0's soname, needs only the C library and exports PAPI 7.0's names" {
	run -0 readelf -d "$BUILD/libsde.so.1.0"
	[[ "$output" == *"Library soname: [libsde.so.1]"* ]]
	# (a sanitized build also needs the sanitizers' runtimes)
	[ "$(echo "$output" | grep NEEDED | grep -vc -e libasan -e libubsan -e libtsan)" = 1 ]
	[[ "$output" == *"Shared library: [libc.so.6]"* ]]
	[ "$(readlink "$BUILD/libsde.so")" = libsde.so.1 ]
	[ "$(readlink "$BUILD/libsde.so.1")" = libsde.so.1.0 ]
	# (AddressSanitizer adds its __odr_asan markers to a sanitized build)
	nm -D --defined-only "$BUILD/libsde.so.1.0" | awk '$3 !~ /^__odr_asan/ { print $3 }' | sort > ours
	# PAPI 7.0's names, and one more the sde component asks for when present
	{ printf '%s\n' $PAPI7_EXPORTS; echo sde_ti_is_registered; } | sort > want
	diff want ours
	# the archive: one object, the same names global
	nm -g --defined-only "$BUILD/libsde.a" | awk 'NF == 3 && $3 !~ /^__odr_asan/ { print $3 }' | sort > archive
	diff want archive
}

@test "libsde is a library of its own: libpapi holds no copy of it and it includes nothing of libpapi" {
	run nm -D --defined-only "$BUILD/libpapi.so.7.0"
	[[ "$output" != *papi_sde_init* && "$output" != *sde_ti_read_counter* ]]
	run nm -g --defined-only "$BUILD/libpapi.a"
	[[ "$output" != *papi_sde_init* && "$output" != *sde_ti_read_counter* ]]
	run grep -h '#include "' "$SDE"/*.c "$SDE"/*.h
	[ -n "$output" ]
	run grep -h '#include "' "$SDE"/*.c "$SDE"/*.h
	while read -r line; do
		[[ "$line" =~ ^\#include\ \"(sde/)?sde_[a-z_]+\.h\"$ ]] || { echo "includes: $line"; false; }
	done <<<"$output"
}

@test "libsde's own test program links nothing of libpapi" {
	[ -x "$BUILD/test/sde/t_sde_lib" ] || skip "tests not built (make tests)"
	run nm "$BUILD/test/sde/t_sde_lib"
	[[ "$output" != *PAPI_library_init* ]]
}

@test "a library with software-defined events runs in a program that does not link libpapi" {
	sample -Wl,-rpath,"$BUILD"
	${CC:-cc} -I"$SDE" -o nopapi "$LIB/sde_nopapi.c" ./libsample.so -L"$BUILD" -lsde -Wl,-rpath,"$BUILD":"$PWD"
	[ "$(readelf -d nopapi libsample.so | grep -c 'NEEDED.*libpapi')" = 0 ]
	run -0 ./nopapi
	[ "$output" = "ran 10 steps" ]
	# nor in the process at all
	run env LD_DEBUG=libs ./nopapi
	[[ "$output" != *libpapi* ]]
}

@test "the C++ API (sde_lib.hpp) makes each kind of event" {
	command -v "${CXX:-c++}" >/dev/null || skip "no C++ compiler"
	[[ "${CC:-cc}" != *sanitize* ]] || skip "the sanitizer runs are C only"
	"${CXX:-c++}" -std=c++11 -Wall -Wextra -Werror -I"$SDE" -o cxx "$LIB/sde_cxx.cpp" -L"$BUILD" -lsde \
		-Wl,-rpath,"$BUILD"
	run -0 ./cxx
	[ "$output" = ok ]
	# the header compiles in two units of one program (nothing defined twice)
	printf '#include "sde_lib.hpp"\nint other(void) { return 0; }\n' > other.cpp
	"${CXX:-c++}" -std=c++11 -I"$SDE" -o cxx2 "$LIB/sde_cxx.cpp" other.cpp -L"$BUILD" -lsde -Wl,-rpath,"$BUILD"
}

@test "PAPI 7.0's libpapi counts this libsde's events as it counts its own libsde's" {
	papi7
	sample
	${CC:-cc} -I/usr/include -o count7 "$LIB/sde_count.c" ./libsample.so "$PAPI7_LIB"
	# PAPI 7.0's own libsde (the system's; it fails PAPI_stop once ITER is
	# unregistered), then ours
	run env LD_LIBRARY_PATH="$PWD" ./count7
	ldd_theirs=$(LD_LIBRARY_PATH="$PWD" ldd ./count7 | grep libsde)
	theirs=$(echo "$output" | head -n 2)
	mkdir oursde	# our libsde.so.1 alone (BUILD holds our libpapi.so.7.0 too)
	ln -s "$BUILD/libsde.so.1.0" oursde/libsde.so.1
	run -0 env LD_LIBRARY_PATH="$PWD:$PWD/oursde" ./count7
	[[ "$(LD_LIBRARY_PATH="$PWD:$PWD/oursde" ldd ./count7 | grep libsde)" == *"oursde/libsde.so.1"* ]]
	[[ "$ldd_theirs" != *"$BUILD"* ]]
	[ "$(echo "$output" | head -n 2)" = "$theirs" ]
	[[ "$theirs" == "read: ITER=10 EVENTS=20 ALL=30 HALF=10 LEVEL=9 RATIO=5 SIZES:CNT=20 "* ]]
	# where PAPI 7.0's libsde fails PAPI_stop, ours reads an unregistered counter as -1
	[[ "$output" == *"unregistered: ITER=-1 EVENTS=2 ALL=2 "* ]]
	[[ "$theirs" == *"reset: ITER=1 EVENTS=2 ALL=3 HALF=10.5 LEVEL=0 RATIO=0.5 SIZES:CNT=21 "* ]]
}

@test "a library built with PAPI 7.0's sde_lib.h runs on this libsde, and one built with ours on PAPI 7.0's" {
	papi7
	${CC:-cc} -shared -fPIC -I/usr/include -o libsample.so "$LIB/sde_sample.c" -L"$BUILD" -lsde
	${CC:-cc} -I/usr/include -o nopapi "$LIB/sde_nopapi.c" ./libsample.so -L"$BUILD" -lsde
	run -0 env LD_LIBRARY_PATH="$PWD:$BUILD" ./nopapi
	[ "$output" = "ran 10 steps" ]
	[[ "$(LD_LIBRARY_PATH="$PWD:$BUILD" ldd ./nopapi | grep libsde)" == *"$BUILD/libsde.so.1"* ]]
	sample
	${CC:-cc} -I"$SDE" -o nopapi "$LIB/sde_nopapi.c" ./libsample.so "$PAPI7_SDE"
	[[ "$(LD_LIBRARY_PATH="$PWD" ldd ./nopapi | grep libsde)" != *"$BUILD"* ]]
	# (PAPI 7.0's libsde leaks its names: not this project's to report)
	run -0 env LD_LIBRARY_PATH="$PWD" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ./nopapi
	[ "$output" = "ran 10 steps" ]
}

# What sde_count prints counting sde_sample's events for 10 steps a phase:
# PAPI 7.0's numbers (its libpapi on either libsde gives the first two lines).
COUNT_READ="read: ITER=10 EVENTS=20 ALL=30 HALF=10 LEVEL=9 RATIO=5 SIZES:CNT=20 SIZES=[0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9] SIZES:MIN=0 SIZES:MED=5 SIZES:MAX=9 KEYS=8,6,6"
COUNT_RESET="reset: ITER=1 EVENTS=2 ALL=3 HALF=10.5 LEVEL=0 RATIO=0.5 SIZES:CNT=21 SIZES=[0,1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9,0] SIZES:MIN=0 SIZES:MED=4 SIZES:MAX=9 KEYS=9,6,6"

# count: sde_count linked with this libpapi.so and libsample.so.
count() {
	sample -Wl,-rpath,"$BUILD"
	${CC:-cc} -I"$PAPI_TOP/libpapi" -I"$SDE" -o count "$LIB/sde_count.c" ./libsample.so -L"$BUILD" -lpapi \
		-Wl,-rpath,"$BUILD":"$PWD"
}

@test "this libpapi's sde component counts each kind of a library's events, linked as a shared library" {
	[ -f "$BUILD/libpapi.so.7.2" ] || skip "libpapi.so not built (make)"
	count
	[[ "$(ldd ./count)" == *"$BUILD/libpapi.so.7.2"* ]]
	run -0 ./count
	[ "${lines[0]}" = "$COUNT_READ" ]
	[ "${lines[1]}" = "$COUNT_RESET" ]
	# an unregistered counter reads -1, the others go on
	[[ "${lines[2]}" == "unregistered: ITER=-1 EVENTS=2 ALL=2 HALF=10.5 LEVEL=0 RATIO=0.5 SIZES:CNT=21 "* ]]
}

@test "this libpapi reads the counters of PAPI 7.0's libsde as PAPI 7.0 does" {
	papi7
	${CC:-cc} -shared -fPIC -I/usr/include -o libsample.so "$LIB/sde_sample.c" "$PAPI7_SDE"
	${CC:-cc} -I"$PAPI_TOP/libpapi" -I/usr/include -o count "$LIB/sde_count.c" ./libsample.so -L"$BUILD" -lpapi \
		-Wl,-rpath,"$BUILD":"$PWD"
	[[ "$(ldd ./count | grep libsde)" != *"$BUILD"* ]]
	run ./count
	[ "${lines[0]}" = "$COUNT_READ" ]
	[ "${lines[1]}" = "$COUNT_RESET" ]
}

# What sde_overflow prints: the handler's calls for a counter libsde keeps
# and for one PAPI polls, each the second event of its set.
OVERFLOW_OUT="created: calls=3 set=ok vector=2
polled: calls=1 set=ok vector=2"

@test "overflow on software-defined events calls the handler, with this libsde and with PAPI 7.0's" {
	[ -f "$BUILD/libpapi.so.7.0" ] || skip "libpapi.so not built (make)"
	${CC:-cc} -I"$PAPI_TOP/libpapi" -I"$SDE" -o ovf "$LIB/sde_overflow.c" -L"$BUILD" -lpapi -lsde \
		-Wl,-rpath,"$BUILD"
	run -0 ./ovf
	[ "$output" = "$OVERFLOW_OUT" ]
	# the same program on PAPI 7.0's libsde, which finds libpapi's two hooks by name
	papi7
	mkdir oursp	# our libpapi.so.7.0 alone
	ln -s "$BUILD/libpapi.so.7.0" oursp/libpapi.so.7.0
	${CC:-cc} -DPAPI_ABI_LEVEL=70 -I"$PAPI_TOP/libpapi" -I/usr/include -o ovf7 "$LIB/sde_overflow.c" oursp/libpapi.so.7.0 \
		"$PAPI7_SDE" -Wl,-rpath,"$PWD/oursp"
	[[ "$(ldd ./ovf7 | grep libsde)" != *"$BUILD"* ]]
	[[ "$(ldd ./ovf7 | grep libpapi)" == *"oursp/libpapi.so.7.0"* ]]
	run -0 env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ./ovf7
	[ "$output" = "$OVERFLOW_OUT" ]
}

@test "papi component lists sde as active, saying where its events come from" {
	run -0 papi component
	[[ "$output" == *$'\n'"sde: Software-defined events: "*$'\n'"  active:   yes"$'\n'"  events:   none registered in this process: a library registers its own through libsde"* ]]
	[[ "$output" == *"reads them as sde:::LIBRARY::COUNTER"* ]]
	PAPI_DISABLE_COMPONENTS=sde run -0 papi component
	[[ "$output" == *$'\n'"sde: "*$'\n'"  disabled: Disabled by PAPI_DISABLE_COMPONENTS"* ]]
	command -v jq >/dev/null || skip "jq is not installed"
	run -0 papi component --json
	[ "$(jq -r '.components[] | select(.name == "sde") | .active' <<<"$output")" = true ]
	[ "$(jq -r '.components[] | select(.name == "sde") | .native_events' <<<"$output")" = 0 ]
}

@test "papi native --sde FILE lists the events a library registers, under the sde component's heading" {
	sample -Wl,-rpath,"$BUILD"
	run -0 papi native --sde libsample.so
	[[ "$output" == *$'\n'"== Component sde: Software-defined events: "* ]]
	[[ "$output" == *$'\n'"sde:::Sample::ITER"$'\n'"    Steps of sample_work."$'\n'* ]]
	[[ "$output" == *$'\n'"sde:::Sample::SIZES:MED"$'\n'* ]]
	# PAPI 7.0's spelling, and only its names
	run -0 papi native -sde ./libsample.so --names -i sde:::
	[ "$output" = "$(printf 'sde:::Sample::%s\n' ITER EVENTS ALL HALF LEVEL RATIO SIZES SIZES:CNT SIZES:MIN \
		SIZES:Q1 SIZES:MED SIZES:Q3 SIZES:MAX KEYS)" ]
	run -0 papi native --sde libsample.so -e sde:::Sample::ALL
	[[ "$output" == *"ITER and EVENTS together."* ]]
	# without it, none
	run -1 papi native -i sde:::
}

@test "papi native --sde: a file that cannot be loaded or registers nothing is an error" {
	run -1 papi native --sde nosuch.so
	[[ "$output" == "papi native: nosuch.so: No such file or directory" ]]
	echo "not a library" > bad.so
	run -1 papi native --sde bad.so
	[[ "$output" == "papi native: --sde bad.so: cannot load it: "* ]]
	printf 'int f(void) { return 0; }\n' > nohook.c
	${CC:-cc} -shared -fPIC -o nohook.so nohook.c
	run -1 papi native --sde nohook.so
	[[ "$output" == *"it defines no papi_sde_hook_list_events"* ]]
	# a hook, but no libsde beside it
	printf '#include "sde_lib.h"\npapi_handle_t papi_sde_hook_list_events(papi_sde_fptr_struct_t *f)\n{ return f->init("X"); }\n' > nolib.c
	${CC:-cc} -shared -fPIC -I"$SDE" -o nolib.so nolib.c
	run -1 papi native --sde nolib.so
	[[ "$output" == *"libsde is not loaded with it (papi_sde_init is missing)"* ]]
}

@test "a static papi runs --sde in its dynamically linked sibling, where installed or built, or says it is missing" {
	readelf -d "$PAPI_BIN" | grep -q "no dynamic section" || skip "this papi is dynamically linked (BIN_STATIC=0)"
	sample -Wl,-rpath,"$BUILD"
	# an installed layout: bin/papi and libexec/papi/papi
	mkdir -p inst/bin inst/libexec/papi
	cp "$PAPI_BIN" inst/bin/papi
	cp "$(dirname "$PAPI_BIN")/libexec/papi/papi" inst/libexec/papi/papi
	run -0 inst/bin/papi native --sde libsample.so --names -i sde:::Sample::ITER
	[ "$output" = "sde:::Sample::ITER" ]
	# PAPI 7.0's tool name, through a link: its spelling reaches the sibling, whose dlopen
	# refuses a file that is not a library (status 1, as PAPI 7's tool)
	ln -s papi inst/bin/papi_native_avail
	echo "not a library" > bad.so
	run -1 inst/bin/papi_native_avail -sde ./bad.so
	[[ "$output" == "papi native: --sde ./bad.so: cannot load it: "* ]]
	# without the sibling: the reason, not a failed dlopen
	rm inst/libexec/papi/papi
	run -1 inst/bin/papi native --sde libsample.so
	[[ "$output" == "papi native: --sde: this papi is linked statically and cannot load a library; the dynamically linked papi that does is missing ("*"/inst/bin/libexec/papi/papi or "*"/inst/bin/../libexec/papi/papi): reinstall papi" ]]
}

@test "papi stat cannot read the software-defined events of the command it runs, and says why" {
	run -1 papi stat -e sde:::Sample::ITER -- true
	[[ "$output" == "papi stat: sde:::Sample::ITER: no library in this process registers software-defined events"* ]]
	[[ "$output" == *"a tool that runs the program as another process, as papi stat does, cannot read them" ]]
}

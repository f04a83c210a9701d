#!/usr/bin/env bats
# install.bats: make install into a DESTDIR, a program built against it with pkg-config, the classic names, and make uninstall.
load helper

# make in the source tree with this run's build directory, without the
# flags or jobserver of a make that may be running the tests.
tree_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$PAPI_TOP" BUILD="${PAPI_BUILD:-build}" "$@"
}

# Every file and link under a directory, relative to it, sorted.
tree_files() {
	(cd "$1" && find . \( -type f -o -type l \) | LC_ALL=C sort)
}

setup_file() {
	command -v make >/dev/null || skip "make is not installed"
	D="$BATS_FILE_TMPDIR/dest"
	mkdir -p "$D"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$PAPI_TOP" BUILD="${PAPI_BUILD:-build}" \
		install PREFIX=/ DESTDIR="$D" >"$BATS_FILE_TMPDIR/install.log" 2>&1
	export D
}

@test "make install puts the binary, classic names, library, headers, papi.pc, man pages and completions in DESTDIR" {
	[ -x "$D/bin/papi" ]
	# a static papi brings the dynamically linked one that loads --sde libraries
	if readelf -d "$D/bin/papi" | grep -q "no dynamic section"; then
		[ -x "$D/libexec/papi/papi" ]
		readelf -d "$D/libexec/papi/papi" | grep -q "NEEDED.*libc\.so"
	fi
	local n
	for n in papi_avail papi_native_avail papi_event_chooser papi_decode papi_cost papi_clockres \
		papi_mem_info papi_command_line papi_component_avail papi_hardware_avail \
		papi_error_codes papi_version; do
		[ -L "$D/bin/$n" ] || { echo "no $n"; false; }
		[ "$(readlink "$D/bin/$n")" = papi ]
	done
	[ -f "$D/lib/libpapi.a" ]
	local l
	for l in 7.0 7.1 7.2; do
		[ -f "$D/lib/libpapi.so.$l.0.0" ]
		[ "$(readlink "$D/lib/libpapi.so.$l")" = libpapi.so.$l.0.0 ]
		readelf -d "$D/lib/libpapi.so.$l.0.0" | grep -q "SONAME.*\\[libpapi\\.so\\.${l/./\\.}\\]"
		[ -f "$D/lib/pkgconfig/papi-$l.pc" ]
		grep -q "^Version: $l.0.0\$" "$D/lib/pkgconfig/papi-$l.pc"
	done
	[ "$(readlink "$D/lib/libpapi.so")" = libpapi.so.7.2 ]
	[ -f "$D/include/papi.h" ] && [ -f "$D/include/papiStdEventDefs.h" ]
	[ -f "$D/include/sde_lib.h" ] && [ -f "$D/include/sde_lib.hpp" ]
	[ -f "$D/lib/libsde.a" ] && [ -f "$D/lib/libsde.so.1.0" ]
	[ "$(readlink "$D/lib/libsde.so.1")" = libsde.so.1.0 ]
	[ "$(readlink "$D/lib/libsde.so")" = libsde.so.1 ]
	[ -f "$D/lib/pkgconfig/papi.pc" ]
	grep -q '^prefix=/$' "$D/lib/pkgconfig/papi.pc"
	[ -f "$D/share/man/man1/papi.1" ] && [ -f "$D/share/man/man1/papi-native.1" ]
	[ -f "$D/share/bash-completion/completions/papi" ]
}

@test "a C program builds against the installed tree with pkg-config and counts perf::TASK-CLOCK" {
	command -v pkg-config >/dev/null || skip "pkg-config is not installed"
	cat >count.c <<'C'
#include <papi.h>
#include <stdio.h>
int main(void)
{
	int es = PAPI_NULL;
	long long v = 0;
	volatile double x = 0;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return 2;
	if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_named_event(es, "perf::TASK-CLOCK") != PAPI_OK)
		return 3;
	if (PAPI_start(es) != PAPI_OK)
		return 4;
	for (int i = 1; i < 3000000; i++)
		x += 1.0 / i;
	if (PAPI_stop(es, &v) != PAPI_OK)
		return 5;
	printf("%lld\n", v);
	return v > 0 ? 0 : 6;
}
C
	local flags
	flags=$(PKG_CONFIG_PATH="$D/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D" pkg-config --cflags --libs papi)
	[[ "$flags" == *"-I$D"* && "$flags" == *"-L$D"* ]]
	# shared: -lpapi is the installed libpapi.so.7.2
	# shellcheck disable=SC2086
	${CC:-cc} -o count count.c $flags
	readelf -d count | grep -q 'NEEDED.*\[libpapi\.so\.7\.2\]'
	LD_LIBRARY_PATH="$D/lib" run -0 ./count
	[ "$output" -gt 0 ]
	run env LD_LIBRARY_PATH="$D/lib" ldd ./count
	[[ "$output" == *"libpapi.so.7.2 => $D/lib/libpapi.so.7.2"* ]]
	# papi-7.0 and papi-7.1: that release's papi.h and library, by name
	local l
	for l in 7.0 7.1; do
		flags=$(PKG_CONFIG_PATH="$D/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D" pkg-config --cflags --libs papi-$l)
		[[ "$flags" == *"-DPAPI_ABI_LEVEL=${l/./}"* ]]
		# shellcheck disable=SC2086
		${CC:-cc} -o count$l count.c $flags
		readelf -d count$l | grep -q "NEEDED.*\\[libpapi\\.so\\.${l/./\\.}\\]"
		LD_LIBRARY_PATH="$D/lib" run -0 ./count$l
		[ "$output" -gt 0 ]
	done
	# static: libpapi.a, which carries libpfm4 and libcsv, with the C
	# library's parts that pkg-config --static names after it
	flags=$(PKG_CONFIG_PATH="$D/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D" pkg-config --static --libs papi)
	[[ "$flags" == *"-lpapi -pthread -lm"* ]]
	[[ "$flags" != *-lpfm* ]]
	[[ "$flags" != *-lcsv* ]]
	# shellcheck disable=SC2086
	${CC:-cc} -I"$D/include" -o count_a count.c "$D/lib/libpapi.a" ${flags/-lpapi/}
	[ "$(readelf -d count_a | grep -c 'NEEDED.*libpapi')" = 0 ]
	run -0 ./count_a
	[ "$output" -gt 0 ]
	# and all static, when the C library's archives are there (not under a sanitizer)
	if [ -f "$(${CC:-cc} -print-file-name=libc.a)" ] && [[ "${CC:-cc}" != *sanitize* ]]; then
		# shellcheck disable=SC2086
		${CC:-cc} -static -I"$D/include" -o count_static count.c $flags
		[ "$(readelf -d count_static | grep -c NEEDED)" = 0 ]
		run -0 ./count_static
		[ "$output" -gt 0 ]
	fi
	# --define-prefix finds the same tree from papi.pc's location
	flags=$(PKG_CONFIG_PATH="$D/lib/pkgconfig" pkg-config --define-prefix --cflags papi)
	[[ "$flags" == *"-I$D/include"* || "$flags" == *"-I$D//include"* ]]
}

@test "a CMake project finds the installed tree with pkg_check_modules and with a FindPAPI module" {
	command -v cmake >/dev/null || skip "cmake is not installed"
	command -v pkg-config >/dev/null || skip "pkg-config is not installed"
	# pkg_check_modules(... papi>=7.0) and FindPAPI's version from papi.h
	local cc=${CC:-cc}
	run -0 env PKG_CONFIG_PATH="$D/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D" \
		cmake -S "$PAPI_TOP/test/lib/cmake" -B cm -DPAPI_PREFIX="$D" -DCMAKE_C_COMPILER="${cc%% *}"
	[[ "$output" == *"Found papi, version 7.2.0.0"* ]]
	[[ "$output" == *"FindPAPI: version 7.2.0.0, $D/lib/libpapi.so, $D/include"* ]]
	run -0 cmake --build cm
	local p
	for p in count_pc count_find; do
		run -0 env LD_LIBRARY_PATH="$D/lib" ldd "cm/$p"
		[[ "$output" == *"libpapi.so.7.2 => $D/lib/libpapi.so.7.2 "* ]]
		run -0 env LD_LIBRARY_PATH="$D/lib" LD_PRELOAD="$(san_preload "$D/lib/libpapi.so.7.2")" "cm/$p"
		[ "$output" -gt 0 ]
	done
}

@test "a library with software-defined events builds against the installed tree with -lsde alone" {
	${CC:-cc} -shared -fPIC -I"$D/include" -o libsample.so "$PAPI_TOP/test/lib/sde_sample.c" -L"$D/lib" -lsde
	${CC:-cc} -I"$D/include" -o nopapi "$PAPI_TOP/test/lib/sde_nopapi.c" ./libsample.so -L"$D/lib" -lsde
	[ "$(readelf -d nopapi libsample.so | grep -c 'NEEDED.*libpapi')" = 0 ]
	LD_LIBRARY_PATH="$D/lib:$PWD" run -0 ./nopapi
	[ "$output" = "ran 10 steps" ]
	run env LD_LIBRARY_PATH="$D/lib:$PWD" ldd ./nopapi
	[[ "$output" == *"libsde.so.1 => $D/lib/libsde.so.1"* ]]
	# and libsde.a, into the program
	${CC:-cc} -I"$D/include" -o nopapi_a "$PAPI_TOP/test/lib/sde_nopapi.c" "$PAPI_TOP/test/lib/sde_sample.c" \
		"$D/lib/libsde.a" -pthread
	[ "$(readelf -d nopapi_a | grep -c 'NEEDED.*libsde')" = 0 ]
	run -0 ./nopapi_a
}

@test "the installed classic names run and take their classic arguments" {
	run -0 "$D/bin/papi_avail" -a
	run -0 "$D/bin/papi_native_avail" -i TASK-CLOCK --noumasks
	[[ "$output" == *"perf::TASK-CLOCK"* ]]
	run -0 "$D/bin/papi_native_avail" -e perf::TASK-CLOCK
	[[ "$output" == *"perf::TASK-CLOCK"* ]]
	run -0 "$D/bin/papi_command_line" perf::TASK-CLOCK
	[[ "$output" =~ $'\n'perf::TASK-CLOCK\ :\ $'\t'[0-9]+\ $'\n' ]]
	run -0 "$D/bin/papi_version"
	[[ "$output" == "PAPI Version: "* ]]
}

@test "make uninstall removes exactly what make install added" {
	local U="$BATS_TEST_TMPDIR/u"
	mkdir -p "$U/bin" "$U/lib" "$U/share/man/man1"
	echo keep >"$U/bin/other-tool"
	echo keep >"$U/lib/libother.a"
	echo keep >"$U/share/man/man1/other.1"
	tree_files "$U" >before
	tree_make install PREFIX=/ DESTDIR="$U" >/dev/null
	tree_files "$U" >installed
	[ "$(comm -13 before installed | wc -l)" -gt 20 ]
	tree_make uninstall PREFIX=/ DESTDIR="$U" >/dev/null
	tree_files "$U" >after
	diff before after
}

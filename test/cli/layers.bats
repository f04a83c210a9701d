#!/usr/bin/env bats
# layers.bats: libpapi's modules call downward only, and libsde's and cmd/'s
# (but papi stat's) call round no loop (test/tools/layers.sh over nm of the
# built objects); the check catches an upward call, a loop and an upward
# include when one is planted.

setup() {
	TOP=${PAPI_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	BUILD=${PAPI_BUILD:-$TOP/build}
	CHECK="$TOP/test/tools/layers.sh"
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# obj LAYER MODULE 'C source': compile one module of a made-up library.
obj() {
	mkdir -p "$T/obj/$1"
	printf '%s\n' "$3" > "$T/$2.c"
	${CC:-cc} -c -o "$T/obj/$1/$2.o" "$T/$2.c"
}

# cmd/stat*.c (papi stat) are left out of cmd/'s group: their call loop is
# being reworked into a one-way pipeline; every other cmd/ file is checked.
@test "the built library calls downward only, libsde and cmd/ have no loop" {
	[ -d "$BUILD/libpapi/1-state" ] || skip "no built objects under $BUILD/libpapi"
	run sh "$CHECK" -g "$BUILD/cmd" -x 'stat*' "$BUILD/libpapi" "$TOP/libpapi"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" =~ ^layers:\ [0-9]+\ modules,\ [0-9]+\ uses,\ downward\ only$ ]]
	[[ "${lines[1]}" =~ ^sde:\ [0-9]+\ modules,\ [0-9]+\ uses,\ no\ loop$ ]]
	[[ "${lines[2]}" =~ ^cmd:\ [0-9]+\ modules,\ [0-9]+\ uses,\ no\ loop$ ]]
}

@test "every layer folder is numbered and holds modules" {
	n=0
	for d in "$TOP"/libpapi/*/; do
		name=$(basename "$d")
		[ "$name" != sde ] || continue	# libsde, a library of its own (sde.bats)
		[ "$name" != abi ] || continue	# the older releases' boundary, above every layer (library.bats)
		[[ "$name" =~ ^[1-9]-[a-z]+$ ]] || { echo "not a layer folder: $name"; false; }
		ls "$d"*.c >/dev/null
		n=$((n + 1))
	done
	[ "$n" -ge 6 ]
}

@test "a call from a lower layer to a higher one is named with its symbol" {
	obj 1-state low 'int up_fn(void); int low_fn(void) { return up_fn(); }'
	obj 2-kernel high 'int up_fn(void) { return 1; }'
	run sh "$CHECK" "$T/obj"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"upward: 1-state/low -> 2-kernel/high (up_fn)"* ]]
}

@test "two modules of one layer calling each other are a loop" {
	obj 3-naming a 'int b_fn(void); int a_fn(void) { return b_fn(); }'
	obj 3-naming b 'int a_fn(void); int b_fn(void) { return a_fn(); }'
	run sh "$CHECK" "$T/obj"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"loop: 3-naming/a -> 3-naming/b (b_fn) -> 3-naming/a (a_fn)"* ]]
}

@test "a loop through three modules is found" {
	obj 5-core x 'int y_fn(void); int x_fn(void) { return y_fn(); }'
	obj 5-core y 'int z_fn(void); int y_fn(void) { return z_fn(); }'
	obj 5-core z 'int x_fn(void); int z_fn(void) { return x_fn(); }'
	run sh "$CHECK" "$T/obj"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"loop: "*"5-core/x"*"5-core/y"*"5-core/z"* ]]
}

@test "a loop in a folder without layers (libsde) is named with its symbols" {
	obj 1-state s 'int s_fn(void) { return 0; }'
	obj sde record 'int sde_lock(void); int rec_read(void) { return sde_lock(); }'
	obj sde registry 'int rec_read(void); int sde_lock(void) { return 0; } int sde_read(void) { return rec_read(); }'
	run sh "$CHECK" "$T/obj"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"loop: sde/re"*" -> sde/re"*" -> sde/"*"(rec_read)"* ]]
	[[ "$output" == *"(sde_lock)"* ]]
	[[ "$output" == *"layers: 1 modules, 0 uses, downward only"* ]]
}

@test "a group given with -g is checked for loops, less what -x leaves out" {
	obj 1-state s 'int s_fn(void) { return 0; }'
	mkdir -p "$T/cmd"
	printf '%s\n' 'int s_fn(void); int b_fn(void); int a_fn(void) { return b_fn() + s_fn(); }' > "$T/a.c"
	printf '%s\n' 'int a_fn(void); int b_fn(void) { return a_fn(); }' > "$T/b.c"
	printf '%s\n' 'int a_fn(void); int c_fn(void) { return a_fn(); }' > "$T/c.c"
	for m in a b c; do ${CC:-cc} -c -o "$T/cmd/$m.o" "$T/$m.c"; done
	run sh "$CHECK" -g "$T/cmd" "$T/obj"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"loop: cmd/a -> cmd/b (b_fn) -> cmd/a (a_fn)"* ]]
	run sh "$CHECK" -g "$T/cmd" -x 'b*' "$T/obj"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"cmd: 2 modules, 1 uses, no loop"* ]]
}

@test "downward calls and data uses pass" {
	obj 1-state s 'int st; int s_fn(void) { return st; }'
	obj 2-kernel k 'extern int st; int s_fn(void); int k_fn(void) { return s_fn() + st; }'
	obj 2-kernel k2 'int k_fn(void); int k2_fn(void) { return k_fn(); }'
	run sh "$CHECK" "$T/obj"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "layers: 3 modules, 2 uses, downward only" ]
}

@test "a source including a higher layer's header or internal.h is named" {
	mkdir -p "$T/src/2-kernel" "$T/src/3-naming"
	printf '#include "3-naming/naming.h"\n' > "$T/src/2-kernel/bad.c"
	printf '#include "internal.h"\n' > "$T/src/3-naming/worse.c"
	printf '#include "2-kernel/kernel.h"\n' > "$T/src/3-naming/fine.c"
	obj 1-state s 'int s_fn(void) { return 0; }'
	run sh "$CHECK" "$T/obj" "$T/src"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"include: 2-kernel/bad.c:1 includes 3-naming/naming.h (a higher layer)"* ]]
	[[ "$output" == *"include: 3-naming/worse.c:1 includes internal.h"* ]]
	[[ "$output" != *"fine.c"* ]]
}

@test "a library module that includes internal.h does not compile" {
	run ${CC:-cc} -DPAPI_IN_LIBRARY -I"$TOP/libpapi" -fsyntax-only -x c - <<< '#include "internal.h"'
	[ "$status" -ne 0 ]
	[[ "$output" == *"includes its layer's header"* ]]
}

@test "no objects and a missing folder are usage errors" {
	run sh "$CHECK" "$T/none"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no such folder"* ]]
	run sh "$CHECK" "$T"
	[ "$status" -eq 2 ]
	[[ "$output" == *"no objects"* ]]
}

@test "libpapi/README.md's table of layers names every module in its folder" {
	for d in "$TOP"/libpapi/[1-9]-*/; do
		name=$(basename "$d")
		row=$(grep "^| \`$name/\` |" "$TOP/libpapi/README.md" | awk -F '|' '{ print $4 }')
		[ -n "$row" ] || { echo "no row for $name"; false; }
		for c in "$d"*.c; do
			m=$(basename "$c" .c)
			[[ ",$(tr -d ' ' <<< "$row")," == *",$m,"* ]] ||
				{ echo "README's row of $name does not name $m"; false; }
		done
	done
}

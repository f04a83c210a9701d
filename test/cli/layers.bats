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

# libpapi by layers, libsde and cmd/ for loops, and papi stat's pipeline
# (cmd/stat/N-stage/) one way: no stage but the driver uses another.
@test "the built library calls downward only, libsde and cmd/ have no loop, stat runs one way" {
	[ -d "$BUILD/libpapi/1-state" ] || skip "no built objects under $BUILD/libpapi"
	run sh "$CHECK" -g "$BUILD/cmd" -p "$BUILD/cmd/stat:$TOP/cmd/stat" "$BUILD/libpapi" "$TOP/libpapi"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[[ "${lines[0]}" =~ ^layers:\ [0-9]+\ modules,\ [0-9]+\ uses,\ downward\ only$ ]]
	[[ "${lines[1]}" =~ ^sde:\ [0-9]+\ modules,\ [0-9]+\ uses,\ no\ loop$ ]]
	[[ "${lines[2]}" =~ ^cmd:\ [0-9]+\ modules,\ [0-9]+\ uses,\ no\ loop$ ]]
	[[ "${lines[3]}" =~ ^stat:\ [0-9]+\ modules,\ [0-9]+\ uses,\ one\ way$ ]]
}

# pipe STAGE MODULE 'C source': compile one module of a made-up pipeline.
pipe() {
	mkdir -p "$T/pipe/$1"
	printf '%s\n' "$3" > "$T/$2.c"
	${CC:-cc} -c -o "$T/pipe/$1/$2.o" "$T/$2.c"
}

@test "a pipeline stage using another stage is named, the base and the driver are not" {
	obj 1-state s 'int s_fn(void) { return 0; }'
	pipe 1-base clock 'int now(void) { return 1; }'
	pipe 2-count run 'int now(void); int count(void) { return now(); }'
	pipe 3-report text 'int count(void); int now(void); int text(void) { return count() + now(); }'
	pipe 4-main main 'int count(void); int text(void); int main(void) { return count() + text(); }'
	run sh "$CHECK" -p "$T/pipe" "$T/obj"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"across: 3-report/text -> 2-count/run (count)"* ]]
	[ "$(grep -c across <<< "$output")" -eq 1 ]
	rm "$T/pipe/3-report/text.o"
	pipe 3-report text 'int now(void); int text(void) { return now(); }'
	run sh "$CHECK" -p "$T/pipe" "$T/obj"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"pipe: 4 modules, 4 uses, one way"* ]]
}

@test "a pipeline stage's source including another stage's header is named" {
	obj 1-state s 'int s_fn(void) { return 0; }'
	pipe 1-base clock 'int now(void) { return 1; }'
	pipe 2-count run 'int count(void) { return 0; }'
	pipe 3-main main 'int count(void); int main(void) { return count(); }'
	mkdir -p "$T/src/1-base" "$T/src/2-count" "$T/src/3-main"
	printf '#include "base.h"\n' > "$T/src/2-count/run.c"
	printf '#include "2-count/count.h"\n' > "$T/src/3-main/main.c"
	touch "$T/src/1-base/base.h" "$T/src/2-count/count.h"
	run sh "$CHECK" -p "$T/pipe:$T/src" "$T/obj"
	echo "$output"
	[ "$status" -eq 0 ]
	printf '#include "base.h"\n#include "count.h"\n' > "$T/src/1-base/clock.c"
	run sh "$CHECK" -p "$T/pipe:$T/src" "$T/obj"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"include: 1-base/clock.c:2 includes count.h (another stage)"* ]]
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

# names_modules README COLUMN DIR...: README's table row of each DIR (its
# first column, `NAME/`) names each module of the folder in COLUMN.
names_modules() {
	local readme=$1 col=$2
	shift 2
	for d in "$@"; do
		name=$(basename "$d")
		row=$(grep "^| \`$name/\` |" "$readme" | awk -F '|' -v c="$col" '{ print $c }')
		[ -n "$row" ] || { echo "no row for $name"; false; }
		for c in "$d"*.c; do
			m=$(basename "$c" .c)
			[[ ",$(tr -d ' ' <<< "$row")," == *",$m,"* ]] ||
				{ echo "README's row of $name does not name $m"; false; }
		done
	done
}

@test "libpapi/README.md's table of layers names every module in its folder" {
	names_modules "$TOP/libpapi/README.md" 4 "$TOP"/libpapi/[1-9]-*/
}

@test "cmd/stat/README.md's table of stages names every module in its folder" {
	names_modules "$TOP/cmd/stat/README.md" 3 "$TOP"/cmd/stat/[1-9]-*/
}

# cmd/ sees libpapi through papi.h and tool.h alone: not internal.h, not a
# layer's header, and so never an EventSet_t's fields.
@test "cmd/ includes tool.h, never internal.h or a layer's header" {
	run grep -rnE '#[[:space:]]*include[[:space:]]*"(internal\.h|[0-9]-(state|kernel|naming|components|core|api)/[a-z_]+\.h)"' \
		"$TOP/cmd" --include='*.c' --include='*.h'
	echo "$output"
	[ "$status" -eq 1 ]
	run grep -rlE '#[[:space:]]*include[[:space:]]*"tool\.h"' "$TOP/cmd"
	[ "$status" -eq 0 ]
	run ${CC:-cc} -D_GNU_SOURCE -I"$TOP/libpapi" -I"$BUILD/gen" -fsyntax-only -x c - <<< '#include "tool.h"
int f(EventSet_t *es) { return es->nev; }'
	[ "$status" -ne 0 ]
	[[ "$output" == *"EventSet_t"* ]]
}

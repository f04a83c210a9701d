#!/usr/bin/env bats
# build.bats: plain `make`, the README's first build step, builds what `make all` builds.
#
# A dry run (make -n) into a fresh, empty build folder lists every command a
# build from scratch would run, in a second and without compiling: if plain
# make picked another goal (the first rule of the Makefile, as it once did:
# one libsde test), its list differs from make all's. A real build of a fresh
# tree would prove no more about the goal and cost two minutes of a shared
# machine on every make check; the products themselves are checked by
# install.bats and every test that runs them.

PAPI_TOP=${PAPI_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# dry DIR [GOAL]: the commands `make [GOAL]` would run with BUILD=DIR, from
# the source tree, without the flags or jobserver of a make running the tests,
# with DIR written as BUILD so two folders compare.
dry() {
	local dir=$1
	shift
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -C "$PAPI_TOP" BUILD="$dir" "$@" 2>&1 |
		sed "s|$dir|BUILD|g"
}

@test "plain make runs the same commands as make all" {
	dry "$BATS_TEST_TMPDIR/plain" > plain.txt
	dry "$BATS_TEST_TMPDIR/all" all > all.txt
	diff -u all.txt plain.txt
}

@test "plain make links the binary and both libraries, static and shared" {
	dry "$BATS_TEST_TMPDIR/b" > plain.txt
	local made
	made=$(awk '{ for (i = 1; i < NF; i++) if ($i == "-o") print $(i + 1) }
		/^rm -f .* && ar rcs / { print $3 }' plain.txt | LC_ALL=C sort -u)
	echo "$made"
	local f
	for f in BUILD/papi BUILD/libpapi.so.7.0.0.0 BUILD/libpapi.a BUILD/libsde.so.1.0 BUILD/libsde.a; do
		grep -qx "$f" <<< "$made" || { echo "plain make does not make $f"; false; }
	done
}

@test "the Makefile's default goal is all" {
	run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -pnq -C "$PAPI_TOP" BUILD="$BATS_TEST_TMPDIR/b" -f Makefile
	grep -x '.DEFAULT_GOAL := all' <<< "$output"
}

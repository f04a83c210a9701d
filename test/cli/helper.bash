# helper.bash: loaded by every test/cli/*.bats: an isolated environment and the papi under test.
#
#   load helper            at the top of a .bats file; it defines setup(), so a
#                          file that needs more defines its own setup() that
#                          calls papi_isolate first
#   papi ARGS...           runs the papi under test ($PAPI_BIN)
#   classic_links NAME...  makes $BATS_TEST_TMPDIR/bin/NAME -> $PAPI_BIN and prints that dir
#   run_as NAME ARGS...    runs the papi under test by the name NAME (a symlink)
#   check_svg FILE         FILE is an SVG document that renders with ink in it

bats_require_minimum_version 1.5.0	# run --separate-stderr, run -N

PAPI_BIN=${PAPI_BIN:-$BATS_TEST_DIRNAME/../../build/papi}
PAPI_TOP=${PAPI_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
export PAPI_BIN PAPI_TOP

papi_isolate() {
	[ -x "$PAPI_BIN" ] || { echo "papi binary not found at $PAPI_BIN: run make" >&2; return 1; }
	# A fresh home and temp dir per test; nothing from the caller's
	# environment that papi or libpfm4 read may leak in.
	export HOME="$BATS_TEST_TMPDIR/home" TMPDIR="$BATS_TEST_TMPDIR/tmp"
	mkdir -p "$HOME" "$TMPDIR"
	local v
	for v in $(env | sed -n 's/^\(\(PAPI\|LIBPFM\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
		case "$v" in PAPI_BIN | PAPI_TOP | PAPI_BUILD) ;; *) unset "$v" ;; esac
	done
	export LC_ALL=C
	unset LANG LANGUAGE
	cd "$BATS_TEST_TMPDIR" || return 1
}

setup() {
	papi_isolate
}

papi() {
	"$PAPI_BIN" "$@"
}

classic_links() {
	local dir="$BATS_TEST_TMPDIR/bin" n
	mkdir -p "$dir"
	for n in "$@"; do ln -sf "$PAPI_BIN" "$dir/$n"; done
	echo "$dir"
}

run_as() {
	local name=$1 dir
	shift
	dir=$(classic_links "$name")
	"$dir/$name" "$@"
}

# has_command NAME: true when this build of papi has the subcommand NAME.
has_command() {
	"$PAPI_BIN" --list-cmds | cut -f1 | grep -qx -- "$1"
}

# san_preload LIB: the sanitizer runtimes LIB needs (make check-sanitize
# builds libpapi.so with them), for LD_PRELOAD: a program that was not built
# with them (python3, PAPI 7.0's tools) must load them first. Empty for a
# library built without.
san_preload() {
	local lib
	for lib in $(readelf -d "$1" | sed -n 's/.*NEEDED.*\[\(lib[a-z]*san\.so[.0-9]*\)\].*/\1/p'); do
		printf '%s ' "$(${CC:-cc} -print-file-name="$lib")"
	done
}

# check_svg FILE: valid XML, an svg root, and a rendering with ink in it.
check_svg() {
	command -v xmllint >/dev/null || skip "xmllint is not installed (make deps)"
	command -v rsvg-convert >/dev/null || skip "rsvg-convert is not installed (make deps)"
	xmllint --noout "$1"
	[ "$(xmllint --xpath 'local-name(/*)' "$1")" = svg ]
	rsvg-convert -o "$1.png" "$1"
	local w h ink colours
	read -r w h ink colours < <(python3 "$PAPI_TOP/test/tools/png_ink.py" "$1.png")
	[ "$w" -gt 100 ] || { echo "$w pixels wide"; false; }
	[ "$h" -gt 100 ] || { echo "$h pixels high"; false; }
	awk -v i="$ink" 'BEGIN { exit !(i > 5) }' || { echo "only $ink% inked"; false; }
	[ "$colours" -gt 10 ] || { echo "$colours colours"; false; }
}

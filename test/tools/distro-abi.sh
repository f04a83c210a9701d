#!/bin/sh
# distro-abi.sh: other distributions' PAPI tools on our libraries: Debian
# trixie's papi-tools (PAPI 7.1) on our libpapi.so.7.1 and sid's (PAPI 7.2)
# on our libpapi.so.7.2, each in a debootstrap root, compared with the same
# tools on their own library.
#
#   sh test/tools/distro-abi.sh BUILD            (make compat-distro)
#
# Roots: $DISTRO_ROOT_TRIXIE and $DISTRO_ROOT_SID when set, else
# BUILD/distro/SUITE, made there with debootstrap when it holds no
# papi-tools yet (root, and the Debian archive that apt's sources name, or
# $DISTRO_MIRROR; about a minute and a half each). DISTRO_SUITES="trixie sid" picks the suites.
# Each tool runs twice in the root (chroot, /proc, /sys and /dev bound in):
# on its own library, then with LD_LIBRARY_PATH naming a folder that holds
# our library under that release's SONAME. Both must end with the same exit
# status; where theirs counts perf::TASK-CLOCK with papi_command_line (not on
# a CPU its libpfm4 does not know), ours must count it too; papi_version and
# papi_error_codes must say that release's version and error count.
# papi_native_avail's and papi_event_chooser's listings are compared line
# by line (listings, below), and ours may print no more on stderr.
# Then the release's own C tests (papi-examples ships their sources) are
# built in the root by its compiler against its papi.h and -lpapi
# (test/tools/compat.sh, COMPAT_REAL=1), run on its library, and the same
# build run on ours (COMPAT_SHARED=1): a test that passes on theirs must
# pass on ours, and none may crash, hang or load another library.
# In a 7.2 root, upstream's papi_avail and papi_component_avail (7.2 API)
# are built from the release's source package (a deb-src line with the
# root's archive; apt-get source) against our installed papi.h and
# libpapi.so (make install into the root) and must end as the root's own
# tools do on their library; their sources stay in the root.
# DISTRO_CTESTS=0 leaves the C tests out. Exit 0 when every comparison
# holds, 1 otherwise, 2 when a root cannot be had.
set -u
build=${1:-build}
build=$(cd "$build" && pwd) || exit 2
top=$(cd "$(dirname "$0")/../.." && pwd)
suites=${DISTRO_SUITES:-trixie sid}
[ "$(id -u)" = 0 ] || { echo "distro-abi: needs root (chroot)" >&2; exit 2; }
fail=0 total=0 ctsum=

# level SUITE: the PAPI release its papi-tools are
level() {
	case $1 in
	trixie) echo 7.1 ;;
	sid) echo 7.2 ;;
	*) return 1 ;;
	esac
}

root_of() {
	local var
	var=DISTRO_ROOT_$(echo "$1" | tr a-z A-Z)
	eval "r=\${$var:-}"
	if [ -n "$r" ]; then echo "$r"; return; fi
	echo "$build/distro/$1"
}

# mirror: the Debian archive to debootstrap from: $DISTRO_MIRROR, else the
# first non-security archive apt's sources name.
mirror() {
	if [ -n "${DISTRO_MIRROR:-}" ]; then
		echo "$DISTRO_MIRROR"
		return
	fi
	cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | awk '
		/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }
		/^deb / { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { if ($i !~ /security/) { print $i; exit } break } }'
}

# The packages a root needs: the tools, and what builds the C tests there.
pkgs=libpapi-dev,papi-tools,papi-examples,gcc,make,libc6-dev

# get_root SUITE ROOT: make sure ROOT holds that suite with $pkgs
get_root() {
	if [ -x "$2/usr/bin/papi_avail" ]; then
		[ -x "$2/usr/bin/cc" ] && [ -x "$2/usr/bin/make" ] && return 0
		# a root made before the C tests were built in it; an archive
		# snapshot's Release file may be past its Valid-Until
		echo "distro-abi: installing gcc and make in $2"
		chroot "$2" env DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Check-Valid-Until=false \
			install -y -qq --no-install-recommends gcc make libc6-dev > "$build/distro-$1.log" 2>&1 ||
			{ echo "distro-abi: cannot install gcc in $2: see $build/distro-$1.log" >&2; return 1; }
		return 0
	fi
	command -v debootstrap >/dev/null 2>&1 || { echo "distro-abi: no debootstrap (apt-get install debootstrap)" >&2; return 1; }
	echo "distro-abi: debootstrap $1 into $2"
	mkdir -p "$2"
	m=$(mirror)
	[ -n "$m" ] || { echo "distro-abi: no Debian archive in apt's sources: set DISTRO_MIRROR" >&2; return 1; }
	debootstrap --variant=minbase --include=$pkgs "$1" "$2" \
		"$m" > "$build/distro-$1.log" 2>&1 ||
		{ echo "distro-abi: debootstrap failed: see $build/distro-$1.log" >&2; return 1; }
}

# check WHAT COND: count one comparison; status 0 when it holds
check() {
	total=$((total + 1))
	if [ "$2" = 0 ]; then
		echo "ok   $1"
	else
		echo "FAIL $1"
		fail=$((fail + 1))
	fi
	[ "$2" = 0 ]
}

# ctests SUITE REL ROOT: the release's C tests on its library, then on ours
# (test/tools/compat.sh in the root), compared test by test.
ctests() {
	local tools="$3/opt/papi-ours/test/tools" res
	mkdir -p "$tools"
	cp "$top/test/tools/compat.sh" "$tools/"
	# the tests ours must pass, but the MPI ones: the roots have no MPI
	grep -v '^mpi_' "$top/test/tools/compat-expected.txt" > "$tools/compat-expected.txt"
	echo "# $1: PAPI $2's C tests (papi-examples), built in the root, on their library and on ours"
	for mode in COMPAT_REAL COMPAT_SHARED; do
		chroot "$3" env -i PATH=/usr/bin:/bin COMPAT_LEVEL="$2" COMPAT_MISS_FAILS=1 "$mode=1" \
			COMPAT_PREBUILT=/opt/papi-ours/compat-real \
			sh /opt/papi-ours/test/tools/compat.sh /opt/papi-ours > "$build/distro-$1-$mode.txt" 2>&1
		res=$?
		grep '^compat: ' "$build/distro-$1-$mode.txt" | grep -v -e '^compat: results in' -e 'tests ran in'
		if [ "$mode" = COMPAT_REAL ]; then
			# the reference: it must have built and run, whatever passed
			[ -f "$3/opt/papi-ours/compat-real/results.tsv" ]
			check "$1: PAPI $2's C tests built and ran on their library" $?
		else
			sed -n '/^compat: FAILED:/,$p' "$build/distro-$1-$mode.txt" | grep '^  '
			[ "$res" = 0 ]
			check "$1: PAPI $2's C tests: ours passes every test theirs passes, none crashes or hangs" $?
		fi
	done
	# the shared run's table: test, status on ours, reason, status on theirs
	res=$(awk -F '\t' -v s="$1" '
		{ n++; t += $4 == "pass"; o += $2 == "pass"; m += $4 == "pass" && $2 != "pass"
		  b += $2 == "pass" && $4 != "pass" }
		END { printf "%s: %d ctests: %d pass on theirs, %d on ours; ours misses %d that theirs passes, passes %d that theirs does not", \
			s, n, t, o, m, b }' "$3/opt/papi-ours/compat-shared/results.tsv" 2>/dev/null)
	echo "$res"
	ctsum="$ctsum${res:+distro-abi: $res
}"
	echo "    (tables: $build/distro-$1-COMPAT_REAL.txt, $build/distro-$1-COMPAT_SHARED.txt)"
}

# listings SUITE: papi_native_avail and papi_event_chooser NATIVE, run on
# theirs and on ours (stdout and stderr apart, in BUILD/distro-SUITE-*),
# their listings of perf_event's events normalized (native-listing.awk:
# names as each library gives them, the default core PMU's bare; our
# other components, msr/tsc/ and our words for software events aside) and
# compared with diff; ours may not
# print more lines on stderr than theirs (PAPI_VERB_ECONT, which both tools
# set, prints no failed call's reason in PAPI 7).
listings() {
	local t tag f lib who
	for t in "papi_native_avail" "papi_event_chooser NATIVE perf::TASK-CLOCK"; do
		tag=${t%% *}
		tag=${tag#papi_}
		tag=${tag%_avail}
		tag=${tag#event_}
		f=$build/distro-$1-$tag
		for who in theirs ours; do
			lib=
			[ "$who" = ours ] && lib=/opt/papi-ours
			# shellcheck disable=SC2086
			chroot "$root" env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$lib" timeout 300 $t \
				> "$f.$who" 2> "$f.$who.err"
			awk -v tool="$tag" -f "$top/test/tools/native-listing.awk" "$f.$who" > "$f.$who.norm"
		done
		diff "$f.theirs.norm" "$f.ours.norm" > "$f.diff"
		st=$?
		[ "$st" = 0 ] || sed -n '1,6p' "$f.diff"
		[ "$st" = 0 ] && [ -s "$f.theirs.norm" ]
		check "$1: $t lists on ours the $(grep -c . "$f.theirs.norm") lines of events, unit masks and modifiers it lists on theirs ($(grep -c '^[<>]' "$f.diff") differ: $f.diff)" $?
		a=$(grep -c . "$f.theirs.err") b=$(grep -c . "$f.ours.err")
		[ "$b" -le "$a" ]
		check "$1: $t prints $b lines on stderr on ours, $a on theirs" $?
	done
}

# upstream SUITE REL ROOT: PAPI's own papi_avail and papi_component_avail,
# from the release's source package, built in the root against our
# installed papi.h and library, run there beside the root's tools.
upstream() {
	local o=/opt/papi-ours src="$3/opt/papi-ours/src" tgz rel_build t
	echo "# $1: upstream PAPI $2's papi_avail and papi_component_avail built against our papi.h"
	# the source package, from the archive the root's binary packages came from
	sed -n 's/^deb /deb-src /p' "$3/etc/apt/sources.list" > "$3/etc/apt/sources.list.d/distro-abi-src.list"
	mkdir -p "$src"
	chroot "$3" sh -c "apt-get -o Acquire::Check-Valid-Until=false update &&
		cd $o/src && apt-get -o Acquire::Check-Valid-Until=false source --download-only papi" \
		> "$build/distro-$1-source.log" 2>&1
	# the orig tarball is all that is used: an archive that lacks the
	# Debian packaging files still serves
	tgz=$(cd "$src" && ls papi_*.orig.tar.* 2>/dev/null | head -n 1)
	[ -n "$tgz" ]
	check "$1: PAPI's source package from $(cat "$3/etc/apt/sources.list.d/distro-abi-src.list") (${tgz:-none: see $build/distro-$1-source.log})" $? || return
	chroot "$3" tar -C "$o/src" -xf "$o/src/$tgz" --wildcards '*/src/utils/*' &&
		utils=$(cd "$src" && ls -d */src/utils | head -n 1) && [ -f "$src/$utils/papi_avail.c" ]
	check "$1: $tgz holds src/utils/papi_avail.c" $? || return
	# our install, as a user of ours would have it, under /opt/papi-ours/inst
	rel_build=${build#"$top"/}
	make -s -C "$top" BUILD="$rel_build" PREFIX=$o/inst DESTDIR="$3" install > "$build/distro-$1-install.log" 2>&1
	check "$1: make install of ours into the root" $? || return
	for t in papi_avail papi_component_avail; do
		out=$(chroot "$3" sh -c "cd $o/src/$utils && cc -O2 -MD -MF $o/$t.d -I$o/inst/include -o $o/$t $t.c print_header.c \
			-L$o/inst/lib -lpapi -Wl,-rpath-link,$o" 2>&1)
		st=$?
		[ -n "$out" ] && echo "$out" | head -n 5
		# our papi.h, and no other
		[ "$st" = 0 ] && grep -q "$o/inst/include/papi.h" "$3$o/$t.d" && ! grep -q /usr/include/papi "$3$o/$t.d"
		check "$1: upstream $t builds against our installed papi.h" $?
	done
	for t in "papi_avail" "papi_avail -a" "papi_avail -d" "papi_avail -e PAPI_TOT_CYC" \
		"papi_component_avail" "papi_component_avail -d"; do
		[ -x "$3$o/${t%% *}" ] || continue
		# shellcheck disable=SC2086
		run "" $t
		theirs=$st
		# shellcheck disable=SC2086
		# shellcheck disable=SC2086
		run "$o/inst/lib:$o" $o/$t
		[ "$st" = "$theirs" ]
		check "$1: $t: the root's exits $theirs on theirs, upstream's on ours $st" $?
	done
	run "$o/inst/lib:$o" ldd "$o/papi_avail"
	echo "$out" | grep -q "libpapi.so.$2 => $o/inst/lib/libpapi.so.$2"
	check "$1: upstream's papi_avail loads our installed libpapi.so.$2" $?
	# the sections of PAPI 7.2's preset walks (the CPU's presets, then the
	# components'), as the root's papi_avail prints them from its library:
	# upstream's on ours and our papi avail must print the same
	run "" papi_avail
	theirs=$(echo "$out" | grep -E '^  PAPI .*Events$' | tr '\n' '/')
	for t in "$o/papi_avail" "$o/inst/bin/papi avail"; do
		# shellcheck disable=SC2086
		run "$o/inst/lib:$o" $t
		ours=$(echo "$out" | grep -E '^  PAPI .*Events$' | tr '\n' '/')
		[ -n "$theirs" ] && [ "$ours" = "$theirs" ]
		check "$1: ${t##*/} on ours prints the sections the root's papi_avail does: $ours" $?
	done
}

for suite in $suites; do
	rel=$(level "$suite") || { echo "distro-abi: unknown suite $suite" >&2; exit 2; }
	root=$(root_of "$suite")
	get_root "$suite" "$root" || exit 2
	so=$build/libpapi.so.$rel.0.0
	[ -f "$so" ] || { echo "distro-abi: $so is missing: run make" >&2; exit 2; }
	# our library under the release's SONAME, and the libraries it needs
	# that the root may lack (libcsv); the root's own libpfm4 stays
	ours=$root/opt/papi-ours
	rm -rf "$ours" && mkdir -p "$ours"
	cp "$so" "$ours/libpapi.so.$rel"
	csv=$(ldd "$so" | awk '/libcsv/ { print $3 }')
	[ -n "$csv" ] && [ ! -e "$root/usr/lib/x86_64-linux-gnu/$(basename "$csv")" ] && cp "$csv" "$ours/"
	mounted=
	for m in proc sys dev; do
		mkdir -p "$root/$m"
		mount --bind "/$m" "$root/$m" && mounted="$root/$m $mounted"
	done
	# also on a signal (an EXIT trap alone does not run then), lazily
	# when something still holds a mount
	trap 'for m in $mounted; do umount "$m" || umount -l "$m"; done' EXIT
	trap 'exit 2' INT TERM HUP
	run() {	# run LIBDIR TOOL ARGS...: in the root, stdout+stderr in $out, status in $st
		local lib=$1
		shift
		out=$(chroot "$root" env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$lib" timeout 300 "$@" 2>&1)
		st=$?
	}
	echo "# $suite: PAPI $rel's papi-tools in $root, on their library and on ours"
	run /opt/papi-ours ldd /usr/bin/papi_avail
	echo "$out" | grep -q "libpapi.so.$rel => /opt/papi-ours/libpapi.so.$rel"
	check "$suite: the tools load our libpapi.so.$rel" $?
	for t in "papi_avail" "papi_avail -a" "papi_component_avail" "papi_native_avail" \
		"papi_native_avail -e perf::TASK-CLOCK" "papi_command_line perf::TASK-CLOCK" \
		"papi_event_chooser NATIVE perf::TASK-CLOCK" "papi_mem_info" "papi_clockres" \
		"papi_hardware_avail" "papi_error_codes" "papi_decode" "papi_xml_event_info" "papi_version"; do
		# shellcheck disable=SC2086
		run "" $t
		theirs=$st theirs_out=$out
		# shellcheck disable=SC2086
		run /opt/papi-ours $t
		[ "$st" = "$theirs" ]
		check "$suite: $t exits $theirs on theirs, $st on ours" $?
		case $t in
		"papi_command_line perf::TASK-CLOCK")
			if echo "$theirs_out" | grep -Eq 'perf::TASK-CLOCK :[[:space:]]+[1-9]'; then
				echo "$out" | grep -Eq 'perf::TASK-CLOCK :[[:space:]]+[1-9]'
				check "$suite: ours counts perf::TASK-CLOCK, as theirs does" $?
			else
				echo "skip $suite: PAPI $rel cannot count perf::TASK-CLOCK on this CPU: no count to compare"
			fi ;;
		papi_version)
			[ "$out" = "PAPI Version: $rel.0.0" ] && [ "$theirs_out" = "$out" ]
			check "$suite: papi_version says $rel.0.0 on both ($out)" $? ;;
		papi_error_codes)
			a=$(echo "$theirs_out" | grep 'error codes defined') b=$(echo "$out" | grep 'error codes defined')
			[ -n "$a" ] && [ "$a" = "$b" ]
			check "$suite: papi_error_codes: $b" $? ;;
		papi_component_avail)
			echo "$out" | grep -q perf_event
			check "$suite: papi_component_avail lists perf_event" $? ;;
		esac
	done
	listings "$suite"
	[ "$rel" = 7.2 ] && upstream "$suite" "$rel" "$root"
	[ "${DISTRO_CTESTS:-1}" = 0 ] || ctests "$suite" "$rel" "$root"
	for m in $mounted; do umount "$m" || umount -l "$m"; done
	mounted=
	trap - EXIT INT TERM HUP
done
printf '%s' "$ctsum"
echo "distro-abi: $total comparisons, $((total - fail)) hold, $fail fail"
[ "$fail" = 0 ]

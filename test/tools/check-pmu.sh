#!/bin/sh
# check-pmu.sh: the tests that need a hardware PMU, on a real kernel PMU
# driver: Debian's arm64 kernel booted under qemu-system-aarch64 (TCG), whose
# armv8_pmuv3 driver drives the PMU QEMU emulates.
#
#   sh test/tools/check-pmu.sh [BUILD]     (make check-pmu; BUILD: build-arm64)
#
# BUILD must hold the aarch64 build (make CC=aarch64-linux-gnu-gcc
# BUILD=build-arm64 all tests; make check-pmu does both). This script fetches
# Debian's arm64 kernel, busybox-static and jq packages (jq with libjq1 and
# libonig5) once into BUILD/pmu/debs, packs an initramfs (busybox, jq, papi,
# every test program, the sh tests and run-tests.sh, the shared libraries
# they load, an /etc/passwd with the ordinary user papitest), boots it with
# test/pmu/guest-init.sh as /init and reads the guest's report from the
# serial console: the tests run as root, then as papitest at
# perf_event_paranoid 2, each run with its own counts line. It prints the
# failures, then one closing line "N passed, N failed, N skipped", both runs'
# sum; exit status 1 when anything failed, including a guest that did not
# finish. The console is kept in BUILD/pmu/console.log.
#
# QEMU runs with -icount shift=0: its PMU counts INST_RETIRED only then, and
# its CPU takes one cycle (one virtual nanosecond) per instruction, so counts
# are exact; sleep=off lets the guest's idle time pass at once.
#
# Knobs: PMU_CPU (QEMU's -cpu: neoverse-n1, the default; a64fx; max; ...);
# PMU_SMP (CPUs, default 1: under -icount QEMU runs its CPUs in turn on one
# thread, and one that computes keeps the others from running for up to
# 100 ms, so a test's second thread and perf's cross-CPU calls wait that
# long, and INST_RETIRED counts every CPU's instructions); PMU_TIMEOUT
# (seconds for the whole guest run, 900); TESTS (a pattern: only the tests
# whose path contains it); CROSS_CC (aarch64-linux-gnu-gcc); V=1 (the whole
# console as it comes, with every test's whole output).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-arm64}
cpu=${PMU_CPU:-neoverse-n1}
smp=${PMU_SMP:-1}
limit=${PMU_TIMEOUT:-900}
cross=${CROSS_CC:-aarch64-linux-gnu-gcc}
tools=${cross%gcc*}
work=$build/pmu
debs=$work/debs
log=$work/console.log
begin=$(date +%s)

fail() {
	echo "check-pmu: $*" >&2
	exit 1
}

case "${TESTS:-}" in *' '*) fail "TESTS must be one word here (it goes on the kernel command line)" ;; esac
[ -x "$build/papi" ] || fail "$build/papi is missing: make CC=$cross BUILD=$build all tests"
mkdir -p "$debs"

# ---- Debian's arm64 kernel and busybox, downloaded once.
# deb PKG: the path of PKG's cached .deb, downloading it when missing.
deb() {
	f=$(ls "$debs/$1"_*_arm64.deb 2>/dev/null | tail -n 1)
	if [ -z "$f" ]; then
		sandbox=
		[ "$(id -u)" != 0 ] || sandbox="-o APT::Sandbox::User=root"
		# A stale package list is the usual reason a download fails: refresh once.
		(cd "$debs" && { apt-get download -qq $sandbox "$1:arm64" >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null 2>&1; apt-get download -qq $sandbox "$1:arm64" >/dev/null; }; }) ||
			fail "cannot download $1:arm64 (apt-get download)"
		f=$(ls "$debs/$1"_*_arm64.deb 2>/dev/null | tail -n 1)
		[ -n "$f" ] || fail "apt-get download $1:arm64 left no $debs/$1_*_arm64.deb"
	fi
	echo "$f"
}
# The kernel package linux-image-arm64 points to (linux-image-6.1.0-N-arm64),
# or the one already cached when apt cannot tell.
kpkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*\).*/\1/p' | head -n 1)
if [ -z "$kpkg" ]; then
	kpkg=$(ls "$debs"/linux-image-*-arm64_*_arm64.deb 2>/dev/null | tail -n 1)
	kpkg=${kpkg##*/}
	kpkg=${kpkg%%_*}
	[ -n "$kpkg" ] || fail "apt-cache cannot resolve linux-image-arm64:arm64 (is the arm64 architecture enabled?)"
fi
kdeb=$(deb "$kpkg")
bdeb=$(deb busybox-static)
kernel=$work/vmlinuz
if [ ! -f "$kernel" ] || [ "$kdeb" -nt "$kernel" ]; then
	dpkg-deb --fsys-tarfile "$kdeb" | tar -xO --wildcards './boot/vmlinuz-*' > "$kernel.tmp" &&
		mv "$kernel.tmp" "$kernel" || fail "no kernel image in $kdeb"
fi

# ---- The initramfs: busybox, our programs, the libraries they need.
root=$work/root
rm -rf "$root"
mkdir -p "$root/bin" "$root/lib" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" \
	"$root/papi/build" "$root/papi/test/tools" "$root/papi/test/pmu"
dpkg-deb --fsys-tarfile "$bdeb" | tar -xO ./bin/busybox > "$root/bin/busybox" ||
	fail "no busybox in $bdeb"
chmod 755 "$root/bin/busybox"
# jq and its two libraries: the region API tests read their JSON reports with it.
rm -rf "$work/jq"
mkdir -p "$work/jq"
for p in jq libjq1 libonig5; do
	dpkg-deb --fsys-tarfile "$(deb $p)" | tar -x -C "$work/jq" ./usr || fail "cannot unpack $p"
done
cp "$work/jq/usr/bin/jq" "$root/bin/jq" || fail "no jq in the jq package"
for lib in libjq.so.1 libonig.so.5; do
	cp -L "$work/jq/usr/lib/aarch64-linux-gnu/$lib" "$root/lib/$lib" || fail "no $lib in its package"
done
# root, and papitest: the ordinary user the tests run as a second time.
mkdir -p "$root/etc"
printf 'root:x:0:0:root:/tmp:/bin/sh\npapitest:x:1000:1000:papi tests:/nonexistent:/bin/sh\n' \
	> "$root/etc/passwd"
printf 'root:x:0:\npapitest:x:1000:\n' > "$root/etc/group"
cp "$top/test/pmu/guest-init.sh" "$root/init"
chmod 755 "$root/init"
cp "$top/test/tools/run-tests.sh" "$top/test/tools/test-user.sh" "$root/papi/test/tools/"
cp "$top"/test/pmu/*.sh "$root/papi/test/pmu/"
[ ! -d "$top/test/data" ] || cp -R "$top/test/data" "$root/papi/test/"

# Programs without their debug sections (a smaller initramfs boots faster).
progs="$build/papi $(find "$build/test" -type f -perm -u+x ! -name '*.[od]' | sort)"
for p in $progs; do
	dst=$root/papi/build/${p#$build/}
	mkdir -p "$(dirname "$dst")"
	"${tools}strip" --strip-debug -o "$dst" "$p" || fail "cannot strip $p"
done
# The shared libraries they load, found where the cross compiler finds them.
todo="$(find "$root/papi" -type f -perm -u+x ! -name '*.sh') $root/bin/jq $root/lib/libjq.so.1 $root/lib/libonig.so.5"
seen=" libjq.so.1 libonig.so.5 "
while [ -n "$todo" ]; do
	next=
	for lib in $("${tools}readelf" -d $todo 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u) \
		ld-linux-aarch64.so.1; do
		case "$seen" in *" $lib "*) continue ;; esac
		seen="$seen$lib "
		src=$("$cross" -print-file-name="$lib")
		[ -f "$src" ] || fail "cannot find $lib for the guest ($cross -print-file-name)"
		cp -L "$src" "$root/lib/$lib"
		next="$next $root/lib/$lib"
	done
	todo=$next
done
(cd "$root" && find . | sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$work/initrd.gz"

# ---- Boot. The report is streamed: failures and the PMU the kernel found;
# progress lines ("# start TEST") only into the console log.
boot=$(date +%s)
echo "check-pmu: booting $kpkg on QEMU -cpu $cpu -smp $smp (-icount), up to $limit s"
kargs="console=ttyAMA0 quiet loglevel=1 panic=-1 papi_qemu=1"
[ -z "${TESTS:-}" ] || kargs="$kargs papi_tests=$TESTS"
[ "${V:-0}" != 1 ] || kargs="$kargs papi_verbose=1"
timeout "$limit" qemu-system-aarch64 -M virt,gic-version=3 -cpu "$cpu" -smp "$smp" -m 1024 \
	-icount shift=0,sleep=off -nodefaults -display none -monitor none -serial stdio -no-reboot \
	-kernel "$kernel" -initrd "$work/initrd.gz" -append "$kargs" < /dev/null 2>&1 |
	tr -d '\r' | tee "$log" | awk -v all="${V:-0}" '
		all == 1 { print; fflush(); next }
		/^@@ (begin|end)/ { on = /begin/; next }
		/^@@ dmesg: / { next }
		/^@@ / { sub(/^@@ /, "  guest: "); print; fflush(); next }
		on && !/^# start / && !/^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { print; fflush() }'

# ---- The closing line: the guest's counts, and a failure when it did not finish.
tally=$(sed -n 's/^\([0-9]* passed, [0-9]* failed, [0-9]* skipped\)$/\1/p' "$log" | tail -n 1)
set -- $(echo "${tally:-0 passed, 0 failed, 0 skipped}" | tr -d ',')
pass=$1 failed=$3 skipped=$5
if ! grep -q '^@@ end ' "$log"; then
	last=$(sed -n 's/^# start //p' "$log" | tail -n 1)
	if [ "$(($(date +%s) - boot))" -ge "$limit" ]; then
		echo "--- FAIL: the guest did not finish within $limit s (last test started: ${last:-none}; see $log)"
	else
		echo "--- FAIL: the guest stopped before its report ended (last test started: ${last:-none}; see $log)"
		tail -n 20 "$log"
	fi
	failed=$((failed + 1))
elif ! grep -q '^@@ hw perfevents: enabled' "$log"; then
	echo "--- FAIL: the guest kernel enabled no hardware PMU driver (see $log)"
	failed=$((failed + 1))
elif [ "$failed" -eq 0 ] && { [ -z "$tally" ] || [ "$pass" -eq 0 ] || ! grep -q '^@@ end 0$' "$log"; }; then
	# run-tests.sh ended (a shell error, say) without its counts, or
	# counted nothing, or failed without a failure line: not a pass.
	echo "--- FAIL: the guest's tests ended with status $(sed -n 's/^@@ end //p' "$log" | tail -n 1) and ${tally:-no counts} (see $log)"
	failed=1
fi
echo "check-pmu: -cpu $cpu, $(($(date +%s) - begin)) s"
echo "$pass passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

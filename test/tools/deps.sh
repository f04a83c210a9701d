#!/bin/sh
# Install the Debian packages the build and the tests need, when any is missing.
# Runs as root with apt-get; otherwise it only says what to install.
# deps.sh pmu: also what make check-pmu needs; deps.sh distro: what make
# compat-distro needs.
set -eu
need=""
have_lib() { [ -f "$(${CC:-cc} -print-file-name="$1")" ]; }
have_lib libpfm.a || need="$need libpfm4-dev"
have_lib libcsv.a || need="$need libcsv-dev"
command -v bats >/dev/null 2>&1 || need="$need bats"
command -v jq >/dev/null 2>&1 || need="$need jq"
# test/cli/faults.bats fails papi's system calls with strace's fault injection.
command -v strace >/dev/null 2>&1 || need="$need strace"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v groff >/dev/null 2>&1 || need="$need groff"
command -v gfortran >/dev/null 2>&1 || need="$need gfortran"
command -v man >/dev/null 2>&1 || need="$need man-db"
# The zsh and fish completions are tested in those shells.
command -v zsh >/dev/null 2>&1 || need="$need zsh"
command -v fish >/dev/null 2>&1 || need="$need fish"
# papi stat in MPI jobs is tested with Open MPI's mpirun.
command -v mpirun >/dev/null 2>&1 || need="$need openmpi-bin"
[ -f /usr/include/jansson.h ] || need="$need libjansson-dev"
# PAPI 7.0 itself, for the tests that run its programs on our library and
# compare answers: its tools, its headers and libpapi.so, its own tests.
command -v papi_avail >/dev/null 2>&1 || need="$need papi-tools"
[ -f /usr/include/papi.h ] || need="$need libpapi-dev"
[ -d /usr/share/doc/papi-examples/examples/ctests ] || need="$need papi-examples"
command -v python3 >/dev/null 2>&1 || need="$need python3"
# pypapi's recipe (library.bats): a cffi module built over libpapi.a.
{ python3 -c 'import cffi' || /usr/bin/python3 -c 'import cffi'; } >/dev/null 2>&1 || need="$need python3-cffi"
ls /usr/include/python3*/Python.h >/dev/null 2>&1 || need="$need python3-dev"
# The oracle suite compares papi stat with perf stat on the same commands.
command -v perf >/dev/null 2>&1 || need="$need linux-perf"
command -v cmake >/dev/null 2>&1 || need="$need cmake"
command -v xmllint >/dev/null 2>&1 || need="$need libxml2-utils"
# papi stat --plot and hl-report --plot: their SVG is rendered to PNG.
command -v rsvg-convert >/dev/null 2>&1 || need="$need librsvg2-bin"
# Sanitizers and fuzzing (make check-sanitize, check-tsan, fuzz): gcc's
# ASan/LSan/UBSan/TSan runtimes, clang and its libFuzzer runtime.
have_lib libasan.so || need="$need libasan8"
have_lib libubsan.so || need="$need libubsan1"
have_lib libtsan.so || need="$need libtsan2"
command -v clang >/dev/null 2>&1 || need="$need clang"
{ command -v clang >/dev/null 2>&1 &&
  [ -f "$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a)" ]; } || need="$need libclang-rt-dev"
# The ARM preset tables are checked by aarch64 test builds under qemu-user:
# a cross compiler, the arm64 libpfm4 and libcsv, qemu-aarch64-static.
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need="$need gcc-aarch64-linux-gnu"
have_cross() { command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 &&
	[ -f "$(aarch64-linux-gnu-gcc -print-file-name="$1")" ]; }
have_cross libpfm.a || need="$need libpfm4-dev:arm64"
have_cross libcsv.a || need="$need libcsv-dev:arm64"
command -v qemu-aarch64-static >/dev/null 2>&1 || need="$need qemu-user-static"
# make check-pmu (deps.sh pmu): the whole aarch64 build (papi links the arm64
# jansson), QEMU's system emulator, and cpio to pack the guest's initramfs.
if [ "${1:-}" = pmu ]; then
	have_cross libjansson.a || need="$need libjansson-dev:arm64"
	command -v qemu-system-aarch64 >/dev/null 2>&1 || need="$need qemu-system-arm"
	command -v cpio >/dev/null 2>&1 || need="$need cpio"
fi
# make compat-distro (deps.sh distro): debootstrap, for other releases' roots.
if [ "${1:-}" = distro ]; then
	command -v debootstrap >/dev/null 2>&1 || need="$need debootstrap"
fi
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$need"
	export DEBIAN_FRONTEND=noninteractive
	case "$need" in *:arm64*)
		# arm64 packages install beside the native ones (multiarch).
		dpkg --print-foreign-architectures | grep -qx arm64 || {
			dpkg --add-architecture arm64 && apt-get update -qq >/dev/null; } ;;
	esac
	# A stale package list is the usual reason an install fails: refresh once.
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq $need >/dev/null 2>&1 || {
		apt-get update -qq >/dev/null && apt-get -o DPkg::Lock::Timeout=600 install -y -qq $need >/dev/null
	}
else
	echo "deps: missing packages:$need (install them with apt-get as root)" >&2
	exit 1
fi

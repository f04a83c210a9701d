#!/usr/bin/env bats
# fortran.bats: the Fortran interface: generated fpapi.h/f90papi.h, the PAPIF_* calls from gfortran programs, PAPI 7.0's ftests.

load helper

setup() {
	papi_isolate
	TOP=$PAPI_TOP
	BUILD=${PAPI_BUILD:-$TOP/build}
	FC=${FC:-gfortran}
	SRC=$TOP/test/cli/fortran
	# make check-sanitize passes its sanitizer flags in CC: the Fortran
	# programs link the same runtimes.
	FSAN=$(printf '%s\n' ${CC:-} | grep -E -- '^-f(no-)?sanitize' | tr '\n' ' ')
	FLIBS="$FSAN $BUILD/libpapi.a -lpfm -lcsv -pthread -lm -lrt"
}

need_fc() {
	command -v "$FC" >/dev/null 2>&1 || skip "no Fortran compiler ($FC): make deps installs gfortran"
	[ -f "$BUILD/gen/fpapi.h" ] || skip "fpapi.h not generated: run make"
}

# fbuild NAME SRC [FLAGS...]: compile one test program into the test's temp dir.
fbuild() {
	local name=$1 src=$2
	shift 2
	"$FC" -cpp -I"$BUILD/gen" "$@" -o "$BATS_TEST_TMPDIR/$name" "$src" $FLIBS
}

@test "fortran: fpapi.h and f90papi.h hold papi.h's values, 32-bit negatives for presets" {
	need_fc
	grep -Eq '^#define PAPI_VER_CURRENT +117571584$' "$BUILD/gen/fpapi.h"
	grep -Eq '^#define PAPI_NULL +-1$' "$BUILD/gen/fpapi.h"
	grep -Eq '^#define PAPI_L1_DCM +\(\(-2147483647\) - 1\)$' "$BUILD/gen/fpapi.h"
	grep -Eq '^#define PAPI_TOT_INS +-2147483598$' "$BUILD/gen/fpapi.h"
	grep -Eq '^ +INTEGER, PARAMETER :: PAPI_EINVAL = -1$' "$BUILD/gen/f90papi.h"
	grep -Eq '^ +INTEGER, PARAMETER :: PAPIF_DMEM_MAXVAL = 12$' "$BUILD/gen/f90papi.h"
	[ "$(grep -c '^#define' "$BUILD/gen/fpapi.h")" -eq "$(grep -c 'PARAMETER ::' "$BUILD/gen/f90papi.h")" ]
	# nothing may exceed a 32-bit INTEGER
	run awk '/^#define/ && $3 ~ /^-?[0-9]+$/ && ($3 > 2147483647 || $3 < -2147483647) { print }' "$BUILD/gen/fpapi.h"
	[ -z "$output" ]
}

@test "fortran: every constant of PAPI 7.0's fpapi.h is generated with the same value at its level" {
	need_fc
	[ -f /usr/include/fpapi.h ] || skip "PAPI 7.0's fpapi.h not installed"
	run -0 sh "$TOP/libpapi/gen_fortran.sh" "${CC:-cc}" "$TOP/libpapi" gen70 70
	awk '/^#define/ { v = $3; for (i = 4; i <= NF; i++) v = v " " $i; print $2, v }' /usr/include/fpapi.h | sort > ref
	awk '/^#define/ { v = $3; for (i = 4; i <= NF; i++) v = v " " $i; print $2, v }' gen70/fpapi.h | sort > ours
	run comm -23 ref ours
	echo "$output"
	[ -z "$output" ]
	[ "$(wc -l < ref)" -gt 200 ]
}

@test "fortran: the generator follows papi.h (a changed value shows up)" {
	need_fc
	mkdir src out
	cp "$TOP"/libpapi/papi.h "$TOP"/libpapi/papiStdEventDefs.h src/
	sed -i 's/^#define PAPI_ENOIMPL\([ \t]*\)-19/#define PAPI_ENOIMPL\1-91/' src/papi.h
	run sh "$TOP/libpapi/gen_fortran.sh" "${CC:-cc}" src out
	[ "$status" -eq 0 ]
	grep -Eq '^#define PAPI_ENOIMPL +-91$' out/fpapi.h
	grep -Eq 'PAPI_ENOIMPL = -91$' out/f90papi.h
}

@test "fortran: the headers compile in fixed and free form" {
	need_fc
	printf '#include "fpapi.h"\n      program t\n      integer e\n      e = PAPI_L1_DCM\n      if (e .ge. 0) stop 1\n      end\n' > fixed.F
	printf 'program t\n  include "f90papi.h"\n  if (PAPI_TOT_INS >= 0) stop 1\n  if (PAPI_NULL /= -1) stop 2\nend program t\n' > free.f90
	"$FC" -cpp -I"$BUILD/gen" -Wall -Werror -Wno-unused $FSAN -o fixed fixed.F
	"$FC" -I"$BUILD/gen" -Wall -Werror -Wno-unused $FSAN -o free free.f90
	./fixed
	./free
}

@test "fortran: initialize, name events, count perf::TASK-CLOCK and perf::PAGE-FAULTS" {
	need_fc
	fbuild count "$SRC/count.F"
	run ./count
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *PASSED* ]]
	[[ "$output" =~ TASK-CLOCK\ [1-9][0-9]*\ PAGE-FAULTS\ [1-9][0-9]* ]]
}

@test "fortran: every spelling of the calls links: no underscore, two, upper case" {
	need_fc
	fbuild count_nou "$SRC/count.F" -fno-underscoring
	nm count_nou | grep -q ' U papif_library_init$' || nm count_nou | grep -q ' T papif_library_init$'
	run -0 ./count_nou
	[[ "$output" == *PASSED* ]]
	fbuild count_two "$SRC/count.F" -fsecond-underscore
	run -0 ./count_two
	[[ "$output" == *PASSED* ]]
	# upper case, as Cray's compiler spells them: a C caller stands in
	cat > upper.c <<-'C'
	void PAPIF_LIBRARY_INIT(int *check);
	void PAPIF_num_hwctrs(int *n);
	int main(void) { int v = 117571584, n = -1; PAPIF_LIBRARY_INIT(&v); PAPIF_num_hwctrs(&n); return v == 117571584 && n >= 0 ? 0 : 1; }
	C
	${CC:-cc} -o upper upper.c "$BUILD/libpapi.a" -lpfm -lcsv -pthread -lm -lrt
	./upper
	# a PAPI 7.0 program's Fortran calls pass its numbers to libpapi.so.7.0
	sed -i 's/117571584/117440512/g' upper.c
	${CC:-cc} -o upper70 upper.c -L"$BUILD" -l:libpapi.so.7.0 -Wl,-rpath,"$BUILD"
	LD_PRELOAD="$(san_preload "$BUILD/libpapi.so.7.0")" ./upper70
}

@test "fortran: PAPI 7.0's remaining calls (component domain and granularity, inherit, devices, unregster)" {
	need_fc
	fbuild more "$SRC/more.f90"
	run -0 ./more
	[[ "$output" == *"more: PASSED"* ]]
}

@test "fortran: hardware, executable and memory information, domains, string truncation" {
	need_fc
	fbuild hwinfo "$SRC/hwinfo.f90"
	run ./hwinfo
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *PASSED* ]]
	[[ "$output" == *"cpus $(getconf _NPROCESSORS_CONF) "* ]]
}

@test "fortran: read_ts, accum, reset, enum_event, event info, multiplex, threads, legacy counters, rates" {
	need_fc
	fbuild calls "$SRC/calls.f90"
	run ./calls
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *PASSED* ]]
	# PAPIF_perror prefixes the library's reason with the Fortran message
	[[ "$output" == *"calls: PAPI_TOT_INS"* ]]
	[[ "$output" =~ enumerated\ [0-9]+\ presets ]]
}

@test "fortran: the region API writes its report (PAPI_EVENTS=perf::TASK-CLOCK)" {
	need_fc
	command -v jq >/dev/null || skip "jq not installed"
	fbuild region "$SRC/region.f90"
	mkdir out
	PAPI_EVENTS=perf::TASK-CLOCK PAPI_OUTPUT_DIRECTORY=$PWD/out run ./region
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *PASSED* ]]
	report=$(find out -name '*.json' | head -n 1)
	[ -n "$report" ]
	# PAPI 7.0's layout: one entry per instance, each read once, names trimmed
	jq -e '[.threads["0"].regions[] | select(.name == "compute")] | length == 3' "$report"
	jq -e '[.threads["0"].regions[] | .["perf::TASK-CLOCK"].read_1 | tonumber] | length == 3 and min > 0' "$report"
	jq -e '[.threads["0"].regions[] | select(.name == "never-begun")] | length == 0' "$report"
	# and the aggregated one, on request
	rm -rf out && mkdir out
	PAPI_HL_LAYOUT=aggregated PAPI_EVENTS=perf::TASK-CLOCK PAPI_OUTPUT_DIRECTORY=$PWD/out run -0 ./region
	report=$(find out -name '*.json' | head -n 1)
	jq -e '.threads[0].regions[0].compute.region_count == 3' "$report"
	jq -e '.threads[0].regions[0].compute.read_count == 3' "$report"
	jq -e '.threads[0].regions[0].compute["perf::TASK-CLOCK"] > 0' "$report"
}

@test "fortran: the installed headers and library build a Fortran program" {
	need_fc
	make -C "$TOP" --no-print-directory -s BUILD="$BUILD" DESTDIR="$PWD/root" PREFIX=/usr install >/dev/null
	[ -f root/usr/include/fpapi.h ]
	[ -f root/usr/include/f90papi.h ]
	"$FC" -cpp -Iroot/usr/include -o count "$SRC/count.F" $FSAN root/usr/lib/libpapi.a -lpfm -lcsv -pthread -lm -lrt
	run ./count
	[ "$status" -eq 0 ]
	[[ "$output" == *PASSED* ]]
}

# The programs of PAPI 7.0's ftests Makefile (nineth needs a Fortran
# do_flops the test library does not have, so upstream does not build it).
FTESTS="strtest zero zeronamed first second tenth description fdmemtest accum cost
	case1 case2 clockres eventname fmatrixlowpapi fmultiplex1 johnmay2 fmultiplex2
	avail openmp serial_hl"

@test "fortran: PAPI 7.0's ftests compile, link against libpapi.a and pass or skip" {
	need_fc
	ex=/usr/share/doc/papi-examples/examples
	[ -d "$ex/ftests" ] || skip "papi-examples not installed ($ex)"
	cp "$ex"/ftests/*.F "$ex"/testlib/*.c "$ex"/testlib/*.h "$ex"/testlib/ftests_util.F .
	inc="-I. -I$BUILD/gen -I$TOP/libpapi"
	for c in test_utils do_loops clockcore; do
		${CC:-cc} -O1 -w $inc -c $c.c
	done
	"$FC" -g -O1 -Dlinux -ffixed-line-length-132 -w $inc -c ftests_util.F
	pass=0 skipped=0 failed=""
	for t in $FTESTS; do
		omp=""
		[ "$t" != openmp ] || omp=-fopenmp
		"$FC" -g -O1 -Dlinux -ffixed-line-length-132 -w $omp $inc -o "$t" "$t.F" \
			ftests_util.o test_utils.o do_loops.o clockcore.o $FLIBS ||
			{ failed="$failed $t(build)"; continue; }
		rc=0
		PAPI_OUTPUT_DIRECTORY=$PWD timeout 120 "./$t" < /dev/null > "$t.out" 2>&1 || rc=$?
		if [ "$rc" -eq 0 ] && grep -q 'PASSED' "$t.out"; then
			pass=$((pass + 1))
		elif [ "$rc" -eq 0 ] && grep -q 'SKIPPED' "$t.out"; then
			skipped=$((skipped + 1))
			echo "# $t skipped: $(grep -v SKIPPED "$t.out" | tail -n 2 | tr -s ' \n' ' ')" >&3
		else
			failed="$failed $t(exit $rc)"
			tail -n 5 "$t.out"
		fi
	done
	echo "# ftests: $pass passed, $skipped skipped, failed:${failed:- none}" >&3
	[ -z "$failed" ]
	[ $((pass + skipped)) -eq $(echo $FTESTS | wc -w) ]
	# what needs no hardware counter must pass here
	for t in strtest fdmemtest clockres eventname avail serial_hl; do
		grep -q PASSED "$t.out"
	done
}

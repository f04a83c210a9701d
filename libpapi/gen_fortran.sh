#!/bin/sh
# gen_fortran.sh: writes the Fortran constant headers fpapi.h and f90papi.h from papi.h.
#
#   sh libpapi/gen_fortran.sh CC SRCDIR OUTDIR [LEVEL]
#
# awk collects every integer-valued object-like macro of SRCDIR/papi.h and
# SRCDIR/papiStdEventDefs.h (and the members of papi.h's anonymous enums) as
# the preprocessor leaves them at papi.h's default level, PAPI 7.2's, or at
# LEVEL (70, 71: -DPAPI_ABI_LEVEL=LEVEL, a PAPI 7.0 or 7.1 program's values);
# CC compiles a throw-away program that prints their values, so the C
# compiler, not this script, evaluates expressions such as
# (PAPI_L1_DCM_idx | PAPI_PRESET_MASK). awk then writes
#   OUTDIR/fpapi.h    #define NAME value   (for preprocessed .F / .F90 files)
#   OUTDIR/f90papi.h  INTEGER, PARAMETER :: NAME = value
# Fortran's default INTEGER is 32 bits: values from 2^31 to 2^32-1 are
# written as their negative two's-complement equivalents, and -2^31 as
# ((-2147483647) - 1) since 2147483648 is no valid literal. Values that do
# not fit 32 bits are left out. Exit status 1 when anything fails.
set -eu

[ $# -eq 3 ] || [ $# -eq 4 ] || { echo "usage: gen_fortran.sh CC SRCDIR OUTDIR [LEVEL]" >&2; exit 2; }
cc=$1 src=$2 out=$3 level=${4:+-DPAPI_ABI_LEVEL=$4}
tmp=$out/gen_fortran.$$
trap 'rm -f "$tmp".c "$tmp".bin "$tmp".txt' EXIT
mkdir -p "$out"

# The headers as the preprocessor leaves them at this level (-dD: with the
# macros' definitions), comments gone.
$cc $level -I"$src" -E -dD -P -x c "$src/papi.h" > "$tmp".c

# Names whose values are integer constants. Function-like macros, include
# guards, type aliases and string values are skipped; enum members are taken
# from enum blocks without a tag other than a typedef (PAPI_ENUM_*, ...).
awk '
	/^#define[ \t]+[A-Za-z_][A-Za-z_0-9]*[ \t]/ {
		name = $2
		if (name ~ /\(/) next
		val = $0; sub(/^#define[ \t]+[A-Za-z_0-9]+[ \t]+/, "", val)
		sub(/\/\*.*$/, "", val)
		if (val ~ /^[ \t]*$/ || val ~ /"/ || val ~ /long|char|unsigned|struct/) next
		# constants are upper case; papi.h at an older level renames calls
		if (name !~ /^PAPIF?_[A-Z0-9_]+$/) next
		print name; next
	}
	/^(typedef[ \t]+)?enum[ \t]*\{/ { inenum = 1 }
	inenum {
		line = $0; sub(/\/\*.*\*\//, "", line); sub(/\/\*.*$/, "", line)
		n = split(line, parts, ",")
		for (i = 1; i <= n; i++) {
			p = parts[i]; sub(/=.*/, "", p); gsub(/[ \t{};]/, "", p)
			sub(/^(typedef)?enum/, "", p)
			if (p ~ /^PAPI_[A-Z0-9_]+$/ && p !~ /_idx$/) print p
		}
		if ($0 ~ /\}/) inenum = 0
	}
' "$tmp".c | awk '!seen[$0]++' > "$tmp".txt

{
	echo '#include <stdio.h>'
	echo '#include "papi.h"'
	echo 'int main(void)'
	echo '{'
	awk '{ printf "\tprintf(\"%%s %%lld\\n\", \"%s\", (long long)(%s));\n", $1, $1 }' "$tmp".txt
	echo '	return 0;'
	echo '}'
} > "$tmp".c

$cc $level -I"$src" -o "$tmp".bin "$tmp".c
"$tmp".bin > "$tmp".txt

# fmt(v): the Fortran spelling of a 32-bit integer, or "" when it does not fit.
awk -v fp="$out/fpapi.h.tmp" -v f90="$out/f90papi.h.tmp" '
	function fmt(v) {
		if (v >= 2147483648 && v < 4294967296) v -= 4294967296
		if (v < -2147483648 || v > 2147483647) return ""
		if (v == -2147483648) return "((-2147483647) - 1)"
		return sprintf("%d", v)
	}
	BEGIN {
		head = "!  PAPI constants for Fortran, generated from papi.h by gen_fortran.sh: edit papi.h, not this file."
		print head > fp; print "" > fp
		print head > f90; print "" > f90
	}
	{
		v = fmt($2 + 0)
		if (v == "") next
		printf "#define %-24s %s\n", $1, v > fp
		printf "      INTEGER, PARAMETER :: %s = %s\n", $1, v > f90
	}
' "$tmp".txt
mv "$out/fpapi.h.tmp" "$out/fpapi.h"
mv "$out/f90papi.h.tmp" "$out/f90papi.h"

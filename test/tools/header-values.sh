#!/bin/sh
# header-values.sh: compares our papi.h with an installed PAPI 7 papi.h, value by value.
#
#   sh test/tools/header-values.sh [-l LEVEL] [-r REFDIR] [OURDIR]
#   sh test/tools/header-values.sh -s [-r REFDIR] > FILE.h
#
# Takes every integer macro and enum constant of REFDIR/papi.h and
# REFDIR/papiStdEventDefs.h (default REFDIR /usr/include, OURDIR libpapi),
# the function-like macros applied to sample arguments, and the size, member
# offsets, member sizes and bit-field positions of every struct and union
# typedef there.  It writes one C program printing "NAME VALUE" lines, builds
# it once against each header, and diffs the two outputs. It also turns the
# reference's values into static assertions (every value, size and offset
# but the bit-field positions and the function-like macros' results) and
# compiles them against our header, so a difference also fails the
# compilation.
# -s prints those assertions instead: a header any C file can include after
# papi.h to check at compile time that it has that release's ABI (the
# reference's PAPI_VERSION names it). -l LEVEL builds ours with
# -DPAPI_ABI_LEVEL=LEVEL (70, 71, 72): the level to compare with the reference.
# Exit 0 when equal, 1 when they differ or ours does not compile, 2 on usage.
set -u
ref=/usr/include
asserts=0
level=
while getopts l:r:s o; do
	case $o in
	l) level="-DPAPI_ABI_LEVEL=$OPTARG" ;;
	r) ref=$OPTARG ;;
	s) asserts=1 ;;
	*) echo "usage: header-values.sh [-s] [-l LEVEL] [-r REFDIR] [OURDIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
ours=${1:-$(dirname "$0")/../../libpapi}
cc=${CC:-cc}
for f in "$ref/papi.h" "$ref/papiStdEventDefs.h" "$ours/papi.h" "$ours/papiStdEventDefs.h"; do
	[ -f "$f" ] || { echo "header-values.sh: $f: no such file" >&2; exit 2; }
done
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT

# The reference headers without comments, one logical line per line.
for h in papi.h papiStdEventDefs.h; do
	sed 's/\r$//' "$ref/$h"
done | awk '
	# strip /* */ comments, also across lines
	{
		line = $0
		while (1) {
			if (incom) {
				e = index(line, "*/"); if (!e) { line = ""; break }
				line = substr(line, e + 2); incom = 0
			}
			s = index(line, "/*"); if (!s) break
			out = substr(line, 1, s - 1); rest = substr(line, s + 2)
			e = index(rest, "*/")
			if (e) line = out " " substr(rest, e + 2)
			else { line = out; incom = 1; break }
		}
		print line
	}' > "$tmp/ref.txt"

# Object-like macros with a value that is not a type name.
awk '$1 == "#define" && $2 ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && NF >= 3 {
	v = $0; sub(/^[ \t]*#define[ \t]+[A-Za-z0-9_]+[ \t]+/, "", v)
	if (v ~ /^(unsigned[ \t]+)?long[ \t]+long[ \t]*$/) next
	if (v ~ /PAPI_[a-z]/) next
	print $2 }' "$tmp/ref.txt" | sort -u > "$tmp/macros"

# Function-like macros that do not call functions: NAME ARITY.
awk '$1 ~ /^#define$/ && $2 ~ /^[A-Za-z_][A-Za-z0-9_]*\(/ {
	d = $0; sub(/^[ \t]*#define[ \t]+/, "", d)
	name = d; sub(/\(.*/, "", name)
	args = d; sub(/^[^(]*\(/, "", args); sub(/\).*/, "", args)
	body = d; sub(/^[^)]*\)/, "", body)
	if (body ~ /PAPI_[a-z]/) next
	print name, split(args, a, ",") }' "$tmp/ref.txt" | sort -u > "$tmp/fnmacros"

# Enum constants: identifiers that open an item inside an enum body.
awk '
	/enum[ \t]*[A-Za-z0-9_]*[ \t]*\{?[ \t]*$/ || /enum[ \t]*\{/ { inenum = 1 }
	inenum {
		n = split($0, parts, ",")
		for (i = 1; i <= n; i++) {
			p = parts[i]; sub(/^[ \t{]*/, "", p)
			if (match(p, /^[A-Za-z_][A-Za-z0-9_]*/)) {
				id = substr(p, 1, RLENGTH)
				if (id != "enum" && id != "typedef") print id
			}
		}
	}
	inenum && /\}/ { inenum = 0 }' "$tmp/ref.txt" | sort -u > "$tmp/enums"

# Struct and union typedefs: "TYPE MEMBER" or "TYPE MEMBER :" for bit-fields.
tr '\n' ' ' < "$tmp/ref.txt" | sed 's/typedef[ \t]*\(struct\|union\)/\n&/g' | awk '
	/^typedef[ \t]*(struct|union)[ \t]*[A-Za-z0-9_]*[ \t]*\{/ {
		body = $0; sub(/^[^{]*\{/, "", body)
		close_ = index(body, "}"); if (!close_) next
		rest = substr(body, close_ + 1); body = substr(body, 1, close_ - 1)
		if (!match(rest, /^[ \t]*[A-Za-z_][A-Za-z0-9_]*/)) next
		type = substr(rest, RSTART, RLENGTH); gsub(/[ \t]/, "", type)
		n = split(body, decl, ";")
		for (i = 1; i <= n; i++) {
			d = decl[i]; bit = (d ~ /:/) ? " :" : ""
			sub(/:.*/, "", d); sub(/\[.*/, "", d); sub(/[ \t]+$/, "", d)
			if (!match(d, /[A-Za-z_][A-Za-z0-9_]*$/)) continue
			print type, substr(d, RSTART, RLENGTH) bit
		}
	}' > "$tmp/members"

for f in macros enums members; do
	[ -s "$tmp/$f" ] || { echo "header-values.sh: found no $f in $ref/papi.h" >&2; exit 2; }
done

# The program: the same text builds against either header.
{
	printf '%s\n' '#include <stdio.h>' '#include <stddef.h>' '#include <string.h>' \
		'#include <limits.h>' '#include "papi.h"' \
		'#ifdef ASSERTS' \
		'#define LL(x) ((x) == LLONG_MIN ? "(-0x7fffffffffffffffLL - 1)" : (snprintf(num, sizeof num, "%lldLL", (long long)(x)), num))' \
		'static char num[32];' \
		'#define V(n, e) printf("_Static_assert((long long)(%s) == %s && sizeof(%s) == %zu, \"%s\");\n", #e, LL((long long)(e)), #e, sizeof(e), n)' \
		'#define B(n, e) (void)(e)' \
		'#define FN(n, e) (void)0' \
		'#define MISSING(n) (void)0' \
		'#else' \
		'#define V(n, e) printf("%s %lld %zu\n", n, (long long)(e), sizeof(e))' \
		'#define B V' \
		'#define FN V' \
		'#define MISSING(n) printf("%s MISSING\n", n)' \
		'#endif' \
		'static unsigned char buf[65536];' \
		'/* first set bit of a bit-field set to 1 in a zeroed object */' \
		'static long bitpos(size_t size) { for (size_t i = 0; i < size; i++) for (int b = 0; b < 8; b++) if (buf[i] >> b & 1) return (long)(i * 8 + b); return -1; }' \
		'int main(void) {'
	while read -r m; do
		printf '#ifdef %s\n\tV("%s", %s);\n#else\n\tMISSING("%s");\n#endif\n' "$m" "$m" "$m" "$m"
	done < "$tmp/macros"
	while read -r e; do
		printf '\tV("%s", %s);\n' "$e" "$e"
	done < "$tmp/enums"
	while read -r m n; do
		printf '#ifdef %s\n' "$m"
		for a in '0x7a,0x5b,0x3c,0x1d' '0x40000005,1,2,3' '0x80000003,4,5,6' '(int)0xC0000001,7,8,9' '0x2f0413,0,0,0'; do
			args=$(echo "$a" | cut -d, -f1-"$n")
			printf '\tFN("%s(%s)", %s(%s));\n' "$m" "$args" "$m" "$args"
		done
		printf '#else\n\tMISSING("%s");\n#endif\n' "$m"
	done < "$tmp/fnmacros"
	cut -d' ' -f1 "$tmp/members" | uniq | while read -r t; do
		printf '\tV("sizeof(%s)", sizeof(%s));\n' "$t" "$t"
	done
	while read -r t m bit; do
		if [ -n "$bit" ]; then
			printf '\tmemset(buf, 0, sizeof buf); ((%s *)buf)->%s = 1;\n' "$t" "$m"
			printf '\tB("bit(%s.%s)", bitpos(sizeof(%s)));\n' "$t" "$m" "$t"
		else
			printf '\tV("offsetof(%s.%s)", offsetof(%s, %s));\n' "$t" "$m" "$t" "$m"
			printf '\tV("sizeof(%s.%s)", sizeof(((%s *)0)->%s));\n' "$t" "$m" "$t" "$m"
		fi
	done < "$tmp/members"
	printf '\treturn 0;\n}\n'
} > "$tmp/values.c"

$cc -std=gnu11 -w -I "$ref" -o "$tmp/ref" "$tmp/values.c" || { echo "header-values.sh: the reference header does not build" >&2; exit 2; }
$cc -std=gnu11 -w -DASSERTS -I "$ref" -o "$tmp/ref_asserts" "$tmp/values.c" || exit 2
release=$(printf '#include "papi.h"\nREL PAPI_VERSION\n' | $cc -E -P -I "$ref" -x c - | sed -n 's/^REL //p')
release=$(( ($release >> 24) & 255 )).$(( ($release >> 16) & 255 ))
{
	echo "/* PAPI $release's ABI as $ref/papi.h defines it, made by test/tools/header-values.sh -s:"
	echo " * every constant's value and every struct's size, member offsets and member"
	echo " * sizes, checked at compile time. Include it after papi.h. */"
	echo '#include <stddef.h>'
	"$tmp/ref_asserts"
	echo "#define PAPI_ABI_ASSERTIONS $("$tmp/ref_asserts" | grep -c '^_Static_assert')"
} > "$tmp/asserts.h" || exit 2
if [ "$asserts" = 1 ]; then
	cat "$tmp/asserts.h"
	exit 0
fi

$cc -std=gnu11 -w $level -I "$ours" -o "$tmp/ours" "$tmp/values.c" || { echo "header-values.sh: our header lacks names of the reference (see errors above)" >&2; exit 1; }
"$tmp/ref" > "$tmp/ref.out" && "$tmp/ours" > "$tmp/ours.out" || exit 1
echo "# compared $(wc -l < "$tmp/ref.out") values: $(wc -l < "$tmp/macros") macros, $(wc -l < "$tmp/fnmacros") function-like macros, $(wc -l < "$tmp/enums") enum constants, $(wc -l < "$tmp/members") struct members"
status=0
if ! diff -u "$tmp/ref.out" "$tmp/ours.out" > "$tmp/diff"; then
	sed 's/^/# /' "$tmp/diff"
	status=1
fi
# The same values as static assertions, compiled against our header.
printf '#include "papi.h"\n#include "%s"\n' "$tmp/asserts.h" > "$tmp/asserts.c"
if $cc -std=gnu11 -w $level -I "$ours" -c -o "$tmp/asserts.o" "$tmp/asserts.c" 2> "$tmp/asserts.err"; then
	echo "# $(grep -c '^_Static_assert' "$tmp/asserts.h") static assertions hold"
else
	echo "# our header fails PAPI $release's static assertions:"
	grep 'error' "$tmp/asserts.err" | sed 's/^[^ ]* //; s/^/#   /' | head -n 20
	status=1
fi
exit $status

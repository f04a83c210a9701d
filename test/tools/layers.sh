#!/bin/sh
# layers.sh OBJDIR [SRCDIR]: check that libpapi's modules call downward only.
#
# OBJDIR holds one folder per layer, named N-name with N the layer's rank
# from the bottom (1-state ... 6-api), and one object file per module in it.
# Module A uses module B when A leaves undefined a global symbol that B
# defines (nm). The check fails, naming the modules and one symbol, on
#   upward: 2-kernel/perf -> 3-naming/native (pmu_core_unavailable_reason)
#       a module using a module of a higher layer;
#   loop: 5-core/eventset -> 5-core/overflow (ovf_attr) -> 5-core/eventset (es_lookup)
#       modules that use each other, directly or round a longer loop;
# and, given SRCDIR (the libpapi source folder), on
#   include: 3-naming/presets.c includes 5-core/core.h
#       a source or header including the header of a higher layer, or
#       internal.h (which gathers every layer for the tests and cmd/).
# Prints "layers: N modules, N uses, downward only" (a use: one module using
# another, whatever the number of symbols) and exits 0 when clean, else every
# problem and exit 1; 2 for a usage error.
set -u
obj=${1:?usage: layers.sh OBJDIR [SRCDIR]}
src=${2:-}
NM=${NM:-nm}
[ -d "$obj" ] || { echo "layers: no such folder: $obj" >&2; exit 2; }

tab=$(printf '\t')
list=$(find "$obj" -path '*/[0-9]-*/*.o' -type f | sort)
[ -n "$list" ] || { echo "layers: no objects under $obj/N-layer/" >&2; exit 2; }

status=0
# One line per symbol: "module<TAB>D|U<TAB>symbol".
syms=$(for o in $list; do
	layer=$(basename "$(dirname "$o")")
	mod="$layer/$(basename "$o" .o)"
	table=$($NM -g -P "$o") || exit 2
	printf '%s\n' "$table" | awk -v m="$mod" -v OFS="$tab" '
		$2 == "U" || $2 == "w" { print m, "U", $1; next }
		$2 ~ /^[A-Z]$/ { print m, "D", $1 }'
done) || { echo "layers: nm failed" >&2; exit 2; }

out=$(echo "$syms" | awk -F "$tab" '
function rank(m) { return m + 0 }	# "5-core/eventset" -> 5
function dfs(u,   n, a, i, v, k, path) {
	color[u] = 1
	stack[++sp] = u
	n = split(adj[u], a, " ")
	for (i = 1; i <= n; i++) {
		v = a[i]
		if (color[v] == 1) {	# back edge: the loop is stack[v..top] -> v
			for (k = sp; k > 0 && stack[k] != v; k--)
				;
			path = v
			for (; k < sp; k++)
				path = path " -> " stack[k + 1] " (" via[stack[k], stack[k + 1]] ")"
			path = path " -> " v " (" via[u, v] ")"
			print "loop: " path
			bad = 1
		} else if (!color[v])
			dfs(v)
	}
	color[u] = 2
	sp--
}
$2 == "D" { def[$3] = $1; mods[$1] = 1; next }
$2 == "U" { use[++nu] = $1 "\t" $3; mods[$1] = 1 }
END {
	for (i = 1; i <= nu; i++) {
		split(use[i], f, "\t")
		if (!(f[2] in def) || def[f[2]] == f[1])
			continue
		a = f[1]; b = def[f[2]]
		if (!((a, b) in via)) {
			via[a, b] = f[2]
			adj[a] = adj[a] " " b
			nedge++
			if (rank(b) > rank(a)) {
				print "upward: " a " -> " b " (" f[2] ")"
				bad = 1
			}
		}
	}
	for (m in mods)
		if (!color[m])
			dfs(m)
	nm = 0
	for (m in mods)
		nm++
	if (bad)
		exit 1
	printf "layers: %d modules, %d uses, downward only\n", nm, nedge
}') || status=1
printf '%s\n' "$out" | sort

if [ -n "$src" ]; then
	incs=$(mktemp)
	trap 'rm -f "$incs"' EXIT
	for f in $(find "$src" -path '*/[0-9]-*/*.[ch]' -type f | sort); do
		here=$(basename "$(dirname "$f")")
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1 \2/' |
		while read -r line inc; do
			case "$inc" in
			internal.h)
				echo "include: $here/$(basename "$f"):$line includes internal.h (include your layer's header)"
				;;
			[0-9]-*/*)
				if [ "${inc%%-*}" -gt "${here%%-*}" ]; then
					echo "include: $here/$(basename "$f"):$line includes $inc (a higher layer)"
				fi
				;;
			esac
		done
	done > "$incs"
	if [ -s "$incs" ]; then
		cat "$incs"
		status=1
	fi
fi
exit $status

#!/bin/sh
# layers.sh [-g DIR [-x GLOB]...]... OBJDIR [SRCDIR]: check that libpapi's
# modules call downward only, and that no modules call each other round a loop.
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
# A folder of OBJDIR that is not a layer (sde/: libsde) and each folder given
# with -g (cmd/) is a group of its own, without layers: its modules may use
# each other, but never round a loop, reported the same way
#   loop: sde/record -> sde/registry (sde_lock) -> sde/record (sde_rec_read)
# A -x GLOB after a -g leaves out that folder's objects whose file name
# matches GLOB (and so the uses of their symbols).
# -p PIPE[:SRC] checks a pipeline (cmd/stat/): PIPE holds one folder per
# stage, N-name, 1 the base every stage may use and the highest the driver
# that calls the stages in turn; any other stage uses only its own folder
# and the base, so no stage calls another, reported as
#   across: 5-report/text -> 3-count/sets (st_sets_read)
# and given SRC (the pipeline's source folder), a stage's source including
# another stage's header (but the base's) is
#   include: 5-report/text.c:9 includes 3-count/count.h (another stage)
# Prints "layers: N modules, N uses, downward only" (a use: one module using
# another, whatever the number of symbols), one line "NAME: N modules,
# N uses, no loop" per group, and exits 0 when all is clean; else every
# problem and exit 1; 2 for a usage error.
set -u
NM=${NM:-nm}
tab=$(printf '\t')
nl='
'
groups=		# one line per -g: "DIR<TAB>GLOB GLOB ..."
pipes=		# one line per -p: "DIR<TAB>SRC"
usage="usage: layers.sh [-g DIR [-x GLOB]...]... [-p DIR[:SRC]]... OBJDIR [SRCDIR]"
while getopts g:x:p: opt; do
	case $opt in
	p)
		case $OPTARG in
		*:*) pipes="$pipes${OPTARG%%:*}$tab${OPTARG#*:}$nl" ;;
		*) pipes="$pipes$OPTARG$tab$nl" ;;
		esac
		;;
	g) groups="$groups$OPTARG$tab$nl" ;;
	x)
		[ -n "$groups" ] || { echo "layers: -x before any -g" >&2; exit 2; }
		groups="${groups%$nl} $OPTARG$nl"
		;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
obj=${1:?$usage}
src=${2:-}
[ -d "$obj" ] || { echo "layers: no such folder: $obj" >&2; exit 2; }

list=$(find "$obj" -path '*/[0-9]-*/*.o' -type f | sort)
[ -n "$list" ] || { echo "layers: no objects under $obj/N-layer/" >&2; exit 2; }

# symbols OBJECT...: one line per symbol, "module<TAB>D|U<TAB>symbol", the
# module named folder/file.
symbols() {
	for o in "$@"; do
		mod="$(basename "$(dirname "$o")")/$(basename "$o" .o)"
		table=$($NM -g -P "$o") || return 2
		printf '%s\n' "$table" | awk -v m="$mod" -v OFS="$tab" '
			$2 == "U" || $2 == "w" { print m, "U", $1; next }
			$2 ~ /^[A-Z]$/ { print m, "D", $1 }'
	done
}

# graph NAME RANKED: from symbols() lines, print each upward use (RANKED 1:
# by the layer number that starts a module's name; RANKED 2: a pipeline,
# each use across stages but into the lowest or from the highest) and each
# loop and exit 1, or print the closing line.
graph() {
	awk -F "$tab" -v name="$1" -v ranked="$2" '
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
				if (ranked == 1 && rank(b) > rank(a)) {
					print "upward: " a " -> " b " (" f[2] ")"
					bad = 1
				}
				if (ranked == 2 && rank(a) != rank(b) && rank(b) != 1) {
					across[++nacross] = a "\t" b "\t" f[2]
				}
			}
		}
		top = 0
		for (m in mods)
			if (rank(m) > top)
				top = rank(m)
		for (i = 1; i <= nacross; i++) {
			split(across[i], f, "\t")
			if (rank(f[1]) != top) {
				print "across: " f[1] " -> " f[2] " (" f[3] ")"
				bad = 1
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
		printf "%s: %d modules, %d uses, %s\n", name, nm, nedge,
		       ranked == 1 ? "downward only" : ranked == 2 ? "one way" : "no loop"
	}'
}

# group DIR GLOBS: DIR's objects but those named like one of GLOBS, as a group.
group() {
	members=
	for o in $(find "$1" -maxdepth 1 -name '*.o' -type f | sort); do
		keep=1
		set -f	# the globs name objects, not files of the current folder
		for g in $2; do
			case "$(basename "$o")" in $g) keep=0 ;; esac
		done
		set +f
		[ "$keep" = 0 ] || members="$members $o"
	done
	[ -n "$members" ] || { echo "layers: no objects in $1" >&2; return 2; }
	gsyms=$(symbols $members) || { echo "layers: nm failed" >&2; return 2; }
	gout=$(printf '%s\n' "$gsyms" | graph "$(basename "$1")" 0)
	r=$?
	printf '%s\n' "$gout" | sort
	return $r
}

status=0
syms=$(symbols $list) || { echo "layers: nm failed" >&2; exit 2; }
out=$(printf '%s\n' "$syms" | graph layers 1) || status=1
printf '%s\n' "$out" | sort

for d in $(find "$obj" -mindepth 1 -maxdepth 1 -type d ! -name '[0-9]-*' | sort); do
	[ -n "$(find "$d" -maxdepth 1 -name '*.o')" ] || continue
	group "$d" ""
	r=$?
	[ "$r" -ne 2 ] || exit 2
	[ "$r" -eq 0 ] || status=1
done
# each CHECK LINES: CHECK DIR ARG for each line "DIR<TAB>ARG" of LINES
# (the -g and -p options): a failure sets status, a usage error exits 2.
each() {
	while IFS="$tab" read -r d arg; do
		[ -n "$d" ] || continue
		[ -d "$d" ] || { echo "layers: no such folder: $d" >&2; exit 2; }
		"$1" "$d" "$arg"
		r=$?
		[ "$r" -ne 2 ] || exit 2
		[ "$r" -eq 0 ] || status=1
	done <<LINES
$2
LINES
}
each group "$groups"

# pipe DIR SRC: the pipeline in DIR (and its sources' includes in SRC).
pipe() {
	plist=$(find "$1" -path '*/[0-9]-*/*.o' -type f | sort)
	[ -n "$plist" ] || { echo "layers: no objects under $1/N-stage/" >&2; return 2; }
	psyms=$(symbols $plist) || { echo "layers: nm failed" >&2; return 2; }
	pout=$(printf '%s\n' "$psyms" | graph "$(basename "$1")" 2)
	r=$?
	printf '%s\n' "$pout" | sort
	[ -n "$2" ] || return $r
	top=$(find "$2" -mindepth 1 -maxdepth 1 -type d -name '[0-9]-*' | sed 's|.*/||' | sort -n | tail -1)
	for f in $(find "$2" -path '*/[0-9]-*/*.[ch]' -type f | sort); do
		here=$(basename "$(dirname "$f")")
		[ "$here" != "$top" ] || continue
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed 's/^\([0-9]*\):.*"\([^"]*\)".*/\1 \2/' |
		while read -r line inc; do
			case "$inc" in
			[0-9]-*/*|plan.h|count.h|compute.h|report.h)
				;;
			*) continue ;;
			esac
			stage=${inc%%/*}
			[ "$stage" != "$inc" ] || stage=$(basename "$(dirname "$(find "$2" -name "$inc" | head -1)")")
			if [ "$stage" != "$here" ] && [ "${stage%%-*}" != 1 ]; then
				echo "include: $here/$(basename "$f"):$line includes $inc (another stage)"
				r=1
			fi
		done
	done | { out=$(cat); [ -z "$out" ] || { printf '%s\n' "$out"; exit 1; }; }
	[ $? -eq 0 ] || r=1
	return $r
}
each pipe "$pipes"

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

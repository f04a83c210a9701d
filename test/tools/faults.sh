#!/bin/sh
# faults.sh: papi's commands and a libpapi client under strace's fault
# injection: each system call they make that can fail is failed in turn,
# at each of its occurrences, and every run must end cleanly.
#
# Usage: faults.sh [-n N] [-v] [-i CALL:ERRNO:WHEN] [-P PATH] WORK CLIENT [SCENARIO...]
#   WORK    test/lib/fault_work.c built static (the command papi stat counts:
#           it makes none of the calls failed here, so each fault lands in papi)
#   CLIENT  test/lib/fault_client.c built static on libpapi.a (no loader)
#   -n N    fail each call's first N occurrences and its last (default: all)
#   -v      a line for every injection, not only for the bad ones
#   -i CALL:ERRNO:WHEN  only that fault (WHEN: a number, or "last": the
#           call's last occurrence in the plain run); its line is printed
#   -P PATH only the calls on PATH count and fail (strace -P): -i read:EIO:1
#           -P /proc/cpuinfo fails the first read of that file
#   SCENARIO  stat stat-I stat-r stat-o stat-save stat-ptrace avail native
#           client (default: all)
# Environment: PAPI_BIN (the papi under test), FAULT_TIMEOUT (seconds a run
# may take, default 20).
#
# First a plain run under strace counts each call of the matrix below in each
# process (strace counts occurrences per process); then each (call, errno,
# occurrence) is injected with strace -f -e inject=CALL:error=ERRNO:when=N,
# in a session of its own under timeout. A run is judged:
#   crash      a signal ended it, or a sanitizer reported
#   hang       timeout ended it
#   leak       a process it started was left running
#   bad        any other wrong end: an exit status other than 0 or 1, no
#              "papi CMD: what failed: why" with status 1, a report cut
#              short, a file left cut short, a message of the library's own
#   clean      the documented error: status 1 and "papi CMD: what: why" (or
#              "papi CMD: write error", whose errno stdio does not keep); the
#              client: status 1 and a PAPI_E* code that PAPI_strerror knows
#   recovered  status 0 and the plain run's output (papi stat: a whole
#              report), as after a retried EINTR or a fall-back
#   degraded   status 0, papi avail's or papi native's output differs from
#              the plain run's: a /proc or sysfs file that could not be read
#              is left out of what it describes, without a word (a failure:
#              papi must say which file it could not read, and exit 1)
#   known      a crash inside libpfm4 (not ours to change): listed, not failed
#   unreached  the fault was never injected (the run took another path)
# The last line: "N injections, N clean errors, N recovered, N degraded,
# N unreached, N known, N crashes, N hangs, N leaks, N bad"; exit status 1
# when any run was degraded, a crash, hang, leak or bad.
set -u
max=0 verbose=0 only='' path=''
usage="usage: faults.sh [-n N] [-v] [-i CALL:ERRNO:WHEN] [-P PATH] WORK CLIENT [SCENARIO...]"
while getopts n:vi:P: o; do
	case $o in
	n) max=$OPTARG ;;
	v) verbose=1 ;;
	i) only=$OPTARG verbose=1 ;;
	P) path=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
work=$1 client=$2
shift 2
papi=${PAPI_BIN:?PAPI_BIN names the papi under test}
tmo=${FAULT_TIMEOUT:-20}
[ $# -gt 0 ] || set -- stat stat-I stat-r stat-o stat-save stat-ptrace avail native client

# The matrix: each call and the errnos it is failed with.
errnos() {
	case $1 in
	perf_event_open) echo EMFILE EACCES ENOENT EBUSY ;;
	read | pread64) echo EINTR EIO ;;
	open | openat | mmap) echo ENOMEM ;;
	write) echo ENOSPC ;;
	clone | clone3 | fork | vfork) echo EAGAIN ;;
	ptrace) echo EPERM ;;
	esac
}
calls=perf_event_open,read,pread64,open,openat,mmap,write,clone,clone3,fork,vfork,ptrace

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
: > "$dir/results"

# scenario NAME: the run's command line (cmd, split on blanks), whether
# strace follows its children (follow), the file it writes (file) and how its
# output is judged (kind: text, a papi stat report; same, the plain run's
# output; client).
scenario() {
	follow=-f file='' kind=text
	case $1 in
	stat) cmd="$papi stat -e perf::TASK-CLOCK,perf::PAGE-FAULTS $work 0" ;;
	stat-I) cmd="$papi stat -I 40 -e perf::TASK-CLOCK $work 100" ;;
	stat-r) cmd="$papi stat -r 3 -e perf::TASK-CLOCK $work 0" ;;
	stat-o) cmd="$papi stat -o report.txt -e perf::TASK-CLOCK,perf::PAGE-FAULTS $work 0" file=report.txt ;;
	stat-save) cmd="$papi stat --save run.json -e perf::TASK-CLOCK $work 0" file=run.json ;;
	# papi stat's own ptrace of the command: strace must not trace that child.
	stat-ptrace) cmd="$papi stat --per-thread -e perf::TASK-CLOCK $work 0" follow= ;;
	avail) cmd="$papi avail" kind=same ;;
	native) cmd="$papi native" kind=same ;;
	client) cmd=$client kind=client ;;
	*) echo "faults.sh: unknown scenario $1" >&2; exit 2 ;;
	esac
}

# run [CALL ERRNO WHEN]: the scenario's command under strace, in a fresh
# directory and session; sets rc and took, and leaves out, err, trace and
# sid (the session) there.
run() {
	rm -rf "$dir/run" && mkdir "$dir/run" && cd "$dir/run" || exit 1
	inject=
	[ $# = 0 ] || inject="-e inject=$1:error=$2:when=$3"
	t0=$(date +%s)
	# shellcheck disable=SC2086
	setsid sh -c 'echo $$ > sid; exec "$@"' sh timeout -s KILL "$tmo" \
		strace $follow -qq -o trace ${path:+-P "$path"} -e trace="$calls,execve" $inject $cmd \
		> out 2> err < /dev/null
	rc=$?
	took=$(($(date +%s) - t0))
}

# report_ok: whether the run's papi stat report (on standard error, or in
# its -o file) is whole: each event counted or said why not, the times last.
report_ok() {
	f=err
	[ "$file" != report.txt ] || f=report.txt
	[ -f "$f" ] && grep -q '^ Counts of ' "$f" && grep -Eq ' s +(±.*)?sys$' "$f" || return 1
	for ev in perf::TASK-CLOCK perf::PAGE-FAULTS; do
		case $cmd in *$ev*) grep -q " $ev" "$f" || return 1 ;; esac
	done
}

# file_ok: whether the file the run writes is whole, or absent after a
# failure.
file_ok() {
	[ -n "$file" ] || return 0
	if [ ! -e "$file" ]; then
		[ "$rc" != 0 ]
		return
	fi
	case $file in
	run.json) [ -s run.json ] &&
		jq -e '.format == "papi-stat" and (.events | length) == 1' run.json > /dev/null 2>&1 ;;
	report.txt) report_ok ;;
	esac
}

# errtext ERRNO: the C library's text for the errnos a message may give.
errtext() {
	case $1 in
	ENOSPC) echo "No space left on device" ;;
	*) echo "$1" ;;
	esac
}

# known_crash: whether the crash is one inside libpfm4: its pfmlib_getl
# (4.13) writes through a NULL buffer when the first read of a file it reads
# line by line fails, as the read of /proc/mounts does here.
known_crash() {
	fd=$(sed -n 's/.*openat(AT_FDCWD, "\/proc\/mounts", .*) = \([0-9]*\)$/\1/p' trace | tail -n 1)
	[ -n "$fd" ] && grep -q "read($fd, .*(INJECTED)" trace
}

# judge [CALL ERRNO]: the verdict on the last run in v (one of the words
# above), and why in why.
judge() {
	why=
	if grep -Eq 'Sanitizer|runtime error:' err; then
		v=crash why=$(grep -Em1 'Sanitizer|runtime error:' err)
		return
	fi
	if [ "$took" -ge "$tmo" ]; then
		v=hang why="killed after ${tmo}s"
		return
	fi
	# papi exits 1 at most (papi stat: the command's status, and the
	# command here exits 0); above 128 a signal ended it
	if [ "$rc" -gt 128 ]; then
		v=crash why="status $rc: $(grep -m1 '+++ killed by' trace)"
		! known_crash || v=known why="libpfm4's pfmlib_getl on a failed read of /proc/mounts"
		return
	fi
	# a process still alive in the session (under -f strace waits for every
	# child, so a child left running by papi shows as a hang above)
	left=$(ps -e -o pid=,sid=,stat= | awk -v s="$(cat sid)" '$2 == s && $3 !~ /^Z/ { print $1 }')
	if [ -n "$left" ]; then
		v=leak why="process $left outlived papi"
		# shellcheck disable=SC2086
		kill -KILL $left 2> /dev/null
		return
	fi
	if ! file_ok; then
		v=bad why="$file is cut short or not valid (status $rc)"
		return
	fi
	case $kind in
	client)
		if [ "$rc" = 0 ] && grep -q '^fault_client: ok:' out && [ ! -s err ]; then
			v=recovered
		elif [ "$rc" = 1 ] && [ ! -s err ] &&
			grep -Eq '^fault_client: PAPI_[a-z_]+( \(.*\))?: -[0-9]+ \([^)]' out &&
			! grep -q 'unknown code' out; then
			v=clean why=$(cat out)
		elif [ "$rc" = 1 ] && [ "$(cat err)" = "fault_client: write error: $(errtext "${2:-}")" ]; then
			v=clean why=$(cat err)
		else
			v=bad why="status $rc: $(cat out err | head -n 3)"
		fi ;;
	*)
		msg=$(grep -E '^papi [a-z-]+: ([^ ].*: .|write error$)' err | head -n 1)
		if [ "$rc" = 1 ] && [ -n "$msg" ]; then
			v=clean why=$msg
		elif [ "$rc" = 0 ] && [ "$kind" = text ] && report_ok; then
			v=recovered
		elif [ "$rc" = 0 ] && [ "$kind" = same ]; then
			v=recovered
			[ ! -f "$dir/base.out" ] || cmp -s out "$dir/base.out" ||
				v=degraded why="status 0, output unlike the plain run's, and no message"
		else
			v=bad why="status $rc: $(head -c 300 err)"
		fi ;;
	esac
	[ "$v" = bad ] || grep -q '(INJECTED)' trace || v=unreached
}

for s in "$@"; do
	scenario "$s"
	rm -f "$dir/base.out"
	# the plain run: its output, and each call's most occurrences in one process
	run
	judge
	if [ "$v" != unreached ]; then
		echo "bad $s (none) - - : the run without faults: $v: $why" | tr '\n' ' ' >> "$dir/results"
		echo >> "$dir/results"
		continue
	fi
	cp out "$dir/base.out"
	# (without -f the lines have no process id)
	awk '{ p = $1; c = $2; if (p !~ /^[0-9]+$/) { p = 0; c = $1 }
		sub(/\(.*/, "", c); if (c ~ /^[a-z0-9_]+$/ && c != "execve") n[p " " c]++ }
		END { for (k in n) { split(k, a, " "); if (n[k] > m[a[2]]) m[a[2]] = n[k] }
		      for (c in m) print c, m[c] }' trace | sort > "$dir/counts"
	while read -r call n; do
		whens=$(awk -v n="$n" -v max="$max" 'BEGIN { for (i = 1; i <= n; i++)
			if (max == 0 || i <= max || i == n) printf "%d ", i }')
		es=$(errnos "$call")
		if [ -n "$only" ]; then
			# one fault: its call with that errno, at that occurrence
			[ "$call" = "${only%%:*}" ] || continue
			es=${only#*:} whens=${only##*:}
			es=${es%%:*}
			[ "$whens" != last ] || whens=$n
		fi
		for e in $es; do
			for w in $whens; do
				run "$call" "$e" "$w"
				judge "$call" "$e"
				why=$(printf '%s' "$why" | tr '\n' ' ')	# one line a run
				echo "$v $s $call $e $w${why:+ : $why}" >> "$dir/results"
			done
		done
	done < "$dir/counts"
done

awk -v verbose="$verbose" '
	{ n++; c[$1]++ }
	verbose == 1 || $1 ~ /^(degraded|crash|hang|leak|bad)$/ { print "--- " $0 }
	END {
		printf "%d injections, %d clean errors, %d recovered, %d degraded, %d unreached, %d known, %d crashes, %d hangs, %d leaks, %d bad\n",
			n, c["clean"], c["recovered"], c["degraded"], c["unreached"], c["known"], c["crash"], c["hang"], c["leak"], c["bad"]
		exit (c["degraded"] + c["crash"] + c["hang"] + c["leak"] + c["bad"] > 0)
	}' "$dir/results"

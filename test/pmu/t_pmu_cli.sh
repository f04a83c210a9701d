#!/bin/sh
# t_pmu_cli.sh: papi's commands on hardware events (stat, avail, native -c, chooser and --groups, cost, command-line).
#
# The workload is t_pmu_counting --loop N: 2N instructions of a known loop
# plus the program's start and exit, which are the same from run to run; so
# two runs differ by the instructions of the loops' difference.
. "$(dirname "$0")/lib.sh"
pmu_present || skip_all "no hardware PMU" "papi commands on hardware events"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LOOP=$PAPI_BUILD/test/pmu/t_pmu_counting
N=1000000

# ---- papi stat
papi stat -x , --domain user -o "$tmp/a" -e PAPI_TOT_INS,PAPI_TOT_CYC -- "$LOOP" --loop $N
ok $? "stat: exit status 0"
papi stat -x , --domain user -o "$tmp/b" -e PAPI_TOT_INS,PAPI_TOT_CYC -- "$LOOP" --loop $((3 * N))
a=$(csv_value "$tmp/a" PAPI_TOT_INS) b=$(csv_value "$tmp/b" PAPI_TOT_INS)
check "stat: 2N more iterations, 4N more instructions ($a, then $b)" near "$((b - a))" $((4 * N)) 20000 1
ca=$(csv_value "$tmp/a" PAPI_TOT_CYC) cb=$(csv_value "$tmp/b" PAPI_TOT_CYC)
if [ "${PMU_QEMU:-0}" = 1 ]; then
	check "stat: as many more cycles on QEMU ($ca, then $cb)" near "$((cb - ca))" $((4 * N)) 20000 1
else
	check "stat: cycles counted ($ca)" [ "${ca:-0}" -gt 0 ]
fi

papi stat -x , --domain user -o "$tmp/d" -- "$LOOP" --loop $N
d=$(csv_value "$tmp/d" PAPI_TOT_INS)
check "stat: the default events count the hardware ones (PAPI_TOT_INS $d)" near "${d:-0}" "$a" 0 5

# More events than counters: multiplexed, scaled, and refused by --no-multiplex.
evs=PAPI_TOT_INS
for e in $(papi avail -a --names); do
	case ",$evs," in *",$e,"*) continue ;; esac
	evs=$evs,$e
	[ "$(echo "$evs" | tr , '\n' | wc -l)" -lt 12 ] || break
done
# A CPU libpfm4 does not know has few presets (the generic table's): the
# kernel's generic events, per privilege level, make up the twelve. Who may
# not count the kernel (an ordinary user at perf_event_paranoid 2) takes the
# hypervisor's level instead.
k=k
if ! papi stat --strict -o /dev/null -e perf::INSTRUCTIONS:k true 2>/dev/null; then
	k=h
	diag "the kernel's level is not counted here: perf::*:h in place of perf::*:k"
fi
for e in perf::INSTRUCTIONS perf::CYCLES perf::INSTRUCTIONS:u perf::CYCLES:u \
	perf::INSTRUCTIONS:$k perf::CYCLES:$k perf::INSTRUCTIONS:u:$k perf::CYCLES:u:$k; do
	[ "$(echo "$evs" | tr , '\n' | wc -l)" -lt 12 ] || break
	evs=$evs,$e
done
diag "events: $evs"
papi stat -x , --domain user -o "$tmp/m" -e "$evs" -- "$LOOP" --loop $((20 * N))
ok $? "stat: 12 events count together, multiplexed"
m=$(csv_value "$tmp/m" PAPI_TOT_INS)
check "stat: PAPI_TOT_INS scaled to $m (the first run's $a and 38N more)" near "${m:-0}" $((a + 38 * N)) 0 10
share=$(awk -F, '$2 == "event" && $13 != "" && $13 < 100 { n++ } END { print n + 0 }' "$tmp/m")
check "stat: $share events counted part of the time (running_pct < 100)" [ "$share" -gt 0 ]
papi stat --no-multiplex -o /dev/null -e "$evs" true 2> "$tmp/err"
st=$?
check "stat --no-multiplex: status 1 when they do not fit ($st)" [ "$st" -eq 1 ]
check "stat --no-multiplex: names the events that do not fit together" grep -q "together with" "$tmp/err"

# ---- papi avail
papi avail -a --names > "$tmp/avail"
check "avail -a lists PAPI_TOT_INS" grep -qx PAPI_TOT_INS "$tmp/avail"
check "avail -a lists PAPI_TOT_CYC" grep -qx PAPI_TOT_CYC "$tmp/avail"
papi avail -e PAPI_TOT_INS > "$tmp/e"
check "avail -e PAPI_TOT_INS: available here" grep -q '^Available here: *yes' "$tmp/e"
n=$(papi avail | sed -n 's/^Of 108 possible events, \([0-9]*\) are available.*/\1/p')
check "avail: $n presets available" [ "${n:-0}" -gt 2 ]

# ---- papi native -c: the events the PMU counts are not marked
papi native -c > "$tmp/native"
check "native -c: perf::INSTRUCTIONS is countable" grep -q '^perf::INSTRUCTIONS *$' "$tmp/native"
check "native -c: perf::CYCLES is countable" grep -q '^perf::CYCLES *$' "$tmp/native"

# ---- papi chooser
papi chooser PAPI_TOT_INS > "$tmp/ch"
ok $? "chooser PAPI_TOT_INS: exit status 0"
check "chooser PAPI_TOT_INS: PAPI_TOT_CYC counts with it" grep -q '^PAPI_TOT_CYC ' "$tmp/ch"
papi chooser --groups $(echo "$evs" | tr , ' ') > "$tmp/g"
ok $? "chooser --groups: exit status 0"
ng=$(grep -c '^-e ' "$tmp/g")
check "chooser --groups: the 12 events need $ng groups" [ "$ng" -ge 2 ]
bad=0
while read -r opt list; do
	[ "$opt" = -e ] || continue
	eval "list=$list"	# the line is quoted for a shell, as a user pastes it
	papi stat --no-multiplex -o /dev/null -e "$list" true 2>/dev/null || { bad=$((bad + 1)); diag "does not fit: $list"; }
done < "$tmp/g"
check "chooser --groups: each group counts without multiplexing" [ "$bad" -eq 0 ]

# ---- papi cost: on cycles where they count
papi cost -t 200 > "$tmp/cost"
ok $? "cost: exit status 0"
check "cost: measured while counting PAPI_TOT_CYC" grep -q 'counting PAPI_TOT_CYC' "$tmp/cost"

# ---- papi command-line
papi command-line PAPI_TOT_INS PAPI_TOT_CYC -- "$LOOP" --loop $N > "$tmp/cl"
ok $? "command-line: exit status 0"
c=$(awk '$1 == "PAPI_TOT_INS" { print $2 }' "$tmp/cl")
check "command-line: PAPI_TOT_INS $c, as papi stat counted" near "${c:-0}" "$a" 20000 1
finish

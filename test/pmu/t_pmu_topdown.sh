#!/bin/sh
# t_pmu_topdown.sh: papi stat --topdown on a real kernel PMU driver: the level 1 shares in range, summing to 100 %, and equal to the arithmetic on the counts beside them.
#
# On a Neoverse core (make check-pmu's default, QEMU's neoverse-n1) the
# TOPDOWN group counts CPU_CYCLES, STALL_FRONTEND, STALL_BACKEND,
# INST_RETIRED and INST_SPEC; QEMU counts cycles and instructions (one
# cycle each under -icount), and opens the stall events and INST_SPEC but
# counts nothing for them. On a CPU without a top-down group (PMU_CPU=max,
# a64fx) --topdown must fail, saying so; another CPU's group is checked on
# the simulated PMU. The workload is t_pmu_counting --loop N (2N instructions and a
# constant).
. "$(dirname "$0")/lib.sh"
pmu_present || skip_all "no hardware PMU" "papi stat --topdown on hardware events"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LOOP=$PAPI_BUILD/test/pmu/t_pmu_counting
N=1000000

# metric_value FILE NAME: metric NAME's value in a papi stat -x , file ("" when not computed)
metric_value() {
	awk -F, -v n="$2" '$2 == "metric" && $3 == n { print $4; exit }' "$1"
}
# in_range X: 0 <= X <= 100
in_range() {
	awk -v x="$1" 'BEGIN { exit !(x != "" && x >= 0 && x <= 100) }'
}
# same X Y: |X - Y| <= 1e-6 (the CSV's values carry 9 significant digits)
same() {
	awk -v x="$1" -v y="$2" 'BEGIN { d = x - y; if (d < 0) d = -d; exit !(x != "" && y != "" && d <= 1e-6 * (y < 0 ? -y : y) + 1e-6) }'
}

pmu=$(papi avail | sed -n 's/^Core PMU (libpfm4) *: \([^ ]*\).*/\1/p')
diag "core PMU: ${pmu:-none libpfm4 knows}"
case "$pmu" in
arm_n1 | arm_n2 | arm_v1 | arm_v2) ;;
amd64_fam19h_zen4)	# no QEMU model counts the dispatch-slot events
	skip_all "Zen 4's group is checked on the simulated PMU only (t_sim_topdown)" "papi stat --topdown on hardware events"
	;;
*)
	# a CPU with a group of its own (Intel's) is checked on the simulated PMU
	if papi groups --names | grep -qx TOPDOWN; then
		skip_all "this CPU's top-down group is checked on the simulated PMU only (t_sim_topdown)" \
			"papi stat --topdown on hardware events"
	fi
	papi stat --topdown -o /dev/null true 2> "$tmp/err"
	st=$?
	check "stat --topdown: status 1 on a CPU without top-down metrics ($st)" [ "$st" -eq 1 ]
	check "stat --topdown: says the CPU has none" grep -q "^papi stat: --topdown: no top-down metrics for this CPU" "$tmp/err"
	finish
	exit
	;;
esac

papi stat --topdown -x , --domain user -o "$tmp/a" -- "$LOOP" --loop $N
ok $? "stat --topdown: exit status 0"
papi stat --topdown -x , --domain user -o "$tmp/b" -- "$LOOP" --loop $((3 * N))
ok $? "stat --topdown: exit status 0 (3N)"
while read -r l; do diag "$l"; done < "$tmp/a"

# The inputs: the loop's instructions, counted by INST_RETIRED
a=$(csv_value "$tmp/a" INST_RETIRED) b=$(csv_value "$tmp/b" INST_RETIRED)
check "INST_RETIRED: 2N more iterations, 4N more instructions ($a, then $b)" near "$((b - a))" $((4 * N)) 20000 1
cyc=$(csv_value "$tmp/a" CPU_CYCLES) fe=$(csv_value "$tmp/a" STALL_FRONTEND) be=$(csv_value "$tmp/a" STALL_BACKEND)
check "CPU_CYCLES counted ($cyc)" [ "${cyc:-0}" -gt 0 ]
if [ "${PMU_QEMU:-0}" = 1 ]; then
	cb=$(csv_value "$tmp/b" CPU_CYCLES)
	check "CPU_CYCLES: as many more on QEMU ($cyc, then $cb)" near "$((cb - cyc))" $((4 * N)) 20000 1
fi
check "STALL_FRONTEND counted ($fe)" [ -n "$fe" ]
check "STALL_BACKEND counted ($be)" [ -n "$be" ]

# Level 1: each share in range, equal to the arithmetic on those counts
f=$(metric_value "$tmp/a" frontend_bound) k=$(metric_value "$tmp/a" backend_bound)
i=$(metric_value "$tmp/a" retiring_and_bad_speculation)
for m in "frontend_bound $f" "backend_bound $k" "retiring_and_bad_speculation $i"; do
	check "${m% *} = ${m#* } %: within [0, 100]" in_range "${m#* }"
done
check "frontend_bound = 100 * STALL_FRONTEND / CPU_CYCLES ($f)" same "$f" "$(awk -v a="$fe" -v c="$cyc" 'BEGIN { print 100 * a / c }')"
check "backend_bound = 100 * STALL_BACKEND / CPU_CYCLES ($k)" same "$k" "$(awk -v a="$be" -v c="$cyc" 'BEGIN { print 100 * a / c }')"
check "frontend_bound + backend_bound + retiring_and_bad_speculation = 100" same "$(awk -v a="$f" -v b="$k" -v c="$i" 'BEGIN { print a + b + c }')" 100

# INST_SPEC splits the issuing cycles; QEMU opens it but counts nothing,
# and then the two shares are not computed (a division by zero has no value)
spec=$(csv_value "$tmp/a" INST_SPEC)
r=$(metric_value "$tmp/a" retiring) s=$(metric_value "$tmp/a" bad_speculation)
if [ -n "$spec" ] && [ "$spec" != 0 ]; then
	check "retiring ($r) and bad_speculation ($s): within [0, 100]" eval 'in_range "$r" && in_range "$s"'
	check "retiring + bad_speculation = retiring_and_bad_speculation" same "$(awk -v a="$r" -v b="$s" 'BEGIN { print a + b }')" "$i"
	check "retiring = ($i %) * INST_RETIRED / INST_SPEC" same "$r" "$(awk -v i="$i" -v a="$a" -v s="$spec" 'BEGIN { print i * a / s }')"
else
	diag "INST_SPEC is not counted here: retiring and bad_speculation are left together"
	check "retiring is not computed without INST_SPEC" [ -z "$r" ]
	check "bad_speculation is not computed without INST_SPEC" [ -z "$s" ]
fi

# The text report: the group's heading and its four lines
papi stat --topdown --domain user -o "$tmp/t" -- "$LOOP" --loop $N
check "stat --topdown: the text report has the TOPDOWN heading" grep -q '^ TOPDOWN: Top-down level 1' "$tmp/t"
check "stat --topdown: frontend_bound in %" grep -Eq '^ +[0-9.]+ % +frontend_bound ' "$tmp/t"
papi stat --td-level 2 -o /dev/null true 2> "$tmp/err"
st=$?
check "stat --td-level 2: status 1, level 1 only here ($st)" [ "$st" -eq 1 ]
check "stat --td-level 2: says so" grep -q "has top-down level 1 only" "$tmp/err"
finish

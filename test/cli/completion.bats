#!/usr/bin/env bats
# completion.bats: the bash completion function, driven with COMP_WORDS/COMP_CWORD like bash does.
load helper

# complete WORD...: run _papi on the words (the last one is being completed);
# the candidates end up one a line in $output.
complete_words() {
	run bash -c '
		source "$PAPI_TOP/completions/bash/papi" || exit 3
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMPREPLY=()
		_papi || exit 4
		printf "%s\n" "${COMPREPLY[@]}"' complete "$@"
}

# A stand-in papi that knows some events, for the event-name logic (the real
# avail/native may not exist in this build).
fake_papi() {
	local f="$BATS_TEST_TMPDIR/fake/papi"
	mkdir -p "${f%/*}"
	cat > "$f" <<'SH'
#!/bin/sh
case "$1 $2" in
"--list-cmds ") printf 'stat\tcount\navail\tpresets\nnative\tnatives\nversion\tversions\n' ;;
"avail --names") printf 'PAPI_TOT_INS\nPAPI_TOT_CYC\n' ;;
"native --names") printf 'perf::TASK-CLOCK\nperf::PAGE-FAULTS\n' ;;
"stat --list-opts") printf -- '--event\tEV[,EV...]\n-e\tEV[,EV...]\n--output\tFILE\n-o\tFILE\n--pid\tPID[,PID...]\n-p\tPID[,PID...]\n--repeat\tN\n-r\tN\n--help\n-h\n' ;;
*) exit 1 ;;
esac
SH
	chmod +x "$f"
	echo "$f"
}

@test "bash: the first word completes to the binary's subcommands" {
	complete_words "$PAPI_BIN" ""
	[ "$status" -eq 0 ]
	[ "$output" = "$("$PAPI_BIN" --list-cmds | cut -f1)" ]
	complete_words "$PAPI_BIN" ve
	[ "$output" = version ]
	complete_words "$PAPI_BIN" he
	[ "$output" = help ]
}

@test "bash: options of the version command" {
	complete_words "$PAPI_BIN" version -
	[ "$status" -eq 0 ]
	[ "$(sort <<<"$output")" = "$(printf '%s\n' --help --json --list-opts -h -j | sort)" ]
	complete_words "$PAPI_BIN" version --j
	[ "$output" = --json ]
}

@test "bash: global options before the subcommand" {
	complete_words "$PAPI_BIN" --v
	[ "$output" = --version ]
	complete_words "$PAPI_BIN" --list
	[ "$output" = --list-cmds ]
}

@test "bash: papi help completes command names" {
	complete_words "$PAPI_BIN" help v
	[ "$output" = version ]
}

@test "bash: a binary that cannot answer falls back to the static command list" {
	complete_words /nonexistent/papi ""
	[ "$status" -eq 0 ]
	local want
	for want in version help native command-line avail decode encode chooser cost clockres \
		mem-info component hardware error-codes stat hl-report; do
		grep -qx -- "$want" <<<"$output" || { echo "missing $want"; false; }
	done
	complete_words /nonexistent/papi mem
	[ "$output" = mem-info ]
}

@test "bash: -e, --event and event operands complete to avail and native names" {
	local p
	p=$(fake_papi)
	complete_words "$p" stat -e PAPI_TOT_
	[ "$(sort <<<"$output")" = "$(printf '%s\n' PAPI_TOT_CYC PAPI_TOT_INS)" ]
	complete_words "$p" stat --event perf
	[ "$(sort <<<"$output")" = "$(printf '%s\n' perf::PAGE-FAULTS perf::TASK-CLOCK)" ]
	complete_words "$p" stat --event = perf
	[ "$(sort <<<"$output")" = "$(printf '%s\n' perf::PAGE-FAULTS perf::TASK-CLOCK)" ]
	complete_words "$p" avail PAPI_TOT_I
	[ "$output" = PAPI_TOT_INS ]
}

@test "bash: after a comma in an event list, the next event completes" {
	local p
	p=$(fake_papi)
	complete_words "$p" stat -e PAPI_TOT_INS,PAPI_TOT_
	[ "$(sort <<<"$output")" = "$(printf '%s\n' PAPI_TOT_INS,PAPI_TOT_CYC PAPI_TOT_INS,PAPI_TOT_INS)" ]
	# bash hands "PAPI_TOT_INS,perf::TA" over as PAPI_TOT_INS,perf, ::, TA
	complete_words "$p" stat -e PAPI_TOT_INS,perf :: TA
	[ "$output" = TASK-CLOCK ]
	complete_words "$PAPI_BIN" command-line perf::TASK-CLOCK,perf :: PAGE-F
	[ "$output" = PAGE-FAULTS ]
}

@test "bash: after an event and ':', its unit masks and qualifiers complete" {
	# papi stat refuses the qualifiers that sample; the others take them
	run -1 papi stat -e perf::TASK-CLOCK:period=1000 true
	run -1 papi stat -e perf::TASK-CLOCK:freq=10 true
	complete_words "$PAPI_BIN" stat -e perf :: TASK-CLOCK :
	grep -qx u <<<"$output"
	grep -qx k <<<"$output"
	! grep -qx 'period=\|freq=' <<<"$output"
	complete_words "$PAPI_BIN" stat -e perf :: TASK-CLOCK : u : pe
	[ -z "$output" ]
	complete_words "$PAPI_BIN" command-line perf :: TASK-CLOCK :
	grep -qx period= <<<"$output"
	grep -qx freq= <<<"$output"
	complete_words "$PAPI_BIN" native -e perf :: TASK-CLOCK : u : pe
	[ "$output" = period= ]
	LIBPFM_FORCE_PMU=skx complete_words "$PAPI_BIN" stat -e skx :: INST_RETIRED : AN
	[ "$output" = ANY_P ]
}

@test "bash: -o completes file names, -p process ids" {
	touch out-a.csv out-b.csv
	complete_words "$PAPI_BIN" stat -o out-
	[ "$(sort <<<"$output")" = "$(printf '%s\n' out-a.csv out-b.csv)" ]
	complete_words "$PAPI_BIN" stat --output = out-a
	[ "$output" = out-a.csv ]
	sleep 30 &
	local pid=$!
	complete_words "$PAPI_BIN" stat -p "${pid:0:3}"
	grep -qx "$pid" <<<"$output"
	! grep -q perf:: <<<"$output"
	complete_words "$PAPI_BIN" stat -p "1,${pid:0:3}"
	grep -qx "1,$pid" <<<"$output"
	kill "$pid"
}

@test "bash: papi stat's command completes without '--', then its arguments" {
	local p
	p=$(fake_papi)
	complete_words "$p" stat bas
	grep -qx bash <<<"$output"
	! grep -q PAPI_ <<<"$output"
	complete_words "$p" stat -e PAPI_TOT_INS -r 3 -o x.csv bas
	grep -qx bash <<<"$output"
	touch arg-file
	complete_words "$p" stat -e PAPI_TOT_INS bash arg-
	[ "$output" = arg-file ]
}

@test "bash: after papi stat's program, its arguments complete, not papi stat's options" {
	local p
	p=$(fake_papi)
	touch ./--our-file
	# no completion loaded for the program: its arguments are file names
	complete_words "$p" stat -e PAPI_TOT_INS bash --ou
	[ "$output" = --our-file ]
	complete_words "$p" stat bash -
	! grep -qx -- --event <<<"$output"
	! grep -qx -- -e <<<"$output"
	grep -qx -- --our-file <<<"$output"
	# an option of the program that papi stat has too takes the program's value
	complete_words "$p" stat -r 2 bash -e PAPI_TOT
	[ -z "$output" ]
	complete_words "$p" stat bash --output = out
	! grep -q -- out-a <<<"$output"
}

@test "bash: event names split at ':' by bash still complete" {
	local p
	p=$(fake_papi)
	# bash hands "perf::TA" over as three words: perf, ::, TA
	complete_words "$p" native -e perf :: TA
	[ "$output" = TASK-CLOCK ]
	complete_words "$p" native -e perf ::
	[ "$(sort <<<"$output")" = "$(printf '%s\n' PAGE-FAULTS TASK-CLOCK)" ]
}

@test "bash: after -- of papi stat, program names complete" {
	local p
	p=$(fake_papi)
	complete_words "$p" stat -e PAPI_TOT_INS -- bas
	grep -qx bash <<<"$output"
}

@test "bash: options of a subcommand come from its --list-opts" {
	local p
	p=$(fake_papi)
	complete_words "$p" stat --e
	[ "$output" = --event ]
}

@test "bash: papi hardware's --devices completes from the real binary" {
	complete_words "$PAPI_BIN" hardware --dev
	[ "$output" = --devices ]
}

@test "bash: event completion survives a binary whose avail fails" {
	complete_words "$PAPI_BIN" native -e x
	[ "$status" -eq 0 ]
}

@test "zsh: the completion file parses" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	run -0 zsh -n "$PAPI_TOP/completions/zsh/_papi"
}

# zsh_complete LINE: type LINE and TAB into an interactive zsh whose compsys
# has completions/zsh (on a pseudo-terminal, zsh/zpty), and print the line
# as completion left it. It waits for the line, not for a time.
zsh_complete() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	ln -sf "$PAPI_BIN" "$BATS_TEST_TMPDIR/bin/papi"
	printf '#!/bin/sh\n' > "$BATS_TEST_TMPDIR/bin/mytool"
	chmod +x "$BATS_TEST_TMPDIR/bin/mytool"
	run timeout 60 zsh -f -c '
		zmodload zsh/zpty || exit 3
		zpty z "zsh -f -i" || exit 3
		zpty -w z "PS1=; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D; path=($2 \$path)"
		# after TAB: to the start of the line, a marker the echo cannot show, run
		zpty -n -w z "$3"$'"'"'\t\x01print -r RES\x27\x27ULT: \x05\n'"'"'
		zpty -r z out "*RESULT: *"$'"'"'\n'"'"' || exit 4
		print -r -- "${${out##*RESULT: }%%$'"'"'\r'"'"'*}"
		zpty -d z' zc "$PAPI_TOP/completions/zsh" "$BATS_TEST_TMPDIR/bin" "$1"
}

@test "zsh: -o files, -e lists and qualifiers, and papi stat's command without '--'" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	touch out-a.csv
	# (print, which shows the line, drops the space completion adds)
	zsh_complete 'papi stat -o out-'
	[ "$output" = "papi stat -o out-a.csv" ]
	zsh_complete 'papi stat -e perf::TASK-CLOCK,perf::PAGE-F'
	[ "$output" = "papi stat -e perf::TASK-CLOCK,perf::PAGE-FAULTS" ]
	zsh_complete 'papi native -e perf::TASK-CLOCK:u:pe'
	[ "$output" = "papi native -e perf::TASK-CLOCK:u:period=" ]
	zsh_complete 'papi stat -e perf::TASK-CLOCK:u:pe'
	[ "$output" = "papi stat -e perf::TASK-CLOCK:u:pe" ]
	zsh_complete 'papi stat -e perf::TASK-CLOCK:u:fr'
	[ "$output" = "papi stat -e perf::TASK-CLOCK:u:fr" ]
	zsh_complete 'papi stat -e perf::TASK-CLOCK -r 2 mytoo'
	[ "$output" = "papi stat -e perf::TASK-CLOCK -r 2 mytool" ]
	zsh_complete 'papi command-line perf::PAGE-F'
	[ "$output" = "papi command-line perf::PAGE-FAULTS" ]
}

@test "zsh: after papi stat's program, its arguments complete, not papi stat's options" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	touch ./--our-file
	zsh_complete 'papi stat -e perf::TASK-CLOCK mytool --ou'
	[ "$output" = "papi stat -e perf::TASK-CLOCK mytool --our-file" ]
	zsh_complete 'papi stat mytool -e perf::TASK-CL'
	[ "$output" = "papi stat mytool -e perf::TASK-CL" ]
}

@test "fish: after papi stat's program, its arguments complete, not papi stat's options" {
	command -v fish >/dev/null || skip "fish is not installed"
	fish_complete 'papi stat -e perf::TASK-CLOCK mytool --ou'
	[ -z "$output" ]
	fish_complete 'papi stat mytool -e perf::TASK-CL'
	[ -z "$output" ]
	fish_complete 'papi stat -r 2 mytool -o '
	[ "$output" = "$(printf '%s\n' alpha beta)" ]
}

@test "fish: subcommands and version options complete" {
	command -v fish >/dev/null || skip "fish is not installed"
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	ln -sf "$PAPI_BIN" "$BATS_TEST_TMPDIR/bin/papi"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run -0 fish --no-config -c \
		"source '$PAPI_TOP/completions/fish/papi.fish'; complete -C 'papi '"
	grep -q "^version"$'\t' <<<"$output"
	grep -q "^help"$'\t' <<<"$output"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run -0 fish --no-config -c \
		"source '$PAPI_TOP/completions/fish/papi.fish'; complete -C 'papi version --'"
	grep -qx -- "--json" <<<"$(cut -f1 <<<"$output")"
}

# fish_complete LINE: fish's candidates for LINE, names only.
fish_complete() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	ln -sf "$PAPI_BIN" "$BATS_TEST_TMPDIR/bin/papi"
	printf '#!/bin/sh\n' > "$BATS_TEST_TMPDIR/bin/mytool"
	chmod +x "$BATS_TEST_TMPDIR/bin/mytool"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run -0 fish --no-config -c \
		"source '$PAPI_TOP/completions/fish/papi.fish'; complete -c mytool -x -a 'alpha beta';
		 complete -C \$argv[1] | cut -f1" "$1"
}

@test "fish: -o files, -p pids, -e lists and qualifiers, papi stat's command without '--'" {
	command -v fish >/dev/null || skip "fish is not installed"
	touch out-a.csv
	fish_complete 'papi stat -o out-'
	[ "$output" = out-a.csv ]
	fish_complete 'papi stat --output=out-'
	[ "$output" = --output=out-a.csv ]
	sleep 30 &
	local pid=$!
	fish_complete "papi stat -p 1,$pid"
	grep -qx "1,$pid" <<<"$output"
	kill "$pid"
	fish_complete 'papi stat -e perf::TASK-CLOCK,perf::PAGE-F'
	[ "$output" = perf::TASK-CLOCK,perf::PAGE-FAULTS ]
	fish_complete 'papi native -e perf::TASK-CLOCK:u:pe'
	[ "$output" = perf::TASK-CLOCK:u:period= ]
	fish_complete 'papi stat -e perf::TASK-CLOCK:u:peri'
	[ -z "$output" ]
	fish_complete 'papi stat -e perf::TASK-CLOCK:u:'
	grep -qx perf::TASK-CLOCK:u:k <<<"$output"
	! grep -q 'period=\|freq=' <<<"$output"
	fish_complete 'papi stat -e perf::TASK-CLOCK -r 2 mytoo'
	[ "$output" = mytool ]
	fish_complete 'papi stat -e perf::TASK-CLOCK mytool al'
	[ "$output" = alpha ]
	fish_complete 'papi command-line perf::TASK-CLOCK -- mytool b'
	[ "$output" = beta ]
	fish_complete 'papi command-line perf::PAGE-F'
	[ "$output" = perf::PAGE-FAULTS ]
}

# other_shells LINE WANT: zsh's completion of LINE is "LINE" with its last
# word WANT, fish's WANT (each where that shell is installed).
other_shells() {
	if command -v zsh >/dev/null; then
		zsh_complete "$1"
		[ "$output" = "${1% *} $2" ]
	fi
	if command -v fish >/dev/null; then
		fish_complete "$1"
		[ "$output" = "$2" ]
	fi
}

@test "group names: papi groups' operands in bash, zsh and fish" {
	complete_words "$PAPI_BIN" groups PAGE_F
	[ "$status" -eq 0 ]
	[ "$output" = PAGE_FAULTS ]
	complete_words "$PAPI_BIN" groups -v CONTEXT_
	[ "$output" = CONTEXT_SWITCHES ]
	other_shells 'papi groups PAGE_F' PAGE_FAULTS
}

@test "papi stat -g completes group names, -C the CPUs, after a comma too" {
	complete_words "$PAPI_BIN" stat -g PAGE_F
	[ "$output" = PAGE_FAULTS ]
	complete_words "$PAPI_BIN" stat -g CPI,PAGE_F
	[ "$output" = CPI,PAGE_FAULTS ]
	complete_words "$PAPI_BIN" stat -C ""
	[ "$(sort -n <<<"$output" | head -1)" = 0 ]
	[ "$(wc -l <<<"$output")" -eq "$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)" ]
	other_shells 'papi stat -g CONTEXT_S' CONTEXT_SWITCHES
}

@test "papi stat --cputype completes perf's core types, and ARM's core PMUs by name" {
	complete_words "$PAPI_BIN" stat --cputype ""
	[ "$status" -eq 0 ]
	grep -qx core <<<"$output"
	grep -qx atom <<<"$output"
	complete_words "$PAPI_BIN" stat --cputype a
	[ "$output" = atom ]
	other_shells 'papi stat --cputype at' atom
}

@test "papi stat --per-cputype completes, beside --per-cpu" {
	complete_words "$PAPI_BIN" stat --per-cpu
	[ "$(sort <<<"$output")" = "$(printf '%s\n' --per-cpu --per-cputype)" ]
	complete_words "$PAPI_BIN" stat --per-cput
	[ "$output" = --per-cputype ]
	other_shells 'papi stat --per-cput' --per-cputype
}

@test "papi stat -G and --for-each-cgroup complete the cgroups perf_event counts in, after a comma too" {
	local mnt
	mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; f = 1; exit }
		   $3 == "cgroup2" && !v { v = $2 } END { if (!f && v) print v }' /proc/self/mounts)
	[ -n "$mnt" ] || skip "no cgroup hierarchy for perf_event is mounted"
	local made=
	if [ "$(id -u)" -eq 0 ]; then
		made=$mnt/papi-compl-$$
		mkdir "$made"
	fi
	local want
	want=$(cd "$mnt" && for d in */; do [ -d "$d" ] && echo "${d%/}"; done | sort)
	complete_words "$PAPI_BIN" stat -a -G ""
	local got
	got=$(sort <<<"$output")
	local each=
	if [ -n "$want" ]; then
		complete_words "$PAPI_BIN" stat -a --for-each-cgroup "x,"
		each=$(sort <<<"$output")
	fi
	local zgot= fgot=
	if [ -n "$made" ] && command -v zsh >/dev/null; then
		zsh_complete "papi stat -a -G papi-compl-${$%?}"
		zgot=$output
	fi
	if [ -n "$made" ] && command -v fish >/dev/null; then
		fish_complete "papi stat -a -G papi-compl-${$%?}"
		fgot=$output
	fi
	[ -z "$made" ] || rmdir "$made"
	[ "$got" = "$want" ] || { echo "got: $got"; echo "want: $want"; false; }
	[ -z "$zgot" ] || [ "$zgot" = "papi stat -a -G papi-compl-$$" ] || { echo "zsh: $zgot"; false; }
	[ -z "$fgot" ] || [ "$fgot" = "papi-compl-$$" ] || { echo "fish: $fgot"; false; }
	[ -z "$made" ] || grep -qx "papi-compl-$$" <<<"$got"
	[ -z "$want" ] || [ "$each" = "$(sed 's/^/x,/' <<<"$want")" ]
}

@test "papi stat --td-level completes the levels, 1 and 2" {
	complete_words "$PAPI_BIN" stat --td-level ""
	[ "$output" = "$(printf '1\n2')" ]
	if command -v zsh >/dev/null; then
		zsh_complete 'papi stat --td-level 2'
		[ "$output" = "papi stat --td-level 2" ]
	fi
	if command -v fish >/dev/null; then
		fish_complete 'papi stat --td-level '
		[ "$output" = "$(printf '1\n2')" ]
	fi
}

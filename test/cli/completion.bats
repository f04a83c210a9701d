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
"stat --list-opts") printf -- '--event\n-e\n--help\n-h\n' ;;
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
	complete_words "$p" stat --events perf
	[ "$(sort <<<"$output")" = "$(printf '%s\n' perf::PAGE-FAULTS perf::TASK-CLOCK)" ]
	complete_words "$p" avail PAPI_TOT_I
	[ "$output" = PAPI_TOT_INS ]
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

@test "bash: event completion survives a binary whose avail fails" {
	complete_words "$PAPI_BIN" native -e x
	[ "$status" -eq 0 ]
}

# fish completion for papi: the binary lists its commands (papi --list-cmds),
# each command's options and what their values are (papi CMD --list-opts:
# "-o<TAB>FILE") and the event names (papi avail --names, papi native
# --names; papi native --names -e EVENT: what may follow "EVENT:").

# Subcommands to offer when the binary cannot be asked.
# Add new subcommands here.
set -g __papi_static_cmds stat command-line avail native chooser decode encode groups hl-report \
    cost clockres mem-info component hardware error-codes version help

function __papi_cmds
    set -l out (papi --list-cmds 2>/dev/null)
    if test (count $out) -gt 0
        printf '%s\n' $out
    else
        printf '%s\n' $__papi_static_cmds
    end
end

# The subcommand on the command line, if any.
function __papi_cmd
    set -l words (commandline -opc)
    for w in $words[2..-1]
        switch $w
            case '-*'
                continue
            case '*'
                echo $w
                return 0
        end
    end
    return 1
end

function __papi_opts
    set -l cmd (__papi_cmd); or return
    papi $cmd --list-opts 2>/dev/null
end

# __papi_optkind OPTION: what OPTION of the subcommand takes (FILE,
# PID[,PID...], EV[,EV...] ...); fails for an option without a value.
function __papi_optkind --argument-names opt
    for line in (__papi_opts)
        set -l f (string split \t -- $line)
        if test "$f[1]" = "$opt"; and set -q f[2]
            echo $f[2]
            return 0
        end
    end
    # a binary whose --list-opts does not say what values are
    contains -- $opt -e --event --events; and echo EV
end

# The index, among the words of the command line up to the cursor (the
# token being completed last), where the program that papi stat counts
# starts (its first operand, "--" or not) or that command-line runs (after
# "--"); fails when the token is not part of such a program.
function __papi_prog_start
    set -l words (commandline -opc) (commandline -ct)
    set -l cmd (__papi_cmd); or return 1
    # a "--" before the token (the token itself may be an option being typed)
    set -l i (contains -i -- -- (commandline -opc))
    if test -n "$i"
        echo (math $i + 1)
        return 0
    end
    test $cmd = stat; or return 1
    set -l skip 0
    for i in (seq 3 (count $words))
        set -l w $words[$i]
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $w
            case '--*=*'
                continue
            case '-*'
                __papi_optkind $w >/dev/null; and set skip 1
                continue
            case '*'
                echo $i
                return 0
        end
    end
    return 1
end

function __papi_in_command
    __papi_prog_start >/dev/null
end

# The completions of the counted program's own command line.
function __papi_prog
    set -l start (__papi_prog_start); or return
    set -l words (commandline -opc) (commandline -ct)
    __fish_complete_subcommand --commandline $words[$start..-1]
end

# What the token being completed is the value of; fails when it is none.
function __papi_kind
    __papi_cmd >/dev/null; or return 1
    __papi_in_command; and return 1
    set -l words (commandline -opc)
    set -l tok (commandline -ct)
    if string match -qr -- '^--[^=]+=' $tok
        __papi_optkind (string split -m1 = -- $tok)[1]
    else if string match -q -- '-*' $words[-1]; and not string match -q -- '*=*' $words[-1]
        __papi_optkind $words[-1]
    else
        return 1
    end
end

# Candidates for the token as a value of its option (or an event operand):
# in a list only what follows the last comma, after an event and ':' its unit
# masks and qualifiers.
function __papi_values
    set -l kind (__papi_kind); or set kind 'EV[,EV...]'
    set -l tok (commandline -ct)
    set -l pre ''
    if string match -qr -- '^--[^=]+=' $tok
        set pre (string split -m1 = -- $tok)[1]=
        set tok (string split -m1 = -- $tok)[2]
    end
    if string match -q -- '*,*' $kind; and string match -q -- '*,*' $tok
        set pre $pre(string replace -r '[^,]*$' '' -- $tok)
        set tok (string replace -r '.*,' '' -- $tok)
    end
    switch $kind
        case 'FILE*'
            __fish_complete_path $tok
        case 'DIR*'
            __fish_complete_directories $tok
        case 'PID*'
            __fish_complete_pids
        case 'TID*'
            for t in /proc/[0-9]*/task/[0-9]*
                string replace -r '.*/' '' -- $t
            end
        case 'GROUP*'
            papi groups --names 2>/dev/null
        case 'CPU*'
            for c in /sys/devices/system/cpu/cpu[0-9]*
                string replace -r '.*/cpu' '' -- $c
            end
        case 'CG*'
            # cgroups under the hierarchy perf_event counts in, as perf finds it
            set -l mnt (awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; f = 1; exit } $3 == "cgroup2" && !v { v = $2 } END { if (!f && v) print v }' /proc/self/mounts)
            if test -n "$mnt"
                for d in $mnt/$tok*/
                    string replace -- "$mnt/" '' (string trim -r -c / -- $d)
                end
            end
        case 'LEVEL*'
            printf '%s\n' 1 2
        case 'CORETYPE*'
            # perf's words for Intel's, and ARM's core PMUs by name
            printf '%s\n' core atom
            for d in /sys/bus/event_source/devices/*/cpus
                string replace -r '.*/([^/]+)/cpus$' '$1' -- $d | string match -v -- 'cpu_*'
            end
        case 'EV*'
            # papi stat counts: no qualifier that asks for sampling
            set -l counting
            test "$(__papi_cmd)" = stat; and set counting --counting
            if string match -q -- '*::*:*' $tok
                papi native --names $counting -e (string replace -r ':[^:]*$' '' -- $tok) 2>/dev/null
            else
                __papi_events
            end
    end | string replace -r '^' -- $pre
end

function __papi_events
    begin
        papi avail --names
        papi native --names
    end 2>/dev/null
end

# An event operand (avail, native, chooser, command-line before "--").
function __papi_wants_event
    __papi_kind >/dev/null; and return 1
    __papi_in_command; and return 1
    contains -- (__papi_cmd) avail native chooser command-line
end

complete -c papi -f
complete -c papi -n 'not __papi_cmd' -a '(__papi_cmds)'
complete -c papi -n 'not __papi_cmd' -l help -d 'show the usage and the commands'
complete -c papi -n 'not __papi_cmd' -l version -d 'show the versions'
complete -c papi -n 'not __papi_cmd' -l list-cmds -d 'list the commands'
complete -c papi -n '__papi_cmd; and not __papi_in_command; and not __papi_kind; and string match -q -- "-*" (commandline -ct)' -a '(__papi_opts)'
complete -c papi -n '__papi_kind' -a '(__papi_values)'
complete -c papi -n '__papi_wants_event' -a '(__papi_values)'
complete -c papi -n '__fish_seen_subcommand_from help' -a '(__papi_cmds)'
complete -c papi -n '__fish_seen_subcommand_from groups; and not __papi_kind' -a '(papi groups --names 2>/dev/null)'
# the program papi stat counts ("--" or not), and command-line's after "--"
complete -c papi -n '__papi_in_command' -a '(__papi_prog)'

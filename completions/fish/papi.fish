# fish completion for papi: the binary lists its commands (papi --list-cmds),
# each command's options (papi CMD --list-opts) and the event names
# (papi avail --names, papi native --names).

# Subcommands to offer when the binary cannot be asked.
# Add new subcommands here.
set -g __papi_static_cmds stat command-line avail native chooser decode encode hl-report \
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

function __papi_events
    begin
        papi avail --names
        papi native --names
    end 2>/dev/null
end

function __papi_wants_event
    set -l words (commandline -opc)
    contains -- -- $words; and return 1
    switch $words[-1]
        case -e --event --events
            return 0
    end
    contains -- (__papi_cmd) avail native chooser command-line stat
end

complete -c papi -f
complete -c papi -n 'not __papi_cmd' -a '(__papi_cmds)'
complete -c papi -n 'not __papi_cmd' -l help -d 'show the usage and the commands'
complete -c papi -n 'not __papi_cmd' -l version -d 'show the versions'
complete -c papi -n 'not __papi_cmd' -l list-cmds -d 'list the commands'
complete -c papi -n '__papi_cmd; and string match -q -- "-*" (commandline -ct)' -a '(__papi_opts)'
complete -c papi -n '__papi_cmd; and __papi_wants_event' -a '(__papi_events)'
complete -c papi -n '__fish_seen_subcommand_from help' -a '(__papi_cmds)'
complete -c papi -n '__fish_seen_subcommand_from stat command-line; and contains -- -- (commandline -opc)' -F -a '(__fish_complete_command)'

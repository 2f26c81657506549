#include "cli/cli_doc.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <functional>

namespace gpuplan::cli {

namespace {

// Every command of the tree, depth first, gpuplan itself first.
void walk(const CommandDoc& command, const std::function<void(const CommandDoc&)>& visit) {
    visit(command);
    for (const CommandDoc& sub : command.subcommands) {
        walk(sub, visit);
    }
}

// The last word of a command's path: its name.
std::string_view name_of(const CommandDoc& command) {
    const std::string_view path = command.path;
    const auto space = path.rfind(' ');
    return space == std::string_view::npos ? path : path.substr(space + 1);
}

// Text for a roff line: backslashes escaped, and a leading `.` or `'` kept from being a request.
std::string roff_text(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '\\') {
            out += "\\e";
        } else {
            out += c;
        }
    }
    if (!out.empty() && (out.front() == '.' || out.front() == '\'')) {
        out.insert(0, "\\&");
    }
    return out;
}

// Text typed on the command line: as roff_text, with every `-` a minus sign (man-pages(7)).
std::string roff_literal(std::string_view text) {
    std::string out;
    for (const char c : roff_text(text)) {
        if (c == '-') {
            out += "\\-";
        } else {
            out += c;
        }
    }
    return out;
}

std::string man_option(const OptionDoc& option) {
    std::string names;
    for (const std::string& name : option.names) {
        names += (names.empty() ? "" : ", ") + fmt::format("\\fB{}\\fR", roff_literal(name));
    }
    if (option.names.empty()) {
        names = fmt::format("\\fI{}\\fR", roff_literal(option.value));
    } else if (!option.value.empty()) {
        names += fmt::format(" \\fI{}\\fR", roff_literal(option.value));
    }
    return fmt::format(".TP\n{}\n{}\n", names, roff_text(option.description));
}

std::string man_command(const CommandDoc& command) {
    std::string synopsis = "gpuplan " + command.path;
    if (!command.subcommands.empty()) {
        synopsis += " COMMAND";
    }
    if (!command.options.empty()) {
        synopsis += " [OPTIONS]";
    }
    for (const OptionDoc& positional : command.positionals) {
        synopsis += " [" + positional.value + "]";
    }
    std::string out =
        fmt::format(".SS \"{}\"\n{}\n", roff_literal(synopsis), roff_text(command.description));
    if (!command.globals.empty()) {
        std::string globals;
        for (const std::string& name : command.globals) {
            globals +=
                (globals.empty() ? "" : ", ") + fmt::format("\\fB{}\\fR", roff_literal(name));
        }
        out += fmt::format(".PP\nGlobal options it honours: {}.\n", globals);
    }
    for (const OptionDoc& positional : command.positionals) {
        out += man_option(positional);
    }
    for (const OptionDoc& option : command.options) {
        out += man_option(option);
    }
    return out;
}

constexpr std::string_view k_man_tail = R"(.SH EXIT STATUS
.TP
.B 0
success
.TP
.B 1
I/O or internal error
.TP
.B 2
usage error (a bad flag or flag value)
.TP
.B 3
invalid input: a catalog, workload, plan or configuration file, with
\fIfile\fR:\fIline\fR:\fIcolumn\fR diagnostics on standard error
.TP
.B 4
gate failed: a \fBcheck\fR threshold, or \fB\-\-fail\-if\-none\fR with no feasible option
.SH ENVIRONMENT
.TP
.B NO_COLOR
when set (to anything), no colours, as \fB\-\-color=never\fR
.TP
.B TERM
\fBdumb\fR turns colours off under \fB\-\-color=auto\fR
.TP
.B XDG_CONFIG_HOME
the folder of \fIgpuplan/config.yaml\fR (default \fI~/.config\fR)
.TP
.B XDG_CACHE_HOME
the folder of the price cache \fIgpuplan/\fR written by \fBgpuplan catalog update\fR
(default \fI~/.cache\fR)
.TP
.B GPUPLAN_CURRENCY, GPUPLAN_CATALOG, GPUPLAN_DISCOUNT, GPUPLAN_DISCOUNT_RATE, GPUPLAN_COLOR, GPUPLAN_ACCEPT_SOFT, GPUPLAN_SOLVER_TIME
defaults between the configuration file and the flags; see \fBgpuplan config show\fR
.SH FILES
.TP
.I $XDG_CONFIG_HOME/gpuplan/config.yaml
defaults people set once (currency, catalog overlays, discounts, discount rate, colour)
.TP
.I $XDG_CACHE_HOME/gpuplan/
prices downloaded by \fBgpuplan catalog update\fR
.TP
.I /usr/share/gpuplan/schema/
JSON Schemas of every JSON output
.TP
.I /usr/share/doc/gpuplan/
the documentation: cli.md, methodology.md, the input formats
.SH SEE ALSO
The documentation in \fI/usr/share/doc/gpuplan/\fR, starting with \fIcli.md\fR.
)";

// A word list for a shell script: names separated by spaces.
std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& word : words) {
        out += (out.empty() ? "" : " ") + word;
    }
    return out;
}

std::vector<std::string> subcommand_names(const CommandDoc& command) {
    std::vector<std::string> names;
    for (const CommandDoc& sub : command.subcommands) {
        names.emplace_back(name_of(sub));
    }
    return names;
}

std::vector<std::string> option_names(const CommandDoc& command) {
    std::vector<std::string> names;
    for (const OptionDoc& option : command.options) {
        names.insert(names.end(), option.names.begin(), option.names.end());
    }
    return names;
}

// A string in single quotes for sh, zsh (`'\''`) or fish (`\'`).
std::string quoted(std::string_view text, bool fish) {
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'') {
            out += fish ? "\\'" : "'\\''";
        } else if (fish && c == '\\') {
            out += "\\\\";
        } else {
            out += c;
        }
    }
    return out + "'";
}

enum class Shell { bash, zsh, fish };

// What the value of `option` is, as the completers' value functions say it: `file`, `value`, or
// `choice:` and the words it takes.
std::string value_kind(const OptionDoc& option) {
    if (!option.values.empty()) {
        return "choice:" + joined(option.values);
    }
    return is_file_value(option.value) ? "file" : "value";
}

// One `case` arm: the option `name` of the command at `path` takes `kind` (value_kind). Global
// options (of gpuplan itself) match under every command.
std::string value_arm(const std::string& path, const std::string& name, std::string_view kind,
                      Shell shell) {
    if (shell == Shell::fish) {
        return fmt::format("        case {}\n            echo {}\n",
                           quoted(fmt::format("{}|{}", path.empty() ? "*" : path, name), true),
                           quoted(kind, true));
    }
    const std::string pattern = path.empty() ? "*" + quoted("|" + name, false)
                                             : quoted(fmt::format("{}|{}", path, name), false);
    return shell == Shell::bash
               ? fmt::format("    {}) REPLY={} ;;\n", pattern, quoted(kind, false))
               : fmt::format("    ({}) REPLY={} ;;\n", pattern, quoted(kind, false));
}

// The arms of every value-taking option of every command.
std::string value_arms(const CommandDoc& root, Shell shell) {
    std::string out;
    walk(root, [&](const CommandDoc& command) {
        for (const OptionDoc& option : command.options) {
            if (option.value.empty()) {
                continue;
            }
            for (const std::string& name : option.names) {
                out += value_arm(command.path, name, value_kind(option), shell);
            }
        }
    });
    return out;
}

// The bash or zsh function that says what an option takes.
std::string value_function(const CommandDoc& root, Shell shell) {
    return fmt::format(
        R"sh(# What the option $2 of the command $1 takes: file, value, choice:WORDS (one of WORDS), or
# nothing for a flag.
_gpuplan_value() {{
    REPLY=
    case "$1|$2" in
{}    esac
}}
)sh",
        value_arms(root, shell));
}

// The loop of a bash or zsh completer that finds the command typed so far ("catalog list") in
// the words before the cursor, skipping options and their values.
std::string command_loop(Shell shell) {
    const bool bash = shell == Shell::bash;
    return fmt::format(R"sh(    for ((i = {}; i < {}; i++)); do
        word=${{{}[i]}}
        if ((skip)); then
            skip=0
            continue
        fi
        if [[ $word == -* ]]; then
            if [[ $word != *=* ]]; then
                _gpuplan_value "$cmd" "$word"
                [[ -n $REPLY ]] && skip=1
            fi
            continue
        fi
        _gpuplan_subcommands "$cmd"
        for sub in {}; do
            if [[ $word == "{}" ]]; then
                cmd=${{cmd:+$cmd }}$word
                break
            fi
        done
    done
)sh",
                       bash ? 1 : 2, bash ? "COMP_CWORD" : "CURRENT", bash ? "COMP_WORDS" : "words",
                       bash ? "$REPLY" : "\"${reply[@]}\"", bash ? "$sub" : "${sub%%:*}");
}

std::string bash_completion(const CommandDoc& root) {
    std::string subcommands;
    std::string options;
    walk(root, [&](const CommandDoc& command) {
        if (!command.subcommands.empty()) {
            subcommands += fmt::format("    {}) REPLY={} ;;\n", quoted(command.path, false),
                                       quoted(joined(subcommand_names(command)), false));
        }
        options += fmt::format("    {}) REPLY={} ;;\n", quoted(command.path, false),
                               quoted(joined(option_names(command)), false));
    });
    return fmt::format(
        R"sh(# bash completion for gpuplan; generated by `gpuplan completions bash` from its
# command-line definition.

# Each sets REPLY, so that a completion forks no subshell.
_gpuplan_subcommands() {{
    REPLY=
    case "$1" in
{}    esac
}}

_gpuplan_options() {{
    REPLY=
    case "$1" in
{}    esac
}}

{}
_gpuplan() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev='' cmd='' word sub skip=0 i REPLY words
    COMPREPLY=()
{}    ((COMP_CWORD > 1)) && prev=${{COMP_WORDS[COMP_CWORD - 1]}}
    if [[ $prev == -* ]]; then
        _gpuplan_value "$cmd" "$prev"
        case $REPLY in
        file)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return
            ;;
        choice:*)
            mapfile -t COMPREPLY < <(compgen -W "${{REPLY#choice:}}" -- "$cur")
            return
            ;;
        value) return ;;
        esac
    fi
    if [[ $cur == -* ]]; then
        _gpuplan_options "$cmd"
        words=$REPLY
        _gpuplan_options ''
        mapfile -t COMPREPLY < <(compgen -W "$words $REPLY" -- "$cur")
    else
        _gpuplan_subcommands "$cmd"
        mapfile -t COMPREPLY < <(compgen -W "$REPLY" -- "$cur")
        if ((${{#COMPREPLY[@]}} == 0)); then
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        fi
    fi
}}

complete -o filenames -F _gpuplan gpuplan
)sh",
        subcommands, options, value_function(root, Shell::bash), command_loop(Shell::bash));
}

// `name:description` entries of a zsh array, one a line.
std::string zsh_entries(const std::vector<std::pair<std::string, std::string>>& entries) {
    std::string out;
    for (const auto& [name, description] : entries) {
        out +=
            fmt::format("            {}\n", quoted(fmt::format("{}:{}", name, description), false));
    }
    return out;
}

std::string zsh_completion(const CommandDoc& root) {
    std::string subcommands;
    std::string options;
    walk(root, [&](const CommandDoc& command) {
        std::vector<std::pair<std::string, std::string>> subs;
        for (const CommandDoc& sub : command.subcommands) {
            subs.emplace_back(std::string(name_of(sub)), sub.description);
        }
        if (!subs.empty()) {
            subcommands += fmt::format("    ({})\n        reply=(\n{}        )\n        ;;\n",
                                       quoted(command.path, false), zsh_entries(subs));
        }
        std::vector<std::pair<std::string, std::string>> opts;
        for (const OptionDoc& option : command.options) {
            for (const std::string& name : option.names) {
                opts.emplace_back(name, option.description);
            }
        }
        options += fmt::format("    ({})\n        reply=(\n{}        )\n        ;;\n",
                               quoted(command.path, false), zsh_entries(opts));
    });
    return fmt::format(R"sh(#compdef gpuplan
# zsh completion for gpuplan; generated by `gpuplan completions zsh` from its command-line
# definition.

_gpuplan_subcommands() {{
    reply=()
    case $1 in
{}    esac
}}

_gpuplan_options() {{
    reply=()
    case $1 in
{}    esac
}}

{}
_gpuplan() {{
    local cmd='' word sub REPLY
    local -i i skip=0
    local -a reply subs opts
{}    if ((CURRENT > 2)) && [[ ${{words[CURRENT-1]}} == -* ]]; then
        _gpuplan_value "$cmd" "${{words[CURRENT-1]}}"
        case $REPLY in
        (file) _files; return ;;
        (choice:*)
            local -a values
            values=(${{=REPLY#choice:}})
            compadd -a values
            return
            ;;
        (value) _message value; return ;;
        esac
    fi
    if [[ $PREFIX == -* ]]; then
        _gpuplan_options "$cmd"
        opts=("${{reply[@]}}")
        if [[ -n $cmd ]]; then
            _gpuplan_options ''
            opts+=("${{reply[@]}}")
        fi
        _describe -t options option opts
    else
        _gpuplan_subcommands "$cmd"
        subs=("${{reply[@]}}")
        if ((${{#subs}})); then
            _describe -t commands command subs
        else
            _files
        fi
    fi
}}

_gpuplan "$@"
)sh",
                       subcommands, options, value_function(root, Shell::zsh),
                       command_loop(Shell::zsh));
}

std::string fish_option(const CommandDoc& command, const OptionDoc& option) {
    std::string line = "complete -c gpuplan";
    if (!command.path.empty()) {
        line += " -n " + quoted("__gpuplan_at " + quoted(command.path, false), true);
    }
    for (const std::string& name : option.names) {
        line += name.starts_with("--") ? " -l " + name.substr(2) : " -s " + name.substr(1);
    }
    if (!option.values.empty()) {
        line += " -x -a " + quoted(joined(option.values), true);
    } else if (!option.value.empty()) {
        line += is_file_value(option.value) ? " -r -F" : " -x";
    }
    return line + " -d " + quoted(option.description, true) + "\n";
}

std::string fish_completion(const CommandDoc& root) {
    std::string subcommands;
    std::string lines;
    walk(root, [&](const CommandDoc& command) {
        const std::string at = quoted("__gpuplan_at " + quoted(command.path, false), true);
        if (!command.subcommands.empty()) {
            subcommands +=
                fmt::format("        case {}\n            printf '%s\\n' {}\n",
                            quoted(command.path, true), joined(subcommand_names(command)));
        }
        for (const CommandDoc& sub : command.subcommands) {
            lines += fmt::format("complete -c gpuplan -n {} -a {} -d {}\n", at,
                                 std::string(name_of(sub)), quoted(sub.description, true));
        }
        if (!command.positionals.empty()) {
            lines += fmt::format("complete -c gpuplan -n {} -F\n", at);
        }
        for (const OptionDoc& option : command.options) {
            lines += fish_option(command, option);
        }
    });
    return fmt::format(
        R"sh(# fish completion for gpuplan; generated by `gpuplan completions fish` from its
# command-line definition.

function __gpuplan_subcommands
    switch $argv[1]
{}    end
end

# What the option $argv[2] of the command $argv[1] takes: file, value, choice:WORDS, or nothing
# for a flag.
function __gpuplan_value
    switch "$argv[1]|$argv[2]"
{}    end
end

# The command typed so far ("catalog list"), without options and their values.
function __gpuplan_command
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmd ''
    set -l skip 0
    for word in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        if string match -q -- '-*' $word
            if not string match -q -- '*=*' $word
                set -l kind (__gpuplan_value "$cmd" $word)
                test -n "$kind"; and set skip 1
            end
            continue
        end
        if contains -- $word (__gpuplan_subcommands "$cmd")
            set cmd (string trim -- "$cmd $word")
        end
    end
    echo $cmd
end

function __gpuplan_at
    set -l cmd (__gpuplan_command)
    test "$cmd" = "$argv[1]"
end

complete -c gpuplan -f
{})sh",
        subcommands, value_arms(root, Shell::fish), lines);
}

} // namespace

bool is_file_value(std::string_view value) {
    constexpr std::array<std::string_view, 6> k_markers{"FILE",  "PATH",  "PLAN",
                                                        ".json", ".yaml", ".svg"};
    return std::ranges::any_of(k_markers, [value](std::string_view marker) {
        return value.find(marker) != std::string_view::npos;
    });
}

std::string render_man_page(const CommandDoc& root, std::string_view version) {
    std::string_view summary = root.description;
    if (const auto colon = summary.find(": "); colon != std::string_view::npos) {
        summary.remove_prefix(colon + 2);
    }
    std::string out = fmt::format(
        ".\\\" Generated by `gpuplan man` from gpuplan's command-line definition.\n"
        ".TH GPUPLAN 1 \"\" \"gpuplan {}\" \"User Commands\"\n"
        // Option names are not hyphenated, and lines are not stretched to the margin.
        ".nh\n.ad l\n"
        ".SH NAME\ngpuplan \\- {}\n"
        ".SH SYNOPSIS\n.B gpuplan\n[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] "
        "[\\fIARGUMENTS\\fR]\n"
        ".SH DESCRIPTION\n"
        "gpuplan plans where to run a deep\\-learning job (training, fine\\-tuning or inference) "
        "and what it costs: it estimates the compute, memory and GPU count the job needs on each "
        "GPU type, then ranks on\\-demand, reserved, subscription, spot and self\\-built options "
        "by the present value of their cash flows, with deadline and budget verdicts. It runs "
        "offline from a catalog embedded in the binary.\n"
        ".SH GLOBAL OPTIONS\n"
        "Given before or after the command.\n",
        roff_text(version), roff_text(summary));
    for (const OptionDoc& option : root.options) {
        out += man_option(option);
    }
    out += ".SH COMMANDS\n";
    std::string examples;
    walk(root, [&](const CommandDoc& command) {
        if (!command.path.empty()) {
            out += man_command(command);
        }
        for (const std::string& example : command.examples) {
            examples += fmt::format(".PP\n.nf\ngpuplan {}\n.fi\n", roff_literal(example));
        }
    });
    if (!examples.empty()) {
        out += ".SH EXAMPLES\n" + examples;
    }
    out += k_man_tail;
    return out;
}

std::optional<std::string> render_completion(const CommandDoc& root, std::string_view shell) {
    if (shell == "bash") {
        return bash_completion(root);
    }
    if (shell == "zsh") {
        return zsh_completion(root);
    }
    if (shell == "fish") {
        return fish_completion(root);
    }
    return std::nullopt;
}

} // namespace gpuplan::cli

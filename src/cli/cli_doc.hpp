#pragma once
// The command line described as plain values (built from the CLI11 definition in app.cpp), and
// what is generated from it: the gpuplan(1) man page and the bash, zsh and fish completions, so
// none of them can drift from `--help` (docs/install.md).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::cli {

// One option or positional argument of a command.
struct OptionDoc {
    std::vector<std::string> names; // "-o", "--output"; empty for a positional argument
    std::string value;              // its value's name ("FILE"); empty for a flag
    std::string description;
    std::vector<std::string> values; // what the completions offer for its value; empty = free
    bool operator==(const OptionDoc&) const = default;
};

// One command: its options, positional arguments, subcommands and examples.
struct CommandDoc {
    std::string path; // "catalog list"; empty for gpuplan itself
    std::string description;
    std::vector<OptionDoc> options;
    std::vector<OptionDoc> positionals;
    std::vector<CommandDoc> subcommands;
    std::vector<std::string> examples; // whole command lines, without the leading "gpuplan "
    std::vector<std::string> globals;  // the global options it honours ("--format")
    bool operator==(const CommandDoc&) const = default;
};

// The gpuplan(1) page in roff (man(7) macros): synopsis, global options, every command with its
// options, examples, exit status, environment and files. Deterministic: no date.
[[nodiscard]] std::string render_man_page(const CommandDoc& root, std::string_view version);

// A completion script for `shell` (bash, zsh or fish); nullopt for another shell.
[[nodiscard]] std::optional<std::string> render_completion(const CommandDoc& root,
                                                           std::string_view shell);

// True for a value name completed with file names (FILE, PATH, WORKLOAD.yaml, BASE.json...).
[[nodiscard]] bool is_file_value(std::string_view value);

} // namespace gpuplan::cli

#pragma once
// gpuplan's own words for a command line CLI11 refuses: a mistyped command or option with the
// nearest one, a value that is not a number. Over the command tree as values, so this file does
// not include CLI11.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::cli {

// A command as the error messages see it: its name, whether help lists it (hidden commands,
// man and completions, are not), its options' names ("--name", "-x", each option's long names
// then its short ones) and its subcommands, in the order they were added.
struct CommandShape {
    std::string name;
    bool shown = true;
    std::vector<std::string> option_names;
    std::vector<CommandShape> subcommands;
};

// `unknown command 'recomend'; did you mean 'recommend'?` when a word of `args` that is not an
// option names no subcommand where one is expected and is close to one; nullopt otherwise.
[[nodiscard]] std::optional<std::string> command_typo(const CommandShape& app,
                                                      const std::vector<std::string>& args);

// `unknown option '--formt'; did you mean '--format'?` for the first word of `args` spelled as
// an option (--name, --name=value or -x) that no option of the selected command has; nullopt when
// every such word is known. Words after `--` are operands.
[[nodiscard]] std::optional<std::string> unknown_flag(const CommandShape& app,
                                                      const std::vector<std::string>& args);

// `--top: expected a whole number, got 'abc'` for CLI11's conversion error text `Could not
// convert: --top = abc` (every option CLI11 converts itself is an integer); nullopt for other
// text.
[[nodiscard]] std::optional<std::string> conversion_message(std::string_view text);

} // namespace gpuplan::cli

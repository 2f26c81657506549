#pragma once
// What each command's help ends with, and the man page's EXAMPLES.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::cli {

// The global options a command honours ("--format") and two example command lines (without the
// leading "gpuplan ", run from the repository with its example workloads).
struct CommandNotes {
    std::vector<std::string> globals;
    std::vector<std::string> examples;
};

// The notes of the command at `path` ("catalog list"); nullopt for a command without notes.
[[nodiscard]] std::optional<CommandNotes> command_notes(std::string_view path);

// The footer of the help of the command at `path` ("catalog list"): the global options it
// honours and two examples; nullopt for a command without notes.
[[nodiscard]] std::optional<std::string> help_footer(std::string_view path);

} // namespace gpuplan::cli

#pragma once
// The global options as the command line gives them, and what follows from them, the
// configuration file, the environment and the terminal: the CommonOptions every command runs with.

#include "cli/common.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::cli {

// What parsing the command line fills: the common options, the global flags still as typed, and
// the chosen command's action.
struct Parsed {
    CommonOptions common;
    std::string format_text = "table";
    int verbose_count = 0;
    bool timestamp = false;
    bool quiet = false;
    std::optional<std::string> color; // --color WHEN
    bool no_color = false;
    bool reads_settings = true; // false for the generators, which must not depend on the user
    std::function<Exit(Io&)> action;
};

// The width text and tables are fitted to: 0 with --wide, else the terminal's (at least
// report::k_min_terminal_width).
[[nodiscard]] std::size_t output_width(bool wide, const Io& io);

// The common options that follow from the flags and the run's terminal: verbosity, cache
// directory, output width and the timestamp.
void resolve_common(Parsed& parsed, const Io& io);

// The configuration file and the environment under the flags (config.hpp): fills the defaults
// the flags left open and records where each setting came from.
void apply_settings(Parsed& parsed, const Io& io);

// --format (html only for `command` report and fleet, as markdown turned into a page) and
// --currency checked and set. Throws UsageError.
void resolve_output(Parsed& parsed, std::string_view command);

} // namespace gpuplan::cli

#pragma once
// The command line: parses argv with CLI11 (only in app.cpp), runs one subcommand, maps every
// failure to an exit code (docs/cli.md).

#include "cli/common.hpp"

#include <string>
#include <vector>

namespace gpuplan::cli {

// Runs gpuplan with `args_given` (argv without the program name); returns the exit code. Never
// throws.
[[nodiscard]] int run(const std::vector<std::string>& args_given, Io& io);

} // namespace gpuplan::cli

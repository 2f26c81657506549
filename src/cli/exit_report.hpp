#pragma once
// How a run that ends early or fails says so on the run's streams, and its exit code.

#include "cli/common.hpp"
#include "gpuplan/error.hpp"

#include <string>

namespace gpuplan::cli {

// Writes `message` (one line, control characters escaped) to the error stream; returns `code`.
int report_error(Io& io, Exit code, const std::string& message);

// Help and version text on stdout: exit 0 only when it was written.
int write_text(Io& io, const std::string& text);

// Every diagnostic of `e` up to the limit, then how many more there were; returns exit 3.
int report_diagnostics(Io& io, const InputError& e);

} // namespace gpuplan::cli

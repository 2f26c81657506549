#pragma once
// Runs the gpuplan CLI in-process for tests, from the source folder, capturing both streams.

#include "cli/app.hpp"
#include "cli/common.hpp"
#include "gpuplan/report/text_table.hpp"

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace gpuplan::test {

struct CliResult {
    int exit_code = 0;
    std::string out;
    std::string err;
};

inline CliResult run_cli(const std::vector<std::string>& args) {
    std::filesystem::current_path(GPUPLAN_SOURCE_DIR);
    std::ostringstream out;
    std::ostringstream err;
    // A fixed today keeps --max-catalog-age outputs stable.
    cli::Io io{out, err, false, false, Date{2026, 11, 29}};
    // Outputs are fitted to 80 columns whatever the terminal running the tests or COLUMNS says:
    // only main() reads those.
    io.columns = report::k_terminal_width;
    CliResult result;
    result.exit_code = cli::run(args, io);
    result.out = out.str();
    result.err = err.str();
    return result;
}

} // namespace gpuplan::test

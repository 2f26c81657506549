// Golden tests: each folder under tests/golden/cases/ holds `args` (one argument per line), and
// the expected `exit_code`, `stdout` and `stderr` of running gpuplan with them, compared byte for
// byte. GPUPLAN_UPDATE_GOLDEN=1 rewrites the expectations from the current output.

#include "../support/cli_runner.hpp"
#include "../support/files.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

namespace fs = std::filesystem;

namespace {

using gpuplan::test::slurp;
using gpuplan::test::spit;

std::vector<std::string> read_args(const fs::path& path) {
    return gpuplan::test::read_lines(path);
}

} // namespace

TEST_CASE("every golden case reproduces its recorded output byte for byte", "[golden]") {
    const fs::path root = fs::path(GPUPLAN_SOURCE_DIR) / "tests" / "golden" / "cases";
    std::vector<fs::path> cases;
    for (const auto& entry : fs::directory_iterator(root)) {
        if (entry.is_directory()) {
            cases.push_back(entry.path());
        }
    }
    std::sort(cases.begin(), cases.end());
    REQUIRE(!cases.empty());
    const bool update = std::getenv("GPUPLAN_UPDATE_GOLDEN") != nullptr;
    for (const fs::path& dir : cases) {
        DYNAMIC_SECTION(dir.filename().string()) {
            const auto result = gpuplan::test::run_cli(read_args(dir / "args"));
            if (update) {
                spit(dir / "exit_code", std::to_string(result.exit_code) + "\n");
                spit(dir / "stdout", result.out);
                spit(dir / "stderr", result.err);
                continue;
            }
            CHECK(std::to_string(result.exit_code) + "\n" == slurp(dir / "exit_code"));
            CHECK(result.out == slurp(dir / "stdout"));
            CHECK(result.err == slurp(dir / "stderr"));
        }
    }
}

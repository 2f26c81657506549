// The golden runner. Each folder under tests/golden/cases/ holds `args` (one argument per line)
// and the expected `exit_code`, `stdout` and `stderr` of running gpuplan with them, in-process
// from the source folder; all three are compared byte for byte. CTest runs one case per test
// (`golden/CASE`); run by hand, the runner takes case names and runs every case without any.
//
// Usage: gpuplan_golden [--cases DIR] [CASE...]
//
// On a mismatch it prints a unified diff of each stream that differs (expected against
// received) and writes what it received next to the expectation as `STREAM.received`
// (git-ignored); a case that matches removes its `.received` files. With GPUPLAN_UPDATE_GOLDEN=1
// in the environment it rewrites the expectations from the current output instead. Exit status:
// 0 when every case matches (or was rewritten), 1 when one does not, 2 for a usage error.

#include "../support/cli_runner.hpp"
#include "../support/files.hpp"
#include "../support/unified_diff.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Stream {
    const char* file;
    std::string received;
};

std::vector<std::string> every_case(const fs::path& root) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(root)) {
        if (entry.is_directory()) {
            names.push_back(entry.path().filename().string());
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

// Runs one case; true when it matches (or was rewritten).
bool run_case(const fs::path& root, const std::string& name, bool update) {
    const fs::path dir = root / name;
    if (!fs::is_regular_file(dir / "args")) {
        std::cout << "golden " << name << ": no such case (" << (dir / "args").string()
                  << " is missing)\n";
        return false;
    }
    const auto result = gpuplan::test::run_cli(gpuplan::test::read_lines(dir / "args"));
    const std::array<Stream, 3> streams{{{"exit_code", std::to_string(result.exit_code) + "\n"},
                                         {"stdout", result.out},
                                         {"stderr", result.err}}};
    bool matches = true;
    for (const Stream& stream : streams) {
        const fs::path expected_path = dir / stream.file;
        const fs::path received_path = dir / (std::string(stream.file) + ".received");
        const bool recorded = fs::is_regular_file(expected_path);
        const std::string expected = gpuplan::test::slurp(expected_path);
        if (update || (recorded && stream.received == expected)) {
            if (update && (!recorded || stream.received != expected)) {
                gpuplan::test::spit(expected_path, stream.received);
                std::cout << "golden " << name << ": rewrote " << stream.file << "\n";
            }
            fs::remove(received_path);
            continue;
        }
        matches = false;
        gpuplan::test::spit(received_path, stream.received);
        std::cout << "golden " << name << ": " << stream.file << " differs"
                  << (recorded ? "" : " (no expected file)") << "; received in "
                  << received_path.string() << "\n"
                  << gpuplan::test::unified_diff(expected, stream.received,
                                                 expected_path.string() + " (expected)",
                                                 received_path.string() + " (received)");
    }
    return matches;
}

} // namespace

int main(int argc, char** argv) {
    fs::path root = fs::path(GPUPLAN_SOURCE_DIR) / "tests" / "golden" / "cases";
    std::vector<std::string> names;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--cases" && i + 1 < argc) {
            root = fs::absolute(argv[++i]);
        } else if (arg.empty() || arg[0] == '-') {
            std::cerr << "usage: gpuplan_golden [--cases DIR] [CASE...]\n";
            return 2;
        } else {
            names.push_back(arg);
        }
    }
    if (names.empty()) {
        names = every_case(root);
    }
    const bool update = std::getenv("GPUPLAN_UPDATE_GOLDEN") != nullptr;
    std::size_t failed = 0;
    for (const std::string& name : names) {
        if (!run_case(root, name, update)) {
            ++failed;
        }
    }
    std::cout << "golden: " << names.size() - failed << " of " << names.size()
              << (update ? " cases up to date\n" : " cases match\n");
    return failed == 0 && !names.empty() ? 0 : 1;
}

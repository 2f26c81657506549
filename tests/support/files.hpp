#pragma once
// Whole-file reads and writes for tests (binary, no newline translation).

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace gpuplan::test {

// The bytes of `path` (empty when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Replaces the contents of `path` with `text`.
inline void spit(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

// The non-empty lines of `path`, without their line endings (LF or CRLF).
inline std::vector<std::string> read_lines(const std::filesystem::path& path) {
    std::vector<std::string> lines;
    std::istringstream text(slurp(path));
    for (std::string line; std::getline(text, line);) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (!line.empty()) {
            lines.push_back(line);
        }
    }
    return lines;
}

// A folder of its own under the system's temporary folder for one test, removed with it (also
// when an assertion ends the test early).
struct Scratch {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() /
        ("gpuplan_test." + std::to_string(::getpid()) + "." + std::to_string(counter++));
    Scratch() { std::filesystem::create_directories(path); }
    ~Scratch() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    static inline int counter = 0;
};

} // namespace gpuplan::test

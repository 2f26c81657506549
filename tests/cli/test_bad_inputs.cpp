// The bad-input corpus: every folder under tests/fixtures/bad/ is one hostile or broken input,
// run through the CLI in-process. A case holds `args` (one argument per line), optionally an
// input file and a `generate` recipe, and the expected `expected_exit` and `expected_first_line`
// (the first line of stderr). In args and expectations, `{case}` is the case folder and `{input}`
// the generated input (huge inputs are written to a temporary folder at test time, never
// committed). GPUPLAN_UPDATE_GOLDEN=1 rewrites the expectations from the current output.

#include "../support/cli_runner.hpp"
#include "../support/files.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

using gpuplan::test::slurp;
using gpuplan::test::spit;

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
    if (from.empty()) {
        return text;
    }
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
    return text;
}

std::string repeat(std::string_view unit, std::size_t count) {
    std::string out;
    out.reserve(unit.size() * count);
    for (std::size_t i = 0; i < count; ++i) {
        out += unit;
    }
    return out;
}

// Builds a generated input from a one-line recipe `KIND N`; see tests/fixtures/bad/README.md.
std::string generate(const std::string& recipe) {
    std::istringstream in(recipe);
    std::string kind;
    std::size_t n = 0;
    in >> kind >> n;
    if (kind == "flow-nesting") { // gpus: [[[[ ... ]]]]
        return "schema_version: 1\ngpus: " + repeat("[", n) + repeat("]", n) + "\n";
    }
    if (kind == "dash-nesting") { // gpus: then one line `- - - - ... x`
        return "schema_version: 1\ngpus:\n" + repeat("- ", n) + "x\n";
    }
    if (kind == "block-nesting") { // n lines, each key indented one column more
        std::string out = "schema_version: 1\n";
        for (std::size_t i = 0; i < n; ++i) {
            out += std::string(i, ' ') + "k:\n";
        }
        return out;
    }
    if (kind == "anchor-dash-nesting") { // `- &a0 - &a1 - ...`: dashes after the line start
        std::string out = "schema_version: 1\ngpus:\n";
        for (std::size_t i = 0; i < n; ++i) {
            out += "- &a" + std::to_string(i) + " ";
        }
        return out + "x\n";
    }
    if (kind == "quoted-flow-nesting") { // an apostrophe hides the brackets from a naive scan
        return "schema_version: 1\ngpus: [it's, " + repeat("[", n) + repeat("]", n) + "]\n";
    }
    if (kind == "alias-bomb") { // n levels of ten aliases each: 10^n nodes once expanded
        std::string out = "schema_version: 1\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
        for (std::size_t i = 1; i <= n; ++i) {
            const std::string previous = "*l" + std::to_string(i - 1);
            out += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [" +
                   repeat(previous + ", ", 9) + previous + "]\n";
        }
        return out + "gpus: *l" + std::to_string(n) + "\n";
    }
    if (kind == "rules-alias-bomb") { // conditions nested through aliases: 10^n once expanded
        std::string out = "schema_version: 1\nroot: a\nnodes:\n  - id: a\n    why: Start.\n"
                          "    test: &c0 {fact: task, eq: train}\n";
        for (std::size_t i = 1; i <= n; ++i) {
            const std::string previous = "*c" + std::to_string(i - 1);
            out += "  - id: n" + std::to_string(i) + "\n    why: W.\n    test: &c" +
                   std::to_string(i) + " {all: [" + repeat(previous + ", ", 9) + previous + "]}\n";
        }
        return out;
    }
    if (kind == "long-string") { // a note of n bytes
        return "schema_version: 1\nsources:\n  s: {title: t, url: u, grade: R, note: \"" +
               std::string(n, 'x') + "\"}\n";
    }
    if (kind == "long-key") { // an unknown key of n bytes
        return "schema_version: 1\n" + std::string(n, 'k') + ": 1\n";
    }
    if (kind == "many-errors") { // n list elements of the wrong type
        return "schema_version: 1\ngpus: [" + repeat("1, ", n) + "1]\n";
    }
    if (kind == "large-file") { // n bytes of comment
        std::string out = "schema_version: 1\n";
        const std::string line = "#" + std::string(78, 'c') + "\n";
        while (out.size() < n) {
            out += line;
        }
        return out;
    }
    FAIL("unknown generate recipe: " << recipe);
    return {};
}

std::vector<std::string> read_args(const fs::path& path, const std::string& case_dir,
                                   const std::string& input) {
    std::vector<std::string> args;
    for (const std::string& line : gpuplan::test::read_lines(path)) {
        args.push_back(replace_all(replace_all(line, "{case}", case_dir), "{input}", input));
    }
    return args;
}

std::string first_line(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

// True when `text` holds a NaN or infinity as a number would print it.
bool prints_non_finite(const std::string& text) {
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char* word : {"nan", "inf"}) {
        for (std::size_t at = lower.find(word); at != std::string::npos;
             at = lower.find(word, at + 1)) {
            const bool word_start =
                at == 0 || !std::isalpha(static_cast<unsigned char>(lower[at - 1]));
            const std::size_t end = at + std::string_view(word).size();
            const bool word_end =
                end >= lower.size() || !std::isalpha(static_cast<unsigned char>(lower[end]));
            if (word_start && (word_end || lower.compare(at, 8, "infinity") == 0)) {
                return true;
            }
        }
    }
    return false;
}

} // namespace

TEST_CASE("every bad input is refused with its recorded exit code and first diagnostic",
          "[bad_inputs][cli]") {
    const fs::path root = fs::path(GPUPLAN_SOURCE_DIR) / "tests" / "fixtures" / "bad";
    std::vector<fs::path> cases;
    for (const auto& entry : fs::directory_iterator(root)) {
        if (entry.is_directory() && fs::exists(entry.path() / "args")) {
            cases.push_back(entry.path());
        }
    }
    std::sort(cases.begin(), cases.end());
    REQUIRE(cases.size() >= 30);
    const bool update = std::getenv("GPUPLAN_UPDATE_GOLDEN") != nullptr;
    const fs::path scratch =
        fs::temp_directory_path() / ("gpuplan_bad_inputs." + std::to_string(::getpid()));
    fs::create_directories(scratch);
    for (const fs::path& dir : cases) {
        DYNAMIC_SECTION(dir.filename().string()) {
            const std::string case_dir = fs::relative(dir, GPUPLAN_SOURCE_DIR).generic_string();
            std::string input;
            if (fs::exists(dir / "generate")) {
                input = (scratch / (dir.filename().string() + ".yaml")).string();
                spit(input, generate(first_line(slurp(dir / "generate"))));
            }
            const auto started = std::chrono::steady_clock::now();
            const auto result = gpuplan::test::run_cli(read_args(dir / "args", case_dir, input));
            const auto seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            const std::string line = replace_all(
                replace_all(first_line(result.err), input, "{input}"), case_dir, "{case}");
            if (update) {
                spit(dir / "expected_exit", std::to_string(result.exit_code) + "\n");
                spit(dir / "expected_first_line", line + "\n");
                continue;
            }
            INFO("stderr: " << result.err.substr(0, 2000));
            CHECK(std::to_string(result.exit_code) + "\n" == slurp(dir / "expected_exit"));
            CHECK(line + "\n" == slurp(dir / "expected_first_line"));
            // A refused input prints nothing on stdout; nothing ever prints NaN or infinity.
            if (result.exit_code != 0) {
                CHECK(result.out.empty());
            }
            CHECK_FALSE(prints_non_finite(result.out));
            // Each diagnostic line stays readable, however large the input.
            std::istringstream lines(result.err);
            for (std::string each; std::getline(lines, each);) {
                CHECK(each.size() <= 1000);
            }
            // Resource limits refuse early: no case takes long, even under the sanitizers.
            CHECK(seconds < 20.0);
        }
    }
    std::error_code ignored;
    fs::remove_all(scratch, ignored);
}

TEST_CASE("a failed run leaves an existing output file untouched and no temporary file",
          "[bad_inputs][cli][output]") {
    const fs::path scratch =
        fs::temp_directory_path() / ("gpuplan_atomic_output." + std::to_string(::getpid()));
    fs::create_directories(scratch);
    const fs::path output = scratch / "list.txt";
    spit(output, "previous contents\n");
    const auto result = gpuplan::test::run_cli(
        {"catalog", "list", "--no-default-catalog", "--catalog",
         "tests/fixtures/bad/catalog_negative_price/input.yaml", "-o", output.string()});
    CHECK(result.exit_code == 3);
    CHECK(slurp(output) == "previous contents\n");
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(scratch)) {
        ++entries;
    }
    CHECK(entries == 1);
    fs::remove_all(scratch);
}

TEST_CASE("a successful run replaces the output file as a whole", "[bad_inputs][cli][output]") {
    const fs::path scratch =
        fs::temp_directory_path() / ("gpuplan_atomic_replace." + std::to_string(::getpid()));
    fs::create_directories(scratch);
    const fs::path output = scratch / "list.txt";
    spit(output, std::string(100000, 'x'));
    const auto result =
        gpuplan::test::run_cli({"catalog", "list", "--no-default-catalog", "--catalog",
                                "tests/fixtures/catalog/minimal.yaml", "-o", output.string()});
    CHECK(result.exit_code == 0);
    const std::string written = slurp(output);
    CHECK(written.find('x' + std::string(99, 'x')) == std::string::npos);
    CHECK(written.find("A100-80GB") != std::string::npos);
    fs::remove_all(scratch);
}

TEST_CASE("an output path in a missing folder fails with exit 1 and writes nothing",
          "[bad_inputs][cli][output]") {
    const fs::path missing = fs::temp_directory_path() / "gpuplan_no_such_folder" / "out.txt";
    const auto result =
        gpuplan::test::run_cli({"catalog", "list", "--no-default-catalog", "--catalog",
                                "tests/fixtures/catalog/minimal.yaml", "-o", missing.string()});
    CHECK(result.exit_code == 1);
    CHECK_FALSE(fs::exists(missing.parent_path()));
}

TEST_CASE("an unreadable file is reported as a read error", "[bad_inputs][cli]") {
    if (::geteuid() == 0) {
        WARN("running as root: file permissions do not stop reading, case skipped");
        return;
    }
    const fs::path file =
        fs::temp_directory_path() / ("gpuplan_unreadable." + std::to_string(::getpid()) + ".yaml");
    spit(file, "schema_version: 1\n");
    fs::permissions(file, fs::perms::none);
    const auto result =
        gpuplan::test::run_cli({"catalog", "validate", "--no-default-catalog", file.string()});
    CHECK(result.exit_code == 1);
    CHECK(first_line(result.err) == file.string() + ": error: cannot read file: Permission denied");
    fs::remove(file);
}

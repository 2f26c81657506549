// Every table and prose line of every command's text output fits the terminal width (80 columns
// by default; CJK characters count 2), wraps at word boundaries, and `--wide` lifts the limit.

#include "../support/cli_runner.hpp"
#include "../support/files.hpp"
#include "cli/common.hpp"
#include "gpuplan/report/text_table.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <utility>

using gpuplan::report::display_width;
using gpuplan::test::run_cli;

namespace {

// The lines of `text` wider than `width` columns, each with its width.
std::string lines_over(const std::string& text, std::size_t width) {
    std::istringstream lines(text);
    std::string over;
    for (std::string line; std::getline(lines, line);) {
        if (display_width(line) > width) {
            over += std::to_string(display_width(line)) + ": " + line + "\n";
        }
    }
    return over;
}

std::size_t widest(const std::string& text) {
    std::istringstream lines(text);
    std::size_t most = 0;
    for (std::string line; std::getline(lines, line);) {
        most = std::max(most, display_width(line));
    }
    return most;
}

const std::vector<std::vector<std::string>>& commands() {
    static const std::vector<std::vector<std::string>> k_commands{
        {"recommend", "--preset", "resnet50-imagenet"},
        {"recommend", "--preset", "llama-70b-inference"},
        {"recommend", "--preset", "llama-7b-lora", "--explain"},
        {"recommend", "--preset", "gpt3-175b-pretrain", "--no-rules"},
        {"recommend", "--preset", "resnet50-imagenet", "--currency", "CNY"},
        {"tco", "--preset", "resnet50-imagenet"},
        {"tco", "--preset", "llama-70b-inference"},
        {"estimate", "--preset", "resnet50-imagenet"},
        {"estimate", "--preset", "llama-70b-inference"},
        {"catalog", "list"},
        {"catalog", "list", "--gpu", "A100-80GB"},
        {"catalog", "show", "H100"},
        {"catalog", "show", "Standard_ND96amsr_A100_v4"},
        {"catalog", "show", "azure"},
        {"catalog", "diff", "tests/fixtures/feeds/diff/old.yaml",
         "tests/fixtures/feeds/diff/aws_vms.csv", "--as-of", "2026-11-01"},
        {"rules", "show"},
        {"rules", "explain", "--preset", "resnet50-imagenet"},
        {"rules", "explain", "--preset", "llama-70b-inference"},
        {"check", "tests/fixtures/plans/plan-a.json", "--max-cost", "1", "--max-hours", "1",
         "--today", "2026-11-29", "--max-catalog-age", "1d"},
        {"presets"},
        {"fleet", "examples/team-portfolio.yaml"},
        {"catalog", "list", "--sort", "price"},
        {"catalog", "list", "--sort", "provider", "--currency", "CNY"},
    };
    return k_commands;
}

} // namespace

TEST_CASE("every command's text output fits 80 columns by default", "[cli][width]") {
    for (const auto& args : commands()) {
        const auto result = run_cli(args);
        INFO(args.front() << " " << (args.size() > 1 ? args[1] : "") << " "
                          << (args.size() > 2 ? args[2] : ""));
        CHECK(!result.out.empty());
        CHECK(lines_over(result.out, gpuplan::report::k_terminal_width).empty());
    }
}

TEST_CASE("the line check counts wide characters twice and fails on a long line", "[cli][width]") {
    CHECK(!lines_over(std::string(81, 'x') + "\n", 80).empty());
    CHECK(lines_over(std::string(80, 'x') + "\n", 80).empty());
    // 40 CJK characters are 80 columns; one more is 82.
    std::string cjk;
    for (int i = 0; i < 41; ++i) {
        cjk += "日";
    }
    CHECK(!lines_over(cjk, 80).empty());
}

TEST_CASE("with --wide nothing is fitted, so the same tables grow past 80 columns",
          "[cli][width]") {
    CHECK(widest(run_cli({"--wide", "tco", "--preset", "resnet50-imagenet"}).out) > 80);
    CHECK(widest(run_cli({"--wide", "catalog", "show", "H100"}).out) > 80);
    CHECK(widest(run_cli({"--wide", "rules", "explain", "--preset", "resnet50-imagenet"}).out) >
          80);
}

TEST_CASE("the terminal's width comes from the ioctl, then COLUMNS, else unknown", "[cli][width]") {
    using gpuplan::cli::terminal_columns;
    CHECK(terminal_columns(132, "100") == 132);
    CHECK(terminal_columns(0, "100") == 100);
    CHECK(terminal_columns(0, nullptr) == 0);
    CHECK(terminal_columns(0, "") == 0);
    CHECK(terminal_columns(0, "wide") == 0);
    CHECK(terminal_columns(0, "-5") == 0);
    CHECK(terminal_columns(0, "99999999999999999999999") == 0);
}

TEST_CASE("a wider terminal gets longer ids, a narrow one the minimum of 40 columns",
          "[cli][width]") {
    std::ostringstream out;
    std::ostringstream err;
    gpuplan::cli::Io io{out, err, false, false, gpuplan::Date{2026, 11, 29}};
    io.columns = 120;
    std::filesystem::current_path(GPUPLAN_SOURCE_DIR);
    REQUIRE(gpuplan::cli::run({"rules", "explain", "--preset", "resnet50-imagenet"}, io) == 0);
    const std::size_t at_120 = widest(out.str());
    CHECK(at_120 > 80);
    CHECK(at_120 <= 120);
    std::ostringstream narrow;
    gpuplan::cli::Io small{narrow, err, false, false, gpuplan::Date{2026, 11, 29}};
    small.columns = 10;
    REQUIRE(gpuplan::cli::run({"rules", "show"}, small) == 0);
    CHECK(widest(narrow.str()) <= gpuplan::report::k_min_terminal_width);
}

namespace {

// The words of `text`, split at spaces and line ends, in lower case without the brackets and
// punctuation around them; rules (`----`) left out.
std::set<std::string> words_of(const std::string& text) {
    std::istringstream in(text);
    std::set<std::string> words;
    for (std::string word; in >> word;) {
        const std::size_t start = word.find_first_not_of("(");
        const std::size_t stop = word.find_last_not_of("),;:.");
        if (start == std::string::npos || stop == std::string::npos || stop < start ||
            word.find_first_not_of('-') == std::string::npos) {
            continue;
        }
        word = word.substr(start, stop - start + 1);
        std::transform(word.begin(), word.end(), word.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        words.insert(word);
    }
    return words;
}

// The words of `fitted` that are pieces of a word of `whole`: cut (`A100-…`), or the start or
// end of a longer word broken where wrapping breaks one (`eu-` and `west-1` of `eu-west-1`).
// Words a narrow layout adds (a note on a column it leaves out) are not pieces.
std::string split_words(const std::string& fitted, const std::string& whole) {
    const std::set<std::string> known = words_of(whole);
    std::string out;
    for (const std::string& word : words_of(fitted)) {
        if (known.contains(word)) {
            continue;
        }
        // Wrapping breaks a word after a `-`, `_` or `/`; cutting ends it with an ellipsis.
        const auto breaks = [](char c) { return c == '-' || c == '_' || c == '/'; };
        const bool piece =
            word.ends_with("\xe2\x80\xa6") ||
            std::any_of(known.begin(), known.end(), [&](const std::string& k) {
                return k.size() > word.size() &&
                       ((k.starts_with(word) && breaks(word.back())) ||
                        (k.ends_with(word) && breaks(k[k.size() - word.size() - 1])));
            });
        if (piece) {
            out += "'" + word + "' ";
        }
    }
    return out;
}

// Runs `args` at 80 columns, then with --wide and at 1,000 columns (a layout chosen for a
// terminal keeps its words whole there), in `io_env`'s environment: the fitted output and the
// two others.
std::pair<std::string, std::string>
fitted_and_whole(const std::vector<std::string>& args,
                 const std::map<std::string, std::string>& io_env = {}) {
    std::filesystem::current_path(GPUPLAN_SOURCE_DIR);
    constexpr std::size_t k_unlimited = 1000;
    std::pair<std::string, std::string> outputs;
    for (const std::size_t columns :
         {gpuplan::report::k_terminal_width, std::size_t{0}, k_unlimited}) {
        std::ostringstream out;
        std::ostringstream err;
        gpuplan::cli::Io io{out, err, false, false, gpuplan::Date{2026, 11, 29}};
        io.columns = columns == 0 ? gpuplan::report::k_terminal_width : columns;
        io.env = io_env;
        std::vector<std::string> run_args = args;
        if (columns == 0) {
            run_args.insert(run_args.begin(), "--wide");
        }
        CHECK(gpuplan::cli::run(run_args, io) == 0);
        (columns == gpuplan::report::k_terminal_width ? outputs.first : outputs.second) +=
            out.str();
    }
    return outputs;
}

// The commands a --help lists under "Subcommands:".
std::vector<std::string> subcommands_in(const std::string& help) {
    std::istringstream lines(help);
    std::vector<std::string> out;
    bool in_section = false;
    for (std::string line; std::getline(lines, line);) {
        if (line == "Subcommands:") {
            in_section = true;
        } else if (line.empty()) {
            in_section = false;
        } else if (in_section && line.rfind("  ", 0) == 0 && line[2] != ' ') {
            out.push_back(line.substr(2, line.find(' ', 2) - 2));
        }
    }
    return out;
}

// Checks that `args`' output fits 80 columns without a split word; true when the unfitted
// outputs have a line past 80 (so that the check had something to fit).
bool check_fitted(const std::vector<std::string>& args,
                  const std::map<std::string, std::string>& io_env = {}) {
    const auto [fitted, whole] = fitted_and_whole(args, io_env);
    std::string command;
    for (const std::string& arg : args) {
        command += arg + " ";
    }
    INFO(command);
    CHECK(!fitted.empty());
    CHECK(lines_over(fitted, gpuplan::report::k_terminal_width).empty());
    CHECK(split_words(fitted, whole) == "");
    return widest(whole) > gpuplan::report::k_terminal_width;
}

} // namespace

TEST_CASE("every --help fits 80 columns, wrapped at spaces, and --wide leaves it unwrapped",
          "[cli][width]") {
    std::vector<std::vector<std::string>> pending{{}};
    std::size_t helps = 0;
    std::size_t fitted = 0;
    while (!pending.empty()) {
        std::vector<std::string> path = pending.back();
        pending.pop_back();
        std::vector<std::string> args = path;
        args.emplace_back("--help");
        fitted += check_fitted(args) ? 1U : 0U;
        ++helps;
        for (const std::string& sub : subcommands_in(run_cli(args).out)) {
            std::vector<std::string> next = path;
            next.push_back(sub);
            pending.push_back(next);
        }
    }
    CHECK(helps >= 18);
    // Descriptions longer than a line are wrapped, not left to run past the edge.
    CHECK(fitted >= 10);
    const std::string help = run_cli({"recommend", "--help"}).out;
    CHECK(help.find("  --discount PROVIDER=FRACTION ...\n"
                    "                              Negotiated discount on every charge of a "
                    "provider,\n"
                    "                              PROVIDER=FRACTION (aws=15%; repeatable)\n") !=
          std::string::npos);
}

TEST_CASE("config show, catalog import, diff, list and estimate fit 80 columns with whole words",
          "[cli][width]") {
    const std::map<std::string, std::string> env{
        {"GPUPLAN_CATALOG", "tests/fixtures/feeds/diff/old.yaml tests/fixtures/catalogs/"},
        {"GPUPLAN_DISCOUNT", "aws=15%,gcp=10%,azure=12%,lambda=5%,oci=20%"},
        {"GPUPLAN_CURRENCY", "EUR"}};
    CHECK(check_fitted({"config", "show"}, env));
    CHECK(check_fitted({"catalog", "diff", "tests/fixtures/feeds/diff/old.yaml",
                        "tests/fixtures/feeds/diff/aws_vms.csv", "--as-of", "2026-11-01"}));
    const gpuplan::test::Scratch scratch;
    check_fitted({"catalog", "import", "--from", "skypilot", "--as-of", "2026-11-01",
                  "tests/fixtures/feeds/diff/aws_vms.csv", "-o", (scratch.path / "feed").string()});
    check_fitted({"estimate", "--preset", "resnet50-imagenet"});
    check_fitted({"estimate", "--preset", "llama-70b-inference"});
    check_fitted({"catalog", "list", "--gpu", "A100-80GB"});
    check_fitted({"catalog", "list", "--sort", "price"});
    check_fitted({"catalog", "list"});
}

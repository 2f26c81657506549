// Every table and prose line of every command's text output fits the terminal width (80 columns
// by default; CJK characters count 2), wraps at word boundaries, and `--wide` lifts the limit.

#include "../support/cli_runner.hpp"
#include "cli/common.hpp"
#include "gpuplan/report/text_table.hpp"

#include <catch2/catch.hpp>
#include <sstream>

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

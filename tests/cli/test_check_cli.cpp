// gpuplan check and report through the CLI: every exit code, colours, --timestamp, --chart and
// -o, and the docs/cli.md examples that must be the golden outputs.

#include "../support/cli_runner.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;
using gpuplan::test::run_cli;

namespace {

const std::vector<std::string> k_fixture_catalog = {"--no-default-catalog", "--catalog",
                                                    "tests/fixtures/catalog/minimal.yaml"};

std::vector<std::string> with_catalog(std::vector<std::string> args) {
    args.insert(args.begin(), k_fixture_catalog.begin(), k_fixture_catalog.end());
    return args;
}

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("check exits 0 when every threshold holds", "[cli][check]") {
    const auto r = run_cli(with_catalog({"check", "tests/fixtures/plans/plan-a.json", "--max-cost",
                                         "96000", "--max-hours", "521"}));
    CHECK(r.exit_code == 0);
    // The verdict wraps at 80 columns, at a word boundary.
    CHECK(r.out == "PASS: option testcloud/r1/big.8x/spot (rank 1): 4 checks hold: deadline, "
                   "budget,\n  max_cost, max_hours\n");
    CHECK(r.err.empty());
}

TEST_CASE("check exits 4 and names each failed threshold on stderr", "[cli][check]") {
    // 96,000.00 total against a 95,999.99 limit: one cent over fails.
    const auto r = run_cli(with_catalog({"check", "tests/fixtures/plans/plan-a.json", "--max-cost",
                                         "95999.99", "--deadline", "21d"}));
    CHECK(r.exit_code == 4);
    CHECK(r.err == "gpuplan: check failed: deadline: wall time 21d 17h (deadline 21d)\n"
                   "gpuplan: check failed: max_cost: total 96,000.00 USD (limit 95,999.99 USD)\n");
}

TEST_CASE("check exits 3 for a plan of another schema major and says which versions it reads",
          "[cli][check]") {
    const auto r = run_cli(with_catalog({"check", "tests/fixtures/plans/future-major.json"}));
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("/schema_version: unsupported plan schema_version \"2.0\"; this gpuplan") !=
          std::string::npos);
    CHECK(r.err.find("reads plan files of schema_version 1.0 to 1.x") != std::string::npos);
    CHECK(r.out.empty());
}

TEST_CASE("check exits 3 with the line and column of a JSON syntax error", "[cli][check]") {
    const auto r = run_cli(with_catalog({"check", "tests/fixtures/plans/syntax-error.json"}));
    CHECK(r.exit_code == 3);
    CHECK(r.err.rfind("tests/fixtures/plans/syntax-error.json:5:16: error: not valid JSON: ", 0) ==
          0);
}

TEST_CASE("check exits 2 for usage errors", "[cli][check]") {
    CHECK(run_cli(with_catalog({"check"})).exit_code == 2);
    CHECK(run_cli(with_catalog({"check", "tests/fixtures/plans/plan-a.json", "--max-cost", "abc"}))
              .exit_code == 2);
    CHECK(run_cli(
              with_catalog({"check", "tests/fixtures/plans/plan-a.json", "--max-increase", "10%"}))
              .exit_code == 2);
    CHECK(run_cli(with_catalog({"check", "tests/fixtures/plans/plan-a.json", "--today",
                                "2026-13-01", "--max-catalog-age", "90d"}))
              .exit_code == 2);
}

TEST_CASE("check exits 1 when the plan file cannot be read", "[cli][check]") {
    const auto r = run_cli(with_catalog({"check", "tests/fixtures/plans/missing.json"}));
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("missing.json: error: cannot read file") != std::string::npos);
}

TEST_CASE("check of a workload file runs recommend in process and gates its best option",
          "[cli][check]") {
    const std::vector<std::string> base = {"check", "examples/llama-7b-lora-finetune.yaml"};
    auto pass = base;
    pass.insert(pass.end(), {"--max-cost", "1000"});
    CHECK(run_cli(with_catalog(pass)).exit_code == 0);
    auto fail = base;
    fail.insert(fail.end(), {"--max-cost", "1"});
    const auto r = run_cli(with_catalog(fail));
    CHECK(r.exit_code == 4);
    CHECK(r.out.rfind("FAIL: option testcloud/r1/big.8x/spot (rank 1)", 0) == 0);
}

TEST_CASE("the verdict is coloured only on a terminal without NO_COLOR or --no-color",
          "[cli][check]") {
    const auto run = [](bool tty, bool no_color_env, bool flag) {
        std::vector<std::string> args =
            with_catalog({"check", "tests/fixtures/plans/plan-a.json", "--max-cost", "1"});
        if (flag) {
            args.emplace_back("--no-color");
        }
        std::filesystem::current_path(GPUPLAN_SOURCE_DIR);
        std::ostringstream out;
        std::ostringstream err;
        gpuplan::cli::Io io{out, err, tty, no_color_env, gpuplan::Date{2026, 11, 29}};
        (void)gpuplan::cli::run(args, io);
        return out.str();
    };
    CHECK(run(true, false, false).rfind("\033[31mFAIL\033[0m: ", 0) == 0);
    CHECK(run(false, false, false).rfind("FAIL: ", 0) == 0);
    CHECK(run(true, true, false).rfind("FAIL: ", 0) == 0);
    CHECK(run(true, false, true).rfind("FAIL: ", 0) == 0);
}

TEST_CASE("generated_at appears right after generator, and only with --timestamp",
          "[cli][timestamp]") {
    const std::vector<std::string> args = {
        "check", "tests/fixtures/plans/plan-a.json", "--max-cost", "1000000", "--format", "json"};
    CHECK(run_cli(with_catalog(args)).out.find("generated_at") == std::string::npos);
    auto stamped = with_catalog(args);
    stamped.emplace_back("--timestamp");
    const std::string out = run_cli(stamped).out;
    const std::regex shape(
        R"(\}, *\n  "generated_at": "\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z",\n  "verdict")");
    CHECK(std::regex_search(out, shape));
}

TEST_CASE("every JSON output is stamped by its renderer: after generator, else after "
          "schema_version",
          "[cli][timestamp]") {
    const std::regex after_generator(
        R"(\}, *\n  "generated_at": "\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z",\n)");
    for (std::vector<std::string> args :
         {std::vector<std::string>{"recommend", "examples/llama-7b-lora-finetune.yaml"},
          std::vector<std::string>{"estimate", "examples/llama-7b-lora-finetune.yaml"},
          std::vector<std::string>{"catalog", "show", "A100-80GB"}}) {
        args.insert(args.end(), {"--format", "json"});
        CHECK(run_cli(with_catalog(args)).out.find("generated_at") == std::string::npos);
        args.emplace_back("--timestamp");
        CHECK(std::regex_search(run_cli(with_catalog(args)).out, after_generator));
    }
    const std::string presets = run_cli({"presets", "--format", "json", "--timestamp"}).out;
    CHECK(std::regex_search(
        presets, std::regex(R"(^\{\n  "schema_version": "[0-9.]+",\n  "generated_at": ")")));
}

TEST_CASE("report writes the markdown and the SVG chart atomically to their files",
          "[cli][report]") {
    const fs::path folder = fs::temp_directory_path() / "gpuplan-report-test";
    fs::remove_all(folder);
    fs::create_directories(folder);
    const fs::path markdown = folder / "report.md";
    const fs::path svg = folder / "chart.svg";
    const auto r = run_cli(with_catalog({"report", "examples/llama-7b-lora-finetune.yaml", "-o",
                                         markdown.string(), "--chart", svg.string()}));
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());
    CHECK(slurp(markdown) ==
          slurp(fs::path(GPUPLAN_SOURCE_DIR) / "tests/golden/cases/report-fixture-train/stdout"));
    const std::string chart = slurp(svg);
    const fs::path golden = fs::path(GPUPLAN_SOURCE_DIR) / "tests/golden/charts/report-train.svg";
    if (std::getenv("GPUPLAN_UPDATE_GOLDEN") != nullptr) {
        std::ofstream(golden, std::ios::binary | std::ios::trunc) << chart;
    }
    CHECK(chart == slurp(golden));
    std::size_t leftovers = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder)) {
        ++leftovers;
    }
    CHECK(leftovers == 2); // no temporary files left behind
    fs::remove_all(folder);
}

TEST_CASE("the cli.md examples of check and report are the golden outputs", "[cli][docs]") {
    const fs::path root = GPUPLAN_SOURCE_DIR;
    const std::string cli = slurp(root / "docs/cli.md");
    for (const char* name : {"check-fail-table", "check-compare-markdown", "check-future-schema"}) {
        const fs::path dir = root / "tests/golden/cases" / name;
        const std::string out = slurp(dir / "stdout");
        const std::string err = slurp(dir / "stderr");
        INFO(name);
        CHECK(cli.find(out + err) != std::string::npos);
    }
    const std::string report = slurp(root / "tests/golden/cases/report-fixture-train/stdout");
    const std::string sensitivity = report.substr(
        report.find("## Sensitivity"), report.find("## Decision") - report.find("## Sensitivity"));
    CHECK(cli.find(sensitivity) != std::string::npos);
}

TEST_CASE("check's errors on standard error show control characters escaped", "[cli][check]") {
    const auto r = run_cli(with_catalog({"check", "tests/fixtures/plans/plan-a.json", "--option",
                                         "nope\x1b[2J", "--max-cost", "1"}));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK(r.err.find("has no option 'nope\\x1b[2J'") != std::string::npos);
}

TEST_CASE("one check that holds is worded in the singular", "[cli][check]") {
    // A workload from flags has no deadline and no budget: --max-cost is the only check.
    const auto plan = run_cli(with_catalog(
        {"recommend", "--params", "1B", "--tokens", "1B", "--task", "train", "--format", "json"}));
    REQUIRE(plan.exit_code == 0);
    const fs::path file = fs::temp_directory_path() / "gpuplan-one-check-plan.json";
    std::ofstream(file, std::ios::binary) << plan.out;
    const auto r = run_cli(with_catalog({"check", file.string(), "--max-cost", "1e9"}));
    fs::remove(file);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find(": 1 check holds: max_cost\n") != std::string::npos);
}

#include "../support/cli_runner.hpp"
#include "cli/common.hpp"
#include "gpuplan/finance/finance.hpp"
#include "gpuplan/report/text_table.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using nlohmann::json;

namespace {

const std::vector<std::string> k_fixture{"--no-default-catalog", "--catalog",
                                         "tests/fixtures/catalog/cost.yaml"};

json run_json(std::vector<std::string> args) {
    std::vector<std::string> all = k_fixture;
    all.insert(all.end(), args.begin(), args.end());
    all.push_back("--format");
    all.push_back("json");
    const auto result = gpuplan::test::run_cli(all);
    REQUIRE(result.exit_code == 0);
    return json::parse(result.out);
}

} // namespace

TEST_CASE("a reader recomputes every tco npv from its cash flows", "[report][tco]") {
    const json out = run_json({"tco", "tests/fixtures/workloads/finetune-7b.yaml", "--gpu",
                               "A100-80GB", "--provider", "testcloud"});
    const double rate = out["assumptions"]["monthly_rate"].get<double>();
    CHECK(rate == Approx(gpuplan::finance::monthly_rate(0.10)));
    REQUIRE(out["options"].size() == 5);
    for (const json& option : out["options"]) {
        std::vector<double> amounts;
        double items_sum = 0.0;
        for (const json& flow : option["cash_flows"]) {
            CHECK(flow["month"].get<std::size_t>() == amounts.size());
            amounts.push_back(flow["amount"].get<double>());
            for (const auto& item : flow["items"].items()) {
                items_sum += item.value().get<double>();
            }
        }
        const double cents = 0.005 * static_cast<double>(amounts.size());
        CHECK(gpuplan::finance::npv(rate, amounts) ==
              Approx(option["npv"].get<double>()).margin(cents));
        CHECK(items_sum == Approx(option["total"].get<double>()).margin(10 * cents));
        CHECK(option["cash_flows"].back()["cumulative"].get<double>() ==
              Approx(option["total"].get<double>()).margin(cents));
    }
}

TEST_CASE("recommend lists options best first and never ranks a rejected one", "[report]") {
    const json out = run_json(
        {"recommend", "tests/fixtures/workloads/finetune-7b.yaml", "--top", "0", "--bridge"});
    const json& options = out["options"];
    REQUIRE(options.size() == out["ranked_total"].get<std::size_t>());
    std::set<std::string> ranked;
    for (std::size_t i = 0; i < options.size(); ++i) {
        CHECK(options[i]["rank"].get<std::size_t>() == i + 1);
        CHECK(options[i]["meets_deadline"].get<bool>());
        CHECK(options[i]["within_budget"].get<bool>());
        if (i > 0) {
            // Firm answers first (docs/methodology.md, "Firm and soft answers"), each group by NPV.
            const bool firm_before = options[i - 1]["firm"].get<bool>();
            const bool firm_here = options[i]["firm"].get<bool>();
            CHECK((firm_before || !firm_here));
            if (firm_before == firm_here) {
                CHECK(options[i - 1]["cost"]["npv"].get<double>() <=
                      options[i]["cost"]["npv"].get<double>());
            }
        }
        ranked.insert(options[i]["id"].get<std::string>());
    }
    for (const json& rejected : out["rejected"]) {
        CHECK(ranked.count(rejected["id"].get<std::string>()) == 0);
    }
    CHECK(out["decision"]["rules"] == "catalog/decision_tree.yaml");
    CHECK(!out["decision"]["trace"].empty());
    CHECK(out["decision"]["candidate_gpus"] == json::array({"A100-80GB", "L4"}));
}

TEST_CASE("recommend is deterministic across runs", "[report]") {
    const std::vector<std::string> args{"--no-default-catalog",
                                        "--catalog",
                                        "tests/fixtures/catalog/cost.yaml",
                                        "recommend",
                                        "tests/fixtures/workloads/finetune-7b.yaml",
                                        "--simulate",
                                        "50"};
    CHECK(gpuplan::test::run_cli(args).out == gpuplan::test::run_cli(args).out);
}

TEST_CASE("the cli.md examples of recommend and tco are the golden outputs", "[report][docs]") {
    auto slurp = [](const std::string& relative) {
        std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/" + relative, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    };
    const std::string cli = slurp("docs/cli.md");
    const std::string recommend = slurp("tests/golden/cases/recommend-table/stdout");
    REQUIRE_FALSE(recommend.empty());
    CHECK(cli.find(recommend) != std::string::npos);
    const std::string tco = slurp("tests/golden/cases/tco-table/stdout");
    CHECK(cli.find(tco.substr(0, tco.find("    3 "))) != std::string::npos);
}

TEST_CASE("the recommend table fits 80 columns unless --wide", "[report]") {
    const auto result = gpuplan::test::run_cli(
        {"recommend", "examples/llama-70b-inference.yaml", "--top", "20", "--details"});
    REQUIRE(result.exit_code == 0);
    std::istringstream lines(result.out);
    std::size_t rows = 0;
    bool in_table = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with(" #  where")) {
            in_table = true;
        } else if (line.empty()) {
            in_table = false;
        }
        if (in_table) {
            // A row, or its id on a line of its own (four spaces in), whole.
            rows += line.starts_with("    ") ? 0U : 1U;
            CHECK(gpuplan::report::display_width(line) <= 80);
        }
    }
    CHECK(rows == 22);
}

TEST_CASE("the best option's prices are aged to today: 90 days by default, --max-catalog-age",
          "[report]") {
    // The fixture's prices are dated 2026-07-01; the runner's today is 2026-11-29 (151 days).
    const json aged = run_json({"recommend", "tests/fixtures/workloads/finetune-7b.yaml"});
    REQUIRE(aged["stale_prices"].is_object());
    CHECK(aged["stale_prices"]["as_of"] == "2026-07-01");
    CHECK(aged["stale_prices"]["age_days"] == 151.0);
    CHECK(aged["stale_prices"]["limit_days"] == 90.0);
    const json within = run_json(
        {"recommend", "tests/fixtures/workloads/finetune-7b.yaml", "--max-catalog-age", "160d"});
    CHECK(within["stale_prices"].is_null());
    const json tighter = run_json(
        {"recommend", "tests/fixtures/workloads/finetune-7b.yaml", "--max-catalog-age", "2w"});
    CHECK(tighter["stale_prices"]["limit_days"] == 14.0);
}

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

} // namespace

TEST_CASE("the first screen decides in 24 lines of 80 columns", "[report]") {
    const std::vector<std::vector<std::string>> workloads{
        {"recommend", "examples/llama-7b-lora-finetune.yaml"},
        {"recommend", "examples/llama-70b-inference.yaml"},
        {"recommend", "--preset", "llama2-7b-pretrain"},
        {"recommend", "--preset", "resnet50-imagenet"},
        {"recommend", "--preset", "stable-diffusion-inference", "--uncertainty"},
        {"recommend", "tests/fixtures/workloads/weekly-finetune-aws.yaml", "--accept-soft",
         "--uncertainty"}};
    for (const auto& args : workloads) {
        INFO(args[1] + " " + args.back());
        const auto result = gpuplan::test::run_cli(args);
        REQUIRE(result.exit_code == 0);
        const std::vector<std::string> lines = lines_of(result.out);
        // The whole answer fits one screen with the prompt: nothing scrolls away.
        CHECK(lines.size() <= 23);
        bool best = false;
        bool next = false;
        for (const std::string& line : lines) {
            CHECK(gpuplan::report::display_width(line) <= 80);
            best = best || line.starts_with("Best: ");
            next = next || line.starts_with("Next: ");
        }
        CHECK(best);
        CHECK(next);
        // Every row's id is whole on a line of its own or at the end of its row, never cut.
        auto json_args = args;
        json_args.insert(json_args.end(), {"--format", "json", "--top", "3"});
        const auto json_result = gpuplan::test::run_cli(json_args);
        REQUIRE(json_result.exit_code == 0);
        const json plan = json::parse(json_result.out);
        for (const json& option : plan["options"]) {
            const std::string id = option["id"];
            CHECK(std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
                return line.ends_with(id) &&
                       (line.size() == id.size() || line[line.size() - id.size() - 1] == ' ');
            }));
        }
        CHECK(result.out.find("…") == std::string::npos);
    }
}

TEST_CASE("every section follows the first screen with --details or --explain or --wide",
          "[report]") {
    const std::vector<std::string> base{"recommend", "tests/fixtures/workloads/finetune-7b.yaml"};
    const auto first = gpuplan::test::run_cli(base);
    REQUIRE(first.exit_code == 0);
    CHECK(first.out.find("Assumptions:") == std::string::npos);
    CHECK(first.out.find("Best per GPU model:") == std::string::npos);
    for (const char* flag : {"--details", "--explain", "--wide"}) {
        INFO(flag);
        auto args = base;
        args.emplace_back(flag);
        const auto full = gpuplan::test::run_cli(args);
        REQUIRE(full.exit_code == 0);
        CHECK(full.out.find("Best per GPU model:") != std::string::npos);
        CHECK(full.out.find("Assumptions:") != std::string::npos);
        CHECK(full.out.find("Why") != std::string::npos);
    }
}

TEST_CASE("the Next lines repeat the command as typed and quoted for a shell", "[report]") {
    const auto result = gpuplan::test::run_cli(
        {"recommend", "--preset", "llama-7b-lora", "--gpu", "H100", "--provider", "aws"});
    REQUIRE(result.exit_code == 0);
    CHECK(
        result.out.find(
            "Next: add to gpuplan recommend --preset llama-7b-lora --gpu H100 --provider aws\n") !=
        std::string::npos);
    CHECK(result.out.find("  --emit skypilot FILE  a SkyPilot task for #1") != std::string::npos);
    const std::vector<std::string> args{"recommend", "a b.yaml", "it's", ""};
    CHECK(gpuplan::cli::shell_command(args) == "gpuplan recommend 'a b.yaml' 'it'\\''s' ''");
}

// Inputs that used to pass silently or pick the wrong thing: a plan whose best option is not
// first, a discount for a provider the catalog lacks, workload numbers past their limits.

#include "../support/cli_runner.hpp"
#include "../support/files.hpp"
#include "gpuplan/error.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

TEST_CASE("check --option best gates rank 1 wherever a plan lists it; rank 0 is refused",
          "[cli][check]") {
    const gpuplan::test::Scratch scratch;
    const fs::path& dir = scratch.path;
    std::ifstream in(fs::path(GPUPLAN_SOURCE_DIR) / "tests/fixtures/plans/plan-a.json");
    nlohmann::json plan = nlohmann::json::parse(in);
    auto& options = plan["options"];
    std::reverse(options.begin(), options.end()); // rank 2 first, as a re-sorted plan may be
    std::ofstream(dir / "reversed.json") << plan.dump(2);
    const auto reversed = gpuplan::test::run_cli(
        {"check", (dir / "reversed.json").string(), "--max-cost", "1000000"});
    CHECK(reversed.exit_code == 0);
    CHECK_THAT(reversed.out, Catch::Contains("testcloud/r1/big.8x/spot (rank 1)"));

    options[0]["rank"] = 0;
    std::ofstream(dir / "rank0.json") << plan.dump(2);
    const auto zero =
        gpuplan::test::run_cli({"check", (dir / "rank0.json").string(), "--max-cost", "1"});
    CHECK(zero.exit_code == 3);
    CHECK_THAT(zero.err, Catch::Contains("/options/0/rank: expected a whole rank from 1 to 1e9"));
}

TEST_CASE("a discount for a provider the catalog lacks is a usage error with a hint",
          "[cli][recommend]") {
    const auto r =
        gpuplan::test::run_cli({"recommend", "--preset", "llama-7b-lora", "--discount", "gpc=10%"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("--discount: no provider 'gpc' in the catalog; did you "
                                      "mean 'gcp'?"));
}

TEST_CASE("a workload file's budget and deadline keep the flags' limits", "[cli][workload]") {
    const gpuplan::test::Scratch scratch;
    const fs::path& dir = scratch.path;
    std::ofstream(dir / "w.yaml")
        << "schema_version: 1\nname: w\ntask: finetune\nmodel: {family: transformer, params: 7B}\n"
           "data: {tokens: 100M}\nconstraints: {budget: 1e308 USD, deadline: 1e308h}\n";
    const auto r = gpuplan::test::run_cli({"recommend", (dir / "w.yaml").string()});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("/constraints/budget: expected an amount from 0 to 1e18"));
    CHECK_THAT(r.err, Catch::Contains("/constraints/deadline: expected a duration above 0"));
}

TEST_CASE("help and version are commands too; an unknown word lists the commands", "[cli][usage]") {
    const auto help = gpuplan::test::run_cli({"help"});
    CHECK(help.exit_code == 0);
    CHECK_THAT(help.out, Catch::Contains("Usage: gpuplan [OPTIONS] SUBCOMMAND"));
    const auto help_recommend = gpuplan::test::run_cli({"help", "recommend"});
    CHECK(help_recommend.exit_code == 0);
    CHECK_THAT(help_recommend.out, Catch::Contains("Usage: gpuplan recommend"));
    const auto version = gpuplan::test::run_cli({"version"});
    CHECK(version.exit_code == 0);
    CHECK_THAT(version.out, Catch::StartsWith("gpuplan "));
    const auto unknown = gpuplan::test::run_cli({"xyz"});
    CHECK(unknown.exit_code == 2);
    CHECK_THAT(unknown.err,
               Catch::Contains("unknown command 'xyz'; the commands are: catalog, check"));
    CHECK_THAT(unknown.err, !Catch::Contains("completions"));
}

TEST_CASE("an empty -o name is a usage error, not standard output", "[cli][usage]") {
    const auto r = gpuplan::test::run_cli({"presets", "-o", ""});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("--output: expected a file name, got ''"));
}

TEST_CASE("catalog show names a self-built build, as the help says it does", "[cli][catalog]") {
    const auto text = gpuplan::test::run_cli({"catalog", "show", "8xH100-SXM"});
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.out, Catch::StartsWith("self_built/8xH100-SXM: 8 x H100, capex "));
    const auto json =
        gpuplan::test::run_cli({"catalog", "show", "self_built/8xB200", "--format", "json"});
    REQUIRE(json.exit_code == 0);
    const auto parsed = nlohmann::json::parse(json.out);
    CHECK(parsed["build"] == "8xB200");
    CHECK(parsed["gpu_count"] == 8);
}

TEST_CASE("whole-number flags refuse what would overflow instead of clamping it", "[cli][usage]") {
    const auto seed = gpuplan::test::run_cli(
        {"recommend", "--preset", "llama-7b-lora", "--seed", "99999999999999999999"});
    CHECK(seed.exit_code == 2);
    CHECK_THAT(seed.err, Catch::Contains("--seed: expected a whole number from 0 to "));
    const auto negative =
        gpuplan::test::run_cli({"recommend", "--preset", "llama-7b-lora", "--seed", "-5"});
    CHECK(negative.exit_code == 2);
    const auto timeout = gpuplan::test::run_cli({"catalog", "update", "--timeout", "1e30"});
    CHECK(timeout.exit_code == 2);
    CHECK_THAT(timeout.err, Catch::Contains("--timeout: expected a whole number from 0 to 86400"));
}

TEST_CASE("numbers that would print NaN or inf are refused where they enter", "[cli][usage]") {
    const auto counts =
        gpuplan::test::run_cli({"estimate", "--params", "1e-320", "--tokens", "1e-320"});
    CHECK(counts.exit_code == 2);
    CHECK_THAT(counts.err, Catch::Contains("--params: expected a number from 1"));
    const auto storage = gpuplan::test::run_cli(
        {"recommend", "--preset", "llama-7b-lora", "--storage-price", "1e308"});
    CHECK(storage.exit_code == 2);
    CHECK_THAT(storage.err, Catch::Contains("--storage-price: expected USD per GB-month"));
}

TEST_CASE("an unknown GPU model in a workload file is an error at its place", "[cli][workload]") {
    const gpuplan::test::Scratch scratch;
    const fs::path file = scratch.path / "w.yaml";
    std::ofstream(file) << "schema_version: 1\nname: w\ntask: finetune\n"
                           "model: {family: transformer, params: 7B}\ndata: {tokens: 1M}\n"
                           "constraints: {gpu_models: [h100, NOPE]}\n";
    const auto r = gpuplan::test::run_cli({"recommend", file.string()});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("w.yaml:6:") &&
                          Catch::Contains("/constraints/gpu_models/1: unknown GPU model 'NOPE'"));
}

TEST_CASE("a name cannot become a markdown link or image, nor a Mermaid directive",
          "[cli][escape]") {
    const gpuplan::test::Scratch scratch;
    const fs::path file = scratch.path / "w.yaml";
    std::ofstream(file) << "schema_version: 1\n"
                           "name: \"![x](https://evil.example/p.png) %%{init: {}}%%\"\n"
                           "task: finetune\nmodel: {family: transformer, params: 7B}\n"
                           "data: {tokens: 100M}\n";
    const auto r = gpuplan::test::run_cli({"report", file.string()});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::StartsWith("# gpuplan report: !\\[x\\](https://evil.example/"));
    // Inside the Mermaid block markdown is not rendered; a directive would be.
    CHECK_THAT(r.out, Catch::Contains("title \"Cumulative cost of ![x](https://evil.example/p.png) "
                                      "％％{init: {}}％％\""));
}

TEST_CASE("an error never echoes a 100 kB value whole", "[cli][usage]") {
    const std::string huge(100'000, 'x');
    const auto flag = gpuplan::test::run_cli({"estimate", "--params", huge, "--tokens", "1"});
    CHECK(flag.exit_code == 2);
    CHECK(flag.err.size() < 2 * gpuplan::k_max_error_line_bytes);
    CHECK_THAT(flag.err, Catch::StartsWith("gpuplan: error: --params: ") &&
                             Catch::Contains("bytes left out]"));
    const gpuplan::test::Scratch scratch;
    const fs::path file = scratch.path / "w.yaml";
    std::ofstream(file) << "schema_version: 1\nname: w\ntask: finetune\n"
                           "model: {family: transformer, params: "
                        << huge << "}\ndata: {tokens: 1M}\n";
    const auto yaml = gpuplan::test::run_cli({"recommend", file.string()});
    CHECK(yaml.exit_code == 3);
    CHECK(yaml.err.size() < 2 * gpuplan::k_max_error_line_bytes);
    CHECK_THAT(yaml.err, Catch::Contains("w.yaml:4:"));
}

TEST_CASE("names that would collide in option ids are refused at their place", "[cli][catalog]") {
    const gpuplan::test::Scratch scratch;
    const fs::path file = scratch.path / "ids.yaml";
    std::ofstream(file) << "schema_version: 1\nsources: {p: {title: t}}\nproviders:\n"
                           "  - name: idcloud\n    display_name: I\n    currency: USD\n"
                           "    as_of: 2026-11-01\n    source: p\n    instances:\n"
                           "      - type: a/b\n        gpu: H100\n        gpu_count: 8\n"
                           "        vcpus: 96\n        memory_gib: 1024\n"
                           "        prices: [{region: \"\", on_demand: 1}, {region: r/1, "
                           "on_demand: 1}]\n";
    const auto r = gpuplan::test::run_cli({"catalog", "validate", file.string()});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("ids.yaml:10:") && Catch::Contains("'a/b' holds a '/'"));
    CHECK_THAT(r.err, Catch::Contains("region: expected a name, got an empty one"));
    CHECK_THAT(r.err, Catch::Contains("'r/1' holds a '/'"));
}

TEST_CASE("a plan's unknown currency and a key stated twice are refused", "[cli][check]") {
    const gpuplan::test::Scratch scratch;
    const fs::path& dir = scratch.path;
    std::ifstream in(fs::path(GPUPLAN_SOURCE_DIR) / "tests/fixtures/plans/plan-a.json");
    nlohmann::json plan = nlohmann::json::parse(in);
    plan["currency"] = "ZZZ";
    std::ofstream(dir / "zzz.json") << plan.dump(2);
    const std::vector<std::string> catalog{
        "--no-default-catalog", "--catalog",
        (fs::path(GPUPLAN_SOURCE_DIR) / "tests/fixtures/catalog/minimal.yaml").string()};
    auto args = catalog;
    args.insert(args.end(), {"check", (dir / "zzz.json").string(), "--max-cost", "1"});
    const auto currency = gpuplan::test::run_cli(args);
    CHECK(currency.exit_code == 3);
    CHECK_THAT(currency.err, Catch::Contains("/currency: unknown currency 'ZZZ'"));

    plan["currency"] = "USD";
    std::string text = plan.dump(2);
    text.insert(1, "\n  \"currency\": \"CNY\",");
    std::ofstream(dir / "dup.json") << text;
    args = catalog;
    args.insert(args.end(), {"check", (dir / "dup.json").string(), "--max-cost", "1"});
    const auto duplicate = gpuplan::test::run_cli(args);
    CHECK(duplicate.exit_code == 3);
    CHECK_THAT(duplicate.err, Catch::Contains("/currency: the key is stated twice in its object"));
}

// Catalog feeds through the CLI: `catalog import -o`, CSV and YAML files given to --catalog in
// order, and bad feed options.

#include "../support/cli_runner.hpp"

#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using gpuplan::test::run_cli;

TEST_CASE("catalog import -o DIR writes one provider file each that --catalog reads back",
          "[cli][feeds]") {
    const fs::path dir = fs::temp_directory_path() / "gpuplan-test-import";
    fs::remove_all(dir);
    const auto imported = run_cli({"catalog", "import", "--from", "skypilot",
                                   "tests/fixtures/feeds/skypilot/lambda_gpu_vms.csv",
                                   "tests/fixtures/feeds/skypilot/nebius_gpu_vms.csv", "--as-of",
                                   "2026-07-09", "-o", dir.string()});
    REQUIRE(imported.exit_code == 0);
    CHECK_THAT(imported.out, Catch::Contains("lambda: 14 instance types, 238 price rows"));
    CHECK_THAT(imported.out, Catch::Contains("nebius: 16 instance types, 20 price rows"));
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    // The GPU models travel in gpus.yaml; no temporaries are left.
    CHECK(names == std::vector<std::string>{"gpus.yaml", "lambda.yaml", "nebius.yaml"});
    const auto listed = run_cli({"catalog", "list", "--catalog", (dir / "lambda.yaml").string(),
                                 "--provider", "lambda", "--format", "json"});
    CHECK(listed.exit_code == 0);
    CHECK_THAT(listed.out, Catch::Contains("\"skypilot-lambda-feed\""));
    fs::remove_all(dir);
}

TEST_CASE("an imported folder read without the embedded catalog works as the CSVs do",
          "[cli][feeds]") {
    const fs::path dir = fs::temp_directory_path() / "gpuplan-test-import-alone";
    fs::remove_all(dir);
    const std::string aws = "tests/fixtures/feeds/skypilot/aws_gpu_vms.csv";
    const std::string lambda = "tests/fixtures/feeds/skypilot/lambda_gpu_vms.csv";
    const auto imported =
        run_cli({"catalog", "import", "--from", "skypilot", "--no-default-catalog", aws, lambda,
                 "--as-of", "2026-07-09", "-o", dir.string()});
    REQUIRE(imported.exit_code == 0);
    CHECK_THAT(imported.out, Catch::Contains("GPU models: 13 -> "));
    for (const char* preset : {"llama-7b-lora", "llama-70b-inference"}) {
        INFO(preset);
        const auto from_yaml = run_cli({"recommend", "--preset", preset, "--no-default-catalog",
                                        "--catalog", dir.string(), "--format", "json"});
        const auto from_csv =
            run_cli({"recommend", "--preset", preset, "--no-default-catalog", "--catalog", aws,
                     "--catalog", lambda, "--as-of", "2026-07-09", "--format", "json"});
        REQUIRE(from_yaml.exit_code == 0);
        REQUIRE(from_csv.exit_code == 0);
        CHECK(from_yaml.err.empty());
        // Equal but for the digest of the files read.
        auto without_digest = [](std::string text) {
            const auto at = text.find("\"digest\": ");
            return at == std::string::npos ? text : text.erase(at, text.find('\n', at) - at);
        };
        CHECK(without_digest(from_yaml.out) == without_digest(from_csv.out));
    }
    fs::remove_all(dir);
}

TEST_CASE("a CSV given to --catalog overlays the embedded catalog like a YAML file",
          "[cli][feeds]") {
    const auto listed =
        run_cli({"catalog", "list", "--catalog", "tests/fixtures/feeds/diff/aws_vms.csv", "--as-of",
                 "2026-11-01", "--provider", "aws", "--gpu", "A100", "--format", "json"});
    REQUIRE(listed.exit_code == 0);
    // p4d.24xlarge takes the feed's single row; the other A100 instances keep theirs.
    CHECK_THAT(listed.out, Catch::Contains("\"on_demand_per_hour\": 21.96,"));
    CHECK_THAT(listed.out, Catch::Contains("tests/fixtures/feeds/diff/aws_vms.csv"));
}

TEST_CASE("negotiated prices in YAML given after a feed override the feed's price",
          "[catalog][overlay][cli]") {
    const auto listed =
        run_cli({"catalog", "list", "--catalog", "tests/fixtures/feeds/diff/aws_vms.csv",
                 "--catalog", "tests/fixtures/feeds/negotiated.yaml", "--as-of", "2026-11-01",
                 "--provider", "aws", "--gpu", "A100", "--format", "json"});
    REQUIRE(listed.exit_code == 0);
    CHECK_THAT(listed.out, Catch::Contains("\"on_demand_per_hour\": 18.5,"));
    CHECK_THAT(listed.out, !Catch::Contains("\"on_demand_per_hour\": 21.96,"));
    CHECK_THAT(listed.out, Catch::Contains("\"as_of\": \"2026-10-15\""));
}

TEST_CASE("bad option values for feeds are usage errors", "[cli][feeds]") {
    CHECK(run_cli({"catalog", "list", "--as-of", "2026-13-01", "--catalog",
                   "tests/fixtures/feeds/diff/aws_vms.csv"})
              .exit_code == 2);
    CHECK(run_cli({"catalog", "list", "--max-catalog-age", "soon"}).exit_code == 2);
    CHECK(run_cli({"catalog", "import", "--from", "vantage", "x.csv"}).exit_code == 2);
}

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
    CHECK(names == std::vector<std::string>{"lambda.yaml", "nebius.yaml"}); // no temporaries
    const auto listed = run_cli({"catalog", "list", "--catalog", (dir / "lambda.yaml").string(),
                                 "--provider", "lambda", "--format", "json"});
    CHECK(listed.exit_code == 0);
    CHECK_THAT(listed.out, Catch::Contains("\"skypilot-lambda-feed\""));
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

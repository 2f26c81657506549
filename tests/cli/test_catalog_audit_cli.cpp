// `gpuplan catalog audit`: the shipped catalog's report, and a user's overlay audited alone.

#include "../support/cli_runner.hpp"
#include "../support/files.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

TEST_CASE("catalog audit of the shipped catalog finds no error", "[cli][audit]") {
    const auto r = gpuplan::test::run_cli({"catalog", "audit", "--today", "2026-12-07"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::StartsWith("Catalog audit as of 2026-12-07: ") &&
                          Catch::Contains(" 0 errors, "));
}

TEST_CASE("catalog audit FILE reports the rows the file adds or changes; exit 4 on an error",
          "[cli][audit]") {
    const gpuplan::test::Scratch scratch;
    const fs::path file = scratch.path / "deal.yaml";
    std::ofstream(file) << "schema_version: 1\n"
                           "sources:\n"
                           "  deal: {title: Our contract, url: https://example.com, as_of: "
                           "2026-11-01}\n"
                           "providers:\n"
                           "  - name: lambda\n"
                           "    instances:\n"
                           "      - type: gpu_1x_h100_pcie\n"
                           "        prices:\n"
                           "          - {region: us-east-1, on_demand: 2.0, spot: 2.0, source: "
                           "deal, as_of: 2026-11-01}\n";
    const auto r = gpuplan::test::run_cli(
        {"catalog", "audit", file.string(), "--today", "2026-12-07", "--format", "json"});
    CHECK(r.exit_code == 4);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json["summary"]["errors"] == 1);
    REQUIRE(json["findings"].size() == 1);
    CHECK(json["findings"][0]["check"] == "spot_not_below_on_demand");
    CHECK(json["findings"][0]["instance"] == "gpu_1x_h100_pcie");
    CHECK(json["findings"][0]["region"] == "us-east-1");

    const auto bad_day = gpuplan::test::run_cli({"catalog", "audit", "--today", "2026-13-01"});
    CHECK(bad_day.exit_code == 2);
    CHECK_THAT(bad_day.err, Catch::Contains("--today: expected a date YYYY-MM-DD"));
}

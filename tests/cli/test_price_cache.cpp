// The price cache of `gpuplan catalog update` without a network: where it lives, what a run that
// finds one says, and that a run without one (every other test) never looks anywhere. The
// downloads themselves are tested against a local server by tests/update/run.sh.

#include "../support/cli_runner.hpp"
#include "cli/price_cache.hpp"
#include "gpuplan/embedded.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using gpuplan::cli::cache_dir_from;

namespace {

gpuplan::test::CliResult run_with_cache(const std::vector<std::string>& args,
                                        const std::string& cache_dir) {
    fs::current_path(GPUPLAN_SOURCE_DIR);
    std::ostringstream out;
    std::ostringstream err;
    gpuplan::cli::Io io{out, err, false, false, gpuplan::Date{2026, 11, 29}};
    io.cache_dir = cache_dir;
    gpuplan::test::CliResult result;
    result.exit_code = gpuplan::cli::run(args, io);
    result.out = out.str();
    result.err = err.str();
    return result;
}

// A cache holding one provider of the embedded catalog with one price changed to `price`.
std::string sample_cache(double price = 0.123456) {
    gpuplan::catalog::Catalog overlay;
    const gpuplan::catalog::Catalog& embedded = gpuplan::embedded::catalog();
    gpuplan::catalog::Provider lambda = *gpuplan::catalog::find_provider(embedded, "lambda");
    lambda.instances.resize(1);
    lambda.instances.front().prices.resize(1);
    lambda.instances.front().prices.front().on_demand = price;
    lambda.sources = {"skypilot-lambda-feed"};
    overlay.sources["skypilot-lambda-feed"] = {
        "skypilot-lambda-feed", "test feed", "", "R", "", false, std::nullopt};
    overlay.providers.push_back(lambda);
    const gpuplan::recommend::PriceCache record{
        "", "2026-11-28T10:00:00Z", "http://127.0.0.1:1/test", {"lambda"}};
    return gpuplan::cli::encode_cache(overlay, record);
}

} // namespace

TEST_CASE("the cache folder follows XDG_CACHE_HOME, else HOME", "[cli][cache]") {
    CHECK(cache_dir_from("/x/cache", "/home/u") == "/x/cache/gpuplan");
    CHECK(cache_dir_from(nullptr, "/home/u") == "/home/u/.cache/gpuplan");
    CHECK(cache_dir_from("", "/home/u") == "/home/u/.cache/gpuplan");
    CHECK(cache_dir_from("relative", "/home/u") == "/home/u/.cache/gpuplan"); // XDG: ignored
    CHECK(cache_dir_from(nullptr, nullptr).empty());
    CHECK(cache_dir_from(nullptr, "").empty());
}

TEST_CASE("a run finds the cache, names it in its provenance, and --offline leaves it out",
          "[cli][cache]") {
    const fs::path dir = fs::temp_directory_path() / "gpuplan-test-cache";
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "prices.bin", std::ios::binary) << sample_cache();
    const std::string file = (dir / "prices.bin").string();

    const auto with = run_with_cache(
        {"catalog", "list", "--provider", "lambda", "--format", "json"}, dir.string());
    REQUIRE(with.exit_code == 0);
    CHECK_THAT(with.out, Catch::Contains("0.123456"));
    CHECK_THAT(with.out, Catch::Contains(file));

    const auto recommend = run_with_cache(
        {"recommend", "--preset", "llama-7b-lora", "--format", "json"}, dir.string());
    REQUIRE(recommend.exit_code == 0);
    CHECK_THAT(recommend.out, Catch::Contains("\"downloaded_at\": \"2026-11-28T10:00:00Z\""));
    CHECK_THAT(recommend.out, Catch::Contains("prices of lambda from the price cache " + file));

    const auto offline = run_with_cache(
        {"--offline", "recommend", "--preset", "llama-7b-lora", "--format", "json"}, dir.string());
    REQUIRE(offline.exit_code == 0);
    CHECK_THAT(offline.out, !Catch::Contains("downloaded_at"));
    const auto plain =
        gpuplan::test::run_cli({"recommend", "--preset", "llama-7b-lora", "--format", "json"});
    CHECK(offline.out == plain.out); // --offline is the run without a cache, byte for byte

    std::ofstream(dir / "prices.bin", std::ios::binary) << "GPU1 but not a cache";
    const auto damaged = run_with_cache({"catalog", "list", "--provider", "lambda"}, dir.string());
    CHECK(damaged.exit_code == 0);
    CHECK_THAT(damaged.err, Catch::Contains("the price cache " + file + " is left out"));
    fs::remove_all(dir);
}

TEST_CASE("a cache holding a NaN, negative or huge price is left out, never ranked",
          "[cli][cache]") {
    const fs::path dir = fs::temp_directory_path() / "gpuplan-test-cache-bad";
    const std::string file = (dir / "prices.bin").string();
    const auto plain = gpuplan::test::run_cli(
        {"recommend", "--preset", "llama-7b-lora", "--provider", "lambda", "--format", "json"});
    for (const double bad : {std::nan(""), -1.0, 1e300}) {
        fs::remove_all(dir);
        fs::create_directories(dir);
        std::ofstream(dir / "prices.bin", std::ios::binary) << sample_cache(bad);
        const auto r = run_with_cache(
            {"recommend", "--preset", "llama-7b-lora", "--provider", "lambda", "--format", "json"},
            dir.string());
        INFO(bad);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.err, Catch::Contains("the price cache " + file +
                                          " is left out: it holds a "
                                          "value no catalog may: lambda/"));
        CHECK(r.out == plain.out); // the embedded prices, as without a cache
    }
    fs::remove_all(dir);
}

TEST_CASE("catalog update needs a cache folder and refuses --offline", "[cli][cache]") {
    const auto no_folder = gpuplan::test::run_cli({"catalog", "update"});
    CHECK(no_folder.exit_code == 1);
    CHECK_THAT(no_folder.err, Catch::Contains("no folder for the price cache"));
    const auto offline = gpuplan::test::run_cli({"--offline", "catalog", "update"});
    CHECK(offline.exit_code == 2);
}

// Every input a fuzz target once crashed or hung on (fuzz/regressions/<target>/) stays fixed:
// the reader answers (a value or its documented exception) promptly, under the sanitizers too.

#include "../support/files.hpp"
#include "codecs/bundle.hpp"
#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/feeds/skypilot.hpp"
#include "gpuplan/gate/gate.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> regressions(const std::string& target) {
    std::vector<fs::path> out;
    const fs::path folder = fs::path(GPUPLAN_SOURCE_DIR) / "fuzz" / "regressions" / target;
    for (const auto& entry : fs::directory_iterator(folder)) {
        out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TEST_CASE("catalog inputs that once hung the YAML reader are refused promptly", "[fuzz][catalog]") {
    const auto inputs = regressions("catalog");
    REQUIRE_FALSE(inputs.empty());
    for (const fs::path& input : inputs) {
        INFO(input.filename().string());
        const std::vector<gpuplan::TextFile> files{{"fuzz.yaml", gpuplan::test::slurp(input)}};
        const auto start = std::chrono::steady_clock::now();
        CHECK_FALSE(gpuplan::catalog::validate_catalog(files).empty());
        CHECK(seconds_since(start) < 5.0);
    }
}

TEST_CASE("corrupt bundles that once read invalid values are refused with RuntimeError",
          "[fuzz][bundle]") {
    const auto inputs = regressions("bundle");
    REQUIRE_FALSE(inputs.empty());
    for (const fs::path& input : inputs) {
        INFO(input.filename().string());
        const std::string bytes = gpuplan::test::slurp(input);
        CHECK_THROWS_AS(gpuplan::codecs::read_bundle(bytes), gpuplan::RuntimeError);
    }
}

TEST_CASE("plan files with ranks beyond int range are refused, not converted", "[fuzz][plan]") {
    const auto inputs = regressions("plan");
    REQUIRE_FALSE(inputs.empty());
    for (const fs::path& input : inputs) {
        INFO(input.filename().string());
        CHECK_THROWS_AS(gpuplan::gate::read_plan("fuzz.json", gpuplan::test::slurp(input)),
                        gpuplan::InputError);
    }
}

TEST_CASE("CSV feeds with vCPU counts beyond int range are refused, not converted", "[fuzz][csv]") {
    const auto inputs = regressions("csv");
    REQUIRE_FALSE(inputs.empty());
    const auto& gpus = gpuplan::embedded::catalog().gpus;
    for (const fs::path& input : inputs) {
        INFO(input.filename().string());
        const std::vector<gpuplan::feeds::FeedFile> files{
            {"aws_vms.csv", gpuplan::test::slurp(input), gpuplan::Date{2026, 11, 29}}};
        CHECK_THROWS_AS(gpuplan::feeds::read_skypilot(files, {}, gpus, gpus), gpuplan::InputError);
    }
}

// Workload flags on the command line: a bad value or a missing field is told by its flag, the
// way the user typed it, although the workload stage names fields by their paths.

#include "../support/cli_runner.hpp"

#include <catch2/catch.hpp>

namespace {

using Args = std::vector<std::string>;

std::string first_error(const Args& args) {
    const auto result = gpuplan::test::run_cli(args);
    CHECK(result.exit_code == 2);
    return result.err.substr(0, result.err.find('\n'));
}

} // namespace

TEST_CASE("a bad workload flag value names the flag", "[workload][cli]") {
    CHECK(first_error({"estimate", "--params", "7B", "--tokens", "1T", "--mfu", "2"}) ==
          "gpuplan: error: --mfu: expected a fraction from 0.001 to 1, got '2'");
    CHECK(first_error({"estimate", "--params", "7B", "--tokens", "1T", "--precision", "int4"}) ==
          "gpuplan: error: --precision: expected fp32, tf32, fp16, bf16 or fp8 (training), got "
          "'int4'");
    CHECK(first_error({"estimate", "--params", "7B", "--tokens", "1T", "--gpu-count", "2000"}) ==
          "gpuplan: error: --gpu-count: 2000 exceeds max_gpus (1024, the default; raise it with "
          "--max-gpus)");
    CHECK(first_error({"estimate", "--preset", "bert-large-finetune-squad", "--purchase", "spt"})
              .find("gpuplan: error: --purchase: expected on_demand") == 0);
}

TEST_CASE("a workload from flags names the flags of what it lacks", "[workload][cli]") {
    CHECK(first_error({"estimate", "--family", "cnn"}) ==
          "gpuplan: error: incomplete workload: missing model.params (--params); data.samples "
          "(--samples); model.flops_per_sample or model.reference (a cnn model's forward FLOPs "
          "per sample)");
}

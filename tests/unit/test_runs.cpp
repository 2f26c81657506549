// Runs files, validation summaries, calibration shrinkage and the importers.

#include "gpuplan/error.hpp"
#include "gpuplan/runs/calibrate.hpp"
#include "gpuplan/runs/importers.hpp"
#include "gpuplan/runs/runs.hpp"
#include "gpuplan/runs/validate.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

using namespace gpuplan;
using namespace gpuplan::runs;

namespace {

const char* const k_workload = R"(schema_version: 1
task: train
model: {params: 7B, layers: 32, hidden: 4096, heads: 32, seq_len: 4096}
data: {tokens: 20B}
)";

FileLoader loader() {
    return [](const std::string& path, std::string& why) -> std::optional<TextFile> {
        if (path == "w.yaml") {
            return TextFile{"w.yaml", k_workload};
        }
        why = "no such file";
        return std::nullopt;
    };
}

std::string first_message(const TextFile& file) {
    try {
        (void)read_runs(file, loader());
    } catch (const InputError& e) {
        return format_diagnostic(e.diagnostics().front());
    }
    return "";
}

} // namespace

TEST_CASE("a runs file applies its GPU count and precision to the run's workload", "[runs]") {
    const RunsFile file = read_runs({"runs.yaml", R"(schema_version: 1
runs:
  - name: a
    workload: w.yaml
    gpu: H100
    gpu_count: 16
    stack: {engine: megatron, precision: fp8}
    measured: {wall_hours: 10, tokens_per_second: 5e5}
    source: log
)"},
                                    loader());
    REQUIRE(file.runs.size() == 1);
    const Run& run = file.runs[0];
    CHECK(run.workload.constraints.gpu_count == 16);
    CHECK(run.workload.constraints.gpu_models == std::vector<std::string>{"H100"});
    CHECK(run.workload.training.precision == catalog::Precision::fp8);
    REQUIRE(run.measured.size() == 2);
    CHECK(run.measured[0].metric == Metric::wall_hours);
    CHECK(run.measured[1].value == 5e5);
}

TEST_CASE("a bad runs file names the file, line, column and path", "[runs]") {
    CHECK(first_message({"runs.yaml", R"(schema_version: 1
runs:
  - name: a
    workload: w.yaml
    gpu: H100
    gpu_count: 1
    measured: {wall_hours: abc}
    source: log
)"}) == "runs.yaml:7:28: error: /runs/0/measured/wall_hours: expected a positive number "
        "(an SI suffix such as 7B or 2T is allowed), got \"abc\"");
    CHECK(first_message({"runs.yaml", "schema_version: 2\nruns: []\n"})
              .find("unsupported schema_version 2") != std::string::npos);
    CHECK(first_message({"runs.yaml", R"(schema_version: 1
runs:
  - {name: a, workload: missing.yaml, gpu: H100, gpu_count: 1, measured: {gpu_hours: 1}, source: s}
)"})
              .find("cannot read workload file \"missing.yaml\"") != std::string::npos);
}

TEST_CASE("the summary gives the median P90 and worst error and the rank agreement", "[runs]") {
    std::vector<Row> rows;
    const std::vector<std::pair<double, double>> values{
        {100, 110}, {200, 180}, {300, 330}, {400, 500}};
    for (const auto& [measured, predicted] : values) {
        Row row;
        row.metric = Metric::tokens_per_second;
        row.measured = measured;
        row.predicted = predicted;
        row.error = relative_error(predicted, measured);
        rows.push_back(row);
    }
    const Summary s = summarize(rows);
    CHECK(s.n == 4);
    CHECK(s.median_abs_error == Approx(0.10));
    CHECK(s.max_abs_error == Approx(0.25));
    CHECK(s.within_10 == Approx(0.75));
    CHECK(s.within_25 == Approx(1.0));
    REQUIRE(s.rank_agreement);
    CHECK(*s.rank_agreement == Approx(1.0));
    CHECK(s.pairs == 6);
}

TEST_CASE("one run moves a factor halfway in log space and agreeing runs move it further",
          "[runs][calibrate]") {
    const double r = std::log(0.7);
    const std::vector<double> one{r};
    CHECK(shrink(one, {}, "train").log_factor == Approx(r / 2.0));
    const std::vector<double> three{r, r, r};
    CHECK(shrink(three, {}, "train").log_factor == Approx(0.9 * r));
    // Runs that disagree move it less than runs that agree.
    const std::vector<double> spread{r - 0.5, r, r + 0.5};
    CHECK(std::abs(shrink(spread, {}, "train").log_factor) < std::abs(0.9 * r));
    // Carried runs weigh less than the GPU's own.
    CHECK(std::abs(shrink({}, one, "train").log_factor) < std::abs(r / 2.0));
    CHECK(shrink({}, {}, "inference").log_factor == 0.0);
}

TEST_CASE("the vLLM importer reads the benchmark's published keys", "[runs][import]") {
    const TextFile file{"result.json", R"({"backend": "vllm", "request_rate": "inf",
        "output_throughput": 3268.0, "median_ttft_ms": 1980.2, "median_tpot_ms": 36.9})"};
    const std::vector<ImportedRun> imported =
        import_runs(ImportFormat::vllm, file, {"w.yaml", "H100", 1, "", "", ""});
    REQUIRE(imported.size() == 1);
    CHECK(imported[0].engine == "vllm");
    // At request rate inf the latencies are of a burst, not of a rate: only the capacity counts.
    REQUIRE(imported[0].measured.size() == 1);
    CHECK(imported[0].measured[0].metric == Metric::output_tokens_per_second);
    CHECK_FALSE(imported[0].requests_per_second.has_value());
    CHECK_THROWS_AS(import_runs(ImportFormat::vllm, file, {"", "H100", 1, "", "", ""}), InputError);
    CHECK_THROWS_AS(
        import_runs(ImportFormat::vllm, {"x.json", "{"}, {"w.yaml", "H100", 1, "", "", ""}),
        InputError);
}

TEST_CASE("the vLLM importer reads one run per line of an appended result file", "[runs][import]") {
    const TextFile file{"results.jsonl",
                        "{\"backend\": \"vllm\", \"request_rate\": 10.0, \"output_throughput\": "
                        "2258.2, \"median_ttft_ms\": 52.9, \"median_tpot_ms\": 13.7}\n\n"
                        "{\"backend\": \"vllm\", \"request_rate\": \"inf\", "
                        "\"output_throughput\": 8321.2, \"median_ttft_ms\": 4066.2}\n"};
    const std::vector<ImportedRun> imported =
        import_runs(ImportFormat::vllm, file, {"w.yaml", "L40S", 4, "", "", ""});
    REQUIRE(imported.size() == 2);
    CHECK(imported[0].name == "results-1");
    CHECK(imported[1].name == "results-3");
    // A finite rate: the latencies at that rate, and the rate itself; not the throughput.
    REQUIRE(imported[0].requests_per_second.has_value());
    CHECK(*imported[0].requests_per_second == Approx(10.0));
    REQUIRE(imported[0].measured.size() == 2);
    CHECK(imported[0].measured[0].metric == Metric::ttft_ms);
    REQUIRE(imported[1].measured.size() == 1);
    CHECK(imported[1].measured[0].value == Approx(8321.2));
    // A bad line is reported at its own line.
    const TextFile bad{"results.jsonl",
                       "{\"request_rate\": \"inf\", \"output_throughput\": 1}\n{\n"};
    try {
        (void)import_runs(ImportFormat::vllm, bad, {"w.yaml", "L40S", 4, "", "", ""});
        FAIL("expected an InputError");
    } catch (const InputError& e) {
        REQUIRE(e.diagnostics().size() == 1);
        CHECK(e.diagnostics()[0].line == 2);
    }
}

TEST_CASE("a calibration file round-trips through its writer and reader", "[runs][calibrate]") {
    Fit fit;
    Fitted f;
    f.factor = {"H100", "train", "megatron", "bf16", 0.7255, 3, 1, "H200", 0.05};
    f.loo_median_error = 0.05;
    fit.factors.push_back(f);
    const workload::Calibration read =
        read_calibration({"calibration.yaml", write_calibration(fit, "runs.yaml")});
    REQUIRE(read.factors.size() == 1);
    CHECK(read.factors[0] == f.factor);
    const workload::SpeedFactor* found = workload::find_speed_factor(read, "H100", "train", "bf16");
    REQUIRE(found != nullptr);
    CHECK(workload::find_speed_factor(read, "H100", "inference", "bf16") == nullptr);
}

#pragma once
// A runs file: measured runs of real jobs, each with its workload, GPUs, stack and what was
// measured (docs/runs-format.md). `gpuplan validate` compares them with the estimator and
// `gpuplan calibrate` fits speed factors from them.

#include "gpuplan/text_file.hpp"
#include "gpuplan/units.hpp"
#include "gpuplan/workload/workload.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::runs {

// Runs file versions this build reads (`schema_version: 1`).
inline constexpr int k_min_schema_version = 1;
inline constexpr int k_max_schema_version = 1;
// The most runs one file holds (docs/limits.md).
inline constexpr std::size_t k_max_runs = 10'000;

// What a run measured. The first eight are a team's usual figures; the rest are the figures
// publications report (docs/methodology.md, "Comparison with published runs").
enum class Metric {
    wall_hours,
    gpu_hours,
    tokens_per_second,        // whole job
    samples_per_second,       // whole job
    output_tokens_per_second, // inference: all GPUs at full load
    decode_tokens_per_second, // inference: one request's decode speed
    ttft_ms,                  // inference: time to first token at `percentile`, at the load
    tpot_ms,                  // inference: time per output token at `percentile`
    wall_days,
    total_flops,
    tokens_per_second_per_gpu,
    samples_per_second_per_gpu,
    sequences_per_second_per_gpu,
    seconds_per_iteration, // data.tokens / tokens per second
    model_flops_per_second,
    first_token_ms,     // inference: prefill time of one prompt alone
    seconds_per_sample, // inference: GPUs / request capacity
};
inline constexpr std::size_t k_metric_count = 17;

[[nodiscard]] std::string_view to_string(Metric metric);
[[nodiscard]] std::optional<Metric> parse_metric(std::string_view text);
// Every metric name, in the enum's order.
[[nodiscard]] std::vector<std::string_view> metric_names();
// True when a larger value is faster (a rate), false for a time or an amount of work.
[[nodiscard]] bool higher_is_faster(Metric metric);

struct Measurement {
    Metric metric = Metric::wall_hours;
    double value = 0.0; // > 0, in the metric's unit

    bool operator==(const Measurement&) const = default;
};

// The software a run used; empty strings where the file is silent.
struct Stack {
    std::string engine; // vllm, trtllm, megatron, pytorch, ...
    std::string version;
    std::string precision; // a catalog precision name (bf16, fp8, ...), overriding the workload's

    bool operator==(const Stack&) const = default;
};

// Whether the run's figure set a default of the estimator (in sample) or not (out of sample);
// unset for a team's own runs.
enum class Sample { unset, in, out };

struct Run {
    std::string name;
    workload::Workload workload; // the run's GPU, count and precision already applied
    std::string workload_file;   // as written; empty for an inline workload
    std::string gpu;             // catalog GPU model name (as written)
    int gpu_count = 1;
    std::optional<double> requests_per_second; // the run's offered load; nullopt = the workload's
    std::string instance;
    std::string provider;
    Stack stack;
    std::vector<Measurement> measured; // in the order of the Metric enum
    int percentile = 50;               // of ttft_ms and tpot_ms: 50 or 90
    bool percentile_stated = false;    // the file gives it (it then sets the workload's)
    std::string source;
    std::optional<Date> date;
    Sample sample = Sample::unset;
    std::string group; // a label that keeps sets of runs apart (e.g. `serving`); may be empty
    std::string note;  // why a figure may be off, or how it was derived

    bool operator==(const Run&) const = default;
};

struct RunsFile {
    std::vector<Run> runs;

    bool operator==(const RunsFile&) const = default;
};

// Reads a workload file a run names, relative to the runs file: returns it, or nullopt with
// `why` set (the reader reports it at the `workload` key).
using FileLoader =
    std::function<std::optional<TextFile>(const std::string& path, std::string& why)>;

// Parses a runs file. Throws InputError with every problem (file:line:col, YAML path), the
// workload files' own problems included. `gpus` are the catalog's GPU model names and aliases
// (a run's gpu must be one; empty: not checked).
[[nodiscard]] RunsFile read_runs(const TextFile& file, const FileLoader& load,
                                 std::span<const std::string> gpus = {});

} // namespace gpuplan::runs

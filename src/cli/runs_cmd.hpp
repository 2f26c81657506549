#pragma once
// `gpuplan validate`, `gpuplan calibrate` and `gpuplan runs import`: measured runs against the
// estimator, speed factors fitted from them, and runs read from benchmark tools' result files.

#include "cli/common.hpp"

#include <optional>
#include <string>

namespace gpuplan::cli {

struct ValidateOptions {
    std::string runs;                       // the runs file
    std::optional<double> max_median_error; // --max-median-error: the gate, a fraction
};

struct CalibrateOptions {
    std::string runs;
};

struct ImportOptions {
    std::string from; // vllm, genai-perf, aiperf, mlperf or csv
    std::string file;
    std::string workload; // --workload: a workload file name written into each run
    std::string gpu;
    std::optional<int> gpu_count;
    std::string engine; // --engine: the stack's engine, when the file does not say
    std::string name;   // --name: the run's name (default: from the file)
    std::string source; // --source: where the results come from (default: the file)
};

// Compares each run with the estimate; exit 4 when --max-median-error is exceeded.
[[nodiscard]] Exit run_validate(const CommonOptions& common, const ValidateOptions& options,
                                Io& io);

// Fits speed factors and writes the calibration file to -o; prints the factors.
[[nodiscard]] Exit run_calibrate(const CommonOptions& common, const CalibrateOptions& options,
                                 Io& io);

// Appends the runs read from a benchmark tool's result file to the runs file -o.
[[nodiscard]] Exit run_runs_import(const CommonOptions& common, const ImportOptions& options,
                                   Io& io);

} // namespace gpuplan::cli

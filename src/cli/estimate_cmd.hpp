#pragma once
// `gpuplan estimate` and `gpuplan presets`.

#include "cli/common.hpp"
#include "cli/workload_input.hpp"

namespace gpuplan::cli {

struct EstimateOptions {
    WorkloadInput input;
};

// Time, memory and GPU count per GPU type (the catalog's, or those asked with --gpu).
[[nodiscard]] Exit run_estimate(const CommonOptions& common, const EstimateOptions& options,
                                Io& io);

// The bundled presets with their descriptions.
[[nodiscard]] Exit run_presets(const CommonOptions& common, Io& io);

} // namespace gpuplan::cli

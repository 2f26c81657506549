#pragma once
// Rendering of `gpuplan estimate`: one row per GPU model.

#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/report/format.hpp"
#include "gpuplan/workload/workload.hpp"

#include <string>
#include <vector>

namespace gpuplan::report {

// The estimates as a table (80 columns), JSON (docs/schema/estimate.schema.json) or markdown.
[[nodiscard]] std::string render_estimates(const workload::Workload& workload,
                                           const std::vector<estimate::GpuEstimate>& estimates,
                                           Format format);

} // namespace gpuplan::report

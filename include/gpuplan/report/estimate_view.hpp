#pragma once
// Rendering of `gpuplan estimate`: one row per GPU model.

#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/report/catalog_view.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/workload/workload.hpp"

#include <string>
#include <vector>

namespace gpuplan::report {

// The estimates as a table (fitting `width` terminal columns; 0: no limit), JSON
// (docs/schema/estimate.schema.json) or markdown. JSON carries the generator and `catalog`
// (recommend::estimate_catalog_info: the digest with the as_of range of the GPU specs used).
[[nodiscard]] std::string render_estimates(const workload::Workload& workload,
                                           const std::vector<estimate::GpuEstimate>& estimates,
                                           Format format, const GeneratorInfo& generator,
                                           const recommend::CatalogInfo& catalog,
                                           std::size_t width = k_terminal_width);

} // namespace gpuplan::report

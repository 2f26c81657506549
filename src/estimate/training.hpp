#pragma once
// The training model (docs/methodology.md E2-E6): FLOPs, memory, the tensor x pipeline x data
// layout search, step time and the GPU count.

#include "gpuplan/estimate/estimate.hpp"

#include <optional>

namespace gpuplan::estimate::detail {

// Estimates a train or finetune workload; see estimate().
[[nodiscard]] GpuEstimate estimate_training(const workload::Workload& w, const catalog::Gpu& gpu,
                                            const NodeShape& node, std::optional<int> requested,
                                            const catalog::Catalog& catalog);

} // namespace gpuplan::estimate::detail

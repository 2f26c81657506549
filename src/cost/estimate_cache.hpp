#pragma once
// The estimates cost::plan prices, each estimated once.

#include "gpuplan/cost/plan.hpp"
#include "gpuplan/estimate/estimate.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>

namespace gpuplan::cost::detail {

// A workload's estimate on one GPU model and node shape, with the count rounded up to whole
// nodes; every distinct (GPU, shape, count) is estimated once.
class EstimateCache {
public:
    EstimateCache(const Estimator& estimator, const workload::Workload& workload)
        : m_memo(estimator, workload) {}

    const estimate::GpuEstimate& get(const catalog::Gpu& gpu, const estimate::NodeShape& shape) {
        const estimate::GpuEstimate& chosen = m_memo.get(gpu, shape, std::nullopt);
        const int per_node = std::max(shape.gpus_per_node, 1);
        const int nodes = std::max(1, (chosen.gpu_count + per_node - 1) / per_node);
        if (nodes * per_node == chosen.gpu_count) {
            return chosen;
        }
        return m_memo.get(gpu, shape, nodes * per_node);
    }
    // The estimate at exactly `gpu_count` GPUs.
    const estimate::GpuEstimate& at(const catalog::Gpu& gpu, const estimate::NodeShape& shape,
                                    int gpu_count) {
        return m_memo.get(gpu, shape, gpu_count);
    }
    // On exactly one GPU (a slice: no layouts across slices).
    const estimate::GpuEstimate& get_one(const catalog::Gpu& gpu,
                                         const estimate::NodeShape& shape) {
        return m_memo.get(gpu, shape, 1);
    }
    [[nodiscard]] std::size_t calls() const { return m_memo.size(); }

private:
    estimate::Memo m_memo;
};

} // namespace gpuplan::cost::detail

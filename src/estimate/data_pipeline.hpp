#pragma once
// The training data pipeline (docs/methodology.md E6): where the dataset is read from each epoch
// (host RAM cache, local NVMe, network disk), staging, and CPU decode where the workload states a
// rate.

#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/workload/workload.hpp"

namespace gpuplan::estimate::detail {

// Time the data pipeline imposes on a run whose GPUs compute for `train_seconds`.
struct DataTiming {
    double wall_seconds = 0.0;   // the run bounded epoch by epoch by compute or data, plus staging
    double read_seconds = 0.0;   // storage reads of all epochs (cached epochs at the cache's rate)
    double decode_seconds = 0.0; // CPU decode of all epochs (0 without a stated rate)
    double stage_seconds = 0.0;  // copying the dataset into the cache before the first step
    DataCache cache = DataCache::none;
    bool bound = false; // data takes more than k_data_bottleneck_share of the training time
};

// The fastest place on each node of `node` that holds the whole dataset of `dataset_gb` GB (E6):
// host RAM, then local NVMe, else none (read from network storage every epoch).
[[nodiscard]] DataCache cache_for(double dataset_gb, const NodeShape& node);

// The data timing of `gpus` GPUs in nodes of `node` training for `train_seconds`.
[[nodiscard]] DataTiming data_timing(const workload::Workload& w, const NodeShape& node, int gpus,
                                     double train_seconds);

} // namespace gpuplan::estimate::detail

#pragma once
// The estimator: from a workload and a GPU/node shape to FLOPs, memory per GPU, GPU count and
// wall time (docs/methodology.md, "Estimator"). Pure functions; no prices.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/estimate/goodput.hpp"
#include "gpuplan/workload/calibration.hpp"
#include "gpuplan/workload/workload.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace gpuplan::estimate {

// The machine the job runs on: how GPUs are grouped into nodes and how nodes talk.
struct NodeShape {
    int gpus_per_node = 8;
    bool nvlink = false;                // GPUs inside a node talk over NVLink
    std::optional<double> network_gbps; // node to node; nullopt = unknown (documented fallback)
    std::optional<double> local_nvme_gb;
    std::optional<double> host_memory_gib; // host RAM per node; nullopt = unknown (no RAM cache)
    int vcpus = 0;                         // per node; 0 = unknown (no CPU decode check)

    bool operator==(const NodeShape&) const = default;
};

// The node shape of a catalog instance: its GPUs, NVLink, network, local NVMe, RAM and vCPUs.
[[nodiscard]] NodeShape node_shape(const catalog::Instance& instance);

// Where the training data is read from after the first pass (docs/methodology.md E6).
enum class DataCache { none, host_ram, local_nvme };
[[nodiscard]] std::string_view to_string(DataCache value);

enum class Bottleneck { compute, memory_bandwidth, communication, data_loading };
[[nodiscard]] std::string_view to_string(Bottleneck value);

// Memory needed on each GPU, in GiB.
struct MemoryBreakdown {
    double weights_gib = 0.0;
    double gradients_gib = 0.0;
    double optimizer_gib = 0.0;
    double activations_gib = 0.0;
    double kv_cache_gib = 0.0;
    double overhead_gib = 0.0;

    [[nodiscard]] double total_gib() const {
        return weights_gib + gradients_gib + optimizer_gib + activations_gib + kv_cache_gib +
               overhead_gib;
    }
    bool operator==(const MemoryBreakdown&) const = default;
};

struct Throughput {
    double samples_per_second =
        0.0; // whole job (all GPUs); tokens for transformers count as samples
    double tokens_per_second = 0.0;                     // whole job; 0 for cnn/custom
    std::optional<double> decode_tokens_per_second;     // inference: per replica
    std::optional<double> prefill_tokens_per_second;    // inference: per replica
    std::optional<double> requests_per_second_capacity; // inference: all GPUs

    bool operator==(const Throughput&) const = default;
};

// Where the wall time of one training run goes, in hours (docs/methodology.md E5.4, E6).
// Compute, bubble and exposed communication add up to the training time; data loading overlaps
// it, and the run takes the longer of the two plus staging.
struct TrainingTime {
    double compute_hours = 0.0;       // model FLOPs at the efficiency used
    double compute_gpu_hours = 0.0;   // compute_hours x GPUs: FLOPs / (peak x MFU) exactly
    double goodput_hours = 0.0;       // wall time failures, checkpoints and restarts add (E9)
    double bubble_hours = 0.0;        // pipeline fill and drain
    double communication_hours = 0.0; // communication not hidden behind compute
    double data_loading_hours = 0.0;  // storage reads or CPU decode of all epochs
    double staging_hours = 0.0;       // copying the dataset into the node's cache first
    double bubble_fraction = 0.0;     // bubble / compute
    double global_batch = 0.0;        // tokens (transformer) or samples per optimizer step
    int micro_batches = 0;            // per data-parallel rank per step
    int virtual_stages = 1;           // interleaved 1F1B model chunks per pipeline rank
    DataCache data_cache = DataCache::none;

    bool operator==(const TrainingTime&) const = default;
};

// How one inference replica serves the asked rate (docs/methodology.md E7): requests in flight,
// time to first token (TTFT), time per output token (TPOT) and request latency at P50 and P90.
struct ServingTime {
    std::string batching;     // "continuous" or "static"; empty for training
    double batch = 0.0;       // requests in flight per replica at the asked rate (mean)
    double max_batch = 0.0;   // most requests a replica holds (KV cache, max_batch)
    double utilisation = 0.0; // asked rate per replica / the replica's capacity
    double ttft_p50_ms = 0.0;
    double ttft_p90_ms = 0.0;
    double tpot_p50_ms = 0.0;
    double tpot_p90_ms = 0.0;
    double latency_p50_ms = 0.0; // whole request: TTFT + (output tokens - 1) x TPOT
    double latency_p90_ms = 0.0;

    bool operator==(const ServingTime&) const = default;
};

// One stage of a multi-stage training run at the estimate's GPU count (docs/methodology.md
// E5.6): its own layout and memory; the estimate's wall time holds every stage.
struct StageEstimate {
    std::string name;
    double tokens = 0.0;
    double seq_len = 0.0;
    double train_hours = 0.0; // training time of the stage, without failures and data staging
    bool fits = false;
    double memory_per_gpu_gib = 0.0;
    int tensor_parallel = 1;
    int pipeline_parallel = 1;
    int context_parallel = 1;
    int expert_parallel = 1;
    int data_parallel = 1;
    std::string sharding;
    int micro_batches = 1;

    bool operator==(const StageEstimate&) const = default;
};

struct GpuEstimate {
    std::string gpu;
    NodeShape node;
    int gpu_count = 0; // GPUs used for the time estimate
    int nodes = 0;
    int min_gpus = 0;  // fewest GPUs on which the job fits in memory
    bool fits = false; // fits in memory at gpu_count
    double memory_per_gpu_gib = 0.0;
    MemoryBreakdown memory;
    double total_flops = 0.0;
    catalog::Precision precision =
        catalog::Precision::bf16;    // precision actually used (after fallback)
    double mfu = 0.0;                // efficiency used
    double scaling_efficiency = 1.0; // compute time / step time (communication, pipeline bubble)
    int model_parallel = 1; // GPUs of one data-parallel replica (tensor x pipeline x context)
    int tensor_parallel = 1;
    int pipeline_parallel = 1;
    int context_parallel = 1; // training: GPUs that split each sequence (E5.1)
    int expert_parallel = 1;  // training, MoE: ranks the routed experts are spread over
    std::string sharding;     // training: the ZeRO stage used (none, zero1, zero2, zero3)
    int data_parallel = 1;    // replicas (inference: serving replicas)
    int batch = 0; // inference: concurrent requests per replica chosen (E7); 0 for training
    double gpu_hours = 0.0;  // per run; inference: per month of service
    double wall_hours = 0.0; // per run, expected, failures included (E9); inference: service hours
                             // per month (docs/methodology.md)
    Bottleneck bottleneck = Bottleneck::compute;
    Throughput throughput;
    double checkpoint_gb = 0.0;        // size of one checkpoint (spot and storage costs)
    bool meets_deadline = true;        // the wall time at constraints.deadline_confidence within
                                       // constraints.deadline (true without one)
    bool from_benchmark = false;       // time from a measured catalog benchmark, not from MFU
    std::string flops_convention;      // how total_flops counts model FLOPs (e.g. 6ND + attention)
    TrainingTime time;                 // training only
    std::optional<Goodput> goodput;    // training only: failures, checkpoints, restarts (E9)
    ServingTime serving;               // inference only
    std::vector<StageEstimate> stages; // multi-stage training only, in the workload's order
    std::vector<std::string> notes;
    // The workload's calibration factor this estimate used (docs/methodology.md, "Calibration");
    // nullopt = none matched, the default estimate.
    std::optional<workload::SpeedFactor> calibration;

    bool operator==(const GpuEstimate&) const = default;
};

// Estimates the workload on `gpu_count` GPUs of `gpu` in nodes of `node`. With nullopt
// `gpu_count`, chooses the count: the workload's constraints.gpu_count if set, else the smallest
// count that fits in memory and meets the deadline (capped by max_gpus), in whole nodes once it
// spans more than one node.
[[nodiscard]] GpuEstimate estimate(const workload::Workload& workload, const catalog::Gpu& gpu,
                                   const NodeShape& node, std::optional<int> gpu_count,
                                   const catalog::Catalog& catalog);

// Estimates a workload on a GPU model in a node shape with an optional GPU count: estimate() for
// one workload and catalog, or a memo of it.
using Estimator =
    std::function<GpuEstimate(const catalog::Gpu&, const NodeShape&, std::optional<int>)>;

// What of a node's host can change a workload's estimate (docs/methodology.md E4.8, E6): the tier
// that caches the dataset, the vCPUs that decode it when the workload states a decode rate, and
// the host RAM that ZeRO-Offload must fit in. The estimator reads a node's RAM, vCPUs and local
// NVMe only through these, so two shapes that agree on everything else and on this estimate
// alike.
struct HostClass {
    DataCache cache = DataCache::none;
    int decode_vcpus = 0;          // per node; 0 when no decode rate is stated
    double offload_ram_gib = -1.0; // host RAM per node with optimizer offload; -1 otherwise
                                   // or when unknown

    bool operator==(const HostClass&) const = default;
};
[[nodiscard]] HostClass host_class(const workload::Workload& workload, const NodeShape& node);

// Memoises an Estimator for one workload: each (GPU model, GPUs per node, NVLink, network,
// host_class(), GPU count) is estimated on its first call, so shapes that differ only in host
// facts that cannot change the answer share one estimate (whose `node` is the first caller's).
class Memo {
public:
    // `workload` must outlive the memo.
    Memo(Estimator estimator, const workload::Workload& workload)
        : m_estimator(std::move(estimator)), m_workload(&workload) {}

    // The estimate for these arguments; the reference lives as long as the memo.
    [[nodiscard]] const GpuEstimate& get(const catalog::Gpu& gpu, const NodeShape& node,
                                         std::optional<int> gpu_count);
    // Distinct estimates computed so far.
    [[nodiscard]] std::size_t size() const { return m_estimates.size(); }

private:
    // GPU model, GPUs per node, NVLink, network Gbps (-1 = unknown), the host class's cache
    // tier, decode vCPUs and offload RAM, GPU count (-1 = chosen by the estimator).
    using Key = std::tuple<std::string, int, bool, double, int, int, double, int>;
    Estimator m_estimator;
    const workload::Workload* m_workload;
    std::map<Key, GpuEstimate> m_estimates;
};

// The GPU models a workload is estimated on: every model of the catalog, or
// constraints.gpu_models in that order without repeats. Throws UsageError for an unknown name.
[[nodiscard]] std::vector<const catalog::Gpu*> selected_gpus(const workload::Workload& workload,
                                                             const catalog::Catalog& catalog);

// Estimates the workload on each of selected_gpus(), in its default node shape, through
// `estimator`. Throws UsageError for an unknown GPU model name.
[[nodiscard]] std::vector<GpuEstimate> estimate_all(const workload::Workload& workload,
                                                    const catalog::Catalog& catalog,
                                                    const Estimator& estimator);

// estimate_all() through estimate() itself.
[[nodiscard]] std::vector<GpuEstimate> estimate_all(const workload::Workload& workload,
                                                    const catalog::Catalog& catalog);

// Which instance of a GPU stands for it: the most GPUs per node (a serving replica lives in one
// node), or the best fabric (a multi-node training job's speed hangs on its network).
enum class NodePreference { largest, fabric };

// The node shape `gpuplan estimate` assumes for a GPU type: the catalog's instance of it among
// `providers` (all when empty) with a stated network first, then by `prefer` the most GPUs per
// node and the fastest network, or the fastest network and the most GPUs per node; or 8 GPUs
// with NVLink when the GPU has NVLink and no instance matches (network unknown, the documented
// fallback).
[[nodiscard]] NodeShape default_node_shape(const catalog::Catalog& catalog, const catalog::Gpu& gpu,
                                           const std::vector<std::string>& providers,
                                           NodePreference prefer);

// The node shape `gpuplan estimate` assumes for `workload` on a GPU type: the best fabric for
// training and fine-tuning, the most GPUs per node for serving, among the workload's providers.
[[nodiscard]] NodeShape default_node_shape(const catalog::Catalog& catalog, const catalog::Gpu& gpu,
                                           const workload::Workload& workload);

} // namespace gpuplan::estimate

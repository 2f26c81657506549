#pragma once
// Helpers shared by the training and inference models (docs/methodology.md E0-E4).

#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/workload/workload.hpp"

#include <functional>
#include <string>
#include <vector>

namespace gpuplan::estimate::detail {

// a / b, or 0 when b is not a positive finite number.
[[nodiscard]] double safe_div(double a, double b);
// fp16, bf16 and fp8 train in mixed precision (16-bit activations, fp32 master weights).
[[nodiscard]] bool is_mixed(catalog::Precision p);

// The transformer shape as given; zeros where the workload is silent.
struct Shape {
    double layers = 0.0;
    double hidden = 0.0;
    double heads = 0.0;
    double kv_heads = 0.0;
    double seq_len = 0.0;
    double head_dim = 0.0; // model.head_dim, else hidden / heads; 0 when unknown

    // Width of the attention (heads x head_dim): hidden unless head_dim says otherwise.
    [[nodiscard]] double attention_width() const {
        return heads > 0.0 && head_dim > 0.0 ? heads * head_dim : hidden;
    }

    // Layers, hidden and seq_len: enough for attention FLOPs, activations and model parallelism.
    [[nodiscard]] bool known() const { return layers > 0.0 && hidden > 0.0 && seq_len > 0.0; }
    // Enough for the KV cache.
    [[nodiscard]] bool kv_known() const { return layers > 0.0 && head_dim > 0.0 && heads > 0.0; }
};

[[nodiscard]] Shape shape_of(const workload::Model& model);
// model.active_params, or params for a dense model.
[[nodiscard]] double active_params(const workload::Model& model);
// MoE (E4.9): parameters of one routed expert summed over the MoE layers, from
// params = dense + E x P_e and active = dense + k x P_e; 0 for a dense model.
[[nodiscard]] double routed_expert_params(const workload::Model& model);
// Dense peak in FLOP/s; 0 when the GPU lacks the precision.
[[nodiscard]] double peak_flops(const catalog::Gpu& gpu, catalog::Precision precision);
// A new estimate of `gpu` in `node` (at least one GPU per node) at `wanted` resolved (E1).
[[nodiscard]] GpuEstimate start_estimate(const catalog::Gpu& gpu, const NodeShape& node,
                                         catalog::Precision wanted);
// Resolves the requested precision on a GPU (E1); the result may lack a peak (no_peak_flops).
[[nodiscard]] catalog::Precision resolve_precision(const catalog::Gpu& gpu,
                                                   catalog::Precision wanted,
                                                   std::vector<std::string>& notes);
// Efficiency default for a family, size, precision and architecture (E3.2 to E3.4), before the
// LoRA/QLoRA factors.
[[nodiscard]] double table_mfu(const workload::Workload& w, const catalog::Gpu& gpu,
                               catalog::Precision precision);
// The LoRA/QLoRA efficiency factor (E3.3); 1 for full training.
[[nodiscard]] double method_factor(const workload::Workload& w);

// Where an efficiency comes from (E3): each is end-to-end MFU at its own layout.
enum class EfficiencySource { table, user, benchmark, benchmark_scaled };

// The efficiency the estimate uses and where it comes from: training.mfu, a reference benchmark
// on this GPU, a benchmark on another GPU scaled by the defaults (E3.6), or the table.
struct Efficiency {
    double mfu = 0.0;
    bool from_benchmark = false;
    std::string note;
    EfficiencySource source = EfficiencySource::table;
    int reference_gpus = 0;                        // GPUs the benchmark ran on (benchmark sources)
    const catalog::Benchmark* reference = nullptr; // the benchmark used (benchmark sources)
};

// How far another GPU's specs are from this one's: the |ln| ratios of the dense peak at
// `precision` and of the memory bandwidth, summed (E3.6).
[[nodiscard]] double spec_distance(const catalog::Gpu& gpu, const catalog::Gpu& other,
                                   catalog::Precision precision);

// Whether a benchmark row measures inference (inference_samples_per_second_per_gpu, E7.1);
// training estimates read only the other rows, inference estimates only these.
[[nodiscard]] bool is_inference_row(const catalog::Benchmark& b);

// A training job's efficiency: the user's MFU, a training benchmark of the reference (same GPU,
// else scaled from the nearest GPU measured), or the table default (E3.6).
[[nodiscard]] Efficiency
efficiency(const workload::Workload& w, const catalog::Gpu& gpu, catalog::Precision precision,
           double default_mfu, double flops_per_token, const catalog::Catalog& catalog,
           const std::function<double(const catalog::Gpu&, catalog::Precision)>& default_for);

// The configuration fits when it uses at most k_usable_memory_fraction of the GPU's memory.
[[nodiscard]] bool fits_in(const MemoryBreakdown& memory, const catalog::Gpu& gpu);
// The largest memory term, for the does_not_fit note (E8).
[[nodiscard]] std::string largest_term(const MemoryBreakdown& m);
// The does_not_fit note: `memory` per GPU `where` (e.g. "on 8 GPU(s)") against the usable share.
[[nodiscard]] std::string does_not_fit(const MemoryBreakdown& memory, const std::string& where,
                                       const catalog::Gpu& gpu);
// The estimate of a GPU that lacks a peak at the resolved precision (no_peak_flops).
[[nodiscard]] GpuEstimate no_peak(GpuEstimate e, const catalog::Gpu& gpu);

} // namespace gpuplan::estimate::detail

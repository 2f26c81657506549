#include "gpuplan/estimate/estimate.hpp"

#include "detail/strings.hpp"
#include "estimate/constants.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/workload/reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <tuple>

namespace gpuplan::estimate {

namespace {

using namespace detail;
using catalog::Architecture;
using catalog::Gpu;
using catalog::Precision;
using workload::Family;
using workload::Method;
using workload::Sharding;
using workload::Task;
using workload::Workload;

double safe_div(double a, double b) {
    return b > 0.0 && std::isfinite(b) ? a / b : 0.0;
}

bool is_mixed(Precision p) {
    return p == Precision::fp16 || p == Precision::bf16 || p == Precision::fp8;
}

// The transformer shape as given; zeros where the workload is silent.
struct Shape {
    double layers = 0.0;
    double hidden = 0.0;
    double heads = 0.0;
    double kv_heads = 0.0;
    double seq_len = 0.0;

    // Layers, hidden and seq_len: enough for attention FLOPs, activations and model parallelism.
    [[nodiscard]] bool known() const { return layers > 0.0 && hidden > 0.0 && seq_len > 0.0; }
    // Enough for the KV cache.
    [[nodiscard]] bool kv_known() const { return layers > 0.0 && hidden > 0.0 && heads > 0.0; }
};

Shape shape_of(const workload::Model& model) {
    Shape shape;
    shape.layers = model.layers.value_or(0);
    shape.hidden = model.hidden.value_or(0);
    shape.heads = model.heads.value_or(0);
    shape.kv_heads = model.kv_heads ? *model.kv_heads : shape.heads;
    shape.seq_len = model.seq_len.value_or(0);
    return shape;
}

double active_params(const workload::Model& model) {
    return model.active_params ? *model.active_params : model.params;
}

// Dense peak in FLOP/s; 0 when the GPU lacks the precision.
double peak_flops(const Gpu& gpu, Precision precision) {
    return gpu.peak_tflops(precision).value_or(0.0) * 1e12;
}

// Resolves the requested precision on a GPU (E1); the result may lack a peak (no_peak_flops).
Precision resolve_precision(const Gpu& gpu, Precision wanted, std::vector<std::string>& notes) {
    Precision resolved = wanted;
    switch (wanted) {
    case Precision::bf16:
        resolved = gpu.peak_tflops(Precision::bf16) ? Precision::bf16 : Precision::fp16;
        break;
    case Precision::tf32:
        resolved = gpu.peak_tflops(Precision::tf32) ? Precision::tf32 : Precision::fp32;
        break;
    case Precision::fp8:
        resolved = gpu.peak_tflops(Precision::fp8)    ? Precision::fp8
                   : gpu.peak_tflops(Precision::bf16) ? Precision::bf16
                                                      : Precision::fp16;
        break;
    case Precision::int8:
    case Precision::int4:
        resolved = Precision::fp16;
        break;
    default:
        break;
    }
    if (resolved != wanted && wanted != Precision::int8 && wanted != Precision::int4) {
        notes.push_back(fmt::format("precision_fallback: {} is not supported on {} ({}); using {}",
                                    catalog::to_string(wanted), gpu.name,
                                    catalog::to_string(gpu.architecture),
                                    catalog::to_string(resolved)));
    }
    if (resolved == Precision::fp32 && gpu.peak_tflops(Precision::tf32)) {
        notes.push_back(
            fmt::format("fp32_peak: timed at the fp32 peak; tf32 would be faster on {}", gpu.name));
    }
    return resolved;
}

// Efficiency default for a family, size, precision and architecture (E3.2 to E3.4), before the
// LoRA/QLoRA factors.
double table_mfu(const Workload& w, const Gpu& gpu, Precision precision) {
    const auto column = static_cast<std::size_t>(std::min(gpu.architecture, Architecture::hopper));
    if (precision == Precision::fp32) {
        return k_mfu_fp32;
    }
    double mfu = w.model.family != Family::transformer                  ? k_mfu_cnn[column]
                 : active_params(w.model) >= k_large_transformer_params ? k_mfu_large[column]
                                                                        : k_mfu_small[column];
    if (precision == Precision::fp8) {
        mfu *= k_fp8_speedup *
               safe_div(peak_flops(gpu, Precision::bf16), peak_flops(gpu, Precision::fp8));
    }
    return mfu;
}

double method_factor(const Workload& w) {
    switch (w.training.method) {
    case Method::lora:
        return k_lora_efficiency;
    case Method::qlora:
        return k_lora_efficiency / k_qlora_slowdown;
    default:
        return 1.0;
    }
}

// The efficiency the estimate uses and where it comes from: training.mfu, a reference benchmark
// on this GPU, a benchmark on another GPU scaled by the defaults (E3.6), or the table.
struct Efficiency {
    double mfu = 0.0;
    bool from_benchmark = false;
    std::string note;
};

// FLOPs per unit of a benchmark metric (E3.6).
double flops_per_metric_unit(const Workload& w, const catalog::Benchmark& b,
                             double flops_per_token) {
    const double forward = w.model.flops_per_sample.value_or(0.0);
    if (b.metric == "tokens_per_second_per_gpu") {
        return flops_per_token;
    }
    if (w.model.family == Family::transformer) {
        return w.model.seq_len.value_or(0) * flops_per_token;
    }
    return w.task == Task::inference ? forward : k_train_flops_per_forward * forward;
}

Efficiency efficiency(const Workload& w, const Gpu& gpu, Precision precision, double default_mfu,
                      double flops_per_token, const catalog::Catalog& catalog,
                      const std::function<double(const Gpu&, Precision)>& default_for) {
    if (w.task != Task::inference && w.training.mfu) {
        return {*w.training.mfu, false, ""};
    }
    if (w.model.reference.empty()) {
        return {default_mfu, false, ""};
    }
    const catalog::Benchmark* same = nullptr;
    const catalog::Benchmark* other = nullptr;
    auto other_key = [&](const catalog::Benchmark& b) {
        // Same precision first, then the latest as_of, then the GPU name.
        return std::tuple(b.precision == precision ? 0 : 1, -b.as_of.days_since_epoch(), b.gpu);
    };
    for (const catalog::Benchmark& b : catalog.benchmarks) {
        if (b.model != w.model.reference || b.value <= 0.0) {
            continue;
        }
        if (b.gpu == gpu.name) {
            if (b.precision == precision) {
                same = &b;
            }
        } else if (catalog::find_gpu(catalog, b.gpu) != nullptr &&
                   (other == nullptr || other_key(b) < other_key(*other))) {
            other = &b;
        }
    }
    if (same != nullptr) {
        const double mfu = safe_div(flops_per_metric_unit(w, *same, flops_per_token) * same->value,
                                    peak_flops(gpu, precision));
        return {mfu, true,
                fmt::format("benchmark: '{}' measured {:g} {} on {} ({})", same->model, same->value,
                            same->metric, same->gpu, catalog::to_string(same->precision))};
    }
    if (other != nullptr) {
        const Gpu& that = *catalog::find_gpu(catalog, other->gpu);
        const double ref =
            safe_div(flops_per_metric_unit(w, *other, flops_per_token) * other->value,
                     peak_flops(that, other->precision));
        const double base = default_for(that, other->precision);
        const double mfu = default_mfu * safe_div(ref, base);
        return {mfu, true,
                fmt::format("benchmark_scaled: '{}' has no {} figure on {}; default scaled by its "
                            "{} result ({:.3f} measured vs {:.3f} default)",
                            w.model.reference, catalog::to_string(precision), gpu.name, other->gpu,
                            ref, base)};
    }
    return {default_mfu, false,
            fmt::format("benchmark_missing: no benchmark for '{}'; using the default efficiency",
                        w.model.reference)};
}

// Per-direction bandwidth in GB/s between GPUs of one node (E5.3).
double intra_node_gb_per_s(const Gpu& gpu, const NodeShape& node) {
    if (node.nvlink && gpu.nvlink_gb_per_s > 0.0) {
        return gpu.nvlink_gb_per_s / 2.0;
    }
    if (gpu.architecture <= Architecture::turing) {
        return k_pcie3_gb_per_s;
    }
    return gpu.architecture >= Architecture::hopper ? k_pcie5_gb_per_s : k_pcie4_gb_per_s;
}

double inter_node_gb_per_s(const NodeShape& node) {
    return node.network_gbps.value_or(k_default_network_gbps) / k_bits_per_byte;
}

// GPU counts tried (E5.2): 1, 2, 4, ... below a node, one node, then whole nodes, up to `cap`.
std::vector<int> candidate_counts(int gpus_per_node, int cap) {
    std::vector<int> counts;
    for (int n = 1; n < gpus_per_node && n <= cap; n *= 2) {
        counts.push_back(n);
    }
    for (int n = gpus_per_node; n <= cap; n += gpus_per_node) {
        counts.push_back(n);
    }
    return counts;
}

struct Layout {
    int tensor = 1;
    int pipeline = 1;
    [[nodiscard]] int model() const { return tensor * pipeline; }
};

// Tensor x pipeline layouts for `gpus` GPUs (E5.1), smaller tensor then pipeline first.
std::vector<Layout> layouts_for(const Workload& w, const Shape& shape, int gpus, int gpn) {
    std::vector<Layout> out;
    const bool parallel = w.model.family == Family::transformer && shape.known();
    for (int t : k_tensor_parallel_degrees) {
        if (t > gpn || t > gpus || (t > 1 && !parallel) ||
            (t > 1 && (shape.heads <= 0.0 || std::fmod(shape.heads, t) != 0.0))) {
            continue;
        }
        for (int pp = 1; pp == 1 || (parallel && pp <= shape.layers); pp *= 2) {
            if (gpus % (t * pp) == 0) {
                out.push_back({t, pp});
            }
            if (t * pp > gpus) {
                break;
            }
        }
    }
    return out;
}

struct TrainModel {
    double params = 0.0;
    double active = 0.0;
    double trainable = 0.0;
    double weight_bytes = 0.0;    // per parameter of the whole model, as stored
    double grad_bytes = 0.0;      // per trainable parameter
    double optimizer_bytes = 0.0; // per trainable parameter, master weights included
    double activation_scale = 1.0;
    Shape shape;
    double flops_per_unit = 0.0; // per token (transformer) or sample
    double work = 0.0;           // tokens (transformer) or samples (cnn/custom), whole run
    double work_per_micro = 0.0; // per replica per micro-batch
    double global_batch = 0.0;   // work units per optimizer step before the d*b floor (E5.4)
    double total_flops = 0.0;
    double checkpoint_bytes = 0.0; // weights and optimizer state, without gradients (E4.7)
};

TrainModel train_model(const Workload& w, Precision precision, std::vector<std::string>& notes) {
    TrainModel m;
    m.params = w.model.params;
    m.active = active_params(w.model);
    m.shape = shape_of(w.model);
    const bool mixed = is_mixed(precision);
    const bool transformer = w.model.family == Family::transformer;
    // AdamW keeps two fp32 moments; SGD momentum and Adafactor about one (E4.1).
    const double state_bytes = w.training.optimizer == workload::Optimizer::adamw ? 8.0 : 4.0;
    const double compute_bytes = mixed ? 2.0 : 4.0;
    m.activation_scale = mixed ? 1.0 : 2.0;
    m.grad_bytes = compute_bytes;
    m.optimizer_bytes = (mixed ? 4.0 : 0.0) + state_bytes;
    m.checkpoint_bytes = m.params * (compute_bytes + m.optimizer_bytes);
    if (transformer && !m.shape.known()) {
        notes.emplace_back("shape_missing: no layers, hidden or seq_len; attention FLOPs, "
                           "activation memory and tensor/pipeline parallelism left out");
    }
    const double attention =
        transformer && m.shape.known()
            ? k_train_attention_flops * m.shape.layers * m.shape.hidden * m.shape.seq_len
            : 0.0;
    if (w.training.method == Method::full) {
        m.trainable = m.params;
        m.weight_bytes = compute_bytes;
        m.flops_per_unit = k_train_flops_per_param * m.active + attention;
    } else {
        // Adapters on q, k, v, o (E4.5): fp32 weights (4), gradients (4) and AdamW moments (8).
        const bool sized = m.shape.layers > 0.0 && m.shape.hidden > 0.0;
        m.trainable = sized ? 8.0 * k_lora_rank * m.shape.hidden * m.shape.layers
                            : k_lora_trainable_fraction * m.params;
        const double base_bytes = w.training.method == Method::qlora ? k_nf4_bytes : compute_bytes;
        m.weight_bytes = base_bytes + 4.0 * m.trainable / m.params;
        m.grad_bytes = 4.0;
        m.optimizer_bytes = k_lora_adapter_bytes - 8.0;
        m.checkpoint_bytes = m.trainable * k_lora_checkpoint_bytes;
        m.flops_per_unit =
            k_frozen_flops_per_param * m.active + k_train_flops_per_param * m.trainable + attention;
    }
    if (transformer) {
        m.work = w.data.tokens ? *w.data.tokens
                               : w.data.samples.value_or(0.0) * m.shape.seq_len * w.data.epochs;
        m.work_per_micro = w.training.micro_batch * std::max(1.0, m.shape.seq_len);
        m.global_batch = m.active >= k_large_transformer_params ? k_global_batch_tokens_large
                                                                : k_global_batch_tokens_small;
    } else {
        m.flops_per_unit = k_train_flops_per_forward * w.model.flops_per_sample.value_or(0.0);
        m.work = w.data.samples.value_or(0.0) * w.data.epochs;
        m.work_per_micro = w.training.micro_batch;
        m.global_batch = 0.0; // b * G samples per step
    }
    m.total_flops = m.flops_per_unit * m.work;
    return m;
}

MemoryBreakdown training_memory(const Workload& w, const TrainModel& m, Layout layout, int gpus) {
    const double mp = layout.model();
    const double dp = std::max(1.0, std::floor(gpus / mp));
    const Sharding s = w.training.sharding;
    double weights = m.params * m.weight_bytes / mp;
    double grads = m.trainable * m.grad_bytes / mp;
    double optimizer = m.trainable * m.optimizer_bytes / mp;
    if (s != Sharding::none) {
        optimizer /= dp;
    }
    if (s == Sharding::zero2 || s == Sharding::zero3) {
        grads /= dp;
    }
    if (s == Sharding::zero3) {
        const double gathered = m.shape.layers > 0.0
                                    ? k_zero3_gathered_layers * m.params * m.weight_bytes /
                                          (m.shape.layers * layout.tensor)
                                    : k_zero3_gathered_share * m.params * m.weight_bytes;
        weights = weights / dp + gathered;
    }
    double activations = 0.0;
    if (w.model.family == Family::transformer) {
        if (m.shape.known()) {
            const double heads = m.shape.heads > 0.0 ? m.shape.heads : 0.0;
            const double full_layer = k_activation_bytes + k_attention_score_bytes * heads *
                                                               m.shape.seq_len / m.shape.hidden;
            const double per_token =
                w.training.activation_checkpointing
                    ? k_checkpointed_activation_bytes * m.shape.layers + full_layer
                    : full_layer * m.shape.layers;
            activations = m.shape.seq_len * w.training.micro_batch * m.shape.hidden * per_token *
                          m.activation_scale / layout.tensor;
        }
    } else {
        activations = w.training.micro_batch * w.model.flops_per_sample.value_or(0.0) / 1e9 *
                      k_cnn_act_bytes_per_gflop * m.activation_scale;
    }
    MemoryBreakdown mem;
    mem.weights_gib = weights / k_bytes_per_gib;
    mem.gradients_gib = grads / k_bytes_per_gib;
    mem.optimizer_gib = optimizer / k_bytes_per_gib;
    mem.activations_gib = activations / k_bytes_per_gib;
    mem.overhead_gib = k_framework_overhead_gib;
    return mem;
}

bool fits_in(const MemoryBreakdown& memory, const Gpu& gpu) {
    return memory.total_gib() <= k_usable_memory_fraction * gpu.memory_gib;
}

// The largest memory term, for the does_not_fit note (E8).
std::string largest_term(const MemoryBreakdown& m) {
    const std::array<std::pair<double, std::string_view>, 6> terms = {
        {{m.weights_gib, "weights"},
         {m.gradients_gib, "gradients"},
         {m.optimizer_gib, "optimizer state"},
         {m.activations_gib, "activations"},
         {m.kv_cache_gib, "KV cache"},
         {m.overhead_gib, "overhead"}}};
    const auto* best = std::max_element(
        terms.begin(), terms.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return fmt::format("{} {:.1f} GiB", best->second, best->first);
}

struct TrainTiming {
    double wall_seconds = 0.0;
    double step_seconds = 0.0;
    double scaling_efficiency = 1.0;
    Bottleneck bottleneck = Bottleneck::compute;
    double work_per_second = 0.0;
};

TrainTiming train_timing(const Workload& w, const TrainModel& m, const Gpu& gpu,
                         const NodeShape& node, int gpus, Layout layout, double flops_per_gpu) {
    TrainTiming t;
    const double mp = layout.model();
    const double dp = std::max(1.0, std::floor(gpus / mp));
    const double gpn = node.gpus_per_node;
    // One optimizer step covers the global batch, at least one micro-batch per replica (E5.4).
    const double step_work = std::max(m.global_batch, dp * m.work_per_micro);
    const double steps = std::max(1.0, m.work / step_work);
    const double microbatches = std::max(1.0, step_work / (dp * m.work_per_micro));
    const double step_compute = safe_div(m.total_flops / steps, gpus * flops_per_gpu);
    const double busy = step_compute * (1.0 + (layout.pipeline - 1.0) / microbatches);
    const double intra = intra_node_gb_per_s(gpu, node) * k_bytes_per_gb * k_link_efficiency;
    const double inter = inter_node_gb_per_s(node) * k_bytes_per_gb * k_link_efficiency;
    double dp_comm = 0.0;
    if (dp > 1.0) {
        const double shard = m.grad_bytes * m.trainable / mp;
        const double d_in = std::max(1.0, std::min(dp, std::floor(gpn / layout.tensor)));
        const double n_dp = std::max(1.0, dp / d_in);
        dp_comm = 2.0 * (d_in - 1.0) / d_in * shard / intra +
                  2.0 * (n_dp - 1.0) / n_dp * shard * (gpn / d_in) / inter;
        if (w.training.sharding == Sharding::zero3) {
            dp_comm *= k_zero3_comm_factor;
        }
    }
    double tp_comm = 0.0;
    if (layout.tensor > 1) {
        const double bytes = 2.0 * m.shape.seq_len * w.training.micro_batch * m.shape.hidden;
        tp_comm = (m.shape.layers / layout.pipeline) * microbatches * k_tp_allreduces * 2.0 *
                  (layout.tensor - 1.0) / layout.tensor * bytes / intra;
    }
    const double step =
        std::max(busy, dp_comm) + (1.0 - k_comm_overlap) * std::min(busy, dp_comm) + tp_comm;
    const double train_seconds = steps * step;
    t.step_seconds = step;
    t.scaling_efficiency = safe_div(step_compute, step);
    t.bottleneck = dp_comm + tp_comm > busy ? Bottleneck::communication : Bottleneck::compute;
    double read_seconds = 0.0;
    double stage_seconds = 0.0;
    if (w.data.dataset_gb && *w.data.dataset_gb > 0.0) {
        const double nodes = std::ceil(gpus / gpn);
        const bool local = node.local_nvme_gb && *node.local_nvme_gb >= *w.data.dataset_gb;
        const double per_node = local ? k_nvme_gb_per_s : k_network_disk_gb_per_s;
        read_seconds = *w.data.dataset_gb * w.data.epochs / (nodes * per_node);
        if (local) {
            stage_seconds =
                *w.data.dataset_gb / std::min(k_object_store_gb_per_s, inter_node_gb_per_s(node));
        }
    }
    t.wall_seconds = std::max(train_seconds, read_seconds) + stage_seconds;
    if (read_seconds > k_data_bottleneck_share * train_seconds) {
        t.bottleneck = Bottleneck::data_loading;
    }
    t.work_per_second = safe_div(m.work, t.wall_seconds);
    return t;
}

// A training configuration at one GPU count: the layout with the shortest step that fits, or
// (when none fits) the one needing the least memory.
struct TrainConfig {
    Layout layout;
    bool fits = false;
    MemoryBreakdown memory;
    TrainTiming timing;
};

std::optional<TrainConfig> configure(const Workload& w, const TrainModel& m, const Gpu& gpu,
                                     const NodeShape& node, int gpus, double flops_per_gpu) {
    std::optional<TrainConfig> best;
    for (const Layout& layout : layouts_for(w, m.shape, gpus, node.gpus_per_node)) {
        TrainConfig config{layout, false, training_memory(w, m, layout, gpus), {}};
        config.fits = fits_in(config.memory, gpu);
        if (!best || (config.fits && !best->fits) ||
            (!config.fits && !best->fits && config.memory.total_gib() < best->memory.total_gib())) {
            config.timing = train_timing(w, m, gpu, node, gpus, layout, flops_per_gpu);
            best = config;
            continue;
        }
        if (config.fits && best->fits) {
            config.timing = train_timing(w, m, gpu, node, gpus, layout, flops_per_gpu);
            // Strictly shorter runs win (steps differ in size between layouts, so compare the
            // whole run); ties keep the earlier (smaller t, then pp) layout.
            if (config.timing.wall_seconds < best->timing.wall_seconds) {
                best = config;
            }
        }
    }
    if (best && !best->fits) {
        best->timing = train_timing(w, m, gpu, node, gpus, best->layout, flops_per_gpu);
    }
    return best;
}

// Memory differences below this count as ties when choosing a count that does not fit.
constexpr double k_memory_tie_gib = 1e-9;

GpuEstimate no_peak(GpuEstimate e, const Gpu& gpu) {
    e.fits = false;
    e.notes.push_back(fmt::format("no_peak_flops: the catalog has no {} peak for {}; not estimated",
                                  catalog::to_string(e.precision), gpu.name));
    return e;
}

GpuEstimate estimate_training(const Workload& w, const Gpu& gpu, const NodeShape& node,
                              std::optional<int> requested, const catalog::Catalog& catalog) {
    GpuEstimate e;
    e.gpu = gpu.name;
    e.node = node;
    e.node.gpus_per_node = std::max(1, node.gpus_per_node);
    const int gpn = e.node.gpus_per_node;
    e.precision = resolve_precision(gpu, w.training.precision, e.notes);
    const TrainModel m = train_model(w, e.precision, e.notes);
    e.total_flops = m.total_flops;
    e.checkpoint_gb = m.checkpoint_bytes / k_bytes_per_gb;
    const double peak = peak_flops(gpu, e.precision);
    if (peak <= 0.0) {
        return no_peak(e, gpu);
    }
    const double factor = method_factor(w);
    const Efficiency eff = efficiency(
        w, gpu, e.precision, table_mfu(w, gpu, e.precision) * factor, m.flops_per_unit, catalog,
        [&](const Gpu& other, Precision p) { return table_mfu(w, other, p) * factor; });
    e.mfu = eff.mfu;
    e.from_benchmark = eff.from_benchmark;
    if (!eff.note.empty()) {
        e.notes.push_back(eff.note);
    }
    const double flops_per_gpu = peak * e.mfu;
    const int cap = w.constraints.max_gpus.value_or(workload::k_default_max_gpus);
    const std::vector<int> counts = candidate_counts(gpn, cap);

    auto evaluate = [&](int n, const TrainConfig& config) {
        GpuEstimate out = e;
        out.gpu_count = n;
        out.nodes = (n + gpn - 1) / gpn;
        out.fits = config.fits;
        out.tensor_parallel = config.layout.tensor;
        out.pipeline_parallel = config.layout.pipeline;
        out.model_parallel = config.layout.model();
        out.data_parallel = std::max(1, n / config.layout.model());
        out.memory = config.memory;
        out.memory_per_gpu_gib = config.memory.total_gib();
        out.wall_hours = config.timing.wall_seconds / k_seconds_per_hour;
        out.gpu_hours = out.wall_hours * n;
        out.scaling_efficiency = config.timing.scaling_efficiency;
        out.bottleneck = config.timing.bottleneck;
        out.throughput.samples_per_second = config.timing.work_per_second;
        if (w.model.family == Family::transformer) {
            out.throughput.tokens_per_second = config.timing.work_per_second;
        }
        out.meets_deadline =
            !w.constraints.deadline_hours || out.wall_hours <= *w.constraints.deadline_hours;
        return out;
    };

    std::optional<std::pair<int, TrainConfig>> chosen;
    for (int n : counts) {
        auto config = configure(w, m, gpu, e.node, n, flops_per_gpu);
        if (config && config->fits) {
            e.min_gpus = n;
            break;
        }
    }
    if (requested || w.constraints.gpu_count) {
        const int n = requested ? *requested : *w.constraints.gpu_count;
        if (auto config = configure(w, m, gpu, e.node, n, flops_per_gpu)) {
            chosen.emplace(n, *config);
        }
    } else if (e.min_gpus > 0) {
        for (int n : counts) {
            if (n < e.min_gpus) {
                continue;
            }
            auto config = configure(w, m, gpu, e.node, n, flops_per_gpu);
            if (!config || !config->fits) {
                continue;
            }
            chosen.emplace(n, *config);
            const double hours = config->timing.wall_seconds / k_seconds_per_hour;
            if (!w.constraints.deadline_hours || hours <= *w.constraints.deadline_hours) {
                break;
            }
        }
    } else {
        // Nothing fits: show the count needing the least memory per GPU (the smallest such).
        for (int n : counts) {
            auto config = configure(w, m, gpu, e.node, n, flops_per_gpu);
            if (config && (!chosen || config->memory.total_gib() <
                                          chosen->second.memory.total_gib() - k_memory_tie_gib)) {
                chosen.emplace(n, *config);
            }
        }
    }
    if (!chosen) {
        // No layout exists at this count (e.g. fewer GPUs than one tensor group): plain DP.
        const int n = requested ? *requested : w.constraints.gpu_count.value_or(1);
        TrainConfig config{Layout{}, false, training_memory(w, m, Layout{}, n), {}};
        config.fits = fits_in(config.memory, gpu);
        config.timing = train_timing(w, m, gpu, e.node, n, Layout{}, flops_per_gpu);
        chosen.emplace(n, config);
    }
    GpuEstimate out = evaluate(chosen->first, chosen->second);
    if (!out.fits) {
        out.notes.push_back(fmt::format(
            "does_not_fit: {:.1f} GiB per GPU on {} GPU(s) exceeds {:.0f} % of {:g} GiB; "
            "largest term: {}",
            out.memory_per_gpu_gib, out.gpu_count, k_usable_memory_fraction * 100.0, gpu.memory_gib,
            largest_term(out.memory)));
    }
    if (!out.meets_deadline) {
        out.notes.push_back(fmt::format("deadline_missed: {:.1f} h on {} GPU(s) exceeds the {:g} h "
                                        "deadline",
                                        out.wall_hours, out.gpu_count,
                                        *w.constraints.deadline_hours));
    }
    if (!node.network_gbps && out.nodes > 1) {
        out.notes.push_back(fmt::format("network_bandwidth_unknown: node network assumed {:g} Gbps",
                                        k_default_network_gbps));
    }
    return out;
}

// Decode bandwidth efficiency by tensor-parallel degree and weight format (E7).
double bandwidth_efficiency(int tensor, double weight_bytes) {
    const double base = tensor <= 2   ? k_decode_bandwidth_efficiency_small
                        : tensor <= 4 ? k_decode_bandwidth_efficiency_4
                                      : k_decode_bandwidth_efficiency_8;
    const double factor = weight_bytes <= 0.625 ? k_bandwidth_factor_int4
                          : weight_bytes <= 1.0 ? k_bandwidth_factor_8bit
                                                : 1.0;
    return base * factor;
}

GpuEstimate estimate_inference(const Workload& w, const Gpu& gpu, const NodeShape& node,
                               std::optional<int> requested, const catalog::Catalog& catalog) {
    GpuEstimate e;
    e.gpu = gpu.name;
    e.node = node;
    e.node.gpus_per_node = std::max(1, node.gpus_per_node);
    const int gpn = e.node.gpus_per_node;
    const Precision wanted = w.inference.precision;
    e.precision = resolve_precision(gpu, wanted, e.notes);
    const double weight_bytes = wanted == Precision::int4       ? 0.625
                                : wanted == Precision::int8     ? 1.0
                                : e.precision == Precision::fp8 ? 1.0
                                                                : 2.0;
    const double peak = peak_flops(gpu, e.precision);
    if (peak <= 0.0) {
        return no_peak(e, gpu);
    }
    const bool transformer = w.model.family == Family::transformer;
    const double active = active_params(w.model);
    const Shape shape = shape_of(w.model);
    const double in_tokens = transformer ? w.inference.input_tokens : 0.0;
    const double out_tokens = transformer ? w.inference.output_tokens : 0.0;
    const double weights = w.model.params * weight_bytes;
    const double kv_bytes = e.precision == Precision::fp8 ? 1.0 : 2.0;
    const double kv_per_token =
        transformer && shape.kv_known()
            ? 2.0 * shape.layers * shape.kv_heads * (shape.hidden / shape.heads) * kv_bytes
            : 0.0;
    if (transformer && !shape.kv_known()) {
        e.notes.emplace_back("shape_missing: no layers, hidden or heads; KV cache left out");
    }
    const double attention_prefill = shape.layers > 0.0 && shape.hidden > 0.0
                                         ? 4.0 * shape.layers * shape.hidden * in_tokens * in_tokens
                                         : 0.0;
    const double prefill_flops = k_forward_flops_per_param * active * in_tokens + attention_prefill;
    const double forward = w.model.flops_per_sample.value_or(0.0);
    const double latency_target = w.inference.latency_ms.value_or(0.0) / 1000.0;

    // Efficiency of custom/cnn models: η_custom, or a reference benchmark (E3.6, E7).
    Efficiency custom{k_custom_inference_mfu, false, ""};
    if (!transformer) {
        custom = efficiency(w, gpu, e.precision, k_custom_inference_mfu, forward, catalog,
                            [](const Gpu&, Precision) { return k_custom_inference_mfu; });
        if (!custom.note.empty()) {
            e.notes.push_back(custom.note);
        }
    }
    auto kv_split = [&](int t) { return std::max(1.0, std::min<double>(t, shape.kv_heads)); };
    auto memory_at = [&](int t, double batch) {
        MemoryBreakdown mem;
        mem.weights_gib = weights / t / k_bytes_per_gib;
        mem.kv_cache_gib =
            batch * (in_tokens + out_tokens) * kv_per_token / kv_split(t) / k_bytes_per_gib;
        mem.overhead_gib = k_framework_overhead_gib;
        return mem;
    };
    struct Serving {
        int tensor = 1;
        double batch = 1.0;
        double decode_step = 0.0; // seconds per decode step of the whole batch
        double prefill_seconds = 0.0;
        double request_seconds = 0.0; // T_request
        bool bandwidth_bound = false;
        int replicas = 1;
        int gpus = 1;
        double prefill_mfu = 0.0;
    };
    auto serving_at = [&](int t, double batch) {
        Serving s;
        s.tensor = t;
        s.batch = batch;
        if (transformer) {
            s.prefill_mfu = e.precision == Precision::fp8                ? k_prefill_mfu_fp8
                            : batch * in_tokens < k_prefill_short_tokens ? k_prefill_mfu_short
                                                                         : k_prefill_mfu;
            const double memory_step =
                (weights / t +
                 batch * kv_per_token * (in_tokens + out_tokens / 2.0) / kv_split(t)) /
                (gpu.memory_bandwidth_gb_per_s * k_bytes_per_gb *
                 bandwidth_efficiency(t, weight_bytes));
            const double compute_step =
                k_forward_flops_per_param * active * batch / (t * peak * s.prefill_mfu);
            s.decode_step = std::max(memory_step, compute_step);
            s.bandwidth_bound = memory_step >= compute_step;
            s.prefill_seconds = batch * prefill_flops / (t * peak * s.prefill_mfu);
            s.request_seconds = s.prefill_seconds + out_tokens * s.decode_step;
        } else {
            s.prefill_mfu = custom.mfu;
            s.request_seconds = batch * safe_div(forward, peak * custom.mfu);
        }
        const double capacity = safe_div(batch, s.request_seconds);
        s.replicas = static_cast<int>(
            std::clamp(std::ceil(safe_div(w.inference.requests_per_second, capacity)), 1.0, 1e6));
        s.gpus = s.replicas * t;
        return s;
    };

    // (t, B) search (E7): t from 1 up to a node, B from the batch halving down to 1.
    std::optional<Serving> best_meeting;
    std::optional<Serving> fastest;
    for (int t : k_tensor_parallel_degrees) {
        if (t > gpn || (!transformer && t > 1)) {
            continue;
        }
        for (int batch = w.inference.batch; batch >= 1; batch /= 2) {
            if (!fits_in(memory_at(t, batch), gpu)) {
                continue;
            }
            const Serving s = serving_at(t, batch);
            if (e.min_gpus == 0 || t < e.min_gpus) {
                e.min_gpus = e.min_gpus == 0 ? t : std::min(e.min_gpus, t);
            }
            if (!fastest || s.request_seconds < fastest->request_seconds) {
                fastest = s;
            }
            if (latency_target <= 0.0 || s.request_seconds <= latency_target) {
                if (!best_meeting || s.gpus < best_meeting->gpus ||
                    (s.gpus == best_meeting->gpus &&
                     s.request_seconds < best_meeting->request_seconds)) {
                    best_meeting = s;
                }
            }
        }
    }
    Serving s;
    if (best_meeting) {
        s = *best_meeting;
        e.fits = true;
    } else if (fastest) {
        s = *fastest;
        e.fits = true;
        e.meets_deadline = false;
        e.notes.push_back(fmt::format("latency_target_missed: fastest request takes {:.0f} ms, "
                                      "target {:g} ms",
                                      s.request_seconds * 1000.0, *w.inference.latency_ms));
    } else {
        s = serving_at(std::min(gpn, 8), 1.0);
        e.fits = false;
    }
    if (requested || w.constraints.gpu_count) {
        s.gpus = requested ? *requested : *w.constraints.gpu_count;
        s.replicas = s.gpus / s.tensor;
        if (s.replicas == 0) {
            e.fits = false;
        }
    }
    e.gpu_count = s.gpus;
    e.nodes = (s.gpus + gpn - 1) / gpn;
    e.tensor_parallel = s.tensor;
    e.model_parallel = s.tensor;
    e.data_parallel = s.replicas;
    e.batch = static_cast<int>(s.batch);
    e.memory = memory_at(s.tensor, s.batch);
    e.memory_per_gpu_gib = e.memory.total_gib();
    if (!e.fits) {
        e.notes.push_back(fmt::format(
            "does_not_fit: {:.1f} GiB per GPU with {} GPUs per replica exceeds {:.0f} % of {:g} "
            "GiB; largest term: {}",
            e.memory_per_gpu_gib, s.tensor, k_usable_memory_fraction * 100.0, gpu.memory_gib,
            largest_term(e.memory)));
    }
    e.mfu = s.prefill_mfu;
    e.from_benchmark = custom.from_benchmark;
    e.wall_hours = w.inference.hours_per_day * k_days_per_year / k_months_per_year;
    e.gpu_hours = e.wall_hours * s.gpus;
    const double capacity = s.replicas * safe_div(s.batch, s.request_seconds);
    e.throughput.requests_per_second_capacity = capacity;
    e.throughput.samples_per_second = capacity;
    const double flops_per_request =
        transformer ? prefill_flops + k_forward_flops_per_param * active * out_tokens : forward;
    e.total_flops =
        w.inference.requests_per_second * k_seconds_per_hour * e.wall_hours * flops_per_request;
    if (transformer) {
        e.throughput.tokens_per_second = capacity * out_tokens;
        e.throughput.decode_tokens_per_second = safe_div(s.batch, s.decode_step);
        e.throughput.prefill_tokens_per_second = safe_div(s.batch * in_tokens, s.prefill_seconds);
        e.bottleneck = s.bandwidth_bound ? Bottleneck::memory_bandwidth : Bottleneck::compute;
    }
    if (s.gpus > w.constraints.max_gpus.value_or(workload::k_default_max_gpus)) {
        e.notes.push_back(fmt::format("max_gpus_exceeded: {} GPUs needed for {:g} requests/s",
                                      s.gpus, w.inference.requests_per_second));
    }
    return e;
}

} // namespace

std::string_view to_string(Bottleneck value) {
    switch (value) {
    case Bottleneck::compute:
        return "compute";
    case Bottleneck::memory_bandwidth:
        return "memory_bandwidth";
    case Bottleneck::communication:
        return "communication";
    case Bottleneck::data_loading:
        return "data_loading";
    }
    return "compute";
}

GpuEstimate estimate(const workload::Workload& workload, const catalog::Gpu& gpu,
                     const NodeShape& node, std::optional<int> gpu_count,
                     const catalog::Catalog& catalog) {
    const auto missing = workload::missing_fields(workload);
    if (!missing.empty()) {
        throw UsageError("incomplete workload: missing " + missing.front());
    }
    if (gpu_count && *gpu_count < 1) {
        throw UsageError(fmt::format("gpu count must be at least 1, got {}", *gpu_count));
    }
    if (gpu.memory_gib <= 0.0 || gpu.memory_bandwidth_gb_per_s <= 0.0) {
        throw UsageError(fmt::format("GPU {} has no memory or bandwidth figure", gpu.name));
    }
    GpuEstimate result = workload.task == Task::inference
                             ? estimate_inference(workload, gpu, node, gpu_count, catalog)
                             : estimate_training(workload, gpu, node, gpu_count, catalog);
    const std::array<double, 8> values = {result.total_flops,
                                          result.gpu_hours,
                                          result.wall_hours,
                                          result.memory_per_gpu_gib,
                                          result.checkpoint_gb,
                                          result.throughput.samples_per_second,
                                          result.throughput.tokens_per_second,
                                          result.mfu};
    for (double value : values) {
        if (!std::isfinite(value)) {
            throw UsageError(fmt::format("the workload's numbers are too large to estimate on {} "
                                         "(a result is not a finite number)",
                                         gpu.name));
        }
    }
    return result;
}

NodeShape default_node_shape(const catalog::Catalog& catalog, const catalog::Gpu& gpu) {
    const catalog::Instance* best = nullptr;
    for (const catalog::Provider& provider : catalog.providers) {
        for (const catalog::Instance& instance : provider.instances) {
            if (instance.gpu != gpu.name || instance.gpu_count < 1.0 ||
                instance.gpu_count != std::floor(instance.gpu_count)) {
                continue;
            }
            auto key = [](const catalog::Instance& i) {
                return std::tuple(i.gpu_count, i.network_gbps.value_or(0.0), i.nvlink);
            };
            if (best == nullptr || key(instance) > key(*best)) {
                best = &instance;
            }
        }
    }
    NodeShape shape;
    if (best == nullptr) {
        shape.gpus_per_node = 8;
        shape.nvlink = gpu.nvlink_gb_per_s > 0.0;
        return shape;
    }
    shape.gpus_per_node = static_cast<int>(best->gpu_count);
    shape.nvlink = best->nvlink && gpu.nvlink_gb_per_s > 0.0;
    shape.network_gbps = best->network_gbps;
    shape.local_nvme_gb = best->local_nvme_gb;
    return shape;
}

const GpuEstimate& Memo::get(const catalog::Gpu& gpu, const NodeShape& node,
                             std::optional<int> gpu_count) {
    Key key{gpu.name,
            node.gpus_per_node,
            node.nvlink,
            node.network_gbps.value_or(-1.0),
            node.local_nvme_gb.value_or(-1.0),
            gpu_count.value_or(-1)};
    auto it = m_estimates.find(key);
    if (it == m_estimates.end()) {
        it = m_estimates.emplace(std::move(key), m_estimator(gpu, node, gpu_count)).first;
    }
    return it->second;
}

std::vector<const catalog::Gpu*> selected_gpus(const workload::Workload& workload,
                                               const catalog::Catalog& catalog) {
    std::vector<const catalog::Gpu*> gpus;
    if (workload.constraints.gpu_models.empty()) {
        for (const catalog::Gpu& gpu : catalog.gpus) {
            gpus.push_back(&gpu);
        }
        return gpus;
    }
    for (const std::string& name : workload.constraints.gpu_models) {
        const catalog::Gpu* gpu = catalog::find_gpu(catalog, name);
        if (gpu == nullptr) {
            std::vector<std::string_view> names;
            for (const catalog::Gpu& g : catalog.gpus) {
                names.push_back(g.name);
            }
            const std::string hint = gpuplan::detail::closest_match(name, names);
            throw UsageError(
                fmt::format("unknown GPU model '{}'{}; known: {}", name,
                            hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint),
                            gpuplan::detail::join_choices(names)));
        }
        if (std::find(gpus.begin(), gpus.end(), gpu) == gpus.end()) {
            gpus.push_back(gpu);
        }
    }
    return gpus;
}

std::vector<GpuEstimate> estimate_all(const workload::Workload& workload,
                                      const catalog::Catalog& catalog, const Estimator& estimator) {
    const std::vector<const catalog::Gpu*> gpus = selected_gpus(workload, catalog);
    std::vector<GpuEstimate> out;
    out.reserve(gpus.size());
    for (const catalog::Gpu* gpu : gpus) {
        out.push_back(estimator(*gpu, default_node_shape(catalog, *gpu), std::nullopt));
    }
    return out;
}

std::vector<GpuEstimate> estimate_all(const workload::Workload& workload,
                                      const catalog::Catalog& catalog) {
    return estimate_all(
        workload, catalog,
        [&](const catalog::Gpu& gpu, const NodeShape& node, std::optional<int> count) {
            return estimate(workload, gpu, node, count, catalog);
        });
}

} // namespace gpuplan::estimate

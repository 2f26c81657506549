#include "gpuplan/estimate/estimate.hpp"

#include "detail/strings.hpp"
#include "estimate/constants.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/workload/reader.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace gpuplan::estimate {

namespace {

using namespace detail;
using catalog::Architecture;
using catalog::Gpu;
using workload::Family;
using workload::Method;
using workload::Sharding;
using workload::Task;
using workload::Workload;

struct Shape {
    double layers = 0.0;
    double hidden = 0.0;
    double heads = 0.0;
    double kv_heads = 0.0;
    double seq_len = 0.0;
};

double safe_div(double a, double b) {
    return b > 0.0 && std::isfinite(b) ? a / b : 0.0;
}

bool is_16bit(catalog::Precision p) {
    return p == catalog::Precision::fp16 || p == catalog::Precision::bf16 ||
           p == catalog::Precision::fp8;
}

// The transformer shape, derived from the parameter count where not given.
Shape shape_of(const workload::Model& model, std::vector<std::string>* notes) {
    Shape shape;
    if (model.layers && model.hidden) {
        shape.layers = *model.layers;
        shape.hidden = *model.hidden;
    } else {
        const double layers = std::max(
            1.0, std::round(std::cbrt(model.params / (k_params_per_layer_hidden2 *
                                                      k_hidden_per_layer * k_hidden_per_layer))));
        shape.layers = model.layers ? *model.layers : layers;
        shape.hidden = model.hidden ? *model.hidden : k_hidden_per_layer * shape.layers;
        if (notes != nullptr && model.family == Family::transformer) {
            notes->push_back(fmt::format("model shape not given: assumed {:g} layers of hidden "
                                         "size {:g} (params = 12 L h^2)",
                                         shape.layers, shape.hidden));
        }
    }
    shape.heads = model.heads ? *model.heads : std::max(1.0, std::round(shape.hidden / k_head_dim));
    shape.kv_heads = model.kv_heads ? *model.kv_heads : shape.heads;
    shape.seq_len = model.seq_len ? *model.seq_len : k_default_seq_len;
    return shape;
}

double active_params(const workload::Model& model) {
    return model.active_params ? *model.active_params : model.params;
}

// Dense peak in FLOP/s; 0 when the GPU lacks the precision.
double peak_flops(const Gpu& gpu, catalog::Precision precision) {
    return gpu.peak_tflops(precision).value_or(0.0) * 1e12;
}

// The training precision the GPU runs (E1): bf16 falls back to fp16, fp8 to bf16 or fp16.
catalog::Precision training_precision(const Gpu& gpu, catalog::Precision wanted,
                                      std::vector<std::string>& notes) {
    using catalog::Precision;
    auto supported = [&](Precision p) { return gpu.peak_tflops(p).has_value(); };
    if (supported(wanted)) {
        return wanted;
    }
    std::vector<Precision> chain;
    switch (wanted) {
    case Precision::fp8:
        chain = {Precision::bf16, Precision::fp16, Precision::fp32};
        break;
    case Precision::bf16:
        chain = {Precision::fp16, Precision::fp32};
        break;
    case Precision::tf32:
        chain = {Precision::fp32};
        break;
    default:
        chain = {Precision::fp16, Precision::fp32};
        break;
    }
    for (Precision p : chain) {
        if (supported(p)) {
            notes.push_back(
                fmt::format("{} not supported on {} ({}): using {}", catalog::to_string(wanted),
                            gpu.name, catalog::to_string(gpu.architecture), catalog::to_string(p)));
            return p;
        }
    }
    return wanted;
}

// The compute precision for inference and the bytes of one weight.
std::pair<catalog::Precision, double> inference_precision(const Gpu& gpu, catalog::Precision wanted,
                                                          std::vector<std::string>& notes) {
    using catalog::Precision;
    switch (wanted) {
    case Precision::int4:
        return {Precision::fp16, 0.5};
    case Precision::int8:
        return {Precision::fp16, 1.0};
    case Precision::fp8:
        if (gpu.peak_tflops(Precision::fp8)) {
            return {Precision::fp8, 1.0};
        }
        notes.push_back(fmt::format("fp8 not supported on {} ({}): using fp16", gpu.name,
                                    catalog::to_string(gpu.architecture)));
        return {Precision::fp16, 2.0};
    case Precision::bf16:
        if (gpu.peak_tflops(Precision::bf16)) {
            return {Precision::bf16, 2.0};
        }
        notes.push_back(fmt::format("bf16 not supported on {} ({}): using fp16", gpu.name,
                                    catalog::to_string(gpu.architecture)));
        return {Precision::fp16, 2.0};
    default:
        return {Precision::fp16, 2.0};
    }
}

// Efficiency default for a family, precision and architecture (docs/methodology.md E3).
double default_mfu(const Workload& w, const Gpu& gpu, catalog::Precision precision) {
    const auto column = static_cast<std::size_t>(std::min(gpu.architecture, Architecture::hopper));
    double mfu = 0.0;
    if (w.model.family != Family::transformer) {
        mfu = k_mfu_cnn[column];
    } else if (active_params(w.model) >= k_large_transformer_params) {
        mfu = k_mfu_large[column];
    } else {
        mfu = k_mfu_small[column];
    }
    if (precision == catalog::Precision::fp32) {
        mfu = k_mfu_fp32;
    }
    if (precision == catalog::Precision::fp8) {
        const double bf16 = peak_flops(gpu, catalog::Precision::bf16);
        const double fp8 = peak_flops(gpu, catalog::Precision::fp8);
        mfu = fp8 > 0.0 && bf16 > 0.0 ? mfu * k_fp8_speedup * bf16 / fp8 : mfu;
    }
    if (w.training.method == Method::lora) {
        mfu *= k_lora_efficiency;
    } else if (w.training.method == Method::qlora) {
        mfu *= k_lora_efficiency / k_qlora_slowdown;
    }
    return mfu;
}

// A measured throughput for the workload's reference model on this GPU, in work units (tokens
// for transformers, samples otherwise) per second per GPU.
struct Measured {
    double per_gpu = 0.0;
    const catalog::Benchmark* benchmark = nullptr;
};

std::optional<Measured> find_benchmark(const Workload& w, const Gpu& gpu,
                                       catalog::Precision precision, const Shape& shape,
                                       const catalog::Catalog& catalog) {
    if (w.model.reference.empty()) {
        return std::nullopt;
    }
    const catalog::Benchmark* best = nullptr;
    auto rank = [&](const catalog::Benchmark& b) {
        if (b.precision == precision) {
            return 2;
        }
        return is_16bit(b.precision) && is_16bit(precision) ? 1 : 0;
    };
    for (const catalog::Benchmark& b : catalog.benchmarks) {
        if (b.model != w.model.reference || b.gpu != gpu.name || rank(b) == 0 || b.value <= 0.0) {
            continue;
        }
        if (best == nullptr || rank(b) > rank(*best)) {
            best = &b;
        }
    }
    if (best == nullptr) {
        return std::nullopt;
    }
    double per_gpu = best->value;
    if (w.model.family == Family::transformer && best->metric == "samples_per_second_per_gpu") {
        per_gpu *= shape.seq_len;
    }
    return Measured{per_gpu, best};
}

// Per-direction bandwidth in GB/s between GPUs of one node.
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
    return node.network_gbps.value_or(k_fallback_network_gbps) / k_bits_per_byte;
}

// Counts tried: powers of two below a node, one node, then whole nodes; and `cap` itself.
std::vector<int> candidate_counts(int gpus_per_node, int cap) {
    std::vector<int> counts;
    for (int n = 1; n < gpus_per_node && n <= cap; n *= 2) {
        counts.push_back(n);
    }
    for (int n = gpus_per_node; n <= cap; n += gpus_per_node) {
        counts.push_back(n);
    }
    if (counts.empty() || counts.back() != cap) {
        if (cap < gpus_per_node || counts.empty()) {
            if (std::find(counts.begin(), counts.end(), cap) == counts.end()) {
                counts.push_back(cap);
                std::sort(counts.begin(), counts.end());
            }
        }
    }
    return counts;
}

// Model-parallel degrees: tensor parallel inside a node first, then pipeline stages of a node.
std::vector<std::pair<int, int>> model_parallel_layouts(int gpus, int gpus_per_node,
                                                        double layers) {
    std::vector<std::pair<int, int>> layouts; // (tensor, pipeline)
    for (int t = 1; t <= gpus_per_node && t <= gpus; t *= 2) {
        if (gpus % t == 0) {
            layouts.emplace_back(t, 1);
        }
    }
    if (gpus_per_node > 1 && (gpus_per_node & (gpus_per_node - 1)) != 0 &&
        gpus % gpus_per_node == 0) {
        layouts.emplace_back(gpus_per_node, 1);
    }
    for (int p = 2; p <= static_cast<int>(layers) && gpus_per_node * p <= gpus; ++p) {
        if (gpus % (gpus_per_node * p) == 0) {
            layouts.emplace_back(gpus_per_node, p);
        }
    }
    return layouts;
}

struct TrainModel {
    double params = 0.0;
    double active = 0.0;
    double trainable = 0.0;
    double weight_bytes = 0.0;    // per parameter of the whole model, as stored
    double grad_bytes = 0.0;      // per trainable parameter
    double optimizer_bytes = 0.0; // per trainable parameter
    double activation_scale = 1.0;
    Shape shape;
    double work = 0.0;        // tokens (transformer) or samples (cnn/custom), whole run
    double work_per_step = 0; // per replica per step
    double total_flops = 0.0;
    double checkpoint_bytes = 0.0; // weights and optimizer state, without gradients (E4.7)
    double global_batch = 0.0;     // work units per optimizer step (E5.4), before the d*b floor
};

TrainModel train_model(const Workload& w, catalog::Precision precision,
                       std::vector<std::string>& notes) {
    TrainModel m;
    m.params = w.model.params;
    m.active = active_params(w.model);
    m.shape = shape_of(w.model, w.model.family == Family::transformer ? &notes : nullptr);
    const bool mixed = is_16bit(precision);
    // AdamW keeps two fp32 moments; SGD momentum and Adafactor about one (E4.1).
    const double state_bytes = w.training.optimizer == workload::Optimizer::adamw ? 8.0 : 4.0;
    const double master_bytes = mixed ? 4.0 : 0.0;
    const double compute_bytes = mixed ? 2.0 : 4.0;
    m.activation_scale = mixed ? 1.0 : 2.0;
    m.grad_bytes = compute_bytes;
    m.optimizer_bytes = master_bytes + state_bytes;
    m.checkpoint_bytes = m.params * (compute_bytes + m.optimizer_bytes);
    double flops_per_unit = 0.0;
    const bool transformer = w.model.family == Family::transformer;
    const bool has_shape = w.model.layers && w.model.hidden;
    const double attention =
        transformer && has_shape && w.model.seq_len
            ? k_train_attention_flops * m.shape.layers * m.shape.hidden * m.shape.seq_len
            : 0.0;
    if (w.training.method == Method::full) {
        m.trainable = m.params;
        m.weight_bytes = compute_bytes;
        flops_per_unit = k_train_flops_per_param * m.active + attention;
    } else {
        // Adapters on q, k, v, o (E4.5): fp32 weights (4), gradients (4) and AdamW moments (8).
        m.trainable = has_shape ? 8.0 * k_lora_rank * m.shape.hidden * m.shape.layers
                                : k_lora_trainable_fraction * m.params;
        const double base_bytes =
            w.training.method == Method::qlora ? k_qlora_bytes_per_param : compute_bytes;
        m.weight_bytes = base_bytes + 4.0 * m.trainable / m.params;
        m.grad_bytes = 4.0;
        m.optimizer_bytes = k_lora_adapter_bytes - 8.0;
        m.checkpoint_bytes = m.trainable * k_lora_checkpoint_bytes;
        flops_per_unit =
            k_frozen_flops_per_param * m.active + k_train_flops_per_param * m.trainable + attention;
        if (!has_shape) {
            notes.push_back(fmt::format(
                "{}: adapter parameters assumed {:g} % of the model (no layers/hidden given)",
                workload::to_string(w.training.method), k_lora_trainable_fraction * 100.0));
        }
    }
    if (transformer) {
        m.work = w.data.tokens ? *w.data.tokens
                               : w.data.samples.value_or(0.0) * m.shape.seq_len * w.data.epochs;
        m.work_per_step = w.training.micro_batch * m.shape.seq_len;
        m.total_flops = flops_per_unit * m.work;
        m.global_batch = m.active >= k_large_transformer_params ? k_global_batch_tokens_large
                                                                : k_global_batch_tokens_small;
    } else {
        m.work = w.data.samples.value_or(0.0) * w.data.epochs;
        m.work_per_step = w.training.micro_batch;
        m.total_flops = k_train_flops_per_forward * w.model.flops_per_sample.value_or(0.0) * m.work;
    }
    return m;
}

struct Layout {
    int tensor = 1;
    int pipeline = 1;
    [[nodiscard]] int model() const { return tensor * pipeline; }
};

MemoryBreakdown training_memory(const Workload& w, const TrainModel& m, Layout layout, int gpus) {
    const double mp = layout.model();
    const double dp = std::max(1.0, gpus / mp);
    const Sharding s = w.training.sharding;
    MemoryBreakdown mem;
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
        // Two layers stay gathered at a time (E4.2).
        const double gathered =
            w.model.family == Family::transformer
                ? 2.0 * m.params * m.weight_bytes / (m.shape.layers * layout.tensor)
                : 0.1 * m.params * m.weight_bytes;
        weights = weights / dp + gathered;
    }
    double activations = 0.0;
    if (w.model.family == Family::transformer) {
        const double per_layer = w.training.activation_checkpointing
                                     ? k_checkpointed_activation_bytes
                                     : k_activation_bytes;
        const double live = per_layer * m.shape.layers +
                            (w.training.activation_checkpointing ? k_activation_bytes : 0.0);
        activations = w.training.micro_batch * m.shape.seq_len * m.shape.hidden * live *
                      m.activation_scale / layout.tensor;
    } else {
        activations = w.training.micro_batch * w.model.flops_per_sample.value_or(0.0) *
                      k_cnn_activation_bytes_per_flop * m.activation_scale;
    }
    mem.weights_gib = weights / k_bytes_per_gib;
    mem.gradients_gib = grads / k_bytes_per_gib;
    mem.optimizer_gib = optimizer / k_bytes_per_gib;
    mem.activations_gib = activations / k_bytes_per_gib;
    mem.overhead_gib = k_runtime_overhead_gib;
    return mem;
}

bool fits_in(const MemoryBreakdown& memory, const Gpu& gpu) {
    return memory.total_gib() <= k_usable_memory_fraction * gpu.memory_gib;
}

// The smallest model-parallel layout that fits `gpus` GPUs; nullopt when none does.
std::optional<Layout> fitting_layout(const Workload& w, const TrainModel& m, const Gpu& gpu,
                                     const NodeShape& node, int gpus) {
    for (auto [t, p] : model_parallel_layouts(gpus, node.gpus_per_node, m.shape.layers)) {
        Layout layout{t, p};
        if (fits_in(training_memory(w, m, layout, gpus), gpu)) {
            return layout;
        }
    }
    return std::nullopt;
}

struct TrainTiming {
    double wall_seconds = 0.0;
    double compute_seconds = 0.0;
    double scaling_efficiency = 1.0;
    Bottleneck bottleneck = Bottleneck::compute;
    double work_per_second = 0.0;
};

TrainTiming train_timing(const Workload& w, const TrainModel& m, const Gpu& gpu,
                         const NodeShape& node, int gpus, Layout layout, double per_gpu_rate) {
    TrainTiming t;
    const double mp = layout.model();
    const double dp = std::max(1.0, std::floor(gpus / mp));
    const double gpn = node.gpus_per_node;
    // per_gpu_rate is work units (tokens or samples) per second per GPU (E3).
    const double compute = safe_div(m.work, gpus * per_gpu_rate);
    // One optimizer step covers the global batch, at least one micro-batch per replica (E5.4).
    const double step_work = std::max(m.global_batch, dp * m.work_per_step);
    const double steps = std::max(1.0, m.work / step_work);
    const double microbatches = std::max(1.0, step_work / (dp * m.work_per_step));
    const double step_compute = compute / steps;
    const double bubble = (layout.pipeline - 1.0) / microbatches;
    const double busy = step_compute * (1.0 + bubble);
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
    if (layout.tensor > 1 && w.model.family == Family::transformer) {
        const double bytes = 2.0 * m.shape.seq_len * w.training.micro_batch * m.shape.hidden;
        tp_comm = (m.shape.layers / layout.pipeline) * microbatches * k_tp_allreduces * 2.0 *
                  (layout.tensor - 1.0) / layout.tensor * bytes / intra;
    }
    const double step =
        std::max(busy, dp_comm) + (1.0 - k_comm_overlap) * std::min(busy, dp_comm) + tp_comm;
    const double train_seconds = steps * step;
    t.compute_seconds = compute;
    t.scaling_efficiency = safe_div(step_compute, step);
    t.bottleneck = dp_comm + tp_comm > busy ? Bottleneck::communication : Bottleneck::compute;
    double read_seconds = 0.0;
    if (w.data.dataset_gb && *w.data.dataset_gb > 0.0) {
        const double nodes = std::ceil(gpus / gpn);
        const bool local = node.local_nvme_gb && *node.local_nvme_gb >= *w.data.dataset_gb;
        const double per_node = local ? k_local_nvme_gb_per_s : k_remote_storage_gb_per_s;
        read_seconds = *w.data.dataset_gb * w.data.epochs / (nodes * per_node);
    }
    t.wall_seconds = std::max(train_seconds, read_seconds);
    if (read_seconds > k_data_bottleneck_share * train_seconds) {
        t.bottleneck = Bottleneck::data_loading;
    }
    t.work_per_second = safe_div(m.work, t.wall_seconds);
    return t;
}

GpuEstimate estimate_training(const Workload& w, const Gpu& gpu, const NodeShape& node,
                              std::optional<int> requested, const catalog::Catalog& catalog) {
    GpuEstimate e;
    e.gpu = gpu.name;
    e.node = node;
    e.precision = training_precision(gpu, w.training.precision, e.notes);
    const TrainModel m = train_model(w, e.precision, e.notes);
    e.total_flops = m.total_flops;
    const double peak = peak_flops(gpu, e.precision);
    const auto measured = find_benchmark(w, gpu, e.precision, m.shape, catalog);
    if (!w.model.reference.empty() && !measured) {
        e.notes.push_back(
            fmt::format("no benchmark of '{}' on {}: time from MFU", w.model.reference, gpu.name));
    }
    auto rate_at = [&](double& mfu) {
        if (measured && !w.training.mfu) {
            mfu = safe_div(safe_div(m.total_flops, m.work) * measured->per_gpu, peak);
            return measured->per_gpu;
        }
        mfu = w.training.mfu ? *w.training.mfu : default_mfu(w, gpu, e.precision);
        return safe_div(peak * mfu, safe_div(m.total_flops, m.work));
    };
    const int gpn = std::max(1, node.gpus_per_node);
    NodeShape shape = node;
    shape.gpus_per_node = gpn;

    // Fewest GPUs that hold the job.
    std::optional<Layout> min_layout;
    for (int n : candidate_counts(gpn, k_max_search_gpus)) {
        if ((min_layout = fitting_layout(w, m, gpu, shape, n))) {
            e.min_gpus = n;
            break;
        }
    }
    const int cap = w.constraints.max_gpus.value_or(k_max_search_gpus);
    auto evaluate = [&](int n) {
        GpuEstimate out = e;
        out.gpu_count = n;
        out.nodes = (n + gpn - 1) / gpn;
        auto layout = fitting_layout(w, m, gpu, shape, n);
        out.fits = layout.has_value();
        if (!layout) {
            // Show the memory of the most model-parallel layout available at this count.
            auto layouts = model_parallel_layouts(n, gpn, m.shape.layers);
            layout =
                layouts.empty() ? Layout{} : Layout{layouts.back().first, layouts.back().second};
        }
        out.tensor_parallel = layout->tensor;
        out.pipeline_parallel = layout->pipeline;
        out.model_parallel = layout->model();
        out.data_parallel = std::max(1, n / layout->model());
        out.memory = training_memory(w, m, *layout, n);
        out.memory_per_gpu_gib = out.memory.total_gib();
        const double rate = rate_at(out.mfu);
        const TrainTiming timing = train_timing(w, m, gpu, shape, n, *layout, rate);
        out.wall_hours = timing.wall_seconds / k_seconds_per_hour;
        out.gpu_hours = out.wall_hours * n;
        out.scaling_efficiency = timing.scaling_efficiency;
        out.bottleneck = timing.bottleneck;
        if (w.model.family == Family::transformer) {
            out.throughput.tokens_per_second = timing.work_per_second;
            out.throughput.samples_per_second = safe_div(timing.work_per_second, m.shape.seq_len);
        } else {
            out.throughput.samples_per_second = timing.work_per_second;
        }
        out.meets_deadline =
            !w.constraints.deadline_hours || out.wall_hours <= *w.constraints.deadline_hours;
        return out;
    };

    GpuEstimate chosen;
    if (requested || w.constraints.gpu_count) {
        chosen = evaluate(requested ? *requested : *w.constraints.gpu_count);
    } else if (e.min_gpus == 0 || e.min_gpus > cap) {
        chosen = evaluate(std::min(cap, e.min_gpus == 0 ? gpn : e.min_gpus));
    } else {
        bool found = false;
        for (int n : candidate_counts(gpn, cap)) {
            if (n < e.min_gpus) {
                continue;
            }
            chosen = evaluate(n);
            if (chosen.fits && chosen.meets_deadline) {
                found = true;
                break;
            }
        }
        if (!found && w.constraints.deadline_hours) {
            chosen.notes.push_back(fmt::format("misses the {:g} h deadline even on {} GPUs",
                                               *w.constraints.deadline_hours, chosen.gpu_count));
        }
    }
    if (e.min_gpus == 0) {
        chosen.notes.push_back(
            fmt::format("does not fit in memory on up to {} GPUs", k_max_search_gpus));
    } else if (!chosen.fits) {
        chosen.notes.push_back(fmt::format("does not fit in memory on {} GPUs (needs {})",
                                           chosen.gpu_count, e.min_gpus));
    }
    if (measured && !w.training.mfu) {
        chosen.from_benchmark = true;
        chosen.notes.push_back(fmt::format(
            "time from measured benchmark '{}' ({} on {})", measured->benchmark->model,
            catalog::to_string(measured->benchmark->precision), measured->benchmark->gpu));
    }
    if (!node.network_gbps && chosen.nodes > 1) {
        chosen.notes.push_back(fmt::format("node network bandwidth unknown: assumed {:g} Gbps",
                                           k_fallback_network_gbps));
    }
    chosen.checkpoint_gb = m.checkpoint_bytes / k_bytes_per_gb;
    return chosen;
}

GpuEstimate estimate_inference(const Workload& w, const Gpu& gpu, const NodeShape& node,
                               std::optional<int> requested, const catalog::Catalog& catalog) {
    GpuEstimate e;
    e.gpu = gpu.name;
    e.node = node;
    const int gpn = std::max(1, node.gpus_per_node);
    const auto [precision, weight_bytes] = inference_precision(gpu, w.inference.precision, e.notes);
    e.precision = precision;
    const double peak = peak_flops(gpu, precision);
    const double active = active_params(w.model);
    const bool transformer = w.model.family == Family::transformer;
    const Shape shape = shape_of(w.model, transformer ? &e.notes : nullptr);
    const double batch = w.inference.batch;
    const double in_tokens = w.inference.input_tokens;
    const double out_tokens = w.inference.output_tokens;
    const double weights = w.model.params * weight_bytes;
    const double kv_bytes = precision == catalog::Precision::fp8 ? 1.0 : 2.0;
    const double kv_per_token =
        transformer ? 2.0 * shape.layers * shape.kv_heads * (shape.hidden / shape.heads) * kv_bytes
                    : 0.0;
    const double kv_full = batch * (in_tokens + out_tokens) * kv_per_token;
    const double kv_mean = batch * (in_tokens + out_tokens / 2.0) * kv_per_token;
    const auto measured =
        transformer ? std::nullopt : find_benchmark(w, gpu, precision, shape, catalog);
    const double latency_target = w.inference.latency_ms.value_or(0.0) / 1000.0;

    // KV heads are split across tensor-parallel ranks up to their number (E4.6).
    auto kv_split = [&](int m) { return std::max(1.0, std::min<double>(m, shape.kv_heads)); };
    auto memory_at = [&](int m) {
        MemoryBreakdown mem;
        mem.weights_gib = weights / m / k_bytes_per_gib;
        mem.kv_cache_gib = kv_full / kv_split(m) / k_bytes_per_gib;
        mem.overhead_gib = k_runtime_overhead_gib;
        return mem;
    };
    const double bandwidth_factor = weight_bytes <= 0.625 ? k_bandwidth_factor_int4
                                    : weight_bytes <= 1.0 ? k_bandwidth_factor_8bit
                                                          : 1.0;
    const double prefill_mfu = precision == catalog::Precision::fp8         ? k_prefill_mfu_fp8
                               : batch * in_tokens < k_prefill_short_tokens ? k_prefill_mfu_short
                                                                            : k_prefill_mfu;
    struct Serving {
        double decode = 0.0;  // output tokens/s per replica (transformer)
        double prefill = 0.0; // input tokens/s per replica (transformer)
        double latency = 0.0; // seconds per batch of requests
        bool bandwidth_bound = false;
    };
    auto serving_at = [&](int m) {
        Serving s;
        if (transformer) {
            const double eta_bw = (m <= 2   ? k_decode_bandwidth_efficiency_small
                                   : m <= 4 ? k_decode_bandwidth_efficiency_4
                                            : k_decode_bandwidth_efficiency_8) *
                                  bandwidth_factor;
            const double memory_step = (weights / m + kv_mean / kv_split(m)) /
                                       (gpu.memory_bandwidth_gb_per_s * k_bytes_per_gb * eta_bw);
            const double compute_step =
                safe_div(k_forward_flops_per_param * active * batch, m * peak * prefill_mfu);
            const double step = std::max(memory_step, compute_step);
            s.bandwidth_bound = memory_step >= compute_step;
            s.decode = safe_div(batch, step);
            const double prefill_flops = k_forward_flops_per_param * active * in_tokens +
                                         4.0 * shape.layers * shape.hidden * in_tokens * in_tokens;
            const double prefill_seconds = safe_div(batch * prefill_flops, m * peak * prefill_mfu);
            s.prefill = safe_div(batch * in_tokens, prefill_seconds);
            s.latency = prefill_seconds + out_tokens * step;
        } else {
            const double per_gpu = measured ? measured->per_gpu
                                            : safe_div(peak * k_custom_inference_mfu,
                                                       w.model.flops_per_sample.value_or(0.0));
            s.latency = safe_div(batch, per_gpu * m);
        }
        return s;
    };

    // Model-parallel replica size: the smallest that fits, then larger (inside a node) until the
    // latency target is met.
    std::vector<int> sizes = candidate_counts(gpn, k_max_search_gpus);
    int replica = 0;
    for (int m : sizes) {
        if (fits_in(memory_at(m), gpu)) {
            replica = m;
            break;
        }
    }
    e.min_gpus = replica;
    e.fits = replica > 0;
    if (replica == 0) {
        replica = gpn;
        e.notes.push_back(
            fmt::format("does not fit in memory on up to {} GPUs", k_max_search_gpus));
    } else if (latency_target > 0.0 && serving_at(replica).latency > latency_target) {
        for (int m : sizes) {
            if (m > replica && m <= gpn && serving_at(m).latency <= latency_target) {
                replica = m;
                break;
            }
        }
    }
    const Serving s = serving_at(replica);
    const double replica_rps = safe_div(batch, s.latency);
    int replicas = static_cast<int>(
        std::min(1e6, std::ceil(safe_div(w.inference.requests_per_second, replica_rps))));
    replicas = std::max(1, replicas);
    int count = replicas * replica;
    if (requested || w.constraints.gpu_count) {
        count = requested ? *requested : *w.constraints.gpu_count;
        replicas = count / replica;
        if (replicas == 0) {
            e.fits = false;
            e.notes.push_back(
                fmt::format("one replica needs {} GPUs, more than {}", replica, count));
        }
    }
    e.gpu_count = count;
    e.nodes = (count + gpn - 1) / gpn;
    e.model_parallel = replica;
    e.tensor_parallel = std::min(replica, gpn);
    e.pipeline_parallel = std::max(1, replica / gpn);
    e.data_parallel = replicas;
    e.memory = memory_at(replica);
    e.memory_per_gpu_gib = e.memory.total_gib();
    e.mfu = transformer ? prefill_mfu : (measured ? 0.0 : k_custom_inference_mfu);
    e.from_benchmark = measured.has_value();
    e.wall_hours = w.inference.hours_per_day * k_days_per_year / k_months_per_year;
    e.gpu_hours = e.wall_hours * count;
    const double capacity = replicas * replica_rps;
    e.throughput.requests_per_second_capacity = capacity;
    e.throughput.samples_per_second = capacity;
    const double served_per_request = transformer ? in_tokens + out_tokens : 1.0;
    const double flops_per_request = transformer
                                         ? k_forward_flops_per_param * active * served_per_request
                                         : w.model.flops_per_sample.value_or(0.0);
    e.total_flops =
        w.inference.requests_per_second * k_seconds_per_hour * e.wall_hours * flops_per_request;
    if (transformer) {
        e.throughput.tokens_per_second = capacity * out_tokens;
        e.throughput.decode_tokens_per_second = s.decode;
        e.throughput.prefill_tokens_per_second = s.prefill;
        e.bottleneck = s.bandwidth_bound ? Bottleneck::memory_bandwidth : Bottleneck::compute;
    }
    e.meets_deadline = latency_target <= 0.0 || s.latency <= latency_target;
    if (!e.meets_deadline) {
        e.notes.push_back(fmt::format("latency {:.0f} ms exceeds the {:g} ms target",
                                      s.latency * 1000.0, *w.inference.latency_ms));
    }
    if (measured) {
        e.notes.push_back(fmt::format(
            "throughput from measured benchmark '{}' ({} on {})", measured->benchmark->model,
            catalog::to_string(measured->benchmark->precision), measured->benchmark->gpu));
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

std::vector<GpuEstimate> estimate_all(const workload::Workload& workload,
                                      const catalog::Catalog& catalog) {
    std::vector<const catalog::Gpu*> gpus;
    if (workload.constraints.gpu_models.empty()) {
        for (const catalog::Gpu& gpu : catalog.gpus) {
            gpus.push_back(&gpu);
        }
    } else {
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
    }
    std::vector<GpuEstimate> out;
    out.reserve(gpus.size());
    for (const catalog::Gpu* gpu : gpus) {
        out.push_back(
            estimate(workload, *gpu, default_node_shape(catalog, *gpu), std::nullopt, catalog));
    }
    return out;
}

} // namespace gpuplan::estimate

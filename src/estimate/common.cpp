#include "estimate/common.hpp"

#include "estimate/constants.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <tuple>

namespace gpuplan::estimate::detail {

using catalog::Gpu;
using catalog::Precision;
using workload::Workload;

using catalog::Architecture;
using workload::Family;
using workload::Method;
using workload::Task;

double safe_div(double a, double b) {
    return b > 0.0 && std::isfinite(b) ? a / b : 0.0;
}

bool is_mixed(Precision p) {
    return p == Precision::fp16 || p == Precision::bf16 || p == Precision::fp8;
}

Shape shape_of(const workload::Model& model) {
    Shape shape;
    shape.layers = model.layers.value_or(0);
    shape.hidden = model.hidden.value_or(0);
    shape.heads = model.heads.value_or(0);
    shape.kv_heads = model.kv_heads ? *model.kv_heads : shape.heads;
    shape.seq_len = model.seq_len.value_or(0);
    shape.head_dim = model.head_dim                            ? *model.head_dim
                     : shape.heads > 0.0 && shape.hidden > 0.0 ? shape.hidden / shape.heads
                                                               : 0.0;
    return shape;
}

double active_params(const workload::Model& model) {
    return model.active_params ? *model.active_params : model.params;
}

double routed_expert_params(const workload::Model& model) {
    const double active = active_params(model);
    if (!model.experts || !model.experts_per_token || active >= model.params ||
        *model.experts <= *model.experts_per_token) {
        return 0.0;
    }
    return (model.params - active) / (*model.experts - *model.experts_per_token);
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
    case Precision::nvfp4:
    case Precision::mxfp4:
        // Without an FP4 tensor-core peak the 4-bit weights are dequantised: W4A16 (E1).
        if (!gpu.peak_tflops(wanted)) {
            resolved = Precision::fp16;
            notes.push_back(fmt::format(
                "fp4_weight_only: {} ({}) has no {} tensor-core peak; weights stay {} and are "
                "dequantised to fp16 arithmetic (W4A16), the KV cache is fp16",
                gpu.name, catalog::to_string(gpu.architecture), catalog::to_string(wanted),
                catalog::to_string(wanted)));
        }
        break;
    default:
        break;
    }
    if (resolved != wanted && wanted != Precision::int8 && wanted != Precision::int4 &&
        wanted != Precision::nvfp4 && wanted != Precision::mxfp4) {
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
    return k_train_flops_per_forward * forward;
}

bool is_inference_row(const catalog::Benchmark& b) {
    return b.metric == "inference_samples_per_second_per_gpu";
}

double spec_distance(const Gpu& gpu, const Gpu& other, Precision precision) {
    auto gap = [](double a, double b) {
        return a > 0.0 && b > 0.0 ? std::abs(std::log(a / b)) : k_unknown_spec_distance;
    };
    return gap(peak_flops(gpu, precision), peak_flops(other, precision)) +
           gap(gpu.memory_bandwidth_gb_per_s, other.memory_bandwidth_gb_per_s);
}

Efficiency efficiency(const Workload& w, const Gpu& gpu, Precision precision, double default_mfu,
                      double flops_per_token, const catalog::Catalog& catalog,
                      const std::function<double(const Gpu&, Precision)>& default_for) {
    if (w.training.mfu) {
        return {*w.training.mfu, false, "", EfficiencySource::user, 0};
    }
    if (w.model.reference.empty()) {
        return {default_mfu, false, "", EfficiencySource::table, 0};
    }
    const catalog::Benchmark* same = nullptr;
    const catalog::Benchmark* other = nullptr;
    auto other_key = [&](const catalog::Benchmark& b) {
        // Same precision first, then the GPU with the nearest specs, the latest as_of, the name.
        const Gpu& that = *catalog::find_gpu(catalog, b.gpu);
        return std::tuple(b.precision == precision ? 0 : 1, spec_distance(gpu, that, b.precision),
                          -b.as_of.days_since_epoch(), b.gpu);
    };
    for (const catalog::Benchmark& b : catalog.benchmarks) {
        if (b.model != w.model.reference || b.value <= 0.0 || is_inference_row(b)) {
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
        return {mfu,
                true,
                fmt::format("benchmark: '{}' measured {:g} {} on {} x {} ({})", same->model,
                            same->value, same->metric, same->gpu_count, same->gpu,
                            catalog::to_string(same->precision)),
                EfficiencySource::benchmark,
                same->gpu_count,
                same};
    }
    if (other != nullptr) {
        const Gpu& that = *catalog::find_gpu(catalog, other->gpu);
        const double ref =
            safe_div(flops_per_metric_unit(w, *other, flops_per_token) * other->value,
                     peak_flops(that, other->precision));
        const double base = default_for(that, other->precision);
        const double mfu = default_mfu * safe_div(ref, base);
        return {mfu,
                true,
                fmt::format("benchmark_scaled: '{}' has no {} figure on {}; default scaled by its "
                            "{} result, the nearest GPU measured ({:.3f} measured vs {:.3f} "
                            "default)",
                            w.model.reference, catalog::to_string(precision), gpu.name, other->gpu,
                            ref, base),
                EfficiencySource::benchmark_scaled,
                other->gpu_count,
                other};
    }
    return {default_mfu, false,
            fmt::format("benchmark_missing: no benchmark for '{}'; using the default efficiency",
                        w.model.reference),
            EfficiencySource::table, 0};
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

std::string does_not_fit(const MemoryBreakdown& memory, const std::string& where, const Gpu& gpu) {
    return fmt::format("does_not_fit: {:.1f} GiB per GPU {} exceeds {:.0f} % of {:g} GiB; "
                       "largest term: {}",
                       memory.total_gib(), where, k_usable_memory_fraction * 100.0, gpu.memory_gib,
                       largest_term(memory));
}

GpuEstimate start_estimate(const catalog::Gpu& gpu, const NodeShape& node,
                           catalog::Precision wanted) {
    GpuEstimate e;
    e.gpu = gpu.name;
    e.node = node;
    e.node.gpus_per_node = std::max(1, node.gpus_per_node);
    e.precision = resolve_precision(gpu, wanted, e.notes);
    return e;
}

GpuEstimate no_peak(GpuEstimate e, const Gpu& gpu) {
    e.fits = false;
    e.notes.push_back(fmt::format("no_peak_flops: the catalog has no {} peak for {}; not estimated",
                                  catalog::to_string(e.precision), gpu.name));
    return e;
}

} // namespace gpuplan::estimate::detail

#include "gpuplan/estimate/estimate.hpp"

#include "detail/strings.hpp"
#include "estimate/common.hpp"
#include "estimate/constants.hpp"
#include "estimate/training.hpp"
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
using catalog::Gpu;
using catalog::Precision;
using workload::Family;
using workload::Task;
using workload::Workload;

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
        e.notes.push_back(
            does_not_fit(e.memory, fmt::format("with {} GPUs per replica", s.tensor), gpu));
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

std::string_view to_string(DataCache value) {
    switch (value) {
    case DataCache::none:
        return "none";
    case DataCache::host_ram:
        return "host_ram";
    case DataCache::local_nvme:
        return "local_nvme";
    }
    return "none";
}

NodeShape node_shape(const catalog::Instance& instance) {
    NodeShape shape;
    shape.gpus_per_node = std::max(1, static_cast<int>(instance.gpu_count));
    shape.nvlink = instance.nvlink;
    shape.network_gbps = instance.network_gbps;
    shape.local_nvme_gb = instance.local_nvme_gb;
    if (instance.memory_gib > 0.0) {
        shape.host_memory_gib = instance.memory_gib;
    }
    shape.vcpus = instance.vcpus;
    return shape;
}

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

NodeShape default_node_shape(const catalog::Catalog& catalog, const catalog::Gpu& gpu,
                             const std::vector<std::string>& providers) {
    const catalog::Instance* best = nullptr;
    auto key = [](const catalog::Instance& i) {
        return std::tuple(i.network_gbps.has_value(), i.gpu_count, i.network_gbps.value_or(0.0),
                          i.nvlink);
    };
    for (const catalog::Provider& provider : catalog.providers) {
        if (!providers.empty() &&
            std::find(providers.begin(), providers.end(), provider.name) == providers.end()) {
            continue;
        }
        for (const catalog::Instance& instance : provider.instances) {
            if (instance.gpu != gpu.name || instance.gpu_count < 1.0 ||
                instance.gpu_count != std::floor(instance.gpu_count)) {
                continue;
            }
            if (best == nullptr || key(instance) > key(*best)) {
                best = &instance;
            }
        }
    }
    if (best == nullptr) {
        NodeShape shape;
        shape.gpus_per_node = 8;
        shape.nvlink = gpu.nvlink_gb_per_s > 0.0;
        return shape;
    }
    NodeShape shape = node_shape(*best);
    shape.nvlink = best->nvlink && gpu.nvlink_gb_per_s > 0.0;
    return shape;
}

HostFacts host_facts(const workload::Workload& workload) {
    const bool data = (workload.data.dataset_gb && *workload.data.dataset_gb > 0.0) ||
                      workload.data.decode_samples_per_second_per_vcpu;
    return data && workload.task != Task::inference ? HostFacts::matter : HostFacts::ignored;
}

const GpuEstimate& Memo::get(const catalog::Gpu& gpu, const NodeShape& node,
                             std::optional<int> gpu_count) {
    Key key{gpu.name,
            node.gpus_per_node,
            node.nvlink,
            node.network_gbps.value_or(-1.0),
            node.local_nvme_gb.value_or(-1.0),
            m_host == HostFacts::matter ? node.host_memory_gib.value_or(-1.0) : -1.0,
            m_host == HostFacts::matter ? node.vcpus : 0,
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
        out.push_back(estimator(
            *gpu, default_node_shape(catalog, *gpu, workload.constraints.providers), std::nullopt));
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

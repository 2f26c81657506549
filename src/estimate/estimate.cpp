#include "gpuplan/estimate/estimate.hpp"

#include "detail/strings.hpp"
#include "estimate/common.hpp"
#include "estimate/constants.hpp"
#include "estimate/data_pipeline.hpp"
#include "estimate/serving.hpp"
#include "estimate/training.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/workload/reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <limits>
#include <tuple>

namespace gpuplan::estimate {

namespace {

using namespace detail;
using catalog::Gpu;
using catalog::Precision;
using workload::Family;
using workload::Task;
using workload::Workload;

// Bytes per weight of the serving precision: int4 with its group scales, the FP4 block formats
// with theirs (E1), 8-bit, or 16-bit.
double weight_bytes_of(Precision wanted, Precision used) {
    return wanted == Precision::int4                             ? 0.625
           : wanted == Precision::nvfp4                          ? k_nvfp4_bytes_per_weight
           : wanted == Precision::mxfp4                          ? k_mxfp4_bytes_per_weight
           : wanted == Precision::int8 || used == Precision::fp8 ? 1.0
                                                                 : 2.0;
}

// Whether the arithmetic runs on FP4 tensor cores (activations in FP4, E1).
bool native_fp4(Precision used) {
    return used == Precision::nvfp4 || used == Precision::mxfp4;
}

// Depth and width of a transformer given without a shape: h / L = 128 (E4.2).
std::pair<double, double> depth_and_width(const Shape& shape, double params) {
    if (shape.layers > 0.0 && shape.hidden > 0.0) {
        return {shape.layers, shape.hidden};
    }
    const double layers = std::max(
        1.0, std::round(std::cbrt(params / (12.0 * k_hidden_per_layer * k_hidden_per_layer))));
    return {layers, layers * k_hidden_per_layer};
}

ServingModel serving_model(const Workload& w, const Gpu& gpu, const NodeShape& node, Precision used,
                           double peak) {
    const Shape shape = shape_of(w.model);
    const double weight_bytes = weight_bytes_of(w.inference.precision, used);
    ServingModel m;
    m.active_params = active_params(w.model);
    m.weight_bytes = w.model.params * weight_bytes;
    const double per_expert = routed_expert_params(w.model);
    if (per_expert > 0.0) {
        m.experts = *w.model.experts;
        m.experts_per_token = *w.model.experts_per_token;
        m.expert_bytes = per_expert * weight_bytes;
        m.expert_active_params = per_expert * m.experts_per_token;
    }
    // Native FP4 serving keeps an FP8 KV cache (E1).
    const double kv_bytes = used == Precision::fp8 || native_fp4(used) ? 1.0 : 2.0;
    m.kv_bytes_per_token =
        shape.kv_known() ? 2.0 * shape.layers * shape.kv_heads * shape.head_dim * kv_bytes : 0.0;
    m.kv_heads = std::max(1.0, shape.kv_heads);
    std::tie(m.layers, m.hidden) = depth_and_width(shape, w.model.params);
    m.attention_width = shape.heads > 0.0 && shape.head_dim > 0.0 && shape.hidden > 0.0
                            ? shape.attention_width()
                            : m.hidden;
    m.input_tokens = w.inference.input_tokens;
    m.output_tokens = w.inference.output_tokens;
    m.input_tokens_p90 = w.inference.input_tokens_p90.value_or(m.input_tokens);
    m.output_tokens_p90 = w.inference.output_tokens_p90.value_or(m.output_tokens);
    m.peak_flops = peak;
    m.bandwidth_bytes_per_s = gpu.memory_bandwidth_gb_per_s * k_bytes_per_gb;
    m.weight_factor = weight_bytes <= 0.625 ? k_bandwidth_factor_int4
                      : weight_bytes <= 1.0 ? k_bandwidth_factor_8bit
                                            : 1.0;
    m.fp8 = used == Precision::fp8 || native_fp4(used);
    const double link_gb_per_s =
        node.nvlink && gpu.nvlink_gb_per_s > 0.0 ? gpu.nvlink_gb_per_s : k_pcie4_gb_per_s;
    m.link_bytes_per_s = link_gb_per_s * k_bytes_per_gb * k_link_efficiency;
    m.usable_bytes =
        (k_usable_memory_fraction * gpu.memory_gib - k_framework_overhead_gib) * k_bytes_per_gib;
    m.engine_speed = k_engine_speed.at(static_cast<std::size_t>(w.inference.engine));
    return m;
}

// The tensor-parallel degrees searched: the pinned one, else 1 to a node, at most `limit` GPUs.
std::vector<int> serving_degrees(const Workload& w, int gpus_per_node, int limit) {
    std::vector<int> out;
    for (int t : k_tensor_parallel_degrees) {
        const bool pinned_ok = !w.inference.tensor_parallel || *w.inference.tensor_parallel == t;
        if (t <= gpus_per_node && t <= limit && pinned_ok) {
            out.push_back(t);
        }
    }
    if (out.empty() && w.inference.tensor_parallel && *w.inference.tensor_parallel <= limit) {
        out.push_back(*w.inference.tensor_parallel); // pinned beyond a node or off the list
    }
    return out;
}

double percentile_latency(const Fleet& f, int percentile) {
    return percentile == 90 ? f.load.time.latency_p90_ms : f.load.time.latency_p50_ms;
}

// Whether fleet `a` is the better choice: meets the targets, serves the rate, fewest GPUs
// (free count), then the lower latency; of two that cannot serve the rate on as many GPUs, the
// one that serves more.
bool better(const Fleet& a, const Fleet& b, bool fixed_count, int percentile) {
    if (a.meets != b.meets) {
        return a.meets;
    }
    if (a.load.stable != b.load.stable) {
        return a.load.stable;
    }
    if (!fixed_count && a.gpus() != b.gpus()) {
        return a.gpus() < b.gpus();
    }
    const double served_a = a.replicas * a.load.capacity;
    const double served_b = b.replicas * b.load.capacity;
    if (!a.load.stable && a.gpus() == b.gpus() && served_a != served_b) {
        return served_a > served_b;
    }
    return percentile_latency(a, percentile) < percentile_latency(b, percentile);
}

double batch_limit(const Workload& w) {
    if (w.inference.batching == workload::Batching::static_batch) {
        return w.inference.batch;
    }
    return w.inference.max_batch ? *w.inference.max_batch : k_default_max_batch;
}

struct Choice {
    std::optional<Fleet> fleet;
    int min_gpus = 0;
};

// The layouts of a replica of `t` GPUs: tensor parallelism, and for a mixture of experts whose
// routed experts divide evenly over the GPUs, the expert layout (E7.4).
std::vector<ServingModel> replica_layouts(const ServingModel& m, int t) {
    std::vector<ServingModel> out{m};
    if (m.expert_bytes > 0.0 && t > 1 && std::fmod(m.experts, static_cast<double>(t)) == 0.0) {
        out.push_back(m);
        out.back().expert_layout = true;
    }
    return out;
}

Choice choose_fleet(const Workload& w, const ServingModel& model, const std::vector<int>& degrees,
                    std::optional<int> count) {
    Choice c;
    const bool paged = w.inference.batching == workload::Batching::continuous;
    for (int t : degrees) {
        for (const ServingModel& m : replica_layouts(model, t)) {
            const double cap = max_batch(m, t, batch_limit(w), paged);
            if (cap < 1.0) {
                continue;
            }
            c.min_gpus = c.min_gpus == 0 ? t : std::min(c.min_gpus, t);
            const std::optional<Fleet> f =
                count ? std::optional<Fleet>(fixed_fleet(m, w.inference, t, cap, *count))
                      : cheapest_fleet(m, w.inference, t, cap);
            if (f &&
                (!c.fleet || better(*f, *c.fleet, count.has_value(), w.inference.percentile))) {
                c.fleet = f;
            }
        }
    }
    return c;
}

MemoryBreakdown serving_memory(const ServingModel& m, const Workload& w, int t, double batch) {
    MemoryBreakdown mem;
    mem.weights_gib = weight_bytes_held(m, t) / k_bytes_per_gib;
    const double tokens = w.inference.batching == workload::Batching::continuous
                              ? m.input_tokens + m.output_tokens / 2.0
                              : m.input_tokens + m.output_tokens;
    mem.kv_cache_gib = batch * tokens * m.kv_bytes_per_token / kv_split(m, t) / k_bytes_per_gib;
    mem.overhead_gib = k_framework_overhead_gib;
    return mem;
}

void fill_serving(GpuEstimate& e, const Workload& w, const ServingModel& model, const Fleet& f) {
    const ReplicaLoad& load = f.load;
    ServingModel m = model;
    m.expert_layout = load.expert_layout;
    e.serving = load.time;
    e.gpu_count = f.gpus();
    e.tensor_parallel = load.expert_layout ? 1 : load.tensor;
    e.expert_parallel = load.expert_layout ? load.tensor : 1;
    e.model_parallel = load.tensor;
    e.data_parallel = f.replicas;
    const double served = std::max(1.0, load.time.batch);
    e.batch = static_cast<int>(std::ceil(served - 1e-9));
    e.memory = serving_memory(m, w, load.tensor, served);
    e.mfu = compute_efficiency(m, std::max(1.0, m.input_tokens));
    const double capacity = f.replicas * load.capacity;
    e.throughput.requests_per_second_capacity = capacity;
    e.throughput.samples_per_second = capacity;
    e.throughput.tokens_per_second = capacity * m.output_tokens;
    e.throughput.decode_tokens_per_second = safe_div(served, load.step_seconds);
    e.throughput.prefill_tokens_per_second =
        safe_div(m.input_tokens * (load.time.batching == "static" ? load.time.batch : 1.0),
                 load.prefill_seconds);
    e.bottleneck = memory_bound(m, load.tensor, served, 0.0) ? Bottleneck::memory_bandwidth
                                                             : Bottleneck::compute;
    std::string missed;
    e.meets_deadline = f.meets;
    if (!load.stable) {
        e.notes.push_back(fmt::format("capacity_exceeded: {} GPUs serve at most {:.4g} requests/s; "
                                      "asked {:g}",
                                      f.gpus(), capacity, w.inference.requests_per_second));
    } else if (!meets(load.time, targets_of(w.inference), &missed)) {
        e.notes.push_back("latency_target_missed: " + missed);
    }
}

GpuEstimate estimate_transformer_serving(GpuEstimate e, const Workload& w, const Gpu& gpu,
                                         std::optional<int> requested, double peak) {
    const ServingModel m = serving_model(w, gpu, e.node, e.precision, peak);
    if (!shape_of(w.model).kv_known()) {
        e.notes.emplace_back("shape_missing: no layers, hidden or heads; KV cache left out");
    }
    if (w.inference.engine != workload::Engine::generic) {
        e.notes.push_back(fmt::format("engine: {}, prefill and decode at x{:.3g} of the fitted "
                                      "model's throughput (E7.3)",
                                      workload::to_string(w.inference.engine), m.engine_speed));
    }
    if (native_fp4(e.precision)) {
        e.notes.push_back(fmt::format(
            "fp4_placeholder: {} on FP4 tensor cores with an FP8 KV cache; its weight read and "
            "GEMM efficiency borrow the int4 and FP8 factors (no FP4 measurement)",
            catalog::to_string(e.precision)));
    }
    const std::optional<int> count = requested ? requested : w.constraints.gpu_count;
    const int limit = count ? *count : e.node.gpus_per_node;
    const std::vector<int> degrees = serving_degrees(w, e.node.gpus_per_node, limit);
    const Choice c = choose_fleet(w, m, degrees, count);
    e.min_gpus = c.min_gpus;
    if (!c.fleet) {
        const int t =
            degrees.empty() ? std::max(1, std::min(limit, e.node.gpus_per_node)) : degrees.back();
        e.fits = false;
        e.gpu_count = count ? *count : t;
        e.tensor_parallel = e.model_parallel = t;
        e.batch = 1;
        e.memory = serving_memory(m, w, t, 1.0);
        e.memory_per_gpu_gib = e.memory.total_gib();
        e.notes.push_back(does_not_fit(e.memory, fmt::format("with {} GPUs per replica", t), gpu));
        return e;
    }
    e.fits = true;
    fill_serving(e, w, m, *c.fleet);
    e.memory_per_gpu_gib = e.memory.total_gib();
    e.total_flops =
        w.inference.requests_per_second * k_seconds_per_hour * e.wall_hours *
        (k_forward_flops_per_param * m.active_params * (m.input_tokens + m.output_tokens) +
         4.0 * m.layers * m.attention_width * m.input_tokens * m.input_tokens);
    return e;
}

// The inference row of `model.reference` a cnn/custom serving estimate starts from (E7.1): the
// workload's precision first, then a batch at or below the workload's (the largest) before one
// above it (the smallest; an unstated batch counts as the largest), then this GPU, then the
// nearest specs, the latest as_of and the GPU name, so the choice is deterministic.
const catalog::Benchmark* inference_reference(const Workload& w, const Gpu& gpu,
                                              Precision precision, int batch,
                                              const catalog::Catalog& catalog) {
    auto key = [&](const catalog::Benchmark& b) {
        const Gpu& that = *catalog::find_gpu(catalog, b.gpu);
        const bool above = b.batch == 0 || b.batch > batch;
        const int batch_rank = b.batch == 0 ? std::numeric_limits<int>::max()
                               : above      ? b.batch
                                            : -b.batch;
        return std::tuple(b.precision == precision ? 0 : 1, above ? 1 : 0,
                          b.gpu == gpu.name ? 0 : 1, spec_distance(gpu, that, b.precision),
                          batch_rank, -b.as_of.days_since_epoch(), b.gpu);
    };
    const catalog::Benchmark* best = nullptr;
    for (const catalog::Benchmark& b : catalog.benchmarks) {
        const bool usable = b.model == w.model.reference && is_inference_row(b) && b.value > 0.0 &&
                            catalog::find_gpu(catalog, b.gpu) != nullptr;
        if (usable && (best == nullptr || key(b) < key(*best))) {
            best = &b;
        }
    }
    return best;
}

// Bytes per stored weight at an inference precision (E7.1).
double weight_bytes_at(Precision p) {
    switch (p) {
    case Precision::fp32:
    case Precision::tf32:
        return 4.0;
    case Precision::fp8:
    case Precision::int8:
        return 1.0;
    case Precision::int4:
        return 0.5;
    default:
        return 2.0;
    }
}

// How a reference time moves to this GPU (E7.1): the bound that limits here by the roofline of
// the sample (FLOPs per weight byte read once per batch against this GPU's ridge point, peak /
// bandwidth), then the reference time scaled by that resource's ratio.
struct ReferenceScale {
    double flops_ratio = 1.0;     // reference peak at its precision / this peak
    double bandwidth_ratio = 1.0; // reference bandwidth / this bandwidth
    double intensity = 0.0;       // FLOPs per weight byte at the batch
    double ridge = 0.0;           // this GPU's peak / bandwidth, FLOPs per byte
    bool bandwidth_limits = false;

    [[nodiscard]] double factor() const { return bandwidth_limits ? bandwidth_ratio : flops_ratio; }
};

ReferenceScale reference_scale(const Workload& w, const Gpu& gpu, Precision precision, double peak,
                               const catalog::Benchmark& ref, const Gpu& that, int batch) {
    ReferenceScale r;
    r.flops_ratio = safe_div(peak_flops(that, ref.precision), peak);
    r.bandwidth_ratio = safe_div(that.memory_bandwidth_gb_per_s, gpu.memory_bandwidth_gb_per_s);
    const double weight_bytes = w.model.params * weight_bytes_at(precision);
    r.intensity =
        safe_div(w.model.flops_per_sample.value_or(0.0) * std::max(1, batch), weight_bytes);
    r.ridge = safe_div(peak, gpu.memory_bandwidth_gb_per_s * k_bytes_per_gb);
    r.bandwidth_limits = weight_bytes > 0.0 && r.intensity < r.ridge;
    return r;
}

// Seconds per sample of a cnn/custom model at `batch` (E7.1): the measured inference time of the
// reference, moved to another GPU or precision by the bound that limits here; without one,
// F_fwd / (P x the default inference efficiency). A reference measured at a larger stated batch
// keeps its batch time (a smaller batch takes no longer), so the time per sample grows by
// ref batch / batch; an unstated batch (MLPerf Offline) is taken as is and flagged.
double seconds_per_sample(GpuEstimate& e, const Workload& w, const Gpu& gpu, double peak, int batch,
                          const catalog::Catalog& catalog) {
    const double forward = w.model.flops_per_sample.value_or(0.0);
    const double compute = safe_div(forward, peak * k_custom_inference_mfu);
    if (w.model.reference.empty()) {
        return compute;
    }
    const catalog::Benchmark* ref = inference_reference(w, gpu, e.precision, batch, catalog);
    if (ref == nullptr) {
        e.notes.push_back(fmt::format("benchmark_missing: no inference figure for '{}' (training "
                                      "figures are never used for serving); using the default "
                                      "efficiency {:g}",
                                      w.model.reference, k_custom_inference_mfu));
        return compute;
    }
    e.from_benchmark = true;
    const Gpu& that = *catalog::find_gpu(catalog, ref->gpu);
    const double measured = 1.0 / ref->value;
    const bool same = that.name == gpu.name && ref->precision == e.precision;
    const ReferenceScale scale = reference_scale(w, gpu, e.precision, peak, *ref, that, batch);
    const double moved = same ? measured : measured * scale.factor();
    e.bottleneck = scale.bandwidth_limits ? Bottleneck::memory_bandwidth : Bottleneck::compute;
    const double batch_factor =
        ref->batch > batch ? static_cast<double>(ref->batch) / std::max(1, batch) : 1.0;
    const double seconds = moved * batch_factor;
    const std::string at_batch =
        ref->batch > 0 ? fmt::format("batch {}", ref->batch) : std::string("an unstated batch");
    e.notes.push_back(fmt::format("benchmark: '{}' inference measured {:g} samples/s on {} ({}) "
                                  "at {}",
                                  ref->model, ref->value, ref->gpu,
                                  catalog::to_string(ref->precision), at_batch));
    if (!same) {
        e.notes.push_back(fmt::format(
            "reference_bound: {:.4g} s per sample on {} ({}); on {} ({}) {:.3g} FLOPs per weight "
            "byte against a ridge of {:.3g}: the {} bound limits, x{:.3g} (peak FLOPs x{:.3g}, "
            "memory bandwidth x{:.3g}): {:.4g} s",
            measured, ref->gpu, catalog::to_string(ref->precision), gpu.name,
            catalog::to_string(e.precision), scale.intensity, scale.ridge,
            scale.bandwidth_limits ? "bandwidth" : "compute", scale.factor(), scale.flops_ratio,
            scale.bandwidth_ratio, moved));
    }
    if (ref->batch == 0 || ref->batch > batch) {
        e.notes.push_back(
            ref->batch == 0
                ? fmt::format("reference_batch: measured at an unstated (throughput) batch; at "
                              "batch {} the time per sample may be longer",
                              batch)
                : fmt::format("reference_batch: measured at batch {}; a batch of {} is taken to "
                              "last as long as that batch ({:.4g} s per sample)",
                              ref->batch, batch, seconds));
    }
    return seconds;
}

// The serving times of a queue of GPUs each running up to `batch` requests at once (E7.2).
ServingTime queued_time(double batch, const FixedQueue& q) {
    return {"static",
            batch,
            batch,
            q.utilisation,
            1000.0 * q.response_p50_s,
            1000.0 * q.response_p90_s,
            0.0,
            0.0,
            1000.0 * q.response_p50_s,
            1000.0 * q.response_p90_s};
}

// The fewest GPUs whose M/D/c queue holds the latency targets at their percentile (E7.2): from
// the fewest that keep the queue stable upwards, until the targets hold or the wait is gone
// (more GPUs cannot help); the fewest stable count when the targets cannot hold.
int queued_gpus(double rate, double seconds, double batch, const Targets& targets) {
    const double offered = rate * seconds;
    const double first = std::clamp(std::floor(offered / batch) + 1.0, 1.0, 1e6);
    ErlangB erlang{offered};
    for (double g = first; g <= 1e6; g += 1.0) {
        erlang.advance_to(g * batch);
        const FixedQueue q = fixed_queue(rate, seconds, erlang);
        if (meets(queued_time(batch, q), targets, nullptr)) {
            return static_cast<int>(g);
        }
        const double response = targets.percentile == 90 ? q.response_p90_s : q.response_p50_s;
        if (response <= seconds) {
            break; // nobody waits at the percentile: more GPUs cannot meet the target
        }
    }
    return static_cast<int>(first);
}

// cnn/custom: a batch of B samples takes B x the time per sample (E7); requests queue (E7.2).
GpuEstimate estimate_custom_serving(GpuEstimate e, const Workload& w, const Gpu& gpu,
                                    std::optional<int> requested, double peak,
                                    const catalog::Catalog& catalog) {
    // An INT8 cnn/custom model runs its convolutions and GEMMs in INT8 where the GPU has an INT8
    // peak (TensorRT INT8 engines, as in MLPerf); weight-only quantisation is the transformer's.
    if (w.inference.precision == Precision::int8 && gpu.peak_tflops(Precision::int8)) {
        e.precision = Precision::int8;
        peak = peak_flops(gpu, Precision::int8);
    }
    const double forward = w.model.flops_per_sample.value_or(0.0);
    const double batch = std::max(1, w.inference.batch);
    const double per_sample = seconds_per_sample(e, w, gpu, peak, static_cast<int>(batch), catalog);
    const double seconds = batch * per_sample;
    const double capacity_per_gpu = safe_div(batch, seconds);
    const std::optional<int> count = requested ? requested : w.constraints.gpu_count;
    const double rate = w.inference.requests_per_second;
    e.gpu_count = count ? *count : queued_gpus(rate, seconds, batch, targets_of(w.inference));
    e.min_gpus = 1;
    e.data_parallel = e.gpu_count;
    e.batch = static_cast<int>(batch);
    e.memory.weights_gib = w.model.params * 2.0 / k_bytes_per_gib;
    e.memory.overhead_gib = k_framework_overhead_gib;
    e.memory_per_gpu_gib = e.memory.total_gib();
    e.fits = fits_in(e.memory, gpu);
    e.mfu = safe_div(forward, peak * per_sample);
    const double capacity = e.gpu_count * capacity_per_gpu;
    e.throughput.requests_per_second_capacity = capacity;
    e.throughput.samples_per_second = capacity;
    const FixedQueue queue = fixed_queue(rate, seconds, e.gpu_count * batch);
    e.serving = queued_time(batch, queue);
    if (queue.stable) {
        e.notes.push_back(fmt::format(
            "queueing: M/D/c, {} GPU(s) x batch {:g} at {:.1f} % utilisation; {:.1f} % of "
            "requests wait; P50 {:.4g} ms, P90 {:.4g} ms against {:.4g} ms of service",
            e.gpu_count, batch, 100.0 * queue.utilisation, 100.0 * queue.wait_probability,
            1000.0 * queue.response_p50_s, 1000.0 * queue.response_p90_s, 1000.0 * seconds));
    }
    std::string missed;
    e.meets_deadline = meets(e.serving, targets_of(w.inference), &missed);
    if (!e.meets_deadline) {
        e.notes.push_back("latency_target_missed: " + missed + " on " + gpu.name);
    }
    if (!queue.stable) {
        e.meets_deadline = false;
        e.notes.push_back(fmt::format("capacity_exceeded: {} GPUs serve at most {:.4g} "
                                      "requests/s; asked {:g}",
                                      e.gpu_count, capacity, w.inference.requests_per_second));
    }
    e.total_flops = w.inference.requests_per_second * k_seconds_per_hour * e.wall_hours * forward;
    return e;
}

GpuEstimate estimate_inference(const Workload& w, const Gpu& gpu, const NodeShape& node,
                               std::optional<int> requested, const catalog::Catalog& catalog) {
    GpuEstimate e = start_estimate(gpu, node, w.inference.precision);
    const double peak = peak_flops(gpu, e.precision);
    if (peak <= 0.0) {
        return no_peak(e, gpu);
    }
    e.wall_hours = w.inference.hours_per_day * k_days_per_year / k_months_per_year;
    e = w.model.family == Family::transformer
            ? estimate_transformer_serving(std::move(e), w, gpu, requested, peak)
            : estimate_custom_serving(std::move(e), w, gpu, requested, peak, catalog);
    e.nodes = (e.gpu_count + e.node.gpus_per_node - 1) / e.node.gpus_per_node;
    e.gpu_hours = e.wall_hours * e.gpu_count;
    if (e.gpu_count > w.constraints.max_gpus.value_or(workload::k_default_max_gpus)) {
        e.notes.push_back(fmt::format("max_gpus_exceeded: {} GPUs needed for {:g} requests/s",
                                      e.gpu_count, w.inference.requests_per_second));
    }
    return e;
}

// The workload's calibration factor for `gpu` at the workload's task and precision.
const workload::SpeedFactor* calibration_factor(const Workload& w, const Gpu& gpu) {
    if (w.calibration.factors.empty()) {
        return nullptr;
    }
    const Precision precision =
        w.task == Task::inference ? w.inference.precision : w.training.precision;
    return workload::find_speed_factor(w.calibration, gpu.name, workload::to_string(w.task),
                                       catalog::to_string(precision));
}

std::string calibration_note(const workload::SpeedFactor& f, const std::string& file) {
    std::string from_runs = fmt::format("{} run{}", f.runs, f.runs == 1 ? "" : "s");
    if (f.carried_runs > 0) {
        from_runs += fmt::format(" and {} carried over from {}", f.carried_runs, f.from);
    }
    return fmt::format("calibration: speed x{:.3f} for {} {}{}{} from {} ({})", f.factor, f.gpu,
                       f.kind, f.engine.empty() ? "" : " " + f.engine,
                       f.precision.empty() ? "" : " " + f.precision, from_runs,
                       file.empty() ? "calibration" : file);
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
    if (workload.task == Task::inference && workload.inference.tensor_parallel &&
        workload.constraints.gpu_count &&
        *workload.inference.tensor_parallel > *workload.constraints.gpu_count) {
        throw UsageError(fmt::format("inference.tensor_parallel {} needs {} GPUs per replica; "
                                     "constraints.gpu_count is {}",
                                     *workload.inference.tensor_parallel,
                                     *workload.inference.tensor_parallel,
                                     *workload.constraints.gpu_count));
    }
    if (gpu.memory_gib <= 0.0 || gpu.memory_bandwidth_gb_per_s <= 0.0) {
        throw UsageError(fmt::format("GPU {} has no memory or bandwidth figure", gpu.name));
    }
    // A calibration factor scales the GPU's peaks and bandwidth, so the model's own terms (count,
    // replicas, latency) follow from the measured speed (docs/methodology.md, "Calibration").
    const workload::SpeedFactor* factor = calibration_factor(workload, gpu);
    const catalog::Gpu used = factor != nullptr ? workload::scaled_gpu(gpu, factor->factor) : gpu;
    GpuEstimate result = workload.task == Task::inference
                             ? estimate_inference(workload, used, node, gpu_count, catalog)
                             : estimate_training(workload, used, node, gpu_count, catalog);
    if (factor != nullptr) {
        result.calibration = *factor;
        result.notes.push_back(calibration_note(*factor, workload.calibration.file));
    }
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
                             const std::vector<std::string>& providers, NodePreference prefer) {
    const catalog::Instance* best = nullptr;
    // Training: the best fabric sold for the GPU first (a multi-node job's speed hangs on it,
    // E5.3), then the most GPUs per node; serving: the most GPUs per node first.
    auto key = [prefer](const catalog::Instance& i) {
        const double network = i.network_gbps.value_or(0.0);
        const bool fabric = prefer == NodePreference::fabric;
        return std::tuple(i.network_gbps.has_value(), fabric ? network : i.gpu_count,
                          fabric ? i.gpu_count : network, i.nvlink);
    };
    for (const catalog::Provider& provider : catalog.providers) {
        if (!providers.empty() &&
            std::find(providers.begin(), providers.end(), provider.name) == providers.end()) {
            continue;
        }
        for (const catalog::Instance& instance : provider.instances) {
            if (instance.gpu != gpu.name || catalog::is_slice(instance) ||
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

HostClass host_class(const workload::Workload& workload, const NodeShape& node) {
    HostClass out;
    if (workload.task == Task::inference) {
        return out; // serving reads no dataset and offloads nothing
    }
    if (workload.data.dataset_gb && *workload.data.dataset_gb > 0.0) {
        out.cache = detail::cache_for(*workload.data.dataset_gb, node);
    }
    if (workload.data.decode_samples_per_second_per_vcpu) {
        out.decode_vcpus = node.vcpus;
    }
    if (workload.training.offload == workload::Offload::optimizer && node.host_memory_gib) {
        out.offload_ram_gib = *node.host_memory_gib;
    }
    return out;
}

const GpuEstimate& Memo::get(const catalog::Gpu& gpu, const NodeShape& node,
                             std::optional<int> gpu_count) {
    const HostClass host = host_class(*m_workload, node);
    Key key{gpu.name,
            node.gpus_per_node,
            node.nvlink,
            node.network_gbps.value_or(-1.0),
            static_cast<int>(host.cache),
            host.decode_vcpus,
            host.offload_ram_gib,
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

NodeShape default_node_shape(const catalog::Catalog& catalog, const catalog::Gpu& gpu,
                             const workload::Workload& workload) {
    const NodePreference prefer =
        workload.task == Task::inference ? NodePreference::largest : NodePreference::fabric;
    return default_node_shape(catalog, gpu, workload.constraints.providers, prefer);
}

std::vector<GpuEstimate> estimate_all(const workload::Workload& workload,
                                      const catalog::Catalog& catalog, const Estimator& estimator) {
    const std::vector<const catalog::Gpu*> gpus = selected_gpus(workload, catalog);
    std::vector<GpuEstimate> out;
    out.reserve(gpus.size());
    for (const catalog::Gpu* gpu : gpus) {
        out.push_back(estimator(*gpu, default_node_shape(catalog, *gpu, workload), std::nullopt));
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

#include "estimate/serving.hpp"

#include "estimate/common.hpp"
#include "estimate/constants.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace gpuplan::estimate::detail {

namespace {

using workload::Batching;

constexpr double k_bytes_per_activation = 2.0;
constexpr int k_fixed_point_rounds = 60;
constexpr int k_max_doublings = 20;

// Two all-reduces per layer of `tokens` activations across `t` GPUs; under the expert layout an
// all-to-all dispatch and combine per layer instead (E7.4).
double collective_seconds(const ServingModel& m, int t, double tokens) {
    if (t <= 1) {
        return 0.0;
    }
    const double alpha = k_allreduce_alpha_per_doubling_s * std::log2(t) + k_collective_sync_s;
    const double message = tokens * m.hidden * k_bytes_per_activation;
    if (m.expert_layout) {
        // Each GPU sends its tokens' k copies, less those for its own experts, and takes back
        // as many results.
        const double sent = message / t * m.experts_per_token * (t - 1) / t;
        return k_moe_all_to_alls_per_layer * m.layers *
               (alpha + safe_div(sent, m.link_bytes_per_s));
    }
    const double wire = safe_div(2.0 * (t - 1) / t * message, m.link_bytes_per_s);
    return k_tp_allreduces_per_layer * m.layers * (alpha + wire);
}

// Seconds of the arithmetic of `tokens` tokens of which `attention_tokens` are prompt tokens
// attending to their prompt, at `efficiency` of the peak; a mixture of experts runs its routed
// experts' GEMMs at the efficiency of the tokens each touched expert receives (E7.3).
double forward_seconds(const ServingModel& m, int t, double tokens, double attention_tokens,
                       double efficiency) {
    const double flops =
        k_forward_flops_per_param * (m.active_params - m.expert_active_params) * tokens +
        4.0 * m.layers * m.attention_width * m.input_tokens * attention_tokens;
    const double dense = safe_div(flops, t * m.peak_flops * efficiency);
    if (m.expert_active_params <= 0.0) {
        return dense;
    }
    const double per_expert = safe_div(tokens * m.experts_per_token, experts_touched(m, tokens));
    const double expert_efficiency = std::min(efficiency, compute_efficiency(m, per_expert));
    return dense + safe_div(k_forward_flops_per_param * m.expert_active_params * tokens,
                            t * m.peak_flops * expert_efficiency);
}

// The efficiency of a decode step's arithmetic: the derating of small passes is the weight
// read, the first term of the step, so the step's GEMMs count at the large-pass efficiency.
double decode_efficiency(const ServingModel& m) {
    return m.fp8 ? k_prefill_mfu_max * k_prefill_fp8_factor : k_prefill_mfu_max;
}

double weights_seconds(const ServingModel& m, int t, double tokens) {
    return safe_div(weight_bytes_read(m, t, tokens),
                    m.bandwidth_bytes_per_s * k_decode_bandwidth_efficiency * m.weight_factor);
}

// Mean cached tokens of a request in flight: its prompt and half its output.
double tokens_in_flight(const ServingModel& m) {
    return m.input_tokens + m.output_tokens / 2.0;
}

struct Steady {
    double batch = 0.0;
    double step = 0.0;
    double prefill_tokens = 0.0; // prompt tokens per step
};

// Little's law at `rate`: batch = rate x (prefill + output x step), iterated to its fixed point.
Steady steady_state(const ServingModel& m, int t, double rate, double prefill) {
    Steady s;
    s.step = step_seconds(m, t, 1.0, 0.0, tokens_in_flight(m));
    for (int round = 0; round < k_fixed_point_rounds; ++round) {
        const double batch = rate * (prefill + m.output_tokens * s.step);
        s.prefill_tokens = rate * m.input_tokens * s.step;
        const double served = std::max(batch, 1.0);
        const double step =
            step_seconds(m, t, served, s.prefill_tokens, served * tokens_in_flight(m));
        const bool settled = std::abs(batch - s.batch) <= 1e-9 * std::max(1.0, batch);
        s.batch = batch;
        s.step = step;
        if (settled) {
            break;
        }
    }
    return s;
}

// Requests/s of a continuous replica holding `cap` requests.
double continuous_capacity(const ServingModel& m, int t, double cap, double prefill) {
    double step = step_seconds(m, t, cap, 0.0, cap * tokens_in_flight(m));
    for (int round = 0; round < 8; ++round) {
        const double rate = safe_div(cap, prefill + m.output_tokens * step);
        step = step_seconds(m, t, cap, rate * m.input_tokens * step, cap * tokens_in_flight(m));
    }
    return safe_div(cap, prefill + m.output_tokens * step);
}

ReplicaLoad continuous_load(const ServingModel& m, int t, double rate, double cap) {
    ReplicaLoad r;
    r.tensor = t;
    r.prefill_seconds = prefill_seconds(m, t, m.input_tokens);
    r.capacity = continuous_capacity(m, t, cap, r.prefill_seconds);
    r.stable = rate <= r.capacity * (1.0 + 1e-9);
    const Steady s = steady_state(m, t, std::min(rate, r.capacity), r.prefill_seconds);
    const double batch = std::min(s.batch, cap);
    const double batch90 = std::min(cap, batch + k_z90 * std::sqrt(batch));
    const double step90 = step_seconds(m, t, std::max(batch90, 1.0), s.prefill_tokens,
                                       std::max(batch90, 1.0) * tokens_in_flight(m));
    const double busy = std::min(1.0, batch);
    r.step_seconds = s.step;
    ServingTime& time = r.time;
    time.batching = "continuous";
    time.batch = batch;
    time.max_batch = cap;
    time.utilisation = safe_div(rate, r.capacity);
    time.ttft_p50_ms = 1000.0 * (r.prefill_seconds + busy * 0.5 * s.step);
    time.ttft_p90_ms = 1000.0 * (r.prefill_seconds + busy * step90);
    time.tpot_p50_ms = 1000.0 * s.step;
    time.tpot_p90_ms = 1000.0 * step90;
    return r;
}

ReplicaLoad static_load(const ServingModel& m, int t, double rate, double batch) {
    ReplicaLoad r;
    r.tensor = t;
    r.prefill_seconds = prefill_seconds(m, t, batch * m.input_tokens);
    r.step_seconds =
        step_seconds(m, t, batch, 0.0, batch * (m.input_tokens + m.output_tokens / 2.0));
    const double batch_seconds = r.prefill_seconds + m.output_tokens * r.step_seconds;
    r.capacity = safe_div(batch, batch_seconds);
    r.stable = rate <= r.capacity * (1.0 + 1e-9);
    const double utilisation = std::min(1.0, safe_div(rate, r.capacity));
    ServingTime& time = r.time;
    time.batching = "static";
    time.batch = batch;
    time.max_batch = batch;
    time.utilisation = safe_div(rate, r.capacity);
    // A request waits for the batch in progress: half of one at P50, 90 % of one at P90.
    time.ttft_p50_ms = 1000.0 * (r.prefill_seconds + utilisation * 0.5 * batch_seconds);
    time.ttft_p90_ms = 1000.0 * (r.prefill_seconds + utilisation * 0.9 * batch_seconds);
    time.tpot_p50_ms = 1000.0 * r.step_seconds;
    time.tpot_p90_ms = time.tpot_p50_ms;
    return r;
}

bool over(std::optional<double> target_s, double value_ms) {
    return target_s && value_ms > *target_s * 1000.0 * (1.0 + 1e-9);
}

// The fleet of `replicas` replicas of `t` GPUs.
Fleet fleet_of(const ServingModel& m, const workload::Inference& inference, int t, double cap,
               int replicas) {
    Fleet f;
    f.replicas = std::max(1, replicas);
    f.load =
        replica_load(m, inference.batching, t, inference.requests_per_second / f.replicas, cap);
    f.meets = f.load.stable && meets(f.load.time, targets_of(inference), nullptr);
    return f;
}

} // namespace

double experts_touched(const ServingModel& m, double tokens) {
    if (m.expert_bytes <= 0.0) {
        return 0.0;
    }
    const double untouched = std::pow(1.0 - m.experts_per_token / m.experts, std::max(1.0, tokens));
    return m.experts * (1.0 - untouched);
}

double weight_bytes_read(const ServingModel& m, int t, double tokens) {
    if (m.expert_bytes <= 0.0) {
        return m.weight_bytes / t;
    }
    const double dense = m.weight_bytes - m.experts * m.expert_bytes;
    const double experts = experts_touched(m, tokens) * m.expert_bytes;
    return m.expert_layout ? dense + experts / t : (dense + experts) / t;
}

double weight_bytes_held(const ServingModel& m, int t) {
    if (!m.expert_layout) {
        return m.weight_bytes / t;
    }
    const double experts = m.experts * m.expert_bytes;
    return m.weight_bytes - experts + experts / t;
}

double kv_split(const ServingModel& m, int t) {
    return m.expert_layout ? static_cast<double>(t)
                           : std::max(1.0, std::min<double>(t, m.kv_heads));
}

double compute_efficiency(const ServingModel& m, double tokens) {
    const double eta = k_prefill_mfu_max * tokens / (tokens + k_prefill_half_tokens);
    return m.fp8 ? eta * k_prefill_fp8_factor : eta;
}

bool memory_bound(const ServingModel& m, int t, double batch, double prefill_tokens) {
    const double kv = safe_div(batch * tokens_in_flight(m) * m.kv_bytes_per_token / kv_split(m, t),
                               m.bandwidth_bytes_per_s * k_decode_bandwidth_efficiency);
    return weights_seconds(m, t, batch + prefill_tokens) + kv >=
           forward_seconds(m, t, batch + prefill_tokens, prefill_tokens, decode_efficiency(m));
}

Targets targets_of(const workload::Inference& inference) {
    auto seconds = [](std::optional<double> ms) -> std::optional<double> {
        return ms ? std::optional<double>(*ms / 1000.0) : std::nullopt;
    };
    return {seconds(inference.ttft_ms), seconds(inference.tpot_ms), seconds(inference.latency_ms),
            inference.percentile};
}

double prefill_seconds(const ServingModel& m, int t, double tokens) {
    if (tokens <= 0.0) {
        return 0.0;
    }
    return (std::max(forward_seconds(m, t, tokens, tokens, compute_efficiency(m, tokens)),
                     weights_seconds(m, t, tokens)) +
            m.layers * k_prefill_layer_overhead_s + collective_seconds(m, t, tokens)) /
           m.engine_speed;
}

double step_seconds(const ServingModel& m, int t, double batch, double prefill_tokens,
                    double kv_tokens) {
    const double tokens = batch + prefill_tokens;
    const double gemm =
        std::max(weights_seconds(m, t, tokens),
                 forward_seconds(m, t, tokens, prefill_tokens, decode_efficiency(m)));
    // Attention reads the KV cache in kernels of its own, after the weight-bound GEMMs.
    const double kv = safe_div(kv_tokens * m.kv_bytes_per_token / kv_split(m, t),
                               m.bandwidth_bytes_per_s * k_decode_bandwidth_efficiency);
    return (gemm + kv + collective_seconds(m, t, tokens)) / m.engine_speed;
}

double max_batch(const ServingModel& m, int t, double limit, bool paged) {
    const double free = m.usable_bytes - weight_bytes_held(m, t);
    if (free <= 0.0) {
        return 0.0;
    }
    const double per_request = (paged ? tokens_in_flight(m) : m.input_tokens + m.output_tokens) *
                               m.kv_bytes_per_token / kv_split(m, t);
    const double held = per_request > 0.0 ? std::floor(free / per_request) : limit;
    return std::min(limit, held);
}

ReplicaLoad replica_load(const ServingModel& m, Batching batching, int t, double rate, double cap) {
    ReplicaLoad r = batching == Batching::continuous ? continuous_load(m, t, rate, cap)
                                                     : static_load(m, t, rate, cap);
    r.expert_layout = m.expert_layout;
    ServingTime& time = r.time;
    const double decode = std::max(0.0, m.output_tokens - 1.0);
    time.latency_p50_ms = time.ttft_p50_ms + decode * time.tpot_p50_ms;
    // The P90 request: the P90 wait and step with the P90 lengths, a longer prompt adding its
    // extra prefill (to the batch's prompts under static batching).
    const double prompts =
        batching == Batching::static_batch ? time.batch * m.input_tokens : m.input_tokens;
    const double longer = std::max(0.0, m.input_tokens_p90 - m.input_tokens);
    if (longer > 0.0) {
        time.ttft_p90_ms +=
            1000.0 * (prefill_seconds(m, t, prompts + longer) - prefill_seconds(m, t, prompts));
    }
    const double decode90 = std::max(decode, m.output_tokens_p90 - 1.0);
    time.latency_p90_ms = time.ttft_p90_ms + decode90 * time.tpot_p90_ms;
    return r;
}

bool meets(const ServingTime& time, const Targets& targets, std::string* missed) {
    const bool p90 = targets.percentile == 90;
    const double ttft = p90 ? time.ttft_p90_ms : time.ttft_p50_ms;
    const double tpot = p90 ? time.tpot_p90_ms : time.tpot_p50_ms;
    const double latency = p90 ? time.latency_p90_ms : time.latency_p50_ms;
    std::vector<std::string> misses;
    auto check = [&](std::optional<double> target, double value, std::string_view name) {
        if (over(target, value)) {
            misses.push_back(fmt::format("{} P{} {:.4g} ms, target {:.4g} ms", name,
                                         targets.percentile, value, *target * 1000.0));
        }
    };
    check(targets.ttft_s, ttft, "time to first token");
    check(targets.tpot_s, tpot, "time per output token");
    check(targets.latency_s, latency, "request latency");
    if (missed != nullptr && !misses.empty()) {
        *missed = fmt::format("{}", fmt::join(misses, "; "));
    }
    return misses.empty();
}

std::optional<Fleet> cheapest_fleet(const ServingModel& m, const workload::Inference& inference,
                                    int t, double cap) {
    if (cap < 1.0) {
        return std::nullopt;
    }
    const ReplicaLoad idle = replica_load(m, inference.batching, t, 0.0, cap);
    const double needed = std::ceil(safe_div(inference.requests_per_second, idle.capacity));
    int low = static_cast<int>(std::clamp(needed, 1.0, 1e6));
    Fleet f = fleet_of(m, inference, t, cap, low);
    if (f.meets) {
        return f;
    }
    // More replicas lower the batch each holds; find the fewest that meet the targets.
    int high = low;
    Fleet found = f;
    for (int i = 0; i < k_max_doublings && !found.meets && found.load.time.batch > 1e-3; ++i) {
        low = high;
        high = std::min(high * 2, 1'000'000);
        found = fleet_of(m, inference, t, cap, high);
    }
    if (!found.meets) {
        return f; // no count meets the targets: the fleet that serves the rate
    }
    while (high - low > 1) {
        const int mid = low + (high - low) / 2;
        Fleet trial = fleet_of(m, inference, t, cap, mid);
        if (trial.meets) {
            high = mid;
            found = trial;
        } else {
            low = mid;
        }
    }
    return found;
}

Fleet fixed_fleet(const ServingModel& m, const workload::Inference& inference, int t, double cap,
                  int gpus) {
    return fleet_of(m, inference, t, cap, gpus / t);
}

void ErlangB::advance_to(double servers) {
    for (; k < std::floor(servers); k += 1.0) {
        b = offered * b / (k + 1.0 + offered * b);
    }
}

double erlang_c(double servers, double offered) {
    if (offered <= 0.0) {
        return 0.0;
    }
    if (offered >= std::floor(servers)) {
        return 1.0;
    }
    ErlangB e{offered};
    e.advance_to(servers);
    return erlang_c_of(e);
}

double erlang_c_of(const ErlangB& e) {
    if (e.offered <= 0.0) {
        return 0.0;
    }
    if (e.offered >= e.k) {
        return 1.0;
    }
    const double rho = e.offered / e.k;
    return e.b / (1.0 - rho * (1.0 - e.b));
}

namespace {

// The wait that only a share `1 - p` of requests exceeds: P(W > t) = C exp(-(c mu - lambda) t /
// k), k = (1 + cs^2) / 2, so t = k ln(C / (1 - p)) / (c mu - lambda), zero when C <= 1 - p.
double wait_at(double probability, double wait_probability, double drain_per_s) {
    const double tail = 1.0 - probability;
    if (wait_probability <= tail || drain_per_s <= 0.0) {
        return 0.0;
    }
    return k_deterministic_wait_factor * std::log(wait_probability / tail) / drain_per_s;
}

} // namespace

FixedQueue fixed_queue(double rate, double service_s, const ErlangB& servers) {
    FixedQueue q;
    const double c = std::max(1.0, servers.k);
    const double offered = rate * service_s;
    q.utilisation = safe_div(offered, c);
    q.stable = offered < c * (1.0 - 1e-12);
    if (!q.stable) {
        q.wait_probability = 1.0;
        q.response_p50_s = q.response_p90_s = service_s; // no finite percentile: see `stable`
        return q;
    }
    q.wait_probability = erlang_c_of(servers);
    const double drain = c / service_s - rate;
    q.response_p50_s = service_s + wait_at(k_median, q.wait_probability, drain);
    q.response_p90_s = service_s + wait_at(k_p90, q.wait_probability, drain);
    return q;
}

FixedQueue fixed_queue(double rate, double service_s, double servers) {
    ErlangB e{rate * service_s};
    e.advance_to(std::max(1.0, servers));
    return fixed_queue(rate, service_s, e);
}

} // namespace gpuplan::estimate::detail

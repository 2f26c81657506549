#pragma once
// The transformer serving model (docs/methodology.md E7): prefill, the decode step with its
// tensor-parallel collectives, continuous and static batching, and the fleet search.

#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/workload/workload.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::estimate::detail {

// What the serving model knows about one model on one GPU type.
struct ServingModel {
    double active_params = 0.0;
    double weight_bytes = 0.0; // all weights of one replica
    // MoE (E7.3): bytes of one routed expert over all MoE layers, routed experts per layer (E)
    // and per token (k); 0 for a dense model.
    double expert_bytes = 0.0;
    double experts = 0.0;
    double experts_per_token = 0.0;
    double expert_active_params = 0.0; // k x P_e: the routed share of active_params
    // MoE (E7.4): the replica's GPUs hold the routed experts by expert parallelism and run
    // attention data-parallel, with an all-to-all dispatch and combine per layer; false: tensor
    // parallelism only.
    bool expert_layout = false;
    double kv_bytes_per_token = 0.0; // all layers, before the tensor-parallel split
    double kv_heads = 1.0;
    double layers = 0.0;
    double hidden = 0.0;
    double attention_width = 0.0; // heads x head_dim (hidden unless head_dim differs)
    double input_tokens = 0.0;
    double output_tokens = 0.0;
    double input_tokens_p90 = 0.0; // 90th-percentile lengths, at least the means
    double output_tokens_p90 = 0.0;
    double peak_flops = 0.0;
    double bandwidth_bytes_per_s = 0.0;
    double weight_factor = 1.0; // bandwidth factor of quantised weights
    bool fp8 = false;           // FP8 or FP4 arithmetic against its own peak (k_prefill_fp8_factor)
    double link_bytes_per_s = 0.0; // between the GPUs of a replica
    double usable_bytes = 0.0;     // usable share of a GPU's memory minus the framework overhead
    double engine_speed = 1.0;     // the engine's throughput against the fitted model (E7.3)
};

// The serving targets of a workload, in seconds, at one percentile (50 or 90).
struct Targets {
    std::optional<double> ttft_s;
    std::optional<double> tpot_s;
    std::optional<double> latency_s;
    int percentile = 50;
};

[[nodiscard]] Targets targets_of(const workload::Inference& inference);

// Seconds of one prefill of `tokens` tokens on `t` GPUs: max(compute, one read of the weights)
// plus the launch overhead of every layer and the tensor-parallel collectives.
[[nodiscard]] double prefill_seconds(const ServingModel& m, int t, double tokens);

// Seconds of one decode step of `batch` sequences holding `kv_tokens` cached tokens, with
// `prefill_tokens` prompt tokens batched into the same step.
[[nodiscard]] double step_seconds(const ServingModel& m, int t, double batch, double prefill_tokens,
                                  double kv_tokens);

// Share of the peak a forward pass of `tokens` tokens reaches (E7).
[[nodiscard]] double compute_efficiency(const ServingModel& m, double tokens);

// MoE (E7.3): expected routed experts of one layer that `tokens` tokens touch under uniform
// top-k routing, E (1 - (1 - k/E)^tokens); 0 for a dense model.
[[nodiscard]] double experts_touched(const ServingModel& m, double tokens);

// Bytes of weights one forward pass of `tokens` tokens reads on each of `t` GPUs: the dense
// weights and the routed experts it touches (E7.3); all weights for a dense model.
[[nodiscard]] double weight_bytes_read(const ServingModel& m, int t, double tokens);

// Bytes of weights each of `t` GPUs of a replica holds: a share of every weight, or under the
// expert layout the dense weights whole and a share of the experts (E7.4).
[[nodiscard]] double weight_bytes_held(const ServingModel& m, int t);

// The GPUs the KV cache is split over: min(t, kv_heads), or all t under the expert layout,
// whose data-parallel attention gives each GPU its own requests (E7.4).
[[nodiscard]] double kv_split(const ServingModel& m, int t);

// Whether reading weights and KV cache takes longer than the arithmetic of a decode step.
[[nodiscard]] bool memory_bound(const ServingModel& m, int t, double batch, double prefill_tokens);

// The most requests a replica of `t` GPUs holds: the paged KV cache at the mean tokens in
// flight, capped by `limit`; 0 when the weights do not fit.
[[nodiscard]] double max_batch(const ServingModel& m, int t, double limit, bool paged);

// One replica of `tensor` GPUs at a per-replica arrival rate.
struct ReplicaLoad {
    int tensor = 1;               // GPUs of the replica
    bool expert_layout = false;   // MoE: experts over the replica's GPUs (E7.4)
    bool stable = true;           // the rate is within the replica's capacity
    double capacity = 0.0;        // requests/s the replica serves at most
    double step_seconds = 0.0;    // decode step at the mean batch
    double prefill_seconds = 0.0; // one request's prompt alone
    ServingTime time;
};

// The replica's state at `rate` requests/s: continuous batching (batch = rate x latency, Little's
// law) or static batches of `batch` requests.
[[nodiscard]] ReplicaLoad replica_load(const ServingModel& m, workload::Batching batching, int t,
                                       double rate, double cap);

// Whether the replica meets every target; `missed` receives a sentence otherwise.
[[nodiscard]] bool meets(const ServingTime& time, const Targets& targets, std::string* missed);

// A fleet of identical replicas.
struct Fleet {
    int replicas = 1;
    ReplicaLoad load;
    bool meets = false;

    [[nodiscard]] int gpus() const { return replicas * load.tensor; }
};

// The fleet of fewest GPUs at tensor degree `t` that serves `rps` and meets the targets, or
// the fastest fleet of that degree (meets = false); nullopt when the weights do not fit.
[[nodiscard]] std::optional<Fleet>
cheapest_fleet(const ServingModel& m, const workload::Inference& inference, int t, double cap);

// `gpus` GPUs as replicas of `t` GPUs serving `rps`.
[[nodiscard]] Fleet fixed_fleet(const ServingModel& m, const workload::Inference& inference, int t,
                                double cap, int gpus);

// Fixed-cost requests (cnn/custom serving) queued at a fleet (docs/methodology.md E7.2): Poisson
// arrivals at `rate` requests/s to `servers` servers of deterministic `service_s` seconds, M/D/c.
struct FixedQueue {
    bool stable = false;           // rate < servers / service_s
    double utilisation = 0.0;      // rate x service_s / servers
    double wait_probability = 0.0; // Erlang C: the share of requests that queue at all
    double response_p50_s = 0.0;   // wait + service at the median (the service alone if unstable)
    double response_p90_s = 0.0;   // wait + service at the 90th percentile
};

// Erlang B of `offered` Erlangs at `k` servers, advanced one server at a time by the stable
// recurrence B(k) = a B(k-1) / (k + a B(k-1)), so a search over growing fleets costs O(servers).
struct ErlangB {
    double offered = 0.0;
    double k = 0.0;
    double b = 1.0;

    void advance_to(double servers);
};

// The Erlang C probability of waiting with `servers` servers and `offered` = rate x service
// Erlangs; 1 when offered >= servers.
[[nodiscard]] double erlang_c(double servers, double offered);
[[nodiscard]] double erlang_c_of(const ErlangB& e);

// The M/D/c queue of `servers` servers of `service_s` seconds at `rate` requests/s: the M/M/c
// waiting-time tail scaled by (1 + cs^2) / 2 = 1/2 for a deterministic service (Allen-Cunneen).
[[nodiscard]] FixedQueue fixed_queue(double rate, double service_s, double servers);
[[nodiscard]] FixedQueue fixed_queue(double rate, double service_s, const ErlangB& servers);

} // namespace gpuplan::estimate::detail

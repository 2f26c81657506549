#pragma once
// Serving to a traffic curve (docs/methodology.md, "Serving to a traffic curve"): the replicas a
// service needs in each hour of a typical week, and the purchase of lowest NPV that meets its
// latency targets in every hour: a committed base per GPU type with on-demand or spot burst on
// top, chosen by one mixed-integer program (GLPK). Pure: everything comes from a Recommendation.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/purchase.hpp"
#include "gpuplan/recommend/recommend.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuplan::curve {

// Seconds over which the Poisson arrivals of an hour are counted when the hour is sized: a
// minute's burst above the hour's mean rate at the targets' percentile.
inline constexpr double k_burst_window_s = 60.0;
// Host-to-GPU copy of the weights at a cold start, GB/s: PCIe 4.0 x16 at about 80 % of its
// 32 GB/s (docs/methodology.md, "Serving to a traffic curve").
inline constexpr double k_host_to_gpu_gbps = 25.0 * 8.0;
// Node-to-object-store bandwidth when the offer states no network speed, Gbps.
inline constexpr double k_fallback_download_gbps = 10.0;

// One line of the purchase: a committed base or the burst bought by the hour.
struct Purchase {
    std::string id; // the priced option it is taken from (provider/region/instance/purchase)
    std::string gpu;
    PurchaseOption purchase = PurchaseOption::on_demand;
    int gpus_per_replica = 1;
    int replicas = 0;           // base: replicas held in every hour; burst: the most in one hour
    double replica_hours = 0.0; // per typical week
    double npv = 0.0;           // over the horizon

    bool operator==(const Purchase&) const = default;
};

// One hour of the typical week (Monday 00:00 is hour 0), in replicas.
struct Hour {
    int hour = 0;
    double requests_per_second = 0.0; // the hour's mean rate, first year
    double sized_rate = 0.0;          // with the minute's burst and the headroom
    int needed = 0;                   // replicas of the plan's main GPU type
    int committed = 0;
    int burst = 0;
    int idle = 0; // committed replicas the hour does not need
    bool met = true;

    bool operator==(const Hour&) const = default;
};

// The cold start of a replica and whether scaling from zero breaks the latency target.
struct ColdStart {
    double seconds = 0.0;
    bool derived = true;              // false when autoscaling.cold_start_s gave it
    double startup_s = 0.0;           // provisioning and boot of the offer (catalog products)
    bool startup_placeholder = false; // the start-up is a placeholder or the default
    double download_s = 0.0;          // weights from object store at the node's network speed
    double load_s = 0.0;              // weights from host memory to the GPUs
    double weights_gb = 0.0;
    bool breaks_target = false; // with scale_to_zero: the first request misses its target
    double target_ms = 0.0;     // the target it is compared with (latency or TTFT)
    int warm_replicas = 0;      // the fewest replicas kept warm that fix it

    bool operator==(const ColdStart&) const = default;
};

struct CurvePlan {
    std::string gpu; // the main GPU type: the one with the most committed GPUs, else the burst's
    int gpus_per_replica = 1;
    std::vector<Purchase> base;
    std::vector<Purchase> burst;
    std::vector<Hour> hours; // 168
    double gpu_hours_per_month = 0.0;
    double flat_peak_gpu_hours_per_month = 0.0;
    int peak_replicas = 0;
    double mean_replicas = 0.0;
    double npv = 0.0;
    double total = 0.0; // undiscounted
    std::string flat_peak_id;
    int flat_peak_gpus = 0; // the flat peak option's GPUs, held in every hour
    double flat_peak_npv = 0.0;
    double saving = 0.0;                // 1 - npv / flat_peak_npv
    double committed_utilisation = 0.0; // share of committed replica-hours the curve uses
    std::optional<double> per_million_input_tokens;
    std::optional<double> per_million_output_tokens;
    int hours_met = 0;
    std::vector<int> hours_missed;
    std::optional<ColdStart> cold_start;
    bool optimal = false; // the solver proved the purchase optimal for its model
    int years = 1;        // blocks of growth the horizon is planned in
    int percentile = 50;
    double headroom = 0.0;
    bool scale_to_zero = false;
    std::size_t columns = 0;
    std::size_t rows = 0;
    std::size_t gpu_types = 0;

    bool operator==(const CurvePlan&) const = default;
};

// The rates of the 168 hours of a typical week for `workload`'s load, requests/s, at `month`
// (0 = now) of its growth; a flat workload is requests_per_second in every hour.
[[nodiscard]] std::vector<double> week_rates(const workload::Workload& workload, int month);

// The rate an hour is sized for: its mean plus z x sqrt(rate / window) (Poisson arrivals counted
// over k_burst_window_s, z of the targets' percentile), times 1 + headroom.
[[nodiscard]] double sized_rate(double rate, int percentile, double headroom);

// The plan for a service with inference.load, from the ranked flat options of `rec` (their
// prices and node shapes) and the estimator; nullopt without a load or a feasible option.
// `max_seconds` bounds the solve.
[[nodiscard]] std::optional<CurvePlan> plan_curve(const recommend::Recommendation& rec,
                                                  const catalog::Catalog& catalog,
                                                  double max_seconds = 10.0);

// The same from a service's priced options and their ranking (indices into priced.options(), best
// first), as fleet planning has them.
[[nodiscard]] std::optional<CurvePlan> plan_curve(const workload::Workload& workload,
                                                  const cost::Plan& priced,
                                                  std::span<const std::size_t> ranked,
                                                  const catalog::Catalog& catalog,
                                                  double max_seconds = 10.0);

} // namespace gpuplan::curve

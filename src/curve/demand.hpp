#pragma once
// What the curve's program is built from: per GPU type, the replicas each hour needs and the
// cheapest committed and hourly offers. Private to the curve stage.

#include "gpuplan/cost/plan.hpp"
#include "gpuplan/curve/curve.hpp"

#include <span>
#include <vector>

namespace gpuplan::curve::detail {

// What the curve is planned from: the service, its priced options and their ranking.
struct Inputs {
    const workload::Workload& workload;
    const cost::Plan& plan;
    std::span<const std::size_t> ranked; // indices into plan.options(), best first
};

// One offer as the program prices it, per GPU.
struct Offer {
    const cost::Option* option = nullptr;
    double npv_per_gpu = 0.0;   // committed: the horizon; hourly: one hour of the week, every week
    double total_per_gpu = 0.0; // the same, undiscounted
    int replicas_per_node = 1;  // a committed node holds this many replicas (bought whole)
};

// One GPU type the service may run on.
struct TypeDemand {
    const cost::Option* shape = nullptr; // its cheapest option: the node the estimates use
    int gpus_per_replica = 1;
    std::vector<std::vector<int>> need; // [year][hour] replicas
    std::vector<std::vector<bool>> met; // [year][hour] the targets hold at that count
    std::vector<Offer> committed;       // cheapest of each committed purchase option
    std::vector<Offer> hourly;          // cheapest on-demand and spot
};

// The horizon in years of growth: its months' shares of the discounted and undiscounted sums.
struct Years {
    std::vector<double> npv_share;
    std::vector<double> total_share;
    std::vector<double> weeks;   // weeks each year holds
    std::vector<int> rate_month; // the month whose rates a year is sized for
};

[[nodiscard]] Years years_of(const Inputs& rec);

// The GPU types of the ranked options with their demand; empty when none can serve.
[[nodiscard]] std::vector<TypeDemand>
type_demands(const Inputs& rec, const catalog::Catalog& catalog, const Years& years);

} // namespace gpuplan::curve::detail

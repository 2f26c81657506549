#pragma once
// Filling a service's idle committed capacity with the portfolio's training and batch jobs
// (docs/methodology.md, "L4. Filling the valleys"). Private to the fleet stage.

#include "gpuplan/fleet/fleet.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::fleet::detail {

// A service with a load curve: the GPUs its curve plan leaves idle in each hour of the week.
struct ServiceValleys {
    std::string name;
    std::string gpu;
    std::vector<int> idle_gpus; // 168
};

// The valleys of `w`'s curve plan over its priced options; nullopt without a load or a plan.
[[nodiscard]] std::optional<ServiceValleys> service_valleys(const workload::Workload& w,
                                                            const cost::Plan& priced,
                                                            const catalog::Catalog& catalog);

// Each planned training or batch job (portfolio order) on a service's GPU type runs in that
// service's valleys when they finish a run by its deadline; one job per service.
[[nodiscard]] std::vector<ValleyFill> fill_valleys(const std::vector<ServiceValleys>& services,
                                                   const Portfolio& portfolio,
                                                   const FleetPlan& plan, const Problem& problem,
                                                   const Solution& solution);

} // namespace gpuplan::fleet::detail

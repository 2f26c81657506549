#include "fleet/valleys.hpp"

#include "gpuplan/curve/curve.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpuplan::fleet::detail {

namespace {

// The solve of a service's curve inside a fleet run, seconds.
constexpr double k_curve_seconds = 2.0;

// The pool a planned job runs in.
const Pool* pool_of(const Problem& problem, const JobPlan& job) {
    for (const Pool& pool : problem.pools) {
        if (pool.gpu == job.gpu && pool.provider == job.provider && pool.region == job.region) {
            return &pool;
        }
    }
    return nullptr;
}

// A job's fill of one service's valleys, or nullopt when its GPUs never fit them.
std::optional<ValleyFill> fill_one(const ServiceValleys& service, const Entry& entry,
                                   const JobPlan& row, const Demand& demand, const Pool& pool,
                                   double monthly_rate) {
    ValleyFill fill;
    fill.service = service.name;
    fill.job = row.name;
    fill.gpu = service.gpu;
    fill.idle_gpu_hours_per_week =
        std::accumulate(service.idle_gpus.begin(), service.idle_gpus.end(), 0.0);
    for (int idle : service.idle_gpus) {
        fill.usable_gpu_hours_per_week += idle >= row.gpu_count ? row.gpu_count : 0;
    }
    if (fill.usable_gpu_hours_per_week <= 0.0) {
        return std::nullopt;
    }
    const int runs = std::max(1, entry.workload.schedule.runs);
    fill.job_gpu_hours = row.gpu_hours / runs;
    fill.weeks = fill.job_gpu_hours / fill.usable_gpu_hours_per_week;
    const std::optional<double>& deadline = entry.workload.constraints.deadline_hours;
    fill.meets_deadline = !deadline || fill.weeks * workload::k_hours_per_week <= *deadline;
    if (!fill.meets_deadline) {
        return fill;
    }
    fill.filled_gpu_hours = row.gpu_hours;
    for (std::size_t k = 0; k < demand.hours.size(); ++k) {
        fill.saved += demand.hours[k] * demand.gpus * pool.on_demand_per_gpu_hour /
                      std::pow(1.0 + monthly_rate, static_cast<double>(k + 1));
    }
    return fill;
}

} // namespace

std::optional<ServiceValleys> service_valleys(const workload::Workload& w, const cost::Plan& priced,
                                              const catalog::Catalog& catalog) {
    if (w.task != workload::Task::inference || !w.inference.load) {
        return std::nullopt;
    }
    const auto options = priced.options();
    std::vector<std::size_t> ranked;
    for (std::size_t i = 0; i < options.size(); ++i) {
        if (!options[i].rejection) {
            ranked.push_back(i);
        }
    }
    std::stable_sort(ranked.begin(), ranked.end(), [&options](std::size_t a, std::size_t b) {
        if (options[a].npv != options[b].npv) {
            return options[a].npv < options[b].npv;
        }
        return cost::id_less(options[a], options[b]);
    });
    const std::optional<curve::CurvePlan> plan =
        curve::plan_curve(w, priced, ranked, catalog, k_curve_seconds);
    if (!plan) {
        return std::nullopt;
    }
    ServiceValleys out{w.name, plan->gpu, {}};
    out.idle_gpus.reserve(plan->hours.size());
    for (const curve::Hour& hour : plan->hours) {
        out.idle_gpus.push_back(hour.idle * plan->gpus_per_replica);
    }
    return out;
}

std::vector<ValleyFill> fill_valleys(const std::vector<ServiceValleys>& services,
                                     const Portfolio& portfolio, const FleetPlan& plan,
                                     const Problem& problem, const Solution& solution) {
    std::vector<ValleyFill> out;
    std::vector<bool> taken(services.size(), false);
    std::size_t j = 0; // index of the planned job in problem.jobs
    for (std::size_t i = 0; i < plan.jobs.size() && i < portfolio.entries.size(); ++i) {
        const JobPlan& row = plan.jobs[i];
        if (!row.unplanned.empty()) {
            continue;
        }
        const std::size_t job = j++;
        const Entry& entry = portfolio.entries[i];
        const Pool* pool = pool_of(problem, row);
        if (entry.workload.task == workload::Task::inference || pool == nullptr ||
            job >= problem.jobs.size()) {
            continue;
        }
        const Demand& demand = problem.jobs[job].candidates[solution.assignment[job]];
        for (std::size_t s = 0; s < services.size(); ++s) {
            if (taken[s] || services[s].gpu != row.gpu) {
                continue;
            }
            if (auto fill =
                    fill_one(services[s], entry, row, demand, *pool, problem.monthly_rate)) {
                taken[s] = fill->meets_deadline;
                out.push_back(std::move(*fill));
                if (taken[s]) {
                    break;
                }
            }
        }
    }
    return out;
}

} // namespace gpuplan::fleet::detail

#pragma once
// Fleet planning: a portfolio's workloads priced by the recommendation pipeline, turned into GPU
// demand per month per pool, and the commitment mix of lowest NPV bought for it
// (docs/methodology.md, "Fleet planning"). Pure: the catalog and decision tree are passed in.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/note.hpp"
#include "gpuplan/cost/plan.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/fleet/model.hpp"
#include "gpuplan/fleet/portfolio.hpp"
#include "gpuplan/generator.hpp"
#include "gpuplan/recommend/recommend.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::fleet {

// Pools each workload may run in: this many of its cheapest (GPU model, provider) pairs by the
// NPV of the job alone on demand (or spot when interruptible), and as many more by the pool's
// lowest levelised rate (a commitment or owned server at full use). Keeps the program small
// (docs/methodology.md, "Fleet planning").
inline constexpr std::size_t k_candidates_per_workload = 3;
// The demand forecast moved per workload in the sensitivity analysis.
inline constexpr double k_sensitivity_low = 0.7;
inline constexpr double k_sensitivity_high = 1.3;
// Workloads the sensitivity analysis moves: the largest by GPU-hours (bounded work for a large
// portfolio: each re-plans its pool).
inline constexpr std::size_t k_sensitivity_workloads = 12;

// The solver's wall time for all the solves of one fleet run together, seconds, unless the
// caller gives another (`fleet --solver-time`).
inline constexpr double k_default_solver_seconds = 10.0;
// The largest budget a caller may give, seconds (one day).
inline constexpr double k_max_solver_seconds = 86'400.0;
// The least time any one solve is given, milliseconds, when the budget is spent: enough for a
// small program's LP relaxation, so every solve still has a chance of an answer.
inline constexpr int k_min_solve_ms = 50;
// The share of the budget the plan's own solve may use; the single-purchase baselines and the
// sensitivity re-plans share the rest (and what the plan's solve leaves).
inline constexpr double k_plan_solve_share = 0.75;

// How long the solves of one plan_fleet() may take together.
struct SolverBudget {
    double seconds = k_default_solver_seconds;
    // Seconds on a steady clock, read between solves so later ones get what earlier ones left;
    // empty: each solve gets its share of the budget in advance.
    std::function<double()> clock;
};

// One row of the commitment table.
struct Commitment {
    std::string gpu;
    std::string provider;
    std::string region;
    std::string instance;
    PurchaseOption purchase = PurchaseOption::reserved_1y;
    std::string payment;
    int units = 0; // instances or servers
    int gpu_count = 0;
    int start_month = 0;                 // ordered at the start of this month (0 = now)
    int months = 0;                      // months paid for (self-built: owned to the horizon's end)
    int lead_months = 0;                 // self-built: months from order to delivery
    std::optional<double> per_gpu_hour;  // reservations and subscriptions: effective price
    std::optional<double> capex_per_gpu; // self-built: the server's capex per GPU
    double npv = 0.0;                    // of all units
    double horizon_gpu_hours = 0.0;      // the capacity it adds within the horizon
    // Share of its hours the commitment must be used to beat on-demand (present values).
    std::optional<double> break_even_utilisation;
    double used_gpu_hours = 0.0; // an estimate: the pool's use shared in proportion to capacity
    std::string as_of;
    std::vector<std::string> sources;
    bool is_default = false;

    bool operator==(const Commitment&) const = default;
};

// One workload as planned.
struct JobPlan {
    std::string name;
    std::string file; // empty for an inline workload
    std::string task;
    int start_month = 0;
    int priority = 0;
    bool interruptible = false;
    std::string gpu; // the pool it runs in; empty when nothing fits
    std::string provider;
    std::string region;
    int gpu_count = 0;
    double gpu_hours = 0.0; // within the horizon
    std::size_t candidates = 0;
    std::string unplanned; // why it is left out (nothing fits), else empty
    // What its on-demand option rests on (undated price, marketplace capacity, ...): the risks of
    // the option it was planned on (docs/methodology.md, "C9c"); empty for a firm one.
    std::vector<cost::Note> risks;

    bool operator==(const JobPlan&) const = default;
};

// Demand against capacity in one month, over every pool.
struct Month {
    int month = 1; // 1..H, the month ending then
    double demand_gpu_hours = 0.0;
    double committed_gpu_hours = 0.0;
    double used_gpu_hours = 0.0;
    double on_demand_gpu_hours = 0.0;
    double spot_gpu_hours = 0.0;

    bool operator==(const Month&) const = default;
};

// The plan of one purchase kind alone (and on-demand/spot for the rest).
struct Alternative {
    std::string name; // all_on_demand or a purchase option
    double npv = 0.0;

    bool operator==(const Alternative&) const = default;
};

// The portfolio with one workload's GPUs scaled.
struct Scenario {
    std::string workload;
    int start_month = 0; // the workload's, telling apart workloads of one name
    double factor = 1.0;
    double npv_kept = 0.0;        // the plan's commitments kept
    double npv_reoptimised = 0.0; // commitments chosen again
    std::vector<int> units;       // re-optimised units of each commitment row (same order)

    bool operator==(const Scenario&) const = default;
};

// A training or batch job of the portfolio run in the committed capacity a service with a load
// curve leaves idle (docs/methodology.md, "L4. Filling the valleys").
struct ValleyFill {
    std::string service; // the service with inference.load
    std::string job;
    std::string gpu;
    double idle_gpu_hours_per_week = 0.0; // the service's committed GPU-hours its curve leaves idle
    double usable_gpu_hours_per_week = 0.0; // of those, in hours with the job's GPUs all idle
    double job_gpu_hours = 0.0;             // per run
    double weeks = 0.0;                     // a run takes this long in the valleys
    bool meets_deadline = true;
    double filled_gpu_hours = 0.0; // within the horizon (0 when the deadline is missed)
    double saved = 0.0;            // present value of those GPU-hours at the pool's on-demand price

    bool operator==(const ValleyFill&) const = default;
};

struct FleetPlan {
    GeneratorInfo generator;
    recommend::CatalogInfo catalog; // the whole catalog's digest, offers and price dates
    std::string name;
    std::string currency;
    double discount_rate = 0.0;
    int horizon_months = 0;
    double npv = 0.0;
    bool optimal = false;
    // A proven lower bound of the lowest NPV for the model (npv when optimal); nullopt when the
    // solver stopped before it proved one.
    std::optional<double> best_bound;
    // (npv - best_bound) / |npv|: at most how much dearer the plan is than the optimum, as a
    // fraction; 0 when optimal.
    std::optional<double> gap;
    double solver_seconds = 0.0; // the budget the solves shared
    // Single-purchase and sensitivity solves a limit stopped before they proved optimality.
    std::size_t solves_stopped = 0;
    std::size_t solves = 0; // single-purchase and sensitivity solves made
    std::vector<Commitment> commitments;
    std::vector<JobPlan> jobs;
    std::vector<Month> months;
    double all_on_demand_npv = 0.0;
    std::optional<Alternative> best_single; // the best plan using one purchase kind only
    double committed_gpu_hours = 0.0;
    double idle_gpu_hours = 0.0;
    std::vector<Scenario> sensitivity;
    std::vector<ValleyFill> valleys; // services with a load curve and the jobs that fill them
    std::size_t pools = 0;
    std::size_t columns = 0;
    std::size_t integer_columns = 0;
    std::size_t rows = 0;
    std::vector<std::string> assumptions;

    bool operator==(const FleetPlan&) const = default;
};

// Everything plan_fleet() computes on the way: the problem and its solution (tests).
struct Planned {
    Problem problem;
    Solution solution;
    FleetPlan plan;
};

// Prices every workload (recommend::plan with `tree`, nullptr = no rules), builds the problem,
// solves it and the baselines and sensitivity within `budget` (each solve also within its node
// limit), keeping the best plan found. Throws what recommend::plan throws.
[[nodiscard]] Planned plan_fleet(const Portfolio& portfolio, const catalog::Catalog& catalog,
                                 const decide::Tree* tree, const cost::Settings& settings,
                                 GeneratorInfo generator, const SolverBudget& budget = {});

} // namespace gpuplan::fleet

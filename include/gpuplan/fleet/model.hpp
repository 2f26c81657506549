#pragma once
// The fleet optimisation problem and its solver (docs/methodology.md, "Fleet planning"): pools of
// identical GPUs (a GPU model at a provider's region and instance type), the purchases each pool
// offers, and each job's GPU demand per month on each pool it may run in. Pure values; solve()
// builds a mixed-integer program and hands it to GLPK.

#include "gpuplan/purchase.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuplan::fleet {

// One way to buy capacity in a pool ahead of use.
struct Offer {
    PurchaseOption purchase = PurchaseOption::reserved_1y;
    int term_months = 12;  // months of capacity after delivery; self-built: to the horizon end
    int lead_months = 0;   // self-built: whole months from order to delivery
    int gpus_per_unit = 8; // GPUs one unit (an instance or a server) adds
    // Present value at month 0 of one unit ordered at the start of month t (index t), output
    // currency; only start months in `starts` are offered.
    std::vector<double> npv_by_start;
    std::vector<int> starts;   // filled by candidate_starts() unless set
    double per_gpu_hour = 0.0; // the price quoted (commitments: effective per GPU-hour)
    std::string payment;       // all_upfront, partial_upfront, no_upfront, prepaid, capex
    std::string instance;      // the instance type or build it buys
    std::string as_of;         // date of the price
    std::vector<std::string> sources;
    bool is_default = false; // priced from a provider-wide default discount
};

struct Pool {
    std::string gpu;
    std::string provider;
    std::string region;
    std::string instance;
    int gpus_per_node = 1;
    double on_demand_per_gpu_hour = 0.0;
    // Per useful GPU-hour, the interruption overhead of the pool's interruptible jobs included;
    // nullopt = no spot price.
    std::optional<double> spot_per_gpu_hour;
    std::vector<Offer> offers;
};

// A job's demand on one pool: `gpus` GPUs working hours[k - 1] hours in month k (k = 1..H).
struct Demand {
    std::size_t pool = 0;
    int gpus = 1;
    std::vector<double> hours;
};

struct Job {
    std::string name;
    bool interruptible = false;     // its uncovered hours may run on spot
    std::vector<Demand> candidates; // the pools it may run in, cheapest first
};

struct Problem {
    int horizon_months = 36;
    double monthly_rate = 0.0; // discount rate per month
    std::vector<Pool> pools;
    std::vector<Job> jobs;
};

// `units` units of offer `offer` of pool `pool` ordered at the start of month `start`.
struct Purchase {
    std::size_t pool = 0;
    std::size_t offer = 0;
    int start = 0;
    int units = 0;

    bool operator==(const Purchase&) const = default;
};

// GPU-hours of one pool in one month.
struct PoolMonth {
    double demand = 0.0;
    double capacity = 0.0; // committed or owned GPU-hours available
    double used = 0.0;     // of the capacity, used
    double on_demand = 0.0;
    double spot = 0.0;
};

struct Solution {
    double npv = 0.0;
    std::vector<Purchase> purchases;            // units > 0, by pool, offer and start
    std::vector<std::size_t> assignment;        // per job: the index into its candidates
    std::vector<std::vector<PoolMonth>> months; // [pool][k - 1]
    bool found = false;   // an integer solution was found (else only `bound` and the sizes are set)
    bool optimal = false; // the solver proved optimality (else the best found, or none)
    // A proven lower bound of the lowest NPV: the best bound of the open subproblems when the
    // search stopped, else the LP relaxation's optimum; npv when optimal; nullopt when the
    // solver stopped before it had one.
    std::optional<double> bound;
    std::size_t columns = 0;
    std::size_t integer_columns = 0;
    std::size_t rows = 0;
};

// A backstop in wall time for one solve given no limit of its own, milliseconds.
inline constexpr int k_max_solve_ms = 120'000;

// Restricts what solve() may buy.
struct SolveOptions {
    bool commitments = true;                    // false: on-demand and spot only
    std::optional<PurchaseOption> only;         // buy only this kind
    std::optional<std::vector<Purchase>> fixed; // buy exactly these (the two above ignored)
    std::vector<double> demand_scale;           // per job multiplier of its GPU count; empty = 1
    // Branch-and-bound subproblems GLPK may select before it stops with the best solution found
    // (not proven optimal): counted, not timed, so every machine gives the same answer.
    long max_branch_nodes = 20'000;
    // Wall time GLPK may spend on the search (its own clock), milliseconds; then the best
    // solution found, not proven optimal. The default is a backstop for a solve on its own.
    int time_limit_ms = k_max_solve_ms;
};

// The subproblems of each sensitivity re-plan (a workload's demand -30% or +30%): an estimate
// of what re-planning would save, solved twice per workload, so a tenth of the plan's own.
inline constexpr long k_sensitivity_branch_nodes = 2'000;

// The start months offered to each offer of each pool, when not set: month 0 and each month in
// which a pool's candidate demand rises (in GPUs or GPU-hours), each repeated every term
// (reservations, subscriptions); every month with demand for monthly subscriptions; self-built
// ordered its lead time ahead of each (at 0 at the earliest).
void candidate_starts(Problem& problem);

// The lowest-NPV plan: which purchases, which pool each job runs in, and the GPU-hours left to
// on-demand and spot; a job's demand scaled by demand_scale scales its GPUs. Jobs in a month are
// assumed to start together (docs/methodology.md).
[[nodiscard]] Solution solve(const Problem& problem, const SolveOptions& options = {});

// The plan that buys nothing: each job in its cheapest candidate, its hours on demand (on spot
// when interruptible and spot is cheaper). A closed form of what solve() finds with commitments
// off, so it costs no solver time; optimal for that program.
[[nodiscard]] Solution on_demand_plan(const Problem& problem);

// A lower bound of the lowest NPV solve() can find, in closed form: every job's discounted
// GPU-hours at the cheaper of its pool's uncovered rate and the lowest rate per discounted
// GPU-hour of capacity any of the pool's commitments offers, in its cheapest candidate. Weak,
// but proven without the solver; nullopt when an offer's NPV is negative.
[[nodiscard]] std::optional<double> lower_bound(const Problem& problem);

// The NPV of buying `purchases` with each job in the candidate `assignment` names, covering the
// dearest uncovered hours first: a closed form, independent of solve(), for checking it.
[[nodiscard]] double evaluate(const Problem& problem, std::span<const Purchase> purchases,
                              std::span<const std::size_t> assignment,
                              std::span<const double> demand_scale = {});

} // namespace gpuplan::fleet

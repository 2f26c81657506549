#pragma once
// Monthly cash-flow models of the five purchase options (docs/methodology.md, "Cost engine").
// Month 0 is now; month k is the end of month k (a 730-hour month). Costs are positive, a resale
// is negative. Every amount is in the currency of the prices passed in. Pure functions.

#include "gpuplan/catalog/catalog.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuplan::cost {

// What a cash flow pays for.
enum class Item {
    compute,     // on-demand or spot instance-hours
    upfront,     // commitment paid at the start of a term
    commitment,  // recurring commitment payment, owed whether used or not
    bridge,      // cloud on-demand while self-built hardware is on order
    storage,     // dataset and checkpoints kept in cloud storage
    egress,      // exporting the trained model out of the cloud
    capex,       // servers, network and storage share, paid at order
    power,       // electricity x PUE
    colocation,  // contracted kW x price per kW-month
    staff,       // operations staff
    maintenance, // support contracts and repairs, a fraction of capex per year
    resale,      // hardware sold at the end of the horizon (negative)
};
inline constexpr std::size_t k_item_count = 12;
// The published item name, e.g. `compute`, `resale`.
[[nodiscard]] std::string_view to_string(Item item);

// Cash flows by month and item.
struct CashFlows {
    std::vector<std::array<double, k_item_count>> months; // months[k] = amounts at month k

    // Adds `amount` to `item` at `month`, growing the vector as needed.
    void add(int month, Item item, double amount);
    // The net amount at `month` (0 past the end).
    [[nodiscard]] double at(int month) const;
    // Net amount per month, months[0] first: the vector finance::npv discounts.
    [[nodiscard]] std::vector<double> amounts() const;
    // Undiscounted sum of every flow.
    [[nodiscard]] double total() const;
    // Undiscounted sum per item.
    [[nodiscard]] std::array<double, k_item_count> item_totals() const;
    // Extends with zero months up to `month_count` months (months 0..month_count-1).
    void pad_to(int month_count);
    // Multiplies every amount by `factor` (a currency conversion).
    void scale(double factor);

    bool operator==(const CashFlows&) const = default;
};

// How the job keeps machines busy over time.
struct Usage {
    int nodes = 1;
    double busy_hours_per_run = 0.0; // hours each node works per run
    double hours_per_day = 24.0;     // hours a day the nodes work (a run spans busy x 24 / this)
    int runs = 1;
    double every_months = 1.0;  // runs start this far apart (or when the previous one ends)
    double session_hours = 0.0; // one billed session (a run, or a day of service); 0 = a run
};

// Node-hours worked in each month when the first run starts at `start_hour`, and when the last
// run ends (in calendar hours from now).
struct Profile {
    std::vector<double> node_hours; // index k = month k (index 0 is always 0)
    double end_hour = 0.0;

    [[nodiscard]] double total_node_hours() const;
};

// Spreads the runs over calendar months: run r starts at start_hour + r x every_months x 730 h,
// or when run r-1 ends if later, and works hours_per_day hours of every day.
[[nodiscard]] Profile usage_profile(const Usage& usage, double start_hour);

// The calendar hour the last run ends (no month-by-month spreading, so it is cheap for any span).
[[nodiscard]] double usage_end_hour(const Usage& usage, double start_hour);

// Hours billed for a session of `hours` under a billing granularity and minimum (seconds).
[[nodiscard]] double billed_hours(double hours, const catalog::Billing& billing);

// On-demand: billed node-hours x price at the end of each month.
[[nodiscard]] CashFlows on_demand_cash_flows(const Usage& usage, double price_per_node_hour,
                                             const catalog::Billing& billing);

// One commitment offer: term, payment and price. A reservation, or a subscription prepaid by the
// month (term 1, all upfront) or the year (term 12, all upfront).
struct Commitment {
    int term_months = 12;
    double effective_per_hour = 0.0; // per instance-hour of the whole term
    double upfront_fraction = 0.0;   // share of each term's total paid at its start
    // Terms after the first are bought only when they end within this many months (the plan's
    // horizon, rounded up to whole months); work outside the bought terms is paid on demand
    // (commitment_spill). 0 = no limit.
    double horizon_months = 0.0;
};

// Reserved: `usage.nodes` instances committed for back-to-back terms (months 1..T, T+1..2T, ...),
// each bought only if the workload works in it (the first always) and, after the first, only if
// it ends within `horizon_months`. Each term is take-or-pay: the upfront share at its start and
// the rest in equal monthly payments for every month of the term, used or not.
[[nodiscard]] CashFlows reserved_cash_flows(const Usage& usage, const Commitment& commitment);

// The node-hours per month (Item::compute, at a price of 1) that fall outside the terms bought:
// the spill past the horizon, paid at the on-demand price.
[[nodiscard]] CashFlows commitment_spill(const Usage& usage, const Commitment& commitment);

// Committed instance-hours, the part of them the workload leaves unused, and the work outside
// the terms.
struct CommitmentUse {
    double committed_node_hours = 0.0;
    double used_node_hours = 0.0; // all the work, in the terms or not
    double spill_node_hours = 0.0;
    int terms = 0;

    [[nodiscard]] double unused_node_hours() const {
        return committed_node_hours - (used_node_hours - spill_node_hours);
    }
};
[[nodiscard]] CommitmentUse commitment_use(const Usage& usage, const Commitment& commitment);

// Spot interruptions: hazard per node-hour, checkpoint write time and restart delay.
struct SpotRisk {
    double interruption_rate_per_node_hour = 0.0;
    double checkpoint_hours = 0.0; // delta: time to write one checkpoint
    double restart_hours = 0.0;    // R: re-provision, reload, warm up
};

// The largest wall factor reported: a spot job this slow never finishes in practice.
inline constexpr double k_max_wall_factor = 1e6;
// Cash flows are modelled for at most this many months (100 years); work that would run longer
// is judged never to finish rather than priced.
inline constexpr double k_max_plan_months = 1200.0;

// What interruptions cost a gang of `nodes` nodes.
struct SpotOverhead {
    double interruption_rate_per_hour = 0.0; // lambda = nodes x per-node rate
    double checkpoint_interval_hours = 0.0;  // Daly's optimum; 0 when there are no interruptions
    double wall_factor = 1.0;                // W: wall hours per useful hour
};

// lambda = nodes x rate; Daly (2006) tau = sqrt(2 d M)[1 + sqrt(d/2M)/3 + (d/2M)/9] - d for
// d < 2M, else M (M = 1/lambda); W = M e^(R/M) (e^((tau+d)/M) - 1) / tau (Daly's expected wall
// time per useful hour, interruptions also during restarts).
[[nodiscard]] SpotOverhead spot_overhead(int nodes, const SpotRisk& risk);

// Spot: the same work stretched by W, at the spot price, each session billed as `billing` says
// (its granularity and minimum hold for spot as for on-demand).
[[nodiscard]] CashFlows spot_cash_flows(const Usage& usage, double price_per_node_hour,
                                        const SpotOverhead& overhead,
                                        const catalog::Billing& billing = {1.0, 0.0, {}});

// Monte Carlo of spot wall time: `runs` runs of `useful_hours` each, checkpointing every tau,
// exponential interruptions at lambda (also during restarts), losing the work since the last
// checkpoint plus R each time; seeded, so the same inputs give the same quantiles.
struct SpotSimulation {
    double p50_wall_hours = 0.0;
    double p90_wall_hours = 0.0;
    int samples = 0;

    bool operator==(const SpotSimulation&) const = default;
};
[[nodiscard]] SpotSimulation simulate_spot(double useful_hours, int runs,
                                           const SpotOverhead& overhead, const SpotRisk& risk,
                                           int samples, std::uint64_t seed);

// Self-built servers for the job, with site costs (all in the self-built currency).
struct SelfBuiltPlan {
    int nodes = 1;
    double capex_per_node = 0.0;
    double network_capex_per_node = 0.0;
    double node_kw = 0.0;
    double lead_time_hours = 0.0;
    double electricity_per_kwh = 0.0;
    double pue = 1.0;
    double colocation_per_kw_month = 0.0;
    double staff_fte_per_node = 0.0;
    double staff_cost_per_fte_year = 0.0;
    double maintenance_rate_per_year = 0.0;
    double utilisation = 1.0; // average draw under load / nameplate kW
    std::vector<catalog::ResalePoint> resale_curve;
    double horizon_months = 36.0;
    // Cloud on-demand price of the same GPUs per hour while the hardware is on order; nullopt =
    // the job waits for the hardware.
    std::optional<double> bridge_price_per_hour;
};

// Self-built: capex at month 0; power for the hours worked (node kW x utilisation x PUE x price);
// colocation, staff and maintenance for every month from delivery to the end of the horizon
// (prorated); resale at the end of the horizon (or of the job, if later) from the resale curve
// at the hardware's age. Depreciation is not a cash flow.
[[nodiscard]] CashFlows self_built_cash_flows(const Usage& usage, const SelfBuiltPlan& plan);

// The hour the last run ends: after the lead time unless bridged.
[[nodiscard]] double self_built_end_hour(const Usage& usage, const SelfBuiltPlan& plan);

// Fraction of capex recovered after `months`, linear between curve points, flat past the ends.
[[nodiscard]] double resale_fraction(const std::vector<catalog::ResalePoint>& curve, double months);

// The utilisation (share of all hours from delivery to the horizon end) above which owning is
// cheaper in present value than renting at `cloud_price_per_node_hour`; nullopt when owning
// never wins (above 100% or the cloud is cheaper per hour than power alone).
[[nodiscard]] std::optional<double> break_even_utilisation(const SelfBuiltPlan& plan,
                                                           double cloud_price_per_node_hour,
                                                           double monthly_rate);

} // namespace gpuplan::cost

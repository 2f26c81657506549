#include "gpuplan/cost/cash_flows.hpp"

#include "gpuplan/estimate/goodput.hpp"
#include "gpuplan/finance/finance.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace gpuplan::cost {

std::string_view to_string(Item item) {
    switch (item) {
    case Item::compute:
        return "compute";
    case Item::upfront:
        return "upfront";
    case Item::commitment:
        return "commitment";
    case Item::bridge:
        return "bridge";
    case Item::storage:
        return "storage";
    case Item::egress:
        return "egress";
    case Item::capex:
        return "capex";
    case Item::power:
        return "power";
    case Item::colocation:
        return "colocation";
    case Item::staff:
        return "staff";
    case Item::maintenance:
        return "maintenance";
    case Item::resale:
        return "resale";
    }
    return "?";
}

void CashFlows::add(int month, Item item, double amount) {
    const auto index = static_cast<std::size_t>(std::max(month, 0));
    if (months.size() <= index) {
        months.resize(index + 1, std::array<double, k_item_count>{});
    }
    months[index][static_cast<std::size_t>(item)] += amount;
}

double CashFlows::at(int month) const {
    const auto index = static_cast<std::size_t>(month);
    if (month < 0 || index >= months.size()) {
        return 0.0;
    }
    return std::accumulate(months[index].begin(), months[index].end(), 0.0);
}

std::vector<double> CashFlows::amounts() const {
    std::vector<double> result;
    result.reserve(months.size());
    for (const auto& items : months) {
        result.push_back(std::accumulate(items.begin(), items.end(), 0.0));
    }
    return result;
}

double CashFlows::total() const {
    const auto values = amounts();
    return std::accumulate(values.begin(), values.end(), 0.0);
}

std::array<double, k_item_count> CashFlows::item_totals() const {
    std::array<double, k_item_count> totals{};
    for (const auto& items : months) {
        for (std::size_t i = 0; i < k_item_count; ++i) {
            totals[i] += items[i];
        }
    }
    return totals;
}

void CashFlows::pad_to(int month_count) {
    if (static_cast<int>(months.size()) < month_count) {
        months.resize(static_cast<std::size_t>(month_count), std::array<double, k_item_count>{});
    }
}

void CashFlows::scale(double factor) {
    for (auto& items : months) {
        for (double& amount : items) {
            amount *= factor;
        }
    }
}

double Profile::total_node_hours() const {
    return std::accumulate(node_hours.begin(), node_hours.end(), 0.0);
}

namespace {

// A stretch of calendar hours in which `density` node-hours are worked per calendar hour.
struct Interval {
    double start_hour = 0.0;
    double end_hour = 0.0;
    double density = 0.0;
};

std::vector<Interval> run_intervals(const Usage& usage, double start_hour) {
    std::vector<Interval> intervals;
    const double duty = std::clamp(usage.hours_per_day / k_hours_per_day, 1e-9, 1.0);
    const double span = usage.busy_hours_per_run / duty;
    double previous_end = start_hour;
    for (int r = 0; r < usage.runs; ++r) {
        const double scheduled = start_hour + r * usage.every_months * k_hours_per_month;
        const double begin = std::max(scheduled, previous_end);
        intervals.push_back({begin, begin + span, usage.nodes * duty});
        previous_end = begin + span;
    }
    return intervals;
}

// Node-hours of `intervals` that fall inside [from, to), spread over months.
Profile accumulate(const std::vector<Interval>& intervals, double from, double to) {
    Profile profile;
    profile.node_hours.assign(1, 0.0);
    for (const Interval& interval : intervals) {
        profile.end_hour = std::max(profile.end_hour, interval.end_hour);
        const double a = std::max(interval.start_hour, from);
        const double b = std::min(interval.end_hour, to);
        if (b <= a) {
            continue;
        }
        auto first = static_cast<std::size_t>(std::floor(a / k_hours_per_month)) + 1;
        for (std::size_t k = first;; ++k) {
            const double month_start = static_cast<double>(k - 1) * k_hours_per_month;
            const double month_end = static_cast<double>(k) * k_hours_per_month;
            if (month_start >= b) {
                break;
            }
            const double overlap = std::min(b, month_end) - std::max(a, month_start);
            if (overlap > 0.0) {
                if (profile.node_hours.size() <= k) {
                    profile.node_hours.resize(k + 1, 0.0);
                }
                profile.node_hours[k] += overlap * interval.density;
            }
        }
    }
    return profile;
}

int month_index(double hour) {
    return static_cast<int>(std::ceil(hour / k_hours_per_month - 1e-9));
}

double session_factor(const Usage& usage, const catalog::Billing& billing) {
    const double session =
        usage.session_hours > 0.0 ? usage.session_hours : usage.busy_hours_per_run;
    return session > 0.0 ? billed_hours(session, billing) / session : 1.0;
}

CashFlows usage_cash_flows(const Profile& profile, Item item, double price_per_node_hour) {
    CashFlows flows;
    flows.add(0, item, 0.0);
    for (std::size_t k = 1; k < profile.node_hours.size(); ++k) {
        flows.add(static_cast<int>(k), item, profile.node_hours[k] * price_per_node_hour);
    }
    return flows;
}

} // namespace

double usage_end_hour(const Usage& usage, double start_hour) {
    const auto intervals = run_intervals(usage, start_hour);
    return intervals.empty() ? start_hour : intervals.back().end_hour;
}

Profile usage_profile(const Usage& usage, double start_hour) {
    return accumulate(run_intervals(usage, start_hour), 0.0, std::numeric_limits<double>::max());
}

double billed_hours(double hours, const catalog::Billing& billing) {
    double seconds = hours * k_seconds_per_hour;
    if (billing.granularity_seconds > 0.0) {
        seconds =
            std::ceil(seconds / billing.granularity_seconds - 1e-9) * billing.granularity_seconds;
    }
    seconds = std::max(seconds, billing.minimum_seconds);
    return seconds / k_seconds_per_hour;
}

CashFlows on_demand_cash_flows(const Usage& usage, double price_per_node_hour,
                               const catalog::Billing& billing) {
    return usage_cash_flows(usage_profile(usage, 0.0), Item::compute,
                            price_per_node_hour * session_factor(usage, billing));
}

namespace {

// Whether term `term` (0 covers months 1..T) is bought: the first always, later ones when they
// end within the horizon.
bool term_allowed(int term, const Commitment& commitment) {
    if (term == 0 || commitment.horizon_months <= 0.0) {
        return true;
    }
    const double last_month = std::ceil(commitment.horizon_months - 1e-9);
    return (term + 1) * commitment.term_months <= last_month + 1e-9;
}

// Indices of the back-to-back terms (0 covers months 1..T, 1 covers T+1..2T, ...) in which the
// workload works and that may be bought; the first term is always bought.
std::vector<int> terms_needed(const Profile& profile, const Commitment& commitment) {
    std::vector<int> terms{0};
    for (std::size_t k = 1; k < profile.node_hours.size(); ++k) {
        const int term = static_cast<int>(k - 1) / commitment.term_months;
        if (profile.node_hours[k] > 0.0 && term != terms.back() && term_allowed(term, commitment)) {
            terms.push_back(term);
        }
    }
    return terms;
}

} // namespace

CashFlows reserved_cash_flows(const Usage& usage, const Commitment& commitment) {
    CashFlows flows;
    const double term_total =
        usage.nodes * commitment.effective_per_hour * commitment.term_months * k_hours_per_month;
    const double upfront = term_total * commitment.upfront_fraction;
    const double monthly = (term_total - upfront) / commitment.term_months;
    for (int term : terms_needed(usage_profile(usage, 0.0), commitment)) {
        const int first_month = term * commitment.term_months;
        flows.add(first_month, Item::upfront, upfront);
        for (int m = 1; m <= commitment.term_months; ++m) {
            flows.add(first_month + m, Item::commitment, monthly);
        }
    }
    return flows;
}

CashFlows commitment_spill(const Usage& usage, const Commitment& commitment) {
    CashFlows flows;
    const Profile profile = usage_profile(usage, 0.0);
    for (std::size_t k = 1; k < profile.node_hours.size(); ++k) {
        const int term = static_cast<int>(k - 1) / commitment.term_months;
        if (profile.node_hours[k] > 0.0 && !term_allowed(term, commitment)) {
            flows.add(static_cast<int>(k), Item::compute, profile.node_hours[k]);
        }
    }
    return flows;
}

CommitmentUse commitment_use(const Usage& usage, const Commitment& commitment) {
    CommitmentUse use;
    const Profile profile = usage_profile(usage, 0.0);
    use.terms = static_cast<int>(terms_needed(profile, commitment).size());
    use.committed_node_hours = use.terms * usage.nodes * commitment.term_months * k_hours_per_month;
    use.used_node_hours = profile.total_node_hours();
    use.spill_node_hours = commitment_spill(usage, commitment).total();
    return use;
}

SpotOverhead spot_overhead(int nodes, const SpotRisk& risk) {
    SpotOverhead overhead;
    overhead.interruption_rate_per_hour = nodes * risk.interruption_rate_per_node_hour;
    const double lambda = overhead.interruption_rate_per_hour;
    if (lambda <= 0.0) {
        return overhead;
    }
    overhead.checkpoint_interval_hours =
        estimate::daly_interval_hours(lambda, risk.checkpoint_hours);
    // Daly (2006) expected wall time per useful hour with exponential interruptions, which may
    // also strike during a restart. The first-order 1 + delta/tau + lambda (tau/2 + R)
    // understates it at high rates.
    overhead.wall_factor =
        estimate::daly_wall_factor(lambda, overhead.checkpoint_interval_hours,
                                   risk.checkpoint_hours, risk.restart_hours, k_max_wall_factor);
    return overhead;
}

CashFlows spot_cash_flows(const Usage& usage, double price_per_node_hour,
                          const SpotOverhead& overhead, const catalog::Billing& billing) {
    Usage stretched = usage;
    stretched.busy_hours_per_run *= overhead.wall_factor;
    return usage_cash_flows(usage_profile(stretched, 0.0), Item::compute,
                            price_per_node_hour * session_factor(stretched, billing));
}

namespace {

// Bounds the work of a pathological input (interruptions far more frequent than progress).
constexpr long k_max_events = 10'000'000;

// The random draws of a spot simulation: interruptions at `lambda` per hour (none when 0), work
// checkpointed every `tau` hours, and the events drawn so far.
struct SpotDraws {
    std::mt19937_64 engine;
    std::exponential_distribution<double> next_interruption;
    double lambda = 0.0;
    double tau = 0.0;
    const SpotRisk& risk;
    long events = 0;

    // Adds to `wall` one run of `useful_hours`: segments of up to tau hours, each checkpointed
    // unless it is the last, and for each interruption the time since the checkpoint and the
    // restart.
    void run(double useful_hours, double& wall) {
        double done = 0.0;
        while (done < useful_hours && events < k_max_events) {
            ++events;
            const double segment = std::min(tau, useful_hours - done);
            const double need =
                segment + (done + segment < useful_hours ? risk.checkpoint_hours : 0.0);
            const double until = lambda > 0.0 ? next_interruption(engine) : need + 1.0;
            if (until >= need) {
                wall += need;
                done += segment;
            } else {
                wall += until;
                restart(wall);
            }
        }
    }

    // Adds a restart to `wall`: the restart itself can be interrupted and starts over.
    void restart(double& wall) {
        for (double again = next_interruption(engine);
             again < risk.restart_hours && events < k_max_events;
             again = next_interruption(engine)) {
            wall += again;
            ++events;
        }
        wall += risk.restart_hours;
    }
};

} // namespace

SpotSimulation simulate_spot(double useful_hours, int runs, const SpotOverhead& overhead,
                             const SpotRisk& risk, int samples, std::uint64_t seed) {
    SpotSimulation result;
    if (samples <= 0) {
        return result;
    }
    const double lambda = overhead.interruption_rate_per_hour;
    SpotDraws draws{
        .engine = std::mt19937_64(seed),
        .next_interruption = std::exponential_distribution<double>(lambda > 0.0 ? lambda : 1.0),
        .lambda = lambda,
        .tau = overhead.checkpoint_interval_hours > 0.0 ? overhead.checkpoint_interval_hours
                                                        : std::max(useful_hours, 1e-9),
        .risk = risk};
    std::vector<double> walls;
    walls.reserve(static_cast<std::size_t>(samples));
    for (int s = 0; s < samples && draws.events < k_max_events; ++s) {
        double wall = 0.0;
        for (int r = 0; r < runs; ++r) {
            draws.run(useful_hours, wall);
        }
        walls.push_back(wall);
    }
    std::sort(walls.begin(), walls.end());
    auto quantile = [&walls](double q) {
        const auto index =
            static_cast<std::size_t>(std::ceil(q * static_cast<double>(walls.size())) - 1.0);
        return walls[std::min(index, walls.size() - 1)];
    };
    result.samples = static_cast<int>(walls.size());
    if (!walls.empty()) {
        result.p50_wall_hours = quantile(0.5);
        result.p90_wall_hours = quantile(0.9);
    }
    return result;
}

double resale_fraction(const std::vector<catalog::ResalePoint>& curve, double months) {
    if (curve.empty()) {
        return 0.0;
    }
    if (months <= curve.front().months) {
        return curve.front().fraction;
    }
    for (std::size_t i = 1; i < curve.size(); ++i) {
        if (months <= curve[i].months) {
            const auto& a = curve[i - 1];
            const auto& b = curve[i];
            const double span = b.months - a.months;
            return span > 0.0 ? a.fraction + (b.fraction - a.fraction) * (months - a.months) / span
                              : b.fraction;
        }
    }
    return curve.back().fraction;
}

double self_built_end_hour(const Usage& usage, const SelfBuiltPlan& plan) {
    return usage_end_hour(usage, plan.bridge_price_per_hour ? 0.0 : plan.lead_time_hours);
}

CashFlows self_built_cash_flows(const Usage& usage, const SelfBuiltPlan& plan) {
    CashFlows flows;
    const double server_capex = plan.nodes * plan.capex_per_node;
    flows.add(0, Item::capex, server_capex + plan.nodes * plan.network_capex_per_node);

    const double start = plan.bridge_price_per_hour ? 0.0 : plan.lead_time_hours;
    const auto intervals = run_intervals(usage, start);
    const double delivery = plan.lead_time_hours;
    const double end_hour =
        std::max(plan.horizon_months * k_hours_per_month, self_built_end_hour(usage, plan));

    // Work before delivery runs on the bridge, billed per hour of the whole cluster.
    if (plan.bridge_price_per_hour) {
        const Profile bridged = accumulate(intervals, 0.0, delivery);
        for (std::size_t k = 1; k < bridged.node_hours.size(); ++k) {
            flows.add(static_cast<int>(k), Item::bridge,
                      bridged.node_hours[k] / plan.nodes * *plan.bridge_price_per_hour);
        }
    }
    const Profile owned = accumulate(intervals, delivery, end_hour);
    const double kwh_per_node_hour = plan.node_kw * plan.utilisation * plan.pue;
    for (std::size_t k = 1; k < owned.node_hours.size(); ++k) {
        flows.add(static_cast<int>(k), Item::power,
                  owned.node_hours[k] * kwh_per_node_hour * plan.electricity_per_kwh);
    }

    // Fixed monthly costs from delivery to the end, prorated in the months they start and end.
    const double colocation = plan.nodes * plan.node_kw * plan.colocation_per_kw_month;
    const double staff =
        plan.nodes * plan.staff_fte_per_node * plan.staff_cost_per_fte_year / k_months_per_year;
    const double maintenance = (server_capex + plan.nodes * plan.network_capex_per_node) *
                               plan.maintenance_rate_per_year / k_months_per_year;
    const int last_month = month_index(end_hour);
    for (int k = 1; k <= last_month; ++k) {
        const double month_start = (k - 1) * k_hours_per_month;
        const double month_end = k * k_hours_per_month;
        const double share = std::clamp(
            (std::min(month_end, end_hour) - std::max(month_start, delivery)) / k_hours_per_month,
            0.0, 1.0);
        if (share <= 0.0) {
            continue;
        }
        flows.add(k, Item::colocation, colocation * share);
        flows.add(k, Item::staff, staff * share);
        flows.add(k, Item::maintenance, maintenance * share);
    }
    const double age_months = std::max(0.0, end_hour - delivery) / k_hours_per_month;
    flows.add(last_month, Item::resale,
              -server_capex * resale_fraction(plan.resale_curve, age_months));
    return flows;
}

std::optional<double> break_even_utilisation(const SelfBuiltPlan& plan,
                                             double cloud_price_per_node_hour,
                                             double monthly_rate) {
    const int horizon = static_cast<int>(std::ceil(plan.horizon_months - 1e-9));
    const int delivery = month_index(plan.lead_time_hours);
    if (horizon <= delivery) {
        return std::nullopt;
    }
    const double owned_af = finance::annuity_factor(monthly_rate, horizon) -
                            finance::annuity_factor(monthly_rate, delivery);
    const double server_capex = plan.nodes * plan.capex_per_node;
    const double capex = server_capex + plan.nodes * plan.network_capex_per_node;
    const double resale = server_capex *
                          resale_fraction(plan.resale_curve, (horizon - delivery) * 1.0) *
                          finance::discount_factor(monthly_rate, horizon);
    const double fixed_monthly =
        plan.nodes * (plan.node_kw * plan.colocation_per_kw_month +
                      plan.staff_fte_per_node * plan.staff_cost_per_fte_year / k_months_per_year) +
        capex * plan.maintenance_rate_per_year / k_months_per_year;
    const double fixed = capex - resale + fixed_monthly * owned_af;
    const double variable_per_node_hour =
        plan.node_kw * plan.utilisation * plan.pue * plan.electricity_per_kwh;
    // Both sides serve the same hours: the owned months' hours at utilisation u.
    const double margin = plan.nodes * k_hours_per_month * owned_af *
                          (cloud_price_per_node_hour - variable_per_node_hour);
    if (margin <= 0.0) {
        return std::nullopt;
    }
    const double u = fixed / margin;
    if (u > 1.0) {
        return std::nullopt;
    }
    return std::max(u, 0.0);
}

} // namespace gpuplan::cost

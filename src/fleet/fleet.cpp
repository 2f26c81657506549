#include "gpuplan/fleet/fleet.hpp"

#include "fleet/valleys.hpp"
#include "gpuplan/cost/cash_flows.hpp"
#include "gpuplan/cost/rates.hpp"
#include "gpuplan/finance/finance.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace gpuplan::fleet {

namespace {

using cost::Option;

// Added to |npv| in the gap's denominator, as GLPK does, so a zero NPV gives no division by 0.
constexpr double k_gap_epsilon = 1e-9;
using workload::Task;

// A job's best way to run on one (GPU model, provider): its cheapest on-demand option and, for an
// interruptible job, the spot option of the same region and instance type.
struct Candidate {
    const Option* on_demand = nullptr;
    const Option* spot = nullptr;
    double score = 0.0;
};

std::vector<Candidate> candidates_of(const cost::Plan& plan, bool interruptible) {
    // Firm answers first, as recommend ranks them: soft ones only when a job has no firm one
    // (docs/methodology.md, "C9c").
    const bool any_firm =
        std::any_of(plan.options().begin(), plan.options().end(), [](const Option& o) {
            return !o.rejection && o.purchase == PurchaseOption::on_demand && o.firm();
        });
    std::map<std::pair<std::string, std::string>, Candidate> best;
    for (const Option& o : plan.options()) {
        if (o.rejection || o.purchase != PurchaseOption::on_demand || (any_firm && !o.firm())) {
            continue;
        }
        Candidate& c = best[{o.gpu, o.provider}];
        if (c.on_demand == nullptr || o.npv < c.on_demand->npv - 1e-9) {
            c.on_demand = &o;
        }
    }
    std::vector<Candidate> out;
    for (auto& [key, c] : best) {
        c.score = c.on_demand->npv;
        for (const Option& o : plan.options()) {
            if (interruptible && !o.rejection && o.purchase == PurchaseOption::spot &&
                (!any_firm || o.firm()) && o.provider == c.on_demand->provider &&
                o.region == c.on_demand->region && o.instance == c.on_demand->instance) {
                c.spot = &o;
                c.score = std::min(c.score, o.npv);
            }
        }
        out.push_back(c);
    }
    std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
        return a.score < b.score - 1e-9;
    });
    return out;
}

// GPU-hours per GPU in each month 1..H of the job on `option`, starting at `start_month`.
std::vector<double> hours_of(const workload::Workload& w, const Option& option, int start_month,
                             int horizon) {
    cost::Usage usage;
    usage.nodes = option.nodes;
    if (w.task == Task::inference) {
        usage.busy_hours_per_run = option.gpu_hours / option.gpu_count;
        usage.hours_per_day = w.inference.hours_per_day;
    } else {
        usage.runs = std::max(1, w.schedule.runs);
        usage.every_months = w.schedule.every_months;
        usage.busy_hours_per_run = option.gpu_hours / (option.gpu_count * usage.runs);
    }
    const cost::Profile profile = cost::usage_profile(usage, start_month * k_hours_per_month);
    std::vector<double> hours(static_cast<std::size_t>(horizon), 0.0);
    for (std::size_t k = 1; k < profile.node_hours.size() && k <= hours.size(); ++k) {
        hours[k - 1] = profile.node_hours[k] / option.nodes;
    }
    return hours;
}

double term_npv(cost::Commitment commitment, double monthly_rate) {
    const cost::Usage usage{.nodes = 1, .busy_hours_per_run = 1.0};
    commitment.effective_per_hour = 1.0;
    return finance::npv(monthly_rate, cost::reserved_cash_flows(usage, commitment).amounts());
}

std::string join_dates(const std::optional<Date>& date) {
    return date ? date->to_string() : std::string();
}

void add_commitment_offers(Pool& pool, const cost::OfferRates& rates, int horizon, double rate,
                           bool accept_soft) {
    for (const cost::CommitmentRate& c : rates.commitments) {
        if (!c.firm && !accept_soft) {
            continue; // a fleet commits only where the term is sold at a dated published price
        }
        Offer offer;
        offer.purchase = c.kind;
        offer.term_months = c.commitment.term_months;
        offer.gpus_per_unit = rates.gpus_per_node;
        const double unit =
            c.commitment.effective_per_hour * rates.fx_rate * term_npv(c.commitment, rate);
        for (int t = 0; t < horizon; ++t) {
            offer.npv_by_start.push_back(unit * finance::discount_factor(rate, t));
        }
        offer.per_gpu_hour = c.commitment.effective_per_hour * rates.fx_rate / rates.gpus_per_node;
        const bool reserved =
            c.kind == PurchaseOption::reserved_1y || c.kind == PurchaseOption::reserved_3y;
        offer.payment = reserved ? std::string(catalog::to_string(c.payment)) : "prepaid";
        offer.instance = pool.instance;
        offer.as_of = join_dates(c.as_of);
        offer.sources = c.sources;
        offer.is_default = c.is_default;
        pool.offers.push_back(std::move(offer));
    }
}

// The build of the pool's GPU model with the lowest capex per GPU, as an offer.
void add_self_built_offer(Pool& pool, const catalog::Catalog& catalog, const std::string& currency,
                          int horizon, double rate) {
    if (!catalog.self_built) {
        return;
    }
    const catalog::Build* best = nullptr;
    for (const catalog::Build& b : catalog.self_built->builds) {
        if (b.gpu == pool.gpu && b.gpu_count > 0 &&
            (best == nullptr ||
             (b.capex + b.network_capex_per_node) / b.gpu_count <
                 (best->capex + best->network_capex_per_node) / best->gpu_count)) {
            best = &b;
        }
    }
    const auto fx = catalog::fx_rate(catalog, catalog.self_built->currency, currency);
    if (best == nullptr || !fx) {
        return;
    }
    Offer offer;
    offer.purchase = PurchaseOption::self_built;
    offer.gpus_per_unit = best->gpu_count;
    const double lead_hours = best->lead_time_weeks * 7.0 * k_hours_per_day;
    offer.lead_months = static_cast<int>(std::ceil(lead_hours / k_hours_per_month - 1e-9));
    for (int t = 0; t < horizon; ++t) {
        const cost::SelfBuiltPlan plan =
            cost::self_built_plan(*catalog.self_built, *best, 1, horizon - t);
        cost::Usage usage;
        usage.busy_hours_per_run = std::max(0.0, (horizon - t) * k_hours_per_month - lead_hours);
        const double value =
            finance::npv(rate, cost::self_built_cash_flows(usage, plan).amounts()) * *fx;
        offer.npv_by_start.push_back(value * finance::discount_factor(rate, t));
    }
    offer.term_months = horizon;
    offer.per_gpu_hour = (best->capex + best->network_capex_per_node) * *fx / best->gpu_count;
    offer.payment = "capex";
    offer.instance = best->name;
    offer.as_of = best->as_of.to_string();
    offer.sources = best->sources;
    pool.offers.push_back(std::move(offer));
}

// The lowest present cost per GPU-hour a pool offers: its on-demand price, or an offer's NPV
// over the discounted GPU-hours it provides from month 0 (its cost at full use).
double levelised_rate(const Pool& pool, int horizon, double rate) {
    double best = pool.on_demand_per_gpu_hour;
    for (const Offer& offer : pool.offers) {
        if (offer.npv_by_start.empty()) {
            continue;
        }
        const int first = offer.lead_months + 1;
        const int last = offer.purchase == PurchaseOption::self_built
                             ? horizon
                             : std::min(horizon, offer.lead_months + offer.term_months);
        double hours = 0.0;
        for (int k = first; k <= last; ++k) {
            hours += offer.gpus_per_unit * k_hours_per_month * finance::discount_factor(rate, k);
        }
        if (hours > 0.0) {
            best = std::min(best, offer.npv_by_start[0] / hours);
        }
    }
    return best;
}

struct Builder {
    using Key = std::tuple<std::string, std::string, std::string, std::string>;
    const catalog::Catalog& catalog;
    std::string currency;
    bool accept_soft = false;
    Problem problem;
    std::map<Key, Pool> built;        // every pool priced so far
    std::map<Key, std::size_t> index; // those in the problem
    std::vector<double> spot_rate;    // per pool, the dearest spot rate of its interruptible jobs

    static Key key_of(const Option& od) { return {od.gpu, od.provider, od.region, od.instance}; }

    const Pool& priced(const Option& od) {
        const Key key = key_of(od);
        if (auto it = built.find(key); it != built.end()) {
            return it->second;
        }
        Pool pool{od.gpu, od.provider, od.region, od.instance, od.gpus_per_node, 0.0, {}, {}};
        if (const auto rates = cost::offer_rates(catalog, od, problem.monthly_rate)) {
            pool.on_demand_per_gpu_hour =
                rates->on_demand.value_or(0.0) * rates->fx_rate / od.gpus_per_node;
            add_commitment_offers(pool, *rates, problem.horizon_months, problem.monthly_rate,
                                  accept_soft);
        }
        if (accept_soft) { // servers are bought on a vendor's quote: never a firm commitment
            add_self_built_offer(pool, catalog, currency, problem.horizon_months,
                                 problem.monthly_rate);
        }
        return built.emplace(key, std::move(pool)).first->second;
    }

    std::size_t pool_of(const Option& od) {
        const Key key = key_of(od);
        if (auto it = index.find(key); it != index.end()) {
            return it->second;
        }
        problem.pools.push_back(priced(od));
        spot_rate.push_back(0.0);
        index.emplace(key, problem.pools.size() - 1);
        return problem.pools.size() - 1;
    }

    // The candidates a job keeps: the cheapest alone (on-demand or spot) and the cheapest at
    // the pools' lowest levelised rate, k_candidates_per_workload of each kind at most.
    std::vector<Candidate> select(std::vector<Candidate> all) {
        std::vector<Candidate> out;
        auto add = [&out](const Candidate& c) {
            if (out.size() < 2 * k_candidates_per_workload &&
                std::none_of(out.begin(), out.end(),
                             [&c](const Candidate& o) { return o.on_demand == c.on_demand; })) {
                out.push_back(c);
            }
        };
        for (std::size_t i = 0; i < std::min(all.size(), k_candidates_per_workload); ++i) {
            add(all[i]);
        }
        for (Candidate& c : all) {
            c.score =
                c.on_demand->gpu_hours *
                levelised_rate(priced(*c.on_demand), problem.horizon_months, problem.monthly_rate);
        }
        std::stable_sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) {
            return a.score < b.score - 1e-9;
        });
        const std::size_t before = out.size();
        for (const Candidate& c : all) {
            if (out.size() >= before + k_candidates_per_workload) {
                break;
            }
            add(c);
        }
        return out;
    }
};

// The job's own pricing: on-demand and spot only (commitments are bought for the whole fleet).
workload::Workload priced_alone(const workload::Workload& w) {
    workload::Workload out = w;
    std::vector<PurchaseOption> allowed;
    for (const PurchaseOption p : {PurchaseOption::on_demand, PurchaseOption::spot}) {
        if (w.constraints.purchase.empty() ||
            std::find(w.constraints.purchase.begin(), w.constraints.purchase.end(), p) !=
                w.constraints.purchase.end()) {
            allowed.push_back(p);
        }
    }
    out.constraints.purchase =
        allowed.empty() ? std::vector<PurchaseOption>{PurchaseOption::on_demand} : allowed;
    return out;
}

JobPlan job_row(const Entry& entry) {
    JobPlan row;
    row.name = entry.workload.name;
    row.file = entry.file;
    row.task = std::string(workload::to_string(entry.workload.task));
    row.start_month = entry.start_month;
    row.priority = entry.priority;
    row.interruptible = entry.workload.constraints.interruptible;
    return row;
}

// Of the pool's GPU-hours used in each month, the share of `purchase`'s capacity.
double used_share(const Problem& problem, const Solution& solution, const Purchase& purchase) {
    const Offer& offer = problem.pools[purchase.pool].offers[purchase.offer];
    const int first = purchase.start + offer.lead_months + 1;
    const int last = offer.purchase == PurchaseOption::self_built
                         ? problem.horizon_months
                         : std::min(problem.horizon_months,
                                    purchase.start + offer.lead_months + offer.term_months);
    double used = 0.0;
    for (int k = first; k <= last; ++k) {
        const PoolMonth& m = solution.months[purchase.pool][static_cast<std::size_t>(k) - 1];
        if (m.capacity > 0.0) {
            used += m.used * purchase.units * offer.gpus_per_unit * k_hours_per_month / m.capacity;
        }
    }
    return used;
}

Commitment commitment_row(const Problem& problem, const Solution& solution, const Purchase& p) {
    const Pool& pool = problem.pools[p.pool];
    const Offer& offer = pool.offers[p.offer];
    Commitment row;
    row.gpu = pool.gpu;
    row.provider = pool.provider;
    row.region = pool.region;
    row.instance = offer.instance;
    row.purchase = offer.purchase;
    row.payment = offer.payment;
    row.units = p.units;
    row.gpu_count = p.units * offer.gpus_per_unit;
    row.start_month = p.start;
    row.lead_months = offer.lead_months;
    row.months = offer.purchase == PurchaseOption::self_built ? problem.horizon_months - p.start
                                                              : offer.term_months;
    if (offer.purchase == PurchaseOption::self_built) {
        row.capex_per_gpu = offer.per_gpu_hour;
    } else {
        row.per_gpu_hour = offer.per_gpu_hour;
    }
    const double unit = offer.npv_by_start[static_cast<std::size_t>(p.start)];
    row.npv = unit * p.units;
    double on_demand_value = 0.0;
    const int first = p.start + offer.lead_months + 1;
    const int last = std::min(problem.horizon_months, first - 1 + row.months - offer.lead_months);
    for (int k = first; k <= last; ++k) {
        on_demand_value += pool.on_demand_per_gpu_hour * offer.gpus_per_unit * k_hours_per_month *
                           finance::discount_factor(problem.monthly_rate, k);
        row.horizon_gpu_hours += row.gpu_count * k_hours_per_month;
    }
    if (on_demand_value > 0.0) {
        row.break_even_utilisation = unit / on_demand_value;
    }
    row.used_gpu_hours = used_share(problem, solution, p);
    row.as_of = offer.as_of;
    row.sources = offer.sources;
    row.is_default = offer.is_default;
    return row;
}

// The solver budget handed out solve by solve: the plan's own solve a share of what is left,
// each other solve an even share of what is left among those still to come.
class Allowance {
public:
    Allowance(const SolverBudget& budget, std::size_t others)
        : m_budget(budget), m_start(budget.clock ? budget.clock() : 0.0), m_others(others) {}

    // Milliseconds for the plan's own solve: no floor, as the all-on-demand plan stands in when
    // it finds nothing.
    [[nodiscard]] int plan() { return give(k_plan_solve_share, 1); }
    // Milliseconds for the next baseline or sensitivity solve.
    [[nodiscard]] int other() {
        const double share = 1.0 / static_cast<double>(std::max<std::size_t>(m_others, 1));
        m_others = m_others > 0 ? m_others - 1 : 0;
        return give(share, k_min_solve_ms);
    }

private:
    int give(double share, int floor_ms) {
        const double spent = m_budget.clock ? m_budget.clock() - m_start : m_given;
        const double left = std::max(0.0, m_budget.seconds - spent);
        const double ms = std::clamp(left * share * 1000.0, static_cast<double>(floor_ms),
                                     k_max_solver_seconds * 1000.0);
        m_given += ms / 1000.0;
        return static_cast<int>(ms);
    }

    const SolverBudget& m_budget;
    double m_start = 0.0;
    double m_given = 0.0; // seconds handed out, when there is no clock
    std::size_t m_others = 0;
};

// A baseline or sensitivity solve within its share of the budget, counted in `out`.
Solution solve_other(FleetPlan& out, const Problem& problem, SolveOptions options,
                     Allowance& allowance) {
    options.time_limit_ms = allowance.other();
    Solution s = solve(problem, options);
    ++out.solves;
    if (!s.optimal) {
        ++out.solves_stopped;
    }
    return s;
}

void fill_months(FleetPlan& out, const Solution& solution, int horizon) {
    for (int k = 1; k <= horizon; ++k) {
        Month m;
        m.month = k;
        for (const auto& pool : solution.months) {
            const PoolMonth& pm = pool[static_cast<std::size_t>(k) - 1];
            m.demand_gpu_hours += pm.demand;
            m.committed_gpu_hours += pm.capacity;
            m.used_gpu_hours += pm.used;
            m.on_demand_gpu_hours += pm.on_demand;
            m.spot_gpu_hours += pm.spot;
        }
        out.committed_gpu_hours += m.committed_gpu_hours;
        out.idle_gpu_hours += std::max(0.0, m.committed_gpu_hours - m.used_gpu_hours);
        out.months.push_back(m);
    }
}

// The purchase kinds the problem's pools offer, in their order.
std::vector<PurchaseOption> kinds_offered(const Problem& problem) {
    std::vector<PurchaseOption> kinds;
    for (const Pool& pool : problem.pools) {
        for (const Offer& offer : pool.offers) {
            if (std::find(kinds.begin(), kinds.end(), offer.purchase) == kinds.end()) {
                kinds.push_back(offer.purchase);
            }
        }
    }
    std::sort(kinds.begin(), kinds.end());
    return kinds;
}

// The best plan of each purchase kind alone; a kind whose solve found nothing is left out.
void add_alternatives(FleetPlan& out, const Problem& problem, Allowance& allowance) {
    for (const PurchaseOption kind : kinds_offered(problem)) {
        SolveOptions only;
        only.only = kind;
        const Solution s = solve_other(out, problem, only, allowance);
        if (s.found && (!out.best_single || s.npv < out.best_single->npv - 1e-6)) {
            out.best_single = Alternative{std::string(to_string(kind)), s.npv};
        }
    }
}

// The part of the problem in one pool: its jobs (as assigned) with that candidate only, and the
// solution's purchases there, renumbered to pool 0.
struct PoolPart {
    Problem problem;
    std::vector<Purchase> purchases;
    std::vector<std::size_t> jobs; // indices into the whole problem's jobs
};

PoolPart pool_part(const Problem& problem, const Solution& solution, std::size_t pool) {
    PoolPart part;
    part.problem.horizon_months = problem.horizon_months;
    part.problem.monthly_rate = problem.monthly_rate;
    part.problem.pools.push_back(problem.pools[pool]);
    for (std::size_t j = 0; j < problem.jobs.size(); ++j) {
        const Demand& d = problem.jobs[j].candidates[solution.assignment[j]];
        if (d.pool == pool) {
            Job job{problem.jobs[j].name, problem.jobs[j].interruptible, {d}};
            job.candidates.front().pool = 0;
            part.problem.jobs.push_back(std::move(job));
            part.jobs.push_back(j);
        }
    }
    for (const Purchase& p : solution.purchases) {
        if (p.pool == pool) {
            part.purchases.push_back({0, p.offer, p.start, p.units});
        }
    }
    return part;
}

// Units of each of `purchases` after pool `pool` was re-planned as `again` (renumbered to pool
// 0); the other pools keep theirs.
std::vector<int> replanned_units(const std::vector<Purchase>& purchases, std::size_t pool,
                                 const std::vector<Purchase>& again) {
    std::vector<int> out;
    for (const Purchase& p : purchases) {
        int units = p.units;
        if (p.pool == pool) {
            const auto q = std::find_if(again.begin(), again.end(), [&p](const Purchase& r) {
                return r.offer == p.offer && r.start == p.start;
            });
            units = q == again.end() ? 0 : q->units;
        }
        out.push_back(units);
    }
    return out;
}

// The jobs the sensitivity analysis moves: the k_sensitivity_workloads with the most GPU-hours
// as assigned (ties to the earlier job), in the portfolio's order.
std::vector<std::size_t> sensitivity_jobs(const Problem& problem, const Solution& solution) {
    std::vector<std::pair<double, std::size_t>> sizes;
    sizes.reserve(problem.jobs.size());
    for (std::size_t j = 0; j < problem.jobs.size(); ++j) {
        const Demand& d = problem.jobs[j].candidates[solution.assignment[j]];
        double gpu_hours = 0.0;
        for (const double h : d.hours) {
            gpu_hours += h * d.gpus;
        }
        sizes.emplace_back(-gpu_hours, j);
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.resize(std::min(sizes.size(), k_sensitivity_workloads));
    std::vector<std::size_t> jobs;
    jobs.reserve(sizes.size());
    for (const auto& [size, j] : sizes) {
        jobs.push_back(j);
    }
    std::sort(jobs.begin(), jobs.end());
    return jobs;
}

// The largest workloads' GPUs scaled in turn (each re-plans its pool, a program as large as the
// pool's jobs: all of them would make the work grow with the square of the portfolio). The other
// pools are unaffected by a job's demand, so its pool alone is re-planned (with its jobs kept
// there) and the rest of the NPV carried over.
void add_sensitivity(FleetPlan& out, const Problem& problem, const Solution& solution,
                     const std::vector<int>& starts, Allowance& allowance) {
    const std::vector<std::size_t> moved = sensitivity_jobs(problem, solution);
    if (moved.size() < problem.jobs.size()) {
        out.assumptions.push_back(fmt::format(
            "sensitivity: the {} workloads with the most GPU-hours of {}, each moved -30% and "
            "+30% and its pool re-planned",
            moved.size(), problem.jobs.size()));
    }
    for (const std::size_t j : moved) {
        const std::size_t pool = problem.jobs[j].candidates[solution.assignment[j]].pool;
        const PoolPart part = pool_part(problem, solution, pool);
        const std::vector<std::size_t> assigned(part.problem.jobs.size(), 0);
        const double base = evaluate(part.problem, part.purchases, assigned);
        for (const double factor : {k_sensitivity_low, k_sensitivity_high}) {
            SolveOptions options;
            options.max_branch_nodes = k_sensitivity_branch_nodes;
            options.demand_scale.assign(part.problem.jobs.size(), 1.0);
            for (std::size_t k = 0; k < part.jobs.size(); ++k) {
                options.demand_scale[k] = part.jobs[k] == j ? factor : 1.0;
            }
            Scenario s;
            s.workload = problem.jobs[j].name;
            s.start_month = starts[j];
            s.factor = factor;
            s.npv_kept = solution.npv - base +
                         evaluate(part.problem, part.purchases, assigned, options.demand_scale);
            const Solution again = solve_other(out, part.problem, options, allowance);
            // A re-plan that found nothing in its time keeps the plan's commitments, which is
            // always possible.
            s.npv_reoptimised = again.found ? solution.npv - base + again.npv : s.npv_kept;
            s.units = replanned_units(solution.purchases, pool,
                                      again.found ? again.purchases : part.purchases);
            out.sensitivity.push_back(std::move(s));
        }
    }
}

// The all-on-demand baseline (a closed form), then the plan within its share of the budget;
// when that search finds nothing in time, the baseline (buying nothing is always possible). A
// plan not proven optimal gets the better of the search's bound and the closed-form one.
Solution solve_plan(FleetPlan& out, const Problem& problem, Allowance& allowance) {
    const Solution on_demand = on_demand_plan(problem);
    out.all_on_demand_npv = on_demand.npv;
    SolveOptions options;
    options.time_limit_ms = allowance.plan();
    Solution solution = solve(problem, options);
    if (solution.optimal) {
        return solution;
    }
    const std::optional<double> search_bound = solution.bound;
    if (!solution.found) {
        Solution fallback = on_demand;
        fallback.optimal = false;
        // The program's size is still the one the search was given.
        fallback.columns = solution.columns;
        fallback.rows = solution.rows;
        fallback.integer_columns = solution.integer_columns;
        solution = std::move(fallback);
        out.assumptions.emplace_back(
            "solver: the search found no plan within its time, so the plan is the all-on-demand "
            "one (buying nothing); more solver time may find commitments that save money");
    }
    // Both are proven bounds: the larger is the better one.
    std::optional<double> bound = search_bound;
    if (const std::optional<double> closed = lower_bound(problem); closed) {
        bound = std::max(bound.value_or(*closed), *closed);
    }
    solution.bound = bound ? std::optional<double>(std::min(*bound, solution.npv)) : std::nullopt;
    return solution;
}

// (npv - bound) / |npv|, 0 when optimal; nullopt without a bound.
std::optional<double> gap_of(const Solution& solution) {
    if (!solution.bound) {
        return std::nullopt;
    }
    return solution.optimal ? 0.0
                            : std::max(0.0, solution.npv - *solution.bound) /
                                  (std::abs(solution.npv) + k_gap_epsilon);
}

// The assumption naming the single-purchase and sensitivity solves a limit stopped, if any.
void add_stopped_solves(FleetPlan& out) {
    if (out.solves_stopped > 0) {
        out.assumptions.push_back(fmt::format(
            "solver: {} of the {} single-purchase and sensitivity solves stopped at a limit "
            "before proving optimality: their NPVs are the best found",
            out.solves_stopped, out.solves));
    }
}

// A service with a load curve: the idle committed GPUs of its own curve plan, commitments
// allowed, as recommend gives it.
void add_service_valleys(std::vector<detail::ServiceValleys>& out, const workload::Workload& w,
                         const catalog::Catalog& catalog, const decide::Tree* tree,
                         const cost::Settings& settings) {
    if (w.task != Task::inference || !w.inference.load) {
        return;
    }
    const recommend::RuleUse rules =
        tree != nullptr ? recommend::RuleUse::apply : recommend::RuleUse::none;
    const cost::Plan full = recommend::plan(w, catalog, tree, rules, settings);
    if (auto service = detail::service_valleys(w, full, catalog)) {
        out.push_back(std::move(*service));
    }
}

} // namespace

Planned plan_fleet(const Portfolio& portfolio, const catalog::Catalog& catalog,
                   const decide::Tree* tree, const cost::Settings& settings,
                   GeneratorInfo generator, const SolverBudget& budget) {
    Planned planned;
    FleetPlan& out = planned.plan;
    out.generator = std::move(generator);
    out.catalog = recommend::catalog_info(catalog);
    out.name = portfolio.name;
    out.currency = settings.currency.empty() ? portfolio.finance.currency : settings.currency;
    out.discount_rate = portfolio.finance.discount_rate;
    out.horizon_months = portfolio.horizon_months;
    Builder builder{catalog, out.currency, settings.accept_soft, {}, {}, {}, {}};
    Problem& problem = builder.problem;
    problem.horizon_months = portfolio.horizon_months;
    problem.monthly_rate = finance::monthly_rate(portfolio.finance.discount_rate);
    const recommend::RuleUse rules =
        tree != nullptr ? recommend::RuleUse::apply : recommend::RuleUse::none;
    std::vector<int> starts; // of the planned jobs
    // Per planned job, per candidate: the risks of its on-demand option.
    std::vector<std::vector<std::vector<cost::Note>>> risks;
    std::vector<detail::ServiceValleys> valleys;
    for (const Entry& entry : portfolio.entries) {
        JobPlan row = job_row(entry);
        const cost::Plan priced =
            recommend::plan(priced_alone(entry.workload), catalog, tree, rules, settings);
        add_service_valleys(valleys, entry.workload, catalog, tree, settings);
        const std::vector<Candidate> candidates =
            builder.select(candidates_of(priced, entry.workload.constraints.interruptible));
        if (candidates.empty()) {
            row.unplanned = "no on-demand option meets its constraints";
            out.jobs.push_back(std::move(row));
            continue;
        }
        Job job{entry.workload.name, entry.workload.constraints.interruptible, {}};
        std::vector<std::vector<cost::Note>>& job_risks = risks.emplace_back();
        for (const Candidate& c : candidates) {
            std::vector<cost::Note>& notes = job_risks.emplace_back();
            for (const cost::NoteIndex index : c.on_demand->risks) {
                notes.push_back(priced.notes[index]);
            }
            Demand d;
            d.pool = builder.pool_of(*c.on_demand);
            d.gpus = c.on_demand->gpu_count;
            d.hours =
                hours_of(entry.workload, *c.on_demand, entry.start_month, portfolio.horizon_months);
            if (c.spot != nullptr && c.spot->gpu_hours > 0.0) {
                double& rate = builder.spot_rate[d.pool];
                rate = std::max(rate,
                                c.spot->item_totals[static_cast<std::size_t>(cost::Item::compute)] /
                                    c.spot->gpu_hours);
            }
            job.candidates.push_back(std::move(d));
        }
        row.candidates = job.candidates.size();
        starts.push_back(entry.start_month);
        problem.jobs.push_back(std::move(job));
        out.jobs.push_back(std::move(row));
    }
    for (std::size_t p = 0; p < problem.pools.size(); ++p) {
        if (builder.spot_rate[p] > 0.0) {
            problem.pools[p].spot_per_gpu_hour = builder.spot_rate[p];
        }
    }
    candidate_starts(problem);
    out.solver_seconds = budget.seconds;
    Allowance allowance(budget, kinds_offered(problem).size() +
                                    2 * std::min(problem.jobs.size(), k_sensitivity_workloads));
    planned.solution = solve_plan(out, problem, allowance);
    // Commitments in the order they are bought, then by pool and purchase kind.
    std::stable_sort(
        planned.solution.purchases.begin(), planned.solution.purchases.end(),
        [&problem](const Purchase& a, const Purchase& b) {
            const auto kind = [&problem](const Purchase& p) {
                return problem.pools[p.pool].offers[p.offer].purchase;
            };
            return std::tuple{a.start, a.pool, kind(a)} < std::tuple{b.start, b.pool, kind(b)};
        });
    const Solution& solution = planned.solution;
    out.npv = solution.npv;
    out.optimal = solution.optimal;
    out.best_bound = solution.bound;
    out.gap = gap_of(solution);
    out.pools = problem.pools.size();
    out.columns = solution.columns;
    out.integer_columns = solution.integer_columns;
    out.rows = solution.rows;
    std::size_t j = 0;
    for (JobPlan& row : out.jobs) {
        if (!row.unplanned.empty() || j >= problem.jobs.size()) {
            continue;
        }
        const Demand& d = problem.jobs[j].candidates[solution.assignment[j]];
        const Pool& pool = problem.pools[d.pool];
        row.gpu = pool.gpu;
        row.provider = pool.provider;
        row.region = pool.region;
        row.gpu_count = d.gpus;
        row.risks = risks[j][solution.assignment[j]];
        for (const double h : d.hours) {
            row.gpu_hours += h * d.gpus;
        }
        ++j;
    }
    for (const Purchase& p : solution.purchases) {
        out.commitments.push_back(commitment_row(problem, solution, p));
    }

    out.valleys = detail::fill_valleys(valleys, portfolio, out, problem, solution);
    fill_months(out, solution, problem.horizon_months);
    add_alternatives(out, problem, allowance);
    add_sensitivity(out, problem, solution, starts, allowance);
    add_stopped_solves(out);
    planned.problem = std::move(problem);
    return planned;
}

} // namespace gpuplan::fleet

// Fleet planning: the GLPK program against exhaustive searches over commitment levels, and the
// four hand-checkable portfolios (docs/methodology.md, "Fleet planning").

#include "../support/files.hpp"
#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/fleet/fleet.hpp"
#include "gpuplan/fleet/model.hpp"
#include "gpuplan/fleet/portfolio.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace gpuplan;
using namespace gpuplan::fleet;

namespace {

std::string fixture(const std::string& relative) {
    return test::slurp(std::string(GPUPLAN_SOURCE_DIR) + "/tests/fixtures/" + relative);
}

// One (offer, start) the search may buy, and how many units at most.
struct Slot {
    std::size_t pool = 0;
    std::size_t offer = 0;
    int start = 0;
    int most = 0;
};

// The lowest NPV over every combination of unit counts in `slots` (each 0..most), with the jobs
// in their first candidate: an exhaustive search independent of the solver.
double brute_force(const Problem& problem, const std::vector<Slot>& slots) {
    const std::vector<std::size_t> assignment(problem.jobs.size(), 0);
    std::vector<Purchase> buy;
    double best = std::numeric_limits<double>::infinity();
    std::function<void(std::size_t)> walk = [&](std::size_t i) {
        if (i == slots.size()) {
            best = std::min(best, evaluate(problem, buy, assignment));
            return;
        }
        for (int units = 0; units <= slots[i].most; ++units) {
            if (units > 0) {
                buy.push_back({slots[i].pool, slots[i].offer, slots[i].start, units});
            }
            walk(i + 1);
            if (units > 0) {
                buy.pop_back();
            }
        }
    };
    walk(0);
    return best;
}

// The (offer, start) pairs an exhaustive search can afford: each offer started at month 0, at
// each month some job's work begins, and a whole number of terms after those, up to `most` units.
std::vector<Slot> rise_slots(const Problem& problem, int most) {
    std::vector<Slot> slots;
    for (std::size_t p = 0; p < problem.pools.size(); ++p) {
        std::vector<int> begins{0};
        for (const Job& job : problem.jobs) {
            for (const Demand& d : job.candidates) {
                for (std::size_t k = 0; d.pool == p && k < d.hours.size(); ++k) {
                    if (d.hours[k] > 0.0 && (k == 0 || d.hours[k - 1] == 0.0)) {
                        begins.push_back(static_cast<int>(k));
                    }
                }
            }
        }
        for (std::size_t o = 0; o < problem.pools[p].offers.size(); ++o) {
            const Offer& offer = problem.pools[p].offers[o];
            std::vector<int> starts;
            for (const int b : begins) {
                for (int t = b; t < problem.horizon_months; t += offer.term_months) {
                    if (std::find(starts.begin(), starts.end(), t) == starts.end()) {
                        starts.push_back(t);
                    }
                    if (offer.purchase == PurchaseOption::self_built) {
                        break;
                    }
                }
            }
            std::sort(starts.begin(), starts.end());
            for (const int t : starts) {
                slots.push_back({p, o, t, most});
            }
        }
    }
    return slots;
}

// The problem with each offer's start months cut down to `slots`.
Problem restricted_to(Problem problem, const std::vector<Slot>& slots) {
    for (std::size_t p = 0; p < problem.pools.size(); ++p) {
        for (std::size_t o = 0; o < problem.pools[p].offers.size(); ++o) {
            std::vector<int>& starts = problem.pools[p].offers[o].starts;
            starts.clear();
            for (const Slot& s : slots) {
                if (s.pool == p && s.offer == o) {
                    starts.push_back(s.start);
                }
            }
        }
    }
    return problem;
}

// The plan is no worse than the exhaustive search over `slots`, and equal to it when the
// program is offered exactly those.
void check_against_brute_force(const Problem& problem, const std::vector<Slot>& slots) {
    const double best = brute_force(problem, slots);
    CHECK(solve(problem).npv <= best + 1e-6);
    const Solution same = solve(restricted_to(problem, slots));
    REQUIRE(same.optimal);
    CHECK(same.npv == Approx(best).epsilon(1e-9).margin(1e-6));
}

// A random single-pool instance: on demand 2 per GPU-hour, a 2-month and a 4-month commitment of
// 2-GPU units, jobs of 1 to 4 GPUs working random hours in random months.
Problem random_problem(std::uint32_t seed, int horizon) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    Problem problem;
    problem.horizon_months = horizon;
    problem.monthly_rate = 0.01;
    Pool pool;
    pool.gpu = "G";
    pool.gpus_per_node = 2;
    pool.on_demand_per_gpu_hour = 2.0;
    pool.spot_per_gpu_hour = 1.2;
    for (const auto& [term, share] : {std::pair{2, 0.7}, std::pair{4, 0.55}}) {
        Offer offer;
        offer.purchase = term == 2 ? PurchaseOption::reserved_1y : PurchaseOption::reserved_3y;
        offer.term_months = term;
        offer.gpus_per_unit = 2;
        for (int t = 0; t < horizon; ++t) {
            offer.npv_by_start.push_back(share * 2.0 * 2.0 * 730.0 * term * std::pow(1.01, -t - 1));
        }
        pool.offers.push_back(offer);
    }
    problem.pools.push_back(pool);
    for (int j = 0; j < 3; ++j) {
        Job job{"j" + std::to_string(j), j == 2, {}};
        Demand d{0, 1 + static_cast<int>(unit(rng) * 3.99), {}};
        for (int k = 0; k < horizon; ++k) {
            d.hours.push_back(unit(rng) < 0.6 ? 730.0 * unit(rng) : 0.0);
        }
        job.candidates.push_back(d);
        problem.jobs.push_back(job);
    }
    return problem;
}

Portfolio fixture_portfolio(const std::string& name) {
    const FileLoader load = [](const std::string& path, std::string&) -> std::optional<TextFile> {
        return TextFile{path, fixture("fleet/" + path)};
    };
    return read_portfolio({name, fixture("fleet/" + name)}, load);
}

Planned plan_fixture(const std::string& portfolio, const std::string& catalog_file,
                     bool accept_soft = false) {
    const std::vector<TextFile> files{{catalog_file, fixture("fleet/" + catalog_file)}};
    const catalog::Catalog catalog = catalog::load_catalog(files);
    cost::Settings settings;
    settings.accept_soft = accept_soft;
    return plan_fleet(fixture_portfolio(portfolio), catalog, nullptr, settings, {});
}

int units_of(const Solution& solution, const Problem& problem, PurchaseOption kind) {
    int units = 0;
    for (const Purchase& p : solution.purchases) {
        units += problem.pools[p.pool].offers[p.offer].purchase == kind ? p.units : 0;
    }
    return units;
}

} // namespace

TEST_CASE("the fleet program matches an exhaustive search over every start month and level",
          "[fleet]") {
    for (std::uint32_t seed = 1; seed <= 12; ++seed) {
        Problem problem = random_problem(seed, 5);
        for (Offer& offer : problem.pools[0].offers) {
            offer.starts = {0, 1, 2, 3, 4}; // every month
        }
        const Solution solution = solve(problem);
        REQUIRE(solution.optimal);
        std::vector<Slot> slots;
        for (std::size_t o = 0; o < 2; ++o) {
            for (int t = 0; t < 5; ++t) {
                slots.push_back({0, o, t, 2});
            }
        }
        const double best = brute_force(problem, slots);
        INFO("seed " << seed);
        CHECK(solution.npv == Approx(best).epsilon(1e-9).margin(1e-6));
        CHECK(evaluate(problem, solution.purchases, solution.assignment) ==
              Approx(solution.npv).epsilon(1e-9).margin(1e-6));
    }
}

TEST_CASE("start months at demand rises lose at most 8% against every month, on random demand",
          "[fleet]") {
    // Measured: on 300 random instances the restriction matches every-month starts in 285 and
    // loses at most 7.7% (mean 2.7% where it loses); erratic random demand is its worst case.
    int worse = 0;
    for (std::uint32_t seed = 1; seed <= 300; ++seed) {
        Problem all = random_problem(seed, 5);
        for (Offer& offer : all.pools[0].offers) {
            offer.starts = {0, 1, 2, 3, 4};
        }
        Problem restricted = random_problem(seed, 5);
        candidate_starts(restricted);
        const double exact = solve(all).npv;
        const double near = solve(restricted).npv;
        INFO("seed " << seed);
        CHECK(near >= exact - 1e-6);
        CHECK(near <= exact * 1.08);
        worse += near > exact + 1e-6 ? 1 : 0;
    }
    CHECK(worse <= 15);
}

TEST_CASE("constant 8 GPUs and a 3-month burst: commit 8 for three years, burst on demand",
          "[fleet]") {
    const Planned planned = plan_fixture("base-and-burst.yaml", "catalog.yaml");
    const Solution& s = planned.solution;
    REQUIRE(s.optimal);
    REQUIRE(s.purchases.size() == 1);
    CHECK(units_of(s, planned.problem, PurchaseOption::reserved_3y) == 1);
    CHECK(s.purchases[0].start == 0);
    CHECK(planned.plan.commitments[0].gpu_count == 8);
    check_against_brute_force(planned.problem, rise_slots(planned.problem, 2));
    // The burst: 3 months x 5,840 GPU-hours on demand.
    CHECK(planned.plan.months[12].on_demand_gpu_hours == Approx(8 * 730.0));
    CHECK(planned.plan.idle_gpu_hours == Approx(0.0).margin(1e-6));
}

TEST_CASE("demand rising from 8 to 64 GPUs is covered by staggered commitments", "[fleet]") {
    const Planned planned = plan_fixture("rising.yaml", "catalog.yaml");
    const Solution& s = planned.solution;
    REQUIRE(s.optimal);
    CHECK(units_of(s, planned.problem, PurchaseOption::reserved_3y) >= 1);
    CHECK(units_of(s, planned.problem, PurchaseOption::reserved_1y) >= 1);
    std::vector<int> starts;
    for (const Purchase& p : s.purchases) {
        starts.push_back(p.start);
    }
    CHECK(std::adjacent_find(starts.begin(), starts.end(), std::not_equal_to<>()) !=
          starts.end()); // bought in more than one month
    CHECK(s.npv < planned.plan.best_single->npv);

    // A smaller rise (8, 16, 24 GPUs from months 0, 6, 12 over 24 months) searched exhaustively.
    Portfolio small = fixture_portfolio("rising.yaml");
    small.horizon_months = 24;
    small.entries.resize(5);
    small.entries.erase(small.entries.begin() + 1); // starts 0, 6, 9, 12
    small.entries.erase(small.entries.begin() + 2); // starts 0, 6, 12
    for (Entry& e : small.entries) {
        e.workload.horizon_months = 24.0 - e.start_month;
    }
    const std::vector<TextFile> files{{"catalog.yaml", fixture("fleet/catalog.yaml")}};
    const catalog::Catalog catalog = catalog::load_catalog(files);
    const Planned p = plan_fleet(small, catalog, nullptr, {}, {});
    REQUIRE(p.solution.optimal);
    check_against_brute_force(p.problem, rise_slots(p.problem, 3));
}

TEST_CASE("owning wins for the base load when a server is cheaper than a 3-year term", "[fleet]") {
    // Servers are bought on a quote: a soft commitment the user accepts.
    const Planned planned = plan_fixture("owned-base.yaml", "owned-catalog.yaml", true);
    const Solution& s = planned.solution;
    REQUIRE(s.optimal);
    CHECK(units_of(s, planned.problem, PurchaseOption::self_built) == 1);
    CHECK(units_of(s, planned.problem, PurchaseOption::reserved_3y) == 0);
    check_against_brute_force(planned.problem, rise_slots(planned.problem, 2));
}

TEST_CASE("short jobs only: commit nothing", "[fleet]") {
    const Planned planned = plan_fixture("short-jobs.yaml", "catalog.yaml");
    REQUIRE(planned.solution.optimal);
    CHECK(planned.solution.purchases.empty());
    CHECK(planned.plan.npv == Approx(planned.plan.all_on_demand_npv));
    check_against_brute_force(planned.problem, rise_slots(planned.problem, 2));
}

TEST_CASE("a portfolio's problems are reported together at their places", "[fleet]") {
    const FileLoader none = [](const std::string&, std::string& why) -> std::optional<TextFile> {
        why = "not found";
        return std::nullopt;
    };
    const TextFile file{"p.yaml", "schema_version: 1\nhorizon_months: 12\nworkloads:\n"
                                  "  - {file: a.yaml, start_month: 12}\n"};
    try {
        (void)read_portfolio(file, none);
        FAIL("no error");
    } catch (const InputError& error) {
        REQUIRE(error.diagnostics().size() == 2);
        CHECK(error.diagnostics()[0].message.find("cannot read workload file") !=
              std::string::npos);
        CHECK(error.diagnostics()[1].line == 4);
    }
}

TEST_CASE("by default a fleet buys no server: it is priced from surveys and bought on a quote",
          "[fleet]") {
    const Planned planned = plan_fixture("owned-base.yaml", "owned-catalog.yaml");
    REQUIRE(planned.solution.optimal);
    CHECK(units_of(planned.solution, planned.problem, PurchaseOption::self_built) == 0);
}

namespace {

// Ten 8-GPU services starting one month apart over 120 months: a search GLPK does not finish in
// a minute.
Portfolio staggered_services(std::size_t count = 10) {
    Portfolio p = fixture_portfolio("rising.yaml");
    p.horizon_months = 120;
    p.entries.resize(1);
    while (p.entries.size() < count) {
        p.entries.push_back(p.entries.front());
    }
    for (std::size_t i = 0; i < p.entries.size(); ++i) {
        p.entries[i].start_month = static_cast<int>(i);
        p.entries[i].workload.horizon_months = 120.0 - static_cast<double>(i);
    }
    return p;
}

} // namespace

TEST_CASE("a tiny solver budget gives the best plan found with its proven gap", "[fleet]") {
    const std::vector<TextFile> files{{"catalog.yaml", fixture("fleet/catalog.yaml")}};
    const catalog::Catalog catalog = catalog::load_catalog(files);
    SolverBudget budget;
    budget.seconds = 1e-6;
    const Planned planned = plan_fleet(staggered_services(), catalog, nullptr, {}, {}, budget);
    const FleetPlan& plan = planned.plan;
    REQUIRE_FALSE(plan.optimal);
    REQUIRE(plan.best_bound);
    REQUIRE(plan.gap);
    CHECK(*plan.gap > 0.0);
    CHECK(*plan.best_bound <= plan.npv);
    CHECK(*plan.gap == Approx((plan.npv - *plan.best_bound) / std::abs(plan.npv)));
    CHECK(plan.npv <= plan.all_on_demand_npv + 1e-6);
    CHECK(plan.solver_seconds == 1e-6);
    CHECK(plan.columns > 0);
    if (plan.commitments.empty()) { // the search found nothing in its time: all on demand
        CHECK(plan.npv == Approx(plan.all_on_demand_npv));
        CHECK(
            std::any_of(plan.assumptions.begin(), plan.assumptions.end(), [](const std::string& a) {
                return a.rfind("solver: the search", 0) == 0;
            }));
    }
    CHECK(plan.rows > 0);
    // The bound is below what the program could ever reach.
    CHECK(*plan.best_bound <= solve(planned.problem).npv + 1e-6);
}

TEST_CASE("a small portfolio is proven optimal within the default budget with no gap", "[fleet]") {
    const Planned planned = plan_fixture("rising.yaml", "catalog.yaml");
    const FleetPlan& plan = planned.plan;
    REQUIRE(plan.optimal);
    REQUIRE(plan.gap);
    CHECK(*plan.gap == 0.0);
    REQUIRE(plan.best_bound);
    CHECK(*plan.best_bound == Approx(plan.npv));
    CHECK(plan.solver_seconds == k_default_solver_seconds);
}

TEST_CASE("the closed-form on-demand plan and lower bound agree with the solver", "[fleet]") {
    const Planned planned = plan_fixture("rising.yaml", "catalog.yaml");
    SolveOptions none;
    none.commitments = false;
    const Solution solved = solve(planned.problem, none);
    const Solution closed = on_demand_plan(planned.problem);
    REQUIRE(solved.optimal);
    CHECK(closed.npv == Approx(solved.npv));
    CHECK(closed.assignment == solved.assignment);
    CHECK(closed.purchases.empty());
    CHECK(closed.npv == Approx(evaluate(planned.problem, closed.purchases, closed.assignment)));
    const std::optional<double> bound = lower_bound(planned.problem);
    REQUIRE(bound);
    CHECK(*bound <= planned.solution.npv + 1e-6);
    CHECK(*bound > 0.0);
}

// One pool of 8-GPU units, 1-year terms at 60% of on demand, and 3-GPU jobs of 30 months
// starting every 3 months: units never match demand, so the LP relaxation is fractional and
// GLPK must branch.
Problem fractional_problem() {
    Problem problem;
    problem.horizon_months = 120;
    Pool pool;
    pool.gpu = "X";
    pool.on_demand_per_gpu_hour = 1.0;
    Offer offer;
    offer.term_months = 12;
    offer.gpus_per_unit = 8;
    offer.npv_by_start.assign(120, 0.6 * 8 * 730.0 * 12);
    pool.offers.push_back(offer);
    problem.pools.push_back(pool);
    for (int i = 0; i < 30; ++i) {
        Demand d;
        d.gpus = 3;
        d.hours.assign(120, 0.0);
        for (int k = 3 * i; k < std::min(120, 3 * i + 30); ++k) {
            d.hours[static_cast<std::size_t>(k)] = 730.0;
        }
        problem.jobs.push_back(Job{"job", false, {d}});
    }
    candidate_starts(problem);
    return problem;
}

TEST_CASE("a search stopped by its node limit keeps the best bound of its open subproblems",
          "[fleet]") {
    const Problem problem = fractional_problem();
    SolveOptions stopped;
    stopped.max_branch_nodes = 200;
    const Solution early = solve(problem, stopped);
    REQUIRE(early.found);
    REQUIRE_FALSE(early.optimal);
    REQUIRE(early.bound);
    CHECK(*early.bound < early.npv);
    // The LP relaxation (the root's bound) is at least the closed form, which relaxes it.
    CHECK(*early.bound >= *lower_bound(problem) - 1e-6);
    // A longer search finds a plan no cheaper than the bound.
    SolveOptions longer_options;
    longer_options.max_branch_nodes = 1'000;
    const Solution longer = solve(problem, longer_options);
    REQUIRE(longer.found);
    CHECK(*early.bound <= longer.npv + 1e-6);
}

#include "gpuplan/fleet/model.hpp"
#include "gpuplan/units.hpp"
#include "mip/program.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace gpuplan::fleet {

namespace {

using mip::Program;

constexpr double k_month_hours = k_hours_per_month;

// The months (1..H) in which one unit of `offer` ordered at `start` adds capacity.
std::pair<int, int> active_months(const Offer& offer, int start, int horizon) {
    const int first = start + offer.lead_months + 1;
    const int last = offer.purchase == PurchaseOption::self_built
                         ? horizon
                         : std::min(horizon, start + offer.lead_months + offer.term_months);
    return {first, last};
}

double scale_of(const SolveOptions& options, std::size_t job) {
    return job < options.demand_scale.size() ? options.demand_scale[job] : 1.0;
}

// One job's candidate active in a pool's month: its GPUs, its hours and whether it may use spot.
struct Active {
    std::size_t job = 0;
    std::size_t candidate = 0;
    double gpus = 0.0;
    double hours = 0.0;
    bool interruptible = false;
};

// A pool's month cut at every distinct job length: segment i runs from bounds[i-1] (0 for the
// first) to bounds[i]; a job working h hours works in every segment whose bound is <= h.
struct Segments {
    std::vector<double> bounds;
    std::vector<Active> active;

    [[nodiscard]] double length(std::size_t i) const {
        return bounds[i] - (i == 0 ? 0.0 : bounds[i - 1]);
    }
    [[nodiscard]] static bool works_in(const Active& a, double bound) {
        return a.hours >= bound - 1e-9;
    }
};

// segments[pool][k - 1].
std::vector<std::vector<Segments>> segments_of(const Problem& problem,
                                               const SolveOptions& options) {
    const auto months = static_cast<std::size_t>(problem.horizon_months);
    std::vector<std::vector<Segments>> out(problem.pools.size(), std::vector<Segments>(months));
    for (std::size_t j = 0; j < problem.jobs.size(); ++j) {
        const Job& job = problem.jobs[j];
        for (std::size_t c = 0; c < job.candidates.size(); ++c) {
            const Demand& d = job.candidates[c];
            for (std::size_t k = 0; k < std::min(months, d.hours.size()); ++k) {
                if (d.hours[k] > 1e-9) {
                    out[d.pool][k].active.push_back({j, c, d.gpus * scale_of(options, j),
                                                     std::min(d.hours[k], k_month_hours),
                                                     job.interruptible});
                }
            }
        }
    }
    for (auto& pool : out) {
        for (Segments& s : pool) {
            std::set<double> bounds;
            for (const Active& a : s.active) {
                bounds.insert(a.hours);
            }
            s.bounds.assign(bounds.begin(), bounds.end());
        }
    }
    return out;
}

double discount(const Problem& problem, int month) {
    return std::pow(1.0 + problem.monthly_rate, -month);
}

// The rate an uncovered GPU-hour of an active job pays in a pool.
double uncovered_rate(const Pool& pool, bool interruptible) {
    return interruptible && pool.spot_per_gpu_hour
               ? std::min(pool.on_demand_per_gpu_hour, *pool.spot_per_gpu_hour)
               : pool.on_demand_per_gpu_hour;
}

// The most units of an offer a pool could ever use: its largest month's demand, all candidates.
int max_units(const std::vector<Segments>& months, int gpus_per_unit) {
    double most = 0.0;
    for (const Segments& s : months) {
        double sum = 0.0;
        for (const Active& a : s.active) {
            sum += a.gpus;
        }
        most = std::max(most, sum);
    }
    return static_cast<int>(std::ceil(most / gpus_per_unit - 1e-9));
}

// Bounds of a purchase column under the options.
std::pair<double, double> purchase_bounds(const Offer& offer, const SolveOptions& options,
                                          std::size_t pool, std::size_t index, int start,
                                          int most) {
    if (options.fixed) {
        for (const Purchase& p : *options.fixed) {
            if (p.pool == pool && p.offer == index && p.start == start) {
                return {p.units, p.units};
            }
        }
        return {0.0, 0.0};
    }
    if (!options.commitments || (options.only && *options.only != offer.purchase)) {
        return {0.0, 0.0};
    }
    return {0.0, static_cast<double>(most)};
}

struct Columns {
    std::vector<std::vector<int>> x; // [job][candidate]; 0 = fixed at 1
    struct Buy {
        Purchase purchase;
        int col = 0;
        int gpus = 0;
        int first = 0;
        int last = 0;
    };
    std::vector<Buy> buys;
    struct Cell {
        std::size_t pool = 0;
        std::size_t month = 0; // k - 1
        std::size_t segment = 0;
        int used = 0;
        int on_demand = 0;
        int spot = 0; // 0 = none
    };
    std::vector<Cell> cells;
};

void add_purchases(const Problem& problem, const SolveOptions& options,
                   const std::vector<std::vector<Segments>>& segments, Program& program,
                   Columns& cols) {
    for (std::size_t p = 0; p < problem.pools.size(); ++p) {
        const Pool& pool = problem.pools[p];
        for (std::size_t o = 0; o < pool.offers.size(); ++o) {
            const Offer& offer = pool.offers[o];
            const int most = max_units(segments[p], offer.gpus_per_unit);
            for (const int start : offer.starts) {
                const auto [first, last] = active_months(offer, start, problem.horizon_months);
                if (first > last || static_cast<std::size_t>(start) >= offer.npv_by_start.size()) {
                    continue;
                }
                const auto [lower, upper] = purchase_bounds(offer, options, p, o, start, most);
                const int col = program.column(lower, upper,
                                               offer.npv_by_start[static_cast<std::size_t>(start)],
                                               mip::Kind::integer);
                cols.buys.push_back({{p, o, start, 0}, col, offer.gpus_per_unit, first, last});
            }
        }
    }
}

void add_cells(const Problem& problem, const std::vector<std::vector<Segments>>& segments,
               Program& program, Columns& cols) {
    for (std::size_t p = 0; p < problem.pools.size(); ++p) {
        const Pool& pool = problem.pools[p];
        for (std::size_t k = 0; k < segments[p].size(); ++k) {
            const Segments& s = segments[p][k];
            const double df = discount(problem, static_cast<int>(k) + 1);
            for (std::size_t i = 0; i < s.bounds.size(); ++i) {
                Columns::Cell cell{p, k, i};
                const double len = s.length(i);
                cell.used = program.free_column(0.0);
                cell.on_demand = program.free_column(len * df * pool.on_demand_per_gpu_hour);
                const bool flexible =
                    std::any_of(s.active.begin(), s.active.end(), [&](const Active& a) {
                        return a.interruptible && Segments::works_in(a, s.bounds[i]);
                    });
                if (flexible && pool.spot_per_gpu_hour) {
                    cell.spot = program.free_column(len * df * *pool.spot_per_gpu_hour);
                }
                cols.cells.push_back(cell);
            }
        }
    }
}

// The demand row of a cell (used + on-demand + spot = the working jobs' GPUs) and its spot row
// (spot only for interruptible jobs).
void add_demand_rows(const Segments& s, const Columns::Cell& cell, Program& program,
                     const Columns& cols) {
    const double bound = s.bounds[cell.segment];
    std::vector<std::pair<int, double>> demand{{cell.used, 1.0}, {cell.on_demand, 1.0}};
    std::vector<std::pair<int, double>> spot;
    double fixed = 0.0;
    double fixed_spot = 0.0;
    if (cell.spot != 0) {
        demand.emplace_back(cell.spot, 1.0);
        spot.emplace_back(cell.spot, 1.0);
    }
    for (const Active& a : s.active) {
        if (!Segments::works_in(a, bound)) {
            continue;
        }
        const int x = cols.x[a.job][a.candidate];
        const bool flexible = a.interruptible && cell.spot != 0;
        if (x == 0) {
            fixed += a.gpus;
            fixed_spot += flexible ? a.gpus : 0.0;
            continue;
        }
        demand.emplace_back(x, -a.gpus);
        if (flexible) {
            spot.emplace_back(x, -a.gpus);
        }
    }
    program.equal(demand, fixed);
    if (cell.spot != 0) {
        program.at_most(spot, fixed_spot);
    }
}

// Demand rows, and the capacity row: used within the capacity bought.
void add_rows(const std::vector<std::vector<Segments>>& segments, Program& program,
              const Columns& cols) {
    for (const Columns::Cell& cell : cols.cells) {
        add_demand_rows(segments[cell.pool][cell.month], cell, program, cols);
        std::vector<std::pair<int, double>> capacity{{cell.used, 1.0}};
        const int month = static_cast<int>(cell.month) + 1;
        for (const Columns::Buy& buy : cols.buys) {
            if (buy.purchase.pool == cell.pool && buy.first <= month && month <= buy.last) {
                capacity.emplace_back(buy.col, -static_cast<double>(buy.gpus));
            }
        }
        program.at_most(capacity, 0.0);
    }
}

Solution read_solution(const Problem& problem, const std::vector<std::vector<Segments>>& segments,
                       const Program& program, const Columns& cols) {
    Solution out;
    out.found = true;
    out.npv = program.objective();
    out.optimal = program.optimal();
    out.bound = program.bound();
    out.columns = program.columns();
    out.rows = program.rows();
    out.integer_columns = program.integers();
    for (std::size_t j = 0; j < problem.jobs.size(); ++j) {
        std::size_t best = 0;
        double best_value = -1.0;
        for (std::size_t c = 0; c < cols.x[j].size(); ++c) {
            const double v = cols.x[j][c] == 0 ? 1.0 : program.value(cols.x[j][c]);
            if (v > best_value + 1e-9) {
                best_value = v;
                best = c;
            }
        }
        out.assignment.push_back(best);
    }
    for (const Columns::Buy& buy : cols.buys) {
        const int units = static_cast<int>(std::lround(program.value(buy.col)));
        if (units > 0) {
            Purchase p = buy.purchase;
            p.units = units;
            out.purchases.push_back(p);
        }
    }
    const auto months = static_cast<std::size_t>(problem.horizon_months);
    out.months.assign(problem.pools.size(), std::vector<PoolMonth>(months));
    for (const Columns::Buy& buy : cols.buys) {
        const double units = std::round(program.value(buy.col));
        for (int k = buy.first; k <= buy.last; ++k) {
            out.months[buy.purchase.pool][static_cast<std::size_t>(k) - 1].capacity +=
                units * buy.gpus * k_month_hours;
        }
    }
    for (const Columns::Cell& cell : cols.cells) {
        const double len = segments[cell.pool][cell.month].length(cell.segment);
        PoolMonth& m = out.months[cell.pool][cell.month];
        const double used = program.value(cell.used);
        const double od = program.value(cell.on_demand);
        const double spot = cell.spot != 0 ? program.value(cell.spot) : 0.0;
        m.used += len * used;
        m.on_demand += len * od;
        m.spot += len * spot;
        m.demand += len * (used + od + spot);
    }
    return out;
}

// When a pool's candidate demand rises (0-based start months, 0 always) and when it has any.
struct Need {
    std::set<int> rises{0};
    std::set<int> busy;
};

Need need_of(const Problem& problem, std::size_t pool) {
    Need out;
    std::vector<double> gpus(static_cast<std::size_t>(problem.horizon_months), 0.0);
    std::vector<double> gpu_hours(gpus.size(), 0.0);
    for (const Job& job : problem.jobs) {
        for (const Demand& d : job.candidates) {
            for (std::size_t k = 0; d.pool == pool && k < std::min(gpus.size(), d.hours.size());
                 ++k) {
                if (d.hours[k] > 1e-9) {
                    gpus[k] += d.gpus;
                    gpu_hours[k] += d.gpus * d.hours[k];
                    out.busy.insert(static_cast<int>(k));
                }
            }
        }
    }
    for (std::size_t k = 1; k < gpus.size(); ++k) {
        if (gpus[k] > gpus[k - 1] + 1e-9 || gpu_hours[k] > gpu_hours[k - 1] + 1e-6) {
            out.rises.insert(static_cast<int>(k));
        }
    }
    return out;
}

std::vector<int> starts_for(const Offer& offer, const Need& need, int horizon) {
    std::set<int> starts;
    if (offer.purchase == PurchaseOption::subscription_monthly) {
        starts = need.busy;
    } else if (offer.purchase == PurchaseOption::self_built) {
        for (const int t : need.rises) {
            starts.insert(std::max(0, t - offer.lead_months));
        }
    } else {
        for (const int t : need.rises) {
            for (int s = t; s < horizon; s += offer.term_months) {
                starts.insert(s);
            }
        }
    }
    return {starts.begin(), starts.end()};
}

} // namespace

void candidate_starts(Problem& problem) {
    const int h = problem.horizon_months;
    for (std::size_t p = 0; p < problem.pools.size(); ++p) {
        const Need need = need_of(problem, p);
        for (Offer& offer : problem.pools[p].offers) {
            if (offer.starts.empty()) {
                offer.starts = starts_for(offer, need, h);
            }
        }
    }
}

Solution solve(const Problem& problem, const SolveOptions& options) {
    const auto segments = segments_of(problem, options);
    Program program;
    Columns cols;
    cols.x.resize(problem.jobs.size());
    std::vector<std::pair<int, double>> none;
    for (std::size_t j = 0; j < problem.jobs.size(); ++j) {
        const std::size_t n = problem.jobs[j].candidates.size();
        if (n == 1) {
            cols.x[j] = {0};
            continue;
        }
        std::vector<std::pair<int, double>> one;
        for (std::size_t c = 0; c < n; ++c) {
            cols.x[j].push_back(program.column(0.0, 1.0, 0.0, mip::Kind::binary));
            one.emplace_back(cols.x[j].back(), 1.0);
        }
        program.equal(one, 1.0);
    }
    add_purchases(problem, options, segments, program, cols);
    add_cells(problem, segments, program, cols);
    add_rows(segments, program, cols);
    if (!program.solve(options.max_branch_nodes, options.time_limit_ms)) {
        Solution nothing;
        nothing.bound = program.bound();
        nothing.columns = program.columns();
        nothing.rows = program.rows();
        nothing.integer_columns = program.integers();
        return nothing;
    }
    return read_solution(problem, segments, program, cols);
}

double evaluate(const Problem& problem, std::span<const Purchase> purchases,
                std::span<const std::size_t> assignment, std::span<const double> demand_scale) {
    SolveOptions options;
    options.demand_scale.assign(demand_scale.begin(), demand_scale.end());
    double total = 0.0;
    std::vector<std::vector<double>> capacity(
        problem.pools.size(),
        std::vector<double>(static_cast<std::size_t>(problem.horizon_months)));
    for (const Purchase& p : purchases) {
        const Offer& offer = problem.pools[p.pool].offers[p.offer];
        total += p.units * offer.npv_by_start[static_cast<std::size_t>(p.start)];
        const auto [first, last] = active_months(offer, p.start, problem.horizon_months);
        for (int k = first; k <= last; ++k) {
            capacity[p.pool][static_cast<std::size_t>(k) - 1] += p.units * offer.gpus_per_unit;
        }
    }
    const auto segments = segments_of(problem, options);
    for (std::size_t p = 0; p < problem.pools.size(); ++p) {
        const Pool& pool = problem.pools[p];
        for (std::size_t k = 0; k < segments[p].size(); ++k) {
            const Segments& s = segments[p][k];
            for (std::size_t i = 0; i < s.bounds.size(); ++i) {
                // The working jobs' GPUs by the rate they pay uncovered, dearest covered first.
                std::map<double, double, std::greater<>> by_rate;
                for (const Active& a : s.active) {
                    if (assignment[a.job] == a.candidate && Segments::works_in(a, s.bounds[i])) {
                        by_rate[uncovered_rate(pool, a.interruptible)] += a.gpus;
                    }
                }
                double left = capacity[p][k];
                double cost = 0.0;
                for (const auto& [rate, gpus] : by_rate) {
                    const double covered = std::min(left, gpus);
                    left -= covered;
                    cost += rate * (gpus - covered);
                }
                total += cost * s.length(i) * discount(problem, static_cast<int>(k) + 1);
            }
        }
    }
    return total;
}

namespace {

// A demand's GPU-hours in each month, discounted to month 0, summed.
double discounted_gpu_hours(const Problem& problem, const Demand& d) {
    double out = 0.0;
    const auto months = static_cast<std::size_t>(problem.horizon_months);
    for (std::size_t k = 0; k < std::min(months, d.hours.size()); ++k) {
        if (d.hours[k] > 1e-9) {
            out += std::min(d.hours[k], k_month_hours) * d.gpus *
                   discount(problem, static_cast<int>(k) + 1);
        }
    }
    return out;
}

// The least a pool's commitments cost per discounted GPU-hour of capacity: the lowest NPV of a
// unit over the discounted GPU-hours it adds; nullopt when an offer costs less than nothing,
// which no such rate bounds.
std::optional<double> committed_rate(const Problem& problem, const Pool& pool) {
    double best = std::numeric_limits<double>::infinity();
    for (const Offer& offer : pool.offers) {
        for (const int start : offer.starts) {
            const auto [first, last] = active_months(offer, start, problem.horizon_months);
            if (first > last || static_cast<std::size_t>(start) >= offer.npv_by_start.size()) {
                continue;
            }
            const double npv = offer.npv_by_start[static_cast<std::size_t>(start)];
            if (npv < 0.0) {
                return std::nullopt;
            }
            double hours = 0.0;
            for (int k = first; k <= last; ++k) {
                hours += k_month_hours * offer.gpus_per_unit * discount(problem, k);
            }
            best = std::min(best, npv / hours);
        }
    }
    return best;
}

} // namespace

Solution on_demand_plan(const Problem& problem) {
    Solution out;
    out.found = true;
    out.optimal = true;
    const auto months = static_cast<std::size_t>(problem.horizon_months);
    out.months.assign(problem.pools.size(), std::vector<PoolMonth>(months));
    out.assignment.reserve(problem.jobs.size());
    for (const Job& job : problem.jobs) {
        std::size_t best = 0;
        double best_npv = std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < job.candidates.size(); ++c) {
            const Demand& d = job.candidates[c];
            const double npv = discounted_gpu_hours(problem, d) *
                               uncovered_rate(problem.pools[d.pool], job.interruptible);
            if (npv < best_npv) {
                best_npv = npv;
                best = c;
            }
        }
        out.assignment.push_back(best);
        out.npv += job.candidates.empty() ? 0.0 : best_npv;
        if (job.candidates.empty()) {
            continue;
        }
        const Demand& d = job.candidates[best];
        const Pool& pool = problem.pools[d.pool];
        const bool spot = job.interruptible && pool.spot_per_gpu_hour &&
                          *pool.spot_per_gpu_hour < pool.on_demand_per_gpu_hour;
        for (std::size_t k = 0; k < std::min(months, d.hours.size()); ++k) {
            const double gpu_hours = std::min(d.hours[k], k_month_hours) * d.gpus;
            if (d.hours[k] > 1e-9) {
                PoolMonth& m = out.months[d.pool][k];
                m.demand += gpu_hours;
                (spot ? m.spot : m.on_demand) += gpu_hours;
            }
        }
    }
    out.bound = out.npv;
    return out;
}

std::optional<double> lower_bound(const Problem& problem) {
    std::vector<double> committed;
    committed.reserve(problem.pools.size());
    for (const Pool& pool : problem.pools) {
        const std::optional<double> rate = committed_rate(problem, pool);
        if (!rate) {
            return std::nullopt;
        }
        committed.push_back(*rate);
    }
    double out = 0.0;
    for (const Job& job : problem.jobs) {
        double least = job.candidates.empty() ? 0.0 : std::numeric_limits<double>::infinity();
        for (const Demand& d : job.candidates) {
            const double rate = std::min(committed[d.pool],
                                         uncovered_rate(problem.pools[d.pool], job.interruptible));
            least = std::min(least, discounted_gpu_hours(problem, d) * rate);
        }
        out += least;
    }
    return out;
}

} // namespace gpuplan::fleet

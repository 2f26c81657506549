#include "gpuplan/recommend/uncertainty.hpp"

#include "gpuplan/cost/cash_flows.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/finance/finance.hpp"
#include "gpuplan/recommend/recommend.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <numbers>
#include <tuple>

namespace gpuplan::recommend {

namespace {

using cost::Item;
using cost::k_item_count;

constexpr double k_infinity = std::numeric_limits<double>::infinity();
// A median absolute relative error m of a lognormal factor is sigma = ln(1 + m) / z(0.75).
constexpr double k_z75 = 0.6744897501960817;
// docs/methodology.md C14: the estimator's median error per task kind, out of sample.
constexpr double k_training_error = 0.261; // the published-runs table, out-of-sample rows
constexpr double k_serving_error = 0.20;   // held-out serving checks: 9.4% dense, 31.5% newer
// Share of the estimator's log-error common to every GPU model (gpuplan's assumption).
constexpr double k_common_error_share = 0.5;
// Median relative error of a price by basis, before age (docs/methodology.md C14).
constexpr double k_list_error = 0.02;
constexpr double k_snapshot_error = 0.08;
constexpr double k_derived_error = 0.15;
constexpr double k_negotiated_error = 0.02;
constexpr double k_quote_error = 0.15;
// Median relative drift of a price per year of age (lists moved 20-45% within a year).
constexpr double k_price_drift_per_year = 0.25;
// The age an undated price is drawn at: the limit past which a dated one is no firm answer.
constexpr double k_undated_age_years = cost::k_max_firm_price_age_days / 365.25;
// A sourced spot rate is drawn within / and x this factor; a placeholder within k_spot_rate_swing.
constexpr double k_sourced_spot_factor = 2.0;
// Annual volatility of an exchange rate the catalog dates only once.
constexpr double k_default_fx_sigma = 0.05;
// Flip search: bisection steps, and the MFU range searched.
constexpr int k_bisection_steps = 30;
// Draws of each run that freezes one input to find the one that decides (the same seed, so
// the runs differ only by the frozen input).
constexpr int k_deciding_draws = 500;
// Bisection steps on the whole pipeline (each one re-prices every option).
constexpr int k_pipeline_steps = 10;
constexpr double k_min_mfu = 0.02;
constexpr double k_max_mfu = 0.95;
constexpr double k_spot_rate_search = 16.0;

// splitmix64: a small, portable generator, so a seed gives the same draws on every platform.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31U);
    }
    // Uniform in (0, 1).
    double uniform() {
        constexpr double scale = 1.0 / 9007199254740992.0; // 2^-53
        return (static_cast<double>(next() >> 11U) + 0.5) * scale;
    }
    // Standard normal (Box-Muller), cut at k_draw_cut_sigmas.
    double normal() {
        const double r = std::sqrt(-2.0 * std::log(uniform()));
        const double z = r * std::cos(2.0 * std::numbers::pi * uniform());
        return std::clamp(z, -k_draw_cut_sigmas, k_draw_cut_sigmas);
    }

private:
    std::uint64_t m_state;
};

double sigma_of(double median_error) {
    return std::log1p(median_error) / k_z75;
}

bool priced_item(std::size_t item) {
    switch (static_cast<Item>(item)) {
    case Item::compute:
    case Item::upfront:
    case Item::commitment:
    case Item::bridge:
    case Item::capex:
    case Item::maintenance:
    case Item::resale:
        return true;
    default:
        return false;
    }
}

bool hourly_item(std::size_t item) {
    const auto kind = static_cast<Item>(item);
    return kind == Item::compute || kind == Item::power || kind == Item::storage;
}

// Which inputs a draw moves (all of them, or all but one frozen at its value).
struct Frozen {
    std::optional<UncertainInput> input;
    [[nodiscard]] bool moves(UncertainInput i) const { return input != i; }
};

// A drawn option: its priced figures split into the parts each input moves.
struct Drawn {
    const cost::Option* option = nullptr;
    std::size_t group = 0;
    bool firm = true;
    // NPV and undiscounted total of the items each factor applies to.
    double npv_priced_hourly = 0.0, npv_priced = 0.0, npv_hourly = 0.0, npv_fixed = 0.0;
    double total_priced_hourly = 0.0, total_priced = 0.0, total_hourly = 0.0, total_fixed = 0.0;
    double wall = 0.0;
    double startup = 0.0;
    double judged_ratio = 1.0; // judged wall time (P90 or at the deadline confidence) / wall
    std::size_t gpu_key = 0;
    std::size_t price_key = 0;
    double row_sigma = 0.0;   // this offer's own price error (its basis), drawn alone
    double drift_sigma = 0.0; // drift with age, shared by the provider's product (price_key)
    std::optional<std::size_t> spot_key;
    double spot_span = 1.0; // the rate is drawn within / and x this
    cost::SpotRisk spot;
    int spot_nodes = 1;
    double spot_wall_factor = 1.0;
    std::optional<std::size_t> fx_key;
    // A service: the speed factor it needs for its request rate (times the demand factor) and
    // for its time targets, and its first time target's modelled time.
    double need_rate = 0.0;
    double need_time = 0.0;
    std::optional<double> latency_ms;
};

// Keys interned in first-seen order.
class Keys {
public:
    std::size_t intern(const std::string& key) {
        const auto [it, inserted] = m_index.emplace(key, m_index.size());
        return it->second;
    }
    [[nodiscard]] std::size_t size() const { return m_index.size(); }

private:
    std::map<std::string, std::size_t> m_index;
};

// The spreads of one run, and the keys its draws are shared by.
struct Model {
    double estimate_sigma = 0.0;
    bool inference = false;
    std::vector<Drawn> drawn;
    std::size_t gpus = 0;
    std::size_t prices = 0;
    std::size_t spots = 0;
    std::vector<double> fx_sigma; // per fx key
    std::optional<workload::FactorRange> utilisation;
    std::optional<workload::FactorRange> demand;
    std::optional<double> deadline;
    std::optional<double> budget; // output currency
    rank::Objective objective = rank::Objective::cost;
    rank::Soft soft = rank::Soft::after;
};

// One draw's figures of every drawn option.
struct Outcome {
    std::vector<double> npv, total, wall, latency;
    std::vector<char> meets;
    std::optional<std::size_t> best;
};

class Drawer {
public:
    explicit Drawer(const Model& model) : m_model(model) {}

    void draw(Rng& rng, const Frozen& frozen, Outcome& out) {
        const Model& m = m_model;
        const double common = rng.normal();
        m_speed.assign(m.gpus, 1.0);
        for (double& s : m_speed) {
            const double z = std::sqrt(k_common_error_share) * common +
                             std::sqrt(1.0 - k_common_error_share) * rng.normal();
            s = frozen.moves(UncertainInput::estimate) ? std::exp(m.estimate_sigma * z) : 1.0;
        }
        m_price.assign(m.prices, 0.0);
        for (double& z : m_price) {
            z = rng.normal();
        }
        m_row.assign(m.drawn.size(), 0.0);
        for (double& z : m_row) {
            z = rng.normal();
        }
        m_spot.assign(m.spots, 0.0);
        for (double& u : m_spot) {
            u = 2.0 * rng.uniform() - 1.0;
        }
        m_fx.assign(m.fx_sigma.size(), 1.0);
        for (std::size_t k = 0; k < m_fx.size(); ++k) {
            const double z = rng.normal();
            m_fx[k] = frozen.moves(UncertainInput::fx) ? std::exp(m.fx_sigma[k] * z) : 1.0;
        }
        const double u_draw = rng.uniform();
        const double d_draw = rng.uniform();
        const double utilisation =
            m.utilisation && frozen.moves(UncertainInput::utilisation)
                ? m.utilisation->low + (m.utilisation->high - m.utilisation->low) * u_draw
                : 1.0;
        const double demand = m.demand && frozen.moves(UncertainInput::demand)
                                  ? m.demand->low + (m.demand->high - m.demand->low) * d_draw
                                  : 1.0;
        const std::size_t n = m.drawn.size();
        out.npv.resize(n);
        out.total.resize(n);
        out.wall.resize(n);
        out.latency.resize(n);
        out.meets.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            figures(m.drawn[i], frozen, utilisation, demand, out, i);
        }
        out.best = best_of(out);
    }

private:
    void figures(const Drawn& d, const Frozen& frozen, double utilisation, double demand,
                 Outcome& out, std::size_t i) const {
        const Model& m = m_model;
        const double speed = m_speed[d.gpu_key];
        const double price =
            frozen.moves(UncertainInput::prices)
                ? std::exp(d.row_sigma * m_row[i] + d.drift_sigma * m_price[d.price_key])
                : 1.0;
        double hours = utilisation;
        if (!m.inference) {
            hours /= speed;
        }
        if (d.spot_key && frozen.moves(UncertainInput::spot_rate)) {
            cost::SpotRisk risk = d.spot;
            risk.interruption_rate_per_node_hour *= std::pow(d.spot_span, m_spot[*d.spot_key]);
            hours *= cost::spot_overhead(d.spot_nodes, risk).wall_factor / d.spot_wall_factor;
        }
        const double fx = d.fx_key ? m_fx[*d.fx_key] : 1.0;
        out.npv[i] = fx * (d.npv_priced_hourly * price * hours + d.npv_priced * price +
                           d.npv_hourly * hours + d.npv_fixed);
        out.total[i] = fx * (d.total_priced_hourly * price * hours + d.total_priced * price +
                             d.total_hourly * hours + d.total_fixed);
        const double work = m.inference ? d.wall : d.startup + (d.wall - d.startup) * hours;
        out.wall[i] = work;
        out.latency[i] = d.latency_ms ? *d.latency_ms / speed : 0.0;
        bool meets = true;
        if (m.deadline && !m.inference) {
            meets = work * d.judged_ratio <= *m.deadline + 1e-9;
        }
        if (m.budget) {
            meets = meets && out.total[i] <= *m.budget + 0.005;
        }
        if (m.inference) {
            meets = meets && speed >= std::max(d.need_rate * demand, d.need_time);
        }
        out.meets[i] = meets ? 1 : 0;
    }

    [[nodiscard]] std::optional<std::size_t> best_of(const Outcome& out) const {
        const Model& m = m_model;
        const std::size_t n = m.drawn.size();
        // With soft answers after firm ones, a firm option that meets every constraint wins
        // over any soft one.
        bool firm_meets = false;
        for (std::size_t i = 0; i < n && m.soft == rank::Soft::after; ++i) {
            firm_meets = firm_meets || (out.meets[i] != 0 && m.drawn[i].firm);
        }
        double best_npv = k_infinity;
        double best_wall = k_infinity;
        const auto eligible = [&](std::size_t i) {
            return out.meets[i] != 0 && (!firm_meets || m.drawn[i].firm);
        };
        for (std::size_t i = 0; i < n; ++i) {
            if (eligible(i)) {
                best_npv = std::min(best_npv, out.npv[i]);
                best_wall = std::min(best_wall, out.wall[i]);
            }
        }
        std::optional<std::size_t> best;
        double best_score = k_infinity;
        for (std::size_t i = 0; i < n; ++i) {
            if (!eligible(i)) {
                continue;
            }
            double score = out.npv[i];
            if (m.objective == rank::Objective::time) {
                score = out.wall[i];
            } else if (m.objective == rank::Objective::balanced) {
                score = (best_npv > 0.0 ? out.npv[i] / best_npv : 1.0) +
                        (best_wall > 0.0 ? out.wall[i] / best_wall : 1.0);
            }
            if (score < best_score) { // ties keep the better-ranked option
                best_score = score;
                best = i;
            }
        }
        return best;
    }

    const Model& m_model;
    std::vector<double> m_speed, m_price, m_row, m_spot, m_fx;
};

double price_error(const cost::Option& option) {
    switch (option.price_basis) {
    case cost::PriceBasis::list:
        return k_list_error;
    case cost::PriceBasis::snapshot:
        return k_snapshot_error;
    case cost::PriceBasis::derived:
        return k_derived_error;
    case cost::PriceBasis::negotiated:
        return k_negotiated_error;
    case cost::PriceBasis::quote:
        return k_quote_error;
    }
    return k_quote_error;
}

// The spread of an offer's own price (its basis, drawn alone) and of what it shares with the
// provider's product (drift with age; a derived discount), as lognormal sigmas.
std::pair<double, double> price_sigmas(const cost::Option& option, const std::optional<Date>& today,
                                       const UncertaintyInputs& inputs) {
    double basis = sigma_of(price_error(option));
    if (inputs.price_error && option.price_basis == cost::PriceBasis::list) {
        basis = sigma_of(*inputs.price_error);
    }
    double age_years = 0.0;
    if (!option.prices_as_of) {
        age_years = k_undated_age_years;
    } else if (today) {
        age_years = std::max(0.0, static_cast<double>(today->days_since_epoch() -
                                                      option.prices_as_of->days_since_epoch()) /
                                      365.25);
    }
    const double drift = sigma_of(k_price_drift_per_year) * age_years;
    // A derived commitment is one discount applied to every region: its error is shared.
    if (option.price_basis == cost::PriceBasis::derived) {
        return {0.0, std::hypot(basis, drift)};
    }
    return {basis, drift};
}

// The annual volatility of `currency` against the base, pooled over the catalog's dated rates.
double fx_annual_sigma(const catalog::Catalog& catalog, const std::string& currency) {
    std::vector<const catalog::FxRate*> rates;
    for (const catalog::FxRate& rate : catalog.fx.rates) {
        if (rate.currency == currency) {
            rates.push_back(&rate);
        }
    }
    std::sort(rates.begin(), rates.end(), [](const catalog::FxRate* a, const catalog::FxRate* b) {
        return a->as_of < b->as_of;
    });
    double squares = 0.0;
    double years = 0.0;
    for (std::size_t i = 1; i < rates.size(); ++i) {
        const double dt = static_cast<double>(rates[i]->as_of.days_since_epoch() -
                                              rates[i - 1]->as_of.days_since_epoch()) /
                          365.25;
        if (dt > 0.0 && rates[i]->per_base > 0.0 && rates[i - 1]->per_base > 0.0) {
            const double change = std::log(rates[i]->per_base / rates[i - 1]->per_base);
            squares += change * change;
            years += dt;
        }
    }
    return years > 0.0 ? std::sqrt(squares / years) : k_default_fx_sigma;
}

const cost::Note* spot_note(const cost::Plan& plan, const cost::Option& option) {
    for (const cost::NoteIndex index : option.notes) {
        if (plan.notes[index].kind == cost::NoteKind::spot_risk) {
            return &plan.notes[index];
        }
    }
    return nullptr;
}

void split_items(const cost::Plan& plan, const cost::Option& option, Drawn& d) {
    const std::size_t months = option.cash_flows.months.size();
    std::vector<double> series(months, 0.0);
    for (std::size_t item = 0; item < k_item_count; ++item) {
        for (std::size_t k = 0; k < months; ++k) {
            series[k] = option.cash_flows.months[k][item];
        }
        const double npv = finance::npv(plan.monthly_rate, series);
        const double total = option.item_totals[item];
        const bool priced = priced_item(item);
        const bool hourly = hourly_item(item);
        (priced && hourly ? d.npv_priced_hourly
         : priced         ? d.npv_priced
         : hourly         ? d.npv_hourly
                          : d.npv_fixed) += npv;
        (priced && hourly ? d.total_priced_hourly
         : priced         ? d.total_priced
         : hourly         ? d.total_hourly
                          : d.total_fixed) += total;
    }
}

// A service's needs (speed factors) and a training option's judged wall time, from the estimate
// of its configuration.
void estimate_needs(const Recommendation& r, const catalog::Catalog& catalog,
                    estimate::Memo& estimates, Drawn& d) {
    const cost::Option& o = *d.option;
    const workload::Workload& w = r.workload;
    const bool spot = o.purchase == PurchaseOption::spot;
    if (spot && o.p90_wall_hours && o.wall_hours > 0.0) {
        d.judged_ratio = *o.p90_wall_hours / o.wall_hours;
    }
    const bool needs_estimate =
        w.task == workload::Task::inference || (w.constraints.deadline_hours.has_value() && !spot);
    const catalog::Gpu* gpu = catalog::find_gpu(catalog, o.gpu);
    if (!needs_estimate || gpu == nullptr || !o.gpu_slice.empty()) {
        return;
    }
    estimate::NodeShape shape;
    shape.gpus_per_node = o.gpus_per_node;
    shape.nvlink = o.nvlink;
    shape.network_gbps = o.network_gbps;
    const estimate::GpuEstimate& e = estimates.get(*gpu, shape, o.gpu_count);
    if (w.task != workload::Task::inference) {
        if (e.goodput && o.wall_hours > 0.0) {
            const double margin = e.goodput->confidence_wall_hours - e.goodput->expected_wall_hours;
            d.judged_ratio = (o.wall_hours + margin) / o.wall_hours;
        }
        return;
    }
    const workload::Inference& in = w.inference;
    const double capacity = e.throughput.requests_per_second_capacity.value_or(0.0);
    d.need_rate = capacity > 0.0 ? in.requests_per_second / capacity : 0.0;
    const bool p90 = in.percentile == 90;
    const estimate::ServingTime& t = e.serving;
    const auto need = [&](const std::optional<double>& target, double p50_ms, double p90_ms) {
        if (target && *target > 0.0) {
            const double achieved = p90 ? p90_ms : p50_ms;
            d.need_time = std::max(d.need_time, achieved / *target);
            if (!d.latency_ms) {
                d.latency_ms = achieved;
            }
        }
    };
    need(in.latency_ms, t.latency_p50_ms, t.latency_p90_ms);
    need(in.ttft_ms, t.ttft_p50_ms, t.ttft_p90_ms);
    need(in.tpot_ms, t.tpot_p50_ms, t.tpot_p90_ms);
}

// A spot option's interruption figures (its spot_risk note) and the span its rate is drawn in.
void spot_of(const cost::Plan& plan, const cost::Option& o, const UncertaintyInputs& inputs,
             Keys& spots, Drawn& d) {
    const cost::Note* note = spot_note(plan, o);
    if (note == nullptr) {
        return;
    }
    d.spot_key = spots.intern(fmt::format("{}|{}|{}", o.provider, o.region, o.instance));
    d.spot = {note->figures[0], note->figures[3], note->figures[5]};
    d.spot_nodes = static_cast<int>(note->figures[1]);
    d.spot_wall_factor = note->figures[6] > 0.0 ? note->figures[6] : 1.0;
    const bool placeholder =
        note->subject == cost::k_rate_from_provider || note->subject == cost::k_rate_from_gpuplan;
    d.spot_span =
        inputs.spot_rate_factor.value_or(placeholder ? k_spot_rate_swing : k_sourced_spot_factor);
}

std::string price_key(const cost::Option& o) {
    return fmt::format("{}|{}|{}", o.provider, o.gpu, to_string(o.purchase));
}

Model make_model(const Recommendation& r, const catalog::Catalog& catalog,
                 const UncertaintySettings& u, rank::Soft soft, std::size_t drawn_groups) {
    Model m;
    const workload::Workload& w = r.workload;
    m.inference = w.task == workload::Task::inference;
    const double error =
        u.inputs.estimate_error.value_or(m.inference ? k_serving_error : k_training_error);
    m.estimate_sigma = sigma_of(error);
    m.utilisation = u.inputs.utilisation;
    m.demand = m.inference ? u.inputs.demand : std::nullopt;
    m.deadline = w.constraints.deadline_hours;
    if (r.plan.budget) {
        const auto rate = catalog::fx_rate(catalog, r.plan.budget->currency, r.plan.currency);
        if (rate) {
            m.budget = r.plan.budget->amount * *rate;
        }
    }
    m.objective = r.objective;
    m.soft = soft;
    Keys gpus;
    Keys prices;
    Keys spots;
    Keys currencies;
    const double horizon_years = std::max(r.plan.horizon_months, 1.0) / 12.0;
    // Each drawn configuration estimated once: many offers share one.
    estimate::Memo estimates(
        [&](const catalog::Gpu& gpu, const estimate::NodeShape& node, std::optional<int> count) {
            return estimate::estimate(w, gpu, node, count, catalog);
        },
        w);
    m.drawn.reserve(drawn_groups);
    for (std::size_t g = 0; g < drawn_groups; ++g) {
        const cost::Option& o = r.shown(g);
        Drawn d;
        d.option = &o;
        d.group = g;
        d.firm = o.firm();
        split_items(r.plan, o, d);
        d.wall = o.wall_hours;
        d.startup = std::min(o.startup_hours, o.wall_hours);
        d.gpu_key = gpus.intern(o.gpu);
        d.price_key = prices.intern(price_key(o));
        std::tie(d.row_sigma, d.drift_sigma) = price_sigmas(o, r.settings.today, u.inputs);
        if (o.purchase == PurchaseOption::spot) {
            spot_of(r.plan, o, u.inputs, spots, d);
        }
        if (o.price_currency != r.plan.currency && !o.price_currency.empty()) {
            const std::size_t before = currencies.size();
            d.fx_key = currencies.intern(o.price_currency);
            if (currencies.size() > before) {
                const double annual = std::hypot(fx_annual_sigma(catalog, o.price_currency),
                                                 fx_annual_sigma(catalog, r.plan.currency));
                m.fx_sigma.push_back(annual * std::sqrt(horizon_years / 3.0));
            }
        }
        estimate_needs(r, catalog, estimates, d);
        m.drawn.push_back(d);
    }
    m.gpus = gpus.size();
    m.prices = prices.size();
    m.spots = spots.size();
    return m;
}

// The groups drawn: the best-ranked ones within k_drawn_cost_factor of the best's NPV (by time,
// of its wall time), at most k_max_drawn.
std::size_t drawn_count(const Recommendation& r) {
    if (r.groups.empty()) {
        return 0;
    }
    const bool by_time = r.objective == rank::Objective::time;
    const auto measure = [&](const cost::Option& o) { return by_time ? o.wall_hours : o.npv; };
    const double best = measure(r.shown(0));
    std::size_t n = 0;
    while (n < r.groups.size() && n < k_max_drawn) {
        const double value = measure(r.shown(n));
        if (n > 0 && best > 0.0 && value > best * k_drawn_cost_factor) {
            break;
        }
        ++n;
    }
    return std::max<std::size_t>(n, std::min<std::size_t>(2, r.groups.size()));
}

double quantile(std::vector<double>& values, double q) {
    if (values.empty()) {
        return 0.0;
    }
    const auto k =
        static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())) - 1.0);
    const auto at = values.begin() + static_cast<std::ptrdiff_t>(std::min(k, values.size() - 1));
    std::nth_element(values.begin(), at, values.end());
    return *at;
}

// The top option's share of draws with `frozen` held at its value.
double top_share(const Model& model, const UncertaintySettings& u, const Frozen& frozen) {
    Drawer drawer(model);
    Rng rng(u.seed);
    Outcome out;
    int wins = 0;
    int decided = 0;
    for (int k = 0; k < u.draws; ++k) {
        drawer.draw(rng, frozen, out);
        wins += out.best == std::size_t{0} ? 1 : 0;
        decided += out.best ? 1 : 0;
    }
    return decided > 0 ? static_cast<double>(wins) / decided : 0.0;
}

struct Scored {
    double a = k_infinity;
    double b = k_infinity;
};

// The top two options re-priced through the pipeline (without rules, on their GPU models only)
// with the workload or settings changed by `change`.
template <class Change>
Scored reprice(const Recommendation& r, const catalog::Catalog& catalog, const Change& change) {
    const cost::Option& a = r.shown(0);
    const cost::Option& b = r.shown(1);
    workload::Workload w = r.workload;
    w.constraints.gpu_models = {a.gpu};
    if (b.gpu != a.gpu) {
        w.constraints.gpu_models.push_back(b.gpu);
    }
    cost::Settings settings = r.settings;
    settings.itemise = false;
    settings.simulate = 0;
    change(w, settings);
    const cost::Plan plan = recommend::plan(w, catalog, nullptr, RuleUse::none, settings);
    const std::string id_a = a.id();
    const std::string id_b = b.id();
    Scored out;
    for (const cost::Option& o : plan.options()) {
        if (o.rejection) {
            continue;
        }
        const double score = r.objective == rank::Objective::time ? o.wall_hours : o.npv;
        if (o.id() == id_a) {
            out.a = score;
        } else if (o.id() == id_b) {
            out.b = score;
        }
    }
    return out;
}

// The value of a knob in [low, high] where the top two swap (bisection on the sign of a - b),
// and whether the runner-up wins below it; nullopt when they do not swap in the range.
template <class Evaluate>
std::optional<std::pair<double, bool>> swap_point(double low, double high, const Evaluate& f) {
    const auto sign = [&f](double x) {
        const Scored s = f(x);
        return s.a < s.b ? -1 : (s.a > s.b ? 1 : 0);
    };
    const int at_low = sign(low);
    const int at_high = sign(high);
    if (at_low == at_high || at_low == 0 || at_high == 0) {
        return std::nullopt;
    }
    double lo = low;
    double hi = high;
    for (int step = 0; step < k_bisection_steps; ++step) {
        const double mid = 0.5 * (lo + hi);
        (sign(mid) == at_low ? lo : hi) = mid;
    }
    // The runner-up (b) wins where a - b > 0: below the point when that holds at `low`.
    const bool below = at_low > 0;
    return std::pair{below ? lo : hi, below};
}

// The knob's value rounded past the swap point to a multiple of `step`.
double past(double value, bool below, double step) {
    return below ? std::floor(value / step) * step : std::ceil(value / step) * step;
}

// The run's pipeline, re-run with one input changed: its rules, objective and soft order.
struct Pipeline {
    const Recommendation& r;
    const catalog::Catalog& catalog;
    const decide::Tree* tree;
    RuleUse rules;
    rank::Soft soft;

    // The id of the option ranked first with the workload or settings changed by `change`;
    // empty when nothing is feasible.
    template <class Change> [[nodiscard]] std::string winner(const Change& change) const {
        workload::Workload w = r.workload;
        cost::Settings settings = r.settings;
        settings.itemise = false;
        settings.simulate = 0;
        change(w, settings);
        const RuleUse use = rules == RuleUse::explain ? RuleUse::apply : rules;
        const cost::Plan plan = recommend::plan(w, catalog, tree, use, settings);
        const std::vector<std::size_t> first =
            rank::rank_first(plan.options(), r.objective, rank::Candidates::feasible, 1, soft);
        return first.empty() ? std::string() : plan.options()[first.front()].id();
    }
};

// A knob (a flag's value) and the range it is searched in.
struct Knob {
    UncertainInput input = UncertainInput::estimate;
    std::string subject;
    double base = 0.0; // the value the answer used
    double low = 0.0;
    double high = 0.0;
    double step = 0.001; // the flag's precision
    std::string flag;    // `--mfu {}`: the flag with the value's place
};

// Where #1 loses first place as the knob moves: the top two's swap point found on a fast
// re-pricing of the two (their GPU models only, no rules), then the point where the run's whole
// pipeline ranks another option first, found between the answer's own value and that one, and
// checked at the rounded flag value.
template <class Set>
std::optional<Flip> knob_flip(const Pipeline& p, const Knob& knob, const Set& set) {
    const auto fast = [&](double value) {
        return reprice(p.r, p.catalog,
                       [&](workload::Workload& w, cost::Settings& s) { set(w, s, value); });
    };
    const auto point = swap_point(knob.low, knob.high, fast);
    if (!point) {
        return std::nullopt;
    }
    const bool below = point->second;
    const std::string top = p.r.shown(0).id();
    const auto winner = [&](double value) {
        return p.winner([&](workload::Workload& w, cost::Settings& s) { set(w, s, value); });
    };
    double far = past(point->first, below, knob.step);
    std::string far_winner = winner(far);
    if (far_winner == top) {
        return std::nullopt; // the rules or another option keep #1 first there
    }
    double flipped = far;
    const double anchor = std::clamp(knob.base, knob.low, knob.high);
    if ((below ? anchor > far : anchor < far) && winner(anchor) == top) {
        double kept = anchor;
        for (int step = 0; step < k_pipeline_steps; ++step) {
            const double mid = 0.5 * (kept + flipped);
            (winner(mid) == top ? kept : flipped) = mid;
        }
        const double rounded = past(flipped, below, knob.step);
        if (const std::string w = winner(rounded); w != top && !w.empty()) {
            far = rounded;
            far_winner = w;
        }
    }
    return Flip{knob.input,
                knob.subject,
                knob.base,
                flipped,
                below,
                far_winner,
                fmt::format(fmt::runtime(knob.flag), far)};
}

std::optional<Flip> mfu_flip(const Pipeline& p, double sigma) {
    const Recommendation& r = p.r;
    const workload::Workload& w = r.workload;
    if (w.task == workload::Task::inference) {
        return std::nullopt;
    }
    const cost::Option& a = r.shown(0);
    const catalog::Gpu* gpu = catalog::find_gpu(p.catalog, a.gpu);
    if (gpu == nullptr) {
        return std::nullopt;
    }
    double base = 0.0;
    if (w.training.mfu) {
        base = *w.training.mfu;
    } else {
        estimate::NodeShape shape;
        shape.gpus_per_node = a.gpus_per_node;
        shape.nvlink = a.nvlink;
        shape.network_gbps = a.network_gbps;
        base = estimate::estimate(w, *gpu, shape, a.gpu_count, p.catalog).mfu;
    }
    if (!(base > 0.0)) {
        return std::nullopt;
    }
    const Knob knob{UncertainInput::estimate,
                    "MFU (all GPUs)",
                    base,
                    std::max(k_min_mfu, base * std::exp(-2.0 * sigma)),
                    std::min(k_max_mfu, base * std::exp(2.0 * sigma)),
                    0.001,
                    "--mfu {:.3f}"};
    return knob_flip(
        p, knob, [](workload::Workload& x, cost::Settings&, double mfu) { x.training.mfu = mfu; });
}

std::optional<Flip> spot_flip(const Pipeline& p) {
    const Recommendation& r = p.r;
    const cost::Option& a = r.shown(0);
    const cost::Option& b = r.shown(1);
    const cost::Option& spot = a.purchase == PurchaseOption::spot ? a : b;
    if (spot.purchase != PurchaseOption::spot) {
        return std::nullopt;
    }
    const cost::Note* note = spot_note(r.plan, spot);
    if (note == nullptr || !(note->figures[0] > 0.0)) {
        return std::nullopt;
    }
    const double base = note->figures[0];
    const Knob knob{
        UncertainInput::spot_rate,
        "spot interruptions per node-hour (all spot options)",
        base,
        base / k_spot_rate_search,
        std::min(catalog::k_max_interruption_rate_per_node_hour, base * k_spot_rate_search),
        std::pow(10.0, std::floor(std::log10(base)) - 2.0),
        "--interruption-rate {:g}"};
    return knob_flip(p, knob, [](workload::Workload&, cost::Settings& s, double rate) {
        s.interruption_rate_per_node_hour = rate;
        s.interruption_rate_factor = 1.0;
    });
}

// Where a lower price of the runner-up makes it first (cost objective): a negotiated discount on
// its provider when that is another provider (checked on the whole pipeline, with the flag that
// reproduces it), else its own price against #1's.
std::optional<Flip> price_flip(const Pipeline& p) {
    const Recommendation& r = p.r;
    const cost::Option& a = r.shown(0);
    const cost::Option& b = r.shown(1);
    if (r.objective != rank::Objective::cost || !(b.npv > 0.0) || !(a.npv > 0.0)) {
        return std::nullopt;
    }
    if (b.provider == a.provider || b.provider == "self_built") {
        return Flip{
            UncertainInput::prices, "#2's prices", 0.0, 1.0 - a.npv / b.npv, false, b.id(), {}};
    }
    const auto it = r.settings.provider_discounts.find(b.provider);
    const double current = it == r.settings.provider_discounts.end() ? 0.0 : it->second;
    const double needed = 1.0 - (1.0 - current) * a.npv / b.npv;
    const double knob = std::ceil(needed * 1000.0 + 1e-9) / 1000.0; // one decimal of a percent
    if (!(needed > current) || knob >= 1.0) {
        return std::nullopt;
    }
    const std::string winner = p.winner(
        [&](workload::Workload&, cost::Settings& s) { s.provider_discounts[b.provider] = knob; });
    if (winner.empty() || winner == a.id()) {
        return std::nullopt;
    }
    return Flip{UncertainInput::prices,
                b.provider,
                current,
                needed,
                false,
                winner,
                fmt::format("--discount {}={:.1f}%", b.provider, 100.0 * knob)};
}

// Where #1's GPU model running slower than estimated (the others as estimated) makes the
// runner-up first: a training option's hourly cash flows scale with 1 / speed.
std::optional<Flip> gpu_speed_flip(const Model& model, const Recommendation& r) {
    if (model.inference || model.drawn.size() < 2 || r.objective != rank::Objective::cost ||
        r.shown(0).gpu == r.shown(1).gpu) {
        return std::nullopt;
    }
    const Drawn& a = model.drawn[0];
    const Drawn& b = model.drawn[1];
    const double fixed = a.npv_priced + a.npv_fixed;
    const double hourly = a.npv_priced_hourly + a.npv_hourly;
    const double other = b.npv_priced_hourly + b.npv_hourly + b.npv_priced + b.npv_fixed;
    if (!(hourly > 0.0) || !(other > fixed)) {
        return std::nullopt;
    }
    const double speed = hourly / (other - fixed); // a's NPV equals b's at this speed factor
    if (!(speed < 1.0) || speed <= 0.0) {
        return std::nullopt;
    }
    return Flip{UncertainInput::estimate, r.shown(0).gpu, 1.0, speed, true, r.shown(1).id(), {}};
}

// Where an exchange-rate move makes the runner-up first (a's or b's prices in another currency).
std::optional<Flip> fx_flip(const Recommendation& r) {
    const cost::Option& a = r.shown(0);
    const cost::Option& b = r.shown(1);
    if (r.objective != rank::Objective::cost || a.price_currency == b.price_currency ||
        !(a.npv > 0.0) || !(b.npv > 0.0)) {
        return std::nullopt;
    }
    // Moving the currency of a (if foreign) up, or else of b down, by the NPV ratio.
    if (a.price_currency != r.plan.currency) {
        return Flip{UncertainInput::fx, a.price_currency, 1.0, b.npv / a.npv, false, b.id(), {}};
    }
    return Flip{UncertainInput::fx, b.price_currency, 1.0, a.npv / b.npv, true, b.id(), {}};
}

// Where the share of the planned work makes the runner-up first (a workload's utilisation range).
std::optional<Flip> utilisation_flip(const Model& model, const Recommendation& r) {
    if (!model.utilisation || model.drawn.size() < 2 || r.objective != rank::Objective::cost) {
        return std::nullopt;
    }
    const Drawn& a = model.drawn[0];
    const Drawn& b = model.drawn[1];
    const double fixed_a = a.npv_priced + a.npv_fixed;
    const double fixed_b = b.npv_priced + b.npv_fixed;
    const double hourly_a = a.npv_priced_hourly + a.npv_hourly;
    const double hourly_b = b.npv_priced_hourly + b.npv_hourly;
    if (hourly_a == hourly_b) {
        return std::nullopt;
    }
    const double share = (fixed_b - fixed_a) / (hourly_a - hourly_b);
    if (!(share > 0.0) || share > 2.0) {
        return std::nullopt;
    }
    // b wins where fixed_b + hourly_b u < fixed_a + hourly_a u.
    const bool below = hourly_b > hourly_a;
    return Flip{
        UncertainInput::utilisation, "planned work", 1.0, share, below, r.shown(1).id(), {}};
}

std::vector<InputSpread> spreads(const Model& m, const UncertaintySettings& u,
                                 const Recommendation& r) {
    std::vector<InputSpread> out;
    const double error = std::expm1(m.estimate_sigma * k_z75);
    out.push_back({UncertainInput::estimate,
                   fmt::format("lognormal per GPU model, median error {:.1f}% (sigma {:.3f}, "
                               "half shared by every model)",
                               100.0 * error, m.estimate_sigma),
                   u.inputs.estimate_error ? "uncertainty.estimate_error"
                   : m.inference           ? "docs/methodology.md C14: held-out serving checks"
                                           : "docs/methodology.md: published runs, out of sample"});
    out.push_back({UncertainInput::prices,
                   fmt::format("lognormal per offer by price basis, median error list {:.0f}%, "
                               "snapshot {:.0f}%, quote {:.0f}%; derived {:.0f}% per provider, "
                               "GPU and purchase option; plus {:.0f}% a year of age, shared by "
                               "the provider's product",
                               100.0 * u.inputs.price_error.value_or(k_list_error),
                               100.0 * k_snapshot_error, 100.0 * k_quote_error,
                               100.0 * k_derived_error, 100.0 * k_price_drift_per_year),
                   "docs/methodology.md C14"});
    if (m.spots > 0) {
        out.push_back({UncertainInput::spot_rate,
                       fmt::format("log-uniform within / and x {:g} of a sourced rate, {:g} of a "
                                   "placeholder",
                                   u.inputs.spot_rate_factor.value_or(k_sourced_spot_factor),
                                   u.inputs.spot_rate_factor.value_or(k_spot_rate_swing)),
                       "docs/methodology.md C9e"});
    }
    if (!m.fx_sigma.empty()) {
        out.push_back({UncertainInput::fx,
                       fmt::format("lognormal, the catalog's dated rates' volatility over the "
                                   "{:g}-month horizon",
                                   r.plan.horizon_months),
                       "catalog fx"});
    }
    if (m.utilisation) {
        out.push_back({UncertainInput::utilisation,
                       fmt::format("uniform {:g}-{:g} of the planned work", m.utilisation->low,
                                   m.utilisation->high),
                       "uncertainty.utilisation"});
    }
    if (m.demand) {
        out.push_back(
            {UncertainInput::demand,
             fmt::format("uniform {:g}-{:g} x requests_per_second", m.demand->low, m.demand->high),
             "uncertainty.demand"});
    }
    return out;
}

struct Tally {
    std::vector<int> wins;
    std::vector<int> meets;
    std::vector<std::vector<double>> npv, total, wall, latency;
    int none = 0;
    double regret = 0.0;
    int regret_draws = 0;
};

Tally run(const Model& model, const UncertaintySettings& u) {
    const std::size_t n = model.drawn.size();
    Tally t;
    t.wins.assign(n, 0);
    t.meets.assign(n, 0);
    t.npv.assign(n, {});
    t.total.assign(n, {});
    t.wall.assign(n, {});
    t.latency.assign(n, {});
    for (std::size_t i = 0; i < n; ++i) {
        t.npv[i].reserve(static_cast<std::size_t>(u.draws));
        t.total[i].reserve(static_cast<std::size_t>(u.draws));
        t.wall[i].reserve(static_cast<std::size_t>(u.draws));
        t.latency[i].reserve(static_cast<std::size_t>(u.draws));
    }
    Drawer drawer(model);
    Rng rng(u.seed);
    Outcome out;
    for (int k = 0; k < u.draws; ++k) {
        drawer.draw(rng, Frozen{}, out);
        for (std::size_t i = 0; i < n; ++i) {
            t.npv[i].push_back(out.npv[i]);
            t.total[i].push_back(out.total[i]);
            t.wall[i].push_back(out.wall[i]);
            t.latency[i].push_back(out.latency[i]);
            t.meets[i] += out.meets[i];
        }
        if (out.best) {
            ++t.wins[*out.best];
            // The regret of keeping #1 where it meets every constraint (else it is no choice).
            if (out.meets[0] != 0) {
                t.regret += std::max(0.0, out.npv[0] - out.npv[*out.best]);
                ++t.regret_draws;
            }
        } else {
            ++t.none;
        }
    }
    return t;
}

// The input whose freezing at its value gains #1 the most share of the draws.
std::optional<UncertainInput> deciding_input(const Model& model, const UncertaintySettings& u,
                                             const std::vector<InputSpread>& inputs) {
    UncertaintySettings fewer = u;
    fewer.draws = std::min(u.draws, k_deciding_draws);
    const double base = top_share(model, fewer, Frozen{});
    std::optional<UncertainInput> deciding;
    double gain = 0.0;
    for (const InputSpread& spread : inputs) {
        const double share = top_share(model, fewer, Frozen{spread.input}) - base;
        if (share > gain + 1e-12) {
            gain = share;
            deciding = spread.input;
        }
    }
    return deciding;
}

// Every flip point found for the top two.
std::vector<Flip> flips_of(const Pipeline& p, const Model& model) {
    std::vector<Flip> out;
    for (auto flip : {mfu_flip(p, model.estimate_sigma), gpu_speed_flip(model, p.r), price_flip(p),
                      fx_flip(p.r), spot_flip(p), utilisation_flip(model, p.r)}) {
        if (flip) {
            out.push_back(std::move(*flip));
        }
    }
    return out;
}

} // namespace

std::string_view to_string(UncertainInput input) {
    switch (input) {
    case UncertainInput::estimate:
        return "estimate";
    case UncertainInput::prices:
        return "prices";
    case UncertainInput::spot_rate:
        return "spot_rate";
    case UncertainInput::fx:
        return "fx";
    case UncertainInput::utilisation:
        return "utilisation";
    case UncertainInput::demand:
        return "demand";
    }
    return "?";
}

Confidence confidence(const Recommendation& r, const catalog::Catalog& catalog,
                      const decide::Tree* tree, RuleUse rules, const UncertaintySettings& u,
                      rank::Soft soft) {
    Confidence c;
    c.draws = u.draws;
    c.seed = u.seed;
    c.groups_total = r.groups.size();
    if (u.draws <= 0 || r.groups.empty()) {
        return c;
    }
    const Model model = make_model(r, catalog, u, soft, drawn_count(r));
    c.inputs = spreads(model, u, r);
    Tally t = run(model, u);
    const double draws = u.draws;
    c.options.reserve(model.drawn.size());
    for (std::size_t i = 0; i < model.drawn.size(); ++i) {
        OptionConfidence o;
        o.group = model.drawn[i].group;
        o.p_best = t.none < u.draws ? t.wins[i] / (draws - t.none) : 0.0;
        o.p_meets = t.meets[i] / draws;
        o.npv_p10 = quantile(t.npv[i], 0.1);
        o.npv_p50 = quantile(t.npv[i], 0.5);
        o.npv_p90 = quantile(t.npv[i], 0.9);
        o.cost_p50 = quantile(t.total[i], 0.5);
        o.cost_p90 = quantile(t.total[i], 0.9);
        o.wall_p90_hours = quantile(t.wall[i], 0.9);
        if (model.drawn[i].latency_ms) {
            o.latency_p90_ms = quantile(t.latency[i], 0.9);
        }
        c.options.push_back(o);
    }
    c.top_p_best = c.options.front().p_best;
    c.p_none = t.none / draws;
    c.regret = t.regret_draws > 0 ? t.regret / t.regret_draws : 0.0;
    for (std::size_t i = 1; i < c.options.size(); ++i) {
        if (c.options[i].p_best > 0.0 &&
            (!c.runner_up || c.options[i].p_best > c.options[*c.runner_up].p_best)) {
            c.runner_up = i;
        }
    }
    if (c.top_p_best < k_clear_p_best) {
        c.deciding = deciding_input(model, u, c.inputs);
    }
    // With soft answers after firm ones, a firm top and a soft runner-up never swap.
    const bool same_tier =
        soft == rank::Soft::mixed || r.shown(0).firm() == r.shown(1 % r.groups.size()).firm();
    if (r.groups.size() >= 2 && same_tier) {
        c.flips = flips_of(Pipeline{r, catalog, tree, rules, soft}, model);
    }
    return c;
}

} // namespace gpuplan::recommend

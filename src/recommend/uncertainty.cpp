#include "gpuplan/recommend/uncertainty.hpp"

#include "gpuplan/cost/cash_flows.hpp"
#include "gpuplan/enum_names.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/finance/finance.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "recommend/uncertainty_flips.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <numbers>
#include <tuple>

namespace gpuplan::recommend {

using namespace detail; // NOLINT(google-build-using-namespace)

namespace {

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

} // namespace

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_uncertain_input_names{
    std::to_array<std::pair<std::string_view, UncertainInput>>(
        {{"estimate", UncertainInput::estimate},
         {"prices", UncertainInput::prices},
         {"spot_rate", UncertainInput::spot_rate},
         {"fx", UncertainInput::fx},
         {"utilisation", UncertainInput::utilisation},
         {"demand", UncertainInput::demand}})};

std::string_view to_string(UncertainInput input) {
    return k_uncertain_input_names.name(input);
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

#include "recommend/uncertainty_flips.hpp"

#include "gpuplan/estimate/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace gpuplan::recommend::detail {

namespace {

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

} // namespace

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

} // namespace gpuplan::recommend::detail

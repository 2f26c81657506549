#include "gpuplan/recommend/sensitivity.hpp"

#include "gpuplan/enum_names.hpp"
#include "gpuplan/numbers.hpp"
#include "gpuplan/recommend/recommend.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuplan::recommend {

namespace {

constexpr double k_infinite_swing = std::numeric_limits<double>::infinity();

BestOption best_of(const workload::Workload& workload, const catalog::Catalog& catalog,
                   const decide::Tree* tree, RuleUse rules, const cost::Settings& settings,
                   rank::Objective objective) {
    const cost::Plan plan = recommend::plan(workload, catalog, tree, rules, settings);
    const std::vector<std::size_t> ranked = rank::rank(plan.options(), objective);
    if (ranked.empty()) {
        return {};
    }
    const cost::Option& best = plan.options()[ranked.front()];
    return {best.id(), best.npv, best.total};
}

} // namespace

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_sensitivity_input_names{
    std::to_array<std::pair<std::string_view, SensitivityInput>>(
        {{"prices", SensitivityInput::prices},
         {"utilisation (serving hours per day)", SensitivityInput::serving_hours},
         {"utilisation (runs in the horizon)", SensitivityInput::runs},
         {"horizon", SensitivityInput::horizon},
         {"discount rate", SensitivityInput::discount_rate},
         {"spot interruption rate", SensitivityInput::spot_interruption_rate}})};

std::string_view to_string(SensitivityInput input) {
    return k_sensitivity_input_names.name(input);
}

std::optional<double> SensitivityCase::swing() const {
    if (!low.best_id || !high.best_id) {
        return std::nullopt;
    }
    return std::fabs(high.npv - low.npv);
}

catalog::Catalog scale_prices(catalog::Catalog catalog, double factor) {
    const auto scale = [factor](std::optional<double>& value) {
        if (value) {
            *value *= factor;
        }
    };
    for (catalog::Provider& provider : catalog.providers) {
        for (catalog::Instance& instance : provider.instances) {
            for (catalog::PriceRow& row : instance.prices) {
                scale(row.on_demand);
                scale(row.spot);
                scale(row.monthly);
                scale(row.yearly);
            }
            for (catalog::ReservedPrice& price : instance.reserved) {
                price.effective_per_hour *= factor;
            }
        }
    }
    if (catalog.self_built) {
        for (catalog::Build& build : catalog.self_built->builds) {
            build.capex *= factor;
            build.network_capex_per_node *= factor;
        }
    }
    return catalog;
}

Sensitivity sensitivity(const workload::Workload& workload, const catalog::Catalog& catalog,
                        const decide::Tree* tree, RuleUse rules, const cost::Settings& settings,
                        rank::Objective objective) {
    Sensitivity out;
    out.base = best_of(workload, catalog, tree, rules, settings, objective);
    const auto run = [&](const workload::Workload& w, const catalog::Catalog& c,
                         const cost::Settings& s) {
        return best_of(w, c, tree, rules, s, objective);
    };

    out.cases.push_back({SensitivityInput::prices, -k_price_swing, k_price_swing,
                         run(workload, scale_prices(catalog, 1.0 - k_price_swing), settings),
                         run(workload, scale_prices(catalog, 1.0 + k_price_swing), settings)});

    workload::Workload low = workload;
    workload::Workload high = workload;
    if (workload.task == workload::Task::inference) {
        low.inference.hours_per_day = workload.inference.hours_per_day / k_scale_swing;
        high.inference.hours_per_day =
            std::min(k_hours_per_day, workload.inference.hours_per_day * k_scale_swing);
        out.cases.push_back({SensitivityInput::serving_hours, low.inference.hours_per_day,
                             high.inference.hours_per_day, run(low, catalog, settings),
                             run(high, catalog, settings)});
    } else {
        low.schedule.runs =
            std::max(1, static_cast<int>(std::lround(workload.schedule.runs / k_scale_swing)));
        high.schedule.runs = static_cast<int>(std::lround(workload.schedule.runs * k_scale_swing));
        out.cases.push_back({SensitivityInput::runs, static_cast<double>(low.schedule.runs),
                             static_cast<double>(high.schedule.runs), run(low, catalog, settings),
                             run(high, catalog, settings)});
    }

    low = workload;
    high = workload;
    low.horizon_months = workload.horizon_months / k_scale_swing;
    high.horizon_months = workload.horizon_months * k_scale_swing;
    out.cases.push_back({SensitivityInput::horizon, low.horizon_months, high.horizon_months,
                         run(low, catalog, settings), run(high, catalog, settings)});

    low = workload;
    high = workload;
    low.finance.discount_rate =
        std::max(0.0, workload.finance.discount_rate - k_discount_rate_swing);
    high.finance.discount_rate = workload.finance.discount_rate + k_discount_rate_swing;
    out.cases.push_back({SensitivityInput::discount_rate, low.finance.discount_rate,
                         high.finance.discount_rate, run(low, catalog, settings),
                         run(high, catalog, settings)});

    // The rate each spot option is priced with, from whichever source, moved by a factor.
    cost::Settings calm = settings;
    cost::Settings stormy = settings;
    calm.interruption_rate_factor = settings.interruption_rate_factor / k_spot_rate_swing;
    stormy.interruption_rate_factor = settings.interruption_rate_factor * k_spot_rate_swing;
    out.cases.push_back({SensitivityInput::spot_interruption_rate, 1.0 / k_spot_rate_swing,
                         k_spot_rate_swing, run(workload, catalog, calm),
                         run(workload, catalog, stormy)});

    const auto changes_top = [&out](const SensitivityCase& c) {
        return c.low.best_id != out.base.best_id || c.high.best_id != out.base.best_id;
    };
    std::stable_sort(out.cases.begin(), out.cases.end(),
                     [&changes_top](const SensitivityCase& a, const SensitivityCase& b) {
                         // An infeasible side ranks as an infinite swing.
                         const double swing_a =
                             a.swing() ? round_money(*a.swing()) : k_infinite_swing;
                         const double swing_b =
                             b.swing() ? round_money(*b.swing()) : k_infinite_swing;
                         if ((swing_a == k_infinite_swing) != (swing_b == k_infinite_swing)) {
                             return swing_a == k_infinite_swing;
                         }
                         if (changes_top(a) != changes_top(b)) {
                             return changes_top(a);
                         }
                         if (swing_a != swing_b) {
                             return swing_a > swing_b;
                         }
                         return to_string(a.input) < to_string(b.input);
                     });
    return out;
}

} // namespace gpuplan::recommend

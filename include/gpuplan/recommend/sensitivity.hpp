#pragma once
// Sensitivity of the recommendation: the pipeline re-run with one input moved down and up at a
// time (a tornado), to show which inputs can change the top choice. Pure and deterministic.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/plan.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/rank/rank.hpp"
#include "gpuplan/workload/workload.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::recommend {

enum class RuleUse;

// Relative move of every price (cloud rates, reserved rates, server capex) in the price case.
inline constexpr double k_price_swing = 0.20;
// Absolute move of the annual discount rate (the low case stops at 0).
inline constexpr double k_discount_rate_swing = 0.05;
// Factor by which utilisation and horizon are halved and doubled.
inline constexpr double k_scale_swing = 2.0;
// Factor by which every spot option's own interruption rate is divided and multiplied: published
// rates are bands (AWS Spot Advisor's "<5%" to ">20%" a month) or placeholders, so the plausible
// range spans more than a factor of two either way.
inline constexpr double k_spot_rate_swing = 4.0;

// The best option under one setting of the inputs.
struct BestOption {
    std::optional<std::string> best_id; // nullopt when nothing is feasible
    double npv = 0.0;
    double total = 0.0;

    bool operator==(const BestOption&) const = default;
};

// What a sensitivity case moves, and the unit of its low and high values.
enum class SensitivityInput {
    prices,                // relative change of every price (-0.2 = -20%)
    serving_hours,         // inference: serving hours per day
    runs,                  // training: runs in the horizon
    horizon,               // months
    discount_rate,         // annual rate (0.05 = 5%)
    spot_interruption_rate // factor on the rate each spot option uses (0.25 = a quarter)
};

// The name a report shows for the input, e.g. "prices".
[[nodiscard]] std::string_view to_string(SensitivityInput input);

// One input moved down and up.
struct SensitivityCase {
    SensitivityInput input = SensitivityInput::prices;
    double low_value = 0.0;  // the low setting, in the input's unit
    double high_value = 0.0; // the high setting
    BestOption low;
    BestOption high;

    // |high.npv - low.npv|, the bar length of the tornado; nullopt when either side has no
    // feasible option (such a case changes the answer outright and sorts first).
    [[nodiscard]] std::optional<double> swing() const;
    bool operator==(const SensitivityCase&) const = default;
};

struct Sensitivity {
    BestOption base;
    // Infeasible sides first, then cases that change the top choice, then widest swing, then name.
    std::vector<SensitivityCase> cases;

    bool operator==(const Sensitivity&) const = default;
};

// Prices `workload` again through the pipeline (recommend::plan with `tree` and `rules`) with
// each input moved: prices -/+20%; utilisation (training: runs within the horizon; inference:
// serving hours per day) halved and doubled; horizon halved and doubled; discount rate -/+5
// points; every spot option's own interruption rate divided and multiplied by 4. Each run ranks
// by `objective` with the same tie-breakers as recommend.
[[nodiscard]] Sensitivity sensitivity(const workload::Workload& workload,
                                      const catalog::Catalog& catalog, const decide::Tree* tree,
                                      RuleUse rules, const cost::Settings& settings,
                                      rank::Objective objective);

// Every price in `catalog` times `factor`: on-demand, spot and monthly rates, reserved rates,
// self-built capex and network capex.
[[nodiscard]] catalog::Catalog scale_prices(catalog::Catalog catalog, double factor);

} // namespace gpuplan::recommend

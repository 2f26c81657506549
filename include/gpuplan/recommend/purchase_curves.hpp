#pragma once
// The best option of each purchase option and its cost over time, as `gpuplan report` charts and
// compares them: computed once from a recommendation, so the report only formats.

#include "gpuplan/cost/plan.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace gpuplan::recommend {

struct Recommendation;

// The best option of one purchase option: the first ranked one, else (none feasible) its
// cheapest priced rejected one, which still shows what it would cost.
struct PurchaseCurve {
    std::size_t option = 0;         // index into plan.options()
    std::vector<double> cumulative; // undiscounted cumulative cost at the end of months 0 to the
                                    // horizon; held at its last value after the last flow
    std::optional<double> lead_time_weeks; // self-built: weeks before the hardware runs

    bool operator==(const PurchaseCurve&) const = default;
};

// When a purchase option's cumulative present value drops to on-demand's and stays there.
struct BreakEvenMonth {
    std::size_t option = 0;   // index into plan.options()
    std::optional<int> month; // nullopt = never within the horizon

    bool operator==(const BreakEvenMonth&) const = default;
};

struct PurchaseCurves {
    std::vector<PurchaseCurve> curves; // in the published order of purchase options
    // Each curve but on-demand's against the best on-demand option's flows; empty when no
    // on-demand option is priced.
    std::vector<BreakEvenMonth> break_even;

    bool operator==(const PurchaseCurves&) const = default;
};

// The curves of `recommendation`'s ranked and rejected options (recommend() fills
// Recommendation::purchase_curves with it).
[[nodiscard]] PurchaseCurves purchase_curves(const Recommendation& recommendation);

} // namespace gpuplan::recommend

#pragma once
// `gpuplan report`: the whole recommendation as one markdown document for a review (summary,
// workload, ranked options, cost breakdown, cumulative-cost chart, break-even points,
// sensitivity, decision, rejected options, provenance). Writers only format these values.

#include "gpuplan/report/chart.hpp"
#include "gpuplan/report/recommend.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::curve {
struct CurvePlan;
} // namespace gpuplan::curve

namespace gpuplan::report {

// Options charted and broken down, at most.
inline constexpr std::size_t k_report_top_options = 3;

// When a purchase option's cumulative cost drops to on-demand's and stays there.
struct BreakEven {
    PurchaseOption purchase = PurchaseOption::on_demand;
    std::string option_id;
    std::optional<int> month; // nullopt = never within the horizon

    bool operator==(const BreakEven&) const = default;
};

// The chart of report.purchase_curves: the cumulative cost of the best option of each purchase
// option, month 0 to the horizon.
[[nodiscard]] CumulativeCostChart purchase_option_chart(const recommend::Recommendation& report);

// report.purchase_curves.break_even with each option's purchase option and id; empty when no
// on-demand option is priced.
[[nodiscard]] std::vector<BreakEven> break_even_points(const recommend::Recommendation& report);

// The report as GitHub-flavoured markdown with a Mermaid chart; the sensitivity section needs a
// recommendation made with recommend::Settings::sensitivity. `curve`, when the workload serves a
// traffic curve, adds its plan (the week's replicas, purchase and saving) after the ranking.
[[nodiscard]] std::string render_full_report(const recommend::Recommendation& report,
                                             const curve::CurvePlan* curve = nullptr);

} // namespace gpuplan::report

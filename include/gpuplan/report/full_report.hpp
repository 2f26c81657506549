#pragma once
// `gpuplan report`: the whole recommendation as one markdown document for a review (summary,
// workload, ranked options, cost breakdown, cumulative-cost chart, break-even points,
// sensitivity, decision, rejected options, provenance). Writers only format these values.

#include "gpuplan/report/chart.hpp"
#include "gpuplan/report/recommend.hpp"

#include <optional>
#include <string>
#include <vector>

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

// Indices into plan.options of the best ranked option of each purchase option, in the published
// order of purchase options.
[[nodiscard]] std::vector<std::size_t> best_per_purchase(const recommend::Recommendation& report);

// Cumulative cost of the best option of each purchase option, month 0 to the horizon.
[[nodiscard]] CumulativeCostChart purchase_option_chart(const recommend::Recommendation& report);

// Break-even month of the best option of each non-on-demand purchase option against the best
// on-demand option; empty when no on-demand option is feasible.
[[nodiscard]] std::vector<BreakEven> break_even_points(const recommend::Recommendation& report);

// The report as GitHub-flavoured markdown with a Mermaid chart; the sensitivity section needs a
// recommendation made with recommend::Settings::sensitivity.
[[nodiscard]] std::string render_full_report(const recommend::Recommendation& report);

} // namespace gpuplan::report

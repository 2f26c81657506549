#pragma once
// `gpuplan report`: the whole recommendation as one markdown document for a review (summary,
// workload, ranked options, cost breakdown, cumulative-cost chart, break-even points,
// sensitivity, decision, rejected options, provenance). Writers only format these values.

#include "gpuplan/report/chart.hpp"
#include "gpuplan/report/recommend.hpp"
#include "gpuplan/report/sensitivity.hpp"

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

// Everything the report shows beyond the recommendation itself.
struct FullReport {
    const RecommendReport& recommendation;
    Sensitivity sensitivity;
    std::string generated_at; // empty unless --timestamp
};

// Indices into plan.options of the best ranked option of each purchase option, in the published
// order of purchase options.
[[nodiscard]] std::vector<std::size_t> best_per_purchase(const RecommendReport& report);

// Cumulative cost of the best option of each purchase option, month 0 to the horizon.
[[nodiscard]] CumulativeCostChart purchase_option_chart(const RecommendReport& report);

// Break-even month of the best option of each non-on-demand purchase option against the best
// on-demand option; empty when no on-demand option is feasible.
[[nodiscard]] std::vector<BreakEven> break_even_points(const RecommendReport& report);

// The report as GitHub-flavoured markdown with a Mermaid chart.
[[nodiscard]] std::string render_full_report(const FullReport& report);

} // namespace gpuplan::report

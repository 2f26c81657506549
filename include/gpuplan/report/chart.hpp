#pragma once
// Cumulative-cost charts: one line per purchase option over the horizon, rendered as a Mermaid
// `xychart-beta` block (GitHub renders it) or a standalone SVG. Pure; numbers are formatted with
// fixed decimals so the same series give byte-identical text.

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::report {

// What a line stands for: the option the answer chose (drawn boldest and labelled), another
// feasible one, or a rejected one (dashed grey in SVG, left out of Mermaid).
enum class SeriesRole { feasible, chosen, rejected };

// One line of a chart: values[k] is the cumulative amount at the end of month k (month 0 = now).
struct ChartSeries {
    std::string name;
    std::vector<double> values;
    SeriesRole role = SeriesRole::feasible;
    // Self-built: the lead time before the hardware runs, in weeks (labelled on the line at its
    // month); nullopt when the option runs at once.
    std::optional<double> lead_time_weeks = std::nullopt;

    bool operator==(const ChartSeries&) const = default;
};

// What a chart's amounts are, which its axis title, legend and marks say.
enum class ChartMeasure {
    cumulative_cost, // money spent by the end of each month, in `currency`; a drop is a resale
    per_month,       // a quantity in each month, in `unit` (`GPU-hours`); no resale, no chosen line
};

// A chart of amounts by month; every series spans the same months (shorter ones are held flat).
struct CumulativeCostChart {
    std::string title;
    std::string currency; // cumulative_cost: the money's currency
    std::vector<ChartSeries> series;
    ChartMeasure measure = ChartMeasure::cumulative_cost;
    std::string unit{}; // per_month: what is counted (`GPU-hours`)

    bool operator==(const CumulativeCostChart&) const = default;
};

// Colours of the lines, in series order (cycled); the markdown legend names them.
[[nodiscard]] const std::vector<std::string>& chart_palette();

// The name of each chart_palette() colour (`blue`, `orange`...), for legends.
[[nodiscard]] const std::vector<std::string>& chart_palette_names();

// The series Mermaid draws: all but the rejected ones (Mermaid cannot dash a line), in order.
[[nodiscard]] std::vector<ChartSeries> mermaid_series(const CumulativeCostChart& chart);

// The amount axis's title: `Cumulative cost (USD)`, or `GPU-hours per month`.
[[nodiscard]] std::string amount_axis_title(const CumulativeCostChart& chart);

// The series the amount axis is scaled to: the options that can run (all but the rejected
// ones), or every series when all are rejected. A rejected line beyond the axis is clipped at
// the plot's edge, so an option that cannot run never sets or changes the scale.
[[nodiscard]] std::vector<ChartSeries> scaled_series(const CumulativeCostChart& chart);

// True when the SVG chart's amount axis is logarithmic: among scaled_series, the largest amount
// is more than k_log_scale_ratio times the smallest line's final amount (both positive).
[[nodiscard]] bool uses_log_scale(const CumulativeCostChart& chart);

// Ratio of amounts above which the SVG chart switches to a logarithmic amount axis.
inline constexpr double k_log_scale_ratio = 20.0;

// The smallest 1, 2, 2.5 or 5 x 10^k not below `value` (1 for values <= 0): the axis maximum.
[[nodiscard]] double nice_ceiling(double value);

// A Mermaid `xychart-beta` definition (without the ``` fence), one `line` per mermaid_series,
// preceded by an init directive that sets the palette; at most k_mermaid_month_labels month
// labels (the others blank). Amounts are rounded to whole currency units.
[[nodiscard]] std::string render_mermaid_xychart(const CumulativeCostChart& chart_in);

// Most month labels a Mermaid chart's x-axis shows.
inline constexpr std::size_t k_mermaid_month_labels = 13;

// A standalone SVG document (UTF-8, XML declaration, no scripts or external references) with
// axes fitted to scaled_series (logarithmic per uses_log_scale), gridlines, one polyline per
// series (the chosen one boldest with its amount written at its end, rejected ones dashed grey
// and clipped to the plot), for a cumulative cost a `resale` mark where a line drops, and a
// legend that wraps inside the 800 px canvas.
[[nodiscard]] std::string render_svg_chart(const CumulativeCostChart& chart);

} // namespace gpuplan::report

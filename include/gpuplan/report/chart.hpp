#pragma once
// Cumulative-cost charts: one line per purchase option over the horizon, rendered as a Mermaid
// `xychart-beta` block (GitHub renders it) or a standalone SVG. Pure; numbers are formatted with
// fixed decimals so the same series give byte-identical text.

#include <string>
#include <vector>

namespace gpuplan::report {

// One line of a chart: values[k] is the cumulative amount at the end of month k (month 0 = now).
struct ChartSeries {
    std::string name;
    std::vector<double> values;

    bool operator==(const ChartSeries&) const = default;
};

// A cumulative-cost chart; every series spans the same months (shorter ones are held flat).
struct CumulativeCostChart {
    std::string title;
    std::string currency;
    std::vector<ChartSeries> series;

    bool operator==(const CumulativeCostChart&) const = default;
};

// Colours of the lines, in series order (cycled); the markdown legend names them.
[[nodiscard]] const std::vector<std::string>& chart_palette();

// Running sums of monthly cash flows: out[k] = flows[0] + ... + flows[k].
[[nodiscard]] std::vector<double> cumulative(const std::vector<double>& monthly_flows);

// The smallest 1, 2, 2.5 or 5 x 10^k not below `value` (1 for values <= 0): the axis maximum.
[[nodiscard]] double nice_ceiling(double value);

// A Mermaid `xychart-beta` definition (without the ``` fence), one `line` per series, preceded
// by an init directive that sets the palette. Amounts are rounded to whole currency units.
[[nodiscard]] std::string render_mermaid_xychart(const CumulativeCostChart& chart);

// A standalone SVG document (UTF-8, XML declaration, no scripts or external references) with
// axes, gridlines, one polyline per series and a legend.
[[nodiscard]] std::string render_svg_chart(const CumulativeCostChart& chart);

} // namespace gpuplan::report

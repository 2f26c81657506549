#pragma once
// `gpuplan fleet`: the commitment plan of a portfolio as a table, JSON or markdown, and its
// demand-against-capacity chart.

#include "gpuplan/fleet/fleet.hpp"
#include "gpuplan/report/chart.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"

#include <string>

namespace gpuplan::report {

// Demand, committed capacity and the part of it used, GPU-hours per month (month 0 = now, 0).
[[nodiscard]] CumulativeCostChart fleet_chart(const fleet::FleetPlan& plan);

// The plan in `format`; markdown embeds the chart as Mermaid. The table fits `width` terminal
// columns (0: --wide, no limit).
[[nodiscard]] std::string render_fleet(const fleet::FleetPlan& plan, Format format,
                                       std::size_t width = k_terminal_width);

// The markdown plan as one self-contained HTML page (`fleet --format html`), the chart inline as
// SVG and the sensitivity folded, as `report --format html` is.
[[nodiscard]] std::string render_fleet_html(const fleet::FleetPlan& plan);

} // namespace gpuplan::report

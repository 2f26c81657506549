#include "gpuplan/report/chart.hpp"

#include "gpuplan/report/escape.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>

namespace gpuplan::report {

namespace {

// SVG canvas and plot area, in pixels.
constexpr double k_svg_width = 800.0;
constexpr double k_svg_height = 440.0;
constexpr double k_plot_left = 110.0;
constexpr double k_plot_right = 780.0;
constexpr double k_plot_top = 50.0;
constexpr double k_plot_bottom = 330.0;
constexpr double k_legend_top = 392.0;
constexpr double k_legend_row_height = 18.0;
constexpr int k_y_ticks = 5;
constexpr std::size_t k_max_x_labels = 12;

std::size_t month_count(const CumulativeCostChart& chart) {
    std::size_t count = 0;
    for (const ChartSeries& series : chart.series) {
        count = std::max(count, series.values.size());
    }
    return count;
}

// The value of `series` at `month`, held flat after its last month.
double value_at(const ChartSeries& series, std::size_t month) {
    if (series.values.empty()) {
        return 0.0;
    }
    const double value = series.values[std::min(month, series.values.size() - 1)];
    return std::isfinite(value) ? value : 0.0;
}

double max_value(const std::vector<ChartSeries>& lines) {
    double top = 0.0;
    for (const ChartSeries& series : lines) {
        for (std::size_t k = 0; k < series.values.size(); ++k) {
            top = std::max(top, value_at(series, k));
        }
    }
    return top;
}

double min_value(const std::vector<ChartSeries>& lines) {
    double bottom = 0.0;
    for (const ChartSeries& series : lines) {
        for (std::size_t k = 0; k < series.values.size(); ++k) {
            bottom = std::min(bottom, value_at(series, k));
        }
    }
    return bottom;
}

// A whole number without separators, for Mermaid data (`-0` never appears).
std::string whole(double value) {
    return fmt::format("{:.0f}", round_to(value, 0));
}

std::string px(double value) {
    return fmt::format("{:.1f}", round_to(value, 1));
}

// Axis label for an amount: 1.2M, 250k, 900.
std::string short_amount(double value) {
    const double magnitude = std::fabs(value);
    if (magnitude >= 1e9) {
        return format_price(round_to(value / 1e9, 2)) + "B";
    }
    if (magnitude >= 1e6) {
        return format_price(round_to(value / 1e6, 2)) + "M";
    }
    if (magnitude >= 1e3) {
        return format_price(round_to(value / 1e3, 2)) + "k";
    }
    return format_price(round_to(value, 2));
}

} // namespace

const std::vector<std::string>& chart_palette() {
    static const std::vector<std::string> palette = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                                     "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
    return palette;
}

const std::vector<std::string>& chart_palette_names() {
    static const std::vector<std::string> names = {"blue",   "orange", "green", "red",
                                                   "purple", "brown",  "pink",  "grey"};
    return names;
}

std::vector<ChartSeries> mermaid_series(const CumulativeCostChart& chart) {
    std::vector<ChartSeries> out;
    for (const ChartSeries& series : chart.series) {
        if (series.role != SeriesRole::rejected) {
            out.push_back(series);
        }
    }
    return out;
}

std::string amount_axis_title(const CumulativeCostChart& chart) {
    if (chart.measure == ChartMeasure::per_month) {
        return chart.unit + " per month";
    }
    return fmt::format("Cumulative cost ({})", chart.currency);
}

std::vector<ChartSeries> scaled_series(const CumulativeCostChart& chart) {
    std::vector<ChartSeries> out = mermaid_series(chart);
    return out.empty() ? chart.series : out;
}

bool uses_log_scale(const CumulativeCostChart& chart) {
    const std::vector<ChartSeries> lines = scaled_series(chart);
    const double top = max_value(lines);
    double smallest_final = 0.0;
    for (const ChartSeries& series : lines) {
        const double last =
            series.values.empty() ? 0.0 : value_at(series, series.values.size() - 1);
        if (last > 0.0 && (smallest_final == 0.0 || last < smallest_final)) {
            smallest_final = last;
        }
    }
    return smallest_final > 0.0 && top > k_log_scale_ratio * smallest_final;
}

double nice_ceiling(double value) {
    if (!(value > 0.0) || !std::isfinite(value)) {
        return 1.0;
    }
    const double exponent = std::floor(std::log10(value));
    const double base = std::pow(10.0, exponent);
    for (double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        // A relative tolerance so that 2000 stays 2000 despite log10 rounding.
        if (step * base >= value * (1.0 - 1e-12)) {
            return step * base;
        }
    }
    return 10.0 * base;
}

std::string render_mermaid_xychart(const CumulativeCostChart& chart_in) {
    CumulativeCostChart chart = chart_in;
    chart.series = mermaid_series(chart_in);
    const std::size_t months = month_count(chart);
    const auto& palette = chart_palette();
    std::string colours;
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        colours += (i == 0 ? "" : ", ") + palette[i % palette.size()];
    }
    std::string out = fmt::format(
        "%%{{init: {{\"themeVariables\": {{\"xyChart\": {{\"plotColorPalette\": \"{}\"}}}}}}}}%%\n",
        colours);
    out += "xychart-beta\n";
    out += fmt::format("    title \"{}\"\n", escape_mermaid(chart.title));
    // A numeric month axis: Mermaid places its own few ticks instead of one label per month.
    const std::size_t last = std::max<std::size_t>(months, 1) - 1;
    if (last + 1 <= k_mermaid_month_labels) {
        std::string labels;
        for (std::size_t k = 0; k <= last; ++k) {
            labels += (k == 0 ? "" : ", ") + std::to_string(k);
        }
        out += fmt::format("    x-axis \"Month\" [{}]\n", labels);
    } else {
        out += fmt::format("    x-axis \"Month\" 0 --> {}\n", last);
    }
    const double bottom =
        min_value(chart.series) < 0.0 ? -nice_ceiling(-min_value(chart.series)) : 0.0;
    out += fmt::format("    y-axis \"{}\" {} --> {}\n", escape_mermaid(amount_axis_title(chart)),
                       whole(bottom), whole(nice_ceiling(max_value(chart.series))));
    for (const ChartSeries& series : chart.series) {
        std::string values;
        for (std::size_t k = 0; k <= last; ++k) {
            values += (k == 0 ? "" : ", ") + whole(value_at(series, k));
        }
        out += fmt::format("    line [{}]\n", values);
    }
    return out;
}

namespace {

// Pixels a character of the 12 px legend font takes at most, on average over a line: legend
// lines are wrapped to the characters that fit the canvas at this width.
constexpr double k_legend_char_px = 7.0;
constexpr double k_chosen_stroke = 4.0;
constexpr double k_line_stroke = 2.0;
constexpr double k_rejected_stroke = 1.5;
constexpr const char* k_rejected_colour = "#999999";
constexpr double k_days_per_week = 7.0;
// Pixels from the plot's right edge within which a mark is anchored at its end.
constexpr double k_edge_room_px = 60.0;

// The amount axis: linear from a nice bottom to a nice top, or logarithmic over whole decades.
struct AmountAxis {
    bool log = false;
    double bottom = 0.0; // linear: the amount at the x-axis; log: the lowest decade's exponent
    double top = 1.0;    // linear: the amount at the top; log: the highest decade's exponent

    [[nodiscard]] double fraction(double value) const {
        if (!log) {
            return (value - bottom) / (top - bottom);
        }
        // Amounts below the lowest decade (zero, a resale credit) sit on the x-axis.
        const double exponent = value > 0.0 ? std::log10(value) : bottom;
        return (std::max(exponent, bottom) - bottom) / (top - bottom);
    }
    [[nodiscard]] std::vector<double> ticks() const {
        std::vector<double> out;
        if (log) {
            for (double e = bottom; e <= top + 1e-9; e += 1.0) {
                out.push_back(std::pow(10.0, e));
            }
            return out;
        }
        for (int i = 0; i <= k_y_ticks; ++i) {
            out.push_back(bottom + (top - bottom) * i / k_y_ticks);
        }
        return out;
    }
};

AmountAxis amount_axis(const CumulativeCostChart& chart) {
    AmountAxis axis;
    const std::vector<ChartSeries> lines = scaled_series(chart);
    if (uses_log_scale(chart)) {
        double smallest = max_value(lines);
        for (const ChartSeries& series : lines) {
            for (std::size_t k = 0; k < series.values.size(); ++k) {
                const double value = value_at(series, k);
                if (value > 0.0) {
                    smallest = std::min(smallest, value);
                }
            }
        }
        axis.log = true;
        axis.bottom = std::floor(std::log10(smallest));
        axis.top = std::max(std::ceil(std::log10(max_value(lines))), axis.bottom + 1.0);
        return axis;
    }
    axis.top = nice_ceiling(max_value(lines));
    axis.bottom = min_value(lines) < 0.0 ? -nice_ceiling(-min_value(lines)) : 0.0;
    return axis;
}

// The months where a line drops (a resale of owned hardware), with the amount recovered.
std::vector<std::pair<std::size_t, double>> drops(const ChartSeries& series, std::size_t months) {
    std::vector<std::pair<std::size_t, double>> out;
    for (std::size_t k = 1; k < months; ++k) {
        const double change = value_at(series, k) - value_at(series, k - 1);
        if (change < 0.0) {
            out.emplace_back(k, -change);
        }
    }
    return out;
}

std::string series_style(const ChartSeries& series, const std::string& colour) {
    switch (series.role) {
    case SeriesRole::chosen:
        return fmt::format(R"(stroke="{}" stroke-width="{}")", colour, px(k_chosen_stroke));
    case SeriesRole::rejected:
        return fmt::format(R"(stroke="{}" stroke-width="{}" stroke-dasharray="6 4")",
                           k_rejected_colour, px(k_rejected_stroke));
    case SeriesRole::feasible:
        break;
    }
    return fmt::format(R"(stroke="{}" stroke-width="{}")", colour, px(k_line_stroke));
}

std::string series_colour(const ChartSeries& series, std::size_t index) {
    const auto& palette = chart_palette();
    return series.role == SeriesRole::rejected ? std::string(k_rejected_colour)
                                               : palette[index % palette.size()];
}

// Each series' legend text wrapped to the canvas, with its amount at the horizon.
std::vector<std::vector<std::string>> legend_lines(const CumulativeCostChart& chart,
                                                   std::size_t months) {
    const auto room =
        static_cast<std::size_t>((k_svg_width - k_plot_left - 22.0 - 10.0) / k_legend_char_px);
    std::vector<std::vector<std::string>> out;
    for (const ChartSeries& series : chart.series) {
        const std::string prefix = series.role == SeriesRole::chosen ? "chosen: " : "";
        std::string text;
        if (chart.measure == ChartMeasure::per_month) {
            double peak = 0.0;
            for (std::size_t k = 0; k < months; ++k) {
                peak = std::max(peak, value_at(series, k));
            }
            text = fmt::format("{}{}: at most {} {} a month", prefix, series.name,
                               format_thousands(peak), chart.unit);
        } else {
            text =
                fmt::format("{}{}: {} by month {}", prefix, series.name,
                            format_money(value_at(series, months - 1), chart.currency), months - 1);
        }
        out.push_back(wrap_words(text, room));
    }
    return out;
}

// The legend under the plot: a swatch and the wrapped lines of each series.
std::string legend_svg(const CumulativeCostChart& chart,
                       const std::vector<std::vector<std::string>>& legend) {
    std::string out;
    double row = k_legend_top;
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const ChartSeries& series = chart.series[i];
        const std::string colour = series_colour(series, i);
        out += fmt::format("  <rect x=\"{}\" y=\"{}\" width=\"14\" height=\"{}\" fill=\"{}\"/>\n",
                           px(k_plot_left), px(row - 4),
                           series.role == SeriesRole::chosen ? "6" : "3", colour);
        for (const std::string& line : legend[i]) {
            out += fmt::format(
                "  <text x=\"{}\" y=\"{}\"{}>{}</text>\n", px(k_plot_left + 22), px(row),
                series.role == SeriesRole::chosen ? " font-weight=\"bold\"" : "", escape_xml(line));
            row += k_legend_row_height;
        }
    }
    return out;
}

// The lead time of a self-built line: a tick where the hardware starts to run (its month from
// the weeks waited) and its label; empty past the horizon, without a lead time or for a rejected
// line (which may run outside the plot).
std::string lead_time_svg(const ChartSeries& series, const std::string& colour, std::size_t months,
                          const std::function<double(double)>& x_of,
                          const std::function<double(double)>& y_of) {
    if (!series.lead_time_weeks || months < 2 || series.role == SeriesRole::rejected) {
        return {};
    }
    const double month =
        *series.lead_time_weeks * k_days_per_week * k_hours_per_day / k_hours_per_month;
    if (month > static_cast<double>(months - 1)) {
        return {};
    }
    const double x = x_of(month);
    const double y = y_of(value_at(series, static_cast<std::size_t>(std::floor(month))));
    const bool at_edge = x > k_plot_right - k_edge_room_px;
    return fmt::format("  <line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" "
                       "stroke-width=\"1.5\"/>\n  <text x=\"{0}\" y=\"{4}\" text-anchor=\"{5}\" "
                       "font-size=\"11\" fill=\"{3}\">lead time {6:g} wk</text>\n",
                       px(x), px(y - 6.0), px(y + 6.0), colour,
                       px(std::min(y + 18.0, k_plot_bottom - 4.0)), at_edge ? "end" : "start",
                       *series.lead_time_weeks);
}

// The grid, the amount and month labels, the axis titles and the two axes.
std::string axes_svg(const CumulativeCostChart& chart, const AmountAxis& axis, std::size_t months,
                     const std::function<double(double)>& x_at,
                     const std::function<double(double)>& y_of) {
    const auto x_of = [&](std::size_t month) { return x_at(static_cast<double>(month)); };
    const std::vector<double> ticks = axis.ticks();
    std::string out = "  <g stroke=\"#dddddd\" stroke-width=\"1\">\n";
    for (double value : ticks) {
        out += fmt::format("    <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", px(k_plot_left),
                           px(y_of(value)), px(k_plot_right), px(y_of(value)));
    }
    out += "  </g>\n  <g fill=\"#333333\">\n";
    for (double value : ticks) {
        out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                           px(k_plot_left - 8), px(y_of(value) + 4), short_amount(value));
    }
    const std::size_t step = (months + k_max_x_labels - 1) / k_max_x_labels;
    for (std::size_t k = 0; k < months; k += std::max<std::size_t>(step, 1)) {
        out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                           px(x_of(k)), px(k_plot_bottom + 18), k);
    }
    out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">Month (horizon {})"
                       "</text>\n",
                       px((k_plot_left + k_plot_right) / 2), px(k_plot_bottom + 38), months - 1);
    out += fmt::format("    <text x=\"20\" y=\"{0}\" text-anchor=\"middle\" "
                       "transform=\"rotate(-90 20 {0})\">{1}{2}</text>\n",
                       px((k_plot_top + k_plot_bottom) / 2), escape_xml(amount_axis_title(chart)),
                       axis.log ? " (log scale)" : "");
    out += "  </g>\n";
    const double axis_y = axis.log ? k_plot_bottom : y_of(0.0);
    out += fmt::format(
        "  <g stroke=\"#333333\" stroke-width=\"1\">\n    <line x1=\"{0}\" y1=\"{1}\" "
        "x2=\"{0}\" y2=\"{2}\"/>\n    <line x1=\"{0}\" y1=\"{3}\" x2=\"{4}\" "
        "y2=\"{3}\"/>\n  </g>\n",
        px(k_plot_left), px(k_plot_top), px(k_plot_bottom), px(axis_y), px(k_plot_right));
    return out;
}

// The order the series are drawn in: rejected lines first, the chosen one last, so that it is
// drawn on top.
std::vector<std::size_t> draw_order(const CumulativeCostChart& chart) {
    std::vector<std::size_t> order(chart.series.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        auto rank = [](SeriesRole role) {
            return role == SeriesRole::rejected ? 0 : role == SeriesRole::feasible ? 1 : 2;
        };
        return rank(chart.series[a].role) < rank(chart.series[b].role);
    });
    return order;
}

// The `index`th series: its line, its resale marks, its lead time and, when chosen, its amount
// at the horizon.
std::string series_svg(const CumulativeCostChart& chart, std::size_t index, std::size_t months,
                       const std::function<double(double)>& x_at,
                       const std::function<double(double)>& y_of) {
    const auto x_of = [&](std::size_t month) { return x_at(static_cast<double>(month)); };
    const ChartSeries& series = chart.series[index];
    std::string points;
    for (std::size_t k = 0; k < months; ++k) {
        points +=
            fmt::format("{}{},{}", k == 0 ? "" : " ", px(x_of(k)), px(y_of(value_at(series, k))));
    }
    const std::string colour = series_colour(series, index);
    // A rejected line may run past the axis, which only the options that can run set.
    const char* clip = series.role == SeriesRole::rejected ? " clip-path=\"url(#plot)\"" : "";
    std::string out =
        fmt::format("  <polyline fill=\"none\" {}{} points=\"{}\"><title>{}</title>"
                    "</polyline>\n",
                    series_style(series, colour), clip, points, escape_xml(series.name));
    const bool resales =
        chart.measure == ChartMeasure::cumulative_cost && series.role != SeriesRole::rejected;
    for (const auto& [month, amount] :
         resales ? drops(series, months) : std::vector<std::pair<std::size_t, double>>{}) {
        // Near the right edge the mark ends at its month, so it stays inside the canvas.
        const bool at_edge = x_of(month) > k_plot_right - k_edge_room_px;
        out += fmt::format("  <text x=\"{}\" y=\"{}\" text-anchor=\"{}\" font-size=\"11\" "
                           "fill=\"{}\">resale {}</text>\n",
                           px(x_of(month)),
                           px(std::max(y_of(value_at(series, month)) - 8.0, k_plot_top + 10.0)),
                           at_edge ? "end" : "middle", colour, escape_xml(short_amount(amount)));
    }
    out += lead_time_svg(series, colour, months, x_at, y_of);
    if (series.role == SeriesRole::chosen) {
        const double end = value_at(series, months - 1);
        out += fmt::format("  <text x=\"{}\" y=\"{}\" text-anchor=\"end\" font-weight=\"bold\" "
                           "fill=\"{}\">chosen: {}</text>\n",
                           px(k_plot_right), px(std::max(y_of(end) - 8.0, k_plot_top + 10.0)),
                           colour, escape_xml(format_money(end, chart.currency)));
    }
    return out;
}

} // namespace

std::string render_svg_chart(const CumulativeCostChart& chart) {
    const std::size_t months = std::max<std::size_t>(month_count(chart), 1);
    const AmountAxis axis = amount_axis(chart);
    const double plot_width = k_plot_right - k_plot_left;
    const double plot_height = k_plot_bottom - k_plot_top;
    const std::function<double(double)> x_at = [&](double month) {
        return months == 1 ? k_plot_left
                           : k_plot_left + plot_width * month / static_cast<double>(months - 1);
    };
    const std::function<double(double)> y_of = [&](double value) {
        return k_plot_bottom - plot_height * axis.fraction(value);
    };
    const std::vector<std::vector<std::string>> legend = legend_lines(chart, months);
    std::size_t legend_rows = 0;
    for (const auto& lines : legend) {
        legend_rows += lines.size();
    }
    const double height = k_svg_height + k_legend_row_height * static_cast<double>(legend_rows);

    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
                       "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n",
                       px(k_svg_width), px(height));
    out += fmt::format("  <title>{}</title>\n", escape_xml(chart.title));
    out += fmt::format("  <defs><clipPath id=\"plot\"><rect x=\"{}\" y=\"{}\" width=\"{}\" "
                       "height=\"{}\"/></clipPath></defs>\n",
                       px(k_plot_left), px(k_plot_top), px(plot_width), px(plot_height));
    out += fmt::format("  <rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", px(k_svg_width),
                       px(height));
    out +=
        fmt::format("  <text x=\"{}\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">{}</text>\n",
                    px(k_svg_width / 2), escape_xml(chart.title));
    out += axes_svg(chart, axis, months, x_at, y_of);
    for (std::size_t i : draw_order(chart)) {
        out += series_svg(chart, i, months, x_at, y_of);
    }
    out += legend_svg(chart, legend);
    out += "</svg>\n";
    return out;
}

} // namespace gpuplan::report

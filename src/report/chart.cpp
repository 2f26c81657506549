#include "gpuplan/report/chart.hpp"

#include "gpuplan/report/escape.hpp"
#include "gpuplan/report/output_format.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

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

double max_value(const CumulativeCostChart& chart) {
    double top = 0.0;
    for (const ChartSeries& series : chart.series) {
        for (std::size_t k = 0; k < series.values.size(); ++k) {
            top = std::max(top, value_at(series, k));
        }
    }
    return top;
}

double min_value(const CumulativeCostChart& chart) {
    double bottom = 0.0;
    for (const ChartSeries& series : chart.series) {
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

std::vector<double> cumulative(const std::vector<double>& monthly_flows) {
    std::vector<double> out;
    out.reserve(monthly_flows.size());
    double sum = 0.0;
    for (double flow : monthly_flows) {
        sum += flow;
        out.push_back(sum);
    }
    return out;
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

std::string render_mermaid_xychart(const CumulativeCostChart& chart) {
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
    std::string labels;
    for (std::size_t k = 0; k < std::max<std::size_t>(months, 1); ++k) {
        labels += (k == 0 ? "" : ", ") + std::to_string(k);
    }
    out += fmt::format("    x-axis \"Month\" [{}]\n", labels);
    const double bottom = min_value(chart) < 0.0 ? -nice_ceiling(-min_value(chart)) : 0.0;
    out += fmt::format("    y-axis \"Cumulative cost ({})\" {} --> {}\n",
                       escape_mermaid(chart.currency), whole(bottom),
                       whole(nice_ceiling(max_value(chart))));
    for (const ChartSeries& series : chart.series) {
        std::string values;
        for (std::size_t k = 0; k < std::max<std::size_t>(months, 1); ++k) {
            values += (k == 0 ? "" : ", ") + whole(value_at(series, k));
        }
        out += fmt::format("    line [{}]\n", values);
    }
    return out;
}

std::string render_svg_chart(const CumulativeCostChart& chart) {
    const std::size_t months = std::max<std::size_t>(month_count(chart), 1);
    const double top = nice_ceiling(max_value(chart));
    const double bottom = min_value(chart) < 0.0 ? -nice_ceiling(-min_value(chart)) : 0.0;
    const double plot_width = k_plot_right - k_plot_left;
    const double plot_height = k_plot_bottom - k_plot_top;
    const auto x_of = [&](std::size_t month) {
        return months == 1 ? k_plot_left
                           : k_plot_left + plot_width * static_cast<double>(month) /
                                               static_cast<double>(months - 1);
    };
    const auto y_of = [&](double value) {
        return k_plot_bottom - plot_height * (value - bottom) / (top - bottom);
    };
    const double height =
        k_svg_height + k_legend_row_height * static_cast<double>(chart.series.size());

    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
                       "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n",
                       px(k_svg_width), px(height));
    out += fmt::format("  <title>{}</title>\n", escape_xml(chart.title));
    out += fmt::format("  <rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", px(k_svg_width),
                       px(height));
    out +=
        fmt::format("  <text x=\"{}\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">{}</text>\n",
                    px(k_svg_width / 2), escape_xml(chart.title));
    out += "  <g stroke=\"#dddddd\" stroke-width=\"1\">\n";
    for (int i = 0; i <= k_y_ticks; ++i) {
        const double value = bottom + (top - bottom) * i / k_y_ticks;
        out += fmt::format("    <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", px(k_plot_left),
                           px(y_of(value)), px(k_plot_right), px(y_of(value)));
    }
    out += "  </g>\n  <g fill=\"#333333\">\n";
    for (int i = 0; i <= k_y_ticks; ++i) {
        const double value = bottom + (top - bottom) * i / k_y_ticks;
        out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                           px(k_plot_left - 8), px(y_of(value) + 4), short_amount(value));
    }
    const std::size_t step = (months + k_max_x_labels - 1) / k_max_x_labels;
    for (std::size_t k = 0; k < months; k += std::max<std::size_t>(step, 1)) {
        out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                           px(x_of(k)), px(k_plot_bottom + 18), k);
    }
    out += fmt::format("    <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">Month</text>\n",
                       px((k_plot_left + k_plot_right) / 2), px(k_plot_bottom + 38));
    out += fmt::format("    <text x=\"20\" y=\"{0}\" text-anchor=\"middle\" "
                       "transform=\"rotate(-90 20 {0})\">Cumulative cost ({1})</text>\n",
                       px((k_plot_top + k_plot_bottom) / 2), escape_xml(chart.currency));
    out += "  </g>\n";
    out += fmt::format(
        "  <g stroke=\"#333333\" stroke-width=\"1\">\n    <line x1=\"{0}\" y1=\"{1}\" "
        "x2=\"{0}\" y2=\"{2}\"/>\n    <line x1=\"{0}\" y1=\"{3}\" x2=\"{4}\" "
        "y2=\"{3}\"/>\n  </g>\n",
        px(k_plot_left), px(k_plot_top), px(k_plot_bottom), px(y_of(0.0)), px(k_plot_right));
    const auto& palette = chart_palette();
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const ChartSeries& series = chart.series[i];
        std::string points;
        for (std::size_t k = 0; k < months; ++k) {
            points += fmt::format("{}{},{}", k == 0 ? "" : " ", px(x_of(k)),
                                  px(y_of(value_at(series, k))));
        }
        const std::string& colour = palette[i % palette.size()];
        out += fmt::format("  <polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" "
                           "points=\"{}\"><title>{}</title></polyline>\n",
                           colour, points, escape_xml(series.name));
        const double row = k_legend_top + k_legend_row_height * static_cast<double>(i);
        out += fmt::format("  <rect x=\"{}\" y=\"{}\" width=\"14\" height=\"4\" fill=\"{}\"/>\n",
                           px(k_plot_left), px(row - 4), colour);
        out += fmt::format("  <text x=\"{}\" y=\"{}\">{}: {} at month {}</text>\n",
                           px(k_plot_left + 22), px(row), escape_xml(series.name),
                           escape_xml(format_money(value_at(series, months - 1), chart.currency)),
                           months - 1);
    }
    out += "</svg>\n";
    return out;
}

} // namespace gpuplan::report

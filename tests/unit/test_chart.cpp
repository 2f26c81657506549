// Cumulative-cost charts: running sums, axis maxima, Mermaid xychart text and standalone SVG.
// The rendered samples are also golden files (tests/golden/charts/): the CTest checks
// svg_goldens_well_formed and mermaid_goldens_parse read every .svg as XML and parse every .mmd
// with Mermaid's own parser.

#include "gpuplan/finance/finance.hpp"
#include "gpuplan/report/chart.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace gpuplan::report;

namespace {

// The running sums of `flows`, one per month.
std::vector<double> cumulative(const std::vector<double>& flows) {
    return gpuplan::finance::cumulative(flows, flows.size());
}

} // namespace

namespace {

CumulativeCostChart sample_chart() {
    return {"Cumulative cost over 3 months",
            "USD",
            {{"on_demand", cumulative({0.0, 1000.0, 1000.0, 1000.0})},
             {"self_built <8x H100> & \"friends\"", cumulative({2500.0, 100.0, 100.0, 100.0})}}};
}

CumulativeCostChart resale_chart() {
    // Self-built with a resale larger than the remaining month's costs: the line dips at the end.
    return {"Cumulative cost, 1 year",
            "EUR",
            {{"reserved_1y", cumulative(std::vector<double>(13, 12000.0))},
             {"self_built", cumulative({90000.0, 2000.0, 2000.0, 2000.0, 2000.0, 2000.0, 2000.0,
                                        2000.0, 2000.0, 2000.0, 2000.0, 2000.0, -40000.0})},
             {"spot", cumulative({0.0, 30000.0, 30000.0, 30000.0})}}};
}

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void compare_golden(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::path(GPUPLAN_SOURCE_DIR) / "tests/golden/charts" / name;
    if (std::getenv("GPUPLAN_UPDATE_GOLDEN") != nullptr) {
        std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
        return;
    }
    CHECK(text == slurp(path));
}

} // namespace

TEST_CASE("cumulative sums monthly flows from month 0", "[chart]") {
    CHECK(cumulative({}).empty());
    CHECK(cumulative({2500.0, 100.0, -40.0}) == std::vector<double>{2500.0, 2600.0, 2560.0});
    // Held at the last sum past the flows, cut past the months asked for.
    const std::vector<double> flows{2500.0, 100.0};
    CHECK(gpuplan::finance::cumulative(flows, 4) ==
          std::vector<double>{2500.0, 2600.0, 2600.0, 2600.0});
    CHECK(gpuplan::finance::cumulative(flows, 1) == std::vector<double>{2500.0});
}

TEST_CASE("nice_ceiling rounds up to 1, 2, 2.5 or 5 times a power of ten", "[chart]") {
    CHECK(nice_ceiling(3000.0) == 5000.0);
    CHECK(nice_ceiling(2000.0) == 2000.0);
    CHECK(nice_ceiling(2100.0) == 2500.0);
    CHECK(nice_ceiling(0.0) == 1.0);
    CHECK(nice_ceiling(-5.0) == 1.0);
    CHECK(nice_ceiling(120'000.0) == 200'000.0);
    CHECK(nice_ceiling(9.9) == 10.0);
}

TEST_CASE("the Mermaid chart has one line per series, whole amounts and a 0-based axis",
          "[chart]") {
    const std::string text = render_mermaid_xychart(sample_chart());
    CHECK(text == "%%{init: {\"themeVariables\": {\"xyChart\": {\"plotColorPalette\": \"#1f77b4, "
                  "#ff7f0e\"}}}}%%\n"
                  "xychart-beta\n"
                  "    title \"Cumulative cost over 3 months\"\n"
                  "    x-axis \"Month\" [0, 1, 2, 3]\n"
                  "    y-axis \"Cumulative cost (USD)\" 0 --> 5000\n"
                  "    line [0, 1000, 2000, 3000]\n"
                  "    line [2500, 2600, 2700, 2800]\n");
    compare_golden("sample.mmd", text);
}

TEST_CASE("a shorter series is held flat and a negative total extends the axis below zero",
          "[chart]") {
    const std::string text = render_mermaid_xychart(resale_chart());
    CHECK(text.find("    line [0, 30000, 60000, 90000, 90000, 90000,") != std::string::npos);
    // 90,000 + 11 x 2,000 - 40,000 = 72,000 at month 12; the axis tops 13 x 12,000 = 156,000.
    CHECK(text.find(", 112000, 72000]\n") != std::string::npos);
    CHECK(text.find("y-axis \"Cumulative cost (EUR)\" 0 --> 200000\n") != std::string::npos);
    compare_golden("resale.mmd", text);
}

TEST_CASE("the SVG escapes names and draws one polyline per series", "[chart]") {
    const std::string svg = render_svg_chart(sample_chart());
    CHECK(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0) == 0);
    CHECK(svg.find("self_built &lt;8x H100&gt; &amp; &quot;friends&quot;") != std::string::npos);
    std::size_t polylines = 0;
    for (auto at = svg.find("<polyline"); at != std::string::npos;
         at = svg.find("<polyline", at + 1)) {
        ++polylines;
    }
    CHECK(polylines == 2);
    // on_demand: month 0 at the left edge on the zero line, month 3 at 3000 of 5000.
    CHECK(svg.find("points=\"110.0,330.0 333.3,274.0 556.7,218.0 780.0,162.0\"") !=
          std::string::npos);
    CHECK(svg.find("on_demand: 3,000.00 USD by month 3") != std::string::npos);
    compare_golden("sample.svg", svg);
    compare_golden("resale.svg", render_svg_chart(resale_chart()));
}

TEST_CASE("a cumulative total below zero extends both axes below zero", "[chart]") {
    // A resale worth more than everything paid: -50 at month 1.
    const CumulativeCostChart chart{
        "Resale gain", "USD", {{"self_built", cumulative({100.0, -150.0})}}};
    const std::string text = render_mermaid_xychart(chart);
    CHECK(text.find("    y-axis \"Cumulative cost (USD)\" -50 --> 100\n") != std::string::npos);
    CHECK(text.find("    line [100, -50]\n") != std::string::npos);
    compare_golden("negative.mmd", text);
    const std::string svg = render_svg_chart(chart);
    // The zero line sits at 330 - 280 x 50 / 150.
    CHECK(svg.find("x1=\"110.0\" y1=\"236.7\" x2=\"780.0\" y2=\"236.7\"/>") != std::string::npos);
    CHECK(svg.find("points=\"110.0,50.0 780.0,330.0\"") != std::string::npos);
    compare_golden("negative.svg", svg);
}

TEST_CASE("the same series give byte-identical charts", "[chart]") {
    CHECK(render_svg_chart(resale_chart()) == render_svg_chart(resale_chart()));
    CHECK(render_mermaid_xychart(resale_chart()) == render_mermaid_xychart(resale_chart()));
}

TEST_CASE("the chosen line is drawn boldest and labelled, rejected lines dashed grey", "[chart]") {
    CumulativeCostChart chart = sample_chart();
    chart.series[0].role = SeriesRole::chosen;
    chart.series[1].role = SeriesRole::rejected;
    const std::string svg = render_svg_chart(chart);
    CHECK(svg.find("stroke-width=\"4.0\" points=") != std::string::npos);
    CHECK(svg.find("chosen: 3,000.00 USD</text>") != std::string::npos);
    CHECK(svg.find("stroke=\"#999999\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"") !=
          std::string::npos);
    // Mermaid cannot dash a line: the rejected one is left out.
    const std::string mermaid = render_mermaid_xychart(chart);
    CHECK(mermaid_series(chart).size() == 1);
    CHECK(mermaid.find("    line [") == mermaid.rfind("    line ["));
}

TEST_CASE("amounts that differ by more than 20x get a logarithmic axis", "[chart]") {
    CumulativeCostChart chart{"c", "USD", {{"cheap", {0.0, 30.0}}, {"dear", {0.0, 100000.0}}}};
    CHECK(uses_log_scale(chart));
    const std::string svg = render_svg_chart(chart);
    CHECK(svg.find("log scale") != std::string::npos);
    // Decades 10 to 100k over 280 px: 30 sits log10(3)/4 of the way up, 33 px above the x-axis.
    CHECK(svg.find("points=\"110.0,330.0 780.0,296.6\"") != std::string::npos);
    chart.series[0].values = {0.0, 10000.0};
    CHECK_FALSE(uses_log_scale(chart));
}

TEST_CASE("options that cannot run never set the axis or force a log scale", "[chart]") {
    // A feasible 3,000 and a rejected 2,000,000: alone the rejected line would make the axis
    // logarithmic and its top 10M.
    CumulativeCostChart chart{"c",
                              "USD",
                              {{"on_demand", {0.0, 1000.0, 3000.0}, SeriesRole::chosen},
                               {"self_built (rejected)", {0.0, 2e6, 2e6}, SeriesRole::rejected}}};
    CHECK_FALSE(uses_log_scale(chart));
    CHECK(scaled_series(chart).size() == 1);
    const std::string svg = render_svg_chart(chart);
    CHECK(svg.find("log scale") == std::string::npos);
    // The axis tops out at the feasible line's nice ceiling (5k), not at the rejected 2M.
    CHECK(svg.find(">5k</text>") != std::string::npos);
    CHECK(svg.find("M</text>") == std::string::npos);
    // The rejected line runs past the top and is clipped at the plot's edge.
    CHECK(svg.find("<clipPath id=\"plot\">") != std::string::npos);
    CHECK(svg.find("stroke-dasharray=\"6 4\" clip-path=\"url(#plot)\"") != std::string::npos);
    // A cheap rejected line does not force a log scale either.
    chart.series[1].values = {0.0, 10.0, 20.0};
    chart.series[0].values = {0.0, 10000.0, 100000.0};
    CHECK_FALSE(uses_log_scale(chart));
    // With every line rejected, they are what the axis is scaled to.
    chart.series[0].role = SeriesRole::rejected;
    CHECK(scaled_series(chart).size() == 2);
    CHECK(uses_log_scale(chart));
}

TEST_CASE("a per-month chart titles its axis with its unit and marks no resale", "[chart]") {
    CumulativeCostChart chart;
    chart.title = "Demand";
    chart.measure = ChartMeasure::per_month;
    chart.unit = "GPU-hours";
    chart.series = {{"demand", {0.0, 900.0, 300.0, 700.0}},
                    {"committed", {0.0, 500.0, 500.0, 500.0}}};
    CHECK(amount_axis_title(chart) == "GPU-hours per month");
    const std::string svg = render_svg_chart(chart);
    CHECK(svg.find(">GPU-hours per month</text>") != std::string::npos);
    CHECK(svg.find("Cumulative cost") == std::string::npos);
    // The demand falls from 900 to 300: a month with less work, not a resale.
    CHECK(svg.find("resale") == std::string::npos);
    CHECK(svg.find("demand: at most 900 GPU-hours a month") != std::string::npos);
    CHECK(svg.find("by month") == std::string::npos);
    const std::string mermaid = render_mermaid_xychart(chart);
    CHECK(mermaid.find("y-axis \"GPU-hours per month\" 0 --> 1000") != std::string::npos);
    // A cumulative cost keeps its currency and its resale marks.
    CHECK(amount_axis_title(resale_chart()) == "Cumulative cost (EUR)");
    CHECK(render_svg_chart(resale_chart()).find("resale") != std::string::npos);
}

TEST_CASE("a long legend wraps inside the 800 px canvas", "[chart]") {
    const CumulativeCostChart chart{
        "c", "USD", {{std::string(200, 'x') + " " + std::string(40, 'y'), {0.0, 1.0}}}};
    const std::string svg = render_svg_chart(chart);
    // At most 95 characters of 7 px from x = 132: every legend line ends inside the canvas.
    std::istringstream lines(svg);
    for (std::string line; std::getline(lines, line);) {
        if (line.find("<text x=\"132.0\"") != std::string::npos) {
            const std::size_t start = line.find('>') + 1;
            CHECK(line.find("</text>") - start <= 200);
        }
    }
    CHECK(svg.find(std::string(40, 'y')) != std::string::npos);
}

TEST_CASE("a long Mermaid month axis is numeric, so Mermaid thins its labels", "[chart]") {
    const CumulativeCostChart chart{"c", "USD", {{"a", std::vector<double>(37, 1.0)}}};
    CHECK(render_mermaid_xychart(chart).find("x-axis \"Month\" 0 --> 36\n") != std::string::npos);
}

TEST_CASE("a self-built line's lead time is marked at the month the hardware runs", "[chart]") {
    CumulativeCostChart chart = resale_chart();
    chart.series[1].lead_time_weeks = 12.0;
    const std::string svg = render_svg_chart(chart);
    // 12 weeks = 2016 h = month 2.76 of 12; the plot spans 110..780 px: x = 264.2.
    CHECK(svg.find("lead time 12 wk</text>") != std::string::npos);
    CHECK(svg.find("<line x1=\"264.2\"") != std::string::npos);
    // A lead time past the horizon draws no mark.
    chart.series[1].lead_time_weeks = 60.0;
    CHECK(render_svg_chart(chart).find("lead time") == std::string::npos);
    chart.series[1].lead_time_weeks.reset();
    CHECK(render_svg_chart(chart) == render_svg_chart(resale_chart()));
}

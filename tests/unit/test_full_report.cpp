// The full report: best option per purchase option, the cumulative-cost chart, break-even
// points, sensitivity re-pricing and the rendered sections.

#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/report/full_report.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace gpuplan;
using namespace gpuplan::report;

namespace {

cost::Option priced(std::string id, PurchaseOption purchase,
                    std::vector<std::pair<int, double>> flows) {
    cost::Option option;
    // The id's parts: provider/region/instance/purchase, or self_built/build.
    std::vector<std::string> parts;
    for (std::size_t start = 0, slash = 0; slash != std::string::npos; start = slash + 1) {
        slash = id.find('/', start);
        parts.push_back(id.substr(start, slash == std::string::npos ? slash : slash - start));
    }
    option.provider = parts[0];
    if (purchase == PurchaseOption::self_built) {
        option.instance = parts.at(1);
    } else {
        option.region = parts.at(1);
        option.instance = parts.at(2);
    }
    option.purchase = purchase;
    option.gpu = "A100-80GB";
    option.gpu_count = 8;
    for (const auto& [month, amount] : flows) {
        option.cash_flows.add(month, cost::Item::compute, amount);
    }
    option.amounts = option.cash_flows.amounts();
    option.item_totals = option.cash_flows.item_totals();
    option.total = option.cash_flows.total();
    option.npv = option.total;
    return option;
}

// On-demand pays 100 a month for 6 months; reserved pays 60 a month for 12 months (take-or-pay);
// self-built pays 400 up front and 10 a month. Ranked: self-built (cheapest), then on-demand.
recommend::Recommendation sample_report() {
    recommend::Recommendation r;
    r.workload.name = "sample";
    r.plan.currency = "USD";
    r.plan.horizon_months = 12.0;
    r.plan.monthly_rate = 0.0;
    std::vector<std::pair<int, double>> on_demand;
    std::vector<std::pair<int, double>> reserved;
    std::vector<std::pair<int, double>> self_built{{0, 400.0}};
    for (int k = 1; k <= 12; ++k) {
        if (k <= 6) {
            on_demand.emplace_back(k, 100.0);
        }
        reserved.emplace_back(k, 60.0);
        self_built.emplace_back(k, 10.0);
    }
    r.plan.option_list = cost::OptionList(std::vector<cost::Option>{
        priced("c/r/i/on_demand", PurchaseOption::on_demand, on_demand),
        priced("c/r/i/reserved_1y", PurchaseOption::reserved_1y, reserved),
        priced("self_built/box", PurchaseOption::self_built, self_built),
        priced("c/r/j/on_demand", PurchaseOption::on_demand, {{1, 900.0}})});
    r.ranked = {2, 0, 1, 3}; // totals 520, 600, 720, 900
    r.groups = rank::group_identical(r.plan.options(), r.ranked, false);
    r.purchase_curves = recommend::purchase_curves(r);
    return r;
}

} // namespace

TEST_CASE("purchase_curves takes the first ranked option of each purchase option",
          "[full_report]") {
    std::vector<std::size_t> best;
    for (const recommend::PurchaseCurve& curve : sample_report().purchase_curves.curves) {
        best.push_back(curve.option);
    }
    CHECK(best == std::vector<std::size_t>{0, 1, 2});
}

TEST_CASE("purchase_curves falls back to the cheapest rejected option of a purchase option",
          "[full_report]") {
    recommend::Recommendation r = sample_report();
    r.ranked = {2, 1};
    r.rejected = {3, 0}; // on-demand: 900 and 600; the cheaper one stands for on-demand
    const recommend::PurchaseCurves curves = recommend::purchase_curves(r);
    REQUIRE(curves.curves.size() == 3);
    CHECK(curves.curves[0].option == 0);
    CHECK(curves.curves[0].cumulative.back() == 600.0);
}

TEST_CASE("the chart holds each cumulative cost flat to the horizon", "[full_report]") {
    const CumulativeCostChart chart = purchase_option_chart(sample_report());
    REQUIRE(chart.series.size() == 3);
    CHECK(chart.series[0].name == "on_demand: c/r/i/on_demand");
    CHECK(chart.series[0].values.size() == 13);
    CHECK(chart.series[0].values[6] == 600.0);
    CHECK(chart.series[0].values[12] == 600.0);
    CHECK(chart.series[2].values[0] == 400.0);
    CHECK(chart.series[2].values[12] == 520.0);
}

TEST_CASE("break-even months are counted against the best on-demand option", "[full_report]") {
    const std::vector<BreakEven> points = break_even_points(sample_report());
    REQUIRE(points.size() == 2);
    // Reserved (60 a month for 12) never catches on-demand's 600 by month 12 (720).
    CHECK(points[0].purchase == PurchaseOption::reserved_1y);
    CHECK_FALSE(points[0].month);
    // Self-built: 400 + 10k <= 100k from k = 5 (450 <= 500) and stays so (520 <= 600).
    CHECK(points[1].purchase == PurchaseOption::self_built);
    CHECK(points[1].month == 5);
}

TEST_CASE("break-even points are empty without a feasible on-demand option", "[full_report]") {
    recommend::Recommendation r = sample_report();
    r.ranked = {2, 1};
    r.purchase_curves = recommend::purchase_curves(r);
    CHECK(break_even_points(r).empty());
}

TEST_CASE("scale_prices moves every price and nothing else", "[full_report]") {
    std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/tests/fixtures/catalog/minimal.yaml");
    std::ostringstream text;
    text << in.rdbuf();
    const std::vector<TextFile> files{{"minimal.yaml", text.str()}};
    const catalog::Catalog base = catalog::load_catalog(files);
    const catalog::Catalog scaled = recommend::scale_prices(base, 0.8);
    const catalog::PriceRow& before = base.providers.at(0).instances.at(0).prices.at(0);
    const catalog::PriceRow& after = scaled.providers.at(0).instances.at(0).prices.at(0);
    CHECK(*after.on_demand == Approx(*before.on_demand * 0.8));
    CHECK(*after.spot == Approx(*before.spot * 0.8));
    CHECK(scaled.gpus == base.gpus);
    CHECK(scaled.digest == base.digest);
}

TEST_CASE("the report has every section in order, with the chart as a Mermaid block",
          "[full_report]") {
    const recommend::Recommendation r = sample_report();
    const std::string text = render_full_report(r);
    std::size_t at = 0;
    for (const char* heading :
         {"# gpuplan report: sample", "## Summary", "## Workload and assumptions",
          "## Ranked options", "## Cost breakdown of the top options",
          "## Cumulative cost over the horizon", "```mermaid\n", "## Break-even points",
          "## Sensitivity", "## Decision", "## Rejected options", "## Catalog provenance"}) {
        const auto found = text.find(heading, at);
        INFO(heading);
        REQUIRE(found != std::string::npos);
        at = found;
    }
    CHECK(text.find("| self_built | self_built/box | month 5 |") != std::string::npos);
    CHECK(text.find("| reserved_1y | c/r/i/reserved_1y | never within the horizon |") !=
          std::string::npos);
    CHECK(text.find("Generated at") == std::string::npos);
}

TEST_CASE("names are escaped in the markdown report", "[full_report]") {
    recommend::Recommendation r = sample_report();
    r.workload.name = "a|b <script>";
    const std::string text = render_full_report(r);
    CHECK(text.find("# gpuplan report: a\\|b &lt;script&gt;\n") != std::string::npos);
    // Raw only inside the fenced JSON echo of the workload, which renders as code.
    const auto fence = text.find("```json\n");
    const auto fence_end = text.find("\n```\n", fence);
    const auto raw = text.find("<script>");
    CHECK(raw > fence);
    CHECK(raw < fence_end);
    CHECK(text.find("<script>", fence_end) == std::string::npos);
    CHECK(text.find("title \"Cumulative cost of a|b ‹script›\"") != std::string::npos);
}

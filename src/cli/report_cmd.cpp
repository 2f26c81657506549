#include "cli/report_cmd.hpp"

#include "cli/catalog_input.hpp"
#include "gpuplan/curve/curve.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/report/full_report.hpp"
#include "gpuplan/report/html_report.hpp"

namespace gpuplan::cli {

Exit run_report(const CommonOptions& common, const ReportOptions& options, Io& io) {
    if (common.format == report::Format::json) {
        throw UsageError("report writes markdown; for JSON run 'gpuplan recommend --format json'");
    }
    std::optional<recommend::PriceCache> cache;
    const catalog::Catalog catalog = load_catalog(common, &cache);
    // The report compares every purchase option, so options the decision tree excludes are
    // priced too (as with --explain) and stay listed as rejected, with the rule that excluded them.
    RecommendOptions recommend = options.recommend;
    recommend.rules.explain = !recommend.rules.none;
    const recommend::Recommendation recommendation =
        make_recommendation(common, recommend, catalog, io, true, cache);
    std::vector<OutputFile> chart;
    if (!options.chart.empty()) {
        chart.push_back({options.chart,
                         report::render_svg_chart(report::purchase_option_chart(recommendation))});
    }
    const std::optional<curve::CurvePlan> curve = curve::plan_curve(recommendation, catalog);
    const curve::CurvePlan* plan = curve ? &*curve : nullptr;
    write_output(common,
                 common.html ? report::render_html_report(recommendation, plan)
                             : report::render_full_report(recommendation, plan),
                 io, chart);
    return Exit::ok;
}

} // namespace gpuplan::cli

#include "cli/report_cmd.hpp"

#include "gpuplan/error.hpp"
#include "gpuplan/report/full_report.hpp"

namespace gpuplan::cli {

Exit run_report(const CommonOptions& common, const ReportOptions& options, Io& io) {
    if (common.format == report::Format::json) {
        throw UsageError("report writes markdown; for JSON run 'gpuplan recommend --format json'");
    }
    const catalog::Catalog catalog = load_catalog(common);
    // The report compares every purchase option, so options the decision tree excludes are
    // priced too (as with --explain) and stay listed as rejected, with the rule that excluded them.
    RecommendOptions recommend = options.recommend;
    recommend.rules.explain = !recommend.rules.none;
    const recommend::Recommendation recommendation =
        make_recommendation(common, recommend, catalog, true);
    if (!options.chart.empty()) {
        CommonOptions chart_output = common;
        chart_output.output = options.chart;
        chart_output.format = report::Format::markdown; // no JSON stamping
        write_output(chart_output,
                     report::render_svg_chart(report::purchase_option_chart(recommendation)), io);
    }
    write_output(common, report::render_full_report(recommendation), io);
    return Exit::ok;
}

} // namespace gpuplan::cli

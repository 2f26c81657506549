#include "cli/fleet_cmd.hpp"

#include "cli/catalog_input.hpp"
#include "cli/input_file.hpp"
#include "cli/rules_cmd.hpp"
#include "cli/workload_input.hpp"
#include "gpuplan/fleet/fleet.hpp"
#include "gpuplan/fleet/portfolio.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/report/fleet_view.hpp"

#include <chrono>
#include <spdlog/spdlog.h>

namespace gpuplan::cli {

Exit run_fleet(const CommonOptions& common, const FleetOptions& options, Io& io) {
    const catalog::Catalog catalog = load_catalog(common);
    const std::vector<std::string> known = catalog::currencies(catalog);
    fleet::Portfolio portfolio = timed("parse", [&] {
        return fleet::read_portfolio(
            read_text_file(options.portfolio, limits::k_max_workload_bytes),
            relative_file_loader(options.portfolio), known);
    });
    if (!common.calibration.empty()) {
        const workload::Calibration calibration = load_calibration(common);
        for (fleet::Entry& entry : portfolio.entries) {
            entry.workload.calibration = calibration;
        }
    }
    const decide::Tree tree = load_tree("", catalog);
    cost::Settings settings;
    settings.currency = common.currency;
    settings.accept_soft = options.accept_soft || common.accept_soft;
    fleet::SolverBudget budget;
    budget.seconds = options.solver_seconds > 0.0  ? options.solver_seconds
                     : common.solver_seconds > 0.0 ? common.solver_seconds
                                                   : fleet::k_default_solver_seconds;
    budget.clock = [] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    };
    const fleet::Planned planned = timed("fleet", [&] {
        return fleet::plan_fleet(portfolio, catalog, &tree, settings, generator_info(common),
                                 budget);
    });
    spdlog::info("fleet: {} pools, {} columns ({} integer), {} rows", planned.plan.pools,
                 planned.plan.columns, planned.plan.integer_columns, planned.plan.rows);
    std::vector<OutputFile> chart;
    if (!options.chart.empty()) {
        chart.push_back(
            {options.chart, report::render_svg_chart(report::fleet_chart(planned.plan))});
    }
    write_output(common,
                 common.html ? report::render_fleet_html(planned.plan)
                             : report::render_fleet(planned.plan, common.format, common.width),
                 io, chart);
    return Exit::ok;
}

} // namespace gpuplan::cli

#include "cli/estimate_cmd.hpp"

#include "cli/catalog_input.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/report/estimate_view.hpp"
#include "gpuplan/report/presets_view.hpp"

namespace gpuplan::cli {

Exit run_estimate(const CommonOptions& common, const EstimateOptions& options, Io& io) {
    const catalog::Catalog catalog = load_catalog(common);
    const workload::Workload workload = resolve_workload(options.input, common, catalog);
    const std::vector<estimate::GpuEstimate> estimates = estimate::estimate_all(workload, catalog);
    write_output(common,
                 report::render_estimates(
                     workload, estimates, common.format, generator_info(common),
                     recommend::estimate_catalog_info(catalog, estimates), common.width),
                 io);
    return Exit::ok;
}

Exit run_presets(const CommonOptions& common, Io& io) {
    std::vector<report::PresetEntry> presets;
    for (const std::string& name : preset_names()) {
        presets.push_back({name, read_preset(name)});
    }
    write_output(
        common,
        report::render_presets(presets, common.format, generator_info(common), common.width), io);
    return Exit::ok;
}

} // namespace gpuplan::cli

#include "cli/estimate_cmd.hpp"

#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/report/estimate_view.hpp"
#include "gpuplan/report/text_table.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace gpuplan::cli {

namespace {

// Narrowest a preset's description is cut to (with an ellipsis; `gpuplan --wide presets` or
// the preset file has it whole).
constexpr std::size_t k_min_description_width = 20;

} // namespace

Exit run_estimate(const CommonOptions& common, const EstimateOptions& options, Io& io) {
    const catalog::Catalog catalog = load_catalog(common);
    const workload::Workload workload = resolve_workload(options.input, common, catalog);
    const std::vector<estimate::GpuEstimate> estimates = estimate::estimate_all(workload, catalog);
    write_output(common,
                 report::render_estimates(workload, estimates, common.format, generator_info(),
                                          catalog, common.width),
                 io);
    return Exit::ok;
}

Exit run_presets(const CommonOptions& common, Io& io) {
    std::vector<std::pair<std::string, workload::Workload>> presets;
    for (const std::string& name : preset_names()) {
        presets.emplace_back(name, read_preset(name));
    }
    std::string text;
    if (common.format == report::Format::json) {
        nlohmann::ordered_json out;
        out["schema_version"] = k_json_schema_version;
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const auto& [name, workload] : presets) {
            list.push_back({{"name", name},
                            {"task", workload::to_string(workload.task)},
                            {"description", workload.description}});
        }
        out["presets"] = list;
        text = out.dump(2) + "\n";
    } else {
        report::TextTable table;
        table.add_column("preset");
        table.add_column("task");
        table.add_column("description", report::Align::left, k_min_description_width);
        for (const auto& [name, workload] : presets) {
            table.add_row(
                {name, std::string(workload::to_string(workload.task)), workload.description});
        }
        text = common.format == report::Format::markdown ? table.render_markdown()
                                                         : table.render_text(common.width);
    }
    write_output(common, text, io);
    return Exit::ok;
}

} // namespace gpuplan::cli

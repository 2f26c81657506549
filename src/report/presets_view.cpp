#include "gpuplan/report/presets_view.hpp"

#include "report/generator_json.hpp"

#include <nlohmann/json.hpp>

namespace gpuplan::report {

namespace {

// Narrowest a preset's description is cut to (with an ellipsis; `gpuplan --wide presets` or
// the preset file has it whole).
constexpr std::size_t k_min_description_width = 20;

} // namespace

std::string render_presets(std::span<const PresetEntry> presets, Format format,
                           const GeneratorInfo& generator, std::size_t width) {
    if (format == Format::json) {
        nlohmann::ordered_json out;
        out["schema_version"] = k_json_schema_version;
        put_generated_at(out, generator);
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const PresetEntry& preset : presets) {
            list.push_back({{"name", preset.name},
                            {"task", workload::to_string(preset.workload.task)},
                            {"description", preset.workload.description}});
        }
        out["presets"] = list;
        return out.dump(2) + "\n";
    }
    TextTable table;
    table.add_column("preset");
    table.add_column("task");
    table.add_column("description", Align::left, k_min_description_width);
    for (const PresetEntry& preset : presets) {
        table.add_row({preset.name, std::string(workload::to_string(preset.workload.task)),
                       preset.workload.description});
    }
    return format == Format::markdown ? table.render_markdown() : table.render_text(width);
}

} // namespace gpuplan::report

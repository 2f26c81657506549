#pragma once
// Rendering of `gpuplan presets`: the bundled workload presets.

#include "gpuplan/generator.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"
#include "gpuplan/workload/workload.hpp"

#include <span>
#include <string>

namespace gpuplan::report {

// One bundled preset: the name `--preset` takes and the workload it reads.
struct PresetEntry {
    std::string name;
    workload::Workload workload;
};

// The presets in the order given: a table of name, task and description (the description cut to
// fit `width` terminal columns; 0: no limit), markdown, or JSON (docs/schema/presets.schema.json).
[[nodiscard]] std::string render_presets(std::span<const PresetEntry> presets, Format format,
                                         const GeneratorInfo& generator,
                                         std::size_t width = k_terminal_width);

} // namespace gpuplan::report

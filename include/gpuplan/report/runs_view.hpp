#pragma once
// Rendering of `gpuplan validate` and `gpuplan calibrate`: measured runs against the estimator,
// and the fitted speed factors.

#include "gpuplan/generator.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"
#include "gpuplan/runs/calibrate.hpp"
#include "gpuplan/runs/validate.hpp"

#include <string>

namespace gpuplan::report {

// One table per group and sample (in the file's order) with each run's metric, measured,
// predicted, error and layout, then the summary: table, markdown, or JSON
// (docs/schema/validate.schema.json).
[[nodiscard]] std::string render_validation(const runs::Validation& validation, Format format,
                                            const GeneratorInfo& generator,
                                            std::size_t width = k_terminal_width);

// Each factor with its runs, its leave-one-out error and how far it moved from the default:
// table, markdown, or JSON (docs/schema/calibrate.schema.json).
[[nodiscard]] std::string render_fit(const runs::Fit& fit, Format format,
                                     const GeneratorInfo& generator,
                                     std::size_t width = k_terminal_width);

} // namespace gpuplan::report

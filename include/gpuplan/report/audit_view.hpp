#pragma once
// Rendering of `gpuplan catalog audit`.

#include "gpuplan/catalog/audit.hpp"
#include "gpuplan/report/catalog_view.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"

#include <string>

namespace gpuplan::report {

// The audit as text (a summary of the rows and their dates, then one line per finding, errors
// first), markdown (the same as a list) or JSON (`summary` and `findings[]`). Text lines fit
// `width` columns (0: no limit).
[[nodiscard]] std::string render_catalog_audit(const catalog::AuditReport& audit, Format format,
                                               const GeneratorInfo& generator,
                                               std::size_t width = k_terminal_width);

} // namespace gpuplan::report

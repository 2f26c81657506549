#pragma once
// Rendering of `gpuplan catalog diff A B`.

#include "gpuplan/catalog/diff.hpp"
#include "gpuplan/report/catalog_view.hpp"
#include "gpuplan/report/output_format.hpp"

#include <string>
#include <vector>

namespace gpuplan::report {

// What a side of the comparison was read from.
struct DiffSide {
    std::vector<std::string> files;
    std::string digest;
    std::size_t offers = 0;
};

// The changes as a table (one row per changed price, relative change for moved prices), JSON
// (`changes[]` with exact before/after values) or markdown, with a summary line of counts. The
// table fits `width` terminal columns (instance types, regions, zones and price names
// wrap; 0: no limit).
[[nodiscard]] std::string render_catalog_diff(const catalog::CatalogDiff& diff, const DiffSide& a,
                                              const DiffSide& b, Format format,
                                              const GeneratorInfo& generator,
                                              std::size_t width = k_terminal_width);

} // namespace gpuplan::report

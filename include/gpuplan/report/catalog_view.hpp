#pragma once
// Renderings of the catalog for `gpuplan catalog list` and `gpuplan catalog show`.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/generator.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::report {

// Which offers to list; empty lists match everything. GPU names may be aliases.
struct CatalogFilter {
    std::vector<std::string> gpus;
    std::vector<std::string> providers;
    std::vector<std::string> regions;
};

// The GPU models and instance offers that pass `filter`. Table and markdown show one row per
// instance type with its cheapest price; JSON lists every price row with its as_of and source.
// The table fits `width` terminal columns: each GPU model heads its rows and long instance types
// wrap onto more lines, whole; 0 (--wide) fits nothing and has a GPU column, as markdown has.
// Throws UsageError for a filter naming an unknown GPU or provider.
[[nodiscard]] std::string render_catalog_list(const catalog::Catalog& catalog,
                                              const CatalogFilter& filter, Format format,
                                              const GeneratorInfo& generator,
                                              std::size_t width = k_terminal_width);

// Everything the catalog says about `name`: a GPU model, a provider, an instance type or a
// self-built build. nullopt when nothing has that name.
[[nodiscard]] std::optional<std::string> render_catalog_show(const catalog::Catalog& catalog,
                                                             std::string_view name, Format format,
                                                             const GeneratorInfo& generator,
                                                             std::size_t width = k_terminal_width);

} // namespace gpuplan::report

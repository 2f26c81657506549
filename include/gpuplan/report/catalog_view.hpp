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

// The order of `catalog list`'s table rows.
enum class ListSort {
    gpu,      // GPU model, GPU count, provider, instance type
    price,    // on-demand price per GPU-hour, cheapest first (unpriced last), then as gpu
    provider, // provider, then as gpu
};

// How `catalog list` shows its table: the order, and the currency prices are converted to
// (empty: each provider's own), at the catalog's rate for each price's date.
struct ListView {
    ListSort sort = ListSort::gpu;
    std::string currency;
    std::size_t width = k_terminal_width; // 0 = --wide
};

// The GPU models and instance offers that pass `filter`. Table and markdown show one row per
// instance type with its cheapest price, its device memory, vCPUs and host memory; JSON lists
// every price row as the catalog holds it, with its currency, as_of and source. The table fits
// `view.width` terminal columns: each GPU model heads its rows and long instance types wrap onto
// more lines, whole; 0 (--wide) fits nothing and has a GPU column, as markdown has. Throws
// UsageError for a filter naming an unknown GPU or provider, or a currency the catalog cannot
// convert to.
[[nodiscard]] std::string render_catalog_list(const catalog::Catalog& catalog,
                                              const CatalogFilter& filter, Format format,
                                              const GeneratorInfo& generator,
                                              const ListView& view = {});

// Everything the catalog says about `name`: a GPU model, a provider, an instance type or a
// self-built build. nullopt when nothing has that name.
[[nodiscard]] std::optional<std::string> render_catalog_show(const catalog::Catalog& catalog,
                                                             std::string_view name, Format format,
                                                             const GeneratorInfo& generator,
                                                             std::size_t width = k_terminal_width);

} // namespace gpuplan::report

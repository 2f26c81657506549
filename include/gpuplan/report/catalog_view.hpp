#pragma once
// Renderings of the catalog for `gpuplan catalog list` and `gpuplan catalog show`.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/catalog/listing.hpp"
#include "gpuplan/generator.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::report {

// A listing of `catalog` (catalog::list_catalog). Table and markdown show one row per instance
// type with its cheapest price, its device memory, vCPUs and host memory; JSON lists every price
// row as the catalog holds it, with its currency, as_of and source (the listing's currency is not
// applied). The table fits `width` terminal columns: in GPU order each GPU model heads its rows
// and long instance types wrap onto more lines, whole; 0 (--wide) fits nothing and has a GPU
// column, as markdown has.
[[nodiscard]] std::string render_catalog_list(const catalog::Catalog& catalog,
                                              const catalog::Listing& listing, Format format,
                                              const GeneratorInfo& generator,
                                              std::size_t width = k_terminal_width);

// Everything the catalog says about a GPU model or an instance type `named`
// (catalog::find_named): its figures, sources and, for an instance type, every price row. A
// provider is shown by its listing (render_catalog_list); empty when `named` holds neither.
[[nodiscard]] std::string render_catalog_show(const catalog::Catalog& catalog,
                                              const catalog::Named& named, Format format,
                                              const GeneratorInfo& generator,
                                              std::size_t width = k_terminal_width);

} // namespace gpuplan::report

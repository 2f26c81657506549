#pragma once
// `gpuplan catalog list|show|validate`.

#include "cli/common.hpp"

namespace gpuplan::cli {

struct CatalogListOptions {
    catalog::CatalogFilter filter;
    std::string sort = "gpu"; // --sort gpu|price|provider
};

struct CatalogShowOptions {
    std::string name;
};

struct CatalogValidateOptions {
    std::vector<std::string> paths; // empty = the embedded catalog
};

[[nodiscard]] Exit run_catalog_list(const CommonOptions& common, const CatalogListOptions& options,
                                    Io& io);
[[nodiscard]] Exit run_catalog_show(const CommonOptions& common, const CatalogShowOptions& options,
                                    Io& io);
[[nodiscard]] Exit run_catalog_validate(const CommonOptions& common,
                                        const CatalogValidateOptions& options, Io& io);

} // namespace gpuplan::cli

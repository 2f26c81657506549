#pragma once
// `gpuplan catalog list|show|validate|audit`.

#include "cli/common.hpp"

#include <optional>
#include <string>
#include <vector>

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

struct CatalogAuditOptions {
    std::vector<std::string> paths;   // empty = the catalog the global options load
    std::optional<std::string> today; // --today YYYY-MM-DD
};

[[nodiscard]] Exit run_catalog_list(const CommonOptions& common, const CatalogListOptions& options,
                                    Io& io);
[[nodiscard]] Exit run_catalog_show(const CommonOptions& common, const CatalogShowOptions& options,
                                    Io& io);
[[nodiscard]] Exit run_catalog_validate(const CommonOptions& common,
                                        const CatalogValidateOptions& options, Io& io);
// Audits the catalog the global options load, or only the rows PATHs add or change on it; exit 4
// when an audit check fails (docs/catalog-format.md, "Audit").
[[nodiscard]] Exit run_catalog_audit(const CommonOptions& common,
                                     const CatalogAuditOptions& options, Io& io);

} // namespace gpuplan::cli

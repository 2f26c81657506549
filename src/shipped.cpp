#include "gpuplan/shipped.hpp"

#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/decide/tree.hpp"

namespace gpuplan::shipped {

FileKind kind_of(std::string_view relative_name) {
    if (relative_name.rfind("presets/", 0) == 0) {
        return FileKind::preset;
    }
    if (relative_name == "decision_tree.yaml") {
        return FileKind::rules;
    }
    return FileKind::catalog;
}

std::vector<Diagnostic>
validate_shipped(const std::vector<std::pair<std::string, std::string>>& files) {
    std::vector<catalog::TextFile> catalog_files;
    for (const auto& [name, text] : files) {
        if (kind_of(name) == FileKind::catalog) {
            catalog_files.push_back({"catalog/" + name, text});
        }
    }
    std::vector<Diagnostic> problems = catalog::validate_catalog(catalog_files);
    // The tree's GPU names are checked against the shipped catalog when it is valid.
    std::optional<catalog::Catalog> shipped_catalog;
    if (problems.empty()) {
        shipped_catalog = catalog::load_catalog(catalog_files);
    }
    for (const auto& [name, text] : files) {
        if (kind_of(name) == FileKind::rules) {
            auto found = decide::validate_tree({"catalog/" + name, text},
                                               shipped_catalog ? &*shipped_catalog : nullptr);
            problems.insert(problems.end(), found.begin(), found.end());
        }
    }
    // Presets are validated by the workload reader once that stage exists.
    return problems;
}

} // namespace gpuplan::shipped

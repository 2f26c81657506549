#include "gpuplan/shipped.hpp"

#include "gpuplan/catalog/loader.hpp"

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
    // Presets and the decision tree are validated by their readers once those stages exist;
    // see the workload and decide modules.
    return catalog::validate_catalog(catalog_files);
}

} // namespace gpuplan::shipped

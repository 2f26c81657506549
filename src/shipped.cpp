#include "gpuplan/shipped.hpp"

#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/workload/reader.hpp"

namespace gpuplan::shipped {

namespace {

constexpr std::string_view k_preset_folder = "presets/";
constexpr std::string_view k_yaml_suffix = ".yaml";

} // namespace

FileKind kind_of(std::string_view relative_name) {
    if (relative_name.rfind(k_preset_folder, 0) == 0) {
        return FileKind::preset;
    }
    if (relative_name == "decision_tree.yaml") {
        return FileKind::rules;
    }
    return FileKind::catalog;
}

std::vector<Diagnostic>
validate_shipped(const std::vector<std::pair<std::string, std::string>>& files) {
    std::vector<TextFile> catalog_files;
    std::vector<Diagnostic> problems;
    for (const auto& [name, text] : files) {
        if (kind_of(name) == FileKind::catalog) {
            catalog_files.push_back({"catalog/" + name, text});
        }
    }
    problems = catalog::validate_catalog(catalog_files);
    for (const auto& [name, text] : files) {
        if (kind_of(name) != FileKind::preset) {
            continue;
        }
        const std::string path = "catalog/" + name;
        try {
            const workload::Workload preset = workload::read_workload({path, text});
            // `--preset NAME` finds presets/NAME.yaml, so the name inside must match the file.
            std::string stem = name.substr(k_preset_folder.size());
            if (stem.size() > k_yaml_suffix.size() &&
                stem.compare(stem.size() - k_yaml_suffix.size(), k_yaml_suffix.size(),
                             k_yaml_suffix) == 0) {
                stem.resize(stem.size() - k_yaml_suffix.size());
            }
            if (preset.name != stem) {
                problems.push_back({path, 0, 0, "/name",
                                    "preset name '" + preset.name +
                                        "' differs from its file name '" + stem + "'"});
            }
            if (preset.description.empty()) {
                problems.push_back({path, 0, 0, "/description",
                                    "a preset needs a description (gpuplan presets shows it)"});
            }
        } catch (const InputError& e) {
            problems.insert(problems.end(), e.diagnostics().begin(), e.diagnostics().end());
        }
    }
    // The tree's GPU names are checked against the shipped catalog when that is valid.
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
    return problems;
}

} // namespace gpuplan::shipped

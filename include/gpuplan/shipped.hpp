#pragma once
// The files gpuplan ships in catalog/: which reader each belongs to, and a validation of all of
// them (run at build time and by `gpuplan catalog validate`).

#include "gpuplan/error.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::shipped {

enum class FileKind { catalog, preset, rules };

// Classifies a path relative to the catalog folder: `presets/*.yaml` are workload presets,
// `decision_tree.yaml` is the decision tree, everything else is catalog data.
[[nodiscard]] FileKind kind_of(std::string_view relative_name);

// Validates every shipped file with the reader of its kind (the catalog files together);
// names in diagnostics are prefixed with `catalog/`. Empty when everything is valid.
[[nodiscard]] std::vector<Diagnostic>
validate_shipped(const std::vector<std::pair<std::string, std::string>>& files);

} // namespace gpuplan::shipped

#pragma once
// The catalog, presets and decision tree compiled into the executable.

#include "gpuplan/catalog/bundle.hpp"

#include <optional>
#include <string_view>

namespace gpuplan::embedded {

// The embedded bundle's shipped files and compiled forms, indexed on first use; its catalog is
// not decoded. Every function here throws RuntimeError if the bundle is corrupt, which only a
// broken build can cause.
[[nodiscard]] const catalog::BundleIndex& index();

// The embedded catalog, decoded on first use (no YAML is parsed).
[[nodiscard]] const catalog::Catalog& catalog();

// A catalog of the caller's own, decoded anew: cheaper than copying catalog() when it is to be
// changed or kept (the active catalog of a command).
[[nodiscard]] catalog::Catalog decode_catalog();

// The text of a shipped file by its path relative to the catalog folder
// (`decision_tree.yaml`, `presets/resnet50-imagenet.yaml`); nullopt when absent.
[[nodiscard]] std::optional<std::string_view> file(std::string_view name);

// The compiled form of a shipped file, by the file's name (`decision_tree.yaml`: the parsed tree,
// decoded by decide::read_tree_bundle); nullopt when the build compiled none.
[[nodiscard]] std::optional<std::string_view> compiled(std::string_view name);

} // namespace gpuplan::embedded

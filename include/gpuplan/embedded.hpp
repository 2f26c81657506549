#pragma once
// The catalog, presets and decision tree compiled into the executable. How they are encoded is
// private to the codecs (src/codecs/); this is what the rest of gpuplan reads of them.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/workload/workload.hpp"

#include <optional>
#include <span>
#include <string_view>

namespace gpuplan::embedded {

// A shipped file: its path relative to the catalog folder (`providers/aws.yaml`) and its text.
struct File {
    std::string_view name;
    std::string_view text;
};

// Every shipped file, in the order the build bundled them. Every function here throws
// RuntimeError if the bundle is corrupt, which only a broken build can cause.
[[nodiscard]] std::span<const File> files();

// The text of a shipped file by its path relative to the catalog folder
// (`decision_tree.yaml`, `presets/resnet50-imagenet.yaml`); nullopt when absent.
[[nodiscard]] std::optional<std::string_view> file(std::string_view name);

// The embedded catalog, decoded on first use (no YAML is parsed).
[[nodiscard]] const catalog::Catalog& catalog();

// A catalog of the caller's own, decoded anew: cheaper than copying catalog() when it is to be
// changed or kept (the active catalog of a command).
[[nodiscard]] catalog::Catalog decode_catalog();

// The shipped decision tree, parsed and checked by the build, with its GPU model names resolved
// against `catalog` (the only part that depends on it). Throws InputError when `catalog` lacks a
// model the tree names.
[[nodiscard]] decide::Tree decision_tree(const catalog::Catalog& catalog);

// A shipped preset (`presets/llama-7b-lora.yaml`) as the build read it; nullopt when the build
// compiled none of that name (the caller reads the file's YAML instead).
[[nodiscard]] std::optional<workload::Workload> compiled_preset(std::string_view name);

// The compiled bytes of a shipped file, by the file's name; nullopt when the build compiled none.
// Opaque here: for the tests that check the build's encoding against the YAML.
[[nodiscard]] std::optional<std::string_view> compiled(std::string_view name);

} // namespace gpuplan::embedded

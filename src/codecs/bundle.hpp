#pragma once
// The embedded bundle: a validated catalog in a compact binary form, the raw text of every
// shipped file (catalog YAML, presets, decision tree) and the compiled form of the shipped files
// other modules pre-parse (the decision tree, tree_bundle.hpp; the presets, workload_bundle.hpp).
// Written at build time by gpuplan_bundle, read at start-up without parsing any YAML.

#include "gpuplan/catalog/catalog.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::codecs {

// A shipped file: its path relative to the catalog folder (`providers/aws.yaml`) and its text.
struct EmbeddedFile {
    std::string_view name;
    std::string_view text;
};

struct BundleView {
    catalog::Catalog catalog;
    std::vector<EmbeddedFile> files;    // views into the bundle bytes
    std::vector<EmbeddedFile> compiled; // by the name of the file they were compiled from; the
                                        // bytes are opaque here, their module decodes them
};

// Serialises a catalog, the shipped files and the compiled forms of some of them.
[[nodiscard]] std::string
write_bundle(const catalog::Catalog& catalog,
             const std::vector<std::pair<std::string, std::string>>& files,
             const std::vector<std::pair<std::string, std::string>>& compiled = {});

// Decodes bytes written by write_bundle; the file views point into `bytes`. Throws RuntimeError
// when the bytes are not a bundle of this build's format.
[[nodiscard]] BundleView read_bundle(std::string_view bytes);

// A bundle's files and compiled forms with its catalog still encoded: finding a shipped file
// costs no catalog decoding.
struct BundleIndex {
    std::vector<EmbeddedFile> files;
    std::vector<EmbeddedFile> compiled;
    std::string_view catalog; // the encoded catalog, for read_bundle_catalog
};
[[nodiscard]] BundleIndex index_bundle(std::string_view bytes);
[[nodiscard]] catalog::Catalog read_bundle_catalog(std::string_view encoded);

} // namespace gpuplan::codecs

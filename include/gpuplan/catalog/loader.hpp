#pragma once
// Reading catalog files: YAML text in, a merged and cross-checked Catalog out.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/error.hpp"

#include <span>
#include <string>
#include <vector>

namespace gpuplan::catalog {

// The name (for diagnostics) and content of one input file; the CLI reads files, the core
// never does.
struct TextFile {
    std::string name;
    std::string text;
};

// Loads `files` in order, later entities overriding earlier ones (docs/catalog-format.md,
// "Overlays"), and checks references across all of them. Throws InputError with every problem.
[[nodiscard]] Catalog load_catalog(std::span<const TextFile> files);

// Applies overlay files on top of an already loaded catalog; throws InputError.
[[nodiscard]] Catalog overlay_catalog(Catalog base, std::span<const TextFile> files);

// Every problem in `files` (empty when they form a valid catalog); never throws.
[[nodiscard]] std::vector<Diagnostic> validate_catalog(std::span<const TextFile> files);

// FNV-1a 64-bit hash, as 16 lower-case hex digits; chained over files for the catalog digest.
[[nodiscard]] std::string fnv1a64_hex(std::string_view text, std::string_view seed = {});

} // namespace gpuplan::catalog

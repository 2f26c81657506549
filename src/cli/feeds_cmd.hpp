#pragma once
// `gpuplan catalog import` and `gpuplan catalog diff`.

#include "cli/common.hpp"

namespace gpuplan::cli {

struct CatalogImportOptions {
    std::string from = "skypilot";
    std::vector<std::string> files;
    std::string provider; // empty = infer from each file
    bool undated = false; // the snapshots' own dates are unknown (--undated)
};

struct CatalogDiffOptions {
    std::string a;
    std::string b;
};

// What an import read, for people: per provider (with where it was written, from `written`:
// provider, target) its instance types, price rows and as_of, then rows per accelerator, names
// left out, corrections and each file's date.
[[nodiscard]] std::string
import_summary(const feeds::FeedRead& read,
               const std::vector<std::pair<std::string, std::string>>& written);

// Reads price feeds and writes catalog YAML: to stdout (one document), or with -o DIR one
// `<provider>.yaml` per provider, each written atomically. A summary of rows goes to stdout with
// -o and to stderr without.
[[nodiscard]] Exit run_catalog_import(const CommonOptions& common,
                                      const CatalogImportOptions& options, Io& io);

// Prints the price changes from catalog A to catalog B (files, folders or feeds).
[[nodiscard]] Exit run_catalog_diff(const CommonOptions& common, const CatalogDiffOptions& options,
                                    Io& io);

} // namespace gpuplan::cli

#pragma once
// `gpuplan catalog update`: downloads the public SkyPilot price feeds (or a mirror of them),
// imports them and stores them in the user's price cache (cli/price_cache.hpp).

#include "cli/common.hpp"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::cli {

// The public SkyPilot catalog repository's raw files, laid out as `BASE/<cloud>/vms.csv`.
inline constexpr std::string_view k_default_update_source =
    "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v9";

// The clouds the shipped catalog already imports from that layout (docs/cli.md).
inline constexpr std::array<std::string_view, 5> k_default_update_clouds{"aws", "gcp", "lambda",
                                                                         "nebius", "oci"};

struct CatalogUpdateOptions {
    std::string source;              // root URL; empty = k_default_update_source
    std::vector<std::string> clouds; // empty = k_default_update_clouds
    long timeout_seconds = 30;       // connect and stall limit per file
};

// Downloads `<source>/<cloud>/vms.csv` for every cloud, imports them all as price feeds dated
// the download day, and replaces the price cache with the result in one atomic rename. Any
// failure (HTTP status, cut-short body, timeout, refused connection, invalid CSV, no offers)
// leaves the cache as it was: RuntimeError (exit 1) for the network and files, InputError
// (exit 3) for what was downloaded.
[[nodiscard]] Exit run_catalog_update(const CommonOptions& common,
                                      const CatalogUpdateOptions& options, Io& io);

} // namespace gpuplan::cli

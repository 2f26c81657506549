#pragma once
// `gpuplan catalog update`: downloads the public SkyPilot price feeds (or a mirror of them),
// imports them and stores them in the user's price cache (cli/price_cache.hpp).

#include "cli/common.hpp"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::cli {

// The public SkyPilot catalog repository's raw files, laid out as `BASE/<cloud>/vms.csv`: the
// `v8` layout, the one SkyPilot's own client reads (its CATALOG_SCHEMA_VERSION) and refreshes.
inline constexpr std::string_view k_default_update_source =
    "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v8";

// The clouds the shipped catalog already imports from that layout (docs/cli.md).
inline constexpr std::array<std::string_view, 5> k_default_update_clouds{"aws", "gcp", "lambda",
                                                                         "nebius", "oci"};

// The longest --timeout (a day): a stall limit, not a way to wait forever.
inline constexpr long k_max_update_timeout_seconds = 86'400;
// The whole update gives up on the clouds it has not reached after this long (half an hour): a
// slow server cannot hold a CI job until its runner's timeout.
inline constexpr long k_update_deadline_seconds = 1'800;
// A download slower than this many bytes a second for --timeout seconds is given up.
inline constexpr long k_min_download_bytes_per_second = 1'024;

struct CatalogUpdateOptions {
    std::string source;              // root URL; empty = k_default_update_source
    std::vector<std::string> clouds; // empty = k_default_update_clouds
    long timeout_seconds = 30;       // connect and stall limit per file
};

// Downloads `<source>/<cloud>/vms.csv` for every cloud, each dated by its source (the server's
// Last-Modified header, else for a GitHub raw URL the file's last commit; else undated), and
// stores in the price cache, in one atomic rename, every cloud whose file is newer than the
// prices gpuplan has for it (the cached and the catalog's own, when dated). A cloud whose file
// is older, or undated against dated prices, is refused; one whose download or file fails is
// named; both keep their cached prices. Exit 0, or 1 when a download failed, 3 when a
// downloaded file was invalid (the other clouds are stored either way).
[[nodiscard]] Exit run_catalog_update(const CommonOptions& common,
                                      const CatalogUpdateOptions& options, Io& io);

} // namespace gpuplan::cli

#pragma once
// The catalog a command runs with: the embedded catalog, the price cache, --catalog overlays and
// CSV price feeds, and the age check of its prices.

#include "cli/common.hpp"
#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/catalog/staleness.hpp"
#include "gpuplan/feeds/skypilot.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cli {

// Expands catalog paths: a file as is, a folder as its *.yaml and *.yml files (recursively,
// sorted, without presets/ and decision_tree.yaml). Throws RuntimeError for an unreadable path
// and UsageError for a folder without catalog files.
[[nodiscard]] std::vector<TextFile> read_catalog_paths(const std::vector<std::string>& paths);

// True for a path read as a price feed (a `.csv` file) rather than catalog YAML.
[[nodiscard]] bool is_feed_path(const std::string& path);

// Reads CSV feed files with their modification dates (UTC). Throws RuntimeError.
[[nodiscard]] std::vector<feeds::FeedFile> read_feed_files(const std::vector<std::string>& paths);

// --as-of as a date; nullopt when not given. Throws UsageError when malformed.
[[nodiscard]] std::optional<Date> as_of_option(const CommonOptions& options);

// The flags a feed's messages name its settings by.
inline constexpr std::string_view k_provider_flag = "--provider";
inline constexpr std::string_view k_as_of_flag = "--as-of";

// Feed options whose messages name the settings by their flags (--provider, --as-of).
[[nodiscard]] feeds::FeedOptions flag_named_feed_options();

// flag_named_feed_options() with `as_of` from --as-of.
[[nodiscard]] feeds::FeedOptions feed_options(const CommonOptions& options);

// Reads feeds against `base` (GPU names resolve in `base`, then in the embedded catalog) and logs
// what was left out: unknown accelerator names as warnings, row counts and dates as info.
[[nodiscard]] feeds::FeedRead read_feeds(const std::vector<feeds::FeedFile>& files,
                                         const feeds::FeedOptions& options,
                                         const catalog::Catalog& base);

// Logs what read_feeds logs about a read.
void log_feed_read(const feeds::FeedRead& read);

// The embedded catalog (unless --no-default-catalog) with the price cache (unless --offline or
// no cache folder; recorded in `cache` when given) and the --catalog overlays applied, in that
// order. Throws InputError for invalid overlays and UsageError when no catalog is left.
[[nodiscard]] catalog::Catalog load_catalog(const CommonOptions& options,
                                            std::optional<recommend::PriceCache>* cache = nullptr);

// Applies options.catalogs to `catalog` in order: runs of YAML files as overlays, each CSV file
// as a price feed. Throws InputError, RuntimeError or UsageError.
[[nodiscard]] catalog::Catalog apply_catalog_paths(catalog::Catalog catalog,
                                                   const CommonOptions& options);

// The providers with prices older than --max-catalog-age (empty without the option), each
// logged as a warning. Throws UsageError for a malformed duration.
std::vector<catalog::StalePrices> check_catalog_age(const catalog::Catalog& catalog,
                                                    const CommonOptions& options, const Io& io);

} // namespace gpuplan::cli

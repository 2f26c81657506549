#pragma once
// The user's price cache: the prices `gpuplan catalog update` downloaded and imported, overlaid
// on the embedded catalog by later runs (docs/cli.md, "gpuplan catalog update").

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/recommend/recommend.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::cli {

// The cache folder: `$XDG_CACHE_HOME/gpuplan` when XDG_CACHE_HOME is an absolute path, else
// `$HOME/.cache/gpuplan`; empty when neither is usable (null and empty values are unset).
[[nodiscard]] std::string cache_dir_from(const char* xdg_cache_home, const char* home);

// The cache file in the cache folder `dir`: `DIR/prices.bin`.
[[nodiscard]] std::string cache_file(const std::string& dir);

// The bytes of a cache file: `overlay` (the providers read from the feeds, the sources they and
// its GPU models cite, and every GPU model they use) and the record of the download (its `file`
// is not stored: it is wherever the bytes are read from).
[[nodiscard]] std::string encode_cache(const catalog::Catalog& overlay,
                                       const recommend::PriceCache& record);

// What a cache file holds: the providers, sources and GPU models, and the record.
struct CacheContents {
    catalog::Catalog overlay;
    recommend::PriceCache record;
};

// The contents of cache `bytes`. Throws RuntimeError when they are not a cache this build wrote
// or hold a value no catalog may (a NaN or negative price).
[[nodiscard]] CacheContents decode_cache(std::string_view bytes);

// The overlay of the cache of folder `dir`; nullopt when there is none, or, with a warning, when
// it cannot be read.
[[nodiscard]] std::optional<catalog::Catalog> read_cache_overlay(const std::string& dir);

// Overlays the cache `bytes`, read from `file`, on `catalog` as a price feed (the feed merge
// rules of docs/feeds.md; the digest chains the bytes) and returns its record. Throws
// RuntimeError, with `catalog` untouched, when the bytes are not a cache this build wrote.
[[nodiscard]] recommend::PriceCache
apply_cache_bytes(catalog::Catalog& catalog, std::string_view bytes, const std::string& file);

// Overlays the cache of the folder `dir` on `catalog` and returns its record; nullopt when there
// is none. A cache this build cannot read is left out with a warning saying how to replace it.
[[nodiscard]] std::optional<recommend::PriceCache> apply_cache(catalog::Catalog& catalog,
                                                               const std::string& dir);

} // namespace gpuplan::cli

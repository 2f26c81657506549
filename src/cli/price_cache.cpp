#include "cli/price_cache.hpp"

#include "cli/common.hpp"
#include "cli/input_file.hpp"
#include "codecs/bundle.hpp"
#include "gpuplan/catalog/loader.hpp"
#include "gpuplan/error.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <system_error>
#include <utility>

namespace gpuplan::cli {

namespace fs = std::filesystem;

namespace {

// Bumped whenever the record changes shape; the catalog inside carries the bundle's own format.
constexpr int k_cache_format = 1;
constexpr std::string_view k_record_name = "update.json";

std::string record_json(const recommend::PriceCache& record) {
    nlohmann::ordered_json out;
    out["cache_format"] = k_cache_format;
    out["gpuplan"] = GPUPLAN_VERSION;
    out["downloaded_at"] = record.downloaded_at;
    out["source"] = record.source;
    out["providers"] = record.providers;
    return out.dump(2) + "\n";
}

// The record of a cache; throws RuntimeError when it is not one this build wrote.
recommend::PriceCache read_record(const codecs::BundleIndex& index) {
    auto entry =
        std::find_if(index.files.begin(), index.files.end(),
                     [](const codecs::EmbeddedFile& f) { return f.name == k_record_name; });
    if (entry == index.files.end()) {
        throw RuntimeError("it has no record of its download");
    }
    const auto json = nlohmann::json::parse(entry->text, nullptr, false);
    if (!json.is_object() || json.value("cache_format", 0) != k_cache_format ||
        json.value("gpuplan", std::string()) != GPUPLAN_VERSION) {
        throw RuntimeError(fmt::format("it was written by another gpuplan version ({})",
                                       json.is_object()
                                           ? json.value("gpuplan", std::string("unknown"))
                                           : std::string("unknown")));
    }
    recommend::PriceCache record;
    record.downloaded_at = json.value("downloaded_at", std::string());
    record.source = json.value("source", std::string());
    record.providers = json.value("providers", std::vector<std::string>());
    return record;
}

// The cache's providers as a feed, with the sources they cite; the rest of `sources` is for the
// GPU models the feed brings.
catalog::FeedOverlay feed_of(catalog::Catalog overlay) {
    catalog::FeedOverlay feed;
    for (const catalog::Provider& provider : overlay.providers) {
        for (const std::string& id : provider.sources) {
            auto it = overlay.sources.find(id);
            const bool listed = std::any_of(feed.sources.begin(), feed.sources.end(),
                                            [&](const Source& s) { return s.id == id; });
            if (it != overlay.sources.end() && !listed) {
                feed.sources.push_back(it->second);
            }
        }
    }
    feed.providers = std::move(overlay.providers);
    feed.gpus = std::move(overlay.gpus);
    return feed;
}

} // namespace

std::string cache_dir_from(const char* xdg_cache_home, const char* home) {
    // The XDG base directory specification: a relative XDG_CACHE_HOME is invalid and ignored.
    if (xdg_cache_home != nullptr && xdg_cache_home[0] == '/') {
        return (fs::path(xdg_cache_home) / "gpuplan").string();
    }
    if (home != nullptr && home[0] != '\0') {
        return (fs::path(home) / ".cache" / "gpuplan").string();
    }
    return {};
}

std::string cache_file(const std::string& dir) {
    return (fs::path(dir) / "prices.bin").string();
}

std::string encode_cache(const catalog::Catalog& overlay, const recommend::PriceCache& record) {
    return codecs::write_bundle(overlay, {{std::string(k_record_name), record_json(record)}});
}

CacheContents decode_cache(std::string_view bytes) {
    CacheContents contents;
    try {
        const codecs::BundleIndex index = codecs::index_bundle(bytes);
        contents.record = read_record(index);
        contents.overlay = codecs::read_bundle_catalog(index.catalog);
    } catch (const RuntimeError& e) {
        // The codec names itself "embedded catalog bundle"; say what it is here instead.
        const std::string why = e.what();
        throw RuntimeError(why.find("embedded catalog bundle") == std::string::npos
                               ? why
                               : "it is damaged or from another gpuplan build");
    }
    // The cache is read without the readers' range checks: a value no reader would accept (a
    // NaN or negative price from a damaged or planted file) leaves the whole cache out.
    if (const std::string bad = catalog::invalid_value(contents.overlay); !bad.empty()) {
        throw RuntimeError("it holds a value no catalog may: " + bad);
    }
    return contents;
}

recommend::PriceCache apply_cache_bytes(catalog::Catalog& catalog, std::string_view bytes,
                                        const std::string& file) {
    CacheContents contents = decode_cache(bytes);
    recommend::PriceCache record = std::move(contents.record);
    catalog::Catalog overlay = std::move(contents.overlay);
    for (const catalog::Provider& provider : overlay.providers) {
        // The one check of the merge that could fail, made before `catalog` is touched.
        if (provider.currency != catalog.fx.base &&
            catalog::find_fx_rate(catalog, provider.currency) == nullptr) {
            throw RuntimeError(fmt::format("provider '{}' is priced in {}, which the catalog has "
                                           "no exchange rate for",
                                           provider.name, provider.currency));
        }
    }
    record.file = file;
    std::map<std::string, Source> gpu_sources = overlay.sources;
    catalog::FeedOverlay feed = feed_of(std::move(overlay));
    feed.names = {file};
    feed.texts = {bytes};
    catalog = catalog::overlay_feed(std::move(catalog), std::move(feed), gpu_sources);
    return record;
}

std::optional<catalog::Catalog> read_cache_overlay(const std::string& dir) {
    const std::string file = cache_file(dir);
    std::error_code ec;
    if (!fs::exists(file, ec)) {
        return std::nullopt;
    }
    try {
        const TextFile text = read_text_file(file);
        return decode_cache(text.text).overlay;
    } catch (const std::runtime_error& e) {
        spdlog::warn("the price cache {} cannot be read ({}); it will be replaced", file, e.what());
    }
    return std::nullopt;
}

std::optional<recommend::PriceCache> apply_cache(catalog::Catalog& catalog,
                                                 const std::string& dir) {
    const std::string file = cache_file(dir);
    std::error_code ec;
    if (!fs::exists(file, ec)) {
        return std::nullopt;
    }
    const PhaseTimer timer("price cache");
    try {
        const TextFile text = read_text_file(file);
        recommend::PriceCache record = apply_cache_bytes(catalog, text.text, file);
        spdlog::info("{}: prices of {} downloaded {} from {} (--offline leaves them out)", file,
                     fmt::join(record.providers, ", "), record.downloaded_at, record.source);
        return record;
    } catch (const std::runtime_error& e) { // RuntimeError, or InputError for a huge file
        spdlog::warn("the price cache {} is left out: {}; run 'gpuplan catalog update' to "
                     "replace it",
                     file, e.what());
    }
    return std::nullopt;
}

} // namespace gpuplan::cli

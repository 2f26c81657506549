#include "cli/catalog_input.hpp"

#include "cli/input_file.hpp"
#include "cli/price_cache.hpp"
#include "cli/progress.hpp"
#include "detail/large_buffer.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fmt/format.h>
#include <future>
#include <spdlog/spdlog.h>
#include <vector>

namespace gpuplan::cli {

namespace fs = std::filesystem;

std::vector<TextFile> read_catalog_paths(const std::vector<std::string>& paths) {
    std::vector<TextFile> files;
    for (const std::string& path : paths) {
        std::error_code ec;
        if (!fs::is_directory(path, ec)) {
            files.push_back(read_text_file(path));
            continue;
        }
        std::vector<fs::path> found;
        for (auto it = fs::recursive_directory_iterator(path, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            const fs::path relative = fs::relative(it->path(), path);
            if (it->is_directory() && relative == "presets") {
                it.disable_recursion_pending();
                continue;
            }
            const fs::path extension = it->path().extension();
            if (it->is_regular_file() && (extension == ".yaml" || extension == ".yml") &&
                relative != "decision_tree.yaml" && relative != "decision_tree.yml") {
                found.push_back(it->path());
            }
        }
        if (ec) {
            throw RuntimeError(
                fmt::format("{}: error: cannot read folder: {}", path, ec.message()));
        }
        if (found.empty()) {
            throw UsageError(
                fmt::format("no catalog files (*.yaml or *.yml) found in the folder '{}'", path));
        }
        std::sort(found.begin(), found.end());
        for (const fs::path& file : found) {
            files.push_back(read_text_file(file.string()));
        }
    }
    return files;
}

bool is_feed_path(const std::string& path) {
    const std::string extension = fs::path(path).extension().string();
    return extension.size() == 4 && (extension == ".csv" || extension == ".CSV");
}

namespace {

// The regular file at `path` read whole into a large buffer (huge pages: a 16 MB feed then costs
// a few page faults instead of four thousand). Read, not mapped: a mapping of a file that another
// process truncates meanwhile would crash on the missing pages. Throws like read_text_file.
feeds::FeedText read_whole_file(const std::string& path, std::time_t& modified) {
    const InputFd input = open_input(path);
    modified = input.modified;
    if (input.size == 0) {
        return {std::string()};
    }
    const std::size_t capacity = input.size;
    std::shared_ptr<char> buffer(static_cast<char*>(allocate_buffer(capacity, 1)),
                                 [capacity](char* data) { deallocate_buffer(data, capacity, 1); });
    const std::size_t filled = read_input(input, buffer.get(), capacity, path);
    const std::string_view bytes(buffer.get(), filled);
    return {std::move(buffer), bytes};
}

} // namespace

std::vector<feeds::FeedFile> read_feed_files(const std::vector<std::string>& paths) {
    std::vector<feeds::FeedFile> files;
    for (const std::string& path : paths) {
        feeds::FeedFile file{path, {}, std::nullopt};
        std::time_t modified = 0;
        if (path == "-") {
            file.text = read_text_file(path).text;
            modified = std::time(nullptr);
        } else {
            file.text = read_whole_file(path, modified);
        }
        file.modified = date_of_unix_seconds(modified);
        files.push_back(std::move(file));
    }
    return files;
}

std::optional<Date> as_of_option(const CommonOptions& options) {
    if (options.as_of.empty()) {
        return std::nullopt;
    }
    auto date = parse_date(options.as_of);
    if (!date) {
        throw UsageError(
            fmt::format("--as-of: expected a date YYYY-MM-DD, got '{}'", options.as_of));
    }
    return date;
}

feeds::FeedOptions flag_named_feed_options() {
    feeds::FeedOptions out;
    out.provider_name = k_provider_flag;
    out.as_of_name = k_as_of_flag;
    return out;
}

feeds::FeedOptions feed_options(const CommonOptions& options) {
    feeds::FeedOptions out = flag_named_feed_options();
    out.as_of = as_of_option(options);
    return out;
}

feeds::FeedRead read_feeds(const std::vector<feeds::FeedFile>& files,
                           const feeds::FeedOptions& options, const catalog::Catalog& base) {
    feeds::FeedRead read =
        feeds::read_skypilot(files, options, base.gpus, embedded::catalog().gpus);
    log_feed_read(read);
    return read;
}

void log_feed_read(const feeds::FeedRead& read) {
    for (const auto& [provider, names] : read.summary.unknown_accelerators) {
        for (const auto& [name, rows] : names) {
            spdlog::warn("{}: {} row{} with accelerator '{}' left out: no catalog GPU model has "
                         "that name or alias",
                         provider, rows, rows == 1 ? "" : "s", name);
        }
    }
    for (const std::string& correction : read.summary.corrections) {
        spdlog::warn("corrected a known feed error: {}", correction);
    }
    for (const auto& [file, dated] : read.summary.dates) {
        spdlog::info("{}: prices as_of {} ({})", file, dated.first.to_string(),
                     feeds::describe(dated.second, k_as_of_flag));
    }
}

catalog::Catalog load_catalog(const CommonOptions& options,
                              std::optional<recommend::PriceCache>* cache) {
    if (options.no_default_catalog && options.catalogs.empty()) {
        throw UsageError("--no-default-catalog needs at least one --catalog PATH");
    }
    if (options.no_default_catalog) {
        return apply_catalog_paths(catalog::Catalog{}, options);
    }
    catalog::Catalog catalog = embedded::decode_catalog();
    if (!options.offline && !options.cache_dir.empty()) {
        std::optional<recommend::PriceCache> used = apply_cache(catalog, options.cache_dir);
        if (cache != nullptr) {
            *cache = std::move(used);
        }
    }
    return apply_catalog_paths(std::move(catalog), options);
}

catalog::Catalog apply_catalog_paths(catalog::Catalog catalog, const CommonOptions& options) {
    // Files apply in the order given: runs of YAML files load together (their references are
    // checked across the run), each feed merges with the feed rules.
    std::vector<std::string> yaml_run;
    auto flush_yaml = [&] {
        if (!yaml_run.empty()) {
            const PhaseTimer timer("parse yaml");
            catalog = catalog::overlay_catalog(std::move(catalog), read_catalog_paths(yaml_run));
            yaml_run.clear();
        }
    };
    const feeds::FeedOptions from_flags = feed_options(options);
    for (const std::string& path : options.catalogs) {
        if (!is_feed_path(path)) {
            yaml_run.push_back(path);
            continue;
        }
        flush_yaml();
        std::vector<feeds::FeedFile> files;
        {
            const PhaseTimer timer("read");
            files = read_feed_files({path});
        }
        // The digest is a serial hash over every byte (FNV-1a: a multiply per byte); it runs
        // beside the parse, so a large feed waits for the longer of the two, not their sum.
        // Where no thread can start, the launch falls back to hashing when the digest is asked.
        std::future<std::string> digest =
            std::async(std::launch::async | std::launch::deferred, [&files, seed = catalog.digest] {
                std::string chained = seed;
                for (const feeds::FeedFile& file : files) {
                    chained = catalog::fnv1a64_hex(file.text, chained);
                }
                return chained;
            });
        feeds::FeedRead read;
        {
            const PhaseTimer timer("parse");
            read = read_feeds(files, from_flags, catalog);
        }
        read.overlay.digest = digest.get();
        const PhaseTimer timer("merge");
        catalog = catalog::overlay_feed(std::move(catalog), std::move(read.overlay),
                                        embedded::catalog().sources);
    }
    flush_yaml();
    return catalog;
}

std::vector<catalog::StalePrices> check_catalog_age(const catalog::Catalog& catalog,
                                                    const CommonOptions& options, const Io& io) {
    if (options.max_catalog_age.empty()) {
        return {};
    }
    auto hours = parse_duration_hours(options.max_catalog_age);
    if (!hours || *hours < 0.0) {
        throw UsageError(fmt::format("--max-catalog-age: expected a duration such as 30d or 6w, "
                                     "got '{}'",
                                     options.max_catalog_age));
    }
    const double max_days = *hours / k_hours_per_day;
    auto stale = catalog::stale_prices(catalog, today(io), max_days);
    for (const catalog::StalePrices& entry : stale) {
        spdlog::warn("{}: {} of {} prices are older than {} (oldest as_of {}, {} days old)",
                     entry.provider, entry.stale_rows, entry.rows, options.max_catalog_age,
                     entry.oldest.to_string(), entry.oldest_age_days);
    }
    return stale;
}

} // namespace gpuplan::cli

#include "cli/update_cmd.hpp"

#include "cli/common.hpp"
#include "cli/feeds_cmd.hpp"
#include "cli/http.hpp"
#include "cli/price_cache.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/report/escape.hpp"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <utility>

namespace gpuplan::cli {

namespace fs = std::filesystem;

namespace {

// One line on a terminal's stderr, rewritten in place as bytes arrive and erased at the end:
// `gpuplan: downloading aws/vms.csv (1 of 5): 1.2 of 3.4 MB`. Silent when disabled.
class ProgressLine {
public:
    ProgressLine(std::ostream& err, bool enabled) : m_err(err), m_enabled(enabled) {}
    ~ProgressLine() { clear(); }
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    // The callback for one file's download, or an empty one when disabled.
    DownloadProgress for_file(std::string label) {
        if (!m_enabled) {
            return {};
        }
        return [this, label = std::move(label), first = true](std::size_t received,
                                                              std::size_t total) mutable {
            const auto now = std::chrono::steady_clock::now();
            if (!first && now - m_last < std::chrono::milliseconds(100)) {
                return; // at most ten lines a second
            }
            first = false;
            m_last = now;
            m_shown = true;
            const auto mb = [](std::size_t bytes) { return static_cast<double>(bytes) / 1e6; };
            m_err << "\r\x1b[Kgpuplan: downloading " << label << ": "
                  << (total > 0 ? fmt::format("{:.1f} of {:.1f} MB", mb(received), mb(total))
                                : fmt::format("{:.1f} MB", mb(received)))
                  << std::flush;
        };
    }

    void clear() {
        if (m_shown) {
            m_err << "\r\x1b[K" << std::flush;
            m_shown = false;
        }
    }

private:
    std::ostream& m_err;
    bool m_enabled;
    bool m_shown = false;
    std::chrono::steady_clock::time_point m_last;
};

// `url` without the user name and password a `--source` may carry (scheme://user:pw@host/...):
// they are used for the download and never stored in the cache, its provenance or a report.
std::string without_userinfo(const std::string& url) {
    const auto scheme = url.find("://");
    if (scheme == std::string::npos) {
        return url;
    }
    const auto host = scheme + 3;
    const auto path = url.find('/', host);
    const auto at = url.rfind('@', path == std::string::npos ? url.size() : path);
    if (at == std::string::npos || at < host) {
        return url;
    }
    return url.substr(0, host) + url.substr(at + 1);
}

std::string source_root(const CatalogUpdateOptions& options) {
    std::string root =
        options.source.empty() ? std::string(k_default_update_source) : options.source;
    if (!is_http_url(root)) {
        throw UsageError(fmt::format(
            "--source: expected an http:// or https:// URL laid out as BASE/<cloud>/vms.csv, got "
            "'{}'",
            root));
    }
    while (root.size() > 1 && root.back() == '/') {
        root.pop_back();
    }
    return root;
}

std::vector<std::string> clouds_of(const CatalogUpdateOptions& options) {
    if (options.clouds.empty()) {
        return {k_default_update_clouds.begin(), k_default_update_clouds.end()};
    }
    for (const std::string& cloud : options.clouds) {
        // The importer names a file's provider by its folder; that must be a SkyPilot cloud.
        if (feeds::provider_from_file_name(cloud + "/vms.csv") != cloud) {
            throw UsageError(fmt::format(
                "--cloud: expected a SkyPilot cloud in lower case such as aws or lambda, got '{}'",
                cloud));
        }
    }
    return options.clouds;
}

std::vector<feeds::FeedFile> download_all(const std::string& root,
                                          const std::vector<std::string>& clouds,
                                          const CatalogUpdateOptions& options, Date day, Io& io,
                                          int verbosity) {
    ProgressLine progress(io.err, io.err_is_tty && verbosity >= 0);
    std::vector<feeds::FeedFile> files;
    for (std::size_t i = 0; i < clouds.size(); ++i) {
        const std::string url = fmt::format("{}/{}/vms.csv", root, clouds[i]);
        DownloadOptions download_options;
        download_options.timeout_seconds = options.timeout_seconds;
        download_options.max_bytes = k_max_input_bytes;
        download_options.progress = progress.for_file(
            fmt::format("{}/vms.csv ({} of {})", clouds[i], i + 1, clouds.size()));
        std::string body = download(url, download_options);
        files.push_back({without_userinfo(url), feeds::FeedText(std::move(body)), day});
    }
    return files;
}

// The feeds read as one import, every GPU model they use carried along (so the cache stands on
// its own whatever catalog a later run has underneath).
feeds::FeedRead import_feeds(const std::vector<feeds::FeedFile>& files, Date day,
                             const catalog::Catalog& models) {
    feeds::FeedOptions options = flag_named_feed_options();
    options.as_of = day;
    options.as_of_origin = feeds::AsOfOrigin::download;
    feeds::FeedRead read = feeds::read_skypilot(files, options, {}, models.gpus);
    log_feed_read(read);
    if (read.overlay.providers.empty()) {
        throw InputError({{"gpuplan", 0, 0, "",
                           "the downloaded feeds hold no GPU offers gpuplan knows (see the "
                           "warnings above)"}});
    }
    return read;
}

// What the cache stores: the providers, their sources (naming the URL and time of the
// download) and the GPU models with the sources those cite.
catalog::Catalog cache_overlay(const feeds::FeedRead& read, const catalog::Catalog& models,
                               const std::vector<feeds::FeedFile>& files,
                               const std::string& downloaded_at) {
    catalog::Catalog overlay;
    overlay.providers = read.overlay.providers;
    overlay.gpus = read.overlay.gpus;
    for (Source source : read.overlay.sources) {
        for (const feeds::FeedFile& file : files) {
            if (source.id ==
                fmt::format("skypilot-{}-feed", feeds::provider_from_file_name(file.name))) {
                source.url = file.name;
            }
        }
        source.note = fmt::format("downloaded by gpuplan catalog update at {}; {}", downloaded_at,
                                  source.note);
        overlay.sources.emplace(source.id, source);
    }
    for (const catalog::Gpu& gpu : overlay.gpus) {
        for (const std::string& id : gpu.sources) {
            auto it = models.sources.find(id);
            if (it != models.sources.end()) {
                overlay.sources.emplace(id, it->second);
            }
        }
    }
    return overlay;
}

std::size_t price_rows(const catalog::Catalog& overlay) {
    std::size_t rows = 0;
    for (const catalog::Provider& provider : overlay.providers) {
        for (const catalog::Instance& instance : provider.instances) {
            rows += instance.prices.size();
        }
    }
    return rows;
}

// Writes `bytes` as the cache file of `dir`, creating the folder; throws RuntimeError.
void store(const std::string& dir, const std::string& file, std::string bytes) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        throw RuntimeError(fmt::format("{}: error: cannot create folder: {}", dir, ec.message()));
    }
    const std::vector<OutputFile> outputs{{file, std::move(bytes)}};
    write_files(outputs);
}

// The summary on stdout: what each provider got, then where the cache is.
std::string update_summary(const feeds::FeedRead& read, const catalog::Catalog& overlay,
                           const recommend::PriceCache& record) {
    std::vector<std::pair<std::string, std::string>> written;
    for (const catalog::Provider& provider : overlay.providers) {
        written.emplace_back(provider.name, record.file);
    }
    return import_summary(read, written) +
           fmt::format("price cache {}: {} providers, {} price rows, downloaded {} from {}; "
                       "later runs overlay it on the embedded catalog (--offline leaves it out)\n",
                       record.file, overlay.providers.size(), price_rows(overlay),
                       record.downloaded_at, record.source);
}

struct Update {
    feeds::FeedRead read;
    catalog::Catalog overlay;
    recommend::PriceCache record;
};

Update fetch_and_store(const CommonOptions& common, const CatalogUpdateOptions& options, Io& io) {
    const std::string root = source_root(options);
    const std::vector<std::string> clouds = clouds_of(options);
    CommonOptions models_options = common; // GPU names resolve as catalog import resolves them
    models_options.offline = true;
    const catalog::Catalog models = common.no_default_catalog && common.catalogs.empty()
                                        ? embedded::decode_catalog()
                                        : load_catalog(models_options);
    Update update;
    update.record.downloaded_at = utc_timestamp();
    update.record.source = without_userinfo(root);
    update.record.file = cache_file(common.cache_dir);
    const Date day = *parse_date(update.record.downloaded_at.substr(0, 10));
    const std::vector<feeds::FeedFile> files =
        download_all(root, clouds, options, day, io, common.verbosity);
    update.read = import_feeds(files, day, models);
    update.overlay = cache_overlay(update.read, models, files, update.record.downloaded_at);
    for (const catalog::Provider& provider : update.overlay.providers) {
        update.record.providers.push_back(provider.name);
    }
    std::string bytes = encode_cache(update.overlay, update.record);
    // Read back as every later run reads it, before anything is written.
    catalog::Catalog check = embedded::decode_catalog();
    (void)apply_cache_bytes(check, bytes, update.record.file);
    store(common.cache_dir, update.record.file, std::move(bytes));
    return update;
}

} // namespace

Exit run_catalog_update(const CommonOptions& common, const CatalogUpdateOptions& options, Io& io) {
    if (common.offline) {
        throw UsageError("catalog update downloads; it cannot run with --offline");
    }
    if (common.cache_dir.empty()) {
        throw RuntimeError("gpuplan: error: no folder for the price cache: set XDG_CACHE_HOME "
                           "(an absolute path) or HOME");
    }
    if (options.timeout_seconds <= 0) {
        throw UsageError("--timeout: expected a number of seconds > 0");
    }
    const std::string unchanged =
        fmt::format("the price cache {} is unchanged", cache_file(common.cache_dir));
    Update update;
    try {
        update = fetch_and_store(common, options, io);
    } catch (const InputError& e) {
        std::vector<Diagnostic> problems = e.diagnostics();
        problems.push_back({"gpuplan", 0, 0, "", unchanged});
        throw InputError(std::move(problems));
    } catch (const RuntimeError& e) {
        throw RuntimeError(fmt::format("{}; {}", e.what(), unchanged));
    }
    if (common.verbosity >= 0) {
        io.out << report::escape_control(update_summary(update.read, update.overlay, update.record),
                                         true);
    }
    return Exit::ok;
}

} // namespace gpuplan::cli

#include "cli/update_cmd.hpp"

#include "cli/catalog_input.hpp"
#include "cli/common.hpp"
#include "cli/feed_dates.hpp"
#include "cli/feeds_cmd.hpp"
#include "cli/http.hpp"
#include "cli/input_file.hpp"
#include "cli/price_cache.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/report/escape.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>
#include <ostream>
#include <spdlog/spdlog.h>
#include <utility>

namespace gpuplan::cli {

namespace fs = std::filesystem;

namespace {

// The GitHub API's answer for one commit is a few kilobytes; more is not that answer.
constexpr std::size_t k_max_commit_answer_bytes = 1'000'000;

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

// What became of one cloud's feed.
enum class Outcome { stored, refused, failed };

struct CloudResult {
    std::string cloud;
    Outcome outcome = Outcome::failed;
    std::string reason;       // refused or failed: why
    bool input_error = false; // failed on what was downloaded (exit 3), not the network (exit 1)
    feeds::FeedRead read;     // stored: what was read
    std::vector<feeds::FeedFile> files;
};

// The date of a downloaded file: its Last-Modified header, else (a GitHub raw URL) its last
// commit; nullopt when neither says.
std::pair<std::optional<Date>, feeds::AsOfOrigin>
file_date(const std::string& url, const Downloaded& downloaded,
          const DownloadOptions& download_options) {
    if (downloaded.last_modified) {
        return {downloaded.last_modified, feeds::AsOfOrigin::last_modified};
    }
    if (auto api = github_last_commit_url(url)) {
        try {
            DownloadOptions options = download_options;
            options.progress = {};
            options.max_bytes = k_max_commit_answer_bytes;
            if (auto date = github_commit_date(download(*api, options).body)) {
                return {date, feeds::AsOfOrigin::commit_date};
            }
        } catch (const RuntimeError& e) {
            spdlog::warn("{}: the file's commit date could not be read: {}", url, e.what());
        }
    }
    return {std::nullopt, feeds::AsOfOrigin::download};
}

// The newest date gpuplan already has for `provider`'s prices: the cached provider's, else the
// catalog's own (each only when dated), with which of the two it is.
std::optional<std::pair<Date, std::string_view>>
known_date(const std::string& provider, const std::optional<catalog::Catalog>& cached,
           const catalog::Catalog& models) {
    std::optional<std::pair<Date, std::string_view>> best;
    const auto consider = [&](const catalog::Catalog& catalog, std::string_view what) {
        const catalog::Provider* p = catalog::find_provider(catalog, provider);
        if (p != nullptr && !catalog::is_undated(catalog, p->sources) &&
            (!best || p->as_of > best->first)) {
            best = std::make_pair(p->as_of, what);
        }
    };
    consider(models, "the catalog's own prices");
    if (cached) {
        consider(*cached, "the cached prices");
    }
    return best;
}

// Downloads, dates and reads one cloud's feed, and refuses it when it is not newer than what
// gpuplan has.
CloudResult update_cloud(const std::string& root, const std::string& cloud, std::size_t index,
                         std::size_t count, const CatalogUpdateOptions& options, long seconds_left,
                         Date day, const catalog::Catalog& models,
                         const std::optional<catalog::Catalog>& cached, ProgressLine& progress) {
    CloudResult result;
    result.cloud = cloud;
    const std::string url = fmt::format("{}/{}/vms.csv", root, cloud);
    DownloadOptions download_options;
    download_options.timeout_seconds = options.timeout_seconds;
    download_options.min_bytes_per_second = k_min_download_bytes_per_second;
    download_options.total_timeout_seconds =
        std::min(download_options.total_timeout_seconds, std::max(1L, seconds_left));
    download_options.max_bytes = k_max_input_bytes;
    download_options.progress =
        progress.for_file(fmt::format("{}/vms.csv ({} of {})", cloud, index + 1, count));
    Downloaded downloaded;
    try {
        downloaded = download(url, download_options);
    } catch (const RuntimeError& e) {
        progress.clear();
        result.reason = without_userinfo(e.what());
        return result;
    }
    progress.clear();
    const auto [date, origin] = file_date(url, downloaded, download_options);
    feeds::FeedOptions feed_options = flag_named_feed_options();
    feed_options.as_of = date.value_or(day);
    feed_options.as_of_origin = origin;
    feed_options.undated = !date;
    result.files.push_back(
        {without_userinfo(url), feeds::FeedText(std::move(downloaded.body)), date});
    try {
        result.read = feeds::read_skypilot(result.files, feed_options, {}, models.gpus);
    } catch (const InputError& e) {
        result.input_error = true;
        for (const Diagnostic& d : e.diagnostics()) {
            result.reason += (result.reason.empty() ? "" : "\n") + format_diagnostic(d);
        }
        return result;
    }
    log_feed_read(result.read);
    if (result.read.overlay.providers.empty()) {
        result.input_error = true;
        result.reason = fmt::format("{}: error: the downloaded feed holds no GPU offers gpuplan "
                                    "knows (see the warnings above)",
                                    without_userinfo(url));
        return result;
    }
    const std::string& provider = result.read.overlay.providers.front().name;
    const auto known = known_date(provider, cached, models);
    if (known && !date) {
        result.outcome = Outcome::refused;
        result.reason = fmt::format("the server states no date for {} (no Last-Modified header, "
                                    "no commit date), and {} are dated {}",
                                    without_userinfo(url), known->second, known->first.to_string());
    } else if (known && *date < known->first) {
        result.outcome = Outcome::refused;
        result.reason = fmt::format(
            "{} is dated {} ({}), older than {} of {}", without_userinfo(url), date->to_string(),
            feeds::describe(origin, "--as-of"), known->second, known->first.to_string());
    } else {
        result.outcome = Outcome::stored;
    }
    return result;
}

// Adds to `overlay` the sources `ids` name from `from`, and the GPU models of `provider` that
// `overlay` lacks with the sources they cite.
void carry_references(catalog::Catalog& overlay, const catalog::Catalog& from,
                      const catalog::Provider& provider, const catalog::Catalog& models) {
    for (const std::string& id : provider.sources) {
        if (auto it = from.sources.find(id); it != from.sources.end()) {
            overlay.sources.emplace(id, it->second);
        }
    }
    for (const catalog::Instance& instance : provider.instances) {
        if (catalog::find_gpu(overlay, instance.gpu) != nullptr) {
            continue;
        }
        const catalog::Gpu* gpu = catalog::find_gpu(from, instance.gpu);
        if (gpu == nullptr) {
            gpu = catalog::find_gpu(models, instance.gpu);
        }
        if (gpu == nullptr) {
            continue;
        }
        overlay.gpus.push_back(*gpu);
        for (const std::string& id : gpu->sources) {
            if (auto it = from.sources.find(id); it != from.sources.end()) {
                overlay.sources.emplace(id, it->second);
            } else if (auto m = models.sources.find(id); m != models.sources.end()) {
                overlay.sources.emplace(id, m->second);
            }
        }
    }
}

// What the cache stores: each stored cloud's providers (their sources naming the URL and time of
// the download), and the cached providers of every other cloud as they were.
catalog::Catalog cache_overlay(const std::vector<CloudResult>& results,
                               const std::optional<catalog::Catalog>& cached,
                               const catalog::Catalog& models, const std::string& downloaded_at) {
    catalog::Catalog overlay;
    for (const CloudResult& result : results) {
        if (result.outcome != Outcome::stored) {
            continue;
        }
        catalog::Catalog read;
        for (Source source : result.read.overlay.sources) {
            source.url = result.files.front().name;
            source.note = fmt::format("downloaded by gpuplan catalog update at {}; {}",
                                      downloaded_at, source.note);
            read.sources.emplace(source.id, source);
        }
        read.gpus = result.read.overlay.gpus;
        for (const catalog::Provider& provider : result.read.overlay.providers) {
            carry_references(overlay, read, provider, models);
            overlay.providers.push_back(provider);
        }
    }
    if (cached) {
        for (const catalog::Provider& provider : cached->providers) {
            if (catalog::find_provider(overlay, provider.name) == nullptr) {
                carry_references(overlay, *cached, provider, models);
                overlay.providers.push_back(provider);
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

// The providers and purchase options `catalog update` cannot refresh: every provider of the
// catalog outside `clouds`, and what no SkyPilot feed carries.
std::string not_refreshed(const catalog::Catalog& models, const std::vector<std::string>& clouds) {
    std::vector<std::string> others;
    for (const catalog::Provider& provider : models.providers) {
        if (std::find(clouds.begin(), clouds.end(), provider.name) == clouds.end()) {
            others.push_back(provider.name);
        }
    }
    return fmt::format("not refreshed by catalog update: commitment prices (reserved, committed "
                       "use), product facts, the dated list corrections, and the providers {} "
                       "(docs/feeds.md)\n",
                       fmt::join(others, ", "));
}

// The summary on stdout: each stored cloud's import, each refused or failed cloud with what
// stays, then where the cache is.
std::string update_summary(const std::vector<CloudResult>& results, const catalog::Catalog& overlay,
                           const recommend::PriceCache& record, bool written,
                           const std::optional<catalog::Catalog>& cached) {
    std::string out;
    for (const CloudResult& result : results) {
        if (result.outcome == Outcome::stored) {
            std::vector<std::pair<std::string, std::string>> providers;
            for (const catalog::Provider& provider : result.read.overlay.providers) {
                providers.emplace_back(provider.name, record.file);
            }
            out += import_summary(result.read, providers);
            continue;
        }
        const bool kept = cached && catalog::find_provider(*cached, result.cloud) != nullptr;
        out += fmt::format("{}: {}: {}; {}\n", result.cloud,
                           result.outcome == Outcome::refused ? "refused" : "failed",
                           result.reason.substr(0, result.reason.find('\n')),
                           kept ? "its cached prices stay" : "it has no cached prices");
    }
    if (written) {
        out += fmt::format("price cache {}: {} providers, {} price rows, downloaded {} from {}; "
                           "later runs overlay it on the embedded catalog (--offline leaves it "
                           "out)\n",
                           record.file, overlay.providers.size(), price_rows(overlay),
                           record.downloaded_at, record.source);
    } else {
        out += fmt::format("the price cache {} is unchanged\n", record.file);
    }
    return out;
}

struct Update {
    std::vector<CloudResult> results;
    catalog::Catalog overlay;
    recommend::PriceCache record;
    std::optional<catalog::Catalog> cached;
    bool written = false;
};

Update fetch_and_store(const CommonOptions& common, const CatalogUpdateOptions& options,
                       const catalog::Catalog& models, Io& io) {
    const std::string root = source_root(options);
    const std::vector<std::string> clouds = clouds_of(options);
    Update update;
    update.record.downloaded_at = utc_timestamp();
    update.record.source = without_userinfo(root);
    update.record.file = cache_file(common.cache_dir);
    update.cached = read_cache_overlay(common.cache_dir);
    const Date day = *parse_date(update.record.downloaded_at.substr(0, 10));
    ProgressLine progress(io.err, io.err_is_tty && common.verbosity >= 0);
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < clouds.size(); ++i) {
        const long elapsed = static_cast<long>(std::chrono::duration_cast<std::chrono::seconds>(
                                                   std::chrono::steady_clock::now() - start)
                                                   .count());
        const long left = k_update_deadline_seconds - elapsed;
        if (left <= 0) {
            CloudResult late;
            late.cloud = clouds[i];
            late.reason =
                fmt::format("{}/{}/vms.csv: error: not downloaded: the update's "
                            "deadline of {} minutes passed",
                            update.record.source, clouds[i], k_update_deadline_seconds / 60);
            update.results.push_back(std::move(late));
            continue;
        }
        update.results.push_back(update_cloud(root, clouds[i], i, clouds.size(), options, left, day,
                                              models, update.cached, progress));
    }
    const bool any_stored =
        std::any_of(update.results.begin(), update.results.end(),
                    [](const CloudResult& r) { return r.outcome == Outcome::stored; });
    if (!any_stored) {
        return update;
    }
    update.overlay =
        cache_overlay(update.results, update.cached, models, update.record.downloaded_at);
    for (const catalog::Provider& provider : update.overlay.providers) {
        update.record.providers.push_back(provider.name);
    }
    std::string bytes = encode_cache(update.overlay, update.record);
    // Read back as every later run reads it, before anything is written.
    catalog::Catalog check = embedded::decode_catalog();
    (void)apply_cache_bytes(check, bytes, update.record.file);
    store(common.cache_dir, update.record.file, std::move(bytes));
    update.written = true;
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
    CommonOptions models_options = common; // GPU names resolve as catalog import resolves them
    models_options.offline = true;
    const catalog::Catalog models = common.no_default_catalog && common.catalogs.empty()
                                        ? embedded::decode_catalog()
                                        : load_catalog(models_options);
    const Update update = fetch_and_store(common, options, models, io);
    bool network_failure = false;
    bool input_failure = false;
    for (const CloudResult& result : update.results) {
        if (result.outcome == Outcome::failed) {
            io.err << report::escape_control(result.reason + "\n", true);
            (result.input_error ? input_failure : network_failure) = true;
        }
    }
    if (common.verbosity >= 0) {
        std::vector<std::string> clouds;
        for (const CloudResult& result : update.results) {
            clouds.push_back(result.cloud);
        }
        io.out << report::escape_control(
            report::wrap_lines(update_summary(update.results, update.overlay, update.record,
                                              update.written, update.cached) +
                                   not_refreshed(models, clouds),
                               common.width),
            true);
    }
    if (!update.written) {
        io.err << fmt::format("gpuplan: the price cache {} is unchanged\n", update.record.file);
    }
    if (network_failure) {
        return Exit::runtime;
    }
    return input_failure ? Exit::invalid_input : Exit::ok;
}

} // namespace gpuplan::cli

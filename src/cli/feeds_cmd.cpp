#include "cli/feeds_cmd.hpp"

#include "cli/catalog_input.hpp"
#include "gpuplan/catalog/diff.hpp"
#include "gpuplan/catalog/writer.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/report/diff_view.hpp"
#include "gpuplan/report/escape.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <set>

namespace gpuplan::cli {

namespace fs = std::filesystem;

namespace {

// One written provider's lines of the import summary: its counts, then each accelerator.
std::string provider_summary(const feeds::FeedRead& read, const std::string& provider,
                             const std::string& target) {
    const auto& providers = read.overlay.providers;
    auto it = std::find_if(providers.begin(), providers.end(),
                           [&](const catalog::Provider& p) { return p.name == provider; });
    std::size_t rows = 0;
    for (const catalog::Instance& instance : it->instances) {
        rows += instance.prices.size();
    }
    std::string out =
        fmt::format("{}: {} instance types, {} price rows, as_of {} -> {}\n", provider,
                    it->instances.size(), rows, it->as_of.to_string(), target);
    for (const feeds::AcceleratorRows& entry : read.summary.accelerators) {
        if (entry.provider != provider) {
            continue;
        }
        out += fmt::format(
            "  {:<10} -> {:<10} CSV rows {:>6}  price rows {:>6}  dropped {}{}\n",
            entry.accelerator, entry.gpu, entry.csv_rows, entry.price_rows, entry.dropped,
            entry.unused == 0 ? std::string() : fmt::format("  unused {}", entry.unused));
    }
    auto unknown = read.summary.unknown_accelerators.find(provider);
    if (unknown != read.summary.unknown_accelerators.end()) {
        for (const auto& [name, count] : unknown->second) {
            out +=
                fmt::format("  {:<10} -> (no catalog GPU model) {} rows left out\n", name, count);
        }
    }
    return out;
}

// Unknown accelerators of providers nothing was written for.
std::string unwritten_summary(const feeds::FeedRead& read,
                              const std::vector<std::pair<std::string, std::string>>& written) {
    std::string out;
    for (const auto& unknown_names : read.summary.unknown_accelerators) {
        const std::string& provider = unknown_names.first;
        if (std::any_of(written.begin(), written.end(),
                        [&](const auto& w) { return w.first == provider; })) {
            continue;
        }
        for (const auto& [name, count] : unknown_names.second) {
            out += fmt::format("{}: accelerator {} has no catalog GPU model, {} rows left out\n",
                               provider, name, count);
        }
    }
    return out;
}

} // namespace

std::string import_summary(const feeds::FeedRead& read,
                           const std::vector<std::pair<std::string, std::string>>& written) {
    std::string out;
    for (const auto& [provider, target] : written) {
        out += provider_summary(read, provider, target);
    }
    out += unwritten_summary(read, written);
    if (read.summary.cpu_only_rows > 0) {
        out += fmt::format("{} host rows without a GPU left out\n", read.summary.cpu_only_rows);
    }
    for (const std::string& correction : read.summary.corrections) {
        out += fmt::format("corrected: {}\n", correction);
    }
    for (const auto& [file, dated] : read.summary.dates) {
        out += fmt::format(
            "{}: as_of {} from {}{}\n", file, dated.first.to_string(),
            feeds::describe(dated.second, k_as_of_flag),
            dated.second == feeds::AsOfOrigin::file_date ? " (pass --as-of to set it)" : "");
    }
    return out;
}

namespace {

// The providers of a feed as the catalog will hold them: the feed's specs and prices with what
// the catalog underneath already knew about each instance type.
std::vector<catalog::Provider> providers_to_write(const catalog::Catalog& merged,
                                                  const feeds::FeedRead& read) {
    std::vector<catalog::Provider> out;
    for (const catalog::Provider& feed : read.overlay.providers) {
        const catalog::Provider* full = catalog::find_provider(merged, feed.name);
        // The provider's note stays: its caveats (a marketplace's reliability, a sample) hold for
        // any snapshot of the same feed.
        catalog::Provider provider = *full;
        std::vector<catalog::Instance> instances;
        for (const catalog::Instance& instance : feed.instances) {
            auto it =
                std::find_if(full->instances.begin(), full->instances.end(),
                             [&](const catalog::Instance& i) { return i.type == instance.type; });
            instances.push_back(*it);
        }
        provider.instances = std::move(instances);
        out.push_back(std::move(provider));
    }
    return out;
}

// The GPU models the providers use: they travel with them, so that the written YAML reads on
// its own (--no-default-catalog --catalog DIR) as the feed itself does.
std::vector<catalog::Gpu> gpus_used(const catalog::Catalog& merged,
                                    const std::vector<catalog::Provider>& providers) {
    std::vector<catalog::Gpu> gpus;
    for (const catalog::Gpu& gpu : merged.gpus) {
        const bool used = std::any_of(providers.begin(), providers.end(), [&](const auto& p) {
            return std::any_of(p.instances.begin(), p.instances.end(),
                               [&](const catalog::Instance& i) { return i.gpu == gpu.name; });
        });
        if (used) {
            gpus.push_back(gpu);
        }
    }
    return gpus;
}

// The documents to write (target, text): one to standard output, or gpus.yaml and a file per
// provider in folder `output`. Each is read back before anything is written.
std::vector<std::pair<std::string, std::string>>
import_documents(const std::string& output, const std::vector<catalog::Gpu>& gpus,
                 const std::vector<catalog::Provider>& providers, const catalog::Catalog& merged,
                 const std::string& comment) {
    std::vector<std::pair<std::string, std::string>> documents;
    if (output.empty() || output == "-") {
        documents.emplace_back(
            "-", catalog::write_catalog_yaml(gpus, providers, merged.sources, comment));
    } else {
        documents.emplace_back(
            (fs::path(output) / "gpus.yaml").string(),
            catalog::write_catalog_yaml(gpus, {}, merged.sources,
                                        "GPU models of the imported providers, from the catalog "
                                        "gpuplan catalog import read them against."));
        for (const catalog::Provider& provider : providers) {
            documents.emplace_back(
                (fs::path(output) / (provider.name + ".yaml")).string(),
                catalog::write_providers_yaml(std::span(&provider, 1), merged.sources, comment));
        }
    }
    catalog::Catalog models = merged; // GPU models, fx and sources the written files rely on
    models.providers.clear();
    for (const auto& [target, text] : documents) {
        const TextFile file{target == "-" ? "<stdout>" : target, text};
        (void)catalog::overlay_catalog(models, std::span(&file, 1));
    }
    return documents;
}

catalog::Catalog read_side(const CommonOptions& common, const std::string& path) {
    CommonOptions side = common;
    side.catalogs = {path};
    side.no_default_catalog = true;
    catalog::Catalog base;
    if (!common.no_default_catalog) {
        base = embedded::decode_catalog();
        base.providers.clear();
        base.files.clear();
        base.digest.clear();
    }
    return apply_catalog_paths(std::move(base), side);
}

} // namespace

Exit run_catalog_import(const CommonOptions& common, const CatalogImportOptions& options, Io& io) {
    if (options.from != "skypilot") {
        throw UsageError(
            fmt::format("--from: the only feed layout is 'skypilot', got '{}'", options.from));
    }
    if (!options.provider.empty() && !feeds::is_provider_id(options.provider)) {
        throw UsageError(fmt::format(
            "--provider: expected a lower-case provider id such as aws or gcp, got '{}'",
            options.provider));
    }
    CommonOptions base_options = common;
    base_options.output.clear();
    // Without the embedded catalog and without --catalog, the feed stands alone: its GPU models
    // still resolve against the embedded ones (read_feeds' fallback).
    const catalog::Catalog base = common.no_default_catalog && common.catalogs.empty()
                                      ? catalog::Catalog{}
                                      : load_catalog(base_options);
    feeds::FeedOptions feed_options = cli::feed_options(common);
    feed_options.provider = options.provider;
    feed_options.undated = options.undated;
    const std::vector<feeds::FeedFile> files = read_feed_files(options.files);
    const feeds::FeedRead read = read_feeds(files, feed_options, base);
    if (read.overlay.providers.empty()) {
        throw RuntimeError("gpuplan: error: the feed has no GPU offers gpuplan knows (see the "
                           "warnings above); nothing written");
    }
    const catalog::Catalog merged =
        catalog::overlay_feed(base, read.overlay, embedded::catalog().sources);
    const std::vector<catalog::Provider> providers = providers_to_write(merged, read);
    std::string origin;
    for (const feeds::FeedFile& file : files) {
        origin += (origin.empty() ? "" : ", ") + fs::path(file.name).filename().string();
    }
    const std::string comment = fmt::format(
        "Imported by gpuplan catalog import --from skypilot from {}.\n"
        "Specs and prices come from the feed; other instance fields from the catalog underneath.",
        origin);
    const std::vector<catalog::Gpu> gpus = gpus_used(merged, providers);
    const std::vector<std::pair<std::string, std::string>> documents =
        import_documents(common.output, gpus, providers, merged, comment);
    std::vector<std::pair<std::string, std::string>> written;
    if (documents.size() == 1 && documents.front().first == "-") {
        CommonOptions to_stdout = common;
        to_stdout.output.clear();
        write_output(to_stdout, documents.front().second, io);
        for (const catalog::Provider& provider : providers) {
            written.emplace_back(provider.name, "stdout");
        }
        if (common.verbosity >= 0) {
            io.err << report::escape_control(
                report::wrap_lines(import_summary(read, written), common.width), true);
        }
        return Exit::ok;
    }
    std::error_code ec;
    const bool created = fs::create_directories(common.output, ec);
    if (ec) {
        throw RuntimeError(
            fmt::format("{}: error: cannot create folder: {}", common.output, ec.message()));
    }
    std::vector<OutputFile> outputs;
    for (std::size_t i = 0; i < documents.size(); ++i) {
        outputs.push_back({documents[i].first, documents[i].second});
        if (i > 0) { // documents[0] is gpus.yaml
            written.emplace_back(providers[i - 1].name, documents[i].first);
        }
    }
    try {
        write_files(outputs);
    } catch (...) {
        if (created) {
            fs::remove(common.output, ec); // only when still empty: nothing was written
        }
        throw;
    }
    if (common.verbosity >= 0) {
        io.out << report::escape_control(
            report::wrap_lines(import_summary(read, written) + fmt::format("GPU models: {} -> {}\n",
                                                                           gpus.size(),
                                                                           documents.front().first),
                               common.width),
            true);
    }
    return Exit::ok;
}

Exit run_catalog_diff(const CommonOptions& common, const CatalogDiffOptions& options, Io& io) {
    const catalog::Catalog a = read_side(common, options.a);
    const catalog::Catalog b = read_side(common, options.b);
    const catalog::CatalogDiff diff = catalog::diff_prices(a, b);
    const report::DiffSide side_a{{options.a}, a.digest, catalog::offer_count(a)};
    const report::DiffSide side_b{{options.b}, b.digest, catalog::offer_count(b)};
    write_output(common,
                 report::render_catalog_diff(diff, side_a, side_b, common.format,
                                             generator_info(common), common.width),
                 io);
    return Exit::ok;
}

} // namespace gpuplan::cli

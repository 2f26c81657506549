#include "cli/catalog_cmd.hpp"

#include "cli/catalog_input.hpp"
#include "gpuplan/catalog/audit.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/report/audit_view.hpp"
#include "gpuplan/shipped.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <ostream>

namespace gpuplan::cli {

Exit run_catalog_list(const CommonOptions& common, const CatalogListOptions& options, Io& io) {
    const catalog::Catalog catalog = load_catalog(common);
    (void)check_catalog_age(catalog, common, io);
    catalog::ListSort sort = catalog::ListSort::gpu;
    if (options.sort == "price") {
        sort = catalog::ListSort::price;
    } else if (options.sort == "provider") {
        sort = catalog::ListSort::provider;
    } else if (options.sort != "gpu") {
        throw UsageError(
            fmt::format("--sort: expected gpu, price or provider, got '{}'", options.sort));
    }
    // JSON lists every price row in its own currency; --currency converts the table's.
    const std::string currency =
        common.format == report::Format::json ? std::string() : common.currency;
    const std::string text = timed("render", [&] {
        return report::render_catalog_list(
            catalog, catalog::list_catalog(catalog, options.filter, currency, sort), common.format,
            generator_info(common), common.width);
    });
    timed("write", [&] { write_output(common, text, io); });
    return Exit::ok;
}

Exit run_catalog_show(const CommonOptions& common, const CatalogShowOptions& options, Io& io) {
    const catalog::Catalog catalog = load_catalog(common);
    const catalog::Named named = catalog::find_named(catalog, options.name);
    if (named.gpu == nullptr && named.provider == nullptr && named.build == nullptr) {
        throw UsageError(fmt::format("nothing in the catalog is named '{}' (a GPU, provider, "
                                     "instance type or build)",
                                     options.name));
    }
    std::string text;
    if (named.provider != nullptr && named.instance == nullptr) {
        // A provider: the listing of its instance types.
        catalog::CatalogFilter filter;
        filter.providers.push_back(named.provider->name);
        text = report::render_catalog_list(catalog, catalog::list_catalog(catalog, filter),
                                           common.format, generator_info(common), common.width);
    } else {
        text = report::render_catalog_show(catalog, named, common.format, generator_info(common),
                                           common.width);
    }
    write_output(common, text, io);
    return Exit::ok;
}

namespace {

// The problems of the shipped files, re-validated from their embedded text with the same
// readers a user's files go through.
std::vector<Diagnostic> validate_shipped_files(std::size_t& file_count) {
    std::vector<std::pair<std::string, std::string>> files;
    for (const embedded::File& file : embedded::files()) {
        files.emplace_back(std::string(file.name), std::string(file.text));
    }
    file_count = files.size();
    return shipped::validate_shipped(files);
}

// The problems of `paths` (YAML files and folders, or feeds), read over the embedded catalog
// unless --no-default-catalog.
std::vector<Diagnostic> validate_paths(const CommonOptions& common,
                                       const std::vector<std::string>& paths,
                                       std::size_t& file_count) {
    if (std::any_of(paths.begin(), paths.end(),
                    [](const std::string& p) { return is_feed_path(p); })) {
        file_count = paths.size();
        // Feeds go through the feed reader, in order with the YAML files, as --catalog does.
        CommonOptions with_paths = common;
        with_paths.catalogs = paths;
        try {
            (void)apply_catalog_paths(
                common.no_default_catalog ? catalog::Catalog{} : embedded::catalog(), with_paths);
        } catch (const InputError& e) {
            return e.diagnostics();
        }
        return {};
    }
    const std::vector<TextFile> files = read_catalog_paths(paths);
    file_count = files.size();
    if (files.empty()) {
        throw UsageError("no catalog files (*.yaml) found in the given folders");
    }
    if (common.no_default_catalog) {
        return catalog::validate_catalog(files);
    }
    try {
        (void)catalog::overlay_catalog(embedded::catalog(), files);
    } catch (const InputError& e) {
        return e.diagnostics();
    }
    return {};
}

} // namespace

Exit run_catalog_validate(const CommonOptions& common, const CatalogValidateOptions& options,
                          Io& io) {
    std::size_t file_count = 0;
    const std::vector<Diagnostic> problems =
        options.paths.empty() ? validate_shipped_files(file_count)
                              : validate_paths(common, options.paths, file_count);
    if (!problems.empty()) {
        throw InputError(problems);
    }
    if (common.verbosity >= 0) {
        io.out << fmt::format("ok: {} file{} valid\n", file_count, file_count == 1 ? "" : "s");
    }
    return Exit::ok;
}

namespace {

// The (provider, instance type) pairs whose instance `after` adds or changes over `before`.
catalog::AuditScope changed_instances(const catalog::Catalog& before,
                                      const catalog::Catalog& after) {
    catalog::AuditScope scope;
    for (const catalog::Provider& provider : after.providers) {
        const catalog::Provider* earlier = catalog::find_provider(before, provider.name);
        for (const catalog::Instance& instance : provider.instances) {
            const catalog::Instance* old = nullptr;
            if (earlier != nullptr) {
                for (const catalog::Instance& candidate : earlier->instances) {
                    if (candidate.type == instance.type) {
                        old = &candidate;
                    }
                }
            }
            if (old == nullptr || !(*old == instance)) {
                scope.emplace(provider.name, instance.type);
            }
        }
    }
    return scope;
}

} // namespace

Exit run_catalog_audit(const CommonOptions& common, const CatalogAuditOptions& options, Io& io) {
    const Date day = today(io, options.today);
    const catalog::Catalog base = load_catalog(common);
    catalog::AuditReport audit;
    if (options.paths.empty()) {
        audit = catalog::audit_catalog(base, day);
    } else {
        CommonOptions with_paths = common;
        with_paths.catalogs = options.paths;
        const catalog::Catalog overlaid = apply_catalog_paths(base, with_paths);
        const catalog::AuditScope scope = changed_instances(base, overlaid);
        if (scope.empty()) {
            throw UsageError(fmt::format("{}: no price rows to audit: the files add or change no "
                                         "instance of the catalog",
                                         fmt::join(options.paths, ", ")));
        }
        audit = catalog::audit_catalog(overlaid, day, scope);
    }
    write_output(
        common,
        report::render_catalog_audit(audit, common.format, generator_info(common), common.width),
        io);
    return audit.errors() > 0 ? Exit::gate_failed : Exit::ok;
}

} // namespace gpuplan::cli

#include "cli/workload_input.hpp"

#include "cli/input_file.hpp"
#include "cli/workload_flags.hpp"
#include "detail/strings.hpp"
#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/limits.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuplan::cli {

namespace {

constexpr std::string_view k_preset_prefix = "presets/";
constexpr std::string_view k_preset_suffix = ".yaml";

} // namespace

workload::FileLoader relative_file_loader(const std::string& naming_file) {
    const std::filesystem::path folder = naming_file == "-"
                                             ? std::filesystem::path()
                                             : std::filesystem::path(naming_file).parent_path();
    return [folder](const std::string& path, std::string& why) -> std::optional<TextFile> {
        const std::filesystem::path p(path);
        const std::string resolved = p.is_absolute() ? path : (folder / p).string();
        try {
            return read_text_file(resolved, limits::k_max_workload_bytes);
        } catch (const std::exception& error) {
            why = error.what();
        }
        return std::nullopt;
    };
}

std::vector<std::string> preset_names() {
    std::vector<std::string> names;
    for (const embedded::File& file : embedded::files()) {
        const std::string_view name = file.name;
        if (name.size() > k_preset_prefix.size() + k_preset_suffix.size() &&
            name.substr(0, k_preset_prefix.size()) == k_preset_prefix &&
            name.substr(name.size() - k_preset_suffix.size()) == k_preset_suffix) {
            names.emplace_back(
                name.substr(k_preset_prefix.size(),
                            name.size() - k_preset_prefix.size() - k_preset_suffix.size()));
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

workload::Workload read_preset(const std::string& name) {
    const std::string file = fmt::format("{}{}{}", k_preset_prefix, name, k_preset_suffix);
    auto text = name.find('/') == std::string::npos ? embedded::file(file) : std::nullopt;
    if (!text) {
        const std::vector<std::string> names = preset_names();
        const std::vector<std::string_view> views(names.begin(), names.end());
        const std::string hint = detail::closest_match(name, views);
        throw UsageError(fmt::format("--preset: unknown preset '{}'{}; available: {}", name,
                                     hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint),
                                     names.empty() ? std::string("none")
                                                   : fmt::format("{}", fmt::join(names, ", "))));
    }
    // The build compiled every shipped preset; the YAML is the fallback of a bundle without.
    if (auto compiled = embedded::compiled_preset(file)) {
        return std::move(*compiled);
    }
    return workload::read_workload({"catalog/" + file, std::string(*text)});
}

namespace {

// Throws UsageError when `flag`'s currency is not one the catalog converts.
void check_flag_currency(std::string_view flag, std::string_view code,
                         const std::vector<std::string>& known) {
    if (std::find(known.begin(), known.end(), code) == known.end()) {
        throw UsageError(
            fmt::format("{}: unknown currency {}: the catalog has exchange rates for {}", flag,
                        code, fmt::join(known, ", ")));
    }
}

// Throws UsageError when a name `flag` gives is none of `known`, with the closest one (names are
// matched exactly: `AWS` is not `aws`, and the hint says so).
void check_flag_names(std::string_view flag, std::string_view what,
                      const std::vector<std::string>& given,
                      const std::vector<std::string>& known) {
    for (const std::string& name : given) {
        if (std::find(known.begin(), known.end(), name) != known.end()) {
            continue;
        }
        const std::vector<std::string_view> views(known.begin(), known.end());
        const std::string hint = detail::closest_match(name, views);
        throw UsageError(fmt::format("{}: unknown {} '{}'{}", flag, what, name,
                                     hint.empty() ? std::string("; gpuplan catalog list shows them")
                                                  : fmt::format("; did you mean '{}'?", hint)));
    }
}

// The catalog's provider names, and the regions of `providers` (of every provider when empty).
std::pair<std::vector<std::string>, std::vector<std::string>>
catalog_places(const catalog::Catalog& catalog, const std::vector<std::string>& providers) {
    std::vector<std::string> names;
    std::vector<std::string> regions;
    for (const catalog::Provider& provider : catalog.providers) {
        names.push_back(provider.name);
        if (!providers.empty() &&
            std::find(providers.begin(), providers.end(), provider.name) == providers.end()) {
            continue;
        }
        for (const catalog::Instance& instance : provider.instances) {
            for (const catalog::PriceRow& row : instance.prices) {
                if (std::find(regions.begin(), regions.end(), row.region) == regions.end()) {
                    regions.push_back(row.region);
                }
            }
        }
    }
    return {names, regions};
}

// --provider and --region name what the catalog has.
void check_place_flags(const workload::WorkloadOverrides& overrides,
                       const catalog::Catalog& catalog) {
    if (overrides.providers.empty() && overrides.regions.empty()) {
        return;
    }
    const auto [providers, regions] = catalog_places(catalog, overrides.providers);
    check_flag_names("--provider", "provider", overrides.providers, providers);
    check_flag_names("--region", "region", overrides.regions, regions);
}

// The flags on top of what the command line gives elsewhere: the common --currency and the
// configured discount rate.
workload::WorkloadOverrides all_overrides(const WorkloadInput& input, const CommonOptions& common,
                                          const std::vector<std::string>& known) {
    workload::WorkloadOverrides overrides = input.overrides;
    if (!overrides.discount_rate && !common.discount_rate.empty()) {
        overrides.discount_rate = common.discount_rate;
    }
    if (!common.currency.empty()) {
        if (is_currency_code(common.currency)) {
            check_flag_currency("--currency", common.currency, known);
        }
        overrides.currency = common.currency;
    }
    if (overrides.budget) {
        if (const auto money = parse_money(*overrides.budget, "USD")) {
            check_flag_currency("--budget", money->currency, known);
        }
    }
    return overrides;
}

// The workload of the file, the preset or the flags alone, with `overrides` applied.
workload::Workload read_input(const WorkloadInput& input,
                              const workload::WorkloadOverrides& overrides,
                              const catalog::Catalog& catalog,
                              const std::vector<std::string>& known) {
    if (!input.path.empty()) {
        const auto [providers, regions] = catalog_places(catalog, {});
        std::vector<std::string> gpus;
        for (const catalog::Gpu& gpu : catalog.gpus) {
            gpus.push_back(gpu.name);
            gpus.insert(gpus.end(), gpu.aliases.begin(), gpu.aliases.end());
        }
        return workload::read_workload(
            read_text_file(input.path, limits::k_max_workload_bytes), overrides, known,
            {.providers = providers, .regions = regions, .gpus = gpus}, workload_flag_of,
            [](const std::string& path, std::string& why) -> std::optional<TextFile> {
                try {
                    return read_text_file(path, limits::k_max_workload_bytes);
                } catch (const std::exception& error) {
                    why = error.what();
                }
                return std::nullopt;
            });
    }
    if (!input.preset.empty()) {
        workload::Workload workload = read_preset(input.preset);
        workload::apply_overrides(workload, overrides, workload_flag_of);
        return workload;
    }
    if (input.overrides.empty()) {
        throw UsageError("no workload: give a WORKLOAD.yaml file, --preset NAME, or flags "
                         "such as --params 7B --tokens 2T");
    }
    workload::Workload workload = workload::workload_from_flags(overrides, workload_flag_of);
    const std::vector<std::string> missing = workload::missing_fields(workload, workload_flag_of);
    if (!missing.empty()) {
        throw UsageError(fmt::format("incomplete workload: missing {}", fmt::join(missing, "; ")));
    }
    return workload;
}

} // namespace

workload::Workload resolve_workload(const WorkloadInput& input, const CommonOptions& common,
                                    const catalog::Catalog& catalog) {
    if (!input.path.empty() && !input.preset.empty()) {
        throw UsageError("give either a WORKLOAD.yaml file or --preset NAME, not both");
    }
    const std::vector<std::string> known = catalog::currencies(catalog);
    check_place_flags(input.overrides, catalog);
    const workload::WorkloadOverrides overrides = all_overrides(input, common, known);
    try {
        workload::Workload workload = read_input(input, overrides, catalog, known);
        workload.calibration = load_calibration(common);
        return workload;
    } catch (const workload::FieldError& error) {
        // The workload names the field of a bad value; the user typed its flag.
        const std::string_view flag = workload_flag_of(error.path());
        if (flag.empty()) {
            throw;
        }
        throw UsageError(fmt::format("{}: {}", flag, error.message()));
    }
}

} // namespace gpuplan::cli

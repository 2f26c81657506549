#include "detail/strings.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/report/catalog_view.hpp"
#include "report/catalog_entries.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

namespace gpuplan::report {

using catalog::Catalog;
using catalog::Gpu;
using catalog::Instance;
using catalog::PriceRow;
using catalog::Provider;
using nlohmann::ordered_json;

namespace {

struct Selection {
    std::set<std::string> gpus; // canonical names
    std::set<std::string> providers;
    std::set<std::string> regions;
};

Selection resolve(const Catalog& catalog, const CatalogFilter& filter) {
    Selection selection;
    for (const std::string& name : filter.gpus) {
        const Gpu* gpu = catalog::find_gpu(catalog, name);
        if (gpu == nullptr) {
            std::vector<std::string_view> names;
            for (const Gpu& g : catalog.gpus) {
                names.push_back(g.name);
            }
            std::string hint = detail::closest_match(name, names);
            throw UsageError(hint.empty()
                                 ? fmt::format("unknown GPU '{}'", name)
                                 : fmt::format("unknown GPU '{}'; did you mean '{}'?", name, hint));
        }
        selection.gpus.insert(gpu->name);
    }
    for (const std::string& name : filter.providers) {
        const Provider* provider = catalog::find_provider(catalog, name);
        if (provider == nullptr) {
            std::vector<std::string_view> names;
            for (const Provider& p : catalog.providers) {
                names.push_back(p.name);
            }
            std::string hint = detail::closest_match(name, names);
            throw UsageError(hint.empty() ? fmt::format("unknown provider '{}'", name)
                                          : fmt::format("unknown provider '{}'; did you mean '{}'?",
                                                        name, hint));
        }
        selection.providers.insert(provider->name);
    }
    selection.regions.insert(filter.regions.begin(), filter.regions.end());
    return selection;
}

bool selected(const Selection& s, const Provider& provider, const Instance& instance) {
    return (s.providers.empty() || s.providers.contains(provider.name)) &&
           (s.gpus.empty() || s.gpus.contains(instance.gpu));
}

bool selected(const Selection& s, const PriceRow& row) {
    return s.regions.empty() || s.regions.contains(row.region);
}

ordered_json catalog_header(const Catalog& catalog) {
    ordered_json out;
    auto range = catalog::price_date_range(catalog);
    out["digest"] = "fnv1a64:" + catalog.digest;
    out["as_of"] = range ? ordered_json{{"oldest", range->first.to_string()},
                                        {"newest", range->second.to_string()}}
                         : ordered_json(nullptr);
    out["offers"] = catalog::offer_count(catalog);
    out["files"] = catalog.files;
    return out;
}

// A price row as the catalog holds it, with the instance it prices and the sources it rests on.
ordered_json offer_json(const Provider& provider, const Instance& instance, const PriceRow& row,
                        const std::vector<std::string>& sources) {
    ordered_json offer;
    offer["provider"] = provider.name;
    offer["instance"] = instance.type;
    offer["gpu"] = instance.gpu;
    offer["gpu_count"] = instance.gpu_count;
    offer["vcpus"] = instance.vcpus;
    offer["memory_gib"] = instance.memory_gib;
    offer["region"] = row.region;
    offer["zone"] = row.zone.empty() ? ordered_json(nullptr) : ordered_json(row.zone);
    offer["currency"] = provider.currency;
    offer["on_demand_per_hour"] =
        row.on_demand ? ordered_json(*row.on_demand) : ordered_json(nullptr);
    offer["spot_per_hour"] = row.spot ? ordered_json(*row.spot) : ordered_json(nullptr);
    if (row.monthly) {
        offer["monthly"] = *row.monthly;
    }
    if (row.yearly) {
        offer["yearly"] = *row.yearly;
    }
    offer["as_of"] = row.as_of.value_or(provider.as_of).to_string();
    offer["sources"] = sources_json(sources);
    return offer;
}

// Whether the JSON list shows a GPU model: the ones the filter names, else every model when
// nothing is filtered, else the models of the listed offers.
bool gpu_listed(const Selection& selection, const std::set<std::string>& offer_gpus,
                const Gpu& gpu) {
    if (!selection.gpus.empty()) {
        return selection.gpus.contains(gpu.name);
    }
    return (selection.providers.empty() && selection.regions.empty()) ||
           offer_gpus.contains(gpu.name);
}

std::string list_json(const Catalog& catalog, const Selection& selection,
                      const GeneratorInfo& generator) {
    ordered_json out;
    out["schema_version"] = k_json_schema_version;
    out["generator"] = {{"name", generator.name}, {"version", generator.version}};
    out["catalog"] = catalog_header(catalog);
    std::set<std::string> used_sources;
    std::set<std::string> listed_gpus;
    ordered_json offers = ordered_json::array();
    for (const Provider& provider : catalog.providers) {
        for (const Instance& instance : provider.instances) {
            if (!selected(selection, provider, instance)) {
                continue;
            }
            for (const PriceRow& row : instance.prices) {
                if (!selected(selection, row)) {
                    continue;
                }
                const auto& sources = row.sources.empty() ? provider.sources : row.sources;
                used_sources.insert(sources.begin(), sources.end());
                listed_gpus.insert(instance.gpu);
                offers.push_back(offer_json(provider, instance, row, sources));
            }
        }
    }
    ordered_json gpus = ordered_json::array();
    for (const Gpu& gpu : catalog.gpus) {
        if (gpu_listed(selection, listed_gpus, gpu)) {
            used_sources.insert(gpu.sources.begin(), gpu.sources.end());
            gpus.push_back(gpu_json(gpu));
        }
    }
    out["gpus"] = gpus;
    out["offers"] = offers;
    out["sources"] = sources_table(catalog, used_sources);
    return out.dump(2) + "\n";
}

struct InstanceSummary {
    const Provider* provider;
    const Instance* instance;
    std::size_t regions = 0;
    std::optional<double> on_demand;
    std::optional<double> spot;
    Date as_of;
};

// `value` in `provider`'s currency converted to `currency` on `as_of` (as is when empty).
std::optional<double> converted(const Catalog& catalog, const Provider& provider,
                                const std::string& currency, std::optional<double> value,
                                Date as_of) {
    if (!value || currency.empty() || currency == provider.currency) {
        return value;
    }
    const auto rate = catalog::fx_rate(catalog, provider.currency, currency, as_of);
    if (!rate) {
        throw UsageError(fmt::format("currency {}: the catalog has no exchange rate from {} to {}",
                                     currency, provider.currency, currency));
    }
    return *value * *rate;
}

std::vector<InstanceSummary> summarise(const Catalog& catalog, const Selection& selection,
                                       const std::string& currency) {
    std::vector<InstanceSummary> out;
    for (const Provider& provider : catalog.providers) {
        for (const Instance& instance : provider.instances) {
            if (!selected(selection, provider, instance)) {
                continue;
            }
            InstanceSummary summary{&provider, &instance, 0, std::nullopt, std::nullopt, {}};
            std::set<std::string> regions;
            for (const PriceRow& row : instance.prices) {
                if (!selected(selection, row)) {
                    continue;
                }
                regions.insert(row.region);
                auto lower = [](std::optional<double>& best, const std::optional<double>& value) {
                    if (value && (!best || *value < *best)) {
                        best = value;
                    }
                };
                const Date as_of = row.as_of.value_or(provider.as_of);
                lower(summary.on_demand,
                      converted(catalog, provider, currency, row.on_demand, as_of));
                lower(summary.spot, converted(catalog, provider, currency, row.spot, as_of));
                summary.as_of = std::max(summary.as_of, as_of);
            }
            summary.regions = regions.size();
            if (summary.regions > 0) {
                out.push_back(summary);
            }
        }
    }
    return out;
}

// The on-demand price per GPU-hour of a row (price order), infinity when unpriced.
double per_gpu_hour(const InstanceSummary& s) {
    return s.on_demand && s.instance->gpu_count > 0.0 ? *s.on_demand / s.instance->gpu_count
                                                      : std::numeric_limits<double>::infinity();
}

void sort_rows(std::vector<InstanceSummary>& rows, ListSort sort) {
    auto by_gpu = [](const InstanceSummary& a, const InstanceSummary& b) {
        return std::tie(a.instance->gpu, a.instance->gpu_count, a.provider->name,
                        a.instance->type) <
               std::tie(b.instance->gpu, b.instance->gpu_count, b.provider->name, b.instance->type);
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
        if (sort == ListSort::price && per_gpu_hour(a) != per_gpu_hour(b)) {
            return per_gpu_hour(a) < per_gpu_hour(b);
        }
        if (sort == ListSort::provider && a.provider->name != b.provider->name) {
            return a.provider->name < b.provider->name;
        }
        return by_gpu(a, b);
    });
}

// Decimals that show every price of a column with at least three significant digits (two at
// least, six at most), so that one column never mixes 0.5 with 12.34.
int column_decimals(const std::vector<InstanceSummary>& rows,
                    std::optional<double> InstanceSummary::*price) {
    constexpr int k_min_decimals = 2;
    constexpr int k_max_decimals = 6;
    constexpr int k_significant = 3;
    int decimals = k_min_decimals;
    for (const InstanceSummary& row : rows) {
        const std::optional<double>& value = row.*price;
        if (value && *value > 0.0) {
            const int needed = k_significant - 1 - static_cast<int>(std::floor(std::log10(*value)));
            decimals = std::max(decimals, std::min(needed, k_max_decimals));
        }
    }
    return decimals;
}

// Narrowest an instance type is wrapped to when the list must fit the width (wrapped, not cut:
// different names must stay different and whole).
constexpr std::size_t k_min_instance_width = 12;
// Likewise the GPU and provider names of the flat table (price or provider order).
constexpr std::size_t k_min_gpu_width = 9;
constexpr std::size_t k_min_provider_width = 8;

// Device, vCPU and host memory figures as `sky gpus list` shows them; "-" when unknown.
std::string gib_text(double gib) {
    return gib > 0.0 ? fmt::format("{:.0f}", gib) : std::string("-");
}

// The heading of a GPU model's rows in the grouped table: its name and device memory.
std::string gpu_heading(const Catalog& catalog, const std::string& name) {
    const catalog::Gpu* gpu = catalog::find_gpu(catalog, name);
    return gpu != nullptr && gpu->memory_gib > 0.0
               ? fmt::format("{} ({} GiB)", name, gib_text(gpu->memory_gib))
               : name;
}

// Which columns the list table has.
struct ListLayout {
    bool grouped = false;       // each GPU model heads its rows instead of a GPU column
    bool memory_column = false; // GIB
    bool host_columns = false;  // CPU, RAM and REG
};

ListLayout list_layout(Format format, const ListView& view) {
    ListLayout layout;
    // A terminal has no room for a GPU column: in GPU order each GPU model (with its memory)
    // heads its rows instead.
    layout.grouped = format != Format::markdown && view.width > 0 && view.sort == ListSort::gpu;
    // GPU memory: in the heading when grouped, a column in markdown and --wide; a terminal's
    // flat table (price or provider order) has no room for it.
    layout.memory_column = format == Format::markdown || view.width == 0;
    // Likewise the host columns (vCPUs, host memory, regions): they make way for the GPU column.
    layout.host_columns = layout.grouped || layout.memory_column;
    return layout;
}

void add_list_columns(TextTable& table, const ListLayout& layout) {
    if (!layout.grouped) {
        table.add_column("GPU", Align::left, k_min_gpu_width, Cut::wrap);
    }
    if (layout.memory_column) {
        table.add_column("GIB", Align::right);
    }
    table.add_column("N", Align::right);
    table.add_column("PROVIDER", Align::left, k_min_provider_width, Cut::wrap);
    table.add_column("INSTANCE", Align::left, k_min_instance_width, Cut::wrap);
    if (layout.host_columns) {
        table.add_column("CPU", Align::right);
        table.add_column("RAM", Align::right);
        table.add_column("REG", Align::right);
    }
    table.add_column("ON-DEMAND", Align::right);
    table.add_column("SPOT", Align::right);
    table.add_column("CUR");
}

// The decimals of the two price columns (column_decimals).
struct PriceDecimals {
    int on_demand = 0;
    int spot = 0;
};

// An instance type's row in the columns of `layout`.
std::vector<std::string> list_cells(const Catalog& catalog, const InstanceSummary& row,
                                    const ListLayout& layout, const PriceDecimals& decimals,
                                    const std::string& currency) {
    auto price = [](const std::optional<double>& value, int digits) {
        return value ? format_fixed(*value, digits) : std::string("-");
    };
    std::vector<std::string> cells{count_text(row.instance->gpu_count), row.provider->name,
                                   row.instance->type};
    if (layout.host_columns) {
        cells.insert(cells.end(),
                     {row.instance->vcpus > 0 ? std::to_string(row.instance->vcpus) : "-",
                      gib_text(row.instance->memory_gib), std::to_string(row.regions)});
    }
    cells.insert(cells.end(),
                 {price(row.on_demand, decimals.on_demand), price(row.spot, decimals.spot),
                  currency.empty() ? row.provider->currency : currency});
    if (layout.memory_column) {
        const catalog::Gpu* gpu = catalog::find_gpu(catalog, row.instance->gpu);
        cells.insert(cells.begin(), gib_text(gpu != nullptr ? gpu->memory_gib : 0.0));
    }
    if (!layout.grouped) {
        cells.insert(cells.begin(), row.instance->gpu);
    }
    return cells;
}

// The line under the list: what it counts, what its columns mean and how old its prices are.
std::string list_summary(const std::vector<InstanceSummary>& rows, const Selection& selection) {
    std::set<std::string> providers;
    std::size_t offers = 0;
    std::optional<Date> oldest;
    std::optional<Date> newest;
    for (const InstanceSummary& row : rows) {
        providers.insert(row.provider->name);
        for (const PriceRow& price_row : row.instance->prices) {
            if (!selected(selection, price_row)) {
                continue;
            }
            ++offers;
            const Date as_of = price_row.as_of.value_or(row.provider->as_of);
            oldest = oldest ? std::min(*oldest, as_of) : as_of;
            newest = newest ? std::max(*newest, as_of) : as_of;
        }
    }
    auto plural = [](std::size_t n, std::string_view word) {
        return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
    };
    return fmt::format(
        "{}, {}, {}; CPU: vCPUs, RAM: host GiB, REG: regions; cheapest price per instance-hour "
        "across the listed regions; prices as of {} to {}",
        plural(rows.size(), "instance type"), plural(offers, "offer"),
        plural(providers.size(), "provider"), oldest ? oldest->to_string() : "-",
        newest ? newest->to_string() : "-");
}

std::string list_table(const Catalog& catalog, const Selection& selection, Format format,
                       const ListView& view) {
    const ListLayout layout = list_layout(format, view);
    TextTable table;
    add_list_columns(table, layout);
    auto rows = summarise(catalog, selection, view.currency);
    sort_rows(rows, view.sort);
    const PriceDecimals decimals{column_decimals(rows, &InstanceSummary::on_demand),
                                 column_decimals(rows, &InstanceSummary::spot)};
    const std::string* group = nullptr;
    for (const InstanceSummary& row : rows) {
        if (layout.grouped && (group == nullptr || *group != row.instance->gpu)) {
            group = &row.instance->gpu;
            table.add_heading(gpu_heading(catalog, *group));
        }
        table.add_row(list_cells(catalog, row, layout, decimals, view.currency));
    }
    std::string out =
        format == Format::markdown ? table.render_markdown() : table.render_text(view.width);
    const std::string summary = list_summary(rows, selection);
    out +=
        format == Format::markdown ? "\n" + summary + "\n" : wrap_lines(summary + "\n", view.width);
    return out;
}

} // namespace

std::string render_catalog_list(const Catalog& catalog, const CatalogFilter& filter, Format format,
                                const GeneratorInfo& generator, const ListView& view) {
    const Selection selection = resolve(catalog, filter);
    if (format == Format::json) {
        return list_json(catalog, selection, generator);
    }
    return list_table(catalog, selection, format, view);
}

} // namespace gpuplan::report

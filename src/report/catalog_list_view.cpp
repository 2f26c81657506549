#include "gpuplan/report/catalog_view.hpp"
#include "report/catalog_entries.hpp"
#include "report/generator_json.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

using catalog::Catalog;
using catalog::Gpu;
using catalog::Instance;
using catalog::PriceRow;
using catalog::Provider;
using nlohmann::ordered_json;

namespace {

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
ordered_json offer_json(const Catalog& catalog, const Provider& provider, const Instance& instance,
                        const PriceRow& row, const std::vector<std::string>& sources) {
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
    offer["as_of"] = catalog::price_as_of_text(catalog, provider, row);
    offer["sources"] = sources_json(sources);
    return offer;
}

std::string list_json(const Catalog& catalog, const catalog::Listing& listing,
                      const GeneratorInfo& generator) {
    ordered_json out;
    out["schema_version"] = k_json_schema_version;
    put_generator(out, generator);
    out["catalog"] = catalog_header(catalog);
    ordered_json offers = ordered_json::array();
    for (const catalog::ListedOffer& offer : listing.offers) {
        offers.push_back(
            offer_json(catalog, *offer.provider, *offer.instance, *offer.row, *offer.sources));
    }
    ordered_json gpus = ordered_json::array();
    for (const Gpu* gpu : listing.gpus) {
        gpus.push_back(gpu_json(*gpu));
    }
    out["gpus"] = gpus;
    out["offers"] = offers;
    out["sources"] = sources_table(catalog, listing.sources);
    return out.dump(2) + "\n";
}

using catalog::InstanceSummary;

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
std::string gpu_heading(const std::string& name, const catalog::Gpu* gpu) {
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

ListLayout list_layout(Format format, catalog::ListSort sort, std::size_t width) {
    ListLayout layout;
    // A terminal has no room for a GPU column: in GPU order each GPU model (with its memory)
    // heads its rows instead.
    layout.grouped = format != Format::markdown && width > 0 && sort == catalog::ListSort::gpu;
    // GPU memory: in the heading when grouped, a column in markdown and --wide; a terminal's
    // flat table (price or provider order) has no room for it.
    layout.memory_column = format == Format::markdown || width == 0;
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
std::vector<std::string> list_cells(const InstanceSummary& row, const ListLayout& layout,
                                    const PriceDecimals& decimals, const std::string& currency) {
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
        cells.insert(cells.begin(), gib_text(row.gpu != nullptr ? row.gpu->memory_gib : 0.0));
    }
    if (!layout.grouped) {
        cells.insert(cells.begin(), row.instance->gpu);
    }
    return cells;
}

// The line under the list: what it counts, what its columns mean and how old its prices are.
std::string list_summary(const catalog::Listing& listing) {
    auto plural = [](std::size_t n, std::string_view word) {
        return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
    };
    return fmt::format(
        "{}, {}, {}; CPU: vCPUs, RAM: host GiB, REG: regions; cheapest price per instance-hour "
        "across the listed regions; prices as of {} to {}{}",
        plural(listing.instances.size(), "instance type"), plural(listing.offers.size(), "offer"),
        plural(listing.provider_count, "provider"),
        listing.oldest ? listing.oldest->to_string() : "-",
        listing.newest ? listing.newest->to_string() : "-",
        listing.undated == 0 ? std::string()
                             : fmt::format(", {} undated (their sources state no date)",
                                           plural(listing.undated, "offer")));
}

std::string list_table(const catalog::Listing& listing, Format format, std::size_t width) {
    const ListLayout layout = list_layout(format, listing.sort, width);
    TextTable table;
    add_list_columns(table, layout);
    const std::vector<InstanceSummary>& rows = listing.instances;
    const PriceDecimals decimals{column_decimals(rows, &InstanceSummary::on_demand),
                                 column_decimals(rows, &InstanceSummary::spot)};
    const std::string* group = nullptr;
    for (const InstanceSummary& row : rows) {
        if (layout.grouped && (group == nullptr || *group != row.instance->gpu)) {
            group = &row.instance->gpu;
            table.add_heading(gpu_heading(*group, row.gpu));
        }
        table.add_row(list_cells(row, layout, decimals, listing.currency));
    }
    std::string out =
        format == Format::markdown ? table.render_markdown() : table.render_text(width);
    const std::string summary = list_summary(listing);
    out += format == Format::markdown ? "\n" + summary + "\n" : wrap_lines(summary + "\n", width);
    return out;
}

} // namespace

std::string render_catalog_list(const Catalog& catalog, const catalog::Listing& listing,
                                Format format, const GeneratorInfo& generator, std::size_t width) {
    if (format == Format::json) {
        return list_json(catalog, listing, generator);
    }
    return list_table(listing, format, width);
}

} // namespace gpuplan::report

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

// Which columns the list table has. No column is cut or wrapped: names and ids stay whole, and a
// terminal too narrow for a layout gets the next one, with fewer columns (list_layouts).
struct ListLayout {
    bool grouped = false;       // each GPU model heads its rows instead of a GPU column
    bool memory_column = false; // GIB
    bool host_columns = false;  // CPU, RAM and REG
    bool per_gpu = false;       // OD/GPU, what price order sorts by
    bool spot_per_gpu = false;  // SPOT/GPU
    bool per_instance = true;   // ON-DEMAND, per instance-hour
    bool spot = true;           // SPOT, per instance-hour
};

// The layouts to try, richest first: the first that fits `width` is used, else the last.
std::vector<ListLayout> list_layouts(Format format, catalog::ListSort sort, std::size_t width) {
    const bool price = sort == catalog::ListSort::price;
    // Markdown and --wide: every column.
    if (format == Format::markdown || width == 0) {
        return {{false, true, true, price, price, true, true}};
    }
    // A terminal has no room for a GPU column: in GPU order each GPU model (with its memory)
    // heads its rows instead, and the host columns make way for long instance types.
    if (sort == catalog::ListSort::gpu) {
        return {{true, false, true, false, false, true, true},
                {true, false, false, false, false, true, true}};
    }
    // Price order shows the per-GPU prices it sorts by; the per-instance ones make way, then
    // the spot price.
    if (price) {
        return {{false, false, false, true, true, true, true},
                {false, false, false, true, true, false, false},
                {false, false, false, true, false, false, false}};
    }
    // Provider order: the spot price makes way.
    return {{false, false, false, false, false, true, true},
            {false, false, false, false, false, true, false}};
}

void add_list_columns(TextTable& table, const ListLayout& layout) {
    if (!layout.grouped) {
        table.add_column("GPU");
    }
    if (layout.memory_column) {
        table.add_column("GIB", Align::right);
    }
    table.add_column("N", Align::right);
    table.add_column("PROVIDER");
    table.add_column("INSTANCE");
    if (layout.host_columns) {
        table.add_column("CPU", Align::right);
        table.add_column("RAM", Align::right);
        table.add_column("REG", Align::right);
    }
    if (layout.per_gpu) {
        table.add_column("OD/GPU", Align::right);
    }
    if (layout.spot_per_gpu) {
        table.add_column("SPOT/GPU", Align::right);
    }
    if (layout.per_instance) {
        table.add_column("ON-DEMAND", Align::right);
    }
    if (layout.spot) {
        table.add_column("SPOT", Align::right);
    }
}

// The decimals of the price columns (column_decimals).
struct PriceDecimals {
    int on_demand_per_gpu = 0;
    int spot_per_gpu = 0;
    int on_demand = 0;
    int spot = 0;
};

// An instance type's row in the columns of `layout`.
std::vector<std::string> list_cells(const InstanceSummary& row, const ListLayout& layout,
                                    const PriceDecimals& decimals) {
    auto price = [](const std::optional<double>& value, int digits) {
        return value ? format_fixed(*value, digits) : std::string("-");
    };
    std::vector<std::string> cells;
    if (!layout.grouped) {
        cells.push_back(row.instance->gpu);
    }
    if (layout.memory_column) {
        cells.push_back(gib_text(row.gpu != nullptr ? row.gpu->memory_gib : 0.0));
    }
    cells.insert(cells.end(),
                 {count_text(row.instance->gpu_count), row.provider->name, row.instance->type});
    if (layout.host_columns) {
        cells.insert(cells.end(),
                     {row.instance->vcpus > 0 ? std::to_string(row.instance->vcpus) : "-",
                      gib_text(row.instance->memory_gib), std::to_string(row.regions)});
    }
    if (layout.per_gpu) {
        cells.push_back(price(row.on_demand_per_gpu, decimals.on_demand_per_gpu));
    }
    if (layout.spot_per_gpu) {
        cells.push_back(price(row.spot_per_gpu, decimals.spot_per_gpu));
    }
    if (layout.per_instance) {
        cells.push_back(price(row.on_demand, decimals.on_demand));
    }
    if (layout.spot) {
        cells.push_back(price(row.spot, decimals.spot));
    }
    return cells;
}

// The currency of every price the list shows: the one converted to, else the providers' own.
std::string list_currency(const catalog::Listing& listing) {
    if (!listing.currency.empty() || listing.instances.empty()) {
        return listing.currency;
    }
    return listing.instances.front().provider->currency;
}

// The conversions a listing made: `; CNY converted to USD at 1 CNY = 0.1447 USD (catalog FX rates
// of 2026-02-13)`, each rate with the date of the rates it is; empty when nothing was converted.
std::string rates_text(const catalog::Listing& listing) {
    std::string out;
    for (std::size_t i = 0; i < listing.rates.size(); ++i) {
        const catalog::ListedRate& r = listing.rates[i];
        const bool same =
            i > 0 && listing.rates[i - 1].from == r.from && listing.rates[i - 1].to == r.to;
        out += same ? fmt::format(", 1 {} = {} {} ({})", r.from, format_fixed(r.rate, 4), r.to,
                                  r.rates_as_of.to_string())
                    : fmt::format("; {} converted to {} at 1 {} = {} {} (catalog FX rates of {})",
                                  r.from, r.to, r.from, format_fixed(r.rate, 4), r.to,
                                  r.rates_as_of.to_string());
    }
    return out;
}

// What the columns of `layout` mean.
std::string columns_text(const ListLayout& layout, const std::string& currency) {
    std::string out = layout.host_columns ? "; CPU: vCPUs, RAM: host GiB, REG: regions" : "";
    if (layout.per_instance) {
        out += fmt::format("; {}: cheapest {} per instance-hour across the listed regions",
                           layout.spot ? "ON-DEMAND, SPOT" : "ON-DEMAND", currency);
    }
    if (layout.per_gpu) {
        out +=
            fmt::format("; {}: cheapest {} per GPU-hour, the rows ordered by OD/GPU",
                        layout.spot_per_gpu ? "OD/GPU, SPOT/GPU" : "OD/GPU (on-demand)", currency);
    }
    return out;
}

// The line under the list: what it counts, what its columns mean, how old its prices are and
// the exchange rates they were converted at.
std::string list_summary(const catalog::Listing& listing, const ListLayout& layout) {
    auto plural = [](std::size_t n, std::string_view word) {
        return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
    };
    return fmt::format(
        "{}, {}, {}{}; prices as of {} to {}{}{}",
        plural(listing.instances.size(), "instance type"), plural(listing.offers.size(), "offer"),
        plural(listing.provider_count, "provider"), columns_text(layout, list_currency(listing)),
        listing.oldest ? listing.oldest->to_string() : "-",
        listing.newest ? listing.newest->to_string() : "-",
        listing.undated == 0 ? std::string()
                             : fmt::format(", {} undated (their sources state no date)",
                                           plural(listing.undated, "offer")),
        rates_text(listing));
}

// The list's table in `layout`.
std::string layout_table(const catalog::Listing& listing, const ListLayout& layout, Format format,
                         std::size_t width) {
    TextTable table;
    add_list_columns(table, layout);
    const std::vector<InstanceSummary>& rows = listing.instances;
    const PriceDecimals decimals{column_decimals(rows, &InstanceSummary::on_demand_per_gpu),
                                 column_decimals(rows, &InstanceSummary::spot_per_gpu),
                                 column_decimals(rows, &InstanceSummary::on_demand),
                                 column_decimals(rows, &InstanceSummary::spot)};
    const std::string* group = nullptr;
    for (const InstanceSummary& row : rows) {
        if (layout.grouped && (group == nullptr || *group != row.instance->gpu)) {
            group = &row.instance->gpu;
            table.add_heading(gpu_heading(*group, row.gpu));
        }
        table.add_row(list_cells(row, layout, decimals));
    }
    return format == Format::markdown ? table.render_markdown() : table.render_text(width);
}

std::string list_table(const catalog::Listing& listing, Format format, std::size_t width) {
    const std::vector<ListLayout> layouts = list_layouts(format, listing.sort, width);
    std::string out;
    ListLayout used;
    for (const ListLayout& layout : layouts) {
        used = layout;
        out = layout_table(listing, layout, format, width);
        if (width == 0 || widest_line(out) <= width) {
            break;
        }
    }
    const std::string summary = list_summary(listing, used);
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

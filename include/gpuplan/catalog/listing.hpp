#pragma once
// What `gpuplan catalog list` lists: the offers a filter selects, one summary per instance type
// (its cheapest prices across the listed regions, converted to a currency), in a chosen order,
// with the counts and dates of the list. Computed here; report::render_catalog_list formats it.

#include "gpuplan/catalog/catalog.hpp"

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gpuplan::catalog {

// Which offers to list; empty lists match everything. GPU names may be aliases.
struct CatalogFilter {
    std::vector<std::string> gpus;
    std::vector<std::string> providers;
    std::vector<std::string> regions;
};

// The order of the instance summaries.
enum class ListSort {
    gpu,      // GPU model, GPU count, provider, instance type
    price,    // on-demand price per GPU-hour, cheapest first (unpriced last), then as gpu
    provider, // provider, then as gpu
};

// One price row the filter selects, with what it prices.
struct ListedOffer {
    const Provider* provider = nullptr;
    const Instance* instance = nullptr;
    const PriceRow* row = nullptr;
    const std::vector<std::string>* sources = nullptr; // the row's, else its provider's
};

// An instance type with at least one selected price row.
struct InstanceSummary {
    const Provider* provider = nullptr;
    const Instance* instance = nullptr;
    const Gpu* gpu = nullptr;        // its GPU model; null when the catalog lacks it
    std::size_t regions = 0;         // distinct regions of its selected rows
    std::optional<double> on_demand; // cheapest, per instance-hour, in the listing's currency
    std::optional<double> spot;
    std::optional<double> on_demand_per_gpu; // on_demand per GPU-hour: what price order sorts by
    std::optional<double> spot_per_gpu;      // spot per GPU-hour
    Date as_of;                              // newest date of its selected dated rows
};

// A conversion a listing made: one `from` is `rate` `to`, at the catalog's rates of `rates_as_of`
// (the newest date of the rate records used).
struct ListedRate {
    std::string from;
    std::string to;
    double rate = 0.0;
    Date rates_as_of;

    bool operator==(const ListedRate&) const = default;
};

// The pointers point into the catalog the listing was made from.
struct Listing {
    // Prices converted to it: the currency asked for, else the catalog's base currency when the
    // listed providers price in more than one (so one column never mixes currencies and price
    // order compares like with like); empty = each provider's own, all the same.
    std::string currency;
    std::vector<ListedRate> rates;          // the conversions made, by from, to, rate and date
    ListSort sort = ListSort::gpu;          // the order of `instances`
    std::vector<ListedOffer> offers;        // in catalog order
    std::vector<const Gpu*> gpus;           // the GPU models listed, in catalog order
    std::vector<InstanceSummary> instances; // in the order asked for
    std::set<std::string> sources;          // every source the offers and GPU models cite
    std::size_t provider_count = 0;         // providers of the summarised instance types
    std::optional<Date> oldest;             // dates of the selected dated price rows
    std::optional<Date> newest;
    std::size_t undated = 0; // selected rows whose source states no date
};

// The GPU models listed are the ones the filter names, else every model when nothing is
// filtered, else the models of the listed offers. Throws UsageError for a filter naming an
// unknown GPU or provider (with the closest name), or a currency the catalog cannot convert a
// listed price to on its date. A price is converted at the catalog's rates of its own date.
[[nodiscard]] Listing list_catalog(const Catalog& catalog, const CatalogFilter& filter,
                                   const std::string& currency = {}, ListSort sort = ListSort::gpu);

} // namespace gpuplan::catalog

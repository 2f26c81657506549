#include "gpuplan/catalog/listing.hpp"

#include "detail/strings.hpp"
#include "gpuplan/error.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <tuple>

namespace gpuplan::catalog {

namespace {

struct Selection {
    std::set<std::string> gpus; // canonical names
    std::set<std::string> providers;
    std::set<std::string> regions;
};

// The canonical name of `name` among `names`; throws UsageError with the closest one.
template <class T, class Find>
std::string resolve_name(const std::vector<T>& all, const std::string& name, std::string_view what,
                         Find find) {
    const T* found = find(name);
    if (found != nullptr) {
        return found->name;
    }
    std::vector<std::string_view> names;
    names.reserve(all.size());
    for (const T& item : all) {
        names.push_back(item.name);
    }
    const std::string hint = detail::closest_match(name, names);
    throw UsageError(hint.empty()
                         ? fmt::format("unknown {} '{}'", what, name)
                         : fmt::format("unknown {} '{}'; did you mean '{}'?", what, name, hint));
}

Selection resolve(const Catalog& catalog, const CatalogFilter& filter) {
    Selection selection;
    for (const std::string& name : filter.gpus) {
        selection.gpus.insert(resolve_name(
            catalog.gpus, name, "GPU", [&](const std::string& n) { return find_gpu(catalog, n); }));
    }
    for (const std::string& name : filter.providers) {
        selection.providers.insert(
            resolve_name(catalog.providers, name, "provider",
                         [&](const std::string& n) { return find_provider(catalog, n); }));
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

// The date of the rate records that convert `from` to `to` on `on` (the newer of the two when
// neither is the base).
Date rates_date(const Catalog& catalog, const std::string& from, const std::string& to, Date on) {
    Date date;
    for (const std::string* code : {&from, &to}) {
        if (const FxRate* record = find_fx_rate(catalog, *code, on)) {
            date = std::max(date, record->as_of);
        }
    }
    return date;
}

// `value` in `provider`'s currency converted to `listing.currency` on `as_of` (as is when
// empty), the conversion recorded in `listing.rates`.
std::optional<double> converted(const Catalog& catalog, const Provider& provider,
                                std::optional<double> value, Date as_of, Listing& listing) {
    const std::string& currency = listing.currency;
    if (!value || currency.empty() || currency == provider.currency) {
        return value;
    }
    const auto rate = fx_rate(catalog, provider.currency, currency, as_of);
    if (!rate) {
        throw UsageError(fmt::format("currency {}: the catalog has no exchange rate from {} to {}",
                                     currency, provider.currency, currency));
    }
    ListedRate used{provider.currency, currency, *rate,
                    rates_date(catalog, provider.currency, currency, as_of)};
    if (std::find(listing.rates.begin(), listing.rates.end(), used) == listing.rates.end()) {
        listing.rates.push_back(std::move(used));
    }
    return *value * *rate;
}

void lower(std::optional<double>& best, const std::optional<double>& value) {
    if (value && (!best || *value < *best)) {
        best = value;
    }
}

// The instance's summary over its selected rows, and each of those rows as an offer.
InstanceSummary summarise(const Catalog& catalog, const Selection& selection,
                          const Provider& provider, const Instance& instance, Listing& listing) {
    InstanceSummary summary{&provider, &instance, find_gpu(catalog, instance.gpu), 0, {}, {}, {},
                            {},        {}};
    std::set<std::string> regions;
    for (const PriceRow& row : instance.prices) {
        if (!selected(selection, row)) {
            continue;
        }
        const auto& sources = row.sources.empty() ? provider.sources : row.sources;
        listing.offers.push_back({&provider, &instance, &row, &sources});
        listing.sources.insert(sources.begin(), sources.end());
        regions.insert(row.region);
        // An undated row converts at the rates of the day it was read: the latest it can be from.
        const Date as_of = row.as_of.value_or(provider.as_of);
        lower(summary.on_demand, converted(catalog, provider, row.on_demand, as_of, listing));
        lower(summary.spot, converted(catalog, provider, row.spot, as_of, listing));
        if (!price_as_of(catalog, provider, row)) {
            ++listing.undated;
            continue;
        }
        summary.as_of = std::max(summary.as_of, as_of);
        listing.oldest = listing.oldest ? std::min(*listing.oldest, as_of) : as_of;
        listing.newest = listing.newest ? std::max(*listing.newest, as_of) : as_of;
    }
    summary.regions = regions.size();
    if (instance.gpu_count > 0.0) {
        if (summary.on_demand) {
            summary.on_demand_per_gpu = *summary.on_demand / instance.gpu_count;
        }
        if (summary.spot) {
            summary.spot_per_gpu = *summary.spot / instance.gpu_count;
        }
    }
    return summary;
}

// The on-demand price per GPU-hour of a summary (price order), infinity when unpriced.
double per_gpu_hour(const InstanceSummary& s) {
    return s.on_demand_per_gpu.value_or(std::numeric_limits<double>::infinity());
}

// The currencies of the providers with an instance type the selection lists.
std::set<std::string> listed_currencies(const Catalog& catalog, const Selection& selection) {
    std::set<std::string> out;
    for (const Provider& provider : catalog.providers) {
        for (const Instance& instance : provider.instances) {
            if (selected(selection, provider, instance) &&
                std::any_of(instance.prices.begin(), instance.prices.end(),
                            [&](const PriceRow& row) { return selected(selection, row); })) {
                out.insert(provider.currency);
                break;
            }
        }
    }
    return out;
}

void sort_summaries(std::vector<InstanceSummary>& rows, ListSort sort) {
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

// The ones the filter names, else every model when nothing is filtered, else the models of the
// listed offers.
bool gpu_listed(const Selection& selection, const std::set<std::string>& offer_gpus,
                const Gpu& gpu) {
    if (!selection.gpus.empty()) {
        return selection.gpus.contains(gpu.name);
    }
    return (selection.providers.empty() && selection.regions.empty()) ||
           offer_gpus.contains(gpu.name);
}

} // namespace

Listing list_catalog(const Catalog& catalog, const CatalogFilter& filter,
                     const std::string& currency, ListSort sort) {
    const Selection selection = resolve(catalog, filter);
    Listing listing;
    listing.currency = currency;
    if (currency.empty() && listed_currencies(catalog, selection).size() > 1) {
        listing.currency = catalog.fx.base;
    }
    listing.sort = sort;
    std::set<std::string> offer_gpus;
    std::set<std::string> providers;
    for (const Provider& provider : catalog.providers) {
        for (const Instance& instance : provider.instances) {
            if (!selected(selection, provider, instance)) {
                continue;
            }
            InstanceSummary summary = summarise(catalog, selection, provider, instance, listing);
            if (summary.regions > 0) {
                offer_gpus.insert(instance.gpu);
                providers.insert(provider.name);
                listing.instances.push_back(summary);
            }
        }
    }
    listing.provider_count = providers.size();
    for (const Gpu& gpu : catalog.gpus) {
        if (gpu_listed(selection, offer_gpus, gpu)) {
            listing.sources.insert(gpu.sources.begin(), gpu.sources.end());
            listing.gpus.push_back(&gpu);
        }
    }
    sort_summaries(listing.instances, sort);
    std::sort(listing.rates.begin(), listing.rates.end(), [](const auto& a, const auto& b) {
        return std::tie(a.from, a.to, a.rates_as_of, a.rate) <
               std::tie(b.from, b.to, b.rates_as_of, b.rate);
    });
    return listing;
}

} // namespace gpuplan::catalog

// Merging a provider stated by a later file or feed into the catalog, and applying a price feed.

#include "gpuplan/catalog/loader.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace gpuplan::catalog {

namespace {

// Pins the provider's date and sources on its price rows (and its date on its reserved prices)
// that state none, before the provider's own change.
void pin_price_defaults(Provider& provider) {
    for (Instance& instance : provider.instances) {
        for (PriceRow& row : instance.prices) {
            row.as_of = row.as_of.value_or(provider.as_of);
            if (row.sources.empty()) {
                row.sources = provider.sources;
            }
        }
        for (ReservedPrice& price : instance.reserved) {
            price.as_of = price.as_of.value_or(provider.as_of);
        }
    }
}

template <class T> void take_if_stated(bool stated, T& into, T& from) {
    if (stated) {
        into = std::move(from);
    }
}

// The provider-level keys `source` states replace `target`'s.
void take_stated_keys(Provider& target, Provider& source, const ProviderKeys& keys) {
    take_if_stated(keys.display_name, target.display_name, source.display_name);
    take_if_stated(keys.currency, target.currency, source.currency);
    take_if_stated(keys.as_of, target.as_of, source.as_of);
    take_if_stated(keys.sources, target.sources, source.sources);
    take_if_stated(keys.billing, target.billing, source.billing);
    take_if_stated(keys.spot, target.spot, source.spot);
    take_if_stated(keys.reserved_discounts, target.reserved_discounts, source.reserved_discounts);
    take_if_stated(keys.egress_per_gb, target.egress_per_gb, source.egress_per_gb);
    take_if_stated(keys.note, target.note, source.note);
}

// A price overlay: its rows replace the rows of the same (region, zone), others stay.
void overlay_price_rows(std::vector<PriceRow>& prices, std::vector<PriceRow>& overlay) {
    for (PriceRow& row : overlay) {
        auto same = std::find_if(prices.begin(), prices.end(), [&](const PriceRow& r) {
            return r.region == row.region && r.zone == row.zone;
        });
        if (same != prices.end()) {
            *same = std::move(row);
        } else {
            prices.push_back(std::move(row));
        }
    }
}

// Merges a later instance into the provider's instances of its type by the rules of
// ProviderOverlay.
void merge_instance(std::vector<Instance>& instances, Instance& instance,
                    const ProviderOverlay& later) {
    auto it = std::find_if(instances.begin(), instances.end(),
                           [&](const Instance& i) { return i.type == instance.type; });
    if (it == instances.end()) {
        instances.push_back(std::move(instance));
    } else if (later.price_rows_only.contains(instance.type)) {
        overlay_price_rows(it->prices, instance.prices);
    } else if (later.instances == InstanceMerge::replace) {
        *it = std::move(instance);
    } else {
        it->gpu = std::move(instance.gpu);
        it->gpu_count = instance.gpu_count;
        it->vcpus = instance.vcpus;
        it->memory_gib = instance.memory_gib;
        it->prices = std::move(instance.prices);
    }
}

// A feed never replaces a price the catalog dates later: each of `feed`'s rows whose (region,
// zone) the catalog prices with a row of its own date and source (a dated list's correction)
// newer than the feed's date, or any date when the feed is undated, becomes that row.
void keep_newer_dated_rows(const Catalog& base, Provider& feed) {
    const Provider* existing = find_provider(base, feed.name);
    if (existing == nullptr) {
        return;
    }
    const bool undated = is_undated(base, feed.sources);
    for (Instance& instance : feed.instances) {
        auto old = std::find_if(existing->instances.begin(), existing->instances.end(),
                                [&](const Instance& i) { return i.type == instance.type; });
        if (old == existing->instances.end()) {
            continue;
        }
        for (PriceRow& row : instance.prices) {
            auto same =
                std::find_if(old->prices.begin(), old->prices.end(), [&](const PriceRow& r) {
                    return r.region == row.region && r.zone == row.zone;
                });
            if (same != old->prices.end() && same->as_of && !same->sources.empty() &&
                !is_undated(base, same->sources) && (undated || *same->as_of > feed.as_of)) {
                row = *same;
            }
        }
    }
}

} // namespace

void merge_provider(Catalog& catalog, ProviderOverlay later) {
    auto existing = std::find_if(catalog.providers.begin(), catalog.providers.end(),
                                 [&](const Provider& p) { return p.name == later.provider.name; });
    if (existing == catalog.providers.end()) {
        catalog.providers.push_back(std::move(later.provider));
        return;
    }
    Provider& target = *existing;
    Provider& source = later.provider;
    const ProviderKeys& keys = later.keys;
    // Prices already in the catalog keep the date and source they were read with, even when the
    // later file states new provider defaults.
    if ((keys.as_of && source.as_of != target.as_of) ||
        (keys.sources && source.sources != target.sources)) {
        pin_price_defaults(target);
    }
    take_stated_keys(target, source, keys);
    for (Instance& instance : source.instances) {
        merge_instance(target.instances, instance, later);
    }
}

Catalog overlay_feed(Catalog base, FeedOverlay feed,
                     const std::map<std::string, Source>& gpu_sources) {
    for (const Gpu& gpu : feed.gpus) {
        if (find_gpu(base, gpu.name) != nullptr) {
            continue;
        }
        for (const std::string& id : gpu.sources) {
            auto it = gpu_sources.find(id);
            if (it != gpu_sources.end() && !base.sources.contains(id)) {
                base.sources.emplace(id, it->second);
            }
        }
        base.gpus.push_back(gpu);
    }
    const std::string origin = feed.names.empty() ? std::string("feed") : feed.names.front();
    std::map<std::string, std::string> ids;
    for (const Source& source : feed.sources) {
        ids[source.id] = register_source(base, source, origin);
    }
    DiagnosticSink sink;
    for (Provider& provider : feed.providers) {
        for (std::string& id : provider.sources) {
            auto it = ids.find(id);
            if (it != ids.end()) {
                id = it->second;
            }
        }
        if (provider.currency != base.fx.base && find_fx_rate(base, provider.currency) == nullptr) {
            sink.add(Diagnostic{origin, 0, 0, "",
                                fmt::format("currency {} of provider '{}' has no exchange rate: "
                                            "add it to `fx.rates`",
                                            provider.currency, provider.name)});
        }
        keep_newer_dated_rows(base, provider);
        ProviderKeys keys;
        keys.currency = true;
        keys.as_of = true;
        keys.sources = true;
        merge_provider(
            base, ProviderOverlay{std::move(provider), keys, InstanceMerge::specs_and_prices, {}});
    }
    sink.throw_if_any();
    for (std::size_t i = 0; i < feed.names.size() && i < feed.texts.size(); ++i) {
        base.files.push_back(feed.names[i]);
        if (!feed.digest) {
            base.digest = fnv1a64_hex(feed.texts[i], base.digest);
        }
    }
    if (feed.digest) {
        base.digest = std::move(*feed.digest);
    }
    return base;
}

} // namespace gpuplan::catalog

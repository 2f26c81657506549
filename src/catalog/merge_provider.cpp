// Merging a provider stated by a later file or feed into the catalog, and applying a price feed.

#include "gpuplan/catalog/loader.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace gpuplan::catalog {

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
        for (Instance& instance : target.instances) {
            for (PriceRow& row : instance.prices) {
                row.as_of = row.as_of.value_or(target.as_of);
                if (row.sources.empty()) {
                    row.sources = target.sources;
                }
            }
            for (ReservedPrice& price : instance.reserved) {
                price.as_of = price.as_of.value_or(target.as_of);
            }
        }
    }
    auto take = [](bool stated, auto& into, auto& from) {
        if (stated) {
            into = std::move(from);
        }
    };
    take(keys.display_name, target.display_name, source.display_name);
    take(keys.currency, target.currency, source.currency);
    take(keys.as_of, target.as_of, source.as_of);
    take(keys.sources, target.sources, source.sources);
    take(keys.billing, target.billing, source.billing);
    take(keys.spot, target.spot, source.spot);
    take(keys.reserved_discounts, target.reserved_discounts, source.reserved_discounts);
    take(keys.egress_per_gb, target.egress_per_gb, source.egress_per_gb);
    take(keys.note, target.note, source.note);
    for (Instance& instance : source.instances) {
        auto it = std::find_if(target.instances.begin(), target.instances.end(),
                               [&](const Instance& i) { return i.type == instance.type; });
        if (it == target.instances.end()) {
            target.instances.push_back(std::move(instance));
        } else if (later.price_rows_only.contains(instance.type)) {
            // A price overlay: its rows replace the rows of the same (region, zone), others stay.
            for (PriceRow& row : instance.prices) {
                auto same =
                    std::find_if(it->prices.begin(), it->prices.end(), [&](const PriceRow& r) {
                        return r.region == row.region && r.zone == row.zone;
                    });
                if (same != it->prices.end()) {
                    *same = std::move(row);
                } else {
                    it->prices.push_back(std::move(row));
                }
            }
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
        base.digest = fnv1a64_hex(feed.texts[i], base.digest);
    }
    return base;
}

} // namespace gpuplan::catalog

#include "detail/strings.hpp"
#include "feeds/decimal.hpp"
#include "feeds/skypilot_reader.hpp"
#include "gpuplan/limits.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <numeric>

namespace gpuplan::feeds::sky {

using detail::trim;

std::optional<std::pair<std::string, double>> FeedReader::host_accelerator(const Row& host) {
    for (const HostFamily& family : k_gcp_host_families) {
        std::string_view type = host.instance;
        if (type.substr(0, family.prefix.size()) != family.prefix) {
            continue;
        }
        type.remove_prefix(family.prefix.size());
        int count = 0;
        auto [end, error] = std::from_chars(type.data(), type.data() + type.size(), count);
        if (error != std::errc() || end == type.data() || *end != 'g' || count <= 0) {
            return std::nullopt;
        }
        return std::make_pair(std::string(family.accelerator), static_cast<double>(count));
    }
    constexpr std::string_view k_g2 = "g2-standard-";
    if (host.instance.substr(0, k_g2.size()) == k_g2) {
        int vcpus = 0;
        std::string_view rest = std::string_view(host.instance).substr(k_g2.size());
        auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), vcpus);
        if (error == std::errc() && end == rest.data() + rest.size()) {
            for (const auto& [size, l4] : k_g2_l4_counts) {
                if (size == vcpus) {
                    return std::make_pair(std::string("L4"), static_cast<double>(l4));
                }
            }
        }
    }
    return std::nullopt;
}

void FeedReader::build_split_offers() {
    SplitRows split;
    for (const Row& row : m_rows) {
        if (!row.instance.empty()) {
            continue;
        }
        auto& zones = split.accelerators[{row.provider, row.accelerator, *row.count}];
        if (!zones.emplace(place_of(row), &row).second) {
            m_sink.add(at(row.file, row.line, 1, "",
                          fmt::format("duplicate accelerator row {} x{} in {}", row.accelerator,
                                      *row.count, place_of(row))));
        }
    }
    std::map<std::pair<std::string, std::string>, RowsByPlace> n1;
    for (const Row& host : m_rows) {
        if (host.instance.empty() || !host.accelerator.empty()) {
            continue;
        }
        if (host.instance == k_gcp_n1_host) {
            n1[{host.provider, host.instance}].emplace(place_of(host), &host);
        } else {
            pair_host(split, host);
        }
    }
    for (const auto& [provider_host, hosts] : n1) {
        pair_n1_hosts(split, provider_host.first, provider_host.second, hosts);
    }
    for (const auto& [key, zones] : split.accelerators) {
        const auto& [provider, accelerator, count] = key;
        const Resolved resolved = resolve_cached(provider, accelerator);
        if (resolved.gpu == nullptr) {
            m_unknown[provider][accelerator] += zones.size();
            continue;
        }
        AcceleratorRows& counts = *resolved.counts;
        counts.csv_rows += zones.size();
        counts.unused += zones.size() - split.used[key].size();
    }
}

void FeedReader::pair_host(SplitRows& split, const Row& host) {
    auto carried = host_accelerator(host);
    if (!carried) {
        ++m_cpu_only_rows;
        return;
    }
    AcceleratorKey key{host.provider, carried->first, carried->second};
    const Resolved resolved = resolve_cached(host.provider, carried->first);
    if (resolved.gpu == nullptr) {
        m_unknown[host.provider][carried->first] += 1;
        return;
    }
    AcceleratorRows& counts = *resolved.counts;
    const Row* part = nullptr;
    if (auto zones = split.accelerators.find(key); zones != split.accelerators.end()) {
        auto found = zones->second.find(place_of(host));
        part = found == zones->second.end() ? nullptr : found->second;
    }
    if (part == nullptr) {
        ++counts.dropped;
        return;
    }
    split.used[key].insert(place_of(host));
    InstanceBuild& build = instance_for(find_instance(host.provider, host.instance), host.provider,
                                        host.instance, host.file, host.line, *resolved.gpu,
                                        carried->second, *host.vcpus, *host.memory_gib);
    add_split_price(build, *part, host, counts);
}

void FeedReader::pair_n1_hosts(SplitRows& split, const std::string& provider,
                               const std::string& host_type, const RowsByPlace& hosts) {
    for (const auto& [key, zones] : split.accelerators) {
        const auto& [key_provider, accelerator, count] = key;
        if (key_provider != provider ||
            std::find(k_gcp_n1_accelerators.begin(), k_gcp_n1_accelerators.end(), accelerator) ==
                k_gcp_n1_accelerators.end()) {
            continue;
        }
        const Resolved resolved = resolve_cached(provider, accelerator);
        if (resolved.gpu == nullptr) {
            continue;
        }
        AcceleratorRows& counts = *resolved.counts;
        const std::string type = fmt::format("{}+{}x{}", host_type, accelerator, count);
        for (const auto& [place, part] : zones) {
            auto host = hosts.find(place);
            if (host == hosts.end()) {
                ++counts.dropped;
                continue;
            }
            split.used[key].insert(place);
            InstanceBuild& build =
                instance_for(find_instance(provider, type), provider, type, part->file, part->line,
                             *resolved.gpu, count, *host->second->vcpus, *host->second->memory_gib);
            add_split_price(build, *part, *host->second, counts);
        }
    }
}

void FeedReader::add_split_price(InstanceBuild& build, const Row& part, const Row& host,
                                 AcceleratorRows& counts) {
    auto sum = [](const std::string& a, const std::string& b) -> std::optional<double> {
        if (a.empty() || b.empty()) {
            return std::nullopt;
        }
        const std::optional<std::string> total = add_decimal_text(a, b);
        return total ? parse_number(*total) : std::nullopt;
    };
    const Date as_of = std::min(m_file_dates[part.file], m_file_dates[host.file]);
    add_price(build, host.file, host.line, host.region.empty() ? part.region : host.region,
              host.zone.empty() ? part.zone : host.zone, sum(part.price_text, host.price_text),
              sum(part.spot_text, host.spot_text), as_of, counts);
    m_split_providers.insert(build.provider);
}

} // namespace gpuplan::feeds::sky

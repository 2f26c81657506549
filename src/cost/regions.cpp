#include "cost/regions.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace gpuplan::cost::detail {

namespace {

// Region name -> position; built once an instance has more regions than a scan is worth.
using RegionIndex = std::unordered_map<std::string_view, std::size_t>;
constexpr std::size_t k_scan_limit = 16;

// The position of `name` in `regions`; regions.size() for a region not seen yet (which the
// index then holds at that position, where the caller appends it).
std::size_t position(const std::vector<Region>& regions, RegionIndex& index,
                     std::string_view name) {
    if (regions.size() <= k_scan_limit) {
        for (std::size_t j = 0; j < regions.size(); ++j) {
            if (regions[j].name == name) {
                return j;
            }
        }
        return regions.size();
    }
    if (index.empty()) {
        for (std::size_t j = 0; j < regions.size(); ++j) {
            index.emplace(regions[j].name, j);
        }
    }
    return index.try_emplace(name, regions.size()).first->second;
}

// Keeps the cheaper of each price of `row`, the instance's `i`-th price row, in its region.
void merge_row(Region& region, const catalog::PriceRow& row, std::size_t i) {
    if (row.zone.empty() && region.zoneless_row > i) {
        region.zoneless_row = i;
    }
    if (row.on_demand && (!region.on_demand || *row.on_demand < *region.on_demand)) {
        region.on_demand = row.on_demand;
    }
    for (auto [price, best] :
         {std::pair{&row.monthly, &region.monthly}, std::pair{&row.yearly, &region.yearly}}) {
        if (*price && (!*best || **price < **best)) {
            *best = *price;
        }
    }
    if (row.spot && (!region.spot || *row.spot < *region.spot)) {
        region.spot = row.spot;
        region.spot_zone = row.zone;
        region.spot_row = i;
    }
}

} // namespace

std::vector<Region> regions_of(const catalog::Provider& provider,
                               const catalog::Instance& instance) {
    std::vector<Region> regions;
    RegionIndex index;
    for (std::size_t i = 0; i < instance.prices.size(); ++i) {
        const catalog::PriceRow& row = instance.prices[i];
        // Rows of a region are often adjacent: try the last region first.
        std::size_t at = regions.size() - 1;
        if (regions.empty() || regions.back().name != row.region) {
            at = position(regions, index, row.region);
            if (at == regions.size()) {
                Region region;
                region.name = row.region;
                region.as_of = row.as_of.value_or(provider.as_of);
                regions.push_back(region);
            }
        }
        merge_row(regions[at], row, i);
    }
    for (Region& region : regions) {
        if (region.spot && region.spot_zone.empty()) {
            region.spot_as_of = region.as_of;
        } else if (region.spot) {
            const std::size_t row = std::min(region.spot_row, region.zoneless_row);
            region.spot_as_of = instance.prices[row].as_of.value_or(provider.as_of);
        }
    }
    return regions;
}

} // namespace gpuplan::cost::detail

#pragma once
// An instance type's price rows grouped by region: what every purchase option of a region is
// priced from (cost::plan and cost::offer_rates alike).

#include "gpuplan/catalog/catalog.hpp"

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuplan::cost::detail {

// One region's cheapest prices (per instance-hour, or per period for subscriptions, in the
// provider's currency) and the dates of the rows they came from.
struct Region {
    std::string_view name;
    std::optional<double> on_demand;
    std::optional<double> spot;
    std::optional<double> monthly; // cheapest monthly subscription, per instance-month
    std::optional<double> yearly;  // cheapest yearly subscription, per instance-year
    std::string_view spot_zone;
    std::optional<Date> as_of;      // of the region's first price row
    std::optional<Date> spot_as_of; // of its first row in the spot zone or with no zone
    std::size_t spot_row = 0;       // position of the cheapest spot row
    std::size_t zoneless_row = static_cast<std::size_t>(-1); // first row without a zone
};

// Whether the region's spot price is one to offer: below its on-demand price, if it has one.
[[nodiscard]] inline bool usable_spot(const Region& region) {
    return region.spot && (!region.on_demand || *region.spot < *region.on_demand);
}

// Price rows grouped by region in catalog order: the cheapest zone's on-demand and spot price,
// and the dates of the rows they came from (a row without a date has the provider's).
[[nodiscard]] std::vector<Region> regions_of(const catalog::Provider& provider,
                                             const catalog::Instance& instance);

} // namespace gpuplan::cost::detail

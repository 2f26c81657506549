#pragma once
// How old a catalog's prices are, for `--max-catalog-age`. The caller supplies today's date;
// the core never reads the clock.

#include "gpuplan/catalog/catalog.hpp"

#include <string>
#include <vector>

namespace gpuplan::catalog {

// One provider's prices older than the limit.
struct StalePrices {
    std::string provider;
    std::size_t stale_rows = 0; // price rows whose as_of is more than the limit before today
    std::size_t rows = 0;       // all price rows of the provider
    Date oldest;                // oldest as_of among the stale rows
    long oldest_age_days = 0;

    bool operator==(const StalePrices&) const = default;
};

// Providers with price rows (their own as_of, else the provider's) more than `max_age_days`
// days before `today`, in catalog order; empty when every price is fresh enough.
[[nodiscard]] std::vector<StalePrices> stale_prices(const Catalog& catalog, Date today,
                                                    double max_age_days);

} // namespace gpuplan::catalog

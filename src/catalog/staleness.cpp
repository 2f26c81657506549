#include "gpuplan/catalog/staleness.hpp"

#include <algorithm>

namespace gpuplan::catalog {

std::vector<StalePrices> stale_prices(const Catalog& catalog, Date today, double max_age_days) {
    std::vector<StalePrices> out;
    const long today_days = today.days_since_epoch();
    for (const Provider& provider : catalog.providers) {
        StalePrices entry;
        entry.provider = provider.name;
        entry.oldest = today;
        for (const Instance& instance : provider.instances) {
            for (const PriceRow& row : instance.prices) {
                ++entry.rows;
                const Date as_of = row.as_of.value_or(provider.as_of);
                const long age = today_days - as_of.days_since_epoch();
                if (static_cast<double>(age) > max_age_days) {
                    ++entry.stale_rows;
                    entry.oldest = std::min(entry.oldest, as_of);
                    entry.oldest_age_days = std::max(entry.oldest_age_days, age);
                }
            }
        }
        if (entry.stale_rows > 0) {
            out.push_back(std::move(entry));
        }
    }
    return out;
}

} // namespace gpuplan::catalog

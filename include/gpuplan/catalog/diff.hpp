#pragma once
// Price changes between two catalogs, for `gpuplan catalog diff A B`.

#include "gpuplan/catalog/catalog.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gpuplan::catalog {

enum class ChangeKind { added, removed, changed };

[[nodiscard]] std::string_view to_string(ChangeKind kind);

// One price that appeared, disappeared or moved: the offer's key, which price (`on_demand`,
// `spot`, `monthly` or `yearly`, per instance-hour, month or year in `currency`), and its values in
// A and B.
struct PriceChange {
    std::string provider;
    std::string instance;
    std::string region;
    std::string zone;
    std::string field;
    ChangeKind kind = ChangeKind::changed;
    std::optional<double> before;
    std::optional<double> after;
    std::string currency;

    bool operator==(const PriceChange&) const = default;
};

struct CatalogDiff {
    std::vector<PriceChange> changes; // sorted by provider, instance, region, zone, field
    std::size_t unchanged = 0;        // prices equal in both

    bool operator==(const CatalogDiff&) const = default;
};

// Compares every price of `a` with the price of the same offer (provider, instance type, region,
// zone) in `b`. Prices are compared exactly; a price present on one side only is added or
// removed.
[[nodiscard]] CatalogDiff diff_prices(const Catalog& a, const Catalog& b);

} // namespace gpuplan::catalog

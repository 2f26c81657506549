#pragma once
// The catalog's audit of its own prices (`gpuplan catalog audit`, docs/catalog-format.md,
// "Audit"): the checks that catch a wrong or stale row before a ranking picks it because it is
// the cheapest.

#include "gpuplan/catalog/catalog.hpp"

#include <array>
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuplan::catalog {

enum class AuditCheck {
    spot_not_below_on_demand, // a spot price at or above the row's on-demand price
    regional_outlier,         // under half or over twice the type's median across regions
    resold_below_origin,      // a resold row cheaper than the origin provider's own price
    date_not_from_source,     // a row dated although its sources state no date
    price_too_old,            // older than the provider's maximum price age
    undated_price,            // a warning: the source states no date
};
inline constexpr std::array<std::string_view, 6> k_audit_check_names{
    "spot_not_below_on_demand", "regional_outlier", "resold_below_origin",
    "date_not_from_source",     "price_too_old",    "undated_price"};
[[nodiscard]] std::string_view to_string(AuditCheck check);

// The date the shipped catalog's prices were last reviewed: its self-audit ages prices to it.
inline constexpr Date k_shipped_catalog_date{2026, 12, 7};

// The default maximum age of a price when the provider's products state none.
inline constexpr long k_default_max_price_age_days = 365;

struct AuditFinding {
    AuditCheck check = AuditCheck::spot_not_below_on_demand;
    bool error = true; // false: a warning, which does not fail the audit
    std::string provider;
    std::string instance; // empty for a finding about a whole provider
    std::string region;
    std::string zone;
    std::size_t rows = 1; // price rows the finding covers (undated_price is one per provider)
    std::string text;     // what is wrong, with the figures

    bool operator==(const AuditFinding&) const = default;
};

struct AuditReport {
    Date today;
    std::size_t providers = 0;
    std::size_t rows = 0;               // price rows audited
    std::size_t dated_within_year = 0;  // rows whose source date is at most 365 days old
    std::size_t undated = 0;            // rows whose sources state no date
    std::vector<AuditFinding> findings; // errors and warnings, in catalog order

    [[nodiscard]] std::size_t errors() const;
};

// (provider, instance type) pairs an audit reports on; empty = every row of the catalog.
using AuditScope = std::set<std::pair<std::string, std::string>>;

// Audits the price rows of `catalog` as of `today`. Regional medians and origin prices are taken
// over the whole catalog; findings are reported only for rows inside `scope`.
[[nodiscard]] AuditReport audit_catalog(const Catalog& catalog, Date today,
                                        const AuditScope& scope = {});

} // namespace gpuplan::catalog

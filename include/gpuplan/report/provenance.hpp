#pragma once
// Provenance and summary figures of a priced plan: the dates of the prices its options were
// priced from, the largest monthly outlay.

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/cost/plan.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace gpuplan::report {

// The as_of of the catalog entry `option` was priced from (see prices_used_range).
[[nodiscard]] std::optional<Date> option_prices_as_of(const catalog::Catalog& catalog,
                                                      const cost::Option& option);

// Oldest and newest as_of of the catalog entries `options` were priced from: the price row of
// each cloud option's region (its reserved price for commitments, when dated), the build of each
// self-built option. nullopt when no option matches a dated entry.
[[nodiscard]] std::optional<std::pair<Date, Date>>
prices_used_range(const catalog::Catalog& catalog, const std::vector<cost::Option>& options);

// The largest net cash flow of any single month (0 for no flows): what `check --max-monthly`
// limits.
[[nodiscard]] double max_monthly(const cost::CashFlows& flows);

} // namespace gpuplan::report

#pragma once
// Provenance and summary figures of a priced plan: the dates of the prices its options were
// priced from, the largest monthly outlay.

#include "gpuplan/cost/plan.hpp"

#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace gpuplan::recommend {

// Oldest and newest as_of of the catalog entries `options` were priced from (Option::prices_as_of:
// the price row of each cloud option's region, its reserved price for commitments when dated, the
// build of each self-built option). nullopt when no option has a date.
[[nodiscard]] std::optional<std::pair<Date, Date>>
prices_used_range(std::span<const cost::Option> options);

} // namespace gpuplan::recommend

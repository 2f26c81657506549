#pragma once
// What the cost outputs of `recommend` and `tco` share: the conventions block and the cost items
// of their JSON and percentages. Private to the library:
// nlohmann stays out of public headers.

#include "gpuplan/cost/plan.hpp"

#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace gpuplan::report {

// `12.50%` for 0.125: two decimals of the fraction in per cent.
[[nodiscard]] std::string percent(double fraction);

// {item: amount} for each cost item that is not zero, amounts rounded to cents.
[[nodiscard]] nlohmann::ordered_json
items_json(const std::array<double, cost::k_item_count>& items);

// The conventions every cost output shares: rates, horizon, currency, timing, the NPV convention
// and the exchange rates used.
[[nodiscard]] nlohmann::ordered_json conventions_json(const cost::Conventions& conventions);

} // namespace gpuplan::report

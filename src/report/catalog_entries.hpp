#pragma once
// What `catalog list` and `catalog show` both print of catalog entries: a GPU model and the
// sources it cites as JSON, and GPU counts as text. Private to the library: nlohmann stays out of
// public headers.

#include "gpuplan/catalog/catalog.hpp"

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace gpuplan::report {

// The ids of the sources an entry cites, in its order.
[[nodiscard]] nlohmann::ordered_json sources_json(const std::vector<std::string>& ids);

// A GPU model with every figure the catalog holds; precisions it lacks are left out.
[[nodiscard]] nlohmann::ordered_json gpu_json(const catalog::Gpu& gpu);

// {id: {title, url, grade?, note?}} for each id of `used` the catalog describes, in id order.
[[nodiscard]] nlohmann::ordered_json sources_table(const catalog::Catalog& catalog,
                                                   const std::set<std::string>& used);

// `8` for a whole number of GPUs, else the count as a price is written (`0.5`).
[[nodiscard]] std::string count_text(double count);

} // namespace gpuplan::report

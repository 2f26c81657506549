#pragma once
// The `catalog` provenance block of the JSON outputs (docs/schema/common.schema.json), shared by
// recommend and fleet. Private to the library: nlohmann stays out of public headers.

#include "gpuplan/recommend/recommend.hpp"

#include <nlohmann/json.hpp>

namespace gpuplan::report {

// `catalog{digest, as_of{oldest, newest} | null, offers, cache?}`.
[[nodiscard]] nlohmann::ordered_json catalog_json(const recommend::CatalogInfo& info);

} // namespace gpuplan::report

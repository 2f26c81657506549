#pragma once
// The renderings of `gpuplan recommend` and `gpuplan tco`: table, JSON
// (docs/schema/recommend.schema.json, docs/schema/tco.schema.json) and markdown writers that only
// format the pipeline's value (recommend::Recommendation, recommend::TcoComparison).

#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/tco.hpp"
#include "gpuplan/report/output_format.hpp"

#include <string>

namespace gpuplan::report {

// `wide` adds total, per GPU-hour, deadline and budget columns to the table (markdown has them).
[[nodiscard]] std::string render_recommend(const recommend::Recommendation& report, Format format,
                                           bool wide = false);

[[nodiscard]] std::string render_tco(const recommend::TcoComparison& report, Format format);

// The assumption line of an answer priced with the price cache: which providers' prices, from
// which file, downloaded when and from where.
[[nodiscard]] std::string price_cache_note(const recommend::PriceCache& cache);

} // namespace gpuplan::report

#pragma once
// The renderings of `gpuplan recommend` and `gpuplan tco`: table, JSON
// (docs/schema/recommend.schema.json, docs/schema/tco.schema.json) and markdown writers that only
// format the pipeline's value (recommend::Recommendation, recommend::TcoComparison).

#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/tco.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"

#include <string>

namespace gpuplan::report {

// A table fits `width` terminal columns (ids cut, prose wrapped at spaces); width 0 (--wide)
// fits nothing and adds total, per GPU-hour, deadline and budget columns (markdown has them).
[[nodiscard]] std::string render_recommend(const recommend::Recommendation& report, Format format,
                                           std::size_t width = k_terminal_width);

// A table fits `width` terminal columns (ids and headers wrapped); 0 fits nothing.
[[nodiscard]] std::string render_tco(const recommend::TcoComparison& report, Format format,
                                     std::size_t width = k_terminal_width);

// The assumption line of an answer priced with the price cache: which providers' prices, from
// which file, downloaded when and from where.
[[nodiscard]] std::string price_cache_note(const recommend::PriceCache& cache);

} // namespace gpuplan::report

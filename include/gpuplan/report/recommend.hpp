#pragma once
// The renderings of `gpuplan recommend` and `gpuplan tco`: table, JSON
// (docs/schema/recommend.schema.json, docs/schema/tco.schema.json) and markdown writers that only
// format the pipeline's value (recommend::Recommendation, recommend::TcoComparison).

#include "gpuplan/curve/curve.hpp"
#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/recommend/tco.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"

#include <string>

namespace gpuplan::report {

// What the table output of recommend adds around the answer.
struct Screen {
    std::string command;  // the command as typed, for the `Next:` lines; empty: a generic one
    bool details = false; // --details: every section after the first screen
};

// A table opens with the first screen (report/recommend_screen.hpp); with `screen.details`, with
// --explain or at width 0 (--wide) every section follows: the options with where they are sold,
// the best per purchase option and GPU model, the frontier, the rejected and left-out options,
// the assumptions and the rules. A table fits `width` terminal columns (prose wrapped at spaces);
// width 0 fits nothing and adds total, per GPU-hour, deadline and budget columns (markdown has
// them, and every section). A service with a load curve adds `curve`, its plan for the curve
// (after the first screen in a table; `load` and `hours` in JSON).
[[nodiscard]] std::string render_recommend(const recommend::Recommendation& report, Format format,
                                           std::size_t width = k_terminal_width,
                                           const Screen& screen = {},
                                           const curve::CurvePlan* curve = nullptr);

// A table fits `width` terminal columns (ids and headers wrapped); 0 fits nothing.
[[nodiscard]] std::string render_tco(const recommend::TcoComparison& report, Format format,
                                     std::size_t width = k_terminal_width);

// The assumption line of an answer priced with the price cache: which providers' prices, from
// which file, downloaded when and from where.
[[nodiscard]] std::string price_cache_note(const recommend::PriceCache& cache);

} // namespace gpuplan::report

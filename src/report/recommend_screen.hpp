#pragma once
// The first screen of `gpuplan recommend`'s table output: the answer, why it won, its risks, the
// top rows with whole ids and the commands to look closer or act, in 24 lines of a terminal.

#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/report/recommend.hpp"

#include <map>
#include <string>

namespace gpuplan::report {

// Lines of the terminal the first screen fits (with one left for the prompt).
inline constexpr std::size_t k_screen_lines = 24;

// Whether `r` plans a service (inference): its options all serve the same hours.
[[nodiscard]] bool is_service(const recommend::Recommendation& r);

// Training: the wall time; a service: its hours a month.
[[nodiscard]] std::string wall_text(const recommend::Recommendation& r, const cost::Option& o);

// `does_not_fit 2, over_budget 3`: how many options each reason rejected.
[[nodiscard]] std::string counts_text(const std::map<std::string, std::size_t>& counts);

// The first screen of `r`, prose wrapped to `width` columns (0: unwrapped).
[[nodiscard]] std::string first_screen(const recommend::Recommendation& r, const Screen& screen,
                                       std::size_t width);

} // namespace gpuplan::report

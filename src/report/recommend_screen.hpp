#pragma once
// The first screen of `gpuplan recommend`'s table output: the answer, why it won, its risks, the
// top rows with whole ids and the commands to look closer or act, in 24 lines of a terminal.

#include "gpuplan/recommend/recommend.hpp"
#include "gpuplan/report/recommend.hpp"

#include <string>

namespace gpuplan::report {

// Lines of the terminal the first screen fits (with one left for the prompt).
inline constexpr std::size_t k_screen_lines = 24;

// The first screen of `r`, prose wrapped to `width` columns (0: unwrapped).
[[nodiscard]] std::string first_screen(const recommend::Recommendation& r, const Screen& screen,
                                       std::size_t width);

} // namespace gpuplan::report

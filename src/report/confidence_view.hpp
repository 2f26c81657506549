#pragma once
// The decision-confidence block of a recommendation (recommend --uncertainty) in words and JSON:
// how sure the answer is, what would flip it, and each drawn option's P(best) and P90 figures.

#include "gpuplan/recommend/recommend.hpp"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::report {

// `best in 72% of 2,000 draws (seed 1): UNCERTAIN, decided by prices; #2 best in 21%; expected
// regret 12.40 USD`; empty without a confidence block.
[[nodiscard]] std::string confidence_line(const recommend::Recommendation& r);

// The first screen's one line: `55% best in 2,000 draws, UNCERTAIN (prices); #2 17%; meets
// 74%`; empty without a confidence block.
[[nodiscard]] std::string confidence_short(const recommend::Recommendation& r);

// The first screen's flips: those a flag reproduces, flag first (`--mfu 0.444 puts #2 first (MFU
// above 0.443; #1 uses 0.352)`).
[[nodiscard]] std::vector<std::string> flip_flags(const recommend::Recommendation& r);

// One sentence per flip point: where the runner-up ranks first and the flag that shows it.
[[nodiscard]] std::vector<std::string> flip_lines(const recommend::Recommendation& r);

// The drawn figures of ranked group `group`, when it was drawn.
[[nodiscard]] const recommend::OptionConfidence*
option_confidence(const recommend::Recommendation& r, std::size_t group);

// The top-level `confidence` object (null without one) and an option's `confidence` entry.
[[nodiscard]] nlohmann::ordered_json confidence_json(const recommend::Recommendation& r);
[[nodiscard]] nlohmann::ordered_json option_confidence_json(const recommend::OptionConfidence& c);

// The markdown section of the report: the summary, the flips, a table of the drawn options and
// how each input was drawn.
[[nodiscard]] std::string confidence_markdown(const recommend::Recommendation& r);

} // namespace gpuplan::report

#pragma once
// Small string helpers shared by the readers.

#include <span>
#include <string>
#include <string_view>

namespace gpuplan::detail {

// Levenshtein distance between two ASCII strings.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` when it is close enough to be a likely typo, else empty.
[[nodiscard]] std::string closest_match(std::string_view word,
                                        std::span<const std::string_view> candidates);

// ASCII lower-case copy.
[[nodiscard]] std::string to_lower(std::string_view text);

// `text` without leading and trailing spaces and tabs.
[[nodiscard]] std::string_view trim(std::string_view text);

// Case-insensitive ASCII equality.
[[nodiscard]] bool iequals(std::string_view a, std::string_view b);

// `a, b or c` for messages listing allowed values.
[[nodiscard]] std::string join_choices(std::span<const std::string_view> choices);

} // namespace gpuplan::detail

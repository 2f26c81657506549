#pragma once
// Small string helpers shared by the readers.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::detail {

// Levenshtein distance between two ASCII strings.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` when it is close enough to be a likely typo, else empty.
[[nodiscard]] std::string closest_match(std::string_view word,
                                        std::span<const std::string_view> candidates);

// ASCII lower-case copy.
[[nodiscard]] std::string to_lower(std::string_view text);

// `text` without leading and trailing spaces and tabs. Inline: feed readers trim every cell.
[[nodiscard]] inline std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

// Case-insensitive ASCII equality.
[[nodiscard]] bool iequals(std::string_view a, std::string_view b);

// `a, b or c` for messages listing allowed values.
[[nodiscard]] std::string join_choices(std::span<const std::string_view> choices);

// The length of the UTF-8 sequence starting at `text[i]`, or 0 when it is not valid UTF-8
// (overlong forms, surrogates and code points above U+10FFFF are invalid).
[[nodiscard]] std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

// Where the first byte that is not valid UTF-8 is (1-based line and byte column, and the byte);
// nullopt when all of `text` is valid UTF-8.
struct Utf8Error {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    unsigned char byte = 0;
};
[[nodiscard]] std::optional<Utf8Error> find_invalid_utf8(std::string_view text);

} // namespace gpuplan::detail

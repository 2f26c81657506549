#pragma once

// Decimal text as SkyPilot feeds write prices: a fast exact reader for plain decimals.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuplan::feeds {

// The value of `text` when it is digits with an optional fraction (`12`, `0.47615`) and at most
// 2^53 as an integer without its point: then the integer divided by a power of ten (at most
// 10^18) is one correctly rounded operation on exact values, the same double std::from_chars
// gives. nullopt for anything else, which parse_number reads.
inline std::optional<double> parse_plain_decimal(std::string_view text) {
    static constexpr std::array<double, 19> k_powers{1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,
                                                     1e7,  1e8,  1e9,  1e10, 1e11, 1e12, 1e13,
                                                     1e14, 1e15, 1e16, 1e17, 1e18};
    constexpr std::size_t k_max_digits = 19; // below 2^64
    constexpr std::uint64_t k_max_exact = std::uint64_t{1} << 53U;
    const std::size_t size = text.size();
    if (size == 0 || size > k_max_digits + 1) {
        return std::nullopt;
    }
    std::uint64_t mantissa = 0;
    std::size_t point = size; // none
    for (std::size_t i = 0; i < size; ++i) {
        const unsigned digit = static_cast<unsigned char>(text[i]) - unsigned{'0'};
        if (digit <= 9) {
            mantissa = mantissa * 10 + digit;
        } else if (text[i] == '.' && point == size) {
            point = i;
        } else {
            return std::nullopt;
        }
    }
    // Digits on both sides of a point, at most 19 in all.
    if (point == 0 || point + 1 == size || (point == size && size > k_max_digits) ||
        mantissa > k_max_exact) {
        return std::nullopt;
    }
    const std::size_t fraction = point == size ? 0 : size - 1 - point;
    return static_cast<double>(mantissa) / k_powers.at(fraction);
}

// True when `text` is digits with at most one point and at least one digit.
bool is_plain_decimal(std::string_view text);

} // namespace gpuplan::feeds

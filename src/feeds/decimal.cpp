#include "feeds/decimal.hpp"

#include "detail/strings.hpp"
#include "gpuplan/feeds/skypilot.hpp"

#include <algorithm>
#include <string>

namespace gpuplan::feeds {

namespace {

struct DecimalParts {
    bool negative = false;
    std::string digits; // without the point
    std::size_t scale = 0;
};

std::optional<DecimalParts> split_decimal(std::string_view text) {
    DecimalParts parts;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        parts.negative = text[i] == '-';
        ++i;
    }
    bool point = false;
    bool any = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '.' && !point) {
            point = true;
        } else if (c >= '0' && c <= '9') {
            parts.digits.push_back(c);
            parts.scale += point ? 1 : 0;
            any = true;
        } else {
            return std::nullopt;
        }
    }
    if (!any || parts.digits.size() > 30) {
        return std::nullopt;
    }
    return parts;
}

} // namespace

bool is_plain_decimal(std::string_view text) {
    bool point = false;
    bool digit = false;
    for (char c : text) {
        if (c == '.' && !point) {
            point = true;
        } else if (c >= '0' && c <= '9') {
            digit = true;
        } else {
            return false;
        }
    }
    return digit;
}

std::optional<std::string> add_decimal_text(std::string_view a, std::string_view b) {
    auto x = split_decimal(detail::trim(a));
    auto y = split_decimal(detail::trim(b));
    if (!x || !y || x->negative || y->negative) {
        return std::nullopt;
    }
    const std::size_t scale = std::max(x->scale, y->scale);
    // The k-th digit from the right once both numbers have `scale` decimals.
    auto digit_at = [scale](const DecimalParts& part, std::size_t k) {
        const std::size_t pad = scale - part.scale;
        if (k < pad || k - pad >= part.digits.size()) {
            return 0;
        }
        return part.digits[part.digits.size() - 1 - (k - pad)] - '0';
    };
    const std::size_t width =
        std::max(x->digits.size() + scale - x->scale, y->digits.size() + scale - y->scale) + 1;
    std::string reversed; // least significant digit first
    reversed.reserve(width);
    int carry = 0;
    for (std::size_t k = 0; k < width; ++k) {
        const int digit = digit_at(*x, k) + digit_at(*y, k) + carry;
        reversed.push_back(static_cast<char>('0' + digit % 10));
        carry = digit / 10;
    }
    std::string out;
    out.reserve(width + 1);
    for (std::size_t k = width; k-- > scale;) {
        if (out.empty() && reversed[k] == '0' && k > scale) {
            continue; // leading zero
        }
        out.push_back(reversed[k]);
    }
    std::size_t lowest = 0; // trailing zeros of the fraction are dropped
    while (lowest < scale && reversed[lowest] == '0') {
        ++lowest;
    }
    if (lowest < scale) {
        out.push_back('.');
        for (std::size_t k = scale; k-- > lowest;) {
            out.push_back(reversed[k]);
        }
    }
    return out;
}

} // namespace gpuplan::feeds

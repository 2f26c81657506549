#include "detail/strings.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace gpuplan::detail {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string closest_match(std::string_view word, std::span<const std::string_view> candidates) {
    const std::string lowered = to_lower(word);
    std::string best;
    std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
    for (std::string_view candidate : candidates) {
        const std::size_t distance = edit_distance(lowered, to_lower(candidate));
        if (distance < best_distance) {
            best_distance = distance;
            best = std::string(candidate);
        }
    }
    return best;
}

std::string to_lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return out;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i];
        char y = b[i];
        if (x >= 'A' && x <= 'Z') {
            x = static_cast<char>(x - 'A' + 'a');
        }
        if (y >= 'A' && y <= 'Z') {
            y = static_cast<char>(y - 'A' + 'a');
        }
        if (x != y) {
            return false;
        }
    }
    return true;
}

std::string join_choices(std::span<const std::string_view> choices) {
    std::string out;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        if (i > 0) {
            out += i + 1 == choices.size() ? " or " : ", ";
        }
        out += choices[i];
    }
    return out;
}

namespace {

// What a UTF-8 lead byte starts: the sequence's length (0 for a byte no sequence starts with)
// and the range of its second byte, narrower than 0x80-0xBF where that rules out overlong
// forms, surrogates and code points above U+10FFFF (RFC 3629, section 4).
struct Utf8Lead {
    std::size_t length = 0;
    unsigned low = 0x80U;
    unsigned high = 0xBFU;
};

Utf8Lead utf8_lead(unsigned lead) {
    if (lead < 0x80U) {
        return {1};
    }
    if (lead >= 0xC2U && lead <= 0xDFU) {
        return {2};
    }
    if (lead >= 0xE0U && lead <= 0xEFU) {
        return {3, lead == 0xE0U ? 0xA0U : 0x80U, lead == 0xEDU ? 0x9FU : 0xBFU};
    }
    if (lead >= 0xF0U && lead <= 0xF4U) {
        return {4, lead == 0xF0U ? 0x90U : 0x80U, lead == 0xF4U ? 0x8FU : 0xBFU};
    }
    return {0};
}

} // namespace

std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) {
        return k < text.size() ? static_cast<unsigned char>(text[k]) : 0U;
    };
    const Utf8Lead lead = utf8_lead(byte(i));
    for (std::size_t k = 1; k < lead.length; ++k) {
        const unsigned b = byte(i + k);
        const unsigned low = k == 1 ? lead.low : 0x80U;
        const unsigned high = k == 1 ? lead.high : 0xBFU;
        if (b < low || b > high) {
            return 0;
        }
    }
    return lead.length;
}

std::optional<Utf8Error> find_invalid_utf8(std::string_view text) {
    // Feeds are megabytes of ASCII: skip it 32 bytes at a time, and count lines only once a bad
    // byte is found.
    constexpr std::uint64_t k_high_bits = 0x8080808080808080ULL;
    const std::size_t size = text.size();
    std::size_t i = 0;
    constexpr std::size_t k_block = 4 * sizeof(std::uint64_t);
    while (i < size) {
        if (size - i >= k_block) {
            std::array<std::uint64_t, 4> words{};
            std::memcpy(words.data(), text.data() + i, k_block);
            if (((words[0] | words[1] | words[2] | words[3]) & k_high_bits) == 0) {
                i += k_block;
                continue;
            }
        }
        const std::size_t length = utf8_sequence_length(text, i);
        if (length == 0) {
            const std::string_view before = text.substr(0, i);
            const std::size_t line_start = before.rfind('\n') + 1; // npos + 1 == 0
            return Utf8Error{
                static_cast<std::uint32_t>(1 + std::count(before.begin(), before.end(), '\n')),
                static_cast<std::uint32_t>(i - line_start + 1),
                static_cast<unsigned char>(text[i])};
        }
        i += length;
    }
    return std::nullopt;
}

} // namespace gpuplan::detail

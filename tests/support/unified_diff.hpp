#pragma once
// A unified diff of two texts, line by line, in the format `diff -u` prints (three lines of
// context, GNU hunk headers, "\ No newline at end of file"), for test failure messages.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::test {

namespace diff_detail {

// The lines of `text`, each with its '\n' (the last one without when the text does not end in
// one), so "a" and "a\n" are different lines.
inline std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t newline = text.find('\n', start);
        const std::size_t stop = newline == std::string_view::npos ? text.size() : newline + 1;
        lines.push_back(text.substr(start, stop - start));
        start = stop;
    }
    return lines;
}

// One step of the edit script: keep (' '), delete ('-') or insert ('+'); `a` and `b` count the
// lines of each side before the step.
struct Edit {
    char kind;
    std::size_t a;
    std::size_t b;
};

// A shortest edit script from `a` to `b`: common prefix and suffix, then a longest common
// subsequence of the middle (a middle too large for the table is replaced as a whole).
inline std::vector<Edit> edit_script(const std::vector<std::string_view>& a,
                                     const std::vector<std::string_view>& b) {
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) {
        ++prefix;
    }
    std::size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
           a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
        ++suffix;
    }
    const std::size_t n = a.size() - prefix - suffix;
    const std::size_t m = b.size() - prefix - suffix;
    std::vector<Edit> edits;
    for (std::size_t k = 0; k < prefix; ++k) {
        edits.push_back({' ', k, k});
    }
    std::size_t i = 0;
    std::size_t j = 0;
    constexpr std::size_t k_max_cells = std::size_t{1} << 24;
    if ((n + 1) * (m + 1) <= k_max_cells) {
        // lcs[i][j]: the longest common subsequence of a[prefix + i..] and b[prefix + j..].
        std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
        const auto at = [&](std::size_t r, std::size_t c) -> std::uint32_t& {
            return lcs[r * (m + 1) + c];
        };
        for (std::size_t r = n; r-- > 0;) {
            for (std::size_t c = m; c-- > 0;) {
                at(r, c) = a[prefix + r] == b[prefix + c] ? at(r + 1, c + 1) + 1
                                                          : std::max(at(r + 1, c), at(r, c + 1));
            }
        }
        while (i < n && j < m) {
            if (a[prefix + i] == b[prefix + j]) {
                edits.push_back({' ', prefix + i++, prefix + j++});
            } else if (at(i + 1, j) >= at(i, j + 1)) {
                edits.push_back({'-', prefix + i++, prefix + j});
            } else {
                edits.push_back({'+', prefix + i, prefix + j++});
            }
        }
    }
    for (; i < n; ++i) {
        edits.push_back({'-', prefix + i, prefix + j});
    }
    for (; j < m; ++j) {
        edits.push_back({'+', prefix + n, prefix + j});
    }
    for (std::size_t k = 0; k < suffix; ++k) {
        edits.push_back({' ', prefix + n + k, prefix + m + k});
    }
    return edits;
}

// "start,count" of a hunk side, GNU style: ",1" left out, and an empty side names the line
// before it.
inline std::string hunk_range(std::size_t before, std::size_t count) {
    const std::size_t start = count == 0 ? before : before + 1;
    return count == 1 ? std::to_string(start) : std::to_string(start) + "," + std::to_string(count);
}

} // namespace diff_detail

// The unified diff from `expected` to `received` with file labels `from` and `to`; empty when
// the texts are equal.
inline std::string unified_diff(std::string_view expected, std::string_view received,
                                std::string_view from, std::string_view to,
                                std::size_t context = 3) {
    using diff_detail::Edit;
    const auto a = diff_detail::split_lines(expected);
    const auto b = diff_detail::split_lines(received);
    const std::vector<Edit> edits = diff_detail::edit_script(a, b);
    const auto is_change = [&](std::size_t k) { return edits[k].kind != ' '; };
    std::string out;
    std::size_t next = 0;
    while (true) {
        while (next < edits.size() && !is_change(next)) {
            ++next;
        }
        if (next == edits.size()) {
            break;
        }
        if (out.empty()) {
            out.append("--- ").append(from).append("\n+++ ").append(to).append("\n");
        }
        // A hunk runs from `context` lines before its first change to `context` lines after
        // its last, joining changes no more than 2 * context lines apart.
        const std::size_t first = next >= context ? next - context : 0;
        std::size_t last = next;
        for (std::size_t k = next; k < edits.size() && k <= last + 2 * context + 1; ++k) {
            if (is_change(k)) {
                last = k;
            }
        }
        const std::size_t end = std::min(edits.size(), last + 1 + context);
        std::size_t a_count = 0;
        std::size_t b_count = 0;
        for (std::size_t k = first; k < end; ++k) {
            a_count += edits[k].kind != '+' ? std::size_t{1} : 0;
            b_count += edits[k].kind != '-' ? std::size_t{1} : 0;
        }
        out.append("@@ -")
            .append(diff_detail::hunk_range(edits[first].a, a_count))
            .append(" +")
            .append(diff_detail::hunk_range(edits[first].b, b_count))
            .append(" @@\n");
        for (std::size_t k = first; k < end; ++k) {
            const std::string_view line = edits[k].kind == '+' ? b[edits[k].b] : a[edits[k].a];
            out.append(1, edits[k].kind).append(line);
            if (line.empty() || line.back() != '\n') {
                out.append("\n\\ No newline at end of file\n");
            }
        }
        next = end;
    }
    return out;
}

} // namespace gpuplan::test

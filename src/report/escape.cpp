#include "gpuplan/report/escape.hpp"

#include <fmt/format.h>
#include <optional>

namespace gpuplan::report {

namespace {

// Appends `c` (a byte of valid UTF-8, or not) to `out`, escaped when it is a control character;
// returns how many bytes of `text` from `i` it consumed.
std::size_t append_escaped(std::string& out, std::string_view text, std::size_t i,
                           bool keep_newlines) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20U || byte == 0x7FU) {
        if (byte == '\n' && keep_newlines) {
            out += '\n';
        } else {
            out += fmt::format("\\x{:02x}", byte);
        }
        return 1;
    }
    // C1 controls are U+0080..U+009F, encoded C2 80..C2 9F.
    if (byte == 0xC2U && i + 1 < text.size()) {
        const auto next = static_cast<unsigned char>(text[i + 1]);
        if (next >= 0x80U && next <= 0x9FU) {
            out += fmt::format("\\u{:04x}", next);
            return 2;
        }
    }
    out += text[i];
    return 1;
}

// `text` with the characters `replace` names replaced and the other control characters escaped.
template <class Replace> std::string escape_with(std::string_view text, Replace replace) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        if (const std::optional<std::string_view> replacement = replace(text[i])) {
            out += *replacement;
            ++i;
        } else {
            i += append_escaped(out, text, i, false);
        }
    }
    return out;
}

} // namespace

std::string escape_control(std::string_view text, bool keep_newlines) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        i += append_escaped(out, text, i, keep_newlines);
    }
    return out;
}

std::string escape_output(std::string_view text, bool keep_colour) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        if (keep_colour && text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
            std::size_t end = i + 2;
            while (end < text.size() &&
                   ((text[end] >= '0' && text[end] <= '9') || text[end] == ';')) {
                ++end;
            }
            // Only the colours gpuplan itself writes (red, green, reset): a name's own
            // sequence (`ESC[8m` conceals the rest of a line) is escaped like any control.
            const std::string_view code = text.substr(i + 2, end - i - 2);
            if (end < text.size() && text[end] == 'm' &&
                (code == "0" || code == "31" || code == "32")) {
                out.append(text, i, end + 1 - i);
                i = end + 1;
                continue;
            }
        }
        i += append_escaped(out, text, i, true);
    }
    return out;
}

std::string escape_markdown_cell(std::string_view text) {
    return escape_with(text, [](char c) -> std::optional<std::string_view> {
        switch (c) {
        case '|':
            return "\\|";
        case '\\':
            return "\\\\";
        case '<':
            return "&lt;";
        case '>':
            return "&gt;";
        case '&':
            return "&amp;";
        case '[': // no link or image syntax: `[text](url)`, `![alt](url)`
            return "\\[";
        case ']':
            return "\\]";
        case '\n':
            return " ";
        case '\r':
            return "";
        default:
            return std::nullopt;
        }
    });
}

std::string escape_mermaid(std::string_view text) {
    return escape_with(text, [](char c) -> std::optional<std::string_view> {
        switch (c) {
        case '"':
            return "'";
        case '\n':
            return " ";
        case '<':
            return "‹";
        case '>':
            return "›";
        case '%': // no `%%{init: ...}%%` directive or `%%` comment inside a diagram
            return "％";
        default:
            return std::nullopt;
        }
    });
}

std::string escape_xml(std::string_view text) {
    return escape_with(text, [](char c) -> std::optional<std::string_view> {
        switch (c) {
        case '&':
            return "&amp;";
        case '<':
            return "&lt;";
        case '>':
            return "&gt;";
        case '"':
            return "&quot;";
        case '\'':
            return "&apos;";
        default:
            return std::nullopt;
        }
    });
}

} // namespace gpuplan::report

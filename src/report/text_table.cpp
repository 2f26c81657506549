#include "gpuplan/report/text_table.hpp"

#include "gpuplan/error.hpp"

#include <algorithm>

namespace gpuplan::report {

void TextTable::add_column(std::string header, Align align, std::size_t min_width, Cut cut) {
    m_cuts.push_back(cut);
    m_headers.push_back(std::move(header));
    m_aligns.push_back(align);
    m_min_widths.push_back(min_width);
}

void TextTable::add_row(std::vector<std::string> cells) {
    if (cells.size() != m_headers.size()) {
        throw RuntimeError("internal error: table row has the wrong number of cells");
    }
    m_rows.push_back(std::move(cells));
}

namespace {

// Bytes and terminal columns of the UTF-8 character at `i`.
std::pair<std::size_t, std::size_t> character_at(const std::string& text, std::size_t i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = 1;
    std::uint32_t code = byte;
    if (byte >= 0xF0) {
        length = 4;
        code = byte & 0x07U;
    } else if (byte >= 0xE0) {
        length = 3;
        code = byte & 0x0FU;
    } else if (byte >= 0xC0) {
        length = 2;
        code = byte & 0x1FU;
    }
    for (std::size_t k = 1; k < length && i + k < text.size(); ++k) {
        code = (code << 6U) | (static_cast<unsigned char>(text[i + k]) & 0x3FU);
    }
    const bool wide = (code >= 0x1100 && code <= 0x115F) || (code >= 0x2E80 && code <= 0xA4CF) ||
                      (code >= 0xAC00 && code <= 0xD7A3) || (code >= 0xF900 && code <= 0xFAFF) ||
                      (code >= 0xFE30 && code <= 0xFE4F) || (code >= 0xFF00 && code <= 0xFF60) ||
                      (code >= 0xFFE0 && code <= 0xFFE6);
    return {std::min(length, text.size() - i), wide ? std::size_t{2} : std::size_t{1}};
}

std::vector<std::string> escape_cells(const std::vector<std::string>& cells) {
    std::vector<std::string> out;
    out.reserve(cells.size());
    for (const std::string& cell : cells) {
        out.push_back(escape_control(cell));
    }
    return out;
}

} // namespace

std::size_t display_width(const std::string& text) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto [bytes, columns] = character_at(text, i);
        width += columns;
        i += bytes;
    }
    return width;
}

std::string truncate_display(const std::string& text, std::size_t width, Cut cut) {
    if (display_width(text) <= width) {
        return text;
    }
    if (width == 0) {
        return {};
    }
    struct Character {
        std::size_t start;
        std::size_t bytes;
        std::size_t columns;
    };
    std::vector<Character> characters;
    for (std::size_t i = 0; i < text.size();) {
        const auto [bytes, columns] = character_at(text, i);
        characters.push_back({i, bytes, columns});
        i += bytes;
    }
    const std::size_t room = width - 1; // the ellipsis takes one column
    const std::size_t tail_room = cut == Cut::middle ? room / 2 : 0;
    std::size_t tail_start = characters.size();
    for (std::size_t used = 0; tail_start > 0;) {
        const Character& c = characters[tail_start - 1];
        if (used + c.columns > tail_room) {
            break;
        }
        used += c.columns;
        --tail_start;
    }
    std::string head;
    for (std::size_t k = 0, used = 0; k < tail_start; ++k) {
        if (used + characters[k].columns > room - tail_room) {
            break;
        }
        head.append(text, characters[k].start, characters[k].bytes);
        used += characters[k].columns;
    }
    const std::size_t tail_bytes =
        tail_start < characters.size() ? characters[tail_start].start : text.size();
    return head + "…" + text.substr(tail_bytes);
}

std::string TextTable::render_text(std::size_t max_width) const {
    // Names from catalogs and feeds reach the terminal here: no control character passes.
    const std::vector<std::string> headers = escape_cells(m_headers);
    std::vector<std::vector<std::string>> rows;
    rows.reserve(m_rows.size());
    for (const auto& row : m_rows) {
        rows.push_back(escape_cells(row));
    }
    std::vector<std::size_t> widths;
    widths.reserve(headers.size());
    for (const std::string& header : headers) {
        widths.push_back(display_width(header));
    }
    for (const auto& row : rows) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            widths[i] = std::max(widths[i], display_width(row[i]));
        }
    }
    if (max_width > 0) {
        const auto total = [&] {
            std::size_t sum = widths.empty() ? 0 : 2 * (widths.size() - 1);
            for (std::size_t width : widths) {
                sum += width;
            }
            return sum;
        };
        while (total() > max_width) {
            // The widest column that may still shrink; the leftmost on a tie.
            std::size_t pick = widths.size();
            for (std::size_t i = 0; i < widths.size(); ++i) {
                if (m_min_widths[i] > 0 && widths[i] > m_min_widths[i] &&
                    (pick == widths.size() || widths[i] > widths[pick])) {
                    pick = i;
                }
            }
            if (pick == widths.size()) {
                break;
            }
            --widths[pick];
        }
    }
    auto line = [&](const std::vector<std::string>& raw) {
        std::vector<std::string> cells;
        for (std::size_t i = 0; i < raw.size(); ++i) {
            cells.push_back(truncate_display(raw[i], widths[i], m_cuts[i]));
        }
        std::string out;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::size_t pad = widths[i] - display_width(cells[i]);
            const bool last = i + 1 == cells.size();
            if (m_aligns[i] == Align::right) {
                out.append(pad, ' ');
                out += cells[i];
            } else {
                out += cells[i];
                if (!last) {
                    out.append(pad, ' ');
                }
            }
            if (!last) {
                out += "  ";
            }
        }
        while (!out.empty() && out.back() == ' ') {
            out.pop_back();
        }
        return out + "\n";
    };
    std::string out = line(headers);
    std::vector<std::string> rule;
    rule.reserve(widths.size());
    for (std::size_t width : widths) {
        rule.emplace_back(width, '-');
    }
    out += line(rule);
    for (const auto& row : rows) {
        out += line(row);
    }
    return out;
}

std::string TextTable::render_markdown() const {
    std::string out = "|";
    for (const std::string& header : m_headers) {
        out += " " + escape_markdown_cell(header) + " |";
    }
    out += "\n|";
    for (Align align : m_aligns) {
        out += align == Align::right ? " ---: |" : " --- |";
    }
    out += "\n";
    for (const auto& row : m_rows) {
        out += "|";
        for (const std::string& cell : row) {
            out += " " + escape_markdown_cell(cell) + " |";
        }
        out += "\n";
    }
    return out;
}

} // namespace gpuplan::report

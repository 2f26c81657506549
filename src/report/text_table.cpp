#include "gpuplan/report/text_table.hpp"

#include "gpuplan/error.hpp"

#include <algorithm>

namespace gpuplan::report {

void TextTable::add_column(std::string header, Align align) {
    m_headers.push_back(std::move(header));
    m_aligns.push_back(align);
}

void TextTable::add_row(std::vector<std::string> cells) {
    if (cells.size() != m_headers.size()) {
        throw RuntimeError("internal error: table row has the wrong number of cells");
    }
    m_rows.push_back(std::move(cells));
}

std::size_t display_width(const std::string& text) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size();) {
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
        const bool wide =
            (code >= 0x1100 && code <= 0x115F) || (code >= 0x2E80 && code <= 0xA4CF) ||
            (code >= 0xAC00 && code <= 0xD7A3) || (code >= 0xF900 && code <= 0xFAFF) ||
            (code >= 0xFE30 && code <= 0xFE4F) || (code >= 0xFF00 && code <= 0xFF60) ||
            (code >= 0xFFE0 && code <= 0xFFE6);
        width += wide ? 2 : 1;
        i += length;
    }
    return width;
}

std::string escape_markdown_cell(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '|':
            out += "\\|";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '&':
            out += "&amp;";
            break;
        case '\n':
            out += ' ';
            break;
        case '\r':
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string TextTable::render_text() const {
    std::vector<std::size_t> widths;
    for (const std::string& header : m_headers) {
        widths.push_back(display_width(header));
    }
    for (const auto& row : m_rows) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            widths[i] = std::max(widths[i], display_width(row[i]));
        }
    }
    auto line = [&](const std::vector<std::string>& cells) {
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
    std::string out = line(m_headers);
    std::vector<std::string> rule;
    for (std::size_t width : widths) {
        rule.emplace_back(width, '-');
    }
    out += line(rule);
    for (const auto& row : m_rows) {
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

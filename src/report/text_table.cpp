#include "gpuplan/report/text_table.hpp"

#include "gpuplan/error.hpp"
#include "gpuplan/report/escape.hpp"

#include <algorithm>
#include <set>

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
    // A cell is one line: a name holding a line break (`\nBest: ...`) must not forge a line of
    // the output, so it is shown escaped.
    for (std::string& cell : cells) {
        if (cell.find_first_of("\n\r") != std::string::npos) {
            cell = escape_control(cell);
        }
    }
    m_rows.push_back(std::move(cells));
}

void TextTable::add_heading(std::string text) {
    m_headings.emplace_back(m_rows.size(), std::move(text));
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

// True for a character after which a word too long for its line may break.
bool break_after(char c) {
    return c == '/' || c == '_' || c == '-';
}

// The pieces of `word` between the breaks wrap_words may take.
std::vector<std::string> word_pieces(const std::string& word) {
    std::vector<std::string> pieces;
    std::size_t from = 0;
    for (std::size_t i = 1; i < word.size(); ++i) {
        if (break_after(word[i - 1]) && !break_after(word[i])) {
            pieces.push_back(word.substr(from, i - from));
            from = i;
        }
    }
    pieces.push_back(word.substr(from));
    return pieces;
}

std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t start = text.find_first_not_of(' ', i);
        if (start == std::string::npos) {
            break;
        }
        const std::size_t stop = std::min(text.find(' ', start), text.size());
        words.push_back(text.substr(start, stop - start));
        i = stop;
    }
    return words;
}

// The widest piece no wrap can split: the narrowest a wrapped column may become.
std::size_t widest_piece(const std::string& text) {
    std::size_t widest = 0;
    for (const std::string& word : split_words(text)) {
        for (const std::string& piece : word_pieces(word)) {
            widest = std::max(widest, display_width(piece));
        }
    }
    return widest;
}

std::size_t distinct_count(const std::vector<std::vector<std::string>>& rows, std::size_t column,
                           std::size_t width, Cut cut) {
    std::set<std::string> seen;
    for (const auto& row : rows) {
        seen.insert(width == 0 ? row[column] : truncate_display(row[column], width, cut));
    }
    return seen.size();
}

} // namespace

std::size_t display_width(const std::string& text) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80U && byte != 0x1bU) {
            // Printable ASCII, most of every table: one column, nothing to decode.
            ++width;
            ++i;
            continue;
        }
        if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
            // A colour sequence (check's verdicts) takes no column.
            i += 2;
            while (i < text.size() && (text[i] < '@' || text[i] > '~')) {
                ++i;
            }
            ++i;
            continue;
        }
        const auto [bytes, columns] = character_at(text, i);
        width += columns;
        i += bytes;
    }
    return width;
}

namespace {

// wrap_words with a first line of `first_width` columns and the others of `width`.
std::vector<std::string> wrap_hanging(const std::string& text, std::size_t first_width,
                                      std::size_t rest_width) {
    std::vector<std::string> lines;
    std::size_t width = first_width;
    std::string line;
    std::size_t used = 0;
    auto flush = [&] {
        if (!line.empty()) {
            lines.push_back(line);
            width = rest_width;
        }
        line.clear();
        used = 0;
    };
    for (const std::string& word : split_words(text)) {
        const std::size_t columns = display_width(word);
        if (!line.empty() && used + 1 + columns <= width) {
            line += ' ' + word;
            used += 1 + columns;
            continue;
        }
        flush();
        if (columns <= width) {
            line = word;
            used = columns;
            continue;
        }
        for (const std::string& piece : word_pieces(word)) {
            const std::size_t piece_columns = display_width(piece);
            if (!line.empty() && used + piece_columns > width) {
                flush();
            }
            line += piece;
            used += piece_columns;
        }
    }
    flush();
    if (lines.empty()) {
        lines.emplace_back();
    }
    return lines;
}

// Columns a wrapped line's continuation is indented by: its indent and list marker.
std::size_t hanging_indent(const std::string& line) {
    const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
    std::size_t marker = indent;
    while (marker < line.size() && line[marker] >= '0' && line[marker] <= '9') {
        ++marker;
    }
    const bool numbered = marker > indent && marker + 1 < line.size() && line[marker] == '.' &&
                          line[marker + 1] == ' ';
    if (numbered) {
        return marker + 2;
    }
    return indent + 2;
}

} // namespace

std::size_t widest_line(const std::string& text) {
    std::size_t most = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t stop = std::min(text.find('\n', start), text.size());
        most = std::max(most, display_width(text.substr(start, stop - start)));
        start = stop + 1;
    }
    return most;
}

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
    return wrap_hanging(text, width, width);
}

std::string wrap_lines(const std::string& text, std::size_t width) {
    if (width == 0) {
        return text;
    }
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t stop = std::min(text.find('\n', start), text.size());
        const std::string line = text.substr(start, stop - start);
        const bool newline = stop < text.size();
        start = stop + 1;
        if (display_width(line) <= width) {
            out += line;
        } else {
            const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
            const std::size_t hang = std::min(hanging_indent(line), width / 2);
            const std::vector<std::string> parts = wrap_hanging(
                line.substr(indent), width - std::min(indent, width / 2), width - hang);
            out += std::string(indent, ' ') + parts.front();
            for (std::size_t k = 1; k < parts.size(); ++k) {
                out += '\n' + std::string(hang, ' ') + parts[k];
            }
        }
        if (newline) {
            out += '\n';
        }
    }
    return out;
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
    const std::size_t tail_room = cut == Cut::middle ? room / 2 : cut == Cut::start ? room : 0;
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

namespace {

// Terminal columns of a table with column `widths`, two spaces apart.
std::size_t table_width(const std::vector<std::size_t>& widths) {
    std::size_t sum = widths.empty() ? 0 : 2 * (widths.size() - 1);
    for (std::size_t width : widths) {
        sum += width;
    }
    return sum;
}

} // namespace

std::vector<std::size_t> TextTable::fitted_widths(const std::vector<std::string>& headers,
                                                  const std::vector<std::vector<std::string>>& rows,
                                                  std::size_t max_width) const {
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
    if (max_width == 0) {
        return widths;
    }
    // A spilled column takes the room the others leave: it never narrows them.
    const bool spill = !m_cuts.empty() && m_cuts.back() == Cut::spill;
    const std::size_t natural = spill ? widths.back() : 0;
    if (spill) {
        widths.back() = display_width(headers.back());
    }
    std::vector<std::size_t> floors = widths;
    std::vector<std::size_t> distinct(widths.size(), 0);
    column_floors(headers, rows, widths, floors, distinct);
    narrow(widths, floors, distinct, rows, max_width);
    if (spill) {
        const std::size_t used = table_width(widths) - widths.back();
        widths.back() =
            std::max(widths.back(), std::min(natural, max_width - std::min(max_width, used)));
    }
    return widths;
}

void TextTable::column_floors(const std::vector<std::string>& headers,
                              const std::vector<std::vector<std::string>>& rows,
                              const std::vector<std::size_t>& widths,
                              std::vector<std::size_t>& floors,
                              std::vector<std::size_t>& distinct) const {
    for (std::size_t i = 0; i < widths.size(); ++i) {
        if (m_min_widths[i] == 0) {
            continue;
        }
        std::size_t floor = m_min_widths[i];
        if (m_cuts[i] == Cut::wrap) {
            floor = std::max(floor, widest_piece(headers[i]));
            for (const auto& row : rows) {
                floor = std::max(floor, widest_piece(row[i]));
            }
        } else {
            distinct[i] = distinct_count(rows, i, 0, m_cuts[i]);
        }
        floors[i] = std::min(floor, widths[i]);
    }
}

namespace {

// The widest column that may still narrow (the leftmost on a tie); widths.size() when none.
std::size_t widest_narrowable(const std::vector<std::size_t>& widths,
                              const std::vector<std::size_t>& floors,
                              const std::vector<bool>& stuck) {
    std::size_t pick = widths.size();
    for (std::size_t i = 0; i < widths.size(); ++i) {
        if (!stuck[i] && widths[i] > floors[i] &&
            (pick == widths.size() || widths[i] > widths[pick])) {
            pick = i;
        }
    }
    return pick;
}

} // namespace

void TextTable::narrow(std::vector<std::size_t>& widths, const std::vector<std::size_t>& floors,
                       const std::vector<std::size_t>& distinct,
                       const std::vector<std::vector<std::string>>& rows,
                       std::size_t max_width) const {
    // First every cut keeps different cells apart; then, if the table still does not fit, not.
    for (const bool keep_distinct : {true, false}) {
        std::vector<bool> stuck(widths.size(), false);
        while (table_width(widths) > max_width) {
            const std::size_t pick = widest_narrowable(widths, floors, stuck);
            if (pick == widths.size()) {
                break;
            }
            // A column of one value stays whole too: cutting it only loses that value.
            if (keep_distinct && m_cuts[pick] != Cut::wrap &&
                (distinct[pick] < 2 ||
                 distinct_count(rows, pick, widths[pick] - 1, m_cuts[pick]) < distinct[pick])) {
                stuck[pick] = true;
                continue;
            }
            --widths[pick];
        }
    }
}

std::vector<std::string> TextTable::cell_lines(const std::string& raw, std::size_t column,
                                               std::size_t width) const {
    const bool too_wide = display_width(raw) > width;
    if (m_cuts[column] == Cut::wrap && too_wide) {
        return wrap_words(raw, width);
    }
    if (m_cuts[column] == Cut::spill) {
        return {too_wide ? std::string() : raw};
    }
    return {truncate_display(raw, width, m_cuts[column])};
}

std::string TextTable::render_row(const std::vector<std::string>& raw,
                                  const std::vector<std::size_t>& widths, std::size_t gap) const {
    std::vector<std::vector<std::string>> cells;
    std::size_t height = 1;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        cells.push_back(cell_lines(raw[i], i, widths[i]));
        height = std::max(height, cells.back().size());
    }
    std::string out;
    for (std::size_t k = 0; k < height; ++k) {
        std::string text;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::string cell = k < cells[i].size() ? cells[i][k] : std::string();
            const std::size_t pad = widths[i] - std::min(widths[i], display_width(cell));
            const bool last = i + 1 == cells.size();
            if (m_aligns[i] == Align::right) {
                text.append(pad, ' ');
            }
            text += cell;
            if (m_aligns[i] != Align::right && !last) {
                text.append(pad, ' ');
            }
            if (!last) {
                text.append(gap, ' ');
            }
        }
        while (!text.empty() && text.back() == ' ') {
            text.pop_back();
        }
        out += text + "\n";
    }
    if (m_cuts.back() == Cut::spill && display_width(raw.back()) > widths.back()) {
        out += "    " + raw.back() + "\n";
    }
    return out;
}

std::string TextTable::render_text(std::size_t max_width) const {
    // Names from catalogs and feeds reach the terminal here: no control character passes.
    const std::vector<std::string> headers = escape_cells(m_headers);
    std::vector<std::vector<std::string>> rows;
    rows.reserve(m_rows.size());
    for (const auto& row : m_rows) {
        rows.push_back(escape_cells(row));
    }
    const std::vector<std::size_t> widths = fitted_widths(headers, rows, max_width);
    // Columns that cannot narrow further close up to one space rather than pass the width.
    const std::size_t gap = max_width > 0 && table_width(widths) > max_width ? 1 : 2;
    std::string out = render_row(headers, widths, gap);
    std::vector<std::string> rule;
    rule.reserve(widths.size());
    for (std::size_t width : widths) {
        rule.emplace_back(width, '-');
    }
    out += render_row(rule, widths, gap);
    auto heading = m_headings.begin();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (; heading != m_headings.end() && heading->first == i; ++heading) {
            const std::string text = escape_control(heading->second);
            out += (max_width == 0 ? text : truncate_display(text, max_width)) + "\n";
        }
        out += render_row(rows[i], widths, gap);
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

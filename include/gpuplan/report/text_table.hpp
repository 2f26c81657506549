#pragma once
// A text table rendered to a string: aligned columns for terminals, or GitHub-flavoured
// markdown (numeric columns right-aligned, `|` escaped).

#include "gpuplan/report/escape.hpp"

#include <string>
#include <vector>

namespace gpuplan::report {

enum class Align { left, right };
// What a column too wide for the table does: lose characters at the end, in the middle (keeps
// both ends of ids such as `provider/region/instance/purchase`) or at the start (keeps the tail
// of names sharing a prefix, `Standard_NC24ads_A100_v4`), each marked with `…`; or wrap onto
// more lines at spaces (a word longer than the column breaks after a `/`, `_` or `-`); or, for
// the last column only, `spill`: a cell too wide for the line is never cut but moves whole onto a
// line of its own under its row (indented by four columns), so an id stays copyable.
enum class Cut { end, middle, start, wrap, spill };

class TextTable {
public:
    // Adds a column with a header and alignment. A column with `min_width` > 0 may be cut down
    // to that many terminal columns (with an ellipsis) when render_text must fit a width.
    void add_column(std::string header, Align align = Align::left, std::size_t min_width = 0,
                    Cut cut = Cut::end);
    // Adds a row; it must have one cell per column.
    void add_row(std::vector<std::string> cells);
    // Adds a line of its own before the next row (a group's name), left out of the columns'
    // widths and of markdown.
    void add_heading(std::string text);
    [[nodiscard]] bool empty() const { return m_rows.empty(); }
    [[nodiscard]] std::size_t row_count() const { return m_rows.size(); }
    // Space-separated columns padded to their widest cell (UTF-8 aware), a rule under the header.
    // With `max_width` > 0, the widest shrinkable column is narrowed, one terminal column at a
    // time, until every line fits or all shrinkable columns are at their minimum. A cut column
    // first stops where two different cells would read the same; only if the table still does
    // not fit is it cut further. A wrapped column never splits a word that a break can keep.
    [[nodiscard]] std::string render_text(std::size_t max_width = 0) const;
    // A GitHub-flavoured markdown table.
    [[nodiscard]] std::string render_markdown() const;

private:
    // Each column's width in render_text: its widest cell, narrowed to fit `max_width`.
    [[nodiscard]] std::vector<std::size_t>
    fitted_widths(const std::vector<std::string>& headers,
                  const std::vector<std::vector<std::string>>& rows, std::size_t max_width) const;
    // The narrowest each column may become (`floors`) and how many different cells a cut
    // column shows (`distinct`), for columns of natural widths `widths`.
    void column_floors(const std::vector<std::string>& headers,
                       const std::vector<std::vector<std::string>>& rows,
                       const std::vector<std::size_t>& widths, std::vector<std::size_t>& floors,
                       std::vector<std::size_t>& distinct) const;
    // Narrows `widths` towards `floors` until the table fits `max_width`.
    void narrow(std::vector<std::size_t>& widths, const std::vector<std::size_t>& floors,
                const std::vector<std::size_t>& distinct,
                const std::vector<std::vector<std::string>>& rows, std::size_t max_width) const;
    // The lines of one cell of `column` at `width`: cut, wrapped, or empty when it spills.
    [[nodiscard]] std::vector<std::string> cell_lines(const std::string& raw, std::size_t column,
                                                      std::size_t width) const;
    // One row (raw cells) as text lines, cut or wrapped to `widths`, `gap` spaces apart; a
    // spilled last cell on a line of its own after them.
    [[nodiscard]] std::string render_row(const std::vector<std::string>& raw,
                                         const std::vector<std::size_t>& widths,
                                         std::size_t gap) const;

    std::vector<std::string> m_headers;
    std::vector<Align> m_aligns;
    std::vector<std::size_t> m_min_widths;
    std::vector<Cut> m_cuts;
    std::vector<std::vector<std::string>> m_rows;
    std::vector<std::pair<std::size_t, std::string>> m_headings; // (row it precedes, text)
};

// Number of terminal columns `text` occupies (UTF-8 code points; CJK wide characters count 2).
[[nodiscard]] std::size_t display_width(const std::string& text);

// The display_width of the widest line of `text`: whether a rendered table fits a terminal.
[[nodiscard]] std::size_t widest_line(const std::string& text);

// `text` broken into lines of at most `width` columns at spaces; a word longer than `width` is
// broken after a `/`, `_` or `-` (not a leading one) where it can be, and is otherwise left
// whole. Returns one empty line for empty text.
[[nodiscard]] std::vector<std::string> wrap_words(const std::string& text, std::size_t width);

// `text` with every line longer than `width` columns wrapped by wrap_words; the continuation
// lines are indented past the line's own indent and list marker (`- `, `12. `), or by two
// columns. `width` 0 leaves the text as it is.
[[nodiscard]] std::string wrap_lines(const std::string& text, std::size_t width);

// `text` cut to at most `width` terminal columns, with `…` where characters were removed.
[[nodiscard]] std::string truncate_display(const std::string& text, std::size_t width,
                                           Cut cut = Cut::end);

// Width text output fits when the terminal's is unknown (`--wide` lifts the limit: width 0).
inline constexpr std::size_t k_terminal_width = 80;
// The narrowest width text output is fitted to: a smaller terminal gets this many columns.
inline constexpr std::size_t k_min_terminal_width = 40;

} // namespace gpuplan::report

#pragma once
// A text table rendered to a string: aligned columns for terminals, or GitHub-flavoured
// markdown (numeric columns right-aligned, `|` escaped).

#include "gpuplan/report/escape.hpp"

#include <string>
#include <vector>

namespace gpuplan::report {

enum class Align { left, right };
// Where a cut cell loses its characters: at the end, or in the middle (keeps both ends of ids
// such as `provider/region/instance/purchase`).
enum class Cut { end, middle };

class TextTable {
public:
    // Adds a column with a header and alignment. A column with `min_width` > 0 may be cut down
    // to that many terminal columns (with an ellipsis) when render_text must fit a width.
    void add_column(std::string header, Align align = Align::left, std::size_t min_width = 0,
                    Cut cut = Cut::end);
    // Adds a row; it must have one cell per column.
    void add_row(std::vector<std::string> cells);
    [[nodiscard]] bool empty() const { return m_rows.empty(); }
    [[nodiscard]] std::size_t row_count() const { return m_rows.size(); }
    // Space-separated columns padded to their widest cell (UTF-8 aware), a rule under the header.
    // With `max_width` > 0, the widest shrinkable column is cut, one terminal column at a time,
    // until every line fits or all shrinkable columns are at their minimum.
    [[nodiscard]] std::string render_text(std::size_t max_width = 0) const;
    // A GitHub-flavoured markdown table.
    [[nodiscard]] std::string render_markdown() const;

private:
    std::vector<std::string> m_headers;
    std::vector<Align> m_aligns;
    std::vector<std::size_t> m_min_widths;
    std::vector<Cut> m_cuts;
    std::vector<std::vector<std::string>> m_rows;
};

// Number of terminal columns `text` occupies (UTF-8 code points; CJK wide characters count 2).
[[nodiscard]] std::size_t display_width(const std::string& text);

// `text` cut to at most `width` terminal columns, with `…` where characters were removed.
[[nodiscard]] std::string truncate_display(const std::string& text, std::size_t width,
                                           Cut cut = Cut::end);

// Terminal width a table fits by default (`--wide` lifts it).
inline constexpr std::size_t k_terminal_width = 80;

} // namespace gpuplan::report

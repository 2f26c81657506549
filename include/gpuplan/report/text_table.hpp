#pragma once
// A text table rendered to a string: aligned columns for terminals, or GitHub-flavoured
// markdown (numeric columns right-aligned, `|` escaped).

#include <string>
#include <vector>

namespace gpuplan::report {

enum class Align { left, right };

class TextTable {
public:
    // Adds a column with a header and alignment.
    void add_column(std::string header, Align align = Align::left);
    // Adds a row; it must have one cell per column.
    void add_row(std::vector<std::string> cells);
    [[nodiscard]] bool empty() const { return m_rows.empty(); }
    [[nodiscard]] std::size_t row_count() const { return m_rows.size(); }
    // Space-separated columns padded to their widest cell (UTF-8 aware), a rule under the header.
    [[nodiscard]] std::string render_text() const;
    // A GitHub-flavoured markdown table.
    [[nodiscard]] std::string render_markdown() const;

private:
    std::vector<std::string> m_headers;
    std::vector<Align> m_aligns;
    std::vector<std::vector<std::string>> m_rows;
};

// Number of terminal columns `text` occupies (UTF-8 code points; CJK wide characters count 2).
[[nodiscard]] std::size_t display_width(const std::string& text);

// Escapes text for a markdown table cell: `|`, `<`, `>`, `&`, backslash and newlines.
[[nodiscard]] std::string escape_markdown_cell(const std::string& text);

} // namespace gpuplan::report

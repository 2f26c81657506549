#include "gpuplan/report/html_report.hpp"

#include "gpuplan/report/chart.hpp"
#include "gpuplan/report/escape.hpp"
#include "gpuplan/report/full_report.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <sstream>

namespace gpuplan::report {

namespace {

// Phones get one column of text; tables and code scroll in their own box; charts scale down;
// print opens every folded section and drops the scroll boxes.
constexpr const char* k_style = R"(
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.45;
  margin: 0 auto; padding: 1rem; max-width: 60rem; color: #222; overflow-wrap: anywhere; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.25rem; margin-top: 1.6rem; } h3 { font-size: 1.05rem; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top;
  overflow-wrap: normal; }
td.num, th.num { text-align: right; white-space: nowrap; }
pre { background: #f6f8fa; padding: 0.5rem; overflow-x: auto; font-size: 0.8rem; }
code { font-size: 0.9em; }
svg { max-width: 100%; height: auto; display: block; }
details { margin: 1rem 0; } summary { cursor: pointer; }
summary h2 { display: inline; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  .scroll, pre { overflow: visible; white-space: pre-wrap; }
  summary { list-style: none; }
  h2 { break-after: avoid; } table, svg { break-inside: avoid; }
}
)";

// The one folded section the markdown report writes (full_report.cpp).
constexpr std::string_view k_workload_details =
    "<details><summary>Full resolved workload (JSON)</summary>";

// Opens every folded section before printing: a closed <details> prints only its summary.
constexpr const char* k_print_script =
    "window.addEventListener('beforeprint',function(){"
    "document.querySelectorAll('details').forEach(function(d){d.open=true;});});";

// Markdown inline text as HTML: `code`, **bold**, backslash escapes. `escaped` text (table
// cells, which the markdown writer escaped for HTML already) is not escaped again.
std::string inline_html(const std::string& text, bool escaped) {
    std::string out;
    bool code = false;
    bool bold = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\\' && i + 1 < text.size()) {
            out += escaped ? std::string(1, text[++i]) : escape_xml(std::string(1, text[++i]));
        } else if (c == '`') {
            out += code ? "</code>" : "<code>";
            code = !code;
        } else if (!code && c == '*' && i + 1 < text.size() && text[i + 1] == '*') {
            out += bold ? "</strong>" : "<strong>";
            bold = !bold;
            ++i;
        } else {
            out += escaped ? std::string(1, c) : escape_xml(std::string(1, c));
        }
    }
    return out + (code ? "</code>" : "") + (bold ? "</strong>" : "");
}

std::vector<std::string> table_cells(const std::string& line) {
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) {
            cell += line.substr(i, 2);
            ++i;
        } else if (line[i] == '|') {
            const auto start = cell.find_first_not_of(' ');
            const auto stop = cell.find_last_not_of(' ');
            cells.push_back(start == std::string::npos ? std::string()
                                                       : cell.substr(start, stop - start + 1));
            cell.clear();
        } else {
            cell += line[i];
        }
    }
    return cells;
}

// Builds the page line by line; each block closes when the next one starts.
class HtmlWriter {
public:
    HtmlWriter(std::string chart_svg, std::vector<std::string> folded)
        : m_chart(std::move(chart_svg)), m_folded(std::move(folded)) {}

    void line(const std::string& text) {
        if (m_fence) {
            fence_line(text);
        } else if (text.rfind("```", 0) == 0) {
            close_blocks();
            m_fence = true;
            m_fence_lang = text.substr(3);
            m_fence_text.clear();
        } else if (text == k_workload_details || text == "</details>") {
            // Only the folded sections the report itself writes pass as HTML: a name that
            // starts a line with <details> is text like any other.
            close_blocks();
            m_out += text + "\n";
        } else if (text.rfind('#', 0) == 0) {
            heading(text);
        } else if (text.rfind('|', 0) == 0) {
            table_line(text);
        } else if (text.rfind("- ", 0) == 0) {
            close_paragraph();
            close_table();
            if (!m_list) {
                m_out += "<ul>\n";
                m_list = true;
            }
            m_out += "<li>" + inline_html(text.substr(2), false) + "</li>\n";
        } else if (text.find_first_not_of(' ') == std::string::npos) {
            close_blocks();
        } else {
            close_list();
            close_table();
            m_out += m_paragraph ? "\n" : "<p>";
            m_paragraph = true;
            m_out += inline_html(text, false);
        }
    }

    std::string finish() {
        close_blocks();
        close_section();
        return m_out;
    }

private:
    void fence_line(const std::string& text) {
        if (text.rfind("```", 0) != 0) {
            // Each line escaped on its own: the newlines between them stay newlines.
            m_fence_text += escape_xml(text) + "\n";
            return;
        }
        m_fence = false;
        if (m_fence_lang == "mermaid") {
            m_out += "<figure>" + m_chart + "</figure>\n";
        } else {
            m_out += "<pre><code>" + m_fence_text + "</code></pre>\n";
        }
    }

    void heading(const std::string& text) {
        close_blocks();
        const std::size_t level = std::min<std::size_t>(text.find_first_not_of('#'), 6);
        const std::string title = inline_html(text.substr(std::min(level + 1, text.size())), false);
        if (level == 2) {
            close_section();
            const std::string plain = text.substr(std::min<std::size_t>(3, text.size()));
            if (std::find(m_folded.begin(), m_folded.end(), plain) != m_folded.end()) {
                m_out += "<details><summary><h2>" + title + "</h2></summary>\n";
                m_section_open = true;
                return;
            }
        }
        m_out += fmt::format("<h{0}>{1}</h{0}>\n", level, title);
    }

    void table_line(const std::string& text) {
        close_paragraph();
        close_list();
        const std::vector<std::string> cells = table_cells(text);
        if (!m_table) {
            m_out += "<div class=\"scroll\"><table>\n<thead><tr>";
            m_header = cells;
            m_table = true;
            m_table_rows = 0;
            return;
        }
        if (m_table_rows == 0 && !m_aligned) {
            // The separator row: `---:` marks a right-aligned (numeric) column.
            m_right.clear();
            for (const std::string& cell : cells) {
                m_right.push_back(!cell.empty() && cell.back() == ':');
            }
            for (std::size_t i = 0; i < m_header.size(); ++i) {
                m_out += cell_html("th", m_header[i], i);
            }
            m_out += "</tr></thead>\n<tbody>\n";
            m_aligned = true;
            return;
        }
        m_out += "<tr>";
        for (std::size_t i = 0; i < cells.size(); ++i) {
            m_out += cell_html("td", cells[i], i);
        }
        m_out += "</tr>\n";
        ++m_table_rows;
    }

    std::string cell_html(const char* tag, const std::string& cell, std::size_t column) const {
        const bool right = column < m_right.size() && m_right[column];
        return fmt::format("<{0}{1}>{2}</{0}>", tag, right ? " class=\"num\"" : "",
                           inline_html(cell, true));
    }

    void close_paragraph() {
        if (m_paragraph) {
            m_out += "</p>\n";
            m_paragraph = false;
        }
    }
    void close_list() {
        if (m_list) {
            m_out += "</ul>\n";
            m_list = false;
        }
    }
    void close_table() {
        if (m_table) {
            m_out += m_aligned ? "</tbody></table></div>\n" : "</tr></thead></table></div>\n";
            m_table = false;
            m_aligned = false;
        }
    }
    void close_blocks() {
        close_paragraph();
        close_list();
        close_table();
    }
    void close_section() {
        if (m_section_open) {
            m_out += "</details>\n";
            m_section_open = false;
        }
    }

    std::string m_chart;
    std::vector<std::string> m_folded;
    std::string m_out;
    bool m_fence = false;
    std::string m_fence_lang;
    std::string m_fence_text;
    bool m_paragraph = false;
    bool m_list = false;
    bool m_table = false;
    bool m_aligned = false;
    std::size_t m_table_rows = 0;
    std::vector<std::string> m_header;
    std::vector<bool> m_right;
    bool m_section_open = false;
};

// The SVG document without its XML declaration, to sit inside HTML.
std::string inline_svg(const std::string& svg) {
    const std::size_t start = svg.find("<svg");
    return start == std::string::npos ? svg : svg.substr(start);
}

} // namespace

std::string markdown_page_to_html(const std::string& markdown, const std::string& title,
                                  const std::string& chart_svg,
                                  const std::vector<std::string>& folded) {
    HtmlWriter writer(inline_svg(chart_svg), folded);
    std::istringstream lines(markdown);
    for (std::string line; std::getline(lines, line);) {
        writer.line(line);
    }
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += "<title>" + escape_xml(title) + "</title>\n<style>" + k_style + "</style>\n";
    out += std::string("<script>") + k_print_script + "</script>\n</head>\n<body>\n";
    out += writer.finish();
    out += "</body>\n</html>\n";
    return out;
}

std::string render_html_report(const recommend::Recommendation& report,
                               const curve::CurvePlan* curve) {
    const CumulativeCostChart chart = purchase_option_chart(report);
    return markdown_page_to_html(render_full_report(report, curve),
                                 "gpuplan report: " + report.workload.name,
                                 chart.series.empty() ? std::string() : render_svg_chart(chart),
                                 {"Decision", "Rejected options"});
}

} // namespace gpuplan::report

#pragma once
// Escaping of untrusted text (names from catalogs, feeds, workloads, file names) for each place
// it goes: terminals and diagnostics, markdown, Mermaid, SVG/HTML. JSON needs none (nlohmann
// escapes control characters itself).

#include <string>
#include <string_view>

namespace gpuplan::report {

// Control characters as visible escapes: C0 and DEL as `\x1b`, C1 (U+0080 to U+009F) as
// `\u009b`, so no escape sequence reaches a terminal. Keeps `\n` when `keep_newlines`, for
// multi-line messages; everything else passes unchanged.
[[nodiscard]] std::string escape_control(std::string_view text, bool keep_newlines = false);

// A whole table or markdown output as escape_control with newlines kept; with `keep_colour`,
// the colour sequences gpuplan emits (`ESC[31m`, `ESC[32m`, `ESC[0m`) pass, and only them.
[[nodiscard]] std::string escape_output(std::string_view text, bool keep_colour);

// Text for a markdown table cell or line: `|`, `<`, `>`, `&`, `[`, `]` and backslash escaped
// (no HTML, no link or image), a newline as a space, other control characters as in
// escape_control.
[[nodiscard]] std::string escape_markdown_cell(std::string_view text);

// Text inside a Mermaid string: a double quote becomes a single one, angle brackets become
// `‹›` (they would reach the page as HTML), `%` becomes `％` (no `%%` directive or comment),
// control characters as in escape_control.
[[nodiscard]] std::string escape_mermaid(std::string_view text);

// Text for XML or HTML content and attributes (SVG): `& < > " '` as entities, control
// characters as in escape_control (XML 1.0 cannot carry most of them).
[[nodiscard]] std::string escape_xml(std::string_view text);

} // namespace gpuplan::report

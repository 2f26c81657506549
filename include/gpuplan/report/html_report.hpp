#pragma once
// `gpuplan report --format html`: the report as one self-contained HTML page (inline SVG chart,
// inline CSS, no external references), readable on a phone and in print.

#include "gpuplan/recommend/recommend.hpp"

#include <string>

namespace gpuplan::curve {
struct CurvePlan;
} // namespace gpuplan::curve

namespace gpuplan::report {

// The HTML page of render_full_report's document: the same sections in the same order (summary
// first), the Mermaid chart replaced by the SVG chart, the decision and the rejected options
// folded in <details>. Tables scroll inside their own box, so the page never scrolls sideways.
[[nodiscard]] std::string render_html_report(const recommend::Recommendation& report,
                                             const curve::CurvePlan* curve = nullptr);

// `markdown` (the subset render_full_report writes: headings, paragraphs, `-` lists, tables,
// fenced code, raw <details> lines) as an HTML page titled `title`; a ```mermaid block becomes
// `chart_svg` and the `##` sections named in `folded` are wrapped in <details>.
[[nodiscard]] std::string markdown_page_to_html(const std::string& markdown,
                                                const std::string& title,
                                                const std::string& chart_svg,
                                                const std::vector<std::string>& folded);

} // namespace gpuplan::report

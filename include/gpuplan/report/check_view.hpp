#pragma once
// Renderings of a `gpuplan check` verdict: one line for logs, JSON for CI, markdown for a PR.

#include "gpuplan/gate/gate.hpp"
#include "gpuplan/report/catalog_view.hpp"
#include "gpuplan/report/output_format.hpp"

#include <string>

namespace gpuplan::report {

// What a check run looked at and what it found.
struct CheckView {
    const gate::Plan& plan;
    const gate::Plan* base = nullptr; // the --compare-to baseline
    const gate::Outcome& outcome;
    bool colour = false; // ANSI colours on the verdict line (table format on a terminal)
    std::size_t width = k_terminal_width; // the table format's verdict is wrapped to it; 0: not
};

// `PASS: ...` or `FAIL: ...` naming the option and every check, one line with a newline.
[[nodiscard]] std::string render_check_verdict(const CheckView& view);

// The verdict in `format`: table is the verdict line (wrapped to view.width), json follows
// docs/schema/check.schema.json, markdown is a comment for a pull request.
[[nodiscard]] std::string render_check(const CheckView& view, Format format,
                                       const GeneratorInfo& generator);

// A check's actual or limit value for people: money, a duration, days or a percentage.
[[nodiscard]] std::string format_check_value(const gate::Check& check, double value);

} // namespace gpuplan::report

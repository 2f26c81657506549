#pragma once
// Rendering of the decision tree (`gpuplan rules show`), of one decision with its facts
// (`gpuplan rules explain`) and of the "Why" section that recommend and report print.

#include "gpuplan/decide/decide.hpp"
#include "gpuplan/decide/facts.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/report/catalog_view.hpp"
#include "gpuplan/report/output_format.hpp"
#include "gpuplan/report/text_table.hpp"

#include <string>

namespace gpuplan::report {

// The whole tree: every node's test, why, branches with their effects and sources, then the
// sources table. JSON follows docs/decision-rules.md ("JSON").
// A table fits `width` terminal columns (0: no limit).
[[nodiscard]] std::string render_tree(const decide::Tree& tree, Format format,
                                      const GeneratorInfo& generator,
                                      std::size_t width = k_terminal_width);

// The facts, the trace and the resulting decision, as `gpuplan rules explain` prints them;
// `tree_file` names the tree applied.
[[nodiscard]] std::string render_explanation(const decide::Facts& facts,
                                             const decide::Decision& decision,
                                             const std::string& tree_file, Format format,
                                             const GeneratorInfo& generator,
                                             std::size_t width = k_terminal_width);

// How much of the trace a Why section shows: the steps that changed the decision, or all.
enum class WhyDetail { fired, full };

// The "Why" section for table and markdown reports: the steps of the trace (node, test, facts,
// outcome, effects, why), then the candidate GPUs, the excluded ones, the purchase options and
// the interconnect requirement. `format` is table or markdown (JSON carries the decision).
[[nodiscard]] std::string render_why(const decide::Decision& decision, Format format,
                                     WhyDetail detail, std::size_t width = k_terminal_width);

} // namespace gpuplan::report

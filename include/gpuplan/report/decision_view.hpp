#pragma once
// Rendering of the decision tree (`gpuplan rules show`), of one decision with its facts
// (`gpuplan rules explain`) and of the "Why" section that recommend and report print.

#include "gpuplan/decide/decide.hpp"
#include "gpuplan/decide/facts.hpp"
#include "gpuplan/decide/tree.hpp"
#include "gpuplan/report/catalog_view.hpp"
#include "gpuplan/report/format.hpp"

#include <string>

namespace gpuplan::report {

// The whole tree: every node's test, why, branches with their effects and sources, then the
// sources table. JSON follows docs/decision-rules.md ("JSON").
[[nodiscard]] std::string render_tree(const decide::Tree& tree, Format format,
                                      const GeneratorInfo& generator);

// The facts, the trace and the resulting decision, as `gpuplan rules explain` prints them.
[[nodiscard]] std::string render_explanation(const decide::Facts& facts,
                                             const decide::Decision& decision, Format format,
                                             const GeneratorInfo& generator);

// The "Why" section for table and markdown reports: each step of the trace (node, test, facts,
// outcome, effects, why), then the GPU models and purchase options the rules excluded.
// `format` is table or markdown (JSON carries the decision object instead).
[[nodiscard]] std::string render_why(const decide::Decision& decision, Format format);

} // namespace gpuplan::report

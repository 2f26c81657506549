#pragma once
// The words of the cost stage's notes (cost::Note: a code and its figures).

#include "gpuplan/cost/note.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::report {

// One note as a sentence, e.g. `billed per 3600 s, minimum 0 s`.
[[nodiscard]] std::string note_text(const cost::Note& note);

// The published code of a risk note (`undated_price`, `derived_commitment`, `quote`,
// `marketplace_capacity`, `spot_outlier`, `spot_capacity`).
[[nodiscard]] std::string_view risk_code(cost::NoteKind kind);

// A note that is a risk of taking its option, in a few words (`spot interruptions at a
// PLACEHOLDER rate`); empty for a note that is no risk (billing, break-even, a rule's preference).
[[nodiscard]] std::string risk_phrase(const cost::Note& note);

// The sentences of the notes at `indices` of `table` (a plan's notes), in order.
[[nodiscard]] std::vector<std::string> note_texts(std::span<const cost::Note> table,
                                                  std::span<const cost::NoteIndex> indices);

} // namespace gpuplan::report

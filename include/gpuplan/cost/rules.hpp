#pragma once
// Applies the decision tree's verdict to a priced plan: options a rule excludes get the
// rejection `excluded_by_rule` with the rule and its why, options on a favoured GPU model carry
// its preference rank (ranking uses it to order ties) and a note saying which rule favours them.
// The one place where the decide stage meets the cost stage (docs/decision-rules.md).

#include "gpuplan/cost/plan.hpp"
#include "gpuplan/decide/decide.hpp"

namespace gpuplan::cost {

// Marks or drops the options `decision` rules out and flags the ones it favours. Options that
// are already rejected keep their own reason. NVLink and network speed are the option's own
// (the cost engine copies them from the instance or build).
void apply_decision(Plan& plan, const decide::Decision& decision, ExcludedOptions excluded);

} // namespace gpuplan::cost

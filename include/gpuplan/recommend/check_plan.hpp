#pragma once
// What `gpuplan check WORKLOAD.yaml` gates: a recommendation as the gate reads a plan file, with
// the figures at the precision recommend's JSON publishes, so a workload checked in process and
// its plan file written by `recommend --format json` give the same verdict.

#include "gpuplan/gate/gate.hpp"
#include "gpuplan/recommend/recommend.hpp"

#include <string>

namespace gpuplan::recommend {

// Every ranked option of `recommendation` (whatever its `top`) and every rejected one; `source`
// names the workload file in the gate's messages.
[[nodiscard]] gate::Plan check_plan(const Recommendation& recommendation, std::string source);

} // namespace gpuplan::recommend

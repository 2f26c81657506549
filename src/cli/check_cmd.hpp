#pragma once
// `gpuplan check PLAN.json|WORKLOAD.yaml`: the CI gate; its exit code is the verdict.

#include "cli/common.hpp"

#include <optional>
#include <string>

namespace gpuplan::cli {

struct CheckOptions {
    std::string plan; // a plan file (recommend or fleet JSON) or a workload file
    std::optional<std::string> max_cost;
    std::optional<std::string> max_monthly;
    std::optional<std::string> max_commitment; // fleet plans only
    std::optional<std::string> max_hours;
    std::optional<std::string> deadline;
    std::string option = "best";
    std::optional<std::string> compare_to;
    std::optional<std::string> max_increase;
    std::optional<std::string> today; // YYYY-MM-DD; default the current UTC date
    int percentile = 0;               // --percentile 90: gate on the confidence block's P90
};

// Exit::ok when every threshold holds, Exit::gate_failed when one fails (each named on stderr).
[[nodiscard]] Exit run_check(const CommonOptions& common, const CheckOptions& options, Io& io);

} // namespace gpuplan::cli

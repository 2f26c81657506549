#pragma once
// `gpuplan report [WORKLOAD.yaml]`: the full markdown report of a recommendation.

#include "cli/recommend_cmd.hpp"

#include <string>

namespace gpuplan::cli {

struct ReportOptions {
    RecommendOptions recommend;
    std::string chart; // --chart FILE.svg; empty = none
};

// Recommends, measures the sensitivity, and writes the markdown report (and the SVG chart).
[[nodiscard]] Exit run_report(const CommonOptions& common, const ReportOptions& options, Io& io);

} // namespace gpuplan::cli

#pragma once
// `gpuplan fleet PORTFOLIO.yaml`: what to commit to for a portfolio of workloads.

#include "cli/common.hpp"
#include "gpuplan/fleet/fleet.hpp"

#include <string>

namespace gpuplan::cli {

struct FleetOptions {
    std::string portfolio;
    std::string chart;        // also write the demand chart as SVG; empty = none
    bool accept_soft = false; // --accept-soft: also commit to soft offers
    // --solver-time: the solver's wall time for the whole run, seconds; 0 = not given (then the
    // configuration's, else fleet::k_default_solver_seconds).
    double solver_seconds = 0.0;
};

[[nodiscard]] Exit run_fleet(const CommonOptions& common, const FleetOptions& options, Io& io);

} // namespace gpuplan::cli

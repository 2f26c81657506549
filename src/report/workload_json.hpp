#pragma once
// The workload echoed into JSON outputs (`estimate`, `recommend`), with every default filled.
// Internal: keeps nlohmann/json out of the public headers.

#include "gpuplan/workload/workload.hpp"

#include <nlohmann/json.hpp>

namespace gpuplan::report {

// The workload as JSON in the key order of docs/workload-format.md; absent optional values are
// null; durations in hours (`deadline_hours`), money as {amount, currency}.
[[nodiscard]] nlohmann::ordered_json workload_json(const workload::Workload& workload);
// One calibration factor: GPU, kind, engine, precision, factor, runs, carried runs and from where.
[[nodiscard]] nlohmann::ordered_json calibration_factor_json(const workload::SpeedFactor& factor);

} // namespace gpuplan::report

#pragma once
// Speed factors fitted from a team's own measured runs (`gpuplan calibrate`,
// docs/runs-format.md): each scales the estimator's speed of one GPU model for one task kind and
// precision (docs/methodology.md, "Calibration").

#include "gpuplan/catalog/catalog.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::workload {

// One factor of a calibration file: measured speed / the default estimate's speed, shrunk toward
// 1 by the number and spread of runs.
struct SpeedFactor {
    std::string gpu;               // catalog GPU model name
    std::string kind;              // train, finetune or inference
    std::string engine;            // the runs' stack engine; empty = not stated
    std::string precision;         // fp16, bf16, ...; empty = not stated
    double factor = 1.0;           // > 0; 1 = the default estimate
    int runs = 0;                  // runs measured on this GPU model
    int carried_runs = 0;          // runs on similar GPU models that carried over (less weight)
    std::string from;              // those GPU models, comma-separated; empty = none
    double loo_median_error = 0.0; // leave-one-out median |error| of the runs (informational)

    bool operator==(const SpeedFactor&) const = default;
};

// The factors of one calibration file, and the file's name (for notes).
struct Calibration {
    std::string file;
    std::vector<SpeedFactor> factors;

    bool operator==(const Calibration&) const = default;
};

// The factor for `gpu` (its catalog name), task `kind` and `precision`: a factor of that GPU,
// kind and precision (or one that states no precision); among several engines the one with the
// most runs, then the first by engine name. nullptr when none matches.
[[nodiscard]] const SpeedFactor* find_speed_factor(const Calibration& calibration,
                                                   std::string_view gpu, std::string_view kind,
                                                   std::string_view precision);

// `gpu` with every dense peak and its memory bandwidth multiplied by `factor`: the estimator's
// own scaling turns it into compute, bandwidth, GPU count and replica count.
[[nodiscard]] catalog::Gpu scaled_gpu(const catalog::Gpu& gpu, double factor);

} // namespace gpuplan::workload

#pragma once
// Speed factors fitted from measured runs, shrunk toward the default estimate by the number and
// spread of the runs (docs/methodology.md, "Calibration"), and the calibration file
// (docs/runs-format.md, "Calibration file").

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/runs/runs.hpp"
#include "gpuplan/text_file.hpp"
#include "gpuplan/workload/calibration.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuplan::runs {

// The estimator's median relative error out of sample, the prior of every factor
// (docs/methodology.md, "Comparison with published runs" and C14): training and fine-tuning
// 26.1 %, serving 20 %.
inline constexpr double k_prior_train_error = 0.261;
inline constexpr double k_prior_serving_error = 0.20;
// The correlation of one job's log errors on two GPU models of the comparison table (C14): how
// much of a factor carries over to a similar GPU model.
inline constexpr double k_carry_correlation = 0.53;
// A median relative error m of a lognormal factor has sigma = ln(1 + m) / k_median_z.
inline constexpr double k_median_z = 0.6745;
// Calibration file versions this build reads.
inline constexpr int k_calibration_schema_version = 1;

// One run's evidence: how much faster it ran than the default estimate, in log space.
struct Evidence {
    std::string run;
    std::string gpu;          // the catalog's name of the run's GPU model
    std::string architecture; // of that GPU model
    std::string kind;         // train, finetune or inference
    std::string engine;
    std::string precision;
    double log_ratio = 0.0; // ln(measured speed / predicted speed) of the run's first metric
    bool rate = true;       // that metric is a rate (the error of a factor f is f / e^r - 1)

    bool operator==(const Evidence&) const = default;
};

// A fitted factor with what it rests on.
struct Fitted {
    workload::SpeedFactor factor;
    std::vector<std::string> runs;          // runs on this GPU model
    std::vector<std::string> carried_runs;  // runs on similar GPU models
    double log_sd = 0.0;                    // posterior standard deviation of ln(factor)
    std::optional<double> loo_median_error; // nullopt without a run of its own

    bool operator==(const Fitted&) const = default;
};

struct Fit {
    std::vector<Fitted> factors;      // by GPU model, kind, engine, precision
    std::vector<std::string> skipped; // runs without a usable prediction, with the reason

    bool operator==(const Fit&) const = default;
};

// The posterior median of ln(factor) for `own` runs of one GPU model and `carried` runs of
// similar models, with its standard deviation (docs/methodology.md, "Calibration").
struct Shrunk {
    double log_factor = 0.0;
    double log_sd = 0.0;
};
[[nodiscard]] Shrunk shrink(std::span<const double> own, std::span<const double> carried,
                            std::string_view kind);

// Fits one factor per (GPU model, kind, engine, precision) that `evidence` measured, and carries
// each to the catalog's other GPU models of the same architecture with less weight. A factor's
// leave-one-out error is the median |error| of its own runs, each scaled by the factor fitted
// without it. Deterministic.
[[nodiscard]] Fit fit(std::span<const Evidence> evidence, const catalog::Catalog& catalog);

// The evidence of each run: its estimate without calibration and its first measured metric.
// Runs the estimator cannot predict go to `skipped` with the reason.
[[nodiscard]] std::vector<Evidence> evidence_of(const RunsFile& runs,
                                                const catalog::Catalog& catalog,
                                                std::vector<std::string>& skipped);

// The calibration file of a fit (YAML, docs/runs-format.md "Calibration file"); `runs_file` is
// named in its header comment.
[[nodiscard]] std::string write_calibration(const Fit& fit, const std::string& runs_file);

// Reads a calibration file. Throws InputError with every problem.
[[nodiscard]] workload::Calibration read_calibration(const TextFile& file);

} // namespace gpuplan::runs

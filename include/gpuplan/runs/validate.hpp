#pragma once
// Measured runs against the estimator: each run's metric as measured and as predicted, the
// error, and the summary of the errors (docs/methodology.md, "Validation against measured runs").

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/runs/runs.hpp"
#include "gpuplan/workload/calibration.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuplan::runs {

// The estimate of a run: its workload on its GPU model and count, in the GPU's default node
// shape among the run's provider's instances (estimate::default_node_shape), with `calibration`
// applied when given. Throws UsageError when the estimator cannot estimate it.
[[nodiscard]] estimate::GpuEstimate estimate_run(const Run& run, const catalog::Catalog& catalog,
                                                 const workload::Calibration* calibration);

// The estimate's value of `metric` for `workload` (docs/runs-format.md, "Metrics"); nullopt
// when the estimate has no such figure (a decode speed of a training run).
[[nodiscard]] std::optional<double> predicted_value(Metric metric,
                                                    const workload::Workload& workload,
                                                    const estimate::GpuEstimate& estimate);

// (predicted - measured) / measured.
[[nodiscard]] double relative_error(double predicted, double measured);

struct Row {
    std::string name;
    Metric metric = Metric::wall_hours;
    double measured = 0.0;
    std::optional<double> predicted; // nullopt: the estimator gives no such figure
    std::optional<double> error;     // (predicted - measured) / measured
    std::string why;                 // why predicted is missing
    std::string layout;              // `8 H100 t1 pp8 d1 zero3`
    Sample sample = Sample::unset;
    std::string group;
    std::string source;
    std::string note;
    std::optional<workload::SpeedFactor> factor; // the calibration factor the estimate used

    bool operator==(const Row&) const = default;
};

// The errors of a set of rows; fractions, not percent.
struct Summary {
    int n = 0; // rows with a prediction
    double median_abs_error = 0.0;
    double p90_abs_error = 0.0; // linear interpolation between order statistics
    double max_abs_error = 0.0;
    double within_10 = 0.0; // share of rows with |error| <= 0.10
    double within_25 = 0.0;
    // Share of pairs of rows with the same metric that the predictions order as the
    // measurements do (pairs measured equal left out, predicted equal counted half); nullopt
    // without such a pair.
    std::optional<double> rank_agreement;
    int pairs = 0;

    bool operator==(const Summary&) const = default;
};

[[nodiscard]] Summary summarize(std::span<const Row> rows);

// The rows of one group and sample (in the file's order of first appearance).
struct Part {
    std::string group;
    Sample sample = Sample::unset;
    Summary summary;

    bool operator==(const Part&) const = default;
};

struct Validation {
    std::vector<Row> rows; // one per run and measured metric, in the file's order
    Summary summary;       // every row
    std::vector<Part> parts;
    std::string calibration;              // the calibration file used; empty = none
    std::optional<Summary> leave_one_out; // with a calibration: each run predicted by the
                                          // factors fitted from the other runs

    bool operator==(const Validation&) const = default;
};

// Compares every run with its estimate (calibrated when `calibration` is given).
[[nodiscard]] Validation validate(const RunsFile& runs, const catalog::Catalog& catalog,
                                  const workload::Calibration* calibration);

} // namespace gpuplan::runs

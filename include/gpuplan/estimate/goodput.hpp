#pragma once
// Goodput of a training run: hardware failures that stop the whole synchronous job, checkpoints
// written at Daly's interval and restarts from the last one (docs/methodology.md E9). Pure
// functions; the same Daly formulas price spot interruptions in the cost stage.

namespace gpuplan::estimate {

// Unexpected interruptions per GPU-hour of a synchronous training job: Llama 3 405B saw 419 in
// a 54-day snapshot on 16,384 H100 (78 % GPU or host hardware), one every 3.1 h [S27, S39].
inline constexpr double k_failure_rate_per_gpu_hour = 419.0 / (16384.0 * 54.0 * 24.0);
// Time from a failure to training again (detect, replace the node, reload the checkpoint), in
// minutes: PLACEHOLDER, the spot restart default (S-CM §8, UNVERIFIED).
inline constexpr double k_failure_restart_minutes = 15.0;
// Checkpoint write bandwidth per node, GB/s: Llama 3's 2 TB/s sustained over 16,384 H100 =
// 2,048 nodes, about 0.98 GB/s per node [S27].
inline constexpr double k_checkpoint_gb_per_s_per_node = 1.0;
// The confidence at which constraints.deadline must be met unless the workload says otherwise.
inline constexpr double k_default_deadline_confidence = 0.9;

// Daly (2006) optimum compute time between checkpoints, in hours, for `lambda` interruptions per
// hour and a checkpoint write of `delta` hours: with M = 1/lambda,
// sqrt(2 delta M)[1 + sqrt(delta/2M)/3 + delta/(18M)] - delta for delta < 2M, else M; 0 when
// lambda is 0.
[[nodiscard]] double daly_interval_hours(double lambda, double delta);

// Daly's expected wall hours per useful hour, M e^(R/M) (e^((tau+delta)/M) - 1) / tau, with
// interruptions also during a restart of `restart` hours; 1 when lambda is 0; at most
// `max_factor` (the factors overflow a double at extreme rates).
[[nodiscard]] double daly_wall_factor(double lambda, double tau, double delta, double restart,
                                      double max_factor);

// The standard normal quantile of probability p in (0, 1) (bisection on erfc, |error| < 1e-12).
[[nodiscard]] double normal_quantile(double p);

// Failures, checkpoints and restarts of one training run (docs/methodology.md E9).
struct Goodput {
    double failure_rate_per_hour = 0.0;     // lambda: GPUs x k_failure_rate_per_gpu_hour
    double checkpoint_hours = 0.0;          // delta: one checkpoint written by every node
    double checkpoint_interval_hours = 0.0; // tau: Daly's optimum
    double restart_hours = 0.0;             // R
    double failure_free_wall_hours = 0.0;   // the run without failures or checkpoints
    double wall_factor = 1.0;               // expected wall / failure-free wall
    double expected_failures = 0.0;         // lambda x expected wall
    double expected_wall_hours = 0.0;
    double p90_wall_hours = 0.0;
    double confidence = k_default_deadline_confidence;
    double confidence_wall_hours = 0.0; // the wall time the run finishes within at `confidence`

    [[nodiscard]] double fraction() const { return wall_factor > 0.0 ? 1.0 / wall_factor : 0.0; }
    bool operator==(const Goodput&) const = default;
};

// What the goodput of a run on `gpus` GPUs in `nodes` nodes writing `checkpoint_gb` per
// checkpoint owes to its hardware alone: every layout of one GPU count shares it, so the layout
// search computes Daly's factors once per count.
struct Failures {
    double failure_rate_per_hour = 0.0;
    double checkpoint_hours = 0.0;
    double checkpoint_interval_hours = 0.0;
    double restart_hours = 0.0;
    double wall_factor = 1.0; // of a run that takes any time at all
};
[[nodiscard]] Failures failures(int gpus, int nodes, double checkpoint_gb);

// The goodput of a run of `failure_free_hours` with `failures`; quantiles by the normal
// approximation of the compound Poisson loss, or the expected wall time when the run most likely
// sees no failure at all.
[[nodiscard]] Goodput goodput(const Failures& failures, double failure_free_hours,
                              double confidence);

// goodput() of failures(gpus, nodes, checkpoint_gb).
[[nodiscard]] Goodput goodput(double failure_free_hours, int gpus, int nodes, double checkpoint_gb,
                              double confidence);

} // namespace gpuplan::estimate

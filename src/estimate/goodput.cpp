#include "gpuplan/estimate/goodput.hpp"

#include "gpuplan/units.hpp"

#include <algorithm>
#include <cmath>

namespace gpuplan::estimate {

namespace {

constexpr double k_minutes_per_hour = 60.0;
// exp() of more than this overflows a double.
constexpr double k_max_exponent = 700.0;
// A failure-free run's wall factor bound: a run this slow never finishes in practice.
constexpr double k_max_failure_wall_factor = 1e6;

// The quantile of the wall time at `p`: the compound Poisson loss (each failure costs the work
// since the last checkpoint, uniform over tau, plus R) has variance lambda W E[L^2] with
// E[L^2] = (tau/2 + R)^2 + tau^2/12.
double quantile_hours(const Goodput& g, double p) {
    if (g.expected_failures <= 0.0 || std::exp(-g.expected_failures) >= p) {
        return g.expected_wall_hours;
    }
    const double tau = g.checkpoint_interval_hours;
    const double loss = tau / 2.0 + g.restart_hours;
    const double variance =
        g.failure_rate_per_hour * g.expected_wall_hours * (loss * loss + tau * tau / 12.0);
    // The default confidence (0.9) is a constant, so the common case needs no search on the hot
    // path of the layout search.
    const double z = p == k_default_deadline_confidence ? k_z90 : normal_quantile(p);
    return g.expected_wall_hours + std::max(0.0, z) * std::sqrt(variance);
}

} // namespace

double daly_interval_hours(double lambda, double delta) {
    if (lambda <= 0.0) {
        return 0.0;
    }
    const double mtbf = 1.0 / lambda;
    double tau = mtbf;
    if (delta < 2.0 * mtbf) {
        const double x = delta / (2.0 * mtbf);
        tau = std::sqrt(2.0 * delta * mtbf) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - delta;
    }
    return tau > 0.0 ? tau : mtbf;
}

double daly_wall_factor(double lambda, double tau, double delta, double restart,
                        double max_factor) {
    if (lambda <= 0.0 || tau <= 0.0) {
        return 1.0;
    }
    const double mtbf = 1.0 / lambda;
    // In logs: at extreme rates the factors overflow a double.
    const double log_w = std::log(mtbf) + restart / mtbf +
                         std::log(std::expm1(std::min((tau + delta) / mtbf, k_max_exponent))) -
                         std::log(tau);
    return log_w < std::log(max_factor) ? std::exp(log_w) : max_factor;
}

double normal_quantile(double p) {
    double lo = -40.0;
    double hi = 40.0;
    // P(Z <= z) = erfc(-z / sqrt 2) / 2 rises with z.
    for (int i = 0; i < 200 && hi - lo > 1e-13; ++i) {
        const double mid = (lo + hi) / 2.0;
        (std::erfc(-mid / std::sqrt(2.0)) / 2.0 < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2.0;
}

Failures failures(int gpus, int nodes, double checkpoint_gb) {
    Failures f;
    f.failure_rate_per_hour = std::max(gpus, 0) * k_failure_rate_per_gpu_hour;
    f.checkpoint_hours =
        checkpoint_gb / (std::max(nodes, 1) * k_checkpoint_gb_per_s_per_node) / k_seconds_per_hour;
    f.restart_hours = k_failure_restart_minutes / k_minutes_per_hour;
    f.checkpoint_interval_hours = daly_interval_hours(f.failure_rate_per_hour, f.checkpoint_hours);
    f.wall_factor =
        daly_wall_factor(f.failure_rate_per_hour, f.checkpoint_interval_hours, f.checkpoint_hours,
                         f.restart_hours, k_max_failure_wall_factor);
    return f;
}

Goodput goodput(const Failures& f, double failure_free_hours, double confidence) {
    Goodput g;
    g.failure_free_wall_hours = failure_free_hours;
    g.confidence = confidence;
    g.failure_rate_per_hour = f.failure_rate_per_hour;
    g.checkpoint_hours = f.checkpoint_hours;
    g.restart_hours = f.restart_hours;
    g.checkpoint_interval_hours = f.checkpoint_interval_hours;
    if (failure_free_hours > 0.0) {
        g.wall_factor = f.wall_factor;
    }
    g.expected_wall_hours = failure_free_hours * g.wall_factor;
    g.expected_failures = g.failure_rate_per_hour * g.expected_wall_hours;
    g.p90_wall_hours = quantile_hours(g, k_default_deadline_confidence);
    g.confidence_wall_hours = quantile_hours(g, confidence);
    return g;
}

Goodput goodput(double failure_free_hours, int gpus, int nodes, double checkpoint_gb,
                double confidence) {
    return goodput(failures(gpus, nodes, checkpoint_gb), failure_free_hours, confidence);
}

} // namespace gpuplan::estimate

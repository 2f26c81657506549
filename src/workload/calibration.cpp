#include "gpuplan/workload/calibration.hpp"

#include <tuple>

namespace gpuplan::workload {

const SpeedFactor* find_speed_factor(const Calibration& calibration, std::string_view gpu,
                                     std::string_view kind, std::string_view precision) {
    const SpeedFactor* best = nullptr;
    // Exact precision before an unstated one, then more runs, then the engine's name.
    auto key = [&](const SpeedFactor& f) {
        return std::tuple(f.precision == precision ? 0 : 1, -f.runs, -f.carried_runs,
                          std::string_view(f.engine));
    };
    for (const SpeedFactor& f : calibration.factors) {
        if (f.gpu != gpu || f.kind != kind || (!f.precision.empty() && f.precision != precision)) {
            continue;
        }
        if (best == nullptr || key(f) < key(*best)) {
            best = &f;
        }
    }
    return best;
}

catalog::Gpu scaled_gpu(const catalog::Gpu& gpu, double factor) {
    catalog::Gpu scaled = gpu;
    for (std::optional<double>& tflops : scaled.tflops) {
        if (tflops) {
            *tflops *= factor;
        }
    }
    scaled.memory_bandwidth_gb_per_s *= factor;
    return scaled;
}

} // namespace gpuplan::workload

// Fuzzes the workload YAML reader and, for every workload it accepts that is complete, the
// estimator on the embedded catalog: no crash, no escaped exception other than the documented
// ones, and no NaN or infinity in any estimate.

#include "gpuplan/embedded.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/estimate/estimate.hpp"
#include "gpuplan/workload/reader.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>

namespace {

void require_finite(std::initializer_list<double> values) {
    for (double value : values) {
        if (!std::isfinite(value)) {
            std::abort();
        }
    }
}

void require_finite(const std::optional<double>& value) {
    if (value) {
        require_finite({*value});
    }
}

void check(const gpuplan::estimate::GpuEstimate& e) {
    require_finite({e.memory_per_gpu_gib, e.memory.total_gib(), e.total_flops, e.mfu,
                    e.scaling_efficiency, e.gpu_hours, e.wall_hours, e.checkpoint_gb,
                    e.throughput.samples_per_second, e.throughput.tokens_per_second});
    require_finite(e.throughput.decode_tokens_per_second);
    require_finite(e.throughput.prefill_tokens_per_second);
    require_finite(e.throughput.requests_per_second_capacity);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const gpuplan::TextFile file{"fuzz.yaml",
                                 std::string(reinterpret_cast<const char*>(data), size)};
    std::optional<gpuplan::workload::Workload> workload;
    try {
        workload = gpuplan::workload::read_workload(file);
    } catch (const gpuplan::InputError&) {
        return 0;
    }
    if (!gpuplan::workload::missing_fields(*workload).empty()) {
        return 0;
    }
    try {
        for (const auto& estimate :
             gpuplan::estimate::estimate_all(*workload, gpuplan::embedded::catalog())) {
            check(estimate);
        }
    } catch (const gpuplan::UsageError&) {
    }
    return 0;
}

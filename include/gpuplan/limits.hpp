#pragma once
// The numeric limits every reader and flag parser enforces, in one table (docs/limits.md lists
// the same rows; tests/unit/test_limits.cpp compares the two). A limit's constant is what the
// code uses; k_limits names it for the documentation.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gpuplan::limits {

// Bytes of any input file (checked before reading; while reading standard input).
inline constexpr std::size_t k_max_input_bytes = 512UL * 1024UL * 1024UL;
// Bytes of one workload file: a workload is a few hundred bytes of YAML.
inline constexpr std::size_t k_max_workload_bytes = 1024UL * 1024UL;
// A plan file `check` reads (64 MiB): every option of a recommendation is a few MB of JSON.
inline constexpr std::size_t k_max_plan_bytes = 64UL * 1024UL * 1024UL;
// Diagnostics kept and printed for one run; the rest are counted (`N more problems`).
inline constexpr std::size_t k_max_diagnostics = 100;
// Magnitude of any number read from YAML, and of counts: parameters, tokens, samples, epochs.
inline constexpr double k_max_magnitude = 1e18;
// Price of anything per hour (catalog prices, feed prices), in the catalog's currency.
inline constexpr double k_max_price_per_hour = 1e9;
// GPUs in one instance type (catalog and feeds).
inline constexpr double k_max_instance_gpus = 1024.0;
// The smallest share of one GPU an instance type may sell (a MIG slice is 1/7, a vendor fraction
// 1/8); below it a count is a corrupt value, not a product (docs/limits.md, `instance_gpus`).
inline constexpr double k_min_instance_gpus = 0.01;
// vCPUs of one instance type (catalog feeds).
inline constexpr double k_max_instance_vcpus = 100000.0;
// Memory of one instance type, GiB.
inline constexpr double k_max_instance_memory_gib = 1e9;
// GPUs of one job (workload gpu_count and max_gpus, --gpu-count, --max-gpus).
inline constexpr std::int64_t k_max_job_gpus = 1'000'000;
// Monte Carlo samples of --simulate.
inline constexpr std::int64_t k_max_simulate_samples = 100'000;
// Money of a plan's totals and of --max-cost, --max-monthly, --budget.
inline constexpr double k_max_money = 1e18;
// Hours of a plan's wall time and of --max-hours, --deadline.
inline constexpr double k_max_hours = 1e18;

// One row of the table: the name docs/limits.md uses, the value, its unit and what it bounds.
struct Limit {
    std::string_view name;
    double value;
    std::string_view unit;
    std::string_view bounds;
};

inline constexpr std::array<Limit, 13> k_limits{{
    {"input_bytes", static_cast<double>(k_max_input_bytes), "bytes", "any input file"},
    {"workload_bytes", static_cast<double>(k_max_workload_bytes), "bytes", "a workload file"},
    {"plan_bytes", static_cast<double>(k_max_plan_bytes), "bytes", "a plan file"},
    {"diagnostics", static_cast<double>(k_max_diagnostics), "problems",
     "diagnostics printed for one run"},
    {"magnitude", k_max_magnitude, "", "any number in YAML; params, tokens, samples, epochs"},
    {"price_per_hour", k_max_price_per_hour, "currency/hour", "catalog and feed prices"},
    {"instance_gpus", k_max_instance_gpus, "GPUs", "GPUs of one instance type"},
    {"instance_vcpus", k_max_instance_vcpus, "vCPUs", "vCPUs of one instance type"},
    {"instance_memory_gib", k_max_instance_memory_gib, "GiB", "memory of one instance type"},
    {"job_gpus", static_cast<double>(k_max_job_gpus), "GPUs",
     "gpu_count, max_gpus, --gpu-count, --max-gpus"},
    {"simulate_samples", static_cast<double>(k_max_simulate_samples), "samples", "--simulate"},
    {"money", k_max_money, "currency", "plan totals, --max-cost, --max-monthly, --budget"},
    {"hours", k_max_hours, "hours", "plan wall time, --max-hours, --deadline"},
}};

} // namespace gpuplan::limits

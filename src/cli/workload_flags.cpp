#include "cli/workload_flags.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cli {

namespace {

using workload::WorkloadOverrides;

// In the order of `--help`.
const std::array k_workload_flags{
    WorkloadFlag{"--params", "/model/params", FlagKind::text, &WorkloadOverrides::params, nullptr,
                 "Model parameters (7B, 340M)", "N"},
    WorkloadFlag{"--active-params", "/model/active_params", FlagKind::text,
                 &WorkloadOverrides::active_params, nullptr, "MoE: parameters used per token", "N"},
    WorkloadFlag{"--tokens", "/data/tokens", FlagKind::text, &WorkloadOverrides::tokens, nullptr,
                 "Training tokens, all epochs (2T)", "N"},
    WorkloadFlag{"--samples", "/data/samples", FlagKind::text, &WorkloadOverrides::samples, nullptr,
                 "Samples per epoch", "N"},
    WorkloadFlag{"--epochs", "/data/epochs", FlagKind::text, &WorkloadOverrides::epochs, nullptr,
                 "Epochs", "N"},
    WorkloadFlag{"--task", "/task", FlagKind::text, &WorkloadOverrides::task, nullptr,
                 "train, finetune or inference", "TASK"},
    WorkloadFlag{"--family", "/model/family", FlagKind::text, &WorkloadOverrides::family, nullptr,
                 "transformer, cnn or custom", "FAMILY"},
    WorkloadFlag{"--precision", "/training/precision", FlagKind::text,
                 &WorkloadOverrides::precision, nullptr,
                 "Training or inference precision (bf16, fp8, int4...)", "PRECISION"},
    WorkloadFlag{"--precision", "/inference/precision", FlagKind::shared, nullptr, nullptr, "", ""},
    WorkloadFlag{"--optimizer", "/training/optimizer", FlagKind::text,
                 &WorkloadOverrides::optimizer, nullptr, "adamw, sgd, adafactor or adamw_8bit",
                 "NAME"},
    WorkloadFlag{"--method", "/training/method", FlagKind::text, &WorkloadOverrides::method,
                 nullptr, "full, lora or qlora", "METHOD"},
    WorkloadFlag{"--sharding", "/training/sharding", FlagKind::text, &WorkloadOverrides::sharding,
                 nullptr, "auto (searched), none, zero1, zero2, zero3 or fsdp", "MODE"},
    WorkloadFlag{"--micro-batch", "/training/micro_batch", FlagKind::text,
                 &WorkloadOverrides::micro_batch, nullptr, "Micro-batch per GPU", "N"},
    WorkloadFlag{"--mfu", "/training/mfu", FlagKind::text, &WorkloadOverrides::mfu, nullptr,
                 "Model FLOPs utilisation override (0.4)", "FRACTION"},
    WorkloadFlag{"--gpu", "/constraints/gpu_models", FlagKind::list, nullptr,
                 &WorkloadOverrides::gpus, "Only this GPU model (repeatable)", "GPU"},
    WorkloadFlag{"--gpu-count", "/constraints/gpu_count", FlagKind::text,
                 &WorkloadOverrides::gpu_count, nullptr, "Run on exactly this many GPUs", "N"},
    WorkloadFlag{"--max-gpus", "/constraints/max_gpus", FlagKind::text,
                 &WorkloadOverrides::max_gpus, nullptr, "At most this many GPUs", "N"},
    WorkloadFlag{"--deadline", "/constraints/deadline", FlagKind::text,
                 &WorkloadOverrides::deadline, nullptr, "Deadline (12h, 30d, 6w, 3mo, 1y)",
                 "DURATION"},
    WorkloadFlag{"--budget", "/constraints/budget", FlagKind::text, &WorkloadOverrides::budget,
                 nullptr, "Budget (250000 USD)", "MONEY"},
    WorkloadFlag{"--horizon", "/horizon_months", FlagKind::text, &WorkloadOverrides::horizon,
                 nullptr, "Planning horizon in months (36) or a duration (3y)", "MONTHS"},
    WorkloadFlag{"--discount-rate", "/finance/discount_rate", FlagKind::text,
                 &WorkloadOverrides::discount_rate, nullptr, "Annual discount rate (0.10 or 10%)",
                 "RATE"},
    WorkloadFlag{"--interruptible", "/constraints/interruptible", FlagKind::toggle, nullptr,
                 nullptr, "The job checkpoints and may run on spot", ""},
    WorkloadFlag{"--purchase", "/constraints/purchase", FlagKind::list, nullptr,
                 &WorkloadOverrides::purchase, "Allowed purchase option (repeatable)", "OPTION"},
    WorkloadFlag{"--provider", "/constraints/providers", FlagKind::list, nullptr,
                 &WorkloadOverrides::providers, "Only this provider (repeatable)", "NAME"},
    WorkloadFlag{"--region", "/constraints/regions", FlagKind::list, nullptr,
                 &WorkloadOverrides::regions, "Only this region (repeatable)", "REGION"},
    WorkloadFlag{"--rps", "/inference/requests_per_second", FlagKind::text, &WorkloadOverrides::rps,
                 nullptr, "Inference: requests per second", "N"},
    WorkloadFlag{"--latency-ms", "/inference/latency_ms", FlagKind::text,
                 &WorkloadOverrides::latency_ms, nullptr, "Inference: target time per request",
                 "MS"},
    WorkloadFlag{"--hours-per-day", "/inference/hours_per_day", FlagKind::text,
                 &WorkloadOverrides::hours_per_day, nullptr, "Inference: service hours per day",
                 "HOURS"},
    // A common option (every command's output currency), also the workload's.
    WorkloadFlag{"--currency", "/finance/currency", FlagKind::shared, nullptr, nullptr, "", ""},
};

} // namespace

std::span<const WorkloadFlag> workload_flags() {
    return k_workload_flags;
}

std::string_view workload_flag_of(std::string_view path) {
    for (const WorkloadFlag& flag : k_workload_flags) {
        if (flag.path == path) {
            return flag.name;
        }
    }
    return {};
}

} // namespace gpuplan::cli

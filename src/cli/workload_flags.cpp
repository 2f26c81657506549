#include "cli/workload_flags.hpp"

#include <CLI/CLI.hpp>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan::cli {

namespace {

using workload::WorkloadOverrides;

// How a flag takes its value.
enum class Kind {
    text,   // one value, kept as typed
    list,   // repeatable, one value each time
    toggle, // no value
    shared, // registered elsewhere: a common option, or a flag another row registers
};

struct WorkloadFlag {
    std::string_view name;
    std::string_view path; // the field it sets, as workload diagnostics print it
    Kind kind = Kind::text;
    std::optional<std::string> WorkloadOverrides::*text = nullptr;
    std::vector<std::string> WorkloadOverrides::*list = nullptr;
    std::string_view help;
    std::string_view type; // CLI11's type name in the help
};

// In the order of `--help`.
const std::array k_workload_flags{
    WorkloadFlag{"--params", "/model/params", Kind::text, &WorkloadOverrides::params, nullptr,
                 "Model parameters (7B, 340M)", "N"},
    WorkloadFlag{"--active-params", "/model/active_params", Kind::text,
                 &WorkloadOverrides::active_params, nullptr, "MoE: parameters used per token", "N"},
    WorkloadFlag{"--tokens", "/data/tokens", Kind::text, &WorkloadOverrides::tokens, nullptr,
                 "Training tokens, all epochs (2T)", "N"},
    WorkloadFlag{"--samples", "/data/samples", Kind::text, &WorkloadOverrides::samples, nullptr,
                 "Samples per epoch", "N"},
    WorkloadFlag{"--epochs", "/data/epochs", Kind::text, &WorkloadOverrides::epochs, nullptr,
                 "Epochs", "N"},
    WorkloadFlag{"--task", "/task", Kind::text, &WorkloadOverrides::task, nullptr,
                 "train, finetune or inference", "TASK"},
    WorkloadFlag{"--family", "/model/family", Kind::text, &WorkloadOverrides::family, nullptr,
                 "transformer, cnn or custom", "FAMILY"},
    WorkloadFlag{"--precision", "/training/precision", Kind::text, &WorkloadOverrides::precision,
                 nullptr, "Training or inference precision (bf16, fp8, int4...)", "PRECISION"},
    WorkloadFlag{"--precision", "/inference/precision", Kind::shared, nullptr, nullptr, "", ""},
    WorkloadFlag{"--optimizer", "/training/optimizer", Kind::text, &WorkloadOverrides::optimizer,
                 nullptr, "adamw, sgd, adafactor or adamw_8bit", "NAME"},
    WorkloadFlag{"--method", "/training/method", Kind::text, &WorkloadOverrides::method, nullptr,
                 "full, lora or qlora", "METHOD"},
    WorkloadFlag{"--sharding", "/training/sharding", Kind::text, &WorkloadOverrides::sharding,
                 nullptr, "auto (searched), none, zero1, zero2, zero3 or fsdp", "MODE"},
    WorkloadFlag{"--micro-batch", "/training/micro_batch", Kind::text,
                 &WorkloadOverrides::micro_batch, nullptr, "Micro-batch per GPU", "N"},
    WorkloadFlag{"--mfu", "/training/mfu", Kind::text, &WorkloadOverrides::mfu, nullptr,
                 "Model FLOPs utilisation override (0.4)", "FRACTION"},
    WorkloadFlag{"--gpu", "/constraints/gpu_models", Kind::list, nullptr, &WorkloadOverrides::gpus,
                 "Only this GPU model (repeatable)", "GPU"},
    WorkloadFlag{"--gpu-count", "/constraints/gpu_count", Kind::text, &WorkloadOverrides::gpu_count,
                 nullptr, "Run on exactly this many GPUs", "N"},
    WorkloadFlag{"--max-gpus", "/constraints/max_gpus", Kind::text, &WorkloadOverrides::max_gpus,
                 nullptr, "At most this many GPUs", "N"},
    WorkloadFlag{"--deadline", "/constraints/deadline", Kind::text, &WorkloadOverrides::deadline,
                 nullptr, "Deadline (12h, 30d, 6w, 3mo, 1y)", "DURATION"},
    WorkloadFlag{"--budget", "/constraints/budget", Kind::text, &WorkloadOverrides::budget, nullptr,
                 "Budget (250000 USD)", "MONEY"},
    WorkloadFlag{"--horizon", "/horizon_months", Kind::text, &WorkloadOverrides::horizon, nullptr,
                 "Planning horizon in months (36) or a duration (3y)", "MONTHS"},
    WorkloadFlag{"--discount-rate", "/finance/discount_rate", Kind::text,
                 &WorkloadOverrides::discount_rate, nullptr, "Annual discount rate (0.10 or 10%)",
                 "RATE"},
    WorkloadFlag{"--interruptible", "/constraints/interruptible", Kind::toggle, nullptr, nullptr,
                 "The job checkpoints and may run on spot", ""},
    WorkloadFlag{"--purchase", "/constraints/purchase", Kind::list, nullptr,
                 &WorkloadOverrides::purchase, "Allowed purchase option (repeatable)", "OPTION"},
    WorkloadFlag{"--provider", "/constraints/providers", Kind::list, nullptr,
                 &WorkloadOverrides::providers, "Only this provider (repeatable)", "NAME"},
    WorkloadFlag{"--region", "/constraints/regions", Kind::list, nullptr,
                 &WorkloadOverrides::regions, "Only this region (repeatable)", "REGION"},
    WorkloadFlag{"--rps", "/inference/requests_per_second", Kind::text, &WorkloadOverrides::rps,
                 nullptr, "Inference: requests per second", "N"},
    WorkloadFlag{"--latency-ms", "/inference/latency_ms", Kind::text,
                 &WorkloadOverrides::latency_ms, nullptr, "Inference: target time per request",
                 "MS"},
    WorkloadFlag{"--hours-per-day", "/inference/hours_per_day", Kind::text,
                 &WorkloadOverrides::hours_per_day, nullptr, "Inference: service hours per day",
                 "HOURS"},
    // A common option (every command's output currency), also the workload's.
    WorkloadFlag{"--currency", "/finance/currency", Kind::shared, nullptr, nullptr, "", ""},
};

void add_flag(CLI::App* command, const WorkloadFlag& flag, WorkloadOverrides& overrides) {
    const std::string name(flag.name);
    const std::string help(flag.help);
    switch (flag.kind) {
    case Kind::text: {
        std::optional<std::string>& target = overrides.*flag.text;
        command
            ->add_option_function<std::string>(
                name, [&target](const std::string& value) { target = value; }, help)
            ->type_name(std::string(flag.type));
        return;
    }
    case Kind::list:
        command->add_option(name, overrides.*flag.list, help)
            ->type_name(std::string(flag.type))
            ->allow_extra_args(false);
        return;
    case Kind::toggle:
        command->add_flag_callback(
            name, [&overrides] { overrides.interruptible = true; }, help);
        return;
    case Kind::shared:
        return;
    }
}

} // namespace

void add_workload_flags(CLI::App* command, WorkloadOverrides& overrides) {
    for (const WorkloadFlag& flag : k_workload_flags) {
        add_flag(command, flag, overrides);
    }
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

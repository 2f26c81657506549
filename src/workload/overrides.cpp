#include "detail/strings.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/purchase.hpp"
#include "gpuplan/workload/reader.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::workload {

namespace {

[[noreturn]] void bad_flag(std::string_view flag, std::string_view expected,
                           std::string_view value) {
    throw UsageError(fmt::format("{}: expected {}, got '{}'", flag, expected, value));
}

// `--purchase: expected on_demand, ... or self_built, got 'spt'; did you mean 'spot'?`
[[noreturn]] void bad_purchase(std::string_view value) {
    std::vector<std::string_view> names;
    names.reserve(k_all_purchase_options.size());
    for (PurchaseOption option : k_all_purchase_options) {
        names.push_back(to_string(option));
    }
    const std::string hint = detail::closest_match(value, names);
    throw UsageError(fmt::format("--purchase: expected {}, got '{}'{}", detail::join_choices(names),
                                 value,
                                 hint.empty() ? "" : fmt::format("; did you mean '{}'?", hint)));
}

double positive_si(std::string_view flag, const std::string& text) {
    auto value = parse_si_number(text);
    if (!value || *value <= 0.0) {
        bad_flag(flag, "a positive number such as 7B, 340M or 2T", text);
    }
    if (*value > limits::k_max_magnitude) {
        bad_flag(flag, "a positive number up to 1e18", text);
    }
    return *value;
}

double number_in(std::string_view flag, const std::string& text, double min, bool min_exclusive,
                 double max, std::string_view expected) {
    auto value = parse_number(text);
    if (!value || *value < min || (min_exclusive && *value <= min) || *value > max) {
        bad_flag(flag, expected, text);
    }
    return *value;
}

int count_in(std::string_view flag, const std::string& text, int max) {
    auto value = parse_number(text);
    if (!value || *value < 1.0 || *value > max ||
        *value != static_cast<double>(static_cast<int>(*value))) {
        bad_flag(flag, fmt::format("a whole number from 1 to {}", max), text);
    }
    return static_cast<int>(*value);
}

template <typename Enum>
Enum choice(std::string_view flag, const std::string& text,
            std::optional<Enum> (*parse)(std::string_view), std::string_view choices) {
    auto value = parse(text);
    if (!value) {
        bad_flag(flag, choices, text);
    }
    return *value;
}

// --sharding: `auto` searches the stage (nullopt), any other value pins it.
std::optional<Sharding> sharding_flag(const std::string& text) {
    if (text == "auto") {
        return std::nullopt;
    }
    return choice<Sharding>("--sharding", text, parse_sharding,
                            "auto, none, zero1, zero2, zero3 or fsdp");
}

// --tokens: the run's tokens, unless the workload's stages give their own.
double tokens_flag(const Workload& workload, const std::string& text) {
    if (!workload.stages.empty()) {
        throw UsageError("--tokens: the workload has stages, each with its own tokens");
    }
    return positive_si("--tokens", text);
}

constexpr int k_max_flag_count = static_cast<int>(limits::k_max_job_gpus);

} // namespace

bool WorkloadOverrides::empty() const {
    return !params && !active_params && !tokens && !samples && !epochs && !task && !family &&
           !precision && !optimizer && !method && !sharding && !micro_batch && !mfu &&
           gpus.empty() && !gpu_count && !max_gpus && !deadline && !budget && !horizon &&
           !discount_rate && !interruptible && purchase.empty() && providers.empty() &&
           regions.empty() && !rps && !latency_ms && !hours_per_day && !currency;
}

void apply_overrides(Workload& workload, const WorkloadOverrides& o) {
    // Task first: --precision goes to the inference or the training section depending on it.
    if (o.task) {
        workload.task = choice<Task>("--task", *o.task, parse_task, "train, finetune or inference");
    }
    if (o.currency) {
        if (!is_currency_code(*o.currency)) {
            bad_flag("--currency", "an ISO 4217 code such as USD or CNY", *o.currency);
        }
        workload.finance.currency = *o.currency;
    }
    if (o.family) {
        workload.model.family =
            choice<Family>("--family", *o.family, parse_family, "transformer, cnn or custom");
    }
    if (o.params) {
        workload.model.params = positive_si("--params", *o.params);
    }
    if (o.active_params) {
        workload.model.active_params = positive_si("--active-params", *o.active_params);
    }
    if (workload.model.active_params && *workload.model.active_params > workload.model.params) {
        throw UsageError(fmt::format("--active-params: {:g} exceeds the model's params ({:g})",
                                     *workload.model.active_params, workload.model.params));
    }
    if (o.tokens) {
        workload.data.tokens = tokens_flag(workload, *o.tokens);
    }
    if (o.samples) {
        workload.data.samples = positive_si("--samples", *o.samples);
    }
    if (o.epochs) {
        workload.data.epochs = positive_si("--epochs", *o.epochs);
    }
    if (o.precision) {
        auto precision = catalog::parse_precision(*o.precision);
        if (workload.task == Task::inference) {
            if (!precision || *precision == Precision::fp32 || *precision == Precision::tf32) {
                bad_flag("--precision", "fp16, bf16, fp8, int8 or int4 (inference)", *o.precision);
            }
            workload.inference.precision = *precision;
        } else {
            if (!precision || *precision == Precision::int8 || *precision == Precision::int4) {
                bad_flag("--precision", "fp32, tf32, fp16, bf16 or fp8 (training)", *o.precision);
            }
            workload.training.precision = *precision;
        }
    }
    if (o.optimizer) {
        workload.training.optimizer = choice<Optimizer>(
            "--optimizer", *o.optimizer, parse_optimizer, "adamw, sgd, adafactor or adamw_8bit");
    }
    if (o.method) {
        workload.training.method =
            choice<Method>("--method", *o.method, parse_method, "full, lora or qlora");
    }
    if (o.sharding) {
        workload.training.sharding = sharding_flag(*o.sharding);
    }
    if (o.micro_batch) {
        workload.training.micro_batch = count_in("--micro-batch", *o.micro_batch, k_max_flag_count);
    }
    if (workload.task == Task::train && workload.training.method != Method::full) {
        throw UsageError(fmt::format("--method: {} needs task finetune (the base model is frozen)",
                                     to_string(workload.training.method)));
    }
    if (o.mfu) {
        workload.training.mfu =
            number_in("--mfu", *o.mfu, k_min_mfu, false, 1.0, "a fraction from 0.001 to 1");
    }
    if (!o.gpus.empty()) {
        workload.constraints.gpu_models = o.gpus;
    }
    if (o.gpu_count) {
        workload.constraints.gpu_count = count_in("--gpu-count", *o.gpu_count, k_max_flag_count);
    }
    if (o.max_gpus) {
        workload.constraints.max_gpus = count_in("--max-gpus", *o.max_gpus, k_max_flag_count);
    }
    // Without max_gpus a flag's count is held to the default that ranking would apply.
    const int max_gpus = workload.constraints.max_gpus.value_or(
        o.gpu_count ? k_default_max_gpus : std::numeric_limits<int>::max());
    if (workload.constraints.gpu_count && *workload.constraints.gpu_count > max_gpus) {
        throw UsageError(fmt::format(
            "--gpu-count: {} exceeds max_gpus ({}{})", *workload.constraints.gpu_count,
            workload.constraints.max_gpus.value_or(k_default_max_gpus),
            workload.constraints.max_gpus ? "" : ", the default; raise it with --max-gpus"));
    }
    if (o.deadline) {
        auto hours = parse_duration_hours(*o.deadline);
        if (!hours || *hours <= 0.0 || *hours > limits::k_max_hours) {
            bad_flag("--deadline", "a duration such as 12h, 30d, 6w, 3mo or 1y", *o.deadline);
        }
        workload.constraints.deadline_hours = *hours;
    }
    if (o.budget) {
        auto money = parse_money(*o.budget, workload.finance.currency);
        if (!money || money->amount < 0.0 || money->amount > limits::k_max_money) {
            bad_flag("--budget", "an amount such as 250000 USD", *o.budget);
        }
        workload.constraints.budget = *money;
    }
    if (o.horizon) {
        auto hours = parse_duration_hours(*o.horizon);
        auto months = parse_number(*o.horizon);
        // A bare number is months here, unlike --deadline: the horizon is counted in months.
        const double value = months ? *months : hours ? *hours / k_hours_per_month : 0.0;
        if (value <= 0.0 || value > 1200.0) {
            bad_flag("--horizon", "months (36) or a duration such as 3y", *o.horizon);
        }
        workload.horizon_months = value;
    }
    if (o.discount_rate) {
        auto rate = parse_fraction(*o.discount_rate);
        if (!rate || *rate < 0.0 || *rate > 1.0) {
            bad_flag("--discount-rate", "an annual rate from 0 to 1 such as 0.10 or 10%",
                     *o.discount_rate);
        }
        workload.finance.discount_rate = *rate;
    }
    if (o.interruptible) {
        workload.constraints.interruptible = *o.interruptible;
    }
    if (!o.purchase.empty()) {
        std::vector<PurchaseOption> options;
        for (const std::string& text : o.purchase) {
            auto option = parse_purchase_option(text);
            if (!option) {
                bad_purchase(text);
            }
            if (std::find(options.begin(), options.end(), *option) == options.end()) {
                options.push_back(*option);
            }
        }
        workload.constraints.purchase = options;
    }
    if (!o.providers.empty()) {
        workload.constraints.providers = o.providers;
    }
    if (!o.regions.empty()) {
        workload.constraints.regions = o.regions;
    }
    if (o.rps) {
        workload.inference.requests_per_second = positive_si("--rps", *o.rps);
    }
    if (o.latency_ms) {
        workload.inference.latency_ms =
            number_in("--latency-ms", *o.latency_ms, 0.0, true, std::numeric_limits<double>::max(),
                      "a positive number of milliseconds");
    }
    if (o.hours_per_day) {
        workload.inference.hours_per_day =
            number_in("--hours-per-day", *o.hours_per_day, 0.0, true, k_hours_per_day,
                      "hours above 0 and at most 24");
    }
}

std::vector<std::string> missing_fields(const Workload& workload) {
    std::vector<std::string> missing;
    const Model& model = workload.model;
    if (model.params <= 0.0) {
        missing.emplace_back("model.params (--params)");
    }
    const bool transformer = model.family == Family::transformer;
    if (workload.task == Task::inference) {
        if (!transformer && !model.flops_per_sample && model.reference.empty()) {
            missing.emplace_back("model.flops_per_sample or model.reference (a " +
                                 std::string(to_string(model.family)) +
                                 " model's forward FLOPs per sample)");
        }
        return missing;
    }
    if (transformer) {
        if (!workload.data.tokens && !(workload.data.samples && model.seq_len)) {
            missing.emplace_back(
                "data.tokens (--tokens), or data.samples (--samples) with model.seq_len");
        }
    } else {
        if (!workload.data.samples) {
            missing.emplace_back("data.samples (--samples)");
        }
        if (!model.flops_per_sample && model.reference.empty()) {
            missing.emplace_back("model.flops_per_sample or model.reference (a " +
                                 std::string(to_string(model.family)) +
                                 " model's forward FLOPs per sample)");
        }
    }
    return missing;
}

Workload workload_from_flags(const WorkloadOverrides& overrides) {
    if (overrides.empty()) {
        throw UsageError("no workload: give a WORKLOAD.yaml file, --preset NAME, or flags such as "
                         "--params 7B --tokens 2T");
    }
    Workload workload;
    workload.name = "workload";
    apply_overrides(workload, overrides);
    return workload;
}

} // namespace gpuplan::workload

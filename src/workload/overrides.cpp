#include "detail/strings.hpp"
#include "gpuplan/error.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/purchase.hpp"
#include "gpuplan/workload/reader.hpp"
#include "workload/fields.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::workload {

namespace {

// The largest count a flag takes (GPUs, micro-batch).
constexpr int k_max_flag_count = static_cast<int>(limits::k_max_job_gpus);
// Flags take any positive latency; a file holds it to the file range.
constexpr detail::NumberRange k_latency_flag_range{0.0, std::numeric_limits<double>::max(), true,
                                                   "a positive number of milliseconds"};

[[noreturn]] void bad_value(std::string_view path, std::string_view expected,
                            std::string_view value) {
    throw FieldError(path, fmt::format("expected {}, got '{}'", expected, value));
}

// `expected on_demand, ... or self_built, got 'spt'; did you mean 'spot'?`
[[noreturn]] void bad_purchase(std::string_view value) {
    const std::vector<std::string_view>& names = fields::k_purchase.choices;
    const std::string hint = detail::closest_match(value, names);
    throw FieldError(fields::k_purchase.path,
                     fmt::format("expected {}, got '{}'{}", detail::join_choices(names), value,
                                 hint.empty() ? "" : fmt::format("; did you mean '{}'?", hint)));
}

// What `hint` calls the field at `path`, else the path itself.
std::string named(std::string_view path, FieldHint hint) {
    const std::string_view name = fields::hint_of(path, hint);
    return std::string(name.empty() ? path : name);
}

double positive_si(const fields::NumberField& field, const std::string& text) {
    auto value = parse_si_number(text);
    if (!value || *value <= field.range.min) {
        bad_value(field.path, fmt::format("{} such as 7B, 340M or 2T", field.range.description),
                  text);
    }
    if (*value > field.range.max) {
        bad_value(field.path, fmt::format("{} up to 1e18", field.range.description), text);
    }
    return *value;
}

double number_in(std::string_view path, const std::string& text, const detail::NumberRange& range,
                 std::string_view expected) {
    auto value = parse_number(text);
    if (!value || *value < range.min || (range.min_exclusive && *value <= range.min) ||
        *value > range.max) {
        bad_value(path, expected, text);
    }
    return *value;
}

int count_in(std::string_view path, const std::string& text, int max) {
    auto value = parse_number(text);
    if (!value || *value < 1.0 || *value > max ||
        *value != static_cast<double>(static_cast<int>(*value))) {
        bad_value(path, fmt::format("a whole number from 1 to {}", max), text);
    }
    return static_cast<int>(*value);
}

// The index of `text` among the field's names.
std::size_t choice_index(const fields::ChoiceField& field, const std::string& text,
                         std::string_view expected) {
    const auto& names = field.choices;
    const auto found = std::find(names.begin(), names.end(), text);
    if (found == names.end()) {
        bad_value(field.path, expected, text);
    }
    return static_cast<std::size_t>(found - names.begin());
}

template <typename Enum> Enum choice(const fields::ChoiceField& field, const std::string& text) {
    return static_cast<Enum>(choice_index(field, text, detail::join_choices(field.choices)));
}

// A sharding flag: `auto` searches the stage (nullopt), any other value pins it.
std::optional<Sharding> sharding_flag(const std::string& text) {
    if (text == fields::k_sharding_auto) {
        return std::nullopt;
    }
    auto value = parse_sharding(text);
    if (!value) {
        bad_value(fields::k_sharding.path,
                  fmt::format("{}, {}", fields::k_sharding_auto,
                              detail::join_choices(fields::k_sharding.choices)),
                  text);
    }
    return *value;
}

// The precision of the section the task uses, from that section's list.
Precision precision_flag(const fields::ChoiceField& field, const std::string& text,
                         std::string_view section) {
    const std::size_t index = choice_index(
        field, text, fmt::format("{} ({})", detail::join_choices(field.choices), section));
    return *catalog::parse_precision(field.choices.at(index));
}

// Task and currency first: the precision's section depends on the task, the budget's currency on
// the currency.
void apply_task_and_currency(Workload& workload, const WorkloadOverrides& o) {
    if (o.task) {
        workload.task = choice<Task>(fields::k_task, *o.task);
    }
    if (o.currency) {
        if (!is_currency_code(*o.currency)) {
            bad_value(fields::k_currency.path, "an ISO 4217 code such as USD or CNY", *o.currency);
        }
        workload.finance.currency = *o.currency;
    }
}

void apply_model_and_data(Workload& workload, const WorkloadOverrides& o) {
    Model& model = workload.model;
    if (o.family) {
        model.family = choice<Family>(fields::k_family, *o.family);
    }
    if (o.params) {
        model.params = positive_si(fields::k_params, *o.params);
    }
    if (o.active_params) {
        model.active_params = positive_si(fields::k_active_params, *o.active_params);
    }
    if (model.active_params && *model.active_params > model.params) {
        throw FieldError(fields::k_active_params.path,
                         fmt::format("{:g} exceeds the model's params ({:g})", *model.active_params,
                                     model.params));
    }
    if (o.tokens) {
        // The run's tokens, unless the workload's stages give their own.
        if (!workload.stages.empty()) {
            throw FieldError(fields::k_tokens.path,
                             "the workload has stages, each with its own tokens");
        }
        workload.data.tokens = positive_si(fields::k_tokens, *o.tokens);
    }
    if (o.samples) {
        workload.data.samples = positive_si(fields::k_samples, *o.samples);
    }
    if (o.epochs) {
        workload.data.epochs = positive_si(fields::k_epochs, *o.epochs);
    }
}

void apply_training(Workload& workload, const WorkloadOverrides& o) {
    Training& training = workload.training;
    if (o.precision) {
        if (workload.task == Task::inference) {
            workload.inference.precision =
                precision_flag(fields::k_inference_precision, *o.precision, "inference");
        } else {
            training.precision =
                precision_flag(fields::k_training_precision, *o.precision, "training");
        }
    }
    if (o.optimizer) {
        training.optimizer = choice<Optimizer>(fields::k_optimizer, *o.optimizer);
    }
    if (o.method) {
        training.method = choice<Method>(fields::k_method, *o.method);
    }
    if (o.sharding) {
        training.sharding = sharding_flag(*o.sharding);
    }
    if (o.micro_batch) {
        training.micro_batch =
            count_in(fields::k_micro_batch.path, *o.micro_batch, k_max_flag_count);
    }
    if (workload.task == Task::train && training.method != Method::full) {
        throw FieldError(fields::k_method.path,
                         fmt::format("{} needs task finetune (the base model is frozen)",
                                     to_string(training.method)));
    }
    if (o.mfu) {
        training.mfu = number_in(fields::k_mfu.path, *o.mfu, fields::k_mfu.range,
                                 fields::k_mfu.range.description);
    }
}

void apply_gpus(Constraints& constraints, const WorkloadOverrides& o, FieldHint hint) {
    if (!o.gpus.empty()) {
        constraints.gpu_models = o.gpus;
    }
    if (o.gpu_count) {
        constraints.gpu_count = count_in(fields::k_gpu_count.path, *o.gpu_count,
                                         static_cast<int>(fields::k_gpu_count.max));
    }
    if (o.max_gpus) {
        constraints.max_gpus = count_in(fields::k_max_gpus.path, *o.max_gpus,
                                        static_cast<int>(fields::k_max_gpus.max));
    }
    // Without max_gpus a flag's count is held to the default that ranking would apply.
    const int max_gpus = constraints.max_gpus.value_or(
        o.gpu_count ? k_default_max_gpus : std::numeric_limits<int>::max());
    if (constraints.gpu_count && *constraints.gpu_count > max_gpus) {
        throw FieldError(fields::k_gpu_count.path,
                         fmt::format("{} exceeds max_gpus ({}{})", *constraints.gpu_count,
                                     constraints.max_gpus.value_or(k_default_max_gpus),
                                     constraints.max_gpus
                                         ? ""
                                         : ", the default; raise it with " +
                                               named(fields::k_max_gpus.path, hint)));
    }
}

// Months from a bare number (the horizon is counted in months, unlike a deadline) or a duration.
double horizon_flag(const std::string& text) {
    auto hours = parse_duration_hours(text);
    auto months = parse_number(text);
    const double value = months ? *months : hours ? *hours / k_hours_per_month : 0.0;
    if (value <= 0.0 || value > fields::k_max_horizon_months) {
        bad_value(fields::k_horizon, "months (36) or a duration such as 3y", text);
    }
    return value;
}

void apply_time_and_money(Workload& workload, const WorkloadOverrides& o) {
    if (o.deadline) {
        auto hours = parse_duration_hours(*o.deadline);
        if (!hours || *hours <= 0.0 || *hours > limits::k_max_hours) {
            bad_value(fields::k_deadline.path, fields::k_deadline.description, *o.deadline);
        }
        workload.constraints.deadline_hours = *hours;
    }
    if (o.budget) {
        auto money = parse_money(*o.budget, workload.finance.currency);
        if (!money || money->amount < 0.0 || money->amount > limits::k_max_money) {
            bad_value(fields::k_budget.path, fields::k_budget.description, *o.budget);
        }
        workload.constraints.budget = *money;
    }
    if (o.horizon) {
        workload.horizon_months = horizon_flag(*o.horizon);
    }
    if (o.discount_rate) {
        const detail::NumberRange& range = fields::k_discount_rate.range;
        auto rate = parse_fraction(*o.discount_rate);
        if (!rate || *rate < range.min || *rate > range.max) {
            bad_value(fields::k_discount_rate.path,
                      fmt::format("{} such as 0.10 or 10%", range.description), *o.discount_rate);
        }
        workload.finance.discount_rate = *rate;
    }
}

// The purchase options named, each once, in the order given.
std::vector<PurchaseOption> purchase_flag(const std::vector<std::string>& texts) {
    std::vector<PurchaseOption> options;
    for (const std::string& text : texts) {
        auto option = parse_purchase_option(text);
        if (!option) {
            bad_purchase(text);
        }
        if (std::find(options.begin(), options.end(), *option) == options.end()) {
            options.push_back(*option);
        }
    }
    return options;
}

void apply_offers(Constraints& constraints, const WorkloadOverrides& o) {
    if (o.interruptible) {
        constraints.interruptible = *o.interruptible;
    }
    if (!o.purchase.empty()) {
        constraints.purchase = purchase_flag(o.purchase);
    }
    if (!o.providers.empty()) {
        constraints.providers = o.providers;
    }
    if (!o.regions.empty()) {
        constraints.regions = o.regions;
    }
}

void apply_inference(Inference& inference, const WorkloadOverrides& o) {
    if (o.rps) {
        inference.requests_per_second = positive_si(fields::k_requests_per_second, *o.rps);
    }
    if (o.latency_ms) {
        inference.latency_ms = number_in(fields::k_latency_ms.path, *o.latency_ms,
                                         k_latency_flag_range, k_latency_flag_range.description);
    }
    if (o.hours_per_day && inference.load) {
        throw FieldError(fields::k_hours_per_day.path,
                         "the workload's load curve gives the hours of service itself");
    }
    if (o.hours_per_day) {
        inference.hours_per_day =
            number_in(fields::k_hours_per_day.path, *o.hours_per_day, fields::k_hours_per_day.range,
                      "hours above 0 and at most 24");
    }
}

} // namespace

FieldError::FieldError(std::string_view path, const std::string& message)
    : UsageError(fmt::format("{}: {}", path, message)), m_path(path), m_message(message) {}

bool WorkloadOverrides::empty() const {
    return !params && !active_params && !tokens && !samples && !epochs && !task && !family &&
           !precision && !optimizer && !method && !sharding && !micro_batch && !mfu &&
           gpus.empty() && !gpu_count && !max_gpus && !deadline && !budget && !horizon &&
           !discount_rate && !interruptible && purchase.empty() && providers.empty() &&
           regions.empty() && !rps && !latency_ms && !hours_per_day && !currency;
}

void apply_overrides(Workload& workload, const WorkloadOverrides& overrides, FieldHint hint) {
    apply_task_and_currency(workload, overrides);
    apply_model_and_data(workload, overrides);
    apply_training(workload, overrides);
    apply_gpus(workload.constraints, overrides, hint);
    apply_time_and_money(workload, overrides);
    apply_offers(workload.constraints, overrides);
    apply_inference(workload.inference, overrides);
}

Workload workload_from_flags(const WorkloadOverrides& overrides, FieldHint hint) {
    if (overrides.empty()) {
        throw UsageError("no workload: no workload field is set");
    }
    Workload workload;
    workload.name = "workload";
    apply_overrides(workload, overrides, hint);
    return workload;
}

} // namespace gpuplan::workload

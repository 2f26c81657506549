#pragma once
// The workload fields a command-line flag can also set: each one's path in a workload file and
// what it accepts, read by both the file reader and apply_overrides so that a range or a list of
// names is written once. Private to the workload stage.

#include "detail/yaml_reader.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/units.hpp"
#include "gpuplan/workload/reader.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::workload::fields {

// A field holding one of `choices`; an enum's value is its name's index.
struct ChoiceField {
    std::string_view path; // JSON-pointer style, as diagnostics print it: /model/family
    const std::vector<std::string_view>& choices;
};

// A numeric field and the range it accepts; range.description is how errors describe it.
struct NumberField {
    std::string_view path;
    detail::NumberRange range;
};

// A whole-number field from 1 to `max`.
struct CountField {
    std::string_view path;
    std::int64_t max;
};

// A field with a syntax of its own (a duration, money, a currency code, a list of names).
struct TextField {
    std::string_view path;
    std::string_view description; // what a bad value was expected to be
};

// Any positive count or quantity: parameters, tokens, samples, requests per second.
inline constexpr detail::NumberRange k_positive_count{0.0, limits::k_max_magnitude, true,
                                                      "a positive number"};
// The largest model shape (layers, hidden size, micro-batch, ...) a file may give.
inline constexpr std::int64_t k_max_shape = 10'000'000;
// The longest planning horizon, in months.
inline constexpr double k_max_horizon_months = 1200.0;

extern const ChoiceField k_task;
extern const ChoiceField k_family;
// Parameters, tokens and samples are counted: fewer than one of them is no model or data (a
// subnormal 1e-320 would reach the estimate as a NaN).
inline constexpr detail::NumberRange k_count_from_one{1.0, limits::k_max_magnitude, false,
                                                      "a number from 1"};
inline constexpr NumberField k_params{"/model/params", k_count_from_one};
inline constexpr NumberField k_active_params{"/model/active_params", k_count_from_one};
inline constexpr NumberField k_tokens{"/data/tokens", k_count_from_one};
inline constexpr NumberField k_samples{"/data/samples", k_count_from_one};
inline constexpr NumberField k_epochs{"/data/epochs", k_positive_count};
extern const ChoiceField k_training_precision;
extern const ChoiceField k_inference_precision;
extern const ChoiceField k_engine;
extern const ChoiceField k_optimizer;
extern const ChoiceField k_method;
// The pinned ZeRO stages (fsdp is zero3); a file or flag may also say k_sharding_auto.
extern const ChoiceField k_sharding;
inline constexpr std::string_view k_sharding_auto = "auto";
inline constexpr CountField k_micro_batch{"/training/micro_batch", k_max_shape};
inline constexpr NumberField k_mfu{"/training/mfu",
                                   {k_min_mfu, 1.0, false, "a fraction from 0.001 to 1"}};
inline constexpr std::string_view k_gpu_models = "/constraints/gpu_models";
inline constexpr CountField k_gpu_count{"/constraints/gpu_count", limits::k_max_job_gpus};
inline constexpr CountField k_max_gpus{"/constraints/max_gpus", limits::k_max_job_gpus};
inline constexpr TextField k_deadline{"/constraints/deadline",
                                      "a duration such as 12h, 30d, 6w, 3mo or 1y"};
inline constexpr TextField k_budget{"/constraints/budget", "an amount such as 250000 USD"};
inline constexpr std::string_view k_horizon = "/horizon_months";
inline constexpr NumberField k_discount_rate{"/finance/discount_rate",
                                             {0.0, 1.0, false, "an annual rate from 0 to 1"}};
inline constexpr std::string_view k_interruptible = "/constraints/interruptible";
// The published purchase option names, in k_all_purchase_options order.
extern const ChoiceField k_purchase;
inline constexpr std::string_view k_providers = "/constraints/providers";
inline constexpr std::string_view k_regions = "/constraints/regions";
inline constexpr NumberField k_requests_per_second{"/inference/requests_per_second",
                                                   k_positive_count};
inline constexpr NumberField k_latency_ms{"/inference/latency_ms", k_positive_count};
inline constexpr NumberField k_hours_per_day{
    "/inference/hours_per_day",
    {0.0, gpuplan::k_hours_per_day, true, "a number of hours above 0 and at most 24"}};
inline constexpr TextField k_currency{"/finance/currency",
                                      "an ISO 4217 currency code such as USD or CNY"};

// What `hint` calls the field at `path`; empty without a hint or a name.
[[nodiscard]] std::string_view hint_of(std::string_view path, FieldHint hint);

// `path` as the messages about a missing field print it: /model/params is model.params.
[[nodiscard]] std::string dotted(std::string_view path);

} // namespace gpuplan::workload::fields

#include "gpuplan/workload/workload.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace gpuplan::workload {

namespace {

template <typename Enum, std::size_t N>
std::optional<Enum> parse_enum(const std::array<std::pair<std::string_view, Enum>, N>& names,
                               std::string_view text) {
    for (const auto& [name, value] : names) {
        if (name == text) {
            return value;
        }
    }
    return std::nullopt;
}

template <typename Enum, std::size_t N>
std::string_view name_of(const std::array<std::pair<std::string_view, Enum>, N>& names,
                         Enum value) {
    for (const auto& [name, candidate] : names) {
        if (candidate == value) {
            return name;
        }
    }
    return "?";
}

constexpr std::array<std::pair<std::string_view, Task>, 3> k_tasks{
    {{"train", Task::train}, {"finetune", Task::finetune}, {"inference", Task::inference}}};
constexpr std::array<std::pair<std::string_view, Family>, 3> k_families{
    {{"transformer", Family::transformer}, {"cnn", Family::cnn}, {"custom", Family::custom}}};
constexpr std::array<std::pair<std::string_view, Optimizer>, 4> k_optimizers{
    {{"adamw", Optimizer::adamw},
     {"sgd", Optimizer::sgd},
     {"adafactor", Optimizer::adafactor},
     {"adamw_8bit", Optimizer::adamw_8bit}}};
constexpr std::array<std::pair<std::string_view, Method>, 3> k_methods{
    {{"full", Method::full}, {"lora", Method::lora}, {"qlora", Method::qlora}}};
constexpr std::array<std::pair<std::string_view, Sharding>, 5> k_shardings{
    {{"none", Sharding::none},
     {"zero1", Sharding::zero1},
     {"zero2", Sharding::zero2},
     {"zero3", Sharding::zero3},
     {"fsdp", Sharding::zero3}}};
constexpr std::array<std::pair<std::string_view, Recompute>, 3> k_recomputes{
    {{"none", Recompute::none}, {"selective", Recompute::selective}, {"full", Recompute::full}}};
constexpr std::array<std::pair<std::string_view, Engine>, 5> k_engines{
    {{"generic", Engine::generic},
     {"vllm", Engine::vllm},
     {"sglang", Engine::sglang},
     {"tensorrt-llm", Engine::tensorrt_llm},
     {"tgi", Engine::tgi}}};
constexpr std::array<std::pair<std::string_view, Engine>, 4> k_engine_spellings{
    {{"trtllm", Engine::tensorrt_llm},
     {"tensorrt_llm", Engine::tensorrt_llm},
     {"trt-llm", Engine::tensorrt_llm},
     {"text-generation-inference", Engine::tgi}}};
constexpr std::array<std::pair<std::string_view, Offload>, 2> k_offloads{
    {{"none", Offload::none}, {"optimizer", Offload::optimizer}}};

} // namespace

std::string_view to_string(Task value) {
    return name_of(k_tasks, value);
}
std::string_view to_string(Family value) {
    return name_of(k_families, value);
}
std::string_view to_string(Optimizer value) {
    return name_of(k_optimizers, value);
}
std::string_view to_string(Method value) {
    return name_of(k_methods, value);
}
std::string_view to_string(Batching value) {
    return value == Batching::static_batch ? "static" : "continuous";
}
std::string_view to_string(Engine value) {
    return name_of(k_engines, value);
}
std::optional<Engine> parse_engine(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (auto engine = parse_enum(k_engines, lower)) {
        return engine;
    }
    return parse_enum(k_engine_spellings, lower);
}
std::string_view to_string(Sharding value) {
    return name_of(k_shardings, value);
}
std::string_view to_string(Recompute value) {
    return name_of(k_recomputes, value);
}
std::string_view to_string(Offload value) {
    return name_of(k_offloads, value);
}

std::optional<Task> parse_task(std::string_view text) {
    return parse_enum(k_tasks, text);
}
std::optional<Family> parse_family(std::string_view text) {
    return parse_enum(k_families, text);
}
std::optional<Optimizer> parse_optimizer(std::string_view text) {
    return parse_enum(k_optimizers, text);
}
std::optional<Method> parse_method(std::string_view text) {
    return parse_enum(k_methods, text);
}
std::optional<Sharding> parse_sharding(std::string_view text) {
    return parse_enum(k_shardings, text);
}

} // namespace gpuplan::workload

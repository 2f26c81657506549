#include "gpuplan/decide/facts.hpp"

#include "gpuplan/enum_names.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <limits>

namespace gpuplan::decide {

namespace {

using workload::Task;

const std::vector<FactDefinition> k_facts{
    {"task", FactType::string, "", "workload `task`", {"train", "finetune", "inference"}},
    {"family", FactType::string, "", "workload `model.family`", {"transformer", "cnn", "custom"}},
    {"params", FactType::number, "parameters", "workload `model.params`", {}},
    {"active_params",
     FactType::number,
     "parameters",
     "workload `model.active_params` (default: `params`)",
     {}},
    {"method",
     FactType::string,
     "",
     "workload `training.method`; absent for inference",
     {"full", "lora", "qlora"}},
    {"precision",
     FactType::string,
     "",
     "`training.precision` for train and finetune, `inference.precision` for inference",
     {"fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4", "nvfp4", "mxfp4"}},
    {"interruptible",
     FactType::boolean,
     "",
     "workload `constraints.interruptible`: the job checkpoints and may be interrupted",
     {}},
    {"deadline_hours",
     FactType::number,
     "hours",
     "workload `constraints.deadline`; absent without a deadline",
     {}},
    {"horizon_months", FactType::number, "months", "workload `horizon_months`", {}},
    {"runs", FactType::number, "runs", "workload `schedule.runs`", {}},
    {"hours_per_day",
     FactType::number,
     "hours",
     "inference: `inference.hours_per_day`; absent for training",
     {}},
    {"latency_ms",
     FactType::number,
     "milliseconds",
     "inference: `inference.latency_ms`; absent without a latency target and for training",
     {}},
    {"ms_per_output_token",
     FactType::number,
     "milliseconds",
     "inference, transformer: `latency_ms` / `inference.output_tokens`, the time per output "
     "token the latency target allows; absent without a latency target",
     {}},
    {"requests_per_second",
     FactType::number,
     "requests per second",
     "inference: `inference.requests_per_second`; absent for training",
     {}},
    {"currency", FactType::string, "", "currency of the money facts (ISO 4217)", {}},
    {"budget",
     FactType::number,
     "currency",
     "workload `constraints.budget` converted to `currency` through the catalog's fx rates; "
     "absent without a budget",
     {}},
    {"plan_months",
     FactType::number,
     "months",
     "months the budget is spread over: inference `horizon_months`; training `runs` x "
     "`schedule.every_months`, at least 1 and at most `horizon_months`",
     {}},
    {"budget_per_month", FactType::number, "currency", "`budget` / `plan_months`", {}},
    {"budget_per_month_usd",
     FactType::number,
     "USD",
     "`budget_per_month` in USD through the catalog's fx rates",
     {}},
    {"budget_per_month_cny",
     FactType::number,
     "CNY",
     "`budget_per_month` in CNY through the catalog's fx rates",
     {}},
    {"gpu_models",
     FactType::list,
     "",
     "GPU models in the search: the estimated models in estimate order (without estimates: the "
     "catalog's models, narrowed by `constraints.gpu_models`)",
     {}},
    {"min_gpus",
     FactType::number,
     "GPUs",
     "fewest GPUs the job fits on in memory, over every estimated model",
     {}},
    {"gpu_count",
     FactType::number,
     "GPUs",
     "fewest GPUs any estimate runs the job on (fit and deadline)",
     {}},
    {"nodes",
     FactType::number,
     "nodes",
     "fewest nodes any estimate runs the job on; above 1, every option is multi-node",
     {}},
    {"fits_one_gpu", FactType::boolean, "", "`min_gpus` is 1: some model holds the job alone", {}},
    {"memory_needed_gib",
     FactType::number,
     "GiB",
     "smallest total GPU memory in use over the estimates: memory per GPU x GPU count",
     {}},
    {"wall_hours",
     FactType::number,
     "hours",
     "shortest wall time over the estimates (per run; inference: service hours per month)",
     {}},
    {"busy_fraction",
     FactType::number,
     "fraction",
     "share of the horizon the GPUs are busy: inference `hours_per_day` / 24; training "
     "`runs` x `wall_hours` / (`horizon_months` x 730), at most 1",
     {}},
};

std::string_view precision_name(const workload::Workload& workload) {
    return catalog::to_string(workload.task == Task::inference ? workload.inference.precision
                                                               : workload.training.precision);
}

// The GPU models in the search when there are no estimates to take them from.
std::vector<std::string> catalog_models(const workload::Workload& workload,
                                        const catalog::Catalog& catalog) {
    std::vector<std::string> out;
    for (const catalog::Gpu& gpu : catalog.gpus) {
        const auto& wanted = workload.constraints.gpu_models;
        const bool allowed =
            wanted.empty() ||
            std::any_of(wanted.begin(), wanted.end(), [&](const std::string& name) {
                const catalog::Gpu* match = catalog::find_gpu(catalog, name);
                return match != nullptr && match->name == gpu.name;
            });
        if (allowed) {
            out.push_back(gpu.name);
        }
    }
    return out;
}

void add_estimate_facts(Facts& facts, const workload::Workload& workload,
                        std::span<const estimate::GpuEstimate> estimates) {
    std::vector<std::string> models;
    for (const estimate::GpuEstimate& e : estimates) {
        if (std::find(models.begin(), models.end(), e.gpu) == models.end()) {
            models.push_back(e.gpu);
        }
    }
    facts["gpu_models"] = models;
    if (estimates.empty()) {
        return;
    }
    constexpr double k_none = std::numeric_limits<double>::max();
    double min_gpus = k_none;
    double gpu_count = k_none;
    double nodes = k_none;
    double memory = k_none;
    double wall_hours = k_none;
    for (const estimate::GpuEstimate& e : estimates) {
        if (e.min_gpus > 0) {
            min_gpus = std::min(min_gpus, static_cast<double>(e.min_gpus));
        }
        if (e.gpu_count > 0) {
            gpu_count = std::min(gpu_count, static_cast<double>(e.gpu_count));
            memory = std::min(memory, e.memory_per_gpu_gib * e.gpu_count);
            wall_hours = std::min(wall_hours, e.wall_hours);
        }
        if (e.nodes > 0) {
            nodes = std::min(nodes, static_cast<double>(e.nodes));
        }
    }
    if (min_gpus != k_none) {
        facts["min_gpus"] = min_gpus;
        facts["fits_one_gpu"] = min_gpus <= 1.0;
    }
    if (gpu_count != k_none) {
        facts["gpu_count"] = gpu_count;
        facts["memory_needed_gib"] = memory;
        facts["wall_hours"] = wall_hours;
    }
    if (nodes != k_none) {
        facts["nodes"] = nodes;
    }
    if (workload.task != Task::inference && wall_hours != k_none && workload.horizon_months > 0.0) {
        const double busy =
            workload.schedule.runs * wall_hours / (workload.horizon_months * k_hours_per_month);
        facts["busy_fraction"] = std::min(1.0, busy);
    }
}

void add_money_facts(Facts& facts, const workload::Workload& workload,
                     const catalog::Catalog& catalog, std::string_view currency) {
    const std::string money_currency =
        currency.empty() ? workload.finance.currency : std::string(currency);
    facts["currency"] = money_currency;
    const double plan_months =
        workload.task == Task::inference
            ? workload.horizon_months
            : std::clamp(workload.schedule.runs * workload.schedule.every_months, 1.0,
                         std::max(1.0, workload.horizon_months));
    if (plan_months > 0.0) {
        facts["plan_months"] = plan_months;
    }
    const auto& budget = workload.constraints.budget;
    if (!budget) {
        return;
    }
    auto rate = catalog::fx_rate(catalog, budget->currency, money_currency);
    if (!rate) {
        return;
    }
    const double amount = budget->amount * *rate;
    facts["budget"] = amount;
    if (plan_months <= 0.0) {
        return;
    }
    facts["budget_per_month"] = amount / plan_months;
    for (auto [code, name] :
         {std::pair{"USD", "budget_per_month_usd"}, std::pair{"CNY", "budget_per_month_cny"}}) {
        if (auto to = catalog::fx_rate(catalog, money_currency, code)) {
            facts[name] = amount / plan_months * *to;
        }
    }
}

} // namespace

const std::vector<FactDefinition>& fact_definitions() {
    return k_facts;
}

const FactDefinition* find_fact(std::string_view name) {
    for (const FactDefinition& fact : k_facts) {
        if (fact.name == name) {
            return &fact;
        }
    }
    return nullptr;
}

// Names of the values (a constant: internal linkage).
constexpr EnumNames k_fact_type_names{
    std::to_array<std::pair<std::string_view, FactType>>({{"number", FactType::number},
                                                          {"string", FactType::string},
                                                          {"bool", FactType::boolean},
                                                          {"list", FactType::list}})};

std::string_view to_string(FactType type) {
    return k_fact_type_names.name(type);
}

FactType type_of(const FactValue& value) {
    switch (value.index()) {
    case 0:
        return FactType::number;
    case 1:
        return FactType::string;
    case 2:
        return FactType::boolean;
    default:
        return FactType::list;
    }
}

Facts make_facts(const workload::Workload& workload,
                 std::span<const estimate::GpuEstimate> estimates, const catalog::Catalog& catalog,
                 std::string_view currency) {
    Facts facts;
    facts["task"] = std::string(workload::to_string(workload.task));
    facts["family"] = std::string(workload::to_string(workload.model.family));
    facts["params"] = workload.model.params;
    facts["active_params"] = workload.model.active_params.value_or(workload.model.params);
    facts["precision"] = std::string(precision_name(workload));
    facts["interruptible"] = workload.constraints.interruptible;
    if (workload.constraints.deadline_hours) {
        facts["deadline_hours"] = *workload.constraints.deadline_hours;
    }
    facts["horizon_months"] = workload.horizon_months;
    facts["runs"] = static_cast<double>(workload.schedule.runs);
    if (workload.task == Task::inference) {
        facts["hours_per_day"] = workload.inference.hours_per_day;
        facts["requests_per_second"] = workload.inference.requests_per_second;
        facts["busy_fraction"] = std::min(1.0, workload.inference.hours_per_day / k_hours_per_day);
        if (workload.inference.latency_ms) {
            facts["latency_ms"] = *workload.inference.latency_ms;
            if (workload.model.family == workload::Family::transformer &&
                workload.inference.output_tokens > 0.0) {
                facts["ms_per_output_token"] =
                    *workload.inference.latency_ms / workload.inference.output_tokens;
            }
        }
    } else {
        facts["method"] = std::string(workload::to_string(workload.training.method));
    }
    add_money_facts(facts, workload, catalog, currency);
    add_estimate_facts(facts, workload, estimates);
    if (estimates.empty()) {
        facts["gpu_models"] = catalog_models(workload, catalog);
    }
    return facts;
}

} // namespace gpuplan::decide

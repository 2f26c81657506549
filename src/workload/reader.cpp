#include "gpuplan/workload/reader.hpp"

#include "detail/strings.hpp"
#include "detail/yaml_reader.hpp"
#include "gpuplan/limits.hpp"
#include "workload/fields.hpp"
#include "workload/load_reader.hpp"
#include "workload/node_reader.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuplan::workload {

namespace {

using detail::NumberRange;
using detail::YamlNode;

using fields::k_max_shape;
using fields::k_positive_count;

constexpr NumberRange k_confidence_range{0.5, 0.999, false, "a confidence from 0.5 to 0.999"};

template <typename T> void assign(T& target, const std::optional<T>& value) {
    if (value) {
        target = *value;
    }
}

// A whole number, SI suffixes allowed (`4k`).
std::optional<int> int_at(const YamlNode& map, std::string_view key, std::int64_t min,
                          std::int64_t max) {
    auto child = map.get(key);
    if (!child) {
        return std::nullopt;
    }
    std::optional<double> value;
    if (child->is_scalar()) {
        value = parse_si_number(child->raw().Scalar());
    }
    if (!value || *value != std::floor(*value) || *value < static_cast<double>(min) ||
        *value > static_cast<double>(max)) {
        child->error(fmt::format("expected a whole number from {} to {}, got \"{}\"", min, max,
                                 child->is_scalar() ? child->raw().Scalar() : "a non-scalar"));
        return std::nullopt;
    }
    return static_cast<int>(*value);
}

std::optional<double> si_at(const YamlNode& map, std::string_view key, const NumberRange& range) {
    auto child = map.get(key);
    return child ? child->as_si_number(range) : std::nullopt;
}

// A fraction written as `0.4` or `40%`, inside `range`.
std::optional<double> fraction_of(const YamlNode& node, const NumberRange& range) {
    std::optional<double> value;
    if (node.is_scalar()) {
        value = parse_fraction(node.raw().Scalar());
    }
    const bool below = value && (range.min_exclusive ? *value <= range.min : *value < range.min);
    if (!value || below || *value > range.max) {
        node.error(fmt::format("expected {} (0.4 or 40%), got \"{}\"", range.description,
                               node.is_scalar() ? node.raw().Scalar() : "a non-scalar"));
        return std::nullopt;
    }
    return value;
}

std::optional<bool> bool_at(const YamlNode& map, std::string_view key) {
    auto child = map.get(key);
    return child ? child->as_bool() : std::nullopt;
}

std::optional<Precision> precision_at(const YamlNode& map, const fields::ChoiceField& field) {
    auto child = map.get("precision");
    if (!child) {
        return std::nullopt;
    }
    auto index = child->as_choice(field.choices);
    if (!index) {
        return std::nullopt;
    }
    return catalog::parse_precision(field.choices.at(*index));
}

// The value of the choice `field` at `key` of `map`, as the enum whose values are the names'
// indices.
template <typename Enum>
std::optional<Enum> choice_at(const YamlNode& map, std::string_view key,
                              const fields::ChoiceField& field) {
    auto child = map.get(key);
    if (!child) {
        return std::nullopt;
    }
    auto index = child->as_choice(field.choices);
    return index ? std::optional<Enum>(static_cast<Enum>(*index)) : std::nullopt;
}

// A file's sharding names: the pinned stages, then `auto` (the search).
const std::vector<std::string_view>& sharding_names() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> out = fields::k_sharding.choices;
        out.push_back(fields::k_sharding_auto);
        return out;
    }();
    return names;
}

// The MoE keys (E4.9): both or neither, top-k below the expert count, and an active share
// that leaves the dense part at least zero.
void read_experts(const YamlNode& node, Model& model) {
    model.experts = int_at(node, "experts", 2, k_max_shape);
    model.experts_per_token = int_at(node, "experts_per_token", 1, k_max_shape);
    if (model.experts.has_value() != model.experts_per_token.has_value()) {
        node.get(model.experts ? "experts" : "experts_per_token")
            ->error("experts and experts_per_token go together");
        return;
    }
    if (!model.experts) {
        return;
    }
    if (*model.experts_per_token >= *model.experts) {
        node.get("experts_per_token")
            ->error(fmt::format("experts_per_token ({}) must be below experts ({})",
                                *model.experts_per_token, *model.experts));
        return;
    }
    if (!model.active_params || *model.active_params >= model.params) {
        node.get("experts")->error("a mixture of experts needs active_params below params");
        return;
    }
    const double per_expert =
        (model.params - *model.active_params) / (*model.experts - *model.experts_per_token);
    if (*model.active_params < *model.experts_per_token * per_expert) {
        node.get("active_params")
            ->error(fmt::format("active_params ({:g}) is below the {} routed experts a token "
                                "uses ({:g} parameters each, from params and experts)",
                                *model.active_params, *model.experts_per_token, per_expert));
    }
}

void read_model(const YamlNode& node, Model& model) {
    if (!node.expect_map({"family", "params", "active_params", "layers", "hidden", "heads",
                          "kv_heads", "head_dim", "seq_len", "flops_per_sample", "reference",
                          "experts", "experts_per_token"})) {
        return;
    }
    assign(model.family, choice_at<Family>(node, "family", fields::k_family));
    if (auto params = node.require("params")) {
        assign(model.params, params->as_si_number(k_positive_count));
    }
    model.active_params = si_at(node, "active_params", k_positive_count);
    if (model.active_params && model.params > 0.0 && *model.active_params > model.params) {
        node.get("active_params")
            ->error(fmt::format("active_params ({:g}) cannot exceed params ({:g})",
                                *model.active_params, model.params));
    }
    model.layers = int_at(node, "layers", 1, k_max_shape);
    model.hidden = int_at(node, "hidden", 1, k_max_shape);
    model.heads = int_at(node, "heads", 1, k_max_shape);
    model.kv_heads = int_at(node, "kv_heads", 1, k_max_shape);
    model.head_dim = int_at(node, "head_dim", 1, k_max_shape);
    model.seq_len = int_at(node, "seq_len", 1, k_max_shape);
    if (model.hidden && model.heads && *model.hidden % *model.heads != 0) {
        node.get("heads")->error(fmt::format("hidden ({}) must be a multiple of heads ({})",
                                             *model.hidden, *model.heads));
    }
    if (model.heads && model.kv_heads && *model.heads % *model.kv_heads != 0) {
        node.get("kv_heads")
            ->error(fmt::format("heads ({}) must be a multiple of kv_heads ({})", *model.heads,
                                *model.kv_heads));
    }
    model.flops_per_sample = si_at(node, "flops_per_sample", k_positive_count);
    assign(model.reference, node.string_at("reference", false));
    read_experts(node, model);
}

void read_data(const YamlNode& node, Data& data) {
    if (!node.expect_map({"tokens", "samples", "epochs", "dataset_gb",
                          "decode_samples_per_second_per_vcpu", "mean_seq_len", "packing"})) {
        return;
    }
    data.tokens = si_at(node, "tokens", k_positive_count);
    data.samples = si_at(node, "samples", k_positive_count);
    assign(data.epochs, si_at(node, "epochs", k_positive_count));
    data.dataset_gb = si_at(node, "dataset_gb", detail::k_non_negative);
    data.decode_samples_per_second_per_vcpu =
        si_at(node, "decode_samples_per_second_per_vcpu", k_positive_count);
    data.mean_seq_len = si_at(node, "mean_seq_len", k_positive_count);
    assign(data.packing, bool_at(node, "packing"));
}

// data.mean_seq_len is a transformer's and at most model.seq_len (E2.6).
void check_mean_seq_len(const YamlNode& root, const Workload& workload) {
    const std::optional<double>& mean = workload.data.mean_seq_len;
    if (!mean) {
        return;
    }
    const auto where = root.get("data")->get("mean_seq_len");
    if (workload.model.family != Family::transformer) {
        where->error("mean_seq_len applies to a transformer");
    } else if (workload.model.seq_len && *mean > *workload.model.seq_len) {
        where->error(fmt::format("mean_seq_len ({:g}) exceeds model.seq_len ({})", *mean,
                                 *workload.model.seq_len));
    }
}

// `auto` leaves the stage to the search; fsdp is zero3.
void read_sharding(const YamlNode& node, Training& training) {
    auto sharding = node.get("sharding");
    if (!sharding) {
        return;
    }
    const std::size_t pinned = fields::k_sharding.choices.size();
    if (auto index = sharding->as_choice(sharding_names()); index && *index < pinned) {
        training.sharding = parse_sharding(fields::k_sharding.choices.at(*index));
    }
}

void read_training(const YamlNode& node, Training& training) {
    if (!node.expect_map({"precision", "optimizer", "method", "sharding", "micro_batch",
                          "activation_checkpointing", "mfu", "global_batch_tokens",
                          "tensor_parallel", "pipeline_parallel", "context_parallel",
                          "expert_parallel", "flash_attention", "fp32_gradients", "offload"})) {
        return;
    }
    assign(training.precision, precision_at(node, fields::k_training_precision));
    assign(training.optimizer, choice_at<Optimizer>(node, "optimizer", fields::k_optimizer));
    assign(training.method, choice_at<Method>(node, "method", fields::k_method));
    read_sharding(node, training);
    assign(training.micro_batch, int_at(node, "micro_batch", 1, fields::k_micro_batch.max));
    if (auto recompute = node.get("activation_checkpointing")) {
        // true and false as before; or the mode by name.
        constexpr std::array<Recompute, 9> k_modes{
            Recompute::none, Recompute::none,      Recompute::none,
            Recompute::full, Recompute::full,      Recompute::full,
            Recompute::none, Recompute::selective, Recompute::full};
        if (auto index = recompute->as_choice(
                {"false", "False", "FALSE", "true", "True", "TRUE", "none", "selective", "full"})) {
            training.recompute = k_modes.at(*index);
        }
    }
    assign(training.fp32_gradients, bool_at(node, "fp32_gradients"));
    if (auto offload = node.get("offload")) {
        if (auto index = offload->as_choice({"none", "optimizer"})) {
            training.offload = static_cast<Offload>(*index);
        }
    }
    training.context_parallel = int_at(node, "context_parallel", 1, k_max_shape);
    training.expert_parallel = int_at(node, "expert_parallel", 1, k_max_shape);
    if (auto mfu = node.get("mfu")) {
        training.mfu = fraction_of(*mfu, fields::k_mfu.range);
    }
    training.global_batch_tokens = si_at(node, "global_batch_tokens", k_positive_count);
    training.tensor_parallel = int_at(node, "tensor_parallel", 1, k_max_shape);
    training.pipeline_parallel = int_at(node, "pipeline_parallel", 1, k_max_shape);
    assign(training.flash_attention, bool_at(node, "flash_attention"));
}

// `<key>_p90`, the 90th-percentile length: a count not below the mean `<key>` (E7).
std::optional<double> length_p90(const YamlNode& node, const std::string& key, double mean) {
    const std::string name = key + "_p90";
    std::optional<double> p90 = si_at(node, name, detail::k_non_negative);
    if (p90 && *p90 < mean) {
        node.get(name)->error(
            fmt::format("{} ({:g}) is below the mean {} ({:g})", name, *p90, key, mean));
        return std::nullopt;
    }
    return p90;
}

// The serving keys of `inference` (docs/workload-format.md): batching, limits and targets.
void read_serving(const YamlNode& node, Inference& inference) {
    if (auto batching = node.get("batching")) {
        if (auto index = batching->as_choice({"continuous", "static"})) {
            inference.batching = static_cast<Batching>(*index);
        }
    }
    if (auto engine = node.get("engine")) {
        if (auto index = engine->as_choice(fields::k_engine.choices)) {
            inference.engine = static_cast<workload::Engine>(*index);
        }
    }
    inference.max_batch = int_at(node, "max_batch", 1, k_max_shape);
    inference.tensor_parallel = int_at(node, "tensor_parallel", 1, k_max_shape);
    if (auto ttft = node.get("ttft_ms")) {
        inference.ttft_ms = ttft->as_number(k_positive_count);
    }
    if (auto tpot = node.get("tpot_ms")) {
        inference.tpot_ms = tpot->as_number(k_positive_count);
    }
    if (auto percentile = node.get("percentile")) {
        if (auto index = percentile->as_choice({"50", "90"})) {
            inference.percentile = *index == 0 ? 50 : 90;
        }
    }
}

void read_inference(const YamlNode& node, Inference& inference, const FileLoader& load) {
    if (!node.expect_map({"precision", "requests_per_second", "input_tokens", "output_tokens",
                          "batch", "latency_ms", "hours_per_day", "batching", "engine", "max_batch",
                          "tensor_parallel", "ttft_ms", "tpot_ms", "percentile", "input_tokens_p90",
                          "output_tokens_p90", "load", "autoscaling"})) {
        return;
    }
    read_serving(node, inference);
    assign(inference.precision, precision_at(node, fields::k_inference_precision));
    assign(inference.requests_per_second, si_at(node, "requests_per_second", k_positive_count));
    assign(inference.input_tokens, si_at(node, "input_tokens", detail::k_non_negative));
    assign(inference.output_tokens, si_at(node, "output_tokens", k_positive_count));
    assign(inference.batch, int_at(node, "batch", 1, k_max_shape));
    if (auto latency = node.get("latency_ms")) {
        inference.latency_ms = latency->as_number(k_positive_count);
    }
    if (auto hours = node.get("hours_per_day")) {
        assign(inference.hours_per_day, hours->as_number(fields::k_hours_per_day.range));
    }
    inference.input_tokens_p90 = length_p90(node, "input_tokens", inference.input_tokens);
    inference.output_tokens_p90 = length_p90(node, "output_tokens", inference.output_tokens);
    if (auto curve = node.get("load")) {
        if (node.get("hours_per_day")) {
            node.get("hours_per_day")
                ->error("a load curve gives the hours of service itself; drop hours_per_day");
        }
        read_load(*curve, inference, node.get("requests_per_second").has_value(), load);
    }
    if (auto autoscaling = node.get("autoscaling")) {
        read_autoscaling(*autoscaling, inference);
    }
}

void read_schedule(const YamlNode& node, Schedule& schedule) {
    if (!node.expect_map({"runs", "every_months"})) {
        return;
    }
    assign(schedule.runs, int_at(node, "runs", 1, 10'000));
    if (auto every = node.get("every_months")) {
        assign(schedule.every_months, every->as_number(k_positive_count));
    }
}

std::optional<std::vector<PurchaseOption>> purchase_list(const YamlNode& node) {
    std::vector<YamlNode> items;
    if (node.is_scalar()) {
        items.push_back(node);
    } else if (node.expect_sequence()) {
        items = node.items();
    } else {
        return std::nullopt;
    }
    std::vector<PurchaseOption> out;
    for (const YamlNode& item : items) {
        if (auto index = item.as_choice(fields::k_purchase.choices)) {
            const PurchaseOption option = k_all_purchase_options.at(*index);
            if (std::find(out.begin(), out.end(), option) == out.end()) {
                out.push_back(option);
            }
        }
    }
    return out;
}

// Whether `code` is one the catalog converts (every code when `known` is empty); else reports it
// at `node`.
bool known_currency(const YamlNode& node, std::string_view code,
                    std::span<const std::string> known) {
    if (known.empty() || std::find(known.begin(), known.end(), code) != known.end()) {
        return true;
    }
    node.error(fmt::format("unknown currency {}: the catalog has exchange rates for {}", code,
                           fmt::join(known, ", ")));
    return false;
}

// Reports each name of the list `node` that is not in `known` (no check when `known` is empty),
// with the closest known name.
void check_names(const YamlNode& node, std::string_view what, std::span<const std::string> known,
                 bool ignore_case = false) {
    if (known.empty() || !(node.is_sequence() || node.is_scalar())) {
        return;
    }
    const std::vector<std::string_view> views(known.begin(), known.end());
    for (const YamlNode& item : node.is_scalar() ? std::vector<YamlNode>{node} : node.items()) {
        const auto name = item.as_string();
        const auto same = [&](const std::string& k) {
            return ignore_case ? detail::iequals(k, *name) : k == *name;
        };
        if (name && std::none_of(known.begin(), known.end(), same)) {
            const std::string hint = detail::closest_match(*name, views);
            item.error(fmt::format("unknown {} '{}'{}", what, *name,
                                   hint.empty() ? std::string("; gpuplan catalog list shows them")
                                                : fmt::format("; did you mean '{}'?", hint)));
        }
    }
}

void read_constraints(const YamlNode& node, Constraints& constraints, const std::string& currency,
                      std::span<const std::string> known, const KnownPlaces& places) {
    if (!node.expect_map({"deadline", "budget", "providers", "regions", "gpu_models", "gpu_count",
                          "max_gpus", "interruptible", "purchase", "deadline_confidence"})) {
        return;
    }
    if (auto deadline = node.get("deadline")) {
        constraints.deadline_hours = deadline->as_duration_hours();
        // The same limits as --deadline and --budget (docs/limits.md `hours`, `money`).
        if (constraints.deadline_hours && !(*constraints.deadline_hours > 0.0 &&
                                            *constraints.deadline_hours <= limits::k_max_hours)) {
            deadline->error(fmt::format("expected a duration above 0 and at most 1e18 hours, "
                                        "got {:g} hours",
                                        *constraints.deadline_hours));
            constraints.deadline_hours.reset();
        }
    }
    if (auto confidence = node.get("deadline_confidence")) {
        assign(constraints.deadline_confidence, fraction_of(*confidence, k_confidence_range));
    }
    if (auto budget = node.get("budget")) {
        constraints.budget = budget->as_money(currency);
        if (constraints.budget && !(constraints.budget->amount >= 0.0 &&
                                    constraints.budget->amount <= limits::k_max_money)) {
            budget->error(fmt::format("expected an amount from 0 to 1e18, got {:g}",
                                      constraints.budget->amount));
            constraints.budget.reset();
        }
        if (constraints.budget && !known_currency(*budget, constraints.budget->currency, known)) {
            constraints.budget.reset();
        }
    }
    for (auto [key, target] : {std::pair{"providers", &constraints.providers},
                               std::pair{"regions", &constraints.regions},
                               std::pair{"gpu_models", &constraints.gpu_models}}) {
        if (auto list = node.get(key)) {
            assign(*target, list->as_string_list());
            if (target == &constraints.providers) {
                check_names(*list, "provider", places.providers);
            } else if (target == &constraints.regions) {
                check_names(*list, "region", places.regions);
            } else {
                check_names(*list, "GPU model", places.gpus, true);
            }
        }
    }
    constraints.gpu_count = int_at(node, "gpu_count", 1, fields::k_gpu_count.max);
    constraints.max_gpus = int_at(node, "max_gpus", 1, fields::k_max_gpus.max);
    if (constraints.gpu_count && constraints.max_gpus &&
        *constraints.gpu_count > *constraints.max_gpus) {
        node.get("gpu_count")
            ->error(fmt::format("gpu_count ({}) exceeds max_gpus ({})", *constraints.gpu_count,
                                *constraints.max_gpus));
    }
    assign(constraints.interruptible, bool_at(node, "interruptible"));
    if (auto purchase = node.get("purchase")) {
        assign(constraints.purchase, purchase_list(*purchase));
    }
}

void read_finance(const YamlNode& node, Finance& finance, std::span<const std::string> known) {
    if (!node.expect_map({"discount_rate", "currency"})) {
        return;
    }
    if (auto rate = node.get("discount_rate")) {
        assign(finance.discount_rate, fraction_of(*rate, fields::k_discount_rate.range));
    }
    if (auto currency = node.get("currency")) {
        if (auto code = currency->as_string()) {
            if (!is_currency_code(*code)) {
                currency->error(
                    fmt::format("expected {}, got \"{}\"", fields::k_currency.description, *code));
            } else if (known_currency(*currency, *code, known)) {
                finance.currency = *code;
            }
        }
    }
}

void read_sources(const YamlNode& node, std::vector<Reference>& sources) {
    if (!node.expect_sequence()) {
        return;
    }
    for (const YamlNode& item : node.items()) {
        if (!item.expect_map({"title", "url"})) {
            continue;
        }
        Reference reference;
        assign(reference.title, item.string_at("title", true));
        assign(reference.url, item.string_at("url", true));
        sources.push_back(std::move(reference));
    }
}

// Relative difference from which data.tokens and the stages' sum disagree.
constexpr double k_stage_tokens_tolerance = 1e-3;

// The stages of a multi-stage training run (docs/workload-format.md): a transformer trained or
// fine-tuned stage after stage; data.tokens becomes their sum (or must equal it).
void read_stages(const YamlNode& node, Workload& workload) {
    if (workload.task == Task::inference || workload.model.family != Family::transformer) {
        node.error("stages apply to training a transformer (task train or finetune)");
        return;
    }
    if (!node.expect_sequence()) {
        return;
    }
    double total = 0.0;
    for (const YamlNode& item : node.items()) {
        if (!item.expect_map({"name", "tokens", "seq_len", "global_batch_tokens"})) {
            continue;
        }
        Stage stage;
        assign(stage.name, item.string_at("name", true));
        if (auto tokens = item.require("tokens")) {
            assign(stage.tokens, tokens->as_si_number(k_positive_count));
        }
        stage.seq_len = int_at(item, "seq_len", 1, k_max_shape);
        stage.global_batch_tokens = si_at(item, "global_batch_tokens", k_positive_count);
        total += stage.tokens;
        workload.stages.push_back(std::move(stage));
    }
    if (workload.stages.empty()) {
        node.error("expected at least one stage");
    } else if (!workload.data.tokens) {
        workload.data.tokens = total;
    } else if (std::abs(*workload.data.tokens - total) > k_stage_tokens_tolerance * total) {
        node.error(fmt::format("the stages' tokens add up to {:g}, but data.tokens is {:g}; give "
                               "one or make them agree",
                               total, *workload.data.tokens));
    }
}

// Months as a number, or a duration converted at 730 hours per month (`3y` = 36).
void read_horizon(const YamlNode& node, double& months) {
    std::optional<double> value;
    if (node.is_scalar()) {
        const std::string& text = node.raw().Scalar();
        value = parse_number(text);
        if (!value) {
            if (auto hours = parse_duration_hours(text)) {
                value = *hours / k_hours_per_month;
            }
        }
    }
    if (!value || *value <= 0.0 || *value > fields::k_max_horizon_months) {
        node.error(fmt::format("expected months above 0 and at most {:g} (36) or a duration (3y), "
                               "got \"{}\"",
                               fields::k_max_horizon_months,
                               node.is_scalar() ? node.raw().Scalar() : "a non-scalar"));
        return;
    }
    months = *value;
}

// A range [low, high] of a factor within `range`, low <= high.
std::optional<FactorRange> factor_range(const YamlNode& node, const NumberRange& range) {
    if (!node.expect_sequence()) {
        return std::nullopt;
    }
    const std::vector<YamlNode> items = node.items();
    if (items.size() != 2) {
        node.error(fmt::format("expected [low, high], two numbers of {}", range.description));
        return std::nullopt;
    }
    const auto low = items[0].as_number(range);
    const auto high = items[1].as_number(range);
    if (!low || !high) {
        return std::nullopt;
    }
    if (*low > *high) {
        node.error(
            fmt::format("expected [low, high] with low <= high, got [{:g}, {:g}]", *low, *high));
        return std::nullopt;
    }
    return FactorRange{*low, *high};
}

// The spreads of the decision-confidence Monte Carlo (docs/workload-format.md, "uncertainty").
void read_uncertainty(const YamlNode& node, Uncertainty& u) {
    if (!node.expect_map(
            {"estimate_error", "price_error", "spot_rate_factor", "utilisation", "demand"})) {
        return;
    }
    constexpr NumberRange k_error{0.0, 1.0, true, "a fraction above 0 and at most 1"};
    if (auto error = node.get("estimate_error")) {
        u.estimate_error = fraction_of(*error, k_error);
    }
    if (auto error = node.get("price_error")) {
        u.price_error = fraction_of(*error, k_error);
    }
    if (auto factor = node.get("spot_rate_factor")) {
        u.spot_rate_factor = factor->as_number({1.0, 100.0, false, "a factor from 1 to 100"});
    }
    if (auto share = node.get("utilisation")) {
        u.utilisation = factor_range(*share, {0.0, 1.0, true, "a share above 0 and at most 1"});
    }
    if (auto demand = node.get("demand")) {
        u.demand = factor_range(*demand, {0.0, 100.0, true, "a factor above 0 and at most 100"});
    }
}

// The top-level lists: sources and stages.
void read_lists(const YamlNode& root, Workload& workload) {
    if (auto sources = root.get("sources")) {
        read_sources(*sources, workload.sources);
    }
    if (auto stages = root.get("stages")) {
        read_stages(*stages, workload);
    }
}

// Whether the file's schema_version is one this gpuplan reads (a missing one is reported and the
// rest still read); reports it at its place when not.
bool supported_version(const YamlNode& root) {
    const detail::SchemaVersion version =
        detail::read_schema_version(root, "workload", k_min_schema_version, k_max_schema_version);
    return version == detail::SchemaVersion::absent || version == detail::SchemaVersion::supported;
}

// The section of the task, training or inference (the other one is an error), and the method the
// task allows.
void read_task_sections(const YamlNode& root, Workload& workload, const FileLoader& load) {
    const bool serving = workload.task == Task::inference;
    if (auto training = root.get("training")) {
        if (serving) {
            training->error("'training' does not apply to task inference; use 'inference'");
        } else {
            read_training(*training, workload.training);
        }
    }
    if (auto inference = root.get("inference")) {
        if (!serving) {
            inference->error(fmt::format("'inference' does not apply to task {}; use 'training'",
                                         to_string(workload.task)));
        } else {
            read_inference(*inference, workload.inference, load);
        }
    }
    if (workload.task == Task::train && workload.training.method != Method::full) {
        root.get("training")
            ->get("method")
            ->error(fmt::format("method {} needs task finetune (the base model is frozen)",
                                to_string(workload.training.method)));
    }
}

std::string stem_of(const std::string& file) {
    const auto slash = file.find_last_of("/\\");
    std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
    const auto dot = base.rfind('.');
    return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

} // namespace

Workload read_workload(const TextFile& file) {
    return read_workload(file, WorkloadOverrides{});
}

void read_workload_node(const detail::YamlNode& root, Workload& workload,
                        std::span<const std::string> currencies, const KnownPlaces& places,
                        const FileLoader& load) {
    if (!root.expect_map({"schema_version", "name", "description", "task", "model", "data",
                          "training", "inference", "schedule", "horizon_months", "constraints",
                          "finance", "sources", "stages", "uncertainty"}) ||
        !supported_version(root)) {
        return;
    }
    assign(workload.name, root.string_at("name", false));
    assign(workload.description, root.string_at("description", false));
    assign(workload.task, choice_at<Task>(root, "task", fields::k_task));
    if (auto finance = root.get("finance")) {
        read_finance(*finance, workload.finance, currencies);
    }
    if (auto model = root.require("model")) {
        read_model(*model, workload.model);
    }
    if (auto data = root.get("data")) {
        read_data(*data, workload.data);
        check_mean_seq_len(root, workload);
    }
    read_task_sections(root, workload, load);
    if (auto schedule = root.get("schedule")) {
        read_schedule(*schedule, workload.schedule);
    }
    if (auto horizon = root.get("horizon_months")) {
        read_horizon(*horizon, workload.horizon_months);
    }
    if (auto constraints = root.get("constraints")) {
        read_constraints(*constraints, workload.constraints, workload.finance.currency, currencies,
                         places);
    }
    read_lists(root, workload);
    if (auto uncertainty = root.get("uncertainty")) {
        read_uncertainty(*uncertainty, workload.uncertainty);
    }
}

void report_missing(const detail::YamlNode& root, const Workload& workload, FieldHint hint) {
    // What the file and the flags together still lack, placed at the section that should hold
    // it (data for tokens and samples, model otherwise).
    for (const std::string& item : missing_fields(workload, hint)) {
        const bool data_item = item.rfind("data.", 0) == 0;
        auto section = root.get(data_item ? "data" : "model");
        const detail::YamlNode& where = section ? *section : root;
        root.context().sink->add(where.diagnostic("incomplete workload: missing " + item));
    }
}

Workload read_workload(const TextFile& file, const WorkloadOverrides& overrides,
                       std::span<const std::string> currencies, const KnownPlaces& places,
                       FieldHint hint, const FileLoader& load) {
    DiagnosticSink sink;
    detail::YamlContext context{file.name, &sink};
    context.max_bytes = limits::k_max_workload_bytes;
    Workload workload;
    workload.name = stem_of(file.name);
    auto root = detail::parse_yaml_document(file.text, context);
    if (root) {
        read_workload_node(*root, workload, currencies, places, load);
    }
    sink.throw_if_any();
    apply_overrides(workload, overrides, hint);
    if (root) {
        report_missing(*root, workload, hint);
        sink.throw_if_any();
    }
    return workload;
}

} // namespace gpuplan::workload

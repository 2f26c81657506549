#include "report/workload_json.hpp"

#include "gpuplan/report/output_format.hpp"

namespace gpuplan::report {

namespace {

using nlohmann::ordered_json;

template <typename T> ordered_json optional_json(const std::optional<T>& value) {
    return value ? ordered_json(*value) : ordered_json(nullptr);
}

// A service's load curve and autoscaling policy, when it gives them.
void put_scaling(ordered_json& out, const workload::Inference& inference) {
    if (inference.load) {
        const workload::Load& load = *inference.load;
        ordered_json curve;
        if (!load.csv.empty()) {
            curve["csv"] = load.csv;
        } else if (!load.weekday.empty()) {
            curve["weekday"] = load.weekday;
            curve["weekend"] = load.weekend.empty() ? load.weekday : load.weekend;
        }
        curve["week"] = load.hourly;
        curve["growth_per_month"] = load.growth_per_month;
        out["load"] = curve;
    }
    if (inference.autoscaling) {
        const workload::Autoscaling& a = *inference.autoscaling;
        out["autoscaling"] = {{"min_replicas", a.min_replicas},
                              {"scale_to_zero", a.scale_to_zero},
                              {"cold_start_s", optional_json(a.cold_start_s)},
                              {"headroom", a.headroom},
                              {"granularity", a.granularity}};
    }
}

} // namespace

ordered_json calibration_factor_json(const workload::SpeedFactor& f) {
    constexpr int k_factor_digits = 4;
    return {{"gpu", f.gpu},
            {"kind", f.kind},
            {"engine", f.engine},
            {"precision", f.precision},
            {"factor", round_to(f.factor, k_factor_digits)},
            {"runs", f.runs},
            {"carried_runs", f.carried_runs},
            {"from", f.from}};
}

ordered_json workload_json(const workload::Workload& w) {
    ordered_json out;
    out["name"] = w.name;
    out["description"] = w.description;
    out["task"] = workload::to_string(w.task);
    const workload::Model& m = w.model;
    out["model"] = {
        {"family", workload::to_string(m.family)},
        {"params", m.params},
        {"active_params", m.active_params.value_or(m.params)},
        {"layers", optional_json(m.layers)},
        {"hidden", optional_json(m.hidden)},
        {"heads", optional_json(m.heads)},
        {"kv_heads", m.kv_heads ? ordered_json(*m.kv_heads) : optional_json(m.heads)},
        {"seq_len", optional_json(m.seq_len)},
        {"flops_per_sample", optional_json(m.flops_per_sample)},
        {"experts", optional_json(m.experts)},
        {"experts_per_token", optional_json(m.experts_per_token)},
        {"reference", m.reference.empty() ? ordered_json(nullptr) : ordered_json(m.reference)}};
    if (m.head_dim) {
        out["model"]["head_dim"] = *m.head_dim; // since 1.7, only when given
    }
    out["data"] = {{"tokens", optional_json(w.data.tokens)},
                   {"samples", optional_json(w.data.samples)},
                   {"epochs", w.data.epochs},
                   {"dataset_gb", optional_json(w.data.dataset_gb)},
                   {"decode_samples_per_second_per_vcpu",
                    optional_json(w.data.decode_samples_per_second_per_vcpu)},
                   {"mean_seq_len", optional_json(w.data.mean_seq_len)},
                   {"packing", w.data.packing}};
    out["training"] = {
        {"precision", catalog::to_string(w.training.precision)},
        {"optimizer", workload::to_string(w.training.optimizer)},
        {"method", workload::to_string(w.training.method)},
        {"sharding", w.training.sharding ? workload::to_string(*w.training.sharding)
                                         : std::string_view("auto")},
        {"micro_batch", w.training.micro_batch},
        {"activation_checkpointing", w.training.recompute == workload::Recompute::full},
        {"recomputation", workload::to_string(w.training.recompute)},
        {"fp32_gradients", w.training.fp32_gradients},
        {"offload", workload::to_string(w.training.offload)},
        {"mfu", optional_json(w.training.mfu)},
        {"global_batch_tokens", optional_json(w.training.global_batch_tokens)},
        {"tensor_parallel", optional_json(w.training.tensor_parallel)},
        {"pipeline_parallel", optional_json(w.training.pipeline_parallel)},
        {"context_parallel", optional_json(w.training.context_parallel)},
        {"expert_parallel", optional_json(w.training.expert_parallel)},
        {"flash_attention", w.training.flash_attention}};
    out["inference"] = {{"precision", catalog::to_string(w.inference.precision)},
                        {"requests_per_second", w.inference.requests_per_second},
                        {"input_tokens", w.inference.input_tokens},
                        {"output_tokens", w.inference.output_tokens},
                        {"batch", w.inference.batch},
                        {"latency_ms", optional_json(w.inference.latency_ms)},
                        {"hours_per_day", w.inference.hours_per_day},
                        {"batching", workload::to_string(w.inference.batching)},
                        {"max_batch", optional_json(w.inference.max_batch)},
                        {"tensor_parallel", optional_json(w.inference.tensor_parallel)},
                        {"ttft_ms", optional_json(w.inference.ttft_ms)},
                        {"tpot_ms", optional_json(w.inference.tpot_ms)},
                        {"percentile", w.inference.percentile},
                        {"input_tokens_p90", optional_json(w.inference.input_tokens_p90)},
                        {"output_tokens_p90", optional_json(w.inference.output_tokens_p90)}};
    if (w.inference.engine != workload::Engine::generic) {
        out["inference"]["engine"] = workload::to_string(w.inference.engine);
    }
    put_scaling(out["inference"], w.inference);
    out["schedule"] = {{"runs", w.schedule.runs}, {"every_months", w.schedule.every_months}};
    out["horizon_months"] = w.horizon_months;
    const workload::Constraints& c = w.constraints;
    ordered_json purchase = ordered_json::array();
    if (c.purchase.empty()) {
        for (PurchaseOption option : k_all_purchase_options) {
            purchase.push_back(to_string(option));
        }
    } else {
        for (PurchaseOption option : c.purchase) {
            purchase.push_back(to_string(option));
        }
    }
    out["constraints"] = {{"deadline_hours", optional_json(c.deadline_hours)},
                          {"deadline_confidence", c.deadline_confidence},
                          {"budget", c.budget
                                         ? ordered_json{{"amount", round_money(c.budget->amount)},
                                                        {"currency", c.budget->currency}}
                                         : ordered_json(nullptr)},
                          {"providers", c.providers},
                          {"regions", c.regions},
                          {"gpu_models", c.gpu_models},
                          {"gpu_count", optional_json(c.gpu_count)},
                          {"max_gpus", c.max_gpus.value_or(workload::k_default_max_gpus)},
                          {"interruptible", c.interruptible},
                          {"purchase", purchase}};
    out["finance"] = {{"discount_rate", w.finance.discount_rate}, {"currency", w.finance.currency}};
    ordered_json sources = ordered_json::array();
    for (const workload::Reference& reference : w.sources) {
        sources.push_back({{"title", reference.title}, {"url", reference.url}});
    }
    out["sources"] = sources;
    if (!w.stages.empty()) {
        ordered_json stages = ordered_json::array();
        for (const workload::Stage& stage : w.stages) {
            stages.push_back({{"name", stage.name},
                              {"tokens", stage.tokens},
                              {"seq_len", optional_json(stage.seq_len)},
                              {"global_batch_tokens", optional_json(stage.global_batch_tokens)}});
        }
        out["stages"] = stages;
    }
    if (w.uncertainty != workload::Uncertainty{}) {
        const workload::Uncertainty& u = w.uncertainty;
        const auto range = [](const std::optional<workload::FactorRange>& r) {
            return r ? ordered_json::array({r->low, r->high}) : ordered_json(nullptr);
        };
        out["uncertainty"] = {{"estimate_error", optional_json(u.estimate_error)},
                              {"price_error", optional_json(u.price_error)},
                              {"spot_rate_factor", optional_json(u.spot_rate_factor)},
                              {"utilisation", range(u.utilisation)},
                              {"demand", range(u.demand)}};
    }
    if (!w.calibration.factors.empty()) {
        ordered_json factors = ordered_json::array();
        for (const workload::SpeedFactor& f : w.calibration.factors) {
            factors.push_back(calibration_factor_json(f));
        }
        out["calibration"] = {{"file", w.calibration.file}, {"factors", factors}};
    }
    return out;
}

} // namespace gpuplan::report

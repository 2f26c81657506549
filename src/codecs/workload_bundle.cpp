#include "codecs/workload_bundle.hpp"

#include "codecs/binary_codec.hpp"
#include "gpuplan/error.hpp"

#include <algorithm>
#include <type_traits>

namespace gpuplan {

template <class A> void members(A& a, Money& v) {
    a(v.amount), a(v.currency);
}

} // namespace gpuplan

namespace gpuplan::workload {

// Each serialised type lists its members once, for codecs::BinaryWriter and BinaryReader.

template <class A> void members(A& a, Model& v) {
    a(v.family), a(v.params), a(v.active_params), a(v.layers), a(v.hidden), a(v.heads),
        a(v.kv_heads), a(v.seq_len), a(v.flops_per_sample), a(v.reference), a(v.experts),
        a(v.experts_per_token);
}
template <class A> void members(A& a, Data& v) {
    a(v.tokens), a(v.samples), a(v.epochs), a(v.dataset_gb),
        a(v.decode_samples_per_second_per_vcpu), a(v.mean_seq_len), a(v.packing);
}
template <class A> void members(A& a, Training& v) {
    a(v.precision), a(v.optimizer), a(v.method), a(v.sharding), a(v.micro_batch), a(v.recompute),
        a(v.fp32_gradients), a(v.offload), a(v.mfu), a(v.global_batch_tokens), a(v.tensor_parallel),
        a(v.pipeline_parallel), a(v.context_parallel), a(v.expert_parallel), a(v.flash_attention);
}
template <class A> void members(A& a, Load& v) {
    a(v.weekday), a(v.weekend), a(v.csv), a(v.hourly), a(v.growth_per_month);
}
template <class A> void members(A& a, Autoscaling& v) {
    a(v.min_replicas), a(v.scale_to_zero), a(v.cold_start_s), a(v.headroom), a(v.granularity);
}
template <class A> void members(A& a, Inference& v) {
    a(v.precision), a(v.requests_per_second), a(v.input_tokens), a(v.output_tokens), a(v.batch),
        a(v.latency_ms), a(v.hours_per_day), a(v.batching), a(v.engine), a(v.max_batch),
        a(v.tensor_parallel), a(v.ttft_ms), a(v.tpot_ms), a(v.percentile), a(v.input_tokens_p90),
        a(v.output_tokens_p90), a(v.load), a(v.autoscaling);
}
template <class A> void members(A& a, Schedule& v) {
    a(v.runs), a(v.every_months);
}
template <class A> void members(A& a, Constraints& v) {
    a(v.deadline_hours), a(v.budget), a(v.providers), a(v.regions), a(v.gpu_models), a(v.gpu_count),
        a(v.max_gpus), a(v.interruptible), a(v.purchase), a(v.deadline_confidence);
}
template <class A> void members(A& a, Finance& v) {
    a(v.discount_rate), a(v.currency);
}
template <class A> void members(A& a, Reference& v) {
    a(v.title), a(v.url);
}
template <class A> void members(A& a, Stage& v) {
    a(v.name), a(v.tokens), a(v.seq_len), a(v.global_batch_tokens);
}
template <class A> void members(A& a, FactorRange& v) {
    a(v.low), a(v.high);
}
template <class A> void members(A& a, Uncertainty& v) {
    a(v.estimate_error), a(v.price_error), a(v.spot_rate_factor), a(v.utilisation), a(v.demand);
}
template <class A> void members(A& a, Workload& v) {
    a(v.name), a(v.description), a(v.task), a(v.model), a(v.data), a(v.training), a(v.inference),
        a(v.schedule), a(v.horizon_months), a(v.constraints), a(v.finance), a(v.sources),
        a(v.stages), a(v.uncertainty);
}

namespace {

using codecs::enum_within;

constexpr codecs::Header k_workload_header{0x574b4c44, 7}; // "WKLD", format 7

bool valid(const Workload& w) {
    return enum_within(w.task, Task::inference) && enum_within(w.model.family, Family::custom) &&
           enum_within(w.training.precision, Precision::mxfp4) &&
           enum_within(w.training.optimizer, Optimizer::adamw_8bit) &&
           enum_within(w.training.method, Method::qlora) &&
           (!w.training.sharding || enum_within(*w.training.sharding, Sharding::zero3)) &&
           enum_within(w.training.recompute, Recompute::full) &&
           enum_within(w.training.offload, Offload::optimizer) &&
           enum_within(w.inference.precision, Precision::mxfp4) &&
           enum_within(w.inference.batching, Batching::static_batch) &&
           enum_within(w.inference.engine, Engine::tgi) &&
           std::all_of(w.constraints.purchase.begin(), w.constraints.purchase.end(),
                       [](PurchaseOption option) {
                           return enum_within(option, PurchaseOption::self_built);
                       });
}

} // namespace

} // namespace gpuplan::workload

namespace gpuplan::codecs {

std::string write_workload_bundle(const workload::Workload& workload) {
    return encode(workload, workload::k_workload_header);
}

workload::Workload read_workload_bundle(std::string_view bytes) {
    return decode<workload::Workload>(
        bytes, "embedded workload preset", workload::k_workload_header,
        [](const workload::Workload& w) { return workload::valid(w); });
}

} // namespace gpuplan::codecs

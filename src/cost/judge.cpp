#include "cost/firmness.hpp"
#include "cost/planner.hpp"
#include "gpuplan/units.hpp"

#include <string>

namespace gpuplan::cost::detail {

namespace {

// Gives `option` the rejection `code` and its figures unless it has one already (the first found
// is the option's; its figures are put into words only if shown). The detail to fill in further,
// nullptr when the option was rejected before.
RejectionDetail* reject(Option& option, Rejection code, double value = 0.0, double limit = 0.0) {
    if (option.rejection) {
        return nullptr;
    }
    option.rejection = code;
    option.detail.value = value;
    option.detail.limit = limit;
    return &option.detail;
}

// Why a service the estimate found too slow is not an answer: the estimate's note on the
// latency target or the capacity, else a general sentence.
std::string service_miss(const estimate::GpuEstimate& e) {
    for (const std::string& note : e.notes) {
        if (note.rfind("latency_target_missed", 0) == 0 ||
            note.rfind("capacity_exceeded", 0) == 0) {
            return note;
        }
    }
    return "the service misses its latency or throughput target";
}

// Rejects `option` for the first constraint it fails, in the order of Rejection's cases that
// judge() checks; `judged_hours`: the wall time the deadline was judged at.
void reject_first(const Workload& w, Option& option, const estimate::GpuEstimate& e,
                  const catalog::Gpu& gpu, bool has_rate, double judged_hours) {
    const workload::Constraints& c = w.constraints;
    if (!option.fits) {
        if (RejectionDetail* d =
                reject(option, Rejection::does_not_fit, e.memory_per_gpu_gib, gpu.memory_gib)) {
            d->gpu_count = e.gpu_count;
        }
    }
    if (c.max_gpus && option.gpu_count > *c.max_gpus) {
        reject(option, Rejection::exceeds_max_gpus, 0.0, *c.max_gpus);
    }
    if (c.gpu_count && option.gpu_count != *c.gpu_count) {
        reject(option, Rejection::gpu_count_mismatch, 0.0, *c.gpu_count);
    }
    if (option.purchase == PurchaseOption::spot && !c.interruptible) {
        reject(option, Rejection::not_interruptible);
    }
    if (!option.finishes) {
        reject(option, Rejection::never_finishes);
    }
    if (!has_rate) {
        reject(option, Rejection::no_exchange_rate);
    }
    if (!option.meets_deadline) {
        if (RejectionDetail* d =
                reject(option, Rejection::misses_deadline, judged_hours, *c.deadline_hours)) {
            d->service = w.task == Task::inference;
            d->at_p90 = option.p90_wall_hours.has_value();
        }
    }
    // A service the estimate found too slow (a latency target, or the request rate) is not an
    // answer, whatever it costs; the estimate's note says what it misses.
    if (w.task == Task::inference && !e.meets_deadline &&
        reject(option, Rejection::misses_latency_target) != nullptr) {
        option.reason = service_miss(e);
    }
    if (!option.within_budget) {
        reject(option, Rejection::over_budget, option.total, c.budget->amount);
    }
    // Judged last, so a gang rejected only for want of a cluster is one that would otherwise
    // answer: the line that says a cluster quote is needed quotes its price per GPU-hour. A
    // service whose replica fits in one node runs its replicas apart behind a load balancer:
    // its nodes need no fabric between them (methodology C9c).
    const bool independent_replicas =
        w.task == Task::inference && e.model_parallel <= option.gpus_per_node;
    if (!independent_replicas && !may_span_nodes(option)) {
        reject(option, Rejection::needs_cluster,
               option.gpu_hours > 0.0 ? option.total / option.gpu_hours : 0.0, option.nodes);
    }
}

} // namespace

void Planner::judge(Option& option, const estimate::GpuEstimate& e, const catalog::Gpu& gpu,
                    bool has_rate) {
    if (has_rate) {
        note_fx_gap(option);
    }
    const workload::Constraints& c = m_workload.constraints;
    // Spot options are judged at their P90 (methodology C5); the others at the estimate's wall
    // time at constraints.deadline_confidence, hardware failures included (E9).
    const double margin =
        e.goodput ? e.goodput->confidence_wall_hours - e.goodput->expected_wall_hours : 0.0;
    const double judged_hours = option.p90_wall_hours.value_or(option.wall_hours + margin);
    if (c.deadline_hours && m_workload.task != Task::inference) {
        option.meets_deadline = judged_hours <= *c.deadline_hours + 1e-9;
    }
    if (c.budget && m_budget_rate) {
        option.within_budget = option.total <= c.budget->amount * *m_budget_rate + 0.005;
    }
    reject_first(m_workload, option, e, gpu, has_rate, judged_hours);
}

} // namespace gpuplan::cost::detail

#include "cost/planner.hpp"
#include "gpuplan/units.hpp"

namespace gpuplan::cost::detail {

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
    // The first rejection found is the option's; its figures are put into words only if shown.
    auto reject = [&option](Rejection code, double value = 0.0,
                            double limit = 0.0) -> RejectionDetail* {
        if (option.rejection) {
            return nullptr;
        }
        option.rejection = code;
        option.detail.value = value;
        option.detail.limit = limit;
        return &option.detail;
    };
    if (!option.fits) {
        if (RejectionDetail* d =
                reject(Rejection::does_not_fit, e.memory_per_gpu_gib, gpu.memory_gib)) {
            d->gpu_count = e.gpu_count;
        }
    }
    if (c.max_gpus && option.gpu_count > *c.max_gpus) {
        reject(Rejection::exceeds_max_gpus, 0.0, *c.max_gpus);
    }
    if (c.gpu_count && option.gpu_count != *c.gpu_count) {
        reject(Rejection::gpu_count_mismatch, 0.0, *c.gpu_count);
    }
    if (option.purchase == PurchaseOption::spot && !c.interruptible) {
        reject(Rejection::not_interruptible);
    }
    if (!option.finishes) {
        reject(Rejection::never_finishes);
    }
    if (!has_rate) {
        reject(Rejection::no_exchange_rate);
    }
    if (!option.meets_deadline) {
        if (RejectionDetail* d =
                reject(Rejection::misses_deadline, judged_hours, *c.deadline_hours)) {
            d->service = m_workload.task == Task::inference;
            d->at_p90 = option.p90_wall_hours.has_value();
        }
    }
    // A service the estimate found too slow (a latency target, or the request rate) is not an
    // answer, whatever it costs; the estimate's note says what it misses.
    if (m_workload.task == Task::inference && !e.meets_deadline &&
        reject(Rejection::misses_latency_target) != nullptr) {
        for (const std::string& note : e.notes) {
            if (note.rfind("latency_target_missed", 0) == 0 ||
                note.rfind("capacity_exceeded", 0) == 0) {
                option.reason = note;
                break;
            }
        }
        if (option.reason.empty()) {
            option.reason = "the service misses its latency or throughput target";
        }
    }
    if (!option.within_budget) {
        reject(Rejection::over_budget, option.total, c.budget->amount);
    }
}

} // namespace gpuplan::cost::detail

#include "gpuplan/cost/plan.hpp"
#include "gpuplan/units.hpp"

#include <array>
#include <fmt/format.h>
#include <string>
#include <string_view>

namespace gpuplan::cost {

std::string_view to_string(Rejection rejection) {
    switch (rejection) {
    case Rejection::does_not_fit:
        return "does_not_fit";
    case Rejection::exceeds_max_gpus:
        return "exceeds_max_gpus";
    case Rejection::gpu_count_mismatch:
        return "gpu_count_mismatch";
    case Rejection::not_interruptible:
        return "not_interruptible";
    case Rejection::never_finishes:
        return "never_finishes";
    case Rejection::misses_deadline:
        return "misses_deadline";
    case Rejection::misses_latency_target:
        return "misses_latency_target";
    case Rejection::over_budget:
        return "over_budget";
    case Rejection::no_exchange_rate:
        return "no_exchange_rate";
    case Rejection::excluded_by_rule:
        return "excluded_by_rule";
    case Rejection::needs_cluster:
        return "needs_cluster";
    }
    return "?";
}

std::string_view to_string(PriceBasis basis) {
    constexpr std::array<std::string_view, 5> k_names{"list", "snapshot", "derived", "negotiated",
                                                      "quote"};
    return k_names.at(static_cast<std::size_t>(basis));
}

std::string reason(const Plan& plan, const Option& o) {
    if (!o.rejection) {
        return {};
    }
    const RejectionDetail& d = o.detail;
    switch (*o.rejection) {
    case Rejection::does_not_fit:
        if (!o.gpu_slice.empty()) {
            return fmt::format("needs {:.1f} GiB on one {}, which has {:.1f} GiB (a job never "
                               "spans several slices)",
                               d.value, o.gpu_slice, d.limit);
        }
        return fmt::format("needs {:.1f} GiB per GPU on {} GPUs; {} has {:.0f} GiB", d.value,
                           d.gpu_count, o.gpu, d.limit);
    case Rejection::exceeds_max_gpus:
        return fmt::format("{} GPUs in whole instances; max_gpus is {}", o.gpu_count,
                           static_cast<int>(d.limit));
    case Rejection::gpu_count_mismatch:
        if (!o.gpu_slice.empty()) {
            return fmt::format("a {} is one slice, never combined with others; exactly {} GPUs "
                               "asked",
                               o.gpu_slice, static_cast<int>(d.limit));
        }
        return fmt::format("{} GPUs per node cannot make exactly {} GPUs", o.gpus_per_node,
                           static_cast<int>(d.limit));
    case Rejection::not_interruptible:
        return "spot needs an interruptible workload (constraints.interruptible: true)";
    case Rejection::never_finishes:
        return fmt::format(
            "the work would take more than {:g} years on this option{}",
            k_max_plan_months / k_months_per_year,
            o.purchase == PurchaseOption::spot ? " (spot interruptions outpace progress)" : "");
    case Rejection::no_exchange_rate:
        return fmt::format("no exchange rate from {} to {} in the catalog", o.price_currency,
                           plan.currency);
    case Rejection::misses_deadline:
        return d.service ? fmt::format("the service can start only after the hardware's lead "
                                       "time, past the {:.1f} h deadline",
                                       d.limit)
                         : fmt::format("finishes after {:.1f} h{}; deadline is {:.1f} h", d.value,
                                       d.at_p90 ? " at P90 (spot interruptions)" : "", d.limit);
    case Rejection::over_budget:
        return fmt::format("costs {:.2f} {}; budget is {:.2f} {}", d.value, plan.currency, d.limit,
                           plan.budget ? plan.budget->currency : plan.currency);
    case Rejection::needs_cluster:
        return fmt::format("would need a cluster quote from {}: {} x {} on {} nodes at {:.2f} {} "
                           "per GPU-hour; it sells no cluster of {} with a known fabric",
                           o.provider, o.gpu_count, o.gpu, o.nodes, d.value, plan.currency,
                           o.instance);
    case Rejection::misses_latency_target:
    case Rejection::excluded_by_rule:
        return o.reason;
    }
    return o.reason;
}

} // namespace gpuplan::cost

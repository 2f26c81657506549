#include "gpuplan/cost/plan.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>

namespace gpuplan::cost {

UnitCosts unit_costs(const workload::Workload& w, double total) {
    UnitCosts units;
    const bool transformer = w.model.family == workload::Family::transformer;
    const double runs = std::max(1, w.schedule.runs);
    if (w.task == workload::Task::inference) {
        const double requests = w.inference.requests_per_second * k_seconds_per_hour *
                                w.inference.hours_per_day * (k_days_per_year / k_months_per_year) *
                                w.horizon_months;
        if (requests <= 0.0) {
            return units;
        }
        const double in_tokens = requests * w.inference.input_tokens / 1e6;
        const double out_tokens = requests * w.inference.output_tokens / 1e6;
        // A generator writes more than one token per request; an embedder or reranker (one
        // output, or none) is priced by the tokens it reads and per request, never per output.
        const bool generator = w.inference.output_tokens > 1.0;
        if (transformer && !generator) {
            if (in_tokens > 0.0) {
                units.per_million_input_tokens = total / in_tokens;
            }
            units.per_thousand_requests = total / (requests / 1000.0);
        } else if (transformer && out_tokens > 0.0) {
            units.per_million_tokens = total / (in_tokens + out_tokens);
            units.per_million_output_tokens = total / out_tokens;
            if (in_tokens > 0.0) {
                units.per_million_input_tokens = total / in_tokens;
            }
            units.per_thousand_requests = total / (requests / 1000.0);
        } else if (!transformer) {
            units.per_thousand_images = total / (requests / 1000.0);
        }
        return units;
    }
    units.per_run = total / runs;
    if (w.data.epochs > 0.0) {
        units.per_epoch = *units.per_run / w.data.epochs;
    }
    if (transformer && w.data.tokens && *w.data.tokens > 0.0) {
        units.per_million_tokens = total / (*w.data.tokens * runs / 1e6);
    }
    if (!transformer && w.data.samples && *w.data.samples > 0.0) {
        units.per_thousand_images = total / (*w.data.samples * w.data.epochs * runs / 1000.0);
    }
    return units;
}

} // namespace gpuplan::cost

#include "gpuplan/recommend/check_plan.hpp"

#include "gpuplan/generator.hpp"
#include "gpuplan/numbers.hpp"
#include "gpuplan/recommend/provenance.hpp"

#include <map>

namespace gpuplan::recommend {

namespace {

std::optional<Date> date_of(const std::string& text) {
    return text.empty() ? std::nullopt : parse_date(text);
}

} // namespace

gate::Plan check_plan(const Recommendation& r, std::string source) {
    gate::Plan out;
    out.source = std::move(source);
    out.schema_version = k_json_schema_version;
    out.generator_version = r.generator.version;
    out.catalog_digest = r.catalog.digest;
    out.prices_oldest = date_of(r.catalog.oldest);
    out.prices_newest = date_of(r.catalog.newest);
    out.currency = r.plan.currency;
    const workload::Constraints& c = r.workload.constraints;
    out.deadline_hours = c.deadline_hours;
    if (c.budget && c.budget->currency == out.currency) {
        // A budget in another currency is judged by the options' own verdict (within_budget).
        out.budget = round_money(c.budget->amount);
    }
    // The confidence block's figures, for every member of a drawn group.
    std::map<std::size_t, const OptionConfidence*> drawn;
    if (r.confidence) {
        for (const OptionConfidence& entry : r.confidence->options) {
            for (const std::size_t member : r.groups[entry.group].members) {
                drawn.emplace(member, &entry);
            }
        }
    }
    out.options.reserve(r.ranked.size());
    for (std::size_t i = 0; i < r.ranked.size(); ++i) {
        const cost::Option& o = r.plan.options()[r.ranked[i]];
        const auto confidence = drawn.find(r.ranked[i]);
        const OptionConfidence* p90 = confidence == drawn.end() ? nullptr : confidence->second;
        out.options.push_back(
            {.rank = static_cast<int>(i + 1),
             .id = o.id(),
             .purchase = std::string(gpuplan::to_string(o.purchase)),
             .wall_hours = round_to(o.wall_hours, k_json_hour_digits),
             .total = round_money(o.total),
             .npv = round_money(o.npv),
             .max_monthly = round_money(o.max_monthly),
             .prices_as_of = o.prices_as_of,
             .commitment = std::nullopt,
             .meets_deadline = o.meets_deadline,
             .within_budget = o.within_budget,
             .cost_p90 = p90 != nullptr ? std::optional(round_money(p90->cost_p90)) : std::nullopt,
             .wall_p90_hours =
                 p90 != nullptr ? std::optional(round_to(p90->wall_p90_hours, k_json_hour_digits))
                                : std::nullopt});
    }
    out.rejected.reserve(r.rejected.size());
    for (std::size_t index : r.rejected) {
        const cost::Option& o = r.plan.options()[index];
        out.rejected.push_back({o.id(), cost::reason(r.plan, o)});
    }
    return out;
}

} // namespace gpuplan::recommend

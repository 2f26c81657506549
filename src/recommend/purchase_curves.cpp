#include "gpuplan/recommend/purchase_curves.hpp"

#include "gpuplan/finance/finance.hpp"
#include "gpuplan/recommend/recommend.hpp"

#include <algorithm>
#include <cmath>

namespace gpuplan::recommend {

namespace {

// Indices into plan.options() of the best option of each purchase option, in published order.
std::vector<std::size_t> best_per_purchase(const Recommendation& r) {
    const std::span<const cost::Option> options = r.plan.options();
    std::vector<std::size_t> out;
    for (PurchaseOption purchase : k_all_purchase_options) {
        auto first_ranked = std::find_if(r.ranked.begin(), r.ranked.end(), [&](std::size_t index) {
            return options[index].purchase == purchase;
        });
        if (first_ranked != r.ranked.end()) {
            out.push_back(*first_ranked);
            continue;
        }
        // Ties go to the lower index, so the choice is stable.
        std::optional<std::size_t> cheapest;
        for (std::size_t index : r.rejected) {
            const cost::Option& o = options[index];
            if (o.purchase == purchase && !o.amounts.empty() &&
                (!cheapest || o.npv < options[*cheapest].npv)) {
                cheapest = index;
            }
        }
        if (cheapest) {
            out.push_back(*cheapest);
        }
    }
    return out;
}

// A self-built option's lead time in weeks, from its note; nullopt when there is none.
std::optional<double> lead_time_of(const cost::Plan& plan, const cost::Option& o) {
    for (const cost::NoteIndex index : o.notes) {
        const cost::Note& note = plan.notes[index];
        if ((note.kind == cost::NoteKind::lead_time ||
             note.kind == cost::NoteKind::lead_time_bridged) &&
            note.figures[0] > 0.0) {
            return note.figures[0];
        }
    }
    return std::nullopt;
}

} // namespace

PurchaseCurves purchase_curves(const Recommendation& r) {
    const std::span<const cost::Option> options = r.plan.options();
    // The x-axis ends at the horizon: a commitment's remaining term is not drawn.
    const auto months = static_cast<std::size_t>(std::ceil(r.plan.horizon_months)) + 1;
    PurchaseCurves out;
    const std::vector<std::size_t> best = best_per_purchase(r);
    for (std::size_t index : best) {
        const cost::Option& o = options[index];
        out.curves.push_back(
            {index, finance::cumulative(o.amounts, months), lead_time_of(r.plan, o)});
    }
    const auto on_demand = std::find_if(best.begin(), best.end(), [&](std::size_t i) {
        return options[i].purchase == PurchaseOption::on_demand;
    });
    if (on_demand == best.end()) {
        return out;
    }
    const std::span<const double> reference = options[*on_demand].amounts;
    for (std::size_t index : best) {
        const cost::Option& o = options[index];
        if (o.purchase != PurchaseOption::on_demand) {
            out.break_even.push_back(
                {index, finance::break_even_month(r.plan.monthly_rate, o.amounts, reference)});
        }
    }
    return out;
}

} // namespace gpuplan::recommend

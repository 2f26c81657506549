#include "cost/planner.hpp"

#include <cstdlib>

namespace gpuplan::cost::detail {

void Planner::add_commitment_notes(Option& option, const CommitmentUse& use,
                                   const Commitment& commitment, std::string payment) {
    if (use.committed_node_hours > 0.0) {
        option.notes.push_back(add_note(
            make_note(NoteKind::commitment_use,
                      {static_cast<double>(use.terms), static_cast<double>(commitment.term_months),
                       use.unused_node_hours(), use.committed_node_hours},
                      std::move(payment))));
    }
    if (use.spill_node_hours > 0.0) {
        option.notes.push_back(add_note(
            make_note(NoteKind::commitment_spill, {use.spill_node_hours, m_workload.horizon_months,
                                                   static_cast<double>(commitment.term_months)})));
    }
}

void Planner::note_fx_gap(Option& option) {
    if (!option.prices_as_of || option.price_currency == m_plan.currency) {
        return;
    }
    const auto key = std::pair{option.price_currency, *option.prices_as_of};
    auto it = m_fx_gaps.find(key);
    if (it == m_fx_gaps.end()) {
        std::optional<NoteIndex> note;
        // The rates used are the newest; their date is that of the newer of the two records.
        Date rate_date;
        for (const std::string& code : {option.price_currency, m_plan.currency}) {
            if (const catalog::FxRate* rate = catalog::find_fx_rate(m_catalog, code)) {
                rate_date = std::max(rate_date, rate->as_of);
            }
        }
        const long days =
            std::labs(rate_date.days_since_epoch() - option.prices_as_of->days_since_epoch());
        const auto then = catalog::fx_rate(m_catalog, option.price_currency, m_plan.currency,
                                           *option.prices_as_of);
        if (days > k_fx_date_gap_days && then) {
            note = add_note(make_note(NoteKind::fx_date_gap,
                                      {static_cast<double>(days), option.fx_rate, *then},
                                      option.prices_as_of->to_string(), rate_date.to_string()));
        }
        it = m_fx_gaps.emplace(key, note).first;
    }
    if (it->second) {
        option.notes.push_back(*it->second);
    }
}

} // namespace gpuplan::cost::detail

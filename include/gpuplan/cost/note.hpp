#pragma once
// A fact about a priced option, kept as a code and the figures it quotes; the report layer puts
// it into words (report::note_text), so pricing thousands of options formats nothing. A plan
// keeps each note once, made where its facts are known (per instance type, per commitment, per
// rule); options refer to it by index.

#include "gpuplan/purchase.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace gpuplan::cost {

// What a note says, and which of Note's fields it uses (figures in order).
enum class NoteKind {
    billing,                  // granularity seconds, minimum seconds
    negotiated_discount,      // fraction off
    commitment_use,           // terms, term months, unused hours, committed hours; `subject`
                              // the payment
    commitment_spill,         // instance-hours, horizon months, term months: work past the last
                              // term that ends within the horizon, paid on demand
    default_commitment_price, // (none): the commitment price is a default discount
    spot_risk,                // rate per node-hour, nodes, checkpoint GB, checkpoint hours,
                              // interval hours, restart hours, wall factor; `subject` the source
    spot_capacity,            // nodes, wall hours: a multi-node spot gang over a long run
    spot_simulation,          // samples, P50 wall hours, P90 wall hours, P50 cost, P90 cost;
                              // `subject` the currency, `detail` the seed
    fx_date_gap,              // days apart, rate used, rate at the price's date; `subject` the
                              // price date, `detail` the rate date
    lead_time,                // weeks: the job waits for the hardware
    lead_time_bridged,        // weeks, price per GPU-hour; `subject` the GPU model, `detail` the
                              // currency
    break_even_utilisation,   // fraction of hours from delivery to the horizon
    break_even,               // month (negative: none within the cash flows); `subject` the
                              // option compared with
    rule_favours_gpu,         // `subject` the GPU model, `detail` the rule
    rule_favours_purchase,    // `subject` the purchase option, `detail` the rule
    rule_unchecked,           // `subject` the rule, `detail` what it cannot check (a missing fact)
    startup,                  // minutes per run; `subject` "placeholder" when no source states it
    // Risks (Option::risks): what a soft answer rests on.
    risk_undated_price,      // months of the horizon; `subject` the provider
    risk_derived_commitment, // (none): a default discount, not a published commitment price
    risk_quote,              // GPUs, minimum GPUs sold (0 = none stated); `subject` the
                             // provider, `detail` what is not sold ("no 1y term", ...)
    risk_marketplace,        // GPUs, machine-hours of a run (0 = a service); `subject` the
                             // provider, `detail` "marketplace" or "unknown"
    risk_stale_price,        // age in days, the limit in days; `subject` the price date
    risk_cluster_quote,      // nodes, minimum nodes sold (0 = none stated); `subject` the
                             // provider: a cluster product priced at its single-node rate
    risk_spot_outlier,       // share of on-demand, the other zones' lowest and highest share;
                             // `subject` the zone
};

// Where a spot interruption rate comes from (NoteKind::spot_risk's `subject`).
inline constexpr std::string_view k_rate_from_settings = "set for this run";
inline constexpr std::string_view k_rate_from_instance = "instance";
inline constexpr std::string_view k_rate_from_provider = "provider default";
inline constexpr std::string_view k_rate_from_gpuplan = "gpuplan default";

struct Note {
    NoteKind kind = NoteKind::billing;
    std::array<double, 7> figures{};
    std::string subject;
    std::string detail;

    bool operator==(const Note&) const = default;
};

// A note's place in its plan's table of notes (Plan::notes).
using NoteIndex = std::uint32_t;

// A note of `kind` with its figures and names (as NoteKind lists them).
[[nodiscard]] inline Note make_note(NoteKind kind, std::array<double, 7> figures = {},
                                    std::string subject = {}, std::string detail = {}) {
    return Note{kind, figures, std::move(subject), std::move(detail)};
}

} // namespace gpuplan::cost

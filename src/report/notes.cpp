#include "gpuplan/report/notes.hpp"

#include <fmt/format.h>

namespace gpuplan::report {

std::string note_text(const cost::Note& note) {
    const auto& f = note.figures;
    switch (note.kind) {
    case cost::NoteKind::billing:
        return fmt::format("billed per {:g} s, minimum {:g} s", f[0], f[1]);
    case cost::NoteKind::negotiated_discount:
        return fmt::format("negotiated discount {}% applied to every charge", f[0] * 100.0);
    case cost::NoteKind::commitment_use: {
        const int terms = static_cast<int>(f[0]);
        const int months = static_cast<int>(f[1]);
        return fmt::format("{} term{} of {} month{}, {}, take-or-pay: {:.0f} of {:.0f} committed "
                           "instance-hours unused ({:.0f}%)",
                           terms, terms == 1 ? "" : "s", months, months == 1 ? "" : "s",
                           note.subject, f[2], f[3], 100.0 * f[2] / f[3]);
    }
    case cost::NoteKind::commitment_spill:
        return fmt::format("{:.0f} instance-hours past the {:g}-month horizon paid on demand: a "
                           "further {}-month term would outlast the horizon",
                           f[0], f[1], static_cast<int>(f[2]));
    case cost::NoteKind::default_commitment_price:
        return "commitment price is the provider's default discount (market survey), not a "
               "published price for this instance";
    case cost::NoteKind::spot_risk: {
        const int nodes = static_cast<int>(f[1]);
        return fmt::format("spot: {:.6g} interruptions/node-hour ({}) x {} node{}; checkpoint "
                           "{:.1f} GB in {:.1f} min every {:.2f} h; restart {:.0f} min; wall "
                           "x{:.4f}",
                           f[0], note.subject, nodes, nodes == 1 ? "" : "s", f[2], f[3] * 60.0,
                           f[4], f[5] * 60.0, f[6]);
    }
    case cost::NoteKind::spot_capacity:
        return fmt::format("spot capacity: {} nodes must be held together for {:.0f} h; "
                           "providers guarantee no spot capacity, so a gang this long may wait "
                           "for or lose nodes beyond the modelled interruptions",
                           static_cast<int>(f[0]), f[1]);
    case cost::NoteKind::spot_simulation:
        return fmt::format("Monte Carlo ({} samples, seed {}): wall P50 {:.2f} h, P90 {:.2f} h; "
                           "spot compute P50 {:.2f}, P90 {:.2f} {}",
                           static_cast<long long>(f[0]), note.detail, f[1], f[2], f[3], f[4],
                           note.subject);
    case cost::NoteKind::fx_date_gap:
        return fmt::format("prices of {} converted at the exchange rate of {} ({:.1f} years "
                           "apart): {:.6g}; at the prices' own date it was {:.6g} ({:+.1f}%)",
                           note.subject, note.detail, f[0] / 365.0, f[1], f[2],
                           (f[2] / f[1] - 1.0) * 100.0);
    case cost::NoteKind::lead_time:
        return fmt::format("lead time {:g} weeks: the job waits for the hardware", f[0]);
    case cost::NoteKind::lead_time_bridged:
        return fmt::format("lead time {:g} weeks: bridged on the cheapest cloud on-demand {} "
                           "({:.4f} {}/GPU-hour)",
                           f[0], note.subject, f[1], note.detail);
    case cost::NoteKind::break_even_utilisation:
        return fmt::format("break-even utilisation vs the cheapest on-demand: {:.1f}% of hours "
                           "from delivery to the horizon",
                           f[0] * 100.0);
    case cost::NoteKind::break_even:
        return f[0] < 0.0
                   ? fmt::format("break-even vs {}: none within the cash flows", note.subject)
                   : fmt::format("break-even vs {}: month {}", note.subject,
                                 static_cast<int>(f[0]));
    case cost::NoteKind::rule_unchecked:
        return fmt::format("warning: rule '{}' could not be checked: {}", note.subject,
                           note.detail);
    case cost::NoteKind::rule_favours_gpu:
    case cost::NoteKind::rule_favours_purchase:
        return fmt::format("the rules favour {} (rule '{}')", note.subject, note.detail);
    case cost::NoteKind::startup:
        return fmt::format("start-up {:g} min per run (provisioning, boot, image){} is in the "
                           "wall time and the bill",
                           f[0], note.subject.empty() ? "" : ", a PLACEHOLDER");
    case cost::NoteKind::risk_undated_price:
        return fmt::format("rests on an undated {} price snapshot for {:g} months: the source "
                           "carries no date of its own",
                           note.subject, f[0]);
    case cost::NoteKind::risk_derived_commitment:
        return "rests on a default commitment discount (market survey), not a published price";
    case cost::NoteKind::risk_quote:
        return fmt::format("a quote, not a listed product: {}", note.detail);
    case cost::NoteKind::risk_marketplace: {
        const int gpus = static_cast<int>(f[0]);
        const char* noun = gpus == 1 ? "GPU" : "GPUs";
        return f[1] > 0.0 ? fmt::format("rests on {} capacity at {} (hosts come and go) for {} "
                                        "{} over {:.0f} h",
                                        note.detail, note.subject, gpus, noun, f[1])
                          : fmt::format("rests on {} capacity at {} (hosts come and go) for a "
                                        "service on {} {}",
                                        note.detail, note.subject, gpus, noun);
    }
    case cost::NoteKind::risk_stale_price:
        return fmt::format("rests on a price of {} ({:.0f} days old; a firm answer's price is at "
                           "most {:.0f} days old)",
                           note.subject, f[0], f[1]);
    case cost::NoteKind::risk_cluster_quote:
        return fmt::format("{} sells these {} nodes only as a cluster product{}: priced here at "
                           "the single-node rate, a cluster is priced on a quote",
                           note.subject, static_cast<int>(f[0]),
                           f[1] > 0.0 ? fmt::format(" (from {} nodes)", static_cast<int>(f[1]))
                                      : std::string());
    case cost::NoteKind::risk_spot_outlier:
        return fmt::format("spot in {} at {:.0f}% of on-demand; the other zones are {:.0f}-{:.0f}%",
                           note.subject, f[0] * 100.0, f[1] * 100.0, f[2] * 100.0);
    }
    return {};
}

std::string_view risk_code(cost::NoteKind kind) {
    switch (kind) {
    case cost::NoteKind::risk_undated_price:
        return "undated_price";
    case cost::NoteKind::risk_derived_commitment:
        return "derived_commitment";
    case cost::NoteKind::risk_quote:
        return "quote";
    case cost::NoteKind::risk_marketplace:
        return "marketplace_capacity";
    case cost::NoteKind::risk_spot_outlier:
        return "spot_outlier";
    case cost::NoteKind::risk_stale_price:
        return "stale_price";
    case cost::NoteKind::risk_cluster_quote:
        return "cluster_quote";
    case cost::NoteKind::spot_capacity:
        return "spot_capacity";
    default:
        return "other";
    }
}

std::string risk_phrase(const cost::Note& note) {
    const auto& f = note.figures;
    switch (note.kind) {
    case cost::NoteKind::spot_risk: {
        constexpr double k_shown_wall_factor = 1.01;
        const std::string wall =
            f[6] >= k_shown_wall_factor ? fmt::format(", wall x{:.2f}", f[6]) : std::string();
        return note.subject.find("PLACEHOLDER") != std::string::npos
                   ? fmt::format("spot at a PLACEHOLDER interruption rate ({:.2g}/node-hour{})",
                                 f[0], wall)
                   : fmt::format("spot interruptions {:.2g}/node-hour ({}){}", f[0], note.subject,
                                 wall);
    }
    case cost::NoteKind::spot_capacity:
        return fmt::format("a spot gang of {} nodes held for {:.0f} h", static_cast<int>(f[0]),
                           f[1]);
    case cost::NoteKind::commitment_use:
        return fmt::format("take-or-pay {} months, {:.0f}% of committed hours unused",
                           static_cast<int>(f[1]), 100.0 * f[2] / f[3]);
    case cost::NoteKind::default_commitment_price:
        return "a default commitment discount, not a published price";
    case cost::NoteKind::fx_date_gap:
        return fmt::format("an exchange rate {:.1f} years from the prices' date", f[0] / 365.0);
    case cost::NoteKind::lead_time:
    case cost::NoteKind::lead_time_bridged:
        return fmt::format("{:g} weeks' wait for the hardware", f[0]);
    case cost::NoteKind::startup:
        return note.subject.empty()
                   ? std::string()
                   : fmt::format("a PLACEHOLDER start-up of {:g} min per run", f[0]);
    case cost::NoteKind::risk_undated_price:
    case cost::NoteKind::risk_derived_commitment:
    case cost::NoteKind::risk_quote:
    case cost::NoteKind::risk_marketplace:
    case cost::NoteKind::risk_stale_price:
    case cost::NoteKind::risk_cluster_quote:
    case cost::NoteKind::risk_spot_outlier:
        return note_text(note);
    default:
        return {};
    }
}

std::vector<std::string> note_texts(std::span<const cost::Note> table,
                                    std::span<const cost::NoteIndex> indices) {
    std::vector<std::string> out;
    out.reserve(indices.size());
    for (const cost::NoteIndex index : indices) {
        out.push_back(note_text(table[index]));
    }
    return out;
}

} // namespace gpuplan::report

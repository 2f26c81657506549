#include "report/recommend_screen.hpp"

#include "gpuplan/numbers.hpp"
#include "gpuplan/report/escape.hpp"
#include "gpuplan/report/launch.hpp"
#include "gpuplan/report/notes.hpp"
#include "gpuplan/report/text_table.hpp"
#include "report/confidence_view.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>

namespace gpuplan::report {

namespace {

// The rows of the options table a first screen may show, and the fewest it keeps when the lines
// above and below it are many.
constexpr std::size_t k_screen_rows = 5;
constexpr std::size_t k_least_rows = 3;

// `llama (finetune): 12 months at 10%/yr, USD`.
std::string headline(const recommend::Recommendation& r) {
    const workload::Workload& w = r.workload;
    return fmt::format("{} ({}): {:g} months at {:g}%/yr, {}",
                       w.name.empty() ? std::string("workload") : escape_control(w.name),
                       workload::to_string(w.task), w.horizon_months, r.plan.discount_rate * 100.0,
                       r.plan.currency);
}

// `8 x B300 on 1 node, wall 29m, NPV 9.04 USD (total 9.11 USD)`; a service: its hours and
// monthly cost.
std::string size_line(const recommend::Recommendation& r, const cost::Option& o) {
    const std::string& currency = r.plan.currency;
    const std::string shape =
        fmt::format("{} on {} node{}", cost::gpus_text(o), o.nodes, o.nodes == 1 ? "" : "s");
    if (r.service) {
        return fmt::format("{}, {} h a month, {} a month, NPV {}", shape,
                           format_fixed(r.service->hours_per_month, 0),
                           format_money(r.service->cost_per_month, currency),
                           format_money(o.npv, currency));
    }
    return fmt::format("{}, wall {}, NPV {} (total {})", shape, format_duration(o.wall_hours),
                       format_money(o.npv, currency), format_money(o.total, currency));
}

// The first row after #1 that competes with it: the next firm one when #1 is firm (soft rows rank
// after every firm one, whatever their cost); nullopt when there is none.
std::optional<std::size_t> runner_up(const recommend::Recommendation& r) {
    const bool firm = r.shown(0).firm();
    for (std::size_t g = 1; g < r.groups.size(); ++g) {
        if (!firm || r.shown(g).firm()) {
            return g;
        }
    }
    return std::nullopt;
}

// What the ranking measured #1 by, and how far behind the runner-up is.
std::string why_line(const recommend::Recommendation& r) {
    const cost::Option& best = r.shown(0);
    const auto firm = static_cast<std::size_t>(
        std::count_if(r.ranked.begin(), r.ranked.end(),
                      [&](std::size_t index) { return r.plan.options()[index].firm(); }));
    const std::string of =
        best.firm() ? (firm == 1 ? std::string("the only firm option")
                                 : fmt::format("{} firm options", firm))
                    : fmt::format("{} options, {}", r.ranked.size(),
                                  firm == 0 ? "none of them firm" : "soft answers included");
    std::string out;
    switch (r.objective) {
    case rank::Objective::cost:
        out = firm == 1 && best.firm() ? of : fmt::format("the lowest NPV of {}", of);
        break;
    case rank::Objective::time:
        out = fmt::format("the shortest wall time of {}", of);
        break;
    case rank::Objective::balanced:
        out = fmt::format("the best balance of NPV and wall time of {}", of);
        break;
    }
    if (const std::optional<std::size_t> next_row = runner_up(r)) {
        const cost::Option& next = r.shown(*next_row);
        const std::string who =
            fmt::format("#{} ({} at {})", *next_row + 1, next.gpu, escape_control(next.provider));
        if (r.objective == rank::Objective::time || best.npv <= 0.0) {
            out += fmt::format("; {} takes {}", who, format_duration(next.wall_hours));
        } else {
            out += fmt::format("; {} costs {:+.1f}%", who, (next.npv / best.npv - 1.0) * 100.0);
        }
    }
    for (const cost::NoteIndex index : best.notes) {
        const cost::Note& note = r.plan.notes[index];
        if (note.kind == cost::NoteKind::rule_favours_purchase ||
            note.kind == cost::NoteKind::rule_favours_gpu) {
            out += "; " + note_text(note);
        }
    }
    return out;
}

// The risks #1's own notes state, each once.
std::vector<std::string> note_risks(const recommend::Recommendation& r) {
    const cost::Option& best = r.shown(0);
    std::vector<std::string> risks;
    for (const cost::NoteIndex index : best.risks) {
        risks.push_back(risk_phrase(r.plan.notes[index]));
    }
    const bool derived = std::any_of(best.risks.begin(), best.risks.end(), [&](auto index) {
        return r.plan.notes[index].kind == cost::NoteKind::risk_derived_commitment;
    });
    for (const cost::NoteIndex index : best.notes) {
        const cost::Note& note = r.plan.notes[index];
        // A derived commitment's risk already says its price is a default discount.
        if (derived && note.kind == cost::NoteKind::default_commitment_price) {
            continue;
        }
        std::string phrase = risk_phrase(note);
        if (!phrase.empty() && std::find(risks.begin(), risks.end(), phrase) == risks.end()) {
            risks.push_back(std::move(phrase));
        }
    }
    return risks;
}

// #1's risks in a few words each: spot, placeholders, defaults, old prices, commitments (a ranked
// service meets every target: one that misses is rejected).
std::string risks_line(const recommend::Recommendation& r) {
    const cost::Option& best = r.shown(0);
    std::vector<std::string> risks = note_risks(r);
    if (r.stale_prices) {
        const recommend::StalePrices& s = *r.stale_prices;
        risks.push_back(s.as_of ? fmt::format("prices {:.0f} days old (as of {}; limit {:g})",
                                              s.age_days, s.as_of->to_string(), s.limit_days)
                                : std::string("undated prices"));
    }
    // A default behind #1's price (r.default_decides): a default commitment discount is named by
    // its own note above, so is a spot rate that is gpuplan's PLACEHOLDER; a provider's default
    // rate is not marked so there.
    const bool placeholder_named = std::any_of(risks.begin(), risks.end(), [](const auto& risk) {
        return risk.find("PLACEHOLDER interruption") != std::string::npos;
    });
    if (r.default_decides && r.default_decides->kind == cost::NoteKind::spot_risk &&
        !placeholder_named) {
        risks.emplace_back("the ranking rests on a placeholder spot rate");
    }
    if (risks.empty()) {
        return fmt::format(
            "none noted: a {} price{}, {} capacity", cost::to_string(best.price_basis),
            best.prices_as_of ? " of " + best.prices_as_of->to_string() : "",
            best.purchase == PurchaseOption::spot ? std::string_view("spot")
                                                  : catalog::to_string(best.capacity));
    }
    return fmt::format("{}", fmt::join(risks, "; "));
}

// What a soft answer rests on, in a few words.
std::string_view soft_reason(cost::NoteKind kind) {
    switch (kind) {
    case cost::NoteKind::risk_undated_price:
        return "an undated price";
    case cost::NoteKind::risk_derived_commitment:
        return "a default commitment discount";
    case cost::NoteKind::risk_quote:
        return "a quote, not a listed product";
    case cost::NoteKind::risk_marketplace:
        return "marketplace capacity";
    case cost::NoteKind::risk_stale_price:
        return "an old price";
    case cost::NoteKind::risk_cluster_quote:
        return "a cluster priced at its single-node rate";
    case cost::NoteKind::risk_spot_outlier:
        return "an outlier spot zone";
    case cost::NoteKind::spot_capacity:
        return "a spot gang held together for long";
    default:
        return "a soft price";
    }
}

// The first soft answer cheaper than #1 (ranked after every firm one), in one line.
std::string soft_line(const recommend::Recommendation& r) {
    const cost::Option& best = r.shown(0);
    if (!best.firm() || best.npv <= 0.0) {
        return {};
    }
    for (const std::size_t index : r.ranked) {
        const cost::Option& o = r.plan.options()[index];
        if (!o.firm() && o.npv < best.npv) {
            return fmt::format("{} saves {:.0f}% but rests on {} (--accept-soft ranks it)",
                               escape_control(o.id()), 100.0 * (1.0 - o.npv / best.npv),
                               soft_reason(r.plan.notes[o.risks.front()].kind));
        }
    }
    return {};
}

// The service's targets at their percentile: what #1 achieves.
std::string service_line(const recommend::Service& s) {
    std::vector<std::string> parts;
    for (const recommend::ServiceTarget& t : s.targets) {
        parts.push_back(
            t.what == "requests/s"
                ? fmt::format("{:g} requests/s asked, capacity {:.4g}", t.target, t.achieved)
                : fmt::format("{} {:.4g} ms of {:g}", t.what, t.achieved, t.target));
    }
    if (s.expert_parallel > 1) {
        parts.push_back(fmt::format("replicas of {} GPUs, experts over {} with attention "
                                    "data-parallel",
                                    s.expert_parallel, s.expert_parallel));
    }
    return fmt::format("P{}: {}", s.percentile, fmt::join(parts, "; "));
}

// "; engine NAME" for a service on a named engine; empty for the generic model.
std::string engine_text(const workload::Workload& w) {
    return w.inference.engine == workload::Engine::generic
               ? std::string()
               : fmt::format("; engine {}", workload::to_string(w.inference.engine));
}

// The top rows: #, GPUs, wall (or hours a month), NPV and the whole id.
TextTable top_table(const recommend::Recommendation& r, std::size_t rows) {
    TextTable table;
    table.add_column("#", Align::right);
    table.add_column("GPUs");
    table.add_column(is_service(r) ? "h/month" : "wall", Align::right);
    table.add_column("NPV", Align::right);
    // Soft rows (ranked after every firm one) are marked where any is shown.
    bool soft = false;
    for (std::size_t i = 0; i < rows; ++i) {
        soft = soft || !r.shown(i).firm();
    }
    if (soft) {
        table.add_column("price");
    }
    table.add_column("option", Align::left, 0, Cut::spill);
    for (std::size_t i = 0; i < rows; ++i) {
        const cost::Option& o = r.shown(i);
        std::vector<std::string> row{std::to_string(i + 1), cost::gpus_text(o), wall_text(r, o),
                                     format_fixed(o.npv, 2)};
        if (soft) {
            row.emplace_back(o.firm() ? "firm" : "soft");
        }
        row.push_back(o.id());
        table.add_row(std::move(row));
    }
    return table;
}

std::size_t line_count(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// The commands that look closer or act: every section, a launch file for #1, fresh prices.
std::string next_lines(const recommend::Recommendation& r, const Screen& screen,
                       std::size_t width) {
    std::vector<std::pair<std::string, std::string>> flags; // flag, what it does
    if (!screen.details) {
        flags.emplace_back("--details", r.confidence && !r.confidence->flips.empty()
                                            ? "every table, rejection, rule and flip point"
                                            : "every table, rejection and rule");
    }
    if (r.ranked.empty()) {
        flags.emplace_back("--explain", "why each option failed, those the rules left out too");
    } else {
        for (const Launcher launcher : {Launcher::skypilot, Launcher::dstack}) {
            if (launch_refusal(launcher, r.shown(0)).empty()) {
                flags.emplace_back(
                    fmt::format("--emit {} FILE", to_string(launcher)),
                    fmt::format("a {} task for #1 (--option N: row N)",
                                launcher == Launcher::skypilot ? "SkyPilot" : "dstack"));
                break;
            }
        }
    }
    std::string out = wrap_lines(
        fmt::format("Next: add to {}\n", screen.command.empty() ? std::string("the command")
                                                                : escape_control(screen.command)),
        width);
    std::size_t flag_width = 0;
    for (const auto& [flag, does] : flags) {
        flag_width = std::max(flag_width, flag.size());
    }
    for (const auto& [flag, does] : flags) {
        out += fmt::format("  {:<{}}  {}\n", flag, flag_width, does);
    }
    if (r.stale_prices) {
        out += "  or run `gpuplan catalog update` for current public prices\n";
    }
    return out;
}

} // namespace

bool is_service(const recommend::Recommendation& r) {
    return r.workload.task == workload::Task::inference;
}

// Training: the wall time; a service: its hours a month.
std::string wall_text(const recommend::Recommendation& r, const cost::Option& o) {
    return is_service(r) ? format_fixed(o.wall_hours, 0) : format_duration(o.wall_hours);
}

std::string counts_text(const std::map<std::string, std::size_t>& counts) {
    std::string text;
    for (const auto& [code, count] : counts) {
        text += fmt::format("{}{} {}", text.empty() ? "" : ", ", code, count);
    }
    return text;
}

// The calibration factor #1's GPU model was estimated with, or that none matched.
std::string calibration_line(const recommend::Recommendation& r, const cost::Option& best) {
    const workload::Workload& w = r.workload;
    const catalog::Precision precision =
        w.task == workload::Task::inference ? w.inference.precision : w.training.precision;
    const workload::SpeedFactor* f = workload::find_speed_factor(
        w.calibration, best.gpu, workload::to_string(w.task), catalog::to_string(precision));
    if (f == nullptr) {
        return fmt::format("no factor for {} {} {} in {}; the default estimate", best.gpu,
                           workload::to_string(w.task), catalog::to_string(precision),
                           w.calibration.file);
    }
    const int runs = f->runs + f->carried_runs;
    return fmt::format("speed x{:.3f} for {}{} from {} run{} ({})", f->factor, f->gpu,
                       f->engine.empty() ? "" : " (" + f->engine + ")", runs, runs == 1 ? "" : "s",
                       w.calibration.file);
}

std::string first_screen(const recommend::Recommendation& r, const Screen& screen,
                         std::size_t width) {
    std::string top = headline(r) + "\n";
    if (r.ranked.empty()) {
        top += fmt::format("No feasible option: {} rejected ({}).\n", r.rejected.size(),
                           counts_text(r.rejection_counts));
        const std::vector<std::string>& gpus = r.workload.constraints.gpu_models;
        if (r.rejected.empty() && !gpus.empty()) {
            top += fmt::format("No offer in the catalog matches the constraints (GPU models: {}); "
                               "`gpuplan estimate` sizes the job on them without prices.\n",
                               fmt::join(gpus, ", "));
        }
        return wrap_lines(top, width) + "\n" + next_lines(r, screen, width);
    }
    const cost::Option& best = r.shown(0);
    top += fmt::format("Best: {}\n", escape_control(best.id()));
    top += "  " + size_line(r, best) + "\n";
    if (r.service) {
        top += "  serves " + service_line(*r.service) + engine_text(r.workload) + "\n";
    }
    top += "  why: " + why_line(r) + "\n";
    top += "  risks: " + risks_line(r) + "\n";
    if (!r.workload.calibration.factors.empty()) {
        top += "  calibration: " + calibration_line(r, best) + "\n";
    }
    const std::string soft = soft_line(r);
    if (!soft.empty()) {
        top += "  soft: " + soft + "\n";
    }
    const std::string confidence = confidence_short(r);
    if (!confidence.empty()) {
        top += "  confidence: " + confidence + "\n";
    }
    top = wrap_lines(top, width);
    const std::string next = next_lines(r, screen, width);
    // The flips a flag shows, as many as leave room for the fewest rows (every flip point, and
    // the full confidence line, are in --details).
    const std::size_t least_table =
        line_count(top_table(r, std::min(k_least_rows, r.groups.size())).render_text(width));
    for (const std::string& flip : flip_flags(r)) {
        const std::string line = wrap_lines("  flip: " + flip + "\n", width);
        if (line_count(top) + line_count(line) + line_count(next) + 2 + least_table >
            k_screen_lines - 1) {
            break;
        }
        top += line;
    }
    // The rows fit the lines a 24-line terminal has left (one for the prompt), at least three.
    const std::size_t used = line_count(top) + line_count(next) + 2 + 2;
    const std::size_t room = used < k_screen_lines - 1 ? k_screen_lines - 1 - used : 0;
    std::size_t rows = std::min({k_screen_rows, r.groups.size(), std::max(room, k_least_rows)});
    std::string table = top_table(r, rows).render_text(width);
    while (rows > k_least_rows &&
           line_count(top) + line_count(table) + line_count(next) + 2 > k_screen_lines - 1) {
        --rows;
        table = top_table(r, rows).render_text(width);
    }
    return top + "\n" + table + "\n" + next;
}

} // namespace gpuplan::report

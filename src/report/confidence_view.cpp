#include "report/confidence_view.hpp"

#include "gpuplan/numbers.hpp"
#include "gpuplan/report/escape.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

using nlohmann::ordered_json;

namespace {

constexpr int k_share_digits = 4;

std::string_view verdict(double p_best) {
    return p_best >= recommend::k_clear_p_best       ? "clear"
           : p_best >= recommend::k_uncertain_p_best ? "likely"
                                                     : "uncertain";
}

std::string_view deciding_words(recommend::UncertainInput input) {
    switch (input) {
    case recommend::UncertainInput::estimate:
        return "the estimator's speed (MFU or throughput)";
    case recommend::UncertainInput::prices:
        return "prices";
    case recommend::UncertainInput::spot_rate:
        return "the spot interruption rate";
    case recommend::UncertainInput::fx:
        return "exchange rates";
    case recommend::UncertainInput::utilisation:
        return "how much of the planned work happens";
    case recommend::UncertainInput::demand:
        return "demand";
    }
    return "?";
}

// `72%`; a share that rounds to 0 or 100 but is not says so (`<1%`, `>99%`).
std::string percent_text(double share) {
    if (share > 0.0 && share < 0.005) {
        return "<1%";
    }
    if (share < 1.0 && share > 0.995) {
        return ">99%";
    }
    return fmt::format("{:.0f}%", 100.0 * share);
}

// `#3` for a shown row's option, else its id.
std::string who(const recommend::Recommendation& r, const std::string& id) {
    for (std::size_t g = 0; g < recommend::shown_count(r); ++g) {
        if (r.shown(g).id() == id) {
            return fmt::format("#{}", g + 1);
        }
    }
    return escape_control(id);
}

std::string flip_text(const recommend::Recommendation& r, const recommend::Flip& f) {
    using recommend::UncertainInput;
    if (!f.flag.empty()) {
        const std::string winner = who(r, f.winner);
        return f.input == UncertainInput::estimate
                   ? fmt::format("{} ranks first if the MFU of every GPU is {} {:.3f} (#1's "
                                 "estimate uses {:.3f}): {}",
                                 winner, f.below ? "below" : "above", f.value, f.base, f.flag)
               : f.input == UncertainInput::spot_rate
                   ? fmt::format("{} ranks first if spot interruptions are {} {:.3g} per "
                                 "node-hour (the spot option uses {:.3g}): {}",
                                 winner, f.below ? "below" : "above", f.value, f.base, f.flag)
                   : fmt::format("{} ranks first with a discount over {:.2f}% on {}: {}", winner,
                                 100.0 * f.value, escape_control(f.subject), f.flag);
    }
    std::string text;
    switch (f.input) {
    case UncertainInput::estimate:
        text = fmt::format("#2 ranks above #1 if {} runs more than {:.1f}% slower than "
                           "estimated (the other GPUs as estimated)",
                           escape_control(f.subject), 100.0 * (1.0 - f.value));
        break;
    case UncertainInput::prices:
        text =
            fmt::format("#2 ranks above #1 if its prices fall more than {:.1f}%", 100.0 * f.value);
        break;
    case UncertainInput::spot_rate:
        text = "#2 ranks above #1 at another spot interruption rate";
        break;
    case UncertainInput::fx:
        text = fmt::format("#2 ranks above #1 if {} {} more than {:.1f}% against {}", f.subject,
                           f.below ? "falls" : "rises", 100.0 * std::abs(f.value - 1.0),
                           r.plan.currency);
        break;
    case UncertainInput::utilisation:
        text = fmt::format("#2 ranks above #1 if {} than {} of the planned work happens",
                           f.below ? "less" : "more", percent_text(f.value));
        break;
    case UncertainInput::demand:
        text = "#2 ranks above #1 at another demand";
        break;
    }
    return text;
}

// Columns of the interval plot's scale.
constexpr int k_plot_columns = 50;

// One option's NPV interval on a shared scale: `[` at P10, `|` at P50, `]` at P90.
std::string interval_bar(const recommend::OptionConfidence& o, double low, double high) {
    std::string bar(static_cast<std::size_t>(k_plot_columns), ' ');
    const auto column = [&](double value) {
        const double at = high > low ? (value - low) / (high - low) : 0.5;
        return static_cast<std::size_t>(std::clamp(
            static_cast<int>(std::lround(at * (k_plot_columns - 1))), 0, k_plot_columns - 1));
    };
    const std::size_t from = column(o.npv_p10);
    const std::size_t to = column(o.npv_p90);
    for (std::size_t k = from; k <= to; ++k) {
        bar[k] = '=';
    }
    bar[from] = '[';
    bar[to] = ']';
    bar[column(o.npv_p50)] = '|';
    return bar;
}

// The drawn options shown, firm ones first, each an interval of NPV from P10 to P90 (a text
// plot in a code block, so it reads the same in a terminal, a PR comment and the HTML report).
std::string interval_plot(const recommend::Recommendation& r) {
    const recommend::Confidence& c = *r.confidence;
    std::vector<const recommend::OptionConfidence*> shown;
    double low = 0.0;
    double high = 0.0;
    for (const recommend::OptionConfidence& o : c.options) {
        if (o.group < recommend::shown_count(r)) {
            low = shown.empty() ? o.npv_p10 : std::min(low, o.npv_p10);
            high = shown.empty() ? o.npv_p90 : std::max(high, o.npv_p90);
            shown.push_back(&o);
        }
    }
    if (shown.empty()) {
        return {};
    }
    std::string out = fmt::format("```text\nNPV, P10 [ P50 | P90 ], {} to {} {}\n",
                                  format_thousands(low), format_thousands(high), r.plan.currency);
    for (const bool firm : {true, false}) {
        for (const recommend::OptionConfidence* o : shown) {
            if (r.shown(o->group).firm() == firm) {
                out += fmt::format("#{:<3} {}  {} {}  best {}\n", o->group + 1,
                                   firm ? "firm" : "soft", interval_bar(*o, low, high),
                                   format_thousands(o->npv_p50), percent_text(o->p_best));
            }
        }
    }
    return out + "```\n\n";
}

} // namespace

const recommend::OptionConfidence* option_confidence(const recommend::Recommendation& r,
                                                     std::size_t group) {
    if (!r.confidence) {
        return nullptr;
    }
    for (const recommend::OptionConfidence& c : r.confidence->options) {
        if (c.group == group) {
            return &c;
        }
    }
    return nullptr;
}

namespace {

// #1's share of the draws, the verdict (and what decides an uncertain one), the runner-up and how
// often #1 meets its constraints: in full words, or `brief` for the first screen.
std::string summary(const recommend::Confidence& c, bool brief) {
    std::string out =
        fmt::format(fmt::runtime(brief ? "{} best in {} draws" : "best in {} of {} draws"),
                    percent_text(c.top_p_best), format_thousands(static_cast<double>(c.draws)));
    const std::string_view word = verdict(c.top_p_best);
    if (word != "uncertain") {
        out += fmt::format(" ({})", word);
    } else if (!c.deciding) {
        out += brief ? ", UNCERTAIN" : ": UNCERTAIN";
    } else {
        out += brief ? fmt::format(", UNCERTAIN ({})", to_string(*c.deciding))
                     : fmt::format(": UNCERTAIN, decided by {}", deciding_words(*c.deciding));
    }
    if (c.runner_up) {
        const recommend::OptionConfidence& o = c.options[*c.runner_up];
        out += fmt::format(fmt::runtime(brief ? "; #{} {}" : "; #{} best in {}"), o.group + 1,
                           percent_text(o.p_best));
    }
    if (c.options.front().p_meets < 1.0) {
        out += fmt::format(
            fmt::runtime(brief ? "; meets {}" : "; it meets every constraint in {} of them"),
            percent_text(c.options.front().p_meets));
    }
    return out;
}

} // namespace

std::string confidence_line(const recommend::Recommendation& r) {
    if (!r.confidence || r.confidence->options.empty()) {
        return {};
    }
    const recommend::Confidence& c = *r.confidence;
    std::string out = summary(c, false);
    if (c.p_none > 0.0) {
        out += fmt::format("; nothing meets every constraint in {}", percent_text(c.p_none));
    }
    if (r.objective == rank::Objective::cost) {
        out += fmt::format("; expected regret {}", format_money(c.regret, r.plan.currency));
    }
    if (c.top_p_best < recommend::k_warn_p_best) {
        out += "; warning: #1 is best in fewer than half the draws";
    }
    return out;
}

std::string confidence_short(const recommend::Recommendation& r) {
    if (!r.confidence || r.confidence->options.empty()) {
        return {};
    }
    return summary(*r.confidence, true);
}

std::vector<std::string> flip_flags(const recommend::Recommendation& r) {
    using recommend::UncertainInput;
    std::vector<std::string> out;
    if (!r.confidence) {
        return out;
    }
    for (const recommend::Flip& f : r.confidence->flips) {
        if (f.flag.empty()) {
            continue;
        }
        const std::string head = fmt::format("{} puts {} first", f.flag, who(r, f.winner));
        switch (f.input) {
        case UncertainInput::estimate:
            out.push_back(fmt::format("{} (MFU {} {:.3f}; #1 uses {:.3f})", head,
                                      f.below ? "below" : "above", f.value, f.base));
            break;
        case UncertainInput::spot_rate:
            out.push_back(fmt::format("{} (rate {} {:.3g}; #1 uses {:.3g})", head,
                                      f.below ? "below" : "above", f.value, f.base));
            break;
        default:
            out.push_back(head);
            break;
        }
    }
    return out;
}

std::vector<std::string> flip_lines(const recommend::Recommendation& r) {
    std::vector<std::string> out;
    if (r.confidence) {
        for (const recommend::Flip& f : r.confidence->flips) {
            out.push_back(flip_text(r, f));
        }
    }
    return out;
}

ordered_json option_confidence_json(const recommend::OptionConfidence& c) {
    ordered_json out{{"p_best", round_to(c.p_best, k_share_digits)},
                     {"cost_p50", round_money(c.cost_p50)},
                     {"cost_p90", round_money(c.cost_p90)},
                     {"npv_p10", round_money(c.npv_p10)},
                     {"npv_p50", round_money(c.npv_p50)},
                     {"npv_p90", round_money(c.npv_p90)},
                     {"wall_p90_hours", round_to(c.wall_p90_hours, k_json_hour_digits)},
                     {"latency_p90_ms", c.latency_p90_ms
                                            ? ordered_json(round_to(*c.latency_p90_ms, 2))
                                            : ordered_json(nullptr)},
                     {"p_meets", round_to(c.p_meets, k_share_digits)}};
    return out;
}

ordered_json confidence_json(const recommend::Recommendation& r) {
    if (!r.confidence) {
        return nullptr;
    }
    const recommend::Confidence& c = *r.confidence;
    ordered_json flips = ordered_json::array();
    for (const recommend::Flip& f : c.flips) {
        flips.push_back({{"input", recommend::to_string(f.input)},
                         {"subject", f.subject},
                         {"default", round_significant(f.base, 6)},
                         {"value", round_significant(f.value, 6)},
                         {"below", f.below},
                         {"winner", f.winner},
                         {"flag", f.flag.empty() ? ordered_json(nullptr) : ordered_json(f.flag)},
                         {"message", flip_text(r, f)}});
    }
    ordered_json inputs = ordered_json::array();
    for (const recommend::InputSpread& s : c.inputs) {
        inputs.push_back({{"input", recommend::to_string(s.input)},
                          {"distribution", s.what},
                          {"source", s.source}});
    }
    const bool any = !c.options.empty();
    return {{"draws", c.draws},
            {"seed", c.seed},
            {"drawn", c.options.size()},
            {"groups_total", c.groups_total},
            {"top_p_best", round_to(c.top_p_best, k_share_digits)},
            {"verdict", any ? ordered_json(verdict(c.top_p_best)) : ordered_json(nullptr)},
            {"p_none", round_to(c.p_none, k_share_digits)},
            {"regret", round_money(c.regret)},
            {"runner_up", c.runner_up ? ordered_json(r.shown(c.options[*c.runner_up].group).id())
                                      : ordered_json(nullptr)},
            {"deciding",
             c.deciding ? ordered_json(recommend::to_string(*c.deciding)) : ordered_json(nullptr)},
            {"message", confidence_line(r)},
            {"flips", flips},
            {"inputs", inputs}};
}

std::string confidence_markdown(const recommend::Recommendation& r) {
    if (!r.confidence) {
        return {};
    }
    const recommend::Confidence& c = *r.confidence;
    std::string out = "## Confidence\n\n";
    if (c.options.empty()) {
        return out + "No feasible option to draw.\n";
    }
    out += fmt::format("The option ranked first is {}.\n\n", confidence_line(r));
    for (const std::string& line : flip_lines(r)) {
        out += "- " + escape_markdown_cell(line) + "\n";
    }
    if (!c.flips.empty()) {
        out += "\n";
    }
    out += interval_plot(r);
    const bool service = r.workload.task == workload::Task::inference;
    out += fmt::format("| # | P(best) | P(meets) | NPV P50 | NPV P90 | cost P90 | {} P90 | "
                       "option |\n|---:|---:|---:|---:|---:|---:|---:|---|\n",
                       service ? "latency" : "wall");
    for (const recommend::OptionConfidence& o : c.options) {
        if (o.group >= recommend::shown_count(r)) {
            break;
        }
        out +=
            fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", o.group + 1,
                        percent_text(o.p_best), percent_text(o.p_meets), format_fixed(o.npv_p50, 2),
                        format_fixed(o.npv_p90, 2), format_fixed(o.cost_p90, 2),
                        service ? (o.latency_p90_ms ? fmt::format("{:.4g} ms", *o.latency_p90_ms)
                                                    : std::string("-"))
                                : format_duration(o.wall_p90_hours),
                        escape_markdown_cell(r.shown(o.group).id()));
    }
    out += fmt::format("\n{} draws (seed {}) of the {} best-ranked of {} option groups; each "
                       "draw re-prices them from their cash flows:\n\n",
                       format_thousands(static_cast<double>(c.draws)), c.seed, c.options.size(),
                       c.groups_total);
    for (const recommend::InputSpread& s : c.inputs) {
        out += fmt::format("- {}: {} ({})\n", recommend::to_string(s.input),
                           escape_markdown_cell(s.what), escape_markdown_cell(s.source));
    }
    return out;
}

} // namespace gpuplan::report

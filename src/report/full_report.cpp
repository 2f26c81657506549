#include "gpuplan/report/full_report.hpp"

#include "gpuplan/report/decision_view.hpp"
#include "gpuplan/report/text_table.hpp"
#include "report/confidence_view.hpp"
#include "report/curve_view.hpp"
#include "report/workload_json.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace gpuplan::report {

namespace {

// Rows of the ranked-options and rejected tables, at most.
constexpr std::size_t k_ranked_rows = 10;
constexpr std::size_t k_rejected_rows = 10;
// Width of the longest tornado bar, in block characters.
constexpr double k_bar_width = 20.0;

std::string money(double amount, const std::string& currency) {
    return format_money(amount, currency);
}

std::string esc(const std::string& text) {
    return escape_markdown_cell(text);
}

const cost::Option& option_at(const recommend::Recommendation& r, std::size_t index) {
    return r.plan.options()[index];
}

// The summary's sentence on a service: its hours, monthly cost, engine and targets.
std::string service_sentence(const recommend::Recommendation& r,
                             const recommend::Service& service) {
    std::string out = fmt::format("{} service hours a month at {} a month on average.",
                                  format_fixed(service.hours_per_month, 0),
                                  money(service.cost_per_month, r.plan.currency));
    if (r.workload.inference.engine != workload::Engine::generic) {
        out += fmt::format(" Served by {}.", workload::to_string(r.workload.inference.engine));
    }
    for (const recommend::ServiceTarget& t : service.targets) {
        out += t.what == "requests/s"
                   ? fmt::format(" It serves {:g} requests/s (capacity {:.4g}): {}.", t.target,
                                 t.achieved, t.met ? "met" : "**missed**")
                   : fmt::format(" {} at P{} {:.4g} ms against {:g} ms: {}.", t.what,
                                 service.percentile, t.achieved, t.target,
                                 t.met ? "met" : "**missed**");
    }
    return out;
}

std::string summary(const recommend::Recommendation& r) {
    const std::string& currency = r.plan.currency;
    std::string out = "## Summary\n\n";
    if (r.ranked.empty()) {
        out += fmt::format("No option is feasible: all {} priced options were rejected (see "
                           "[Rejected options](#rejected-options)).\n",
                           r.rejected.size());
        return out;
    }
    const cost::Option& best = r.shown(0);
    out +=
        fmt::format("Run **{}** on {} with **{}** (`{}`): present value **{}**, total {} over {} "
                    "months, ",
                    esc(r.workload.name), esc(cost::gpus_text(best)),
                    gpuplan::to_string(best.purchase), esc(best.id()), money(best.npv, currency),
                    money(best.total, currency), format_fixed(r.plan.horizon_months, 0));
    if (r.service) {
        out += service_sentence(r, *r.service);
    } else {
        out += fmt::format("wall time {}.", format_duration(best.wall_hours));
    }
    const workload::Constraints& c = r.workload.constraints;
    std::vector<std::string> verdicts;
    if (c.deadline_hours) {
        verdicts.push_back(fmt::format("{} the deadline of {}",
                                       best.meets_deadline ? "meets" : "**misses**",
                                       format_duration(*c.deadline_hours)));
    }
    if (c.budget) {
        verdicts.push_back(fmt::format("{} the budget of {}",
                                       best.within_budget ? "is within" : "**exceeds**",
                                       money(c.budget->amount, c.budget->currency)));
    }
    if (!verdicts.empty()) {
        out += " It " + verdicts.front();
        for (std::size_t i = 1; i < verdicts.size(); ++i) {
            out += " and " + verdicts[i];
        }
        out += ".";
    }
    out += fmt::format(" {} options ranked, {} rejected.\n", r.ranked.size(), r.rejected.size());
    return out;
}

int min_replicas(const curve::CurvePlan& plan) {
    const auto lowest = std::min_element(
        plan.hours.begin(), plan.hours.end(),
        [](const curve::Hour& a, const curve::Hour& b) { return a.needed < b.needed; });
    return lowest == plan.hours.end() ? 0 : lowest->needed;
}

// The summary's line for a service that follows a traffic curve: what the curve plan buys and
// what it saves against holding the peak in every hour.
std::string curve_summary(const curve::CurvePlan& plan, const std::string& currency) {
    return fmt::format(
        "\nFollowing its traffic curve, the service needs {} to {} replicas of {} x {} in the "
        "hours of a typical week: the curve plan costs **{}** against {} for the flat peak "
        "plan, {:.2f}% saved, with the targets held in {} of 168 hours (see *Serving to the "
        "traffic curve*).\n",
        min_replicas(plan), plan.peak_replicas, plan.gpus_per_replica, esc(plan.gpu),
        money(plan.npv, currency), money(plan.flat_peak_npv, currency), plan.saving * 100.0,
        plan.hours_met);
}

std::string workload_section(const recommend::Recommendation& r) {
    const workload::Workload& w = r.workload;
    std::string out = "\n## Workload and assumptions\n\n";
    TextTable table;
    table.add_column("input");
    table.add_column("value");
    table.add_row({"task", std::string(workload::to_string(w.task))});
    table.add_row({"model parameters", format_thousands(w.model.params)});
    if (w.data.tokens) {
        table.add_row({"training tokens", format_thousands(*w.data.tokens)});
    }
    if (w.data.samples) {
        table.add_row({"samples per epoch", format_thousands(*w.data.samples)});
    }
    table.add_row({"runs in the horizon", std::to_string(w.schedule.runs)});
    table.add_row({"horizon", format_fixed(w.horizon_months, 0) + " months"});
    table.add_row({"deadline", w.constraints.deadline_hours
                                   ? format_duration(*w.constraints.deadline_hours)
                                   : std::string("none")});
    table.add_row({"budget", w.constraints.budget ? money(w.constraints.budget->amount,
                                                          w.constraints.budget->currency)
                                                  : std::string("none")});
    table.add_row({"discount rate", fmt::format("{}% a year ({}% a month)",
                                                format_fixed(r.plan.discount_rate * 100.0, 2),
                                                format_fixed(r.plan.monthly_rate * 100.0, 4))});
    table.add_row({"currency", r.plan.currency});
    table.add_row({"objective", std::string(rank::to_string(r.objective))});
    out += table.render_markdown();
    if (!r.plan.assumptions.empty()) {
        out += "\n";
        for (const std::string& assumption : r.plan.assumptions) {
            out += "- " + esc(assumption) + "\n";
        }
    }
    out += "\n<details><summary>Full resolved workload (JSON)</summary>\n\n```json\n" +
           workload_json(w).dump(2) + "\n```\n\n</details>\n";
    return out;
}

std::string ranked_section(const recommend::Recommendation& r) {
    std::string out = "\n## Ranked options\n\n";
    if (r.ranked.empty()) {
        return out + "None.\n";
    }
    const std::string& currency = r.plan.currency;
    TextTable table;
    table.add_column("#", Align::right);
    table.add_column("option");
    table.add_column("GPUs", Align::right);
    table.add_column(r.workload.task == workload::Task::inference ? "service" : "wall",
                     Align::right);
    table.add_column("NPV (" + currency + ")", Align::right);
    table.add_column("total (" + currency + ")", Align::right);
    table.add_column("per GPU-hour", Align::right);
    table.add_column("deadline");
    table.add_column("budget");
    const std::size_t rows = std::min(r.groups.size(), k_ranked_rows);
    const bool service = r.workload.task == workload::Task::inference;
    for (std::size_t i = 0; i < rows; ++i) {
        const cost::Option& o = r.shown(i);
        const std::size_t others = r.groups[i].members.size() - 1;
        table.add_row(
            {std::to_string(i + 1),
             o.id() + (others > 0 ? fmt::format(" (+{} identical)", others) : std::string()),
             cost::gpus_text(o),
             service ? format_fixed(o.wall_hours, 0) + " h/month" : format_duration(o.wall_hours),
             format_fixed(o.npv, 2), format_fixed(o.total, 2), format_fixed(o.per_gpu_hour, 4),
             !r.workload.constraints.deadline_hours ? "-"
             : o.meets_deadline                     ? "meets"
                                                    : "misses",
             o.within_budget ? "within" : "over"});
    }
    out += table.render_markdown();
    if (r.groups.size() > rows) {
        out += fmt::format("\n{} more distinct feasible offers are not shown.\n",
                           r.groups.size() - rows);
    }
    return out;
}

std::string breakdown_section(const recommend::Recommendation& r) {
    std::string out = "\n## Cost breakdown of the top options\n\n";
    if (r.ranked.empty()) {
        return out + "None.\n";
    }
    const std::size_t count = std::min(r.ranked.size(), k_report_top_options);
    std::vector<std::array<double, cost::k_item_count>> totals;
    TextTable table;
    table.add_column("item");
    for (std::size_t i = 0; i < count; ++i) {
        const cost::Option& o = option_at(r, r.ranked[i]);
        totals.push_back(o.item_totals);
        table.add_column(fmt::format("#{} {}", i + 1, o.id()), Align::right);
    }
    for (std::size_t item = 0; item < cost::k_item_count; ++item) {
        const bool used = std::any_of(totals.begin(), totals.end(), [item](const auto& t) {
            return round_money(t.at(item)) != 0.0;
        });
        if (!used) {
            continue;
        }
        std::vector<std::string> row{std::string(cost::to_string(static_cast<cost::Item>(item)))};
        for (const auto& t : totals) {
            row.push_back(format_fixed(t.at(item), 2));
        }
        table.add_row(std::move(row));
    }
    std::vector<std::string> sum_row{"**total**"};
    for (std::size_t i = 0; i < count; ++i) {
        sum_row.push_back(format_fixed(option_at(r, r.ranked[i]).total, 2));
    }
    table.add_row(std::move(sum_row));
    out += fmt::format("Undiscounted totals by item over the horizon, in {}.\n\n", r.plan.currency);
    out += table.render_markdown();
    return out;
}

std::string chart_section(const recommend::Recommendation& r) {
    std::string out = "\n## Cumulative cost over the horizon\n\n";
    const CumulativeCostChart chart = purchase_option_chart(r);
    if (chart.series.empty()) {
        return out + "No feasible option to chart.\n";
    }
    out += "The best option of each purchase option, cumulative undiscounted cost at the end of "
           "each month.\n\n```mermaid\n" +
           render_mermaid_xychart(chart) + "```\n\n";
    const auto& colours = chart_palette_names();
    TextTable legend;
    legend.add_column("line");
    legend.add_column("purchase option");
    legend.add_column("total at the horizon", Align::right);
    std::size_t drawn = 0;
    for (const ChartSeries& series : chart.series) {
        const bool rejected = series.role == SeriesRole::rejected;
        legend.add_row({rejected ? std::string("not drawn")
                                 : colours[drawn++ % colours.size()] +
                                       (series.role == SeriesRole::chosen ? " (chosen)" : ""),
                        series.name,
                        money(series.values.empty() ? 0.0 : series.values.back(), chart.currency)});
    }
    out += legend.render_markdown();
    // Mermaid cannot annotate a line: the lead times are said under its legend.
    for (const ChartSeries& series : chart.series) {
        if (series.lead_time_weeks && series.role != SeriesRole::rejected) {
            out += fmt::format("\n{}: lead time {:g} weeks: the hardware runs from month {:.1f}.\n",
                               series.name, *series.lead_time_weeks,
                               *series.lead_time_weeks * 7.0 * k_hours_per_day / k_hours_per_month);
        }
    }
    return out;
}

std::string break_even_section(const recommend::Recommendation& r) {
    std::string out = "\n## Break-even points\n\n";
    const std::vector<BreakEven> points = break_even_points(r);
    if (points.empty()) {
        return out + "No feasible on-demand option to break even against.\n";
    }
    out += "Month from which each purchase option's cumulative present value stays at or below "
           "the best on-demand option's.\n\n";
    TextTable table;
    table.add_column("purchase option");
    table.add_column("option");
    table.add_column("break-even", Align::right);
    for (const BreakEven& point : points) {
        table.add_row({std::string(gpuplan::to_string(point.purchase)), point.option_id,
                       point.month ? fmt::format("month {}", *point.month)
                                   : std::string("never within the horizon")});
    }
    out += table.render_markdown();
    return out;
}

// One setting of a sensitivity input in its unit: `-20%`, `12.0 h`, `2 runs`, `6 months`,
// `5.0%`, `x0.25 the rate used`.
std::string sensitivity_setting(recommend::SensitivityInput input, double value) {
    switch (input) {
    case recommend::SensitivityInput::prices:
        return fmt::format("{}{}%", value > 0 ? "+" : "", format_fixed(value * 100.0, 0));
    case recommend::SensitivityInput::serving_hours:
        return format_fixed(value, 1) + " h";
    case recommend::SensitivityInput::runs: {
        const auto runs = static_cast<long long>(std::llround(value));
        return fmt::format("{} run{}", runs, runs == 1 ? "" : "s");
    }
    case recommend::SensitivityInput::horizon:
        return format_fixed(value, 0) + " months";
    case recommend::SensitivityInput::discount_rate:
        return format_fixed(value * 100.0, 1) + "%";
    case recommend::SensitivityInput::spot_interruption_rate:
        return fmt::format("x{:g} the rate used", value);
    }
    return {};
}

std::string sensitivity_section(const recommend::Recommendation& r) {
    const std::string& currency = r.plan.currency;
    std::string out = "\n## Sensitivity\n\n";
    if (!r.sensitivity) {
        return out + "Not computed.\n";
    }
    const recommend::Sensitivity& s = *r.sensitivity;
    if (!s.base.best_id) {
        return out + "Nothing is feasible, so there is no top choice to move.\n";
    }
    out += fmt::format("Each input moved down and up with the others held; the top choice is "
                       "`{}` at {}. Bars are the swing of the top choice's present value; "
                       "**bold** marks a changed top choice.\n\n",
                       esc(*s.base.best_id), money(s.base.npv, currency));
    double widest = 0.0;
    for (const recommend::SensitivityCase& c : s.cases) {
        widest = std::max(widest, c.swing().value_or(0.0));
    }
    const auto choice = [&](const recommend::BestOption& o) {
        if (!o.best_id) {
            return std::string("nothing feasible");
        }
        return *o.best_id == *s.base.best_id ? std::string("same") : "**" + *o.best_id + "**";
    };
    TextTable table;
    table.add_column("input");
    table.add_column("low");
    table.add_column("high");
    table.add_column("NPV at low", Align::right);
    table.add_column("NPV at high", Align::right);
    table.add_column("swing", Align::right);
    table.add_column("tornado");
    table.add_column("top choice at low");
    table.add_column("top choice at high");
    for (const recommend::SensitivityCase& c : s.cases) {
        const double swing = c.swing().value_or(0.0);
        const auto blocks =
            widest > 0.0 ? static_cast<std::size_t>(std::lround(swing / widest * k_bar_width)) : 0;
        std::string bar;
        for (std::size_t i = 0; i < blocks; ++i) {
            bar += "█";
        }
        table.add_row({std::string(recommend::to_string(c.input)),
                       sensitivity_setting(c.input, c.low_value),
                       sensitivity_setting(c.input, c.high_value),
                       c.low.best_id ? format_fixed(c.low.npv, 2) : "n/a",
                       c.high.best_id ? format_fixed(c.high.npv, 2) : "n/a",
                       c.swing() ? format_fixed(*c.swing(), 2) : "infeasible", bar, choice(c.low),
                       choice(c.high)});
    }
    out += table.render_markdown();
    return out;
}

std::string decision_section(const recommend::Recommendation& r) {
    std::string out = "\n## Decision\n\n";
    std::string gpus;
    for (const std::string& gpu : r.plan.candidate_gpus) {
        gpus += (gpus.empty() ? "" : ", ") + esc(gpu);
    }
    std::string purchases;
    for (PurchaseOption p : r.plan.purchase_options) {
        purchases += (purchases.empty() ? "" : ", ") + std::string(gpuplan::to_string(p));
    }
    out += fmt::format("- Candidate GPU models: {}\n- Purchase options priced: {}\n",
                       gpus.empty() ? "none" : gpus, purchases.empty() ? "none" : purchases);
    if (!r.decision) {
        out += "- Decision tree: not applied (--no-rules); every candidate above was priced and "
               "ranked by the objective.\n";
        return out;
    }
    out += fmt::format("- Decision tree: `{}`, full trace below.\n\n", esc(r.rules_file));
    std::string why = render_why(*r.decision, Format::markdown, WhyDetail::full);
    // The section's own heading level: the trace is a subsection of "Decision".
    if (const auto heading = why.find("## Why\n"); heading != std::string::npos) {
        why.replace(heading, 7, "### Decision-tree trace\n");
    }
    out += why;
    return out;
}

std::string rejected_section(const recommend::Recommendation& r) {
    std::string out = "\n## Rejected options\n\n";
    if (r.rejected.empty()) {
        return out + "None.\n";
    }
    TextTable by_reason;
    by_reason.add_column("reason");
    by_reason.add_column("options", Align::right);
    for (const auto& [reason, count] : r.rejection_counts) {
        by_reason.add_row({reason, std::to_string(count)});
    }
    out += by_reason.render_markdown() + "\n";
    TextTable table;
    table.add_column("option");
    table.add_column("reason");
    const std::size_t rows = std::min(r.rejected.size(), k_rejected_rows);
    for (std::size_t i = 0; i < rows; ++i) {
        const cost::Option& o = option_at(r, r.rejected[i]);
        table.add_row({o.id(), cost::reason(r.plan, o)});
    }
    out += table.render_markdown();
    if (r.rejected.size() > rows) {
        out += fmt::format("\n{} more rejected options are not shown (cheapest first above).\n",
                           r.rejected.size() - rows);
    }
    return out;
}

std::string provenance_section(const recommend::Recommendation& r) {
    std::string out = "\n## Catalog provenance\n\n";
    out += fmt::format("- Generator: {} {}\n", r.generator.name, r.generator.version);
    out += fmt::format("- Catalog digest: `{}` ({} offers)\n", r.catalog.digest, r.catalog.offers);
    out += r.catalog.newest.empty()
               ? "- Prices used: none dated\n"
               : fmt::format("- Prices used: as of {} to {}\n", r.catalog.oldest, r.catalog.newest);
    if (r.catalog.cache) {
        out += "- Price cache: " + esc(price_cache_note(*r.catalog.cache)) + "\n";
    }
    for (const cost::FxUse& fx : r.plan.fx) {
        out += fmt::format("- Exchange rate: 1 {} = {} {} (as of {})\n", fx.from,
                           format_price(fx.rate), fx.to, fx.as_of.empty() ? "n/a" : fx.as_of);
    }
    if (!r.generator.generated_at.empty()) {
        out += "- Generated at: " + r.generator.generated_at + "\n";
    }
    return out;
}

} // namespace

CumulativeCostChart purchase_option_chart(const recommend::Recommendation& report) {
    CumulativeCostChart chart;
    chart.title = fmt::format("Cumulative cost of {}", report.workload.name);
    chart.currency = report.plan.currency;
    // The x-axis ends at the horizon: months after it (a commitment's remaining term) are not
    // drawn; the NPV and total in the report include them.
    for (const recommend::PurchaseCurve& curve : report.purchase_curves.curves) {
        const cost::Option& o = report.plan.options()[curve.option];
        std::string name(gpuplan::to_string(o.purchase));
        SeriesRole role = SeriesRole::feasible;
        if (o.rejection) {
            name += fmt::format(" (rejected: {})", cost::to_string(*o.rejection));
            role = SeriesRole::rejected;
        } else if (!report.ranked.empty() && curve.option == report.ranked.front()) {
            role = SeriesRole::chosen;
        }
        chart.series.push_back(
            {name + ": " + o.id(), curve.cumulative, role, curve.lead_time_weeks});
    }
    return chart;
}

std::vector<BreakEven> break_even_points(const recommend::Recommendation& report) {
    std::vector<BreakEven> out;
    for (const recommend::BreakEvenMonth& point : report.purchase_curves.break_even) {
        const cost::Option& o = report.plan.options()[point.option];
        out.push_back({o.purchase, o.id(), point.month});
    }
    return out;
}

std::string render_full_report(const recommend::Recommendation& r, const curve::CurvePlan* curve) {
    std::string out = fmt::format("# gpuplan report: {}\n\n", esc(r.workload.name));
    if (!r.workload.description.empty()) {
        out += esc(r.workload.description) + "\n\n";
    }
    out += summary(r);
    if (curve != nullptr) {
        out += curve_summary(*curve, r.plan.currency);
    }
    out += workload_section(r);
    out += ranked_section(r);
    if (curve != nullptr) {
        out += curve_text(*curve, r.plan.currency, true) + "\n";
    }
    out += breakdown_section(r);
    out += chart_section(r);
    out += break_even_section(r);
    out += sensitivity_section(r);
    if (r.confidence) {
        out += confidence_markdown(r) + "\n";
    }
    out += decision_section(r);
    out += rejected_section(r);
    out += provenance_section(r);
    return out;
}

} // namespace gpuplan::report

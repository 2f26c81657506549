#include "gpuplan/report/fleet_view.hpp"

#include "gpuplan/numbers.hpp"
#include "gpuplan/report/escape.hpp"
#include "gpuplan/report/html_report.hpp"
#include "gpuplan/report/notes.hpp"
#include "gpuplan/report/text_table.hpp"
#include "report/catalog_json.hpp"
#include "report/generator_json.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

namespace {

using fleet::FleetPlan;
using nlohmann::ordered_json;

std::string percent(double fraction) {
    return fmt::format("{}%", format_fixed(fraction * 100.0, 1));
}

std::string purchase_name(const fleet::Commitment& c) {
    return std::string(to_string(c.purchase));
}

// What a commitment row is called in the sensitivity table: `A100-80GB reserved_3y m0`.
std::string short_name(const fleet::Commitment& c) {
    return fmt::format("{} {} m{}", c.gpu, purchase_name(c), c.start_month);
}

TextTable commitment_table(const FleetPlan& plan) {
    TextTable table;
    for (const char* h : {"gpu", "provider/region", "instance", "purchase", "payment"}) {
        table.add_column(h);
    }
    table.add_column("GPUs", Align::right);
    table.add_column("start", Align::right);
    table.add_column("months", Align::right);
    table.add_column("price", Align::right);
    table.add_column("break-even", Align::right);
    table.add_column("used", Align::right);
    table.add_column("NPV", Align::right);
    for (const fleet::Commitment& c : plan.commitments) {
        const double hours = c.horizon_gpu_hours;
        const std::string price =
            c.per_gpu_hour ? format_price(round_to(*c.per_gpu_hour, 4)) + "/GPU-h"
                           : format_thousands(c.capex_per_gpu.value_or(0.0)) + "/GPU capex";
        table.add_row({c.gpu, c.provider + "/" + c.region, c.instance,
                       purchase_name(c) + (c.is_default ? " (default price)" : ""), c.payment,
                       std::to_string(c.gpu_count), fmt::format("m{}", c.start_month),
                       std::to_string(c.months), price,
                       c.break_even_utilisation ? percent(*c.break_even_utilisation) : "-",
                       hours > 0.0 ? percent(c.used_gpu_hours / hours) : "-",
                       format_money(c.npv, plan.currency)});
    }
    return table;
}

// A commitment as a sentence, for a terminal too narrow for the commitment table.
std::string commitment_text(const FleetPlan& plan, const fleet::Commitment& c) {
    const std::string price = c.per_gpu_hour
                                  ? format_price(round_to(*c.per_gpu_hour, 4)) + "/GPU-h"
                                  : format_thousands(c.capex_per_gpu.value_or(0.0)) + "/GPU capex";
    const double hours = c.horizon_gpu_hours;
    return fmt::format("- {} x {} at {}/{} {}: {}{}, {}, from m{} for {} months at {}; "
                       "break-even {}, used {}; NPV {}\n",
                       c.gpu_count, c.gpu, c.provider, c.region, c.instance, purchase_name(c),
                       c.is_default ? " (default price)" : "", c.payment, c.start_month, c.months,
                       price, c.break_even_utilisation ? percent(*c.break_even_utilisation) : "-",
                       hours > 0.0 ? percent(c.used_gpu_hours / hours) : "-",
                       format_money(c.npv, plan.currency));
}

// Narrowest the name columns of the workload and sensitivity tables wrap to.
constexpr std::size_t k_min_name_width = 16;

TextTable workload_table(const FleetPlan& plan) {
    TextTable table;
    table.add_column("workload", Align::left, k_min_name_width, Cut::wrap);
    table.add_column("task");
    table.add_column("start");
    table.add_column("runs on", Align::left, k_min_name_width, Cut::wrap);
    table.add_column("GPUs", Align::right);
    table.add_column("GPU-hours", Align::right);
    for (const fleet::JobPlan& j : plan.jobs) {
        table.add_row({j.name + (j.interruptible ? " (interruptible)" : ""), j.task,
                       fmt::format("m{}", j.start_month),
                       j.unplanned.empty() ? j.gpu + " " + j.provider + "/" + j.region
                                           : "not planned: " + j.unplanned,
                       std::to_string(j.gpu_count), format_thousands(j.gpu_hours)});
    }
    return table;
}

TextTable sensitivity_table(const FleetPlan& plan) {
    TextTable table;
    table.add_column("workload", Align::left, k_min_name_width, Cut::wrap);
    table.add_column("demand", Align::right);
    table.add_column("NPV, plan kept", Align::right);
    table.add_column("NPV, re-planned", Align::right);
    table.add_column("commitments that still pay", Align::left, k_min_name_width, Cut::wrap);
    for (const fleet::Scenario& s : plan.sensitivity) {
        std::string short_of;
        for (std::size_t i = 0; i < s.units.size() && i < plan.commitments.size(); ++i) {
            const fleet::Commitment& c = plan.commitments[i];
            if (s.units[i] < c.units) {
                short_of += fmt::format("{}{} {} of {} units", short_of.empty() ? "" : "; ",
                                        short_name(c), s.units[i], c.units);
            }
        }
        const std::string kept = plan.commitments.empty() ? "-"
                                 : short_of.empty()       ? "all"
                                                          : "all but " + short_of;
        table.add_row(
            {fmt::format("{} (m{})", s.workload, s.start_month),
             fmt::format("{:+d}%", static_cast<int>(std::lround((s.factor - 1.0) * 100.0))),
             format_money(s.npv_kept, plan.currency),
             format_money(s.npv_reoptimised, plan.currency), kept});
    }
    return table;
}

TextTable month_table(const FleetPlan& plan) {
    TextTable table;
    table.add_column("month", Align::right);
    for (const char* h : {"demand", "committed", "used", "on-demand", "spot"}) {
        table.add_column(h, Align::right);
    }
    for (const fleet::Month& m : plan.months) {
        table.add_row({std::to_string(m.month), format_thousands(m.demand_gpu_hours),
                       format_thousands(m.committed_gpu_hours), format_thousands(m.used_gpu_hours),
                       format_thousands(m.on_demand_gpu_hours),
                       format_thousands(m.spot_gpu_hours)});
    }
    return table;
}

// Whether the plan is proven optimal, else how far from the optimum it may be.
std::string optimality_text(const FleetPlan& plan) {
    if (plan.optimal) {
        return "optimal for the model";
    }
    if (!plan.best_bound || !plan.gap) {
        return "best found, not proven optimal; no bound on the optimum was proven";
    }
    const int digits = *plan.gap < 0.01 ? 3 : 1;
    return fmt::format("best found, not proven optimal: the optimum is at least {}, so the plan "
                       "is at most {}% dearer",
                       format_money(*plan.best_bound, plan.currency),
                       format_fixed(*plan.gap * 100.0, digits));
}

std::vector<std::string> summary_lines(const FleetPlan& plan) {
    std::vector<std::string> lines;
    lines.push_back(fmt::format("Portfolio {}: {} workloads over {} months, {} at {} a year.",
                                escape_control(plan.name), plan.jobs.size(), plan.horizon_months,
                                plan.currency, percent(plan.discount_rate)));
    lines.push_back(fmt::format("NPV of the plan: {} ({}).", format_money(plan.npv, plan.currency),
                                optimality_text(plan)));
    if (!plan.optimal) {
        lines.push_back(fmt::format("The search stopped at its limit ({} s of solver time for "
                                    "the run; --solver-time raises it) before proving the plan "
                                    "optimal.",
                                    round_significant(plan.solver_seconds, 3)));
    }
    lines.push_back(fmt::format("All on-demand (and spot where interruptible): {}; saves {}.",
                                format_money(plan.all_on_demand_npv, plan.currency),
                                format_money(plan.all_on_demand_npv - plan.npv, plan.currency)));
    if (plan.best_single) {
        lines.push_back(fmt::format("Best single-purchase plan ({} only): {}; saves {}.",
                                    plan.best_single->name,
                                    format_money(plan.best_single->npv, plan.currency),
                                    format_money(plan.best_single->npv - plan.npv, plan.currency)));
    }
    lines.push_back(fmt::format(
        "Committed GPU-hours {}, idle {} ({}).", format_thousands(plan.committed_gpu_hours),
        format_thousands(plan.idle_gpu_hours),
        plan.committed_gpu_hours > 0.0 ? percent(plan.idle_gpu_hours / plan.committed_gpu_hours)
                                       : "-"));
    lines.push_back(
        fmt::format("Model: {} pools, {} columns ({} integer), {} rows, solved by GLPK.",
                    plan.pools, plan.columns, plan.integer_columns, plan.rows));
    return lines;
}

// `width` 0 (--wide) fits nothing; a terminal lists the commitments as sentences.
// One line for each workload planned on a soft option: the first thing its pool rests on.
std::string soft_jobs_text(const FleetPlan& plan, bool markdown, std::size_t width) {
    std::string out;
    for (const fleet::JobPlan& j : plan.jobs) {
        if (!j.risks.empty()) {
            const std::string line = fmt::format("- {} is soft: {}\n", escape_control(j.name),
                                                 note_text(j.risks.front()));
            out += markdown ? line : wrap_lines(line, width);
        }
    }
    return out;
}

// `job runs in service's idle committed H100 hours: ...`.
std::string valley_text(const fleet::ValleyFill& v, const std::string& currency) {
    std::string out = fmt::format(
        "{} in {}'s idle committed {} capacity ({} of {} idle GPU-hours a week usable): a run of "
        "{} GPU-hours takes {} weeks",
        v.job, v.service, v.gpu, format_thousands(v.usable_gpu_hours_per_week),
        format_thousands(v.idle_gpu_hours_per_week), format_thousands(v.job_gpu_hours),
        format_fixed(v.weeks, 1));
    if (!v.meets_deadline) {
        return out + ", past its deadline: not filled";
    }
    return out + fmt::format("; fills {} committed GPU-hours over the horizon and saves {} (NPV "
                             "of those hours on demand)",
                             format_thousands(v.filled_gpu_hours), format_money(v.saved, currency));
}

// The section of the jobs run in services' idle committed capacity; empty without one.
std::string valleys_text(const FleetPlan& plan, bool markdown, std::size_t width) {
    if (plan.valleys.empty()) {
        return "";
    }
    std::string out = markdown ? "\n## Jobs in the services' idle committed capacity\n\n"
                               : "\nJobs in the services' idle committed capacity\n";
    for (const fleet::ValleyFill& v : plan.valleys) {
        out += wrap_lines((markdown ? "- " : "") + valley_text(v, plan.currency) + "\n", width);
    }
    return out;
}

std::string render_text(const FleetPlan& plan, bool markdown, std::size_t width) {
    auto render = [markdown, width](const TextTable& t) {
        return markdown ? t.render_markdown() : t.render_text(width);
    };
    auto heading = [markdown](const std::string& title) {
        return markdown ? "\n## " + title + "\n\n" : "\n" + title + "\n";
    };
    std::string out = markdown ? "# Fleet plan: " + escape_control(plan.name) + "\n\n" : "";
    for (const std::string& line : summary_lines(plan)) {
        out += markdown ? "- " + line + "\n" : wrap_lines(line + "\n", width);
    }
    out += heading("Commitments");
    if (plan.commitments.empty()) {
        out += "Commit nothing: on-demand (and spot) is cheapest.\n";
    } else if (markdown || width == 0) {
        out += render(commitment_table(plan));
    } else {
        for (const fleet::Commitment& c : plan.commitments) {
            out += wrap_lines(commitment_text(plan, c), width);
        }
    }
    out += heading("Workloads");
    out += render(workload_table(plan));
    out += soft_jobs_text(plan, markdown, width);
    out += heading("Demand against committed capacity (GPU-hours per month)");
    if (markdown) {
        out += "\n```mermaid\n" + render_mermaid_xychart(fleet_chart(plan)) + "```\n\n";
    }
    out += render(month_table(plan));
    out += valleys_text(plan, markdown, width);
    if (!plan.sensitivity.empty()) {
        out += heading("Sensitivity: each workload's demand -30% and +30%");
        out += render(sensitivity_table(plan));
    }
    if (!plan.assumptions.empty()) {
        out += heading("Assumptions");
        for (const std::string& a : plan.assumptions) {
            out += markdown ? "- " + a + "\n" : wrap_lines("- " + a + "\n", width);
        }
    }
    return out;
}

ordered_json commitment_json(const fleet::Commitment& c) {
    ordered_json j;
    j["gpu"] = c.gpu;
    j["provider"] = c.provider;
    j["region"] = c.region;
    j["instance"] = c.instance;
    j["purchase"] = purchase_name(c);
    j["payment"] = c.payment;
    j["units"] = c.units;
    j["gpu_count"] = c.gpu_count;
    j["start_month"] = c.start_month;
    j["months"] = c.months;
    j["lead_months"] = c.lead_months;
    j["per_gpu_hour"] =
        c.per_gpu_hour ? ordered_json(round_to(*c.per_gpu_hour, 6)) : ordered_json();
    j["capex_per_gpu"] =
        c.capex_per_gpu ? ordered_json(round_money(*c.capex_per_gpu)) : ordered_json();
    j["npv"] = round_money(c.npv);
    j["horizon_gpu_hours"] = round_to(c.horizon_gpu_hours, k_json_hour_digits);
    j["break_even_utilisation"] = c.break_even_utilisation
                                      ? ordered_json(round_to(*c.break_even_utilisation, 4))
                                      : ordered_json();
    j["used_gpu_hours"] = round_to(c.used_gpu_hours, k_json_hour_digits);
    j["as_of"] = c.as_of;
    j["sources"] = c.sources;
    j["default_price"] = c.is_default;
    return j;
}

ordered_json job_json(const fleet::JobPlan& w) {
    ordered_json j;
    j["name"] = w.name;
    j["file"] = w.file.empty() ? ordered_json() : ordered_json(w.file);
    j["task"] = w.task;
    j["start_month"] = w.start_month;
    j["priority"] = w.priority;
    j["interruptible"] = w.interruptible;
    j["gpu"] = w.unplanned.empty() ? ordered_json(w.gpu) : ordered_json();
    j["provider"] = w.unplanned.empty() ? ordered_json(w.provider) : ordered_json();
    j["region"] = w.unplanned.empty() ? ordered_json(w.region) : ordered_json();
    j["gpu_count"] = w.gpu_count;
    j["gpu_hours"] = round_to(w.gpu_hours, k_json_hour_digits);
    j["candidates"] = w.candidates;
    j["unplanned"] = w.unplanned.empty() ? ordered_json() : ordered_json(w.unplanned);
    ordered_json risks = ordered_json::array();
    for (const cost::Note& note : w.risks) {
        risks.push_back(ordered_json{{"code", risk_code(note.kind)}, {"text", note_text(note)}});
    }
    j["risks"] = risks;
    return j;
}

std::string render_json(const FleetPlan& plan) {
    ordered_json out;
    out["schema_version"] = k_json_schema_version;
    put_generator(out, plan.generator);
    out["catalog"] = catalog_json(plan.catalog);
    out["portfolio"] = plan.name;
    out["currency"] = plan.currency;
    out["discount_rate"] = plan.discount_rate;
    out["horizon_months"] = plan.horizon_months;
    out["npv"] = round_money(plan.npv);
    out["optimal"] = plan.optimal;
    out["solver"] = {{"name", "glpk"},
                     {"status", plan.optimal ? "optimal" : "best_found"},
                     {"best_bound", plan.best_bound ? ordered_json(round_money(*plan.best_bound))
                                                    : ordered_json()},
                     {"gap", plan.gap ? ordered_json(round_to(*plan.gap, 6)) : ordered_json()},
                     {"time_limit_seconds", plan.solver_seconds},
                     {"pools", plan.pools},
                     {"columns", plan.columns},
                     {"integer_columns", plan.integer_columns},
                     {"rows", plan.rows}};
    out["all_on_demand_npv"] = round_money(plan.all_on_demand_npv);
    out["savings_vs_on_demand"] = round_money(plan.all_on_demand_npv - plan.npv);
    if (plan.best_single) {
        out["best_single_purchase"] = {{"purchase", plan.best_single->name},
                                       {"npv", round_money(plan.best_single->npv)},
                                       {"savings", round_money(plan.best_single->npv - plan.npv)}};
    } else {
        out["best_single_purchase"] = nullptr;
    }
    out["committed_gpu_hours"] = round_to(plan.committed_gpu_hours, k_json_hour_digits);
    out["idle_gpu_hours"] = round_to(plan.idle_gpu_hours, k_json_hour_digits);
    ordered_json commitments = ordered_json::array();
    for (const fleet::Commitment& c : plan.commitments) {
        commitments.push_back(commitment_json(c));
    }
    out["commitments"] = commitments;
    ordered_json jobs = ordered_json::array();
    for (const fleet::JobPlan& w : plan.jobs) {
        jobs.push_back(job_json(w));
    }
    out["workloads"] = jobs;
    ordered_json months = ordered_json::array();
    for (const fleet::Month& m : plan.months) {
        months.push_back(
            {{"month", m.month},
             {"demand_gpu_hours", round_to(m.demand_gpu_hours, k_json_hour_digits)},
             {"committed_gpu_hours", round_to(m.committed_gpu_hours, k_json_hour_digits)},
             {"used_gpu_hours", round_to(m.used_gpu_hours, k_json_hour_digits)},
             {"on_demand_gpu_hours", round_to(m.on_demand_gpu_hours, k_json_hour_digits)},
             {"spot_gpu_hours", round_to(m.spot_gpu_hours, k_json_hour_digits)}});
    }
    out["months"] = months;
    ordered_json sensitivity = ordered_json::array();
    for (const fleet::Scenario& s : plan.sensitivity) {
        sensitivity.push_back({{"workload", s.workload},
                               {"start_month", s.start_month},
                               {"factor", s.factor},
                               {"npv_kept", round_money(s.npv_kept)},
                               {"npv_reoptimised", round_money(s.npv_reoptimised)},
                               {"commitment_units", s.units}});
    }
    out["sensitivity"] = sensitivity;
    if (!plan.valleys.empty()) {
        ordered_json valleys = ordered_json::array();
        for (const fleet::ValleyFill& v : plan.valleys) {
            valleys.push_back(
                {{"service", v.service},
                 {"job", v.job},
                 {"gpu", v.gpu},
                 {"idle_gpu_hours_per_week",
                  round_to(v.idle_gpu_hours_per_week, k_json_hour_digits)},
                 {"usable_gpu_hours_per_week",
                  round_to(v.usable_gpu_hours_per_week, k_json_hour_digits)},
                 {"job_gpu_hours", round_to(v.job_gpu_hours, k_json_hour_digits)},
                 {"weeks", round_to(v.weeks, k_json_hour_digits)},
                 {"meets_deadline", v.meets_deadline},
                 {"filled_gpu_hours", round_to(v.filled_gpu_hours, k_json_hour_digits)},
                 {"saved", round_money(v.saved)}});
        }
        out["valleys"] = valleys;
    }
    out["assumptions"] = plan.assumptions;
    return out.dump(2) + "\n";
}

} // namespace

CumulativeCostChart fleet_chart(const FleetPlan& plan) {
    CumulativeCostChart chart;
    chart.title = "Demand against committed capacity, GPU-hours per month";
    chart.measure = ChartMeasure::per_month;
    chart.unit = "GPU-hours";
    ChartSeries demand{"demand", {0.0}};
    ChartSeries committed{"committed", {0.0}};
    ChartSeries used{"committed, used", {0.0}};
    for (const fleet::Month& m : plan.months) {
        demand.values.push_back(m.demand_gpu_hours);
        committed.values.push_back(m.committed_gpu_hours);
        used.values.push_back(m.used_gpu_hours);
    }
    chart.series = {demand, committed, used};
    return chart;
}

std::string render_fleet(const FleetPlan& plan, Format format, std::size_t width) {
    switch (format) {
    case Format::json:
        return render_json(plan);
    case Format::markdown:
        return render_text(plan, true, 0);
    case Format::table:
        break;
    }
    return render_text(plan, false, width);
}

std::string render_fleet_html(const FleetPlan& plan) {
    return markdown_page_to_html(
        render_fleet(plan, Format::markdown, 0), "Fleet plan: " + plan.name,
        render_svg_chart(fleet_chart(plan)),
        {"Sensitivity: each workload's demand -30% and +30%", "Assumptions"});
}

} // namespace gpuplan::report

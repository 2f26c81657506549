#include "gpuplan/report/check_view.hpp"

#include "detail/strings.hpp"
#include "gpuplan/report/escape.hpp"
#include "gpuplan/report/text_table.hpp"
#include "report/generator_json.hpp"

#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

namespace {

using nlohmann::ordered_json;

std::vector<std::string> failed_names(const gate::Outcome& outcome) {
    std::vector<std::string> names;
    for (const gate::Check& check : outcome.checks) {
        if (!check.passed) {
            names.push_back(check.name);
        }
    }
    return names;
}

// Rounds a value as its unit is published: money to cents, hours to 0.01, fractions to 0.0001.
double round_for_unit(const gate::Check& check, double value) {
    if (check.unit == "fraction") {
        return round_to(value, 4);
    }
    if (check.unit == "days") {
        return round_to(value, 0);
    }
    return round_to(value, 2);
}

ordered_json plan_json(const gate::Plan& plan) {
    ordered_json out;
    out["source"] = plan.source;
    out["schema_version"] = plan.schema_version;
    out["generator_version"] = plan.generator_version;
    ordered_json catalog;
    catalog["digest"] = plan.catalog_digest;
    catalog["as_of"] = plan.prices_oldest && plan.prices_newest
                           ? ordered_json{{"oldest", plan.prices_oldest->to_string()},
                                          {"newest", plan.prices_newest->to_string()}}
                           : ordered_json(nullptr);
    out["catalog"] = catalog;
    out["currency"] = plan.currency;
    return out;
}

ordered_json option_json(const std::optional<gate::PlanOption>& option) {
    if (!option) {
        return nullptr;
    }
    ordered_json out;
    out["rank"] = option->rank;
    out["id"] = option->id;
    out["purchase"] = option->purchase;
    out["wall_hours"] = round_to(option->wall_hours, 2);
    out["total"] = round_money(option->total);
    out["npv"] = round_money(option->npv);
    out["max_monthly"] =
        option->max_monthly ? ordered_json(round_money(*option->max_monthly)) : ordered_json();
    out["prices_as_of"] =
        option->prices_as_of ? ordered_json(option->prices_as_of->to_string()) : ordered_json();
    return out;
}

std::string render_json(const CheckView& view, const GeneratorInfo& generator) {
    const gate::Outcome& outcome = view.outcome;
    ordered_json out;
    out["schema_version"] = k_json_schema_version;
    put_generator(out, generator);
    out["verdict"] = outcome.passed() ? "pass" : "fail";
    out["plan"] = plan_json(view.plan);
    out["baseline"] = view.base != nullptr ? plan_json(*view.base) : ordered_json(nullptr);
    out["option"] = option_json(outcome.option);
    out["baseline_option"] = option_json(outcome.base_option);
    ordered_json checks = ordered_json::array();
    for (const gate::Check& check : outcome.checks) {
        ordered_json entry;
        entry["name"] = check.name;
        entry["passed"] = check.passed;
        entry["actual"] = check.actual ? ordered_json(round_for_unit(check, *check.actual))
                                       : ordered_json(nullptr);
        entry["limit"] = round_for_unit(check, check.limit);
        entry["unit"] = check.unit;
        entry["message"] = check.message;
        checks.push_back(entry);
    }
    out["checks"] = checks;
    out["failures"] = failed_names(outcome);
    out["notes"] = outcome.notes;
    return out.dump(2) + "\n";
}

// The baseline's option and the money difference, for a review comment: "Baseline `main.json`:
// option **X** (rank 1): total 3.04 USD, wall time 2h. Difference: **+6.18 USD (+203.3%)**."
std::string baseline_markdown(const gate::PlanOption& option, const gate::PlanOption& base_option,
                              const gate::Plan& base, const std::string& currency) {
    const double difference = option.total - base_option.total;
    const std::string sign = difference < 0.0 ? "-" : "+";
    std::string percent;
    if (base_option.total > 0.0) {
        percent =
            fmt::format(" ({}{:.1f}%)", sign, std::abs(difference) / base_option.total * 100.0);
    }
    return fmt::format("Baseline `{}`: option **{}** (rank {}): total {}, wall time {}.\n"
                       "Difference: **{}{}{}**, {} the baseline.\n\n",
                       escape_markdown_cell(base.source), escape_markdown_cell(base_option.id),
                       base_option.rank, format_money(base_option.total, currency),
                       format_duration(base_option.wall_hours), sign,
                       format_money(std::abs(difference), currency), percent,
                       difference < 0.0   ? "cheaper than"
                       : difference > 0.0 ? "more expensive than"
                                          : "the same as");
}

std::string render_markdown(const CheckView& view, const GeneratorInfo& generator) {
    const gate::Outcome& outcome = view.outcome;
    const bool passed = outcome.passed();
    std::string out = passed
                          ? "### ✅ gpuplan check passed\n\n"
                          : "### ❌ gpuplan check failed: " +
                                fmt::format("{}", fmt::join(failed_names(outcome), ", ")) + "\n\n";
    if (outcome.option && view.plan.fleet) {
        out += fmt::format("Fleet plan `{}`: portfolio NPV {}.\n\n",
                           escape_markdown_cell(view.plan.source),
                           format_money(outcome.option->npv, view.plan.currency));
    } else if (outcome.option) {
        out += fmt::format("Option **{}** (rank {}) of `{}`: total {}, wall time {}.\n\n",
                           escape_markdown_cell(outcome.option->id), outcome.option->rank,
                           escape_markdown_cell(view.plan.source),
                           format_money(outcome.option->total, view.plan.currency),
                           format_duration(outcome.option->wall_hours));
    }
    if (view.base != nullptr && outcome.option && outcome.base_option) {
        out += baseline_markdown(*outcome.option, *outcome.base_option, *view.base,
                                 view.plan.currency);
    }
    TextTable table;
    table.add_column("check");
    table.add_column("result");
    table.add_column("actual", Align::right);
    table.add_column("limit", Align::right);
    table.add_column("detail");
    for (const gate::Check& check : outcome.checks) {
        table.add_row({check.name, check.passed ? "✅ pass" : "❌ fail",
                       check.actual ? format_check_value(check, *check.actual) : "n/a",
                       check.name == "option" ? "" : format_check_value(check, check.limit),
                       check.message});
    }
    out += table.render_markdown();
    for (const std::string& note : outcome.notes) {
        out += "\n> Note: " + escape_markdown_cell(note) + "\n";
    }
    const gate::Plan& plan = view.plan;
    out += fmt::format("\n<sub>{} {} · plan schema {} · catalog {}", generator.name,
                       generator.version, plan.schema_version, plan.catalog_digest);
    if (plan.prices_oldest && plan.prices_newest) {
        out += fmt::format(" · prices as of {} to {}", plan.prices_oldest->to_string(),
                           plan.prices_newest->to_string());
    }
    if (!generator.generated_at.empty()) {
        out += " · generated " + generator.generated_at;
    }
    out += "</sub>\n";
    return out;
}

} // namespace

std::string format_check_value(const gate::Check& check, double value) {
    if (check.unit == "hours") {
        return format_duration(value);
    }
    if (check.unit == "days") {
        return format_fixed(value, 0) + " days";
    }
    if (check.unit == "fraction") {
        return format_fixed(value * 100.0, 1) + "%";
    }
    return format_money(value, check.unit);
}

namespace {
// The verdict word, green or red on a terminal.
std::string verdict_word(bool passed, bool colour) {
    const char* word = passed ? "PASS" : "FAIL";
    if (!colour) {
        return word;
    }
    return fmt::format("\033[{}m{}\033[0m", passed ? "32" : "31", word);
}
} // namespace

std::string render_check_verdict(const CheckView& view) {
    const gate::Outcome& outcome = view.outcome;
    const std::vector<std::string> failures = failed_names(outcome);
    std::string subject;
    if (outcome.option) {
        subject = fmt::format("option {} (rank {})", escape_control(outcome.option->id),
                              outcome.option->rank);
    } else {
        subject = view.plan.source;
    }
    if (failures.empty()) {
        std::vector<std::string> names;
        for (const gate::Check& check : outcome.checks) {
            names.push_back(check.name);
        }
        return fmt::format("{}: {}: {} check{}: {}\n", verdict_word(true, view.colour), subject,
                           names.size(), names.size() == 1 ? " holds" : "s hold",
                           fmt::join(names, ", "));
    }
    return fmt::format("{}: {}: {} of {} check{} failed: {}\n", verdict_word(false, view.colour),
                       subject, failures.size(), outcome.checks.size(),
                       outcome.checks.size() == 1 ? "" : "s", fmt::join(failures, ", "));
}

std::string render_check(const CheckView& view, Format format, const GeneratorInfo& generator) {
    switch (format) {
    case Format::json:
        return render_json(view, generator);
    case Format::markdown:
        return render_markdown(view, generator);
    case Format::table:
        break;
    }
    return wrap_lines(render_check_verdict(view), view.width);
}

} // namespace gpuplan::report

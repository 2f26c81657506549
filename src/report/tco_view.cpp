#include "gpuplan/report/notes.hpp"
#include "gpuplan/report/recommend.hpp"
#include "gpuplan/report/text_table.hpp"
#include "report/catalog_json.hpp"
#include "report/cost_outputs.hpp"
#include "report/generator_json.hpp"
#include "report/workload_json.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

using nlohmann::ordered_json;

namespace {

std::string tco_json(const recommend::TcoComparison& r) {
    ordered_json out;
    out["schema_version"] = k_json_schema_version;
    put_generator(out, r.generator);
    out["catalog"] = catalog_json(r.catalog);
    out["configuration"] = {
        {"workload", r.workload.name},
        {"task", workload::to_string(r.workload.task)},
        {"gpu", r.gpu},
        {"gpu_count", r.gpu_count},
        {"provider", r.provider.empty() ? ordered_json(nullptr) : ordered_json(r.provider)}};
    out["workload"] = workload_json(r.workload);
    ordered_json assumptions = conventions_json(r.conventions);
    assumptions["break_even"] = "first month from which the option's cumulative discounted cost "
                                "stays at or below on_demand's";
    out["assumptions"] = assumptions;
    ordered_json options = ordered_json::array();
    for (const recommend::TcoOption& t : r.options) {
        const cost::Option& o = t.option;
        ordered_json entry;
        entry["purchase"] = gpuplan::to_string(o.purchase);
        entry["id"] = o.id();
        entry["gpu_count"] = o.gpu_count;
        entry["payment"] =
            o.payment ? ordered_json(catalog::to_string(*o.payment)) : ordered_json(nullptr);
        entry["npv"] = round_money(o.npv);
        entry["total"] = round_money(o.total);
        entry["wall_hours"] = round_to(o.wall_hours, k_json_hour_digits);
        entry["break_even_month"] =
            t.break_even_month ? ordered_json(*t.break_even_month) : ordered_json(nullptr);
        entry["break_even_utilisation"] = o.break_even_utilisation
                                              ? ordered_json(round_to(*o.break_even_utilisation, 4))
                                              : ordered_json(nullptr);
        entry["rejected"] = o.rejection
                                ? ordered_json({{"reason_code", cost::to_string(*o.rejection)},
                                                {"reason", t.reason}})
                                : ordered_json(nullptr);
        ordered_json flows = ordered_json::array();
        for (std::size_t k = 0; k < o.amounts.size(); ++k) {
            flows.push_back(
                {{"month", k},
                 {"amount", round_money(o.amounts[k])},
                 {"cumulative", round_money(t.cumulative[k])},
                 {"items", k < o.cash_flows.months.size() ? items_json(o.cash_flows.months[k])
                                                          : ordered_json::object()}});
        }
        entry["cash_flows"] = flows;
        entry["notes"] = note_texts(r.notes, o.notes);
        options.push_back(entry);
    }
    out["options"] = options;
    return out.dump(2) + "\n";
}

// One row per month, one column per option: the cumulative costs recommend::tco computed.
std::string month_table(const recommend::TcoComparison& r, bool markdown, std::size_t width) {
    TextTable months;
    months.add_column("month", Align::right);
    for (const recommend::TcoOption& t : r.options) {
        months.add_column(std::string(gpuplan::to_string(t.option.purchase)), Align::right, 1,
                          Cut::wrap);
    }
    for (std::size_t k = 0; k < r.months; ++k) {
        std::vector<std::string> row{std::to_string(k)};
        for (const recommend::TcoOption& t : r.options) {
            row.push_back(format_fixed(t.cumulative[k], 0));
        }
        months.add_row(std::move(row));
    }
    return markdown ? months.render_markdown() : months.render_text(width);
}

// The option column wraps and the month table's headers break at `_` to fit `width`.
std::string tco_text(const recommend::TcoComparison& r, bool markdown, std::size_t width) {
    std::string out;
    const std::string title = fmt::format(
        "{} x {}{}, horizon {:g} months, discount rate {}/yr, {}", r.gpu_count, r.gpu,
        r.provider.empty() ? std::string() : " on " + r.provider, r.conventions.horizon_months,
        percent(r.conventions.discount_rate), r.conventions.currency);
    out += markdown ? fmt::format("# gpuplan tco: {}\n\n{}.\n\n", r.workload.name, title)
                    : title + "\n\n";
    if (r.options.empty()) {
        return out + "No option prices this configuration.\n";
    }
    // The id comes last and whole (a spilled line of its own when too wide), so it can be copied.
    TextTable summary;
    summary.add_column("purchase");
    summary.add_column("NPV", Align::right);
    summary.add_column("total", Align::right);
    summary.add_column("break-even", Align::right);
    summary.add_column("option", Align::left, 0, Cut::spill);
    std::vector<std::string> infeasible;
    for (const recommend::TcoOption& t : r.options) {
        const cost::Option& o = t.option;
        summary.add_row({std::string(gpuplan::to_string(o.purchase)), format_fixed(o.npv, 2),
                         format_fixed(o.total, 2),
                         o.purchase == PurchaseOption::on_demand ? std::string("-")
                         : t.break_even_month ? fmt::format("month {}", *t.break_even_month)
                                              : std::string("never"),
                         o.id()});
        if (o.rejection) {
            infeasible.push_back(fmt::format("{} ({})", gpuplan::to_string(o.purchase),
                                             cost::to_string(*o.rejection)));
        }
    }
    out += markdown ? summary.render_markdown() : summary.render_text(width);
    if (!infeasible.empty()) {
        out += fmt::format("{}Infeasible for this workload: {}.\n", markdown ? "\n" : "",
                           fmt::join(infeasible, ", "));
    }
    out += markdown ? "\n## Cumulative cost by month\n\n" : "\nCumulative cost by month:\n";
    out += month_table(r, markdown, width);
    return markdown ? out : wrap_lines(out, width);
}

} // namespace

std::string render_tco(const recommend::TcoComparison& report, Format format, std::size_t width) {
    switch (format) {
    case Format::json:
        return tco_json(report);
    case Format::markdown:
        return tco_text(report, true, 0);
    case Format::table:
        return tco_text(report, false, width);
    }
    return {};
}

} // namespace gpuplan::report

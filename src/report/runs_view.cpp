#include "gpuplan/report/runs_view.hpp"

#include "gpuplan/numbers.hpp"
#include "report/generator_json.hpp"
#include "report/workload_json.hpp"

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace gpuplan::report {

namespace {

using nlohmann::ordered_json;
using runs::Row;
using runs::Sample;
using runs::Summary;

// Significant figures of measured and predicted values; decimals of fractions in JSON.
constexpr int k_value_digits = 4;
constexpr int k_fraction_digits = 4;
constexpr double k_percent = 100.0;

std::string percent(double fraction, bool sign) {
    const double value = round_to(fraction * k_percent, 1);
    return sign ? fmt::format("{:+.1f}%", value == 0.0 ? 0.0 : value)
                : fmt::format("{:.1f}%", value);
}

std::string sample_name(Sample s) {
    return s == Sample::in ? "in" : s == Sample::out ? "out" : "";
}

std::string part_title(const std::string& group, Sample sample, int rows) {
    std::string title = group.empty() ? "" : group + " ";
    if (sample == Sample::in) {
        title += "in-sample";
    } else if (sample == Sample::out) {
        title += "out-of-sample";
    } else {
        title += group.empty() ? "runs" : "";
    }
    return fmt::format("{} ({} run{})", title, rows, rows == 1 ? "" : "s");
}

std::string summary_line(const Summary& s) {
    if (s.n == 0) {
        return "no run predicted";
    }
    return fmt::format(
        "median |error| {}, P90 {}, worst {}; within 10 %: {}, within 25 %: {}; "
        "rank agreement {}",
        percent(s.median_abs_error, false), percent(s.p90_abs_error, false),
        percent(s.max_abs_error, false), percent(s.within_10, false), percent(s.within_25, false),
        s.rank_agreement ? fmt::format("{} of {} pairs", percent(*s.rank_agreement, false), s.pairs)
                         : std::string("- (no pair with one metric)"));
}

ordered_json summary_json(const Summary& s) {
    ordered_json out;
    out["n"] = s.n;
    out["median_abs_error"] = round_to(s.median_abs_error, k_fraction_digits);
    out["p90_abs_error"] = round_to(s.p90_abs_error, k_fraction_digits);
    out["max_abs_error"] = round_to(s.max_abs_error, k_fraction_digits);
    out["within_10"] = round_to(s.within_10, k_fraction_digits);
    out["within_25"] = round_to(s.within_25, k_fraction_digits);
    out["rank_agreement"] = s.rank_agreement
                                ? ordered_json(round_to(*s.rank_agreement, k_fraction_digits))
                                : ordered_json(nullptr);
    out["pairs"] = s.pairs;
    return out;
}

ordered_json factor_json(const workload::SpeedFactor& f) {
    return {{"gpu", f.gpu},
            {"kind", f.kind},
            {"engine", f.engine},
            {"precision", f.precision},
            {"factor", round_to(f.factor, k_fraction_digits)},
            {"runs", f.runs},
            {"carried_runs", f.carried_runs}};
}

ordered_json row_json(const Row& row) {
    ordered_json out;
    out["name"] = row.name;
    out["metric"] = runs::to_string(row.metric);
    out["measured"] = round_significant(row.measured, k_value_digits + 2);
    out["predicted"] = row.predicted
                           ? ordered_json(round_significant(*row.predicted, k_value_digits + 2))
                           : ordered_json(nullptr);
    out["error"] =
        row.error ? ordered_json(round_to(*row.error, k_fraction_digits)) : ordered_json(nullptr);
    out["sample"] = sample_name(row.sample);
    out["group"] = row.group;
    out["layout"] = row.layout;
    out["source"] = row.source;
    if (!row.why.empty()) {
        out["why"] = row.why;
    }
    if (row.factor) {
        out["calibration"] = calibration_factor_json(*row.factor);
    }
    return out;
}

std::string validation_json(const runs::Validation& v, const GeneratorInfo& generator) {
    ordered_json out;
    out["schema_version"] = k_json_schema_version;
    put_generated_at(out, generator);
    out["calibration"] =
        v.calibration.empty() ? ordered_json(nullptr) : ordered_json(v.calibration);
    ordered_json rows = ordered_json::array();
    for (const Row& row : v.rows) {
        rows.push_back(row_json(row));
    }
    out["rows"] = rows;
    out["summary"] = summary_json(v.summary);
    ordered_json parts = ordered_json::array();
    for (const runs::Part& part : v.parts) {
        parts.push_back({{"group", part.group},
                         {"sample", sample_name(part.sample)},
                         {"summary", summary_json(part.summary)}});
    }
    out["parts"] = parts;
    if (v.leave_one_out) {
        out["leave_one_out"] = summary_json(*v.leave_one_out);
    }
    return out.dump(2) + "\n";
}

// Prose wrapped to the terminal's width (markdown keeps its lines).
std::string fit_text(const std::string& text, Format format, std::size_t width) {
    return format == Format::markdown ? text : wrap_lines(text, width);
}

std::string value_text(double value) {
    return fmt::format("{:.4g}", value);
}

// The table of some rows, with the note of each row that has one after it (text) or in a last
// column (markdown).
std::string rows_table(const std::vector<const Row*>& rows, Format format, std::size_t width) {
    TextTable table;
    table.add_column("run");
    table.add_column("metric");
    table.add_column("measured", Align::right);
    table.add_column("gpuplan", Align::right);
    table.add_column("error", Align::right);
    table.add_column("layout", Align::left, 12);
    table.add_column("source", Align::left, 8);
    for (const Row* row : rows) {
        table.add_row({row->name, std::string(runs::to_string(row->metric)),
                       value_text(row->measured),
                       row->predicted ? value_text(*row->predicted) : "-",
                       row->error ? percent(*row->error, true) : "-",
                       row->layout.empty() ? row->why : row->layout, row->source});
    }
    return format == Format::markdown ? table.render_markdown() : table.render_text(width);
}

std::string factor_line(const std::vector<const Row*>& rows) {
    std::string out;
    for (const Row* row : rows) {
        if (row->factor) {
            out += fmt::format("{}: calibration x{:.3f} ({} {} from {} run{})\n", row->name,
                               row->factor->factor, row->factor->gpu, row->factor->kind,
                               row->factor->runs + row->factor->carried_runs,
                               row->factor->runs + row->factor->carried_runs == 1 ? "" : "s");
        }
    }
    return out;
}

} // namespace

std::string render_validation(const runs::Validation& v, Format format,
                              const GeneratorInfo& generator, std::size_t width) {
    if (format == Format::json) {
        return validation_json(v, generator);
    }
    std::string out;
    if (!v.calibration.empty()) {
        out += fmt::format("calibration: {}\n\n", v.calibration);
    }
    std::vector<std::pair<std::string, Sample>> keys;
    for (const Row& row : v.rows) {
        const auto key = std::pair(row.group, row.sample);
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
            keys.push_back(key);
        }
    }
    for (std::size_t k = 0; k < keys.size(); ++k) {
        std::vector<const Row*> rows;
        for (const Row& row : v.rows) {
            if (std::pair(row.group, row.sample) == keys[k]) {
                rows.push_back(&row);
            }
        }
        out += part_title(keys[k].first, keys[k].second, static_cast<int>(rows.size())) + "\n\n";
        out += rows_table(rows, format, width);
        out += factor_line(rows);
        if (keys.size() > 1) {
            out +=
                "\n" + fit_text(summary_line(v.parts.at(k).summary) + "\n", format, width) + "\n";
        }
    }
    out += "\n" + fit_text(fmt::format("all {} rows: {}\n", v.summary.n, summary_line(v.summary)),
                           format, width);
    if (v.leave_one_out) {
        out += fit_text(
            fmt::format("leave-one-out (each run predicted by the factors of the others): {}\n",
                        summary_line(*v.leave_one_out)),
            format, width);
    }
    return out;
}

std::string render_fit(const runs::Fit& fit, Format format, const GeneratorInfo& generator,
                       std::size_t width) {
    if (format == Format::json) {
        ordered_json out;
        out["schema_version"] = k_json_schema_version;
        put_generated_at(out, generator);
        ordered_json factors = ordered_json::array();
        for (const runs::Fitted& f : fit.factors) {
            ordered_json item = factor_json(f.factor);
            item["from"] = f.factor.from;
            item["moved"] = round_to(f.factor.factor - 1.0, k_fraction_digits);
            item["log_sd"] = round_to(f.log_sd, k_fraction_digits);
            item["loo_median_error"] =
                f.loo_median_error ? ordered_json(round_to(*f.loo_median_error, k_fraction_digits))
                                   : ordered_json(nullptr);
            item["run_names"] = f.runs;
            item["carried_run_names"] = f.carried_runs;
            factors.push_back(item);
        }
        out["factors"] = factors;
        out["skipped"] = fit.skipped;
        return out.dump(2) + "\n";
    }
    TextTable table;
    table.add_column("gpu");
    table.add_column("kind");
    table.add_column("engine");
    table.add_column("precision");
    table.add_column("factor", Align::right);
    table.add_column("moved", Align::right);
    table.add_column("runs", Align::right);
    table.add_column("carried", Align::right);
    table.add_column("loo error", Align::right);
    table.add_column("from runs", Align::left, 12);
    for (const runs::Fitted& f : fit.factors) {
        std::string names;
        for (const std::string& n : f.runs) {
            names += (names.empty() ? "" : ", ") + n;
        }
        if (!f.factor.from.empty()) {
            names += (names.empty() ? "carried from " : "; carried from ") + f.factor.from;
        }
        table.add_row({f.factor.gpu, f.factor.kind, f.factor.engine.empty() ? "-" : f.factor.engine,
                       f.factor.precision, fmt::format("{:.3f}", f.factor.factor),
                       percent(f.factor.factor - 1.0, true), std::to_string(f.factor.runs),
                       std::to_string(f.factor.carried_runs),
                       f.loo_median_error ? percent(*f.loo_median_error, false) : "-", names});
    }
    std::string out =
        format == Format::markdown ? table.render_markdown() : table.render_text(width);
    for (const std::string& s : fit.skipped) {
        out += "skipped: " + s + "\n";
    }
    return out;
}

} // namespace gpuplan::report

#include "workload/load_reader.hpp"

#include "detail/strings.hpp"
#include "gpuplan/limits.hpp"
#include "gpuplan/units.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace gpuplan::workload {

namespace {

using detail::NumberRange;
using detail::YamlNode;

constexpr NumberRange k_multiplier{0.0, 1.0, false, "a multiplier from 0 to 1"};
constexpr NumberRange k_growth{-0.5, 1.0, false, "a monthly growth from -0.5 to 1"};
constexpr NumberRange k_headroom{0.0, 4.0, false, "a fraction from 0 to 4"};
constexpr NumberRange k_cold_start{0.0, 86'400.0, false, "seconds from 0 to 86400"};
// Most replicas a service may pin warm or step by.
constexpr std::int64_t k_max_replicas = 100'000;
// Days of a week, and the first weekend day (Monday is day 0).
constexpr int k_days_per_week = 7;
constexpr int k_first_weekend_day = 5;

// `count` multipliers from the sequence `node`, or empty after reporting.
std::vector<double> multipliers(const YamlNode& node, std::size_t count) {
    if (!node.expect_sequence()) {
        return {};
    }
    const std::vector<YamlNode> items = node.items();
    if (items.size() != count) {
        node.error(fmt::format("expected {} hourly multipliers, got {}", count, items.size()));
        return {};
    }
    std::vector<double> out;
    out.reserve(count);
    for (const YamlNode& item : items) {
        const auto value = item.as_number(k_multiplier);
        if (!value) {
            return {};
        }
        out.push_back(*value);
    }
    return out;
}

std::string folder_of(const std::string& file) {
    const auto slash = file.find_last_of("/\\");
    return slash == std::string::npos ? std::string() : file.substr(0, slash + 1);
}

// The CSV's rates as multipliers of their peak; requests_per_second becomes the peak.
std::vector<double> csv_curve(const YamlNode& node, const std::string& name, Inference& inference,
                              const FileLoader& load) {
    if (!load) {
        node.error("a CSV load curve is read only from a workload file given on the command line");
        return {};
    }
    const bool absolute = !name.empty() && (name.front() == '/' || name.front() == '\\');
    const std::string path = absolute ? name : folder_of(node.context().file) + name;
    std::string why;
    const std::optional<TextFile> file = load(path, why);
    if (!file) {
        node.error(fmt::format("cannot read load curve \"{}\": {}", path, why));
        return {};
    }
    std::vector<double> rates = read_load_csv(*file, node.path(), *node.context().sink);
    if (rates.empty()) {
        return {};
    }
    const double peak = *std::max_element(rates.begin(), rates.end());
    if (!(peak > 0.0)) {
        node.error(fmt::format("the load curve \"{}\" has no hour above 0 requests/s", path));
        return {};
    }
    inference.requests_per_second = peak;
    for (double& rate : rates) {
        rate /= peak;
    }
    return rates;
}

// The 168 hours of a week from a weekday and a weekend day.
std::vector<double> week_of(const std::vector<double>& weekday,
                            const std::vector<double>& weekend) {
    std::vector<double> out;
    out.reserve(k_hours_per_week);
    for (int day = 0; day < k_days_per_week; ++day) {
        const std::vector<double>& hours = day >= k_first_weekend_day ? weekend : weekday;
        out.insert(out.end(), hours.begin(), hours.end());
    }
    return out;
}

// The curve of the one form the mapping gives, or empty after reporting.
std::vector<double> curve_of(const YamlNode& node, Load& load, Inference& inference,
                             bool rate_given, const FileLoader& loader) {
    const auto weekday = node.get("weekday");
    const auto weekend = node.get("weekend");
    const auto week = node.get("week");
    const auto csv = node.get("csv");
    const int forms = (weekday || weekend ? 1 : 0) + (week ? 1 : 0) + (csv ? 1 : 0);
    if (forms != 1) {
        node.error(forms == 0 ? "expected one of weekday (with weekend), week or csv"
                              : "give one of weekday (with weekend), week or csv, not several");
        return {};
    }
    if (week) {
        return multipliers(*week, k_hours_per_week);
    }
    if (csv) {
        if (rate_given) {
            csv->error("a CSV load curve gives the rates itself; drop requests_per_second");
            return {};
        }
        if (auto name = csv->as_string()) {
            load.csv = *name;
            return csv_curve(*csv, *name, inference, loader);
        }
        return {};
    }
    if (!weekday) {
        node.error("weekend needs weekday");
        return {};
    }
    load.weekday = multipliers(*weekday, k_hours_per_load_day);
    if (weekend) {
        load.weekend = multipliers(*weekend, k_hours_per_load_day);
    }
    if (load.weekday.empty() || (weekend && load.weekend.empty())) {
        return {};
    }
    return week_of(load.weekday, weekend ? load.weekend : load.weekday);
}

// The first row's last field that is not a number is a header.
std::string_view last_field(std::string_view line, std::size_t& column) {
    const auto comma = line.rfind(',');
    column = comma == std::string_view::npos ? 0 : comma + 1;
    return detail::trim(line.substr(column));
}

// A multiple of 168 hours folded into one week by the largest rate of each hour.
std::vector<double> fold_weeks(const std::vector<double>& rates) {
    if (rates.size() == k_hours_per_load_day) {
        return week_of(rates, rates);
    }
    std::vector<double> week(rates.begin(), rates.begin() + k_hours_per_week);
    for (std::size_t i = k_hours_per_week; i < rates.size(); ++i) {
        double& hour = week[i % static_cast<std::size_t>(k_hours_per_week)];
        hour = std::max(hour, rates[i]);
    }
    return week;
}

} // namespace

std::vector<double> read_load_csv(const TextFile& file, std::string_view path,
                                  DiagnosticSink& sink) {
    std::vector<double> rates;
    std::uint32_t line_number = 0;
    bool first = true;
    bool bad = false;
    std::string_view text = file.text;
    while (!text.empty()) {
        const auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        ++line_number;
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (detail::trim(line).empty() || detail::trim(line).front() == '#') {
            continue;
        }
        std::size_t column = 0;
        const std::string_view field = last_field(line, column);
        const auto value = parse_number(field);
        const bool header = first && !value;
        first = false;
        if (header) {
            continue;
        }
        if (!value || *value < 0.0 || *value > limits::k_max_magnitude) {
            sink.add({file.name, line_number, static_cast<std::uint32_t>(column + 1),
                      std::string(path),
                      fmt::format("expected a rate in requests/s from 0, got \"{}\"", field)});
            bad = true;
            continue;
        }
        rates.push_back(*value);
    }
    const std::size_t n = rates.size();
    if (!bad && n != k_hours_per_load_day && (n < k_hours_per_week || n % k_hours_per_week != 0)) {
        sink.add({file.name, line_number, 1, std::string(path),
                  fmt::format("expected 24 hourly rates (a day), 168 (a week) or a multiple of "
                              "168 (weeks), got {}",
                              n)});
        bad = true;
    }
    return bad ? std::vector<double>() : fold_weeks(rates);
}

void read_load(const YamlNode& node, Inference& inference, bool rate_given,
               const FileLoader& load) {
    if (!node.expect_map({"weekday", "weekend", "week", "csv", "growth_per_month"})) {
        return;
    }
    Load out;
    if (auto growth = node.get("growth_per_month")) {
        std::optional<double> value;
        if (growth->is_scalar()) {
            value = parse_fraction(growth->raw().Scalar());
        }
        if (!value || *value < k_growth.min || *value > k_growth.max) {
            growth->error(
                fmt::format("expected {} (0.02 or 2%), got \"{}\"", k_growth.description,
                            growth->is_scalar() ? growth->raw().Scalar() : "a non-scalar"));
        } else {
            out.growth_per_month = *value;
        }
    }
    out.hourly = curve_of(node, out, inference, rate_given, load);
    if (out.hourly.empty()) {
        return;
    }
    const double peak = *std::max_element(out.hourly.begin(), out.hourly.end());
    if (out.csv.empty() && peak != 1.0) {
        node.error(fmt::format("the largest multiplier must be 1 (requests_per_second is the "
                               "peak), got {:g}",
                               peak));
        return;
    }
    inference.load = std::move(out);
}

void read_autoscaling(const YamlNode& node, Inference& inference) {
    if (!node.expect_map(
            {"min_replicas", "scale_to_zero", "cold_start_s", "headroom", "granularity"})) {
        return;
    }
    Autoscaling out;
    if (auto min = node.get("min_replicas")) {
        if (auto value = min->as_integer(0, k_max_replicas)) {
            out.min_replicas = static_cast<int>(*value);
        }
    }
    if (auto zero = node.get("scale_to_zero")) {
        out.scale_to_zero = zero->as_bool().value_or(false);
    }
    if (auto cold = node.get("cold_start_s")) {
        out.cold_start_s = cold->as_number(k_cold_start);
    }
    if (auto headroom = node.get("headroom")) {
        std::optional<double> value;
        if (headroom->is_scalar()) {
            value = parse_fraction(headroom->raw().Scalar());
        }
        if (!value || *value < k_headroom.min || *value > k_headroom.max) {
            headroom->error(
                fmt::format("expected {} (0.2 or 20%), got \"{}\"", k_headroom.description,
                            headroom->is_scalar() ? headroom->raw().Scalar() : "a non-scalar"));
        } else {
            out.headroom = *value;
        }
    }
    if (auto step = node.get("granularity")) {
        if (auto value = step->as_integer(1, k_max_replicas)) {
            out.granularity = static_cast<int>(*value);
        }
    }
    if (out.scale_to_zero && out.min_replicas > 0) {
        node.get("min_replicas")
            ->error("min_replicas above 0 keeps replicas warm; it contradicts "
                    "scale_to_zero: true");
    }
    inference.autoscaling = out;
}

} // namespace gpuplan::workload

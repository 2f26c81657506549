#include "report/curve_view.hpp"

#include "gpuplan/numbers.hpp"
#include "report/cost_outputs.hpp"

#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gpuplan::report {

using nlohmann::ordered_json;

namespace {

constexpr int k_hours_a_day = 24;
constexpr std::array<std::string_view, 7> k_days{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
constexpr int k_unit_digits = 3;

ordered_json purchase_json(const curve::Purchase& p) {
    return {{"id", p.id},
            {"gpu", p.gpu},
            {"purchase", to_string(p.purchase)},
            {"gpus_per_replica", p.gpus_per_replica},
            {"replicas", p.replicas},
            {"replica_hours_per_week", round_to(p.replica_hours, 2)},
            {"npv", round_money(p.npv)}};
}

ordered_json unit_json(const std::optional<double>& value) {
    return value ? ordered_json(round_significant(*value, k_unit_digits)) : ordered_json(nullptr);
}

// One character an hour: what serves it.
char hour_mark(const curve::Hour& h) {
    if (!h.met) {
        return '!';
    }
    if (h.committed + h.burst == 0) {
        return '.';
    }
    if (h.burst > 0) {
        return '+';
    }
    return h.idle > 0 ? '-' : '=';
}

// `09-18` for the hours of a day that buy burst, or empty.
std::string burst_hours(const std::vector<curve::Hour>& hours, int day) {
    int first = -1;
    int last = -1;
    int most = 0;
    for (int h = 0; h < k_hours_a_day; ++h) {
        const int index = day * k_hours_a_day + h;
        const curve::Hour& hour = hours[static_cast<std::size_t>(index)];
        if (hour.burst > 0) {
            first = first < 0 ? h : first;
            last = h;
            most = std::max(most, hour.burst);
        }
    }
    if (first < 0) {
        return "";
    }
    return fmt::format("burst up to {} ({:02d}-{:02d} h)", most, first, last + 1);
}

std::string chart(const curve::CurvePlan& plan) {
    std::string out = "       0     6     12    18    24\n";
    for (int day = 0; day < static_cast<int>(k_days.size()); ++day) {
        std::string marks;
        int low = -1;
        int high = 0;
        for (int h = 0; h < k_hours_a_day; ++h) {
            const int index = day * k_hours_a_day + h;
            const curve::Hour& hour = plan.hours[static_cast<std::size_t>(index)];
            marks += hour_mark(hour);
            low = low < 0 ? hour.needed : std::min(low, hour.needed);
            high = std::max(high, hour.needed);
        }
        const std::string burst = burst_hours(plan.hours, day);
        out += fmt::format("  {}  {}  needs {}-{}{}\n", k_days.at(static_cast<std::size_t>(day)),
                           marks, low, high, burst.empty() ? "" : "; " + burst);
    }
    out += "  = committed base, all used   - base partly idle   + hourly burst bought   . no "
           "replica   ! target missed\n";
    return out;
}

std::string hours_list(const std::vector<int>& hours) {
    std::vector<std::string> names;
    names.reserve(hours.size());
    for (int h : hours) {
        names.push_back(fmt::format("{} {:02d}h",
                                    k_days.at(static_cast<std::size_t>(h / k_hours_a_day)),
                                    h % k_hours_a_day));
    }
    return fmt::format("{}", fmt::join(names, ", "));
}

std::string purchase_line(const curve::Purchase& p, const std::string& currency, bool base) {
    return fmt::format("{} {} replica{} of {} x {} ({}), NPV {}",
                       base ? "committed" : "burst up to", p.replicas, p.replicas == 1 ? "" : "s",
                       p.gpus_per_replica, p.gpu, p.id, format_money(p.npv, currency));
}

std::string unit_text(const std::optional<double>& value, const std::string& currency) {
    return value ? fmt::format("{:.{}g} {}", round_significant(*value, k_unit_digits),
                               k_unit_digits, currency)
                 : std::string("n/a");
}

std::string cold_start_text(const curve::ColdStart& c) {
    std::string out = fmt::format(
        "cold start {} s ({})", format_fixed(c.seconds, 1),
        c.derived ? fmt::format("derived: start-up {} s{}, {} GB of weights downloaded in {} s and "
                                "copied to the GPUs in {} s",
                                format_fixed(c.startup_s, 1),
                                c.startup_placeholder ? " (placeholder)" : "",
                                format_fixed(c.weights_gb, 1), format_fixed(c.download_s, 1),
                                format_fixed(c.load_s, 1))
                  : std::string("autoscaling.cold_start_s"));
    if (c.breaks_target) {
        out += fmt::format(
            "; scaling from zero breaks the {:g} ms target: the first requests after "
            "an hour without replicas wait for the cold start. Keep {} replica{} "
            "warm (autoscaling: min_replicas: {}, scale_to_zero: false)",
            c.target_ms, c.warm_replicas, c.warm_replicas == 1 ? "" : "s", c.warm_replicas);
    }
    return out;
}

} // namespace

void put_curve_json(ordered_json& out, const curve::CurvePlan& plan) {
    ordered_json base = ordered_json::array();
    for (const curve::Purchase& p : plan.base) {
        base.push_back(purchase_json(p));
    }
    ordered_json burst = ordered_json::array();
    for (const curve::Purchase& p : plan.burst) {
        burst.push_back(purchase_json(p));
    }
    ordered_json cold = nullptr;
    if (plan.cold_start) {
        const curve::ColdStart& c = *plan.cold_start;
        cold = {{"seconds", round_to(c.seconds, 2)},
                {"derived", c.derived},
                {"startup_s", round_to(c.startup_s, 2)},
                {"startup_placeholder", c.startup_placeholder},
                {"download_s", round_to(c.download_s, 2)},
                {"load_s", round_to(c.load_s, 2)},
                {"weights_gb", round_to(c.weights_gb, 2)},
                {"breaks_target", c.breaks_target},
                {"warm_replicas", c.warm_replicas}};
    }
    out["load"] = {
        {"gpu", plan.gpu},
        {"gpus_per_replica", plan.gpus_per_replica},
        {"gpu_hours_per_month", round_to(plan.gpu_hours_per_month, 2)},
        {"flat_peak_gpu_hours_per_month", round_to(plan.flat_peak_gpu_hours_per_month, 2)},
        {"peak_replicas", plan.peak_replicas},
        {"mean_replicas", round_to(plan.mean_replicas, 3)},
        {"npv", round_money(plan.npv)},
        {"total", round_money(plan.total)},
        {"flat_peak",
         {{"id", plan.flat_peak_id},
          {"gpus", plan.flat_peak_gpus},
          {"npv", round_money(plan.flat_peak_npv)}}},
        {"saving", round_to(plan.saving, 4)},
        {"committed_utilisation", round_to(plan.committed_utilisation, 4)},
        {"per_million_input_tokens", unit_json(plan.per_million_input_tokens)},
        {"per_million_output_tokens", unit_json(plan.per_million_output_tokens)},
        {"hours_met", plan.hours_met},
        {"hours_missed", plan.hours_missed},
        {"base", base},
        {"burst", burst},
        {"cold_start", cold},
        {"percentile", plan.percentile},
        {"burst_window_s", curve::k_burst_window_s},
        {"headroom", plan.headroom},
        {"scale_to_zero", plan.scale_to_zero},
        {"years", plan.years},
        {"optimal", plan.optimal}};
    ordered_json hours = ordered_json::array();
    for (const curve::Hour& h : plan.hours) {
        hours.push_back({{"hour", h.hour},
                         {"needed", h.needed},
                         {"committed", h.committed},
                         {"burst", h.burst},
                         {"idle", h.idle},
                         {"met", h.met}});
    }
    out["hours"] = hours;
}

std::string curve_text(const curve::CurvePlan& plan, const std::string& currency, bool markdown) {
    const std::string bullet = markdown ? "- " : "  ";
    std::string out =
        markdown ? "\n## Serving to the traffic curve\n\n" : "\nServing to the traffic curve:\n";
    out += fmt::format("{}replicas of {} x {} each hour of a typical week (Monday first), at the "
                       "P{} targets with each hour's one-minute Poisson burst{}:\n",
                       bullet, plan.gpus_per_replica, plan.gpu, plan.percentile,
                       plan.headroom > 0.0 ? " and " + percent(plan.headroom) + " headroom" : "");
    out += markdown ? "\n```\n" + chart(plan) + "```\n\n" : chart(plan);
    for (const curve::Purchase& p : plan.base) {
        out += bullet + purchase_line(p, currency, true) + "\n";
    }
    for (const curve::Purchase& p : plan.burst) {
        out += bullet + purchase_line(p, currency, false) + "\n";
    }
    out += fmt::format("{}NPV {} against {} for the flat peak plan, the peak hour's {} {} in "
                       "every hour ({}): {} saved\n",
                       bullet, format_money(plan.npv, currency),
                       format_money(plan.flat_peak_npv, currency), plan.flat_peak_gpus,
                       plan.flat_peak_gpus == 1 ? "GPU" : "GPUs", plan.flat_peak_id,
                       percent(plan.saving));
    out += fmt::format("{}{} GPU-hours a month needed against {} for the flat peak fleet; {} "
                       "replicas at peak, {} on average\n",
                       bullet, format_thousands(plan.gpu_hours_per_month),
                       format_thousands(plan.flat_peak_gpu_hours_per_month), plan.peak_replicas,
                       format_fixed(plan.mean_replicas, 2));
    out += fmt::format("{}committed capacity used {}\n", bullet,
                       plan.base.empty() ? std::string("n/a (no committed base)")
                                         : percent(plan.committed_utilisation));
    out += fmt::format("{}per million tokens, idle capacity included: input {}, output {}\n",
                       bullet, unit_text(plan.per_million_input_tokens, currency),
                       unit_text(plan.per_million_output_tokens, currency));
    if (plan.hours_missed.empty()) {
        out += fmt::format("{}targets hold in 100% of the hours ({} of 168)\n", bullet,
                           plan.hours_met);
    } else {
        out += fmt::format("{}targets hold in {} of 168 hours; missed: {}\n", bullet,
                           plan.hours_met, hours_list(plan.hours_missed));
    }
    if (plan.cold_start) {
        out += bullet + cold_start_text(*plan.cold_start) + "\n";
    }
    if (!plan.optimal) {
        out += bullet + "the solver stopped before proving this purchase optimal\n";
    }
    return out;
}

} // namespace gpuplan::report
